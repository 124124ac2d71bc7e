/* region_scan.h — a plain scan of the regions split over two threads:
 * this one reads the region packs (lib/store/packed/region_pack.h) in
 * id order, straight from region_pack, decodes the columns the scan
 * asks for, keeps the rows its filter keeps, and hands them in batches
 * to one consumer thread, which does the rest (summing, joining). No row
 * goes through SQLite (the region virtual table would make each one a
 * step and a call per column: most of the scan's time). The consumer
 * sees the rows in the same order as a single-threaded loop over
 * `SELECT ... FROM region` would, so its results are the same; when its
 * thread cannot start, it runs here, batch by batch. */
#ifndef AMD_REGION_SCAN_H
#define AMD_REGION_SCAN_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "region_pack.h"
#include "store.h"

#define RS_COLS 14

/* One row: column i's integer in v[i] (0 when NULL), bit i of null set
 * when it is NULL. */
struct rs_row {
	int64_t v[RS_COLS];
	uint32_t null;
};

/* Called with each batch of rows, in order; -1 stops the scan (out of
 * memory). */
typedef int (*rs_consume)(void *ctx, const struct rs_row *rows, size_t n);

/* A region column a scan reads: the pack's region_pack rowid (to name
 * it in a message), source_id or run_id, or a field of region_pack.h
 * (AMD_RG_RANK ... AMD_RG_BYTES). */
enum { RS_PACK = -3, RS_SOURCE = -2, RS_RUN = -1 };

/* What a scan reads: row column i is region column cols[i]; keep (NULL:
 * every row) says whether a row (those columns) is the scan's, as the
 * WHERE of `SELECT cols FROM region WHERE ...` would; with_run: only
 * the regions with a run (packs without one are not decoded); runs
 * (nruns > 0): only the packs of those runs, run after run in that
 * order (each run's through region_pack's index on run_id, in id
 * order), not every pack. */
struct rs_query {
	int ncols; /* <= RS_COLS */
	signed char cols[RS_COLS];
	int (*keep)(const void *arg, const struct rs_row *row);
	const void *arg;
	int with_run;
	const int64_t *runs;
	size_t nruns;
};

/* Every region of q to fn in id order (the order of `SELECT ... FROM
 * region`; with runs, per run), in batches; 0, or -1 with err filled: a pack that is not
 * well formed (named by its region_pack row, as the virtual table names
 * it), SQLite's error, or out of memory (also when fn failed). */
int rs_scan(struct amd_store *st, const struct rs_query *q, rs_consume fn, void *ctx,
	    struct amd_err *err);

#endif
