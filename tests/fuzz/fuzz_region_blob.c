/* fuzz_region_blob.c — the packed region reader
 * (lib/store/packed/region_pack.h) on any bytes: a store is a file a user
 * may hand over, so a region_pack row can hold anything. The first byte
 * is the row's n, the next 8 its id_lo (little-endian), the rest the
 * blob. A refusal is one line, and the size check (amd_regions_check)
 * refuses exactly what the reader refuses for its size or widths; what
 * is accepted has ascending ids, each found at its place, and packs
 * (with the least widths) into a blob that reads back to the same
 * regions. */
#include "fuzz.h"
#include "le64.h"
#include "region_pack.h"

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
		int64_t lo = n ? v[0].id : id_lo;
		size_t bytes = amd_regions_packed_size(v, n, lo);
		unsigned char *back = malloc(bytes + 1);
		if (!back)
			abort();
		amd_regions_pack(v, n, lo, back);
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
