/* ch_push.c — pushing a local store to ClickHouse (ch_push.h). For each
 * local source the store's row stream is turned to that source's rows
 * (unit_rows.h, amd_table_rows_of_source), so the same writer that ships
 * an ingested unit (ch_ship.c) ships it from the local store. */
#include "ch_push.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "ch_schema.h"
#include "ch_ship.h"
#include "ch_tables.h"
#include "ch_state.h"
#include "clickhouse.h"
#include "sources.h"
#include "unit_rows.h"
#include "writer.h"

/* 1 when path is one of the sweep's sources. */
static int in_sweep(const struct amd_source_row *rows, size_t n, const char *path)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(rows[i].path, path) == 0)
			return 1;
	return 0;
}

struct push_ctx {
	struct amd_ch *ch;
	struct amd_store *st;
	const struct amd_source_row *sweep_rows; /* NULL: every source */
	size_t nsweep;
	struct amd_push_counts *counts;
};

/* A source committed whose replaced versions could not be removed. */
static void note_uncleaned(struct amd_push_counts *counts, const char *msg)
{
	if (!counts->uncleaned++)
		snprintf(counts->uncleaned_error, sizeof counts->uncleaned_error, "%s", msg);
}

static int push_one(void *ctx, const struct amd_source_entry *e, struct amd_err *err)
{
	struct push_ctx *p = ctx;
	if (p->sweep_rows && !in_sweep(p->sweep_rows, p->nsweep, e->path))
		return 0;
	struct ch_source src = {e->path, e->kind, e->sha256, e->size};
	int state = amd_ch_source_state(p->ch, src.path, src.sha256, NULL, err);
	if (state < 0)
		return -1;
	if (state == AMD_SOURCE_SAME || state == AMD_SOURCE_DUPLICATE) {
		p->counts->unchanged++;
		return 0;
	}
	if (amd_table_rows_of_source(p->st, e->id, err) < 0)
		return -1;
	struct amd_err clean = {{0}};
	int shipped = amd_ch_ship_source(p->ch, p->st, e->id, amd_ch_new_attempt(), &src, &clean);
	if (shipped < 0) {
		*err = clean;
		return -1;
	}
	if (shipped > 0) /* committed: counted as pushed, its clean-up left */
		note_uncleaned(p->counts, clean.msg);
	if (state == AMD_SOURCE_CHANGED)
		p->counts->replaced++;
	else
		p->counts->pushed++;
	return 0;
}

static int push_all(struct amd_ch *ch, struct amd_store *st, const char *sweep,
		    struct amd_push_counts *counts, struct amd_err *err)
{
	struct amd_source_row *rows = NULL;
	size_t nrows = 0;
	if (sweep && amd_store_sweep_sources(st, sweep, &rows, &nrows, err) < 0)
		return -1;
	if (sweep && nrows == 0) {
		amd_source_rows_free(rows, nrows);
		return amd_fail(err, "%s: no sweep named '%s' (or it has no sources)", amd_store_path(st),
				sweep);
	}
	struct push_ctx p = {ch, st, sweep ? rows : NULL, nrows, counts};
	int ret = amd_store_sources_each(st, push_one, &p, err);
	amd_source_rows_free(rows, nrows);
	return ret;
}

int amd_ch_push(const char *local, const char *url, const char *sweep,
		struct amd_push_counts *counts, struct amd_err *err)
{
	memset(counts, 0, sizeof *counts);
	struct amd_store *st = NULL;
	struct amd_ch *ch = NULL;
	if (amd_store_open(local, AMD_STORE_READ, &st, err) < 0)
		return -1;
	int rc = amd_ch_open(url, &ch, err);
	if (rc == 0)
		rc = amd_ch_migrate(ch, err);
	/* what an earlier push or ingest committed and could not clean up;
	 * a refusal leaves it, seen by no reader, to the next one (as
	 * ch_target.c's prepare) */
	struct amd_err stale = {{0}};
	if (rc == 0 && amd_ch_drop_stale(ch, &stale) < 0 && amd_ch_unanswered(ch)) {
		*err = stale;
		rc = -1;
	}
	if (rc == 0)
		rc = push_all(ch, st, sweep, counts, err);
	amd_ch_close(ch);
	amd_store_close(st);
	return rc;
}
