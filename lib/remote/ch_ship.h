/* ch_ship.h — writing one unit, staged in an in-memory SQLite store by
 * the SQLite writer, to ClickHouse: every table's rows, then the commit
 * row that makes them visible. */
#ifndef AMD_CH_SHIP_H
#define AMD_CH_SHIP_H

#include <stdint.h>

#include "clickhouse.h"
#include "store.h"

struct ch_source {
	const char *path, *kind, *sha256;
	uint64_t size;
};

/* A fresh random attempt id (> 0). */
int64_t amd_ch_new_attempt(void);

/* Ships staging's rows under attempt, then the source row (the commit). */
int amd_ch_ship(struct amd_ch *ch, struct amd_store *staging, int64_t attempt,
		const struct ch_source *src, struct amd_err *err);

/* The same for the rows of one local source of a store (push: temporary
 * views show the other tables' rows of that source only; its metric
 * series are read through unit_rows.h with that source). */
int amd_ch_ship_source(struct amd_ch *ch, struct amd_store *staging, int64_t source,
		       int64_t attempt, const struct ch_source *src, struct amd_err *err);

/* One unit's rows to ship: those of staging (of local source source, or
 * every source when 0) under attempt, committed as src. */
struct amd_ch_unit_rows {
	struct amd_store *staging;
	int64_t source;
	int64_t attempt;
	const struct ch_source *src;
	/* 1: its path held no commit when the unit was found NEW, so it
	 * replaces no attempt and none is looked for (a request a batch);
	 * one another process committed since is seen by no reader, as
	 * ours is later, and is dropped by the next ingest's prepare
	 * (amd_ch_drop_stale). 0: its replaced attempts are dropped. */
	int fresh;
};

/* Ships the rows of n units, one INSERT per table for all of them (the
 * ingest's batches, ch_target.c), then their n source rows in one
 * INSERT (the commit: all visible at once, or none), then drops the
 * attempts each replaces. -1 with err when nothing was committed; 1
 * with err when the units were committed (readers see them) but
 * dropping the attempts they replace failed: those rows stay, seen by
 * no reader, until amd_ch_drop_stale. amd_ch_ship returns -1 for
 * both; amd_ch_ship_source passes the 1 on. */
int amd_ch_ship_units(struct amd_ch *ch, const struct amd_ch_unit_rows *units, size_t n,
		      struct amd_err *err);

/* After attempt of path committed at ns: deletes the rows of the
 * attempts of path it replaces (committed before it). */
int amd_ch_drop_replaced(struct amd_ch *ch, const char *path, int64_t attempt, long long ns,
			 struct amd_err *err);

/* Deletes the rows of every attempt a later commit of its path
 * replaced that is still held (a clean-up that failed after its commit:
 * amd_ch_ship_units); one query when there is none. */
int amd_ch_drop_stale(struct amd_ch *ch, struct amd_err *err);

/* Forgets path (a held file that now holds nothing, a run deleted since
 * it was ingested): commits an empty attempt of path, sha256 "" (no
 * rows: readers take the latest commit of a path and skip it, ch_load.h
 * amd_ch_committed_sql), then deletes the attempts it replaces. */
int amd_ch_forget(struct amd_ch *ch, const char *path, struct amd_err *err);

/* Appends s to b as a ClickHouse string literal ('…' with \ and ' escaped). */
int amd_ch_quote(struct amd_buf *b, const char *s);

#endif
