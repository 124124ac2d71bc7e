/* region_pack.c — the packed region layout (region_pack.h). */
#include "region_pack.h"

#include <stddef.h>
#include <string.h>

#include "le64.h"
#include "sorted_find.h"

/* Column c of region r as stored. */
static int64_t column_value(const struct amd_packed_region *r, int c, int64_t id_lo)
{
	if (c == 0)
		return (int64_t)r->nulls;
	if (c == 1)
		return (int64_t)((uint64_t)r->id - (uint64_t)id_lo);
	return (r->nulls >> (c - 2) & 1) ? 0 : r->v[c - 2];
}

/* The least width (0, 1, 2, 4, 8) holding x as a signed number. */
static int width_of(int64_t x)
{
	if (x == 0)
		return 0;
	if (x >= INT8_MIN && x <= INT8_MAX)
		return 1;
	if (x >= INT16_MIN && x <= INT16_MAX)
		return 2;
	if (x >= INT32_MIN && x <= INT32_MAX)
		return 4;
	return 8;
}

static void widths(const struct amd_packed_region *v, size_t n, int64_t id_lo,
		   unsigned char w[AMD_REGION_COLUMNS])
{
	memset(w, 0, AMD_REGION_COLUMNS);
	for (int c = 0; c < AMD_REGION_COLUMNS; c++)
		for (size_t i = 0; i < n && w[c] < 8; i++) {
			int k = width_of(column_value(&v[i], c, id_lo));
			if (k > w[c])
				w[c] = (unsigned char)k;
		}
}

size_t amd_regions_packed_size(const struct amd_packed_region *v, size_t n, int64_t id_lo)
{
	unsigned char w[AMD_REGION_COLUMNS];
	widths(v, n, id_lo, w);
	size_t row = 0;
	for (int c = 0; c < AMD_REGION_COLUMNS; c++)
		row += w[c];
	return AMD_REGION_COLUMNS + row * n;
}

void amd_regions_pack(const struct amd_packed_region *v, size_t n, int64_t id_lo,
		      unsigned char *out)
{
	unsigned char w[AMD_REGION_COLUMNS], word[8];
	widths(v, n, id_lo, w);
	memcpy(out, w, AMD_REGION_COLUMNS);
	out += AMD_REGION_COLUMNS;
	for (int c = 0; c < AMD_REGION_COLUMNS; c++)
		for (size_t i = 0; i < n && w[c]; i++, out += w[c]) {
			amd_put_le64(word, (uint64_t)column_value(&v[i], c, id_lo));
			memcpy(out, word, w[c]);
		}
}

/* The signed little-endian number of width w at p. */
static int64_t get_signed(const unsigned char *p, int w)
{
	unsigned char word[8];
	memcpy(word, p, (size_t)w);
	memset(word + w, (p[w - 1] & 0x80) ? 0xff : 0, (size_t)(8 - w));
	return (int64_t)amd_get_le64(word);
}

/* Column c of the n records at p (width w) into out. */
static void get_column(const unsigned char *p, int w, int c, size_t n, int64_t id_lo,
		       struct amd_packed_region *out)
{
	for (size_t i = 0; i < n; i++, p += w) {
		int64_t x = w ? get_signed(p, w) : 0;
		if (c == 0)
			out[i].nulls = (uint32_t)x;
		else if (c == 1)
			out[i].id = (int64_t)((uint64_t)id_lo + (uint64_t)x);
		else
			out[i].v[c - 2] = x;
	}
}

int amd_regions_check(const void *blob, size_t len, size_t n, const char *what,
		      struct amd_err *err)
{
	const unsigned char *p = blob;
	size_t row = 0;
	if (len < AMD_REGION_COLUMNS)
		return amd_fail(err, "%s: packed regions of %zu bytes, shorter than their widths",
				what, len);
	for (int c = 0; c < AMD_REGION_COLUMNS; c++) {
		if (p[c] > 8 || (p[c] & (p[c] - 1)))
			return amd_fail(err, "%s: column %d of width %d", what, c, p[c]);
		row += p[c];
	}
	size_t body = len - AMD_REGION_COLUMNS;
	if (row ? body % row || body / row != n : body || n > 1)
		return amd_fail(err, "%s: packed regions of %zu bytes, not %zu records", what, len,
				n);
	return 0;
}

int amd_regions_unpack(const void *blob, size_t len, size_t n, int64_t id_lo, const char *what,
		       struct amd_packed_region *out, struct amd_err *err)
{
	const unsigned char *p = blob;
	if (amd_regions_check(blob, len, n, what, err) < 0)
		return -1;
	const unsigned char *col = p + AMD_REGION_COLUMNS;
	for (int c = 0; c < AMD_REGION_COLUMNS; col += p[c] * n, c++)
		get_column(col, p[c], c, n, id_lo, out);
	for (size_t i = 0; i < n; i++) {
		if (out[i].nulls >> AMD_RG_FIELDS)
			return amd_fail(err, "%s: region %zu has an unknown null bit", what, i);
		if (i && out[i].id <= out[i - 1].id)
			return amd_fail(err, "%s: region ids not ascending at region %zu", what, i);
	}
	return 0;
}

int64_t amd_region_find(const struct amd_packed_region *v, size_t n, int64_t id)
{
	size_t at = amd_sorted_find_i64(v, n, sizeof *v, offsetof(struct amd_packed_region, id), id);
	return at < n ? (int64_t)at : -1;
}
