/* region_pack.c — the packed region layout (region_pack.h). */
#include "region_pack.h"

#include <stddef.h>
#include <string.h>

#include "col_pack.h"
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

/* Each column's width: that of its least or its greatest value (the
 * widths' ranges nest around 0, so no value between needs more), one
 * pass over the regions, each read once (a pass per column read a
 * 65,536-region pack 16 times over). */
static void widths(const struct amd_packed_region *v, size_t n, int64_t id_lo,
		   unsigned char w[AMD_REGION_COLUMNS])
{
	int64_t lo[AMD_REGION_COLUMNS] = {0}, hi[AMD_REGION_COLUMNS] = {0};
	for (size_t i = 0; i < n; i++)
		for (int c = 0; c < AMD_REGION_COLUMNS; c++) {
			int64_t x = column_value(&v[i], c, id_lo);
			lo[c] = x < lo[c] ? x : lo[c];
			hi[c] = x > hi[c] ? x : hi[c];
		}
	for (int c = 0; c < AMD_REGION_COLUMNS; c++) {
		int a = amd_col_width(lo[c]), b = amd_col_width(hi[c]);
		w[c] = (unsigned char)(a > b ? a : b);
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

/* The columns are written a block of regions at a time, so that each
 * region is read from the cache, not from memory once per column. */
#define PACK_BLOCK 256

void amd_regions_pack(const struct amd_packed_region *v, size_t n, int64_t id_lo,
		      unsigned char *out)
{
	unsigned char w[AMD_REGION_COLUMNS];
	widths(v, n, id_lo, w);
	memcpy(out, w, AMD_REGION_COLUMNS);
	unsigned char *col[AMD_REGION_COLUMNS]; /* where column c starts */
	col[0] = out + AMD_REGION_COLUMNS;
	for (int c = 1; c < AMD_REGION_COLUMNS; c++)
		col[c] = col[c - 1] + w[c - 1] * n;
	for (size_t at = 0; at < n; at += PACK_BLOCK) {
		size_t end = n - at < PACK_BLOCK ? n : at + PACK_BLOCK;
		for (int c = 0; c < AMD_REGION_COLUMNS; c++)
			for (size_t i = at; i < end && w[c]; i++)
				amd_col_put(col[c] + i * w[c], w[c], column_value(&v[i], c, id_lo));
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
