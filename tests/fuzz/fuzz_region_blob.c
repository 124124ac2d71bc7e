/* fuzz_region_blob.c — the packed region reader
 * (lib/store/packed/region_pack.h) on any bytes: a store is a file a user
 * may hand over, so a region_pack row can hold anything. The first byte
 * is the row's n, the next 8 its id_lo (little-endian), the rest the
 * blob. A refusal is one line, and the size check (amd_regions_check)
 * refuses exactly what the reader refuses for its size or widths; what
 * is accepted has ascending ids, each found at its place, and packs
 * (with the least widths) into a blob that reads back to the same
 * regions; every column read alone, any stretch of records at a time
 * (amd_regions_column, the region scan's reader), is what the reader
 * read. */
#include "fuzz.h"
#include "le64.h"
#include "region_pack.h"

/* Column c of records [at, at + k) as amd_regions_column reads them (the
 * region scan's way, region_scan.c), for every k-sized stretch: those of
 * the regions v that amd_regions_unpack read (id less id_lo; a NULL
 * field's stored 0). */
static int same_columns(const void *blob, size_t n, int64_t id_lo,
			const struct amd_packed_region *v, size_t k)
{
	int64_t x[7];
	for (int c = 0; c < AMD_REGION_COLUMNS; c++)
		for (size_t at = 0; at < n; at += k) {
			size_t m = n - at < k ? n - at : k;
			amd_regions_column(blob, n, c, at, m, x);
			for (size_t i = 0; i < m; i++) {
				const struct amd_packed_region *r = &v[at + i];
				int64_t want = c == 0 ? (int64_t)r->nulls
					     : c == 1 ? (int64_t)((uint64_t)r->id - (uint64_t)id_lo)
						      : r->v[c - 2];
				if (c == 0 ? (uint32_t)x[i] != r->nulls : x[i] != want)
					return 0;
			}
		}
	return 1;
}

static int same(const struct amd_packed_region *a, const struct amd_packed_region *b)
{
	if (a->id != b->id || a->nulls != b->nulls)
		return 0;
	for (int f = 0; f < AMD_RG_FIELDS; f++)
		if (!(a->nulls >> f & 1) && a->v[f] != b->v[f])
			return 0;
	return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 9)
		return 0;
	size_t n = data[0];
	int64_t id_lo = (int64_t)amd_get_le64(data + 1);
	const uint8_t *blob = data + 9;
	size_t len = size - 9;
	struct amd_err err = {{0}}, cerr = {{0}};
	struct amd_packed_region *v = malloc((n + 1) * sizeof *v), *w = malloc((n + 1) * sizeof *w);
	if (!v || !w)
		abort();
	int checked = amd_regions_check(blob, len, n, "fuzz", &cerr);
	if (amd_regions_unpack(blob, len, n, id_lo, "fuzz", v, &err) < 0) {
		if (!err.msg[0] || strchr(err.msg, '\n'))
			abort();
		if (checked < 0 && strcmp(err.msg, cerr.msg) != 0)
			abort(); /* a size refusal is the check's */
	} else {
		if (checked < 0)
			abort();
		for (size_t i = 0; i < n; i++)
			if ((i && v[i].id <= v[i - 1].id) || amd_region_find(v, n, v[i].id) != (int64_t)i)
				abort();
		if (!same_columns(blob, n, id_lo, v, 7) || !same_columns(blob, n, id_lo, v, 1))
			abort();
		int64_t lo = n ? v[0].id : id_lo;
		unsigned char widths[AMD_REGION_COLUMNS];
		amd_regions_widths(v, n, lo, widths);
		size_t bytes = amd_regions_packed_size(widths, n);
		unsigned char *back = malloc(bytes + 1);
		if (!back)
			abort();
		amd_regions_pack(v, n, lo, widths, back);
		if (amd_regions_unpack(back, bytes, n, lo, "fuzz", w, &err) < 0)
			abort();
		for (size_t i = 0; i < n; i++)
			if (!same(&v[i], &w[i]))
				abort();
		free(back);
	}
	free(v);
	free(w);
	return 0;
}
