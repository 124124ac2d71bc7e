/* region_pack.h — the packed layout of regions (issue 38, round eight):
 * the regions of one stretch of a unit that share a run are one
 * region_pack row (source_id, run_id, n, id_lo, id_hi, regions), the
 * blob a little-endian column array:
 *
 *   16 width bytes, one per column (0, 1, 2, 4 or 8), then each column's
 *   n signed values of its width, column after column. Column 0 is the
 *   null mask (bit f: field f is NULL), column 1 the id less id_lo,
 *   columns 2..15 the fields rank, device, kind_id, profiler_id,
 *   name_id, file_id, line, key, parent_key, calls, prim_calls, self_ns,
 *   total_ns, bytes. A NULL field is stored as 0. Ids ascend.
 *
 * Each column takes the least width its values need, so a pack of one
 * trace's regions holds ~30 bytes a region, not the 17 columns and two
 * index entries of a row. The ONE pair of functions that writes and
 * reads the layout: the writer, the migration from row-per-region
 * stores, the ClickHouse load and the region virtual table
 * (region_sql.h) all go through them. */
#ifndef AMD_REGION_PACK_H
#define AMD_REGION_PACK_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"

enum amd_region_field {
	AMD_RG_RANK, AMD_RG_DEVICE, AMD_RG_KIND, AMD_RG_PROFILER, AMD_RG_NAME, AMD_RG_FILE,
	AMD_RG_LINE, AMD_RG_KEY, AMD_RG_PARENT, AMD_RG_CALLS, AMD_RG_PRIM, AMD_RG_SELF,
	AMD_RG_TOTAL, AMD_RG_BYTES, AMD_RG_FIELDS
};

#define AMD_REGION_COLUMNS (AMD_RG_FIELDS + 2)

struct amd_packed_region {
	int64_t id;
	uint32_t nulls; /* bit f: v[f] is NULL */
	int64_t v[AMD_RG_FIELDS];
};

/* Each column's width for v[0..n) (ids from id_lo): the least that
 * holds every value of the column; one pass, taken once for the size
 * and the pack (a pass each was a twentieth of a key_averages ingest). */
void amd_regions_widths(const struct amd_packed_region *v, size_t n, int64_t id_lo,
			unsigned char w[AMD_REGION_COLUMNS]);
/* The bytes amd_regions_pack writes for n regions of widths w. */
size_t amd_regions_packed_size(const unsigned char w[AMD_REGION_COLUMNS], size_t n);
/* Writes v[0..n) (ids ascending, from id_lo; w their amd_regions_widths)
 * into out, which holds amd_regions_packed_size bytes. */
void amd_regions_pack(const struct amd_packed_region *v, size_t n, int64_t id_lo,
		      const unsigned char w[AMD_REGION_COLUMNS], unsigned char *out);
/* 0 when a blob of len bytes holds n regions (widths 0/1/2/4/8 and
 * their n records), else -1 with what naming the blob. */
int amd_regions_check(const void *blob, size_t len, size_t n, const char *what,
		      struct amd_err *err);
/* amd_regions_check of a region_pack row's blob and its n column as
 * stored (a count below 0 or past the blob's bytes is refused first). */
int amd_region_pack_check(const void *blob, size_t len, int64_t n, const char *what,
			  struct amd_err *err);
/* The n regions of a blob of len bytes into out[0..n), ids from id_lo;
 * what names the blob in a message: a length that is not the widths'
 * n records, a width not 0/1/2/4/8, ids not ascending. */
int amd_regions_unpack(const void *blob, size_t len, size_t n, int64_t id_lo, const char *what,
		       struct amd_packed_region *out, struct amd_err *err);

/* Column c (0: the null mask, 1: id less id_lo, 2 + f: field f) of
 * records [at, at + k) of a blob of n records that amd_regions_check
 * passed into x[0..k) — a reader of a few columns (region_scan.c) reads
 * only those. */
void amd_regions_column(const void *blob, size_t n, int c, size_t at, size_t k, int64_t *x);
/* 0 when record i (null mask nulls, id; prev: the id of record i - 1)
 * is well formed: no unknown null bit, ids ascending; else -1 with what
 * naming the blob. amd_regions_unpack checks every record so. */
int amd_region_record_ok(uint32_t nulls, int64_t id, int64_t prev, size_t i, const char *what,
			 struct amd_err *err);

/* The index of region id in v[0..n) (ascending ids), -1 when absent. */
int64_t amd_region_find(const struct amd_packed_region *v, size_t n, int64_t id);

#endif
