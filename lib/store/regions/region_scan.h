/* region_scan.h — a plain scan of the region table split over two
 * threads: this one steps SQLite, which hands each row's integer columns
 * to a function of ours (amd_region_scan) that copies them,
 * one consumer thread gets them in batches, in the scan's order, and
 * does the rest (summing, joining). The consumer sees the rows in the
 * same order as a single-threaded loop, so its results are the same;
 * when its thread cannot start, it runs here, batch by batch. */
#ifndef AMD_REGION_SCAN_H
#define AMD_REGION_SCAN_H

#include <stddef.h>
#include <stdint.h>

#include <sqlite3.h>

#define RS_COLS 13

/* One row: column i's integer in v[i] (0 when NULL), bit i of null set
 * when it is NULL. */
struct rs_row {
	int64_t v[RS_COLS];
	uint32_t null;
};

/* Called with each batch of rows, in order; -1 stops the scan (out of
 * memory). */
typedef int (*rs_consume)(void *ctx, const struct rs_row *rows, size_t n);

/* Registers SQL function amd_region_scan on db (every store handle):
 * a scan's query is "SELECT count(amd_region_scan(" RS_ARG ", c0, c1,
 * ...)) FROM region ...", c0.. its ncols (<= RS_COLS) integer columns;
 * its own parameters ?1..?8 (RS_ARG, the scan, is bound by rs_scan: a
 * numbered one, as a named one would take the number ?1 has). */
#define RS_ARG "?9"
int rs_register(sqlite3 *db);

/* Steps q (a query of that form) to its end, every row's ncols columns
 * to fn in the scan's order; the last sqlite3_step's code returned
 * (SQLITE_DONE when every row was read), SQLITE_NOMEM when fn failed. */
int rs_scan(sqlite3_stmt *q, int ncols, rs_consume fn, void *ctx);

#endif
