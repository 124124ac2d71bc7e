/* ch_push.c — pushing a local store to ClickHouse (ch_push.h). For each
 * local source, temporary views named like the tables (SQLite looks in
 * temp first) show only that source's rows, so the same export SELECTs
 * that ship an ingested unit (ch_tables.c) ship it from the local store. */
#include "ch_push.h"
#include "sqlite_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "ch_schema.h"
#include "ch_ship.h"
#include "ch_tables.h"
#include "ch_target.h"
#include "clickhouse.h"
#include "sources.h"
#include "writer.h"

/* The runs a source owns (source_id shown only for those) or its facts name. */
#define RUN_VIEW "SELECT id, sweep_id, ext_id, name, parent_ext_id, strategy, n, nodes," \
	" rank, repeat, status, start_ms, end_ms, entry_point, program," \
	" CASE WHEN source_id = $S THEN source_id END AS source_id FROM main.run" \
	" WHERE source_id = $S OR id IN (SELECT run_id FROM main.param WHERE source_id = $S" \
	" UNION SELECT run_id FROM main.tag WHERE source_id = $S" \
	" UNION SELECT run_id FROM main.metric_series WHERE source_id = $S" \
	" UNION SELECT run_id FROM main.trace WHERE source_id = $S" \
	" UNION SELECT run_id FROM main.op_average WHERE source_id = $S" \
	" UNION SELECT run_id FROM main.stack_sample_pack WHERE source_id = $S" \
	" UNION SELECT run_id FROM main.gpu_series WHERE source_id = $S)"

/* Appends text with every $S replaced by id. */
static int subst(struct amd_buf *b, const char *text, long long id)
{
	for (const char *p = text; *p;) {
		const char *s = strstr(p, "$S");
		size_t n = s ? (size_t)(s - p) : strlen(p);
		if (amd_buf_append(b, p, n) < 0 || (s && amd_buf_printf(b, "%lld", id) < 0))
			return -1;
		p = s ? s + 2 : p + n;
	}
	return 0;
}

/* Drops the temporary view name when there is one (a plain DROP VIEW IF
 * EXISTS would find the virtual table metric_point and be refused). */
static int drop_temp_view(struct amd_store *st, const char *name, struct amd_err *err)
{
	sqlite3_stmt *q = amd_store_prepare(st, "SELECT 1 FROM temp.sqlite_master"
					    " WHERE type = 'view' AND name = ?1", err);
	if (!q)
		return -1;
	sqlite3_bind_text(q, 1, name, -1, SQLITE_STATIC);
	int rc = sqlite3_step(q), found = rc == SQLITE_ROW;
	if (amd_store_rows_done(st, q, found ? SQLITE_DONE : rc, err) < 0)
		return -1;
	char sql[128];
	snprintf(sql, sizeof sql, "DROP VIEW temp.%s", name);
	return found ? amd_store_exec(st, sql, err) : 0;
}

static int source_views(struct amd_store *st, long long id, struct amd_err *err)
{
	for (size_t i = 0; i < amd_ch_table_count; i++) {
		const struct ch_table *t = &amd_ch_tables[i];
		if (drop_temp_view(st, t->name, err) < 0)
			return -1;
		struct amd_buf sql = {0};
		int bad = amd_buf_printf(&sql, "CREATE TEMP VIEW %s AS ", t->name) < 0;
		if (!t->of_source)
			bad |= subst(&sql, RUN_VIEW, id) < 0;
		else {
			bad |= amd_buf_printf(&sql, "SELECT %s* FROM main.%s WHERE ",
					      strstr(t->export_sql, "rowid") ? "rowid AS rowid, " : "",
					      t->name) < 0;
			bad |= subst(&sql, t->of_source, id) < 0;
		}
		int rc = bad ? amd_fail(err, "%s: out of memory", st->path)
			     : amd_store_exec(st, sql.data, err);
		amd_buf_free(&sql);
		if (rc < 0)
			return -1;
	}
	return 0;
}

/* 1 when path is one of the sweep's sources. */
static int in_sweep(const struct amd_source_row *rows, size_t n, const char *path)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(rows[i].path, path) == 0)
			return 1;
	return 0;
}

static int push_one(struct amd_ch *ch, struct amd_store *st, sqlite3_stmt *q,
		    struct amd_push_counts *counts, struct amd_err *err)
{
	long long id = sqlite3_column_int64(q, 0);
	struct ch_source src = {(const char *)sqlite3_column_text(q, 1),
				(const char *)sqlite3_column_text(q, 2),
				(const char *)sqlite3_column_text(q, 4),
				(uint64_t)sqlite3_column_int64(q, 3)};
	if (!src.path || !src.kind || !src.sha256)
		return amd_fail(err, "%s: out of memory", st->path);
	int state = amd_ch_source_state(ch, src.path, src.sha256, NULL, err);
	if (state < 0)
		return -1;
	if (state == AMD_SOURCE_SAME || state == AMD_SOURCE_DUPLICATE) {
		counts->unchanged++;
		return 0;
	}
	if (source_views(st, id, err) < 0 ||
	    amd_ch_ship_source(ch, st, id, amd_ch_new_attempt(), &src, err) < 0)
		return -1;
	if (state == AMD_SOURCE_CHANGED)
		counts->replaced++;
	else
		counts->pushed++;
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
		return amd_fail(err, "%s: no sweep named '%s' (or it has no sources)", st->path,
				sweep);
	}
	int ret = -1, rc = SQLITE_DONE;
	sqlite3_stmt *q = amd_store_prepare(st, "SELECT id, path, kind, size, sha256 FROM source"
					    " ORDER BY id", err);
	if (q && amd_ch_staging_setup(st, err) == 0) {
		ret = 0;
		while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
			const char *path = (const char *)sqlite3_column_text(q, 1);
			if (sweep && path && !in_sweep(rows, nrows, path))
				continue;
			if ((ret = push_one(ch, st, q, counts, err)) < 0)
				break;
		}
		if (ret == 0 && rc != SQLITE_DONE)
			ret = amd_store_step_fail(st, rc, err);
	}
	sqlite3_finalize(q);
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
	if (rc == 0)
		rc = push_all(ch, st, sweep, counts, err);
	amd_ch_close(ch);
	amd_store_close(st);
	return rc;
}
