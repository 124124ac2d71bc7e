/* unit_tables.c — a store's fact tables streamed out row by row
 * (unit_rows.h) for another backend to write: per table, its columns in
 * the order the remote backend's table keeps them, each row a list of
 * typed cells. An id that means the same thing on every host is given
 * by its identity (a run's ext_id, a sweep's name, a dict string, a
 * frame's name, file and line), never the store's own number; ids local
 * to a source (a trace, a stack node, a region) stay numbers. Rows come
 * in the store's order (insertion order, or id), so a reader given them
 * back numbered gets the order a SQLite store holds them in. Showing
 * one source only (`push`) is done by temporary views named like the
 * tables (SQLite looks in temp first), so the same SELECTs serve both. */
#include "unit_rows.h"
#include "sqlite_int.h"
#include "stmt_cache.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"

/* Identities, as text (a number's text as SQLite writes it). */
#define RUN(x) "(SELECT CAST(ext_id AS TEXT) FROM run WHERE id = " x ")"
#define KEY(x) "(SELECT CAST(s AS TEXT) FROM dict WHERE id = " x ")"
#define SWEEP(x) "(SELECT CAST(name AS TEXT) FROM sweep WHERE id = " x ")"
#define FRAME(x) "(SELECT n.s || char(31) || COALESCE(fl.s, '') || char(31) ||" \
	" COALESCE(f.line, '') FROM frame f JOIN dict n ON n.id = f.name_id" \
	" LEFT JOIN dict fl ON fl.id = f.file_id WHERE f.id = " x ")"

struct unit_table {
	const char *name;
	/* the rows of source $S, a WHERE clause over main.NAME; NULL for
	 * run, whose view is RUN_VIEW */
	const char *of_source;
	const char *select;
};

static const struct unit_table unit_tables[] = {
	{"dict", "1", "SELECT CAST(s AS TEXT), s FROM dict ORDER BY id"},
	/* a source's sweeps: those of its runs (the view run), and sweeps
	 * without runs, as an ingest writes them */
	{"sweep", "id IN (SELECT sweep_id FROM run) OR id NOT IN"
		  " (SELECT sweep_id FROM main.run WHERE sweep_id IS NOT NULL)",
	 "SELECT CAST(name AS TEXT), name, ext_id, axis FROM sweep ORDER BY id"},
	{"run", NULL,
	 "SELECT CAST(r.ext_id AS TEXT), " SWEEP("r.sweep_id") ", r.ext_id, r.name,"
	 " r.parent_ext_id, r.strategy, r.n, r.nodes, r.rank, r.repeat, r.status, r.start_ms,"
	 " r.end_ms, r.source_id, r.entry_point, r.program FROM run r ORDER BY r.id"},
	{"param", "source_id = $S",
	 "SELECT " RUN("p.run_id") ", " KEY("p.key_id") ", p.value, p.source_id FROM param p"},
	{"tag", "source_id = $S",
	 "SELECT " RUN("t.run_id") ", " KEY("t.key_id") ", t.value, t.source_id FROM tag t"},
	{"trace", "source_id = $S",
	 "SELECT t.id, " RUN("t.run_id") ", t.source_id, t.rank, t.world_size, t.backend,"
	 " t.device, t.start_ns, t.end_ns, t.events, t.has_gpu, t.comp_fraction"
	 " FROM trace t ORDER BY t.id"},
	{"trace_phase", "trace_id IN (SELECT id FROM main.trace WHERE source_id = $S)",
	 "SELECT p.trace_id, " KEY("p.phase_id") ", p.ns FROM trace_phase p"},
	{"trace_step", "trace_id IN (SELECT id FROM main.trace WHERE source_id = $S)",
	 "SELECT s.trace_id, s.step, s.start_ns, s.dur_ns FROM trace_step s ORDER BY s.rowid"},
	{"trace_collective", "trace_id IN (SELECT id FROM main.trace WHERE source_id = $S)",
	 "SELECT c.trace_id, " KEY("c.name_id") ", c.seq, c.start_ns, c.dur_ns, c.bytes,"
	 " c.group_size, " KEY("c.group_id") " FROM trace_collective c ORDER BY c.rowid"},
	{"op_average", "source_id = $S",
	 "SELECT " RUN("a.run_id") ", a.source_id, " KEY("a.name_id") ", a.rank, a.self_cuda_us,"
	 " a.cuda_total_us, a.calls, a.role FROM op_average a ORDER BY a.rowid"},
	{"frame", "id IN (SELECT frame_id FROM main.stack_node WHERE source_id = $S)",
	 "SELECT " FRAME("x.id") ", " KEY("x.name_id") ", " KEY("x.file_id") ", x.line"
	 " FROM frame x ORDER BY x.id"},
	{"stack_node", "source_id = $S",
	 "SELECT n.id, n.parent_id, " FRAME("n.frame_id") ", n.source_id FROM stack_node n"
	 " ORDER BY n.id"},
	{"stack_sample", "source_id = $S",
	 "SELECT s.source_id, " RUN("s.run_id") ", s.leaf_id, " KEY("s.process_id") ", "
	 KEY("s.thread_id") ", s.samples, s.seconds FROM stack_sample s ORDER BY s.rowid"},
	{"gpu_sample", "source_id = $S",
	 "SELECT g.source_id, " RUN("g.run_id") ", g.gpu, g.ts_ms, g.util_pct, g.mem_util_pct,"
	 " g.power_w, g.mem_used_mib, g.temp_c FROM gpu_sample g ORDER BY g.rowid"},
	{"region", "source_id = $S",
	 "SELECT g.id, g.source_id, " RUN("g.run_id") ", g.rank, g.device, " KEY("g.kind_id") ", "
	 KEY("g.profiler_id") ", " KEY("g.name_id") ", " KEY("g.file_id") ", g.line, g.key,"
	 " g.parent_key, g.calls, g.prim_calls, g.self_ns, g.total_ns, g.bytes"
	 " FROM region g ORDER BY g.id"},
	{"region_call", "source_id = $S",
	 "SELECT c.source_id, c.caller_key, c.callee_key, c.calls, c.prim_calls, c.self_ns,"
	 " c.total_ns FROM region_call c ORDER BY c.rowid"},
	{"region_detail", "region_id IN (SELECT id FROM main.region WHERE source_id = $S)",
	 "SELECT d.region_id, " KEY("d.category_id") ", d.min_ns, d.max_ns, d.seq"
	 " FROM region_detail d ORDER BY d.region_id"},
	{"trace_memory", "trace_id IN (SELECT id FROM main.trace WHERE source_id = $S)",
	 "SELECT m.trace_id, m.device_type, m.device_id, m.from_totals, m.peak_allocated,"
	 " m.peak_reserved, m.events FROM trace_memory m"
	 " ORDER BY m.trace_id, m.device_type, m.device_id"},
	{"trace_memory_sample", "trace_id IN (SELECT id FROM main.trace WHERE source_id = $S)",
	 "SELECT s.trace_id, s.device_type, s.device_id, s.ts_ns, s.allocated, s.reserved"
	 " FROM trace_memory_sample s ORDER BY s.rowid"},
	{"trace_event", "source_id = $S",
	 "SELECT e.trace_id, e.source_id, " RUN("e.run_id") ", e.rank, e.stream, e.kind, "
	 KEY("e.name_id") ", e.seq, e.start_ns, e.dur_ns, e.bytes FROM trace_event e"
	 " ORDER BY e.rowid"},
};

#define NTABLES (sizeof unit_tables / sizeof unit_tables[0])

/* The runs a source owns (source_id shown only for those) or its facts name. */
#define RUN_VIEW "SELECT id, sweep_id, ext_id, name, parent_ext_id, strategy, n, nodes," \
	" rank, repeat, status, start_ms, end_ms, entry_point, program," \
	" CASE WHEN source_id = $S THEN source_id END AS source_id FROM main.run" \
	" WHERE source_id = $S OR id IN (SELECT run_id FROM main.param WHERE source_id = $S" \
	" UNION SELECT run_id FROM main.tag WHERE source_id = $S" \
	" UNION SELECT run_id FROM main.metric_series WHERE source_id = $S" \
	" UNION SELECT run_id FROM main.trace WHERE source_id = $S" \
	" UNION SELECT run_id FROM main.op_average_pack WHERE source_id = $S" \
	" UNION SELECT run_id FROM main.stack_sample_pack WHERE source_id = $S" \
	" UNION SELECT run_id FROM main.gpu_series WHERE source_id = $S)"

struct amd_table_iter {
	struct amd_store *st;
	sqlite3_stmt *q;
	int ncols;
	struct amd_cell cells[AMD_TABLE_COLS_MAX];
};

static const struct unit_table *find_table(const char *name)
{
	for (size_t i = 0; i < NTABLES; i++)
		if (strcmp(unit_tables[i].name, name) == 0)
			return &unit_tables[i];
	return NULL;
}

int amd_table_iter_open(struct amd_store *st, const char *table, struct amd_table_iter **out,
			struct amd_err *err)
{
	*out = NULL;
	const struct unit_table *t = find_table(table);
	if (!t)
		return amd_fail(err, "%s: no table '%s' to stream", st->path, table);
	struct amd_table_iter *it = calloc(1, sizeof *it);
	if (!it)
		return amd_fail(err, "%s: out of memory", st->path);
	it->st = st;
	/* prepared once per store: a ClickHouse batch streams every table
	 * of each unit's staging store, and the stores are reused (2,780
	 * prepares, 0.26 G of the bundled sweeps' 7.0 G instructions) */
	if (!(it->q = amd_store_cached(st, t->select, err))) {
		free(it);
		return -1;
	}
	it->ncols = sqlite3_column_count(it->q);
	if (it->ncols > AMD_TABLE_COLS_MAX) {
		amd_table_iter_close(it);
		return amd_fail(err, "%s: table %s: more than %d columns", st->path, table,
				AMD_TABLE_COLS_MAX);
	}
	*out = it;
	return 0;
}

int amd_table_iter_columns(const struct amd_table_iter *it)
{
	return it->ncols;
}

int amd_table_iter_next(struct amd_table_iter *it, const struct amd_cell **cells,
			struct amd_err *err)
{
	int rc = sqlite3_step(it->q);
	if (rc == SQLITE_DONE)
		return 0;
	if (rc != SQLITE_ROW)
		return amd_store_step_fail(it->st, rc, err);
	for (int i = 0; i < it->ncols; i++) {
		struct amd_cell *c = &it->cells[i];
		switch (sqlite3_column_type(it->q, i)) {
		case SQLITE_NULL:
			*c = (struct amd_cell){.type = AMD_CELL_NULL};
			break;
		case SQLITE_INTEGER:
			*c = (struct amd_cell){.type = AMD_CELL_INT,
					       .i = sqlite3_column_int64(it->q, i)};
			break;
		case SQLITE_FLOAT:
			*c = (struct amd_cell){.type = AMD_CELL_REAL,
					       .f = sqlite3_column_double(it->q, i)};
			break;
		default:
			c->type = AMD_CELL_TEXT;
			c->s = (const char *)sqlite3_column_text(it->q, i);
			if (!c->s)
				return amd_store_step_fail(it->st, SQLITE_NOMEM, err);
			c->n = (size_t)sqlite3_column_bytes(it->q, i);
		}
	}
	*cells = it->cells;
	return 1;
}

void amd_table_iter_close(struct amd_table_iter *it)
{
	if (!it)
		return;
	amd_store_cached_drop(it->q);
	free(it);
}

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

/* Drops the temporary view name when there is one. */
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

int amd_table_rows_of_source(struct amd_store *st, int64_t source_id, struct amd_err *err)
{
	for (size_t i = 0; i < NTABLES; i++) {
		const struct unit_table *t = &unit_tables[i];
		if (drop_temp_view(st, t->name, err) < 0)
			return -1;
		struct amd_buf sql = {0};
		int bad = amd_buf_printf(&sql, "CREATE TEMP VIEW %s AS ", t->name) < 0;
		if (!t->of_source)
			bad |= subst(&sql, RUN_VIEW, source_id) < 0;
		else {
			bad |= amd_buf_printf(&sql, "SELECT %s* FROM main.%s WHERE ",
					      strstr(t->select, "rowid") ? "rowid AS rowid, " : "",
					      t->name) < 0;
			bad |= subst(&sql, t->of_source, source_id) < 0;
		}
		int rc = bad ? amd_fail(err, "%s: out of memory", st->path)
			     : amd_store_exec(st, sql.data, err);
		amd_buf_free(&sql);
		if (rc < 0)
			return -1;
	}
	return 0;
}

int amd_store_sources_each(struct amd_store *st, amd_source_each_fn *fn, void *ctx,
			   struct amd_err *err)
{
	sqlite3_stmt *q = amd_store_prepare(st, "SELECT id, path, kind, size, sha256 FROM source"
					    " ORDER BY id", err);
	if (!q)
		return -1;
	int rc, ret = 0;
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		struct amd_source_entry e = {sqlite3_column_int64(q, 0),
					     (const char *)sqlite3_column_text(q, 1),
					     (const char *)sqlite3_column_text(q, 2),
					     (const char *)sqlite3_column_text(q, 4),
					     (uint64_t)sqlite3_column_int64(q, 3)};
		if (!e.path || !e.kind || !e.sha256) {
			ret = amd_fail(err, "%s: out of memory", st->path);
			break;
		}
		if ((ret = fn(ctx, &e, err)) < 0)
			break;
	}
	if (ret == 0 && rc != SQLITE_DONE)
		ret = amd_store_step_fail(st, rc, err);
	sqlite3_finalize(q);
	return ret;
}
