/* region_pack.c — the packed region layout (region_pack.h). */
#include "region_pack.h"

#include <stddef.h>
#include <string.h>

#include "col_pack.h"
#include "sorted_find.h"

/* Region r's columns as stored into x: the null mask, the id less
 * id_lo, then each field (0 when NULL, by a mask: no branch). */
static void record_values(const struct amd_packed_region *r, int64_t id_lo,
			  int64_t x[AMD_REGION_COLUMNS])
{
	x[0] = (int64_t)r->nulls;
	x[1] = (int64_t)((uint64_t)r->id - (uint64_t)id_lo);
	for (int f = 0; f < AMD_RG_FIELDS; f++)
		x[f + 2] = r->v[f] & -(int64_t)(~r->nulls >> f & 1);
}

/* The width of a column from two ORs over its values: of the values
 * (0: all 0) and of each value folded to its magnitude (x ^ x >> 63,
 * below 2^7, 2^15 or 2^31 exactly when x fits 1, 2 or 4 bytes signed):
 * the least width that holds every value, as amd_col_width gives. */
static unsigned char width_of(uint64_t any, uint64_t folded)
{
	return !any ? 0 : folded < 0x80 ? 1 : folded < 0x8000 ? 2 : folded < 0x80000000u ? 4 : 8;
}

void amd_regions_widths(const struct amd_packed_region *v, size_t n, int64_t id_lo,
			unsigned char w[AMD_REGION_COLUMNS])
{
	uint64_t any[AMD_REGION_COLUMNS] = {0}, folded[AMD_REGION_COLUMNS] = {0};
	for (size_t i = 0; i < n; i++) {
		int64_t x[AMD_REGION_COLUMNS];
		record_values(&v[i], id_lo, x);
		for (int c = 0; c < AMD_REGION_COLUMNS; c++) {
			any[c] |= (uint64_t)x[c];
			folded[c] |= (uint64_t)(x[c] ^ (x[c] >> 63));
		}
	}
	for (int c = 0; c < AMD_REGION_COLUMNS; c++)
		w[c] = width_of(any[c], folded[c]);
}

size_t amd_regions_packed_size(const unsigned char w[AMD_REGION_COLUMNS], size_t n)
{
	size_t row = 0;
	for (int c = 0; c < AMD_REGION_COLUMNS; c++)
		row += w[c];
	return AMD_REGION_COLUMNS + row * n;
}

void amd_regions_pack(const struct amd_packed_region *v, size_t n, int64_t id_lo,
		      const unsigned char w[AMD_REGION_COLUMNS], unsigned char *out)
{
	unsigned char *col[AMD_REGION_COLUMNS];
	memcpy(out, w, AMD_REGION_COLUMNS);
	col[0] = out + AMD_REGION_COLUMNS;
	for (int c = 1; c < AMD_REGION_COLUMNS; c++)
		col[c] = col[c - 1] + (size_t)w[c - 1] * n;
	for (size_t i = 0; i < n; i++) { /* region by region, each column's place */
		int64_t x[AMD_REGION_COLUMNS];
		record_values(&v[i], id_lo, x);
		for (int c = 0; c < AMD_REGION_COLUMNS; c++)
			if (w[c]) {
				amd_col_put(col[c], w[c], x[c]);
				col[c] += w[c];
			}
	}
}

/* Column c of the n records at p (width w) into out, through x (room
 * for n numbers). */
static void get_column(const unsigned char *p, int w, int c, size_t n, int64_t id_lo,
		       int64_t *x, struct amd_packed_region *out)
{
	amd_col_get(p, w, n, x);
	if (c == 0)
		for (size_t i = 0; i < n; i++)
			out[i].nulls = (uint32_t)x[i];
	else if (c == 1)
		for (size_t i = 0; i < n; i++)
			out[i].id = (int64_t)((uint64_t)id_lo + (uint64_t)x[i]);
	else
		for (size_t i = 0; i < n; i++)
			out[i].v[c - 2] = x[i];
}

int amd_regions_check(const void *blob, size_t len, size_t n, const char *what,
		      struct amd_err *err)
{
	const unsigned char *p = blob;
	size_t row = 0;
	if (len < AMD_REGION_COLUMNS)
		return amd_fail(err, "%s: packed regions of %zu bytes, shorter than their widths",
				what, len);
	int bad = amd_col_bad_width(p, AMD_REGION_COLUMNS, &row);
	if (bad >= 0)
		return amd_fail(err, "%s: column %d of width %d", what, bad, p[bad]);
	size_t body = len - AMD_REGION_COLUMNS;
	if (row ? body % row || body / row != n : body || n > 1)
		return amd_fail(err, "%s: packed regions of %zu bytes, not %zu records", what, len,
				n);
	return 0;
}

int amd_region_pack_check(const void *blob, size_t len, int64_t n, const char *what,
			  struct amd_err *err)
{
	if (n < 0 || (uint64_t)n > len)
		return amd_fail(err, "%s: n is not the blob's count of records", what);
	return amd_regions_check(blob, len, (size_t)n, what, err);
}

int amd_regions_unpack(const void *blob, size_t len, size_t n, int64_t id_lo, const char *what,
		       struct amd_packed_region *out, struct amd_err *err)
{
	const unsigned char *p = blob;
	if (amd_regions_check(blob, len, n, what, err) < 0)
		return -1;
	const unsigned char *col = p + AMD_REGION_COLUMNS;
	int64_t x[256];
	for (size_t at = 0; at < n; at += 256) { /* 256 records at a time */
		size_t k = n - at < 256 ? n - at : 256;
		const unsigned char *from = col;
		for (int c = 0; c < AMD_REGION_COLUMNS; from += p[c] * n, c++)
			get_column(from + p[c] * at, p[c], c, k, id_lo, x, out + at);
	}
	for (size_t i = 0; i < n; i++)
		if (amd_region_record_ok(out[i].nulls, out[i].id, i ? out[i - 1].id : 0, i, what,
					 err) < 0)
			return -1;
	return 0;
}

void amd_regions_column(const void *blob, size_t n, int c, size_t at, size_t k, int64_t *x)
{
	const unsigned char *p = blob, *from = p + AMD_REGION_COLUMNS;
	for (int b = 0; b < c; b++)
		from += p[b] * n;
	amd_col_get(from + p[c] * at, p[c], k, x);
}

int amd_region_record_ok(uint32_t nulls, int64_t id, int64_t prev, size_t i, const char *what,
			 struct amd_err *err)
{
	if (nulls >> AMD_RG_FIELDS)
		return amd_fail(err, "%s: region %zu has an unknown null bit", what, i);
	if (i && id <= prev)
		return amd_fail(err, "%s: region ids not ascending at region %zu", what, i);
	return 0;
}

int64_t amd_region_find(const struct amd_packed_region *v, size_t n, int64_t id)
{
	size_t at = amd_sorted_find_i64(v, n, sizeof *v, offsetof(struct amd_packed_region, id), id);
	return at < n ? (int64_t)at : -1;
}
