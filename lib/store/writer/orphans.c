/* orphans.c — the SQL behind orphans.h: which sources no run owns, and
 * linking one to a run after the fact. */
#include "orphans.h"
#include "sqlite_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "run_columns.h"
#include "selector_hint.h"

/* The tables whose rows a source owns and a run may own (run_id NULL:
 * none). A GPU sample inside a run's start..end belongs to that run by
 * time (gpu_energy.c), so a GPU log is orphaned only when none does. */
const char *const amd_run_fact_tables[] = {"trace", "op_average", "stack_sample",
					   "gpu_sample", "region"};
const size_t amd_run_fact_table_count =
	sizeof amd_run_fact_tables / sizeof amd_run_fact_tables[0];

/* every table orphans_sql reads, but source */
const char *const amd_orphan_tables[] = {"trace", "op_average", "stack_sample",
					 "gpu_sample", "region", "run"};
const size_t amd_orphan_table_count = sizeof amd_orphan_tables / sizeof amd_orphan_tables[0];

static const char orphans_sql[] =
	"SELECT s.path, s.kind FROM source s WHERE"
	" (EXISTS (SELECT 1 FROM trace t WHERE t.source_id = s.id AND t.run_id IS NULL)"
	"  OR EXISTS (SELECT 1 FROM op_average_pack o WHERE o.source_id = s.id"
	"   AND o.run_id IS NULL)"
	"  OR EXISTS (SELECT 1 FROM stack_sample_pack k WHERE k.source_id = s.id"
	"   AND k.run_id IS NULL)"
	"  OR EXISTS (SELECT 1 FROM region_pack g WHERE g.source_id = s.id AND g.run_id IS NULL)"
	"  OR (EXISTS (SELECT 1 FROM gpu_series g WHERE g.source_id = s.id)"
	"   AND NOT EXISTS (SELECT 1 FROM gpu_series g WHERE g.source_id = s.id"
	"    AND (g.run_id IS NOT NULL OR EXISTS (SELECT 1 FROM run r"
	"     WHERE r.start_ms <= g.t1_ms AND r.end_ms >= g.t0_ms"
	"      AND amd_gpu_any_in(g.samples, r.start_ms, r.end_ms))))))"
	" ORDER BY s.path";

void amd_orphans_free(struct amd_orphan *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].path);
		free(v[i].kind);
	}
	free(v);
}

int amd_store_orphans(struct amd_store *st, struct amd_orphan **out, size_t *n,
		      struct amd_err *err)
{
	*out = NULL;
	*n = 0;
	sqlite3_stmt *q = amd_store_prepare(st, orphans_sql, err);
	if (!q)
		return -1;
	size_t cap = 0;
	int rc;
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		if (amd_grow(out, *n, &cap, sizeof **out, 16) < 0) {
			rc = SQLITE_NOMEM;
			break;
		}
		struct amd_orphan *o = &(*out)[(*n)++];
		o->path = o->kind = NULL;
		if (amd_store_col_text(q, 0, &o->path) < 0 || amd_store_col_text(q, 1, &o->kind) < 0) {
			rc = SQLITE_NOMEM;
			break;
		}
	}
	if (amd_store_rows_done(st, q, rc, err) == 0)
		return 0;
	amd_orphans_free(*out, *n);
	*out = NULL;
	*n = 0;
	return -1;
}

/* The run named run: its id, else the newest run of that name (in
 * sweep when given), as `ingest --run` links; 0 when none. */
static int64_t run_named(struct amd_store *st, const char *run, const char *sweep,
			 struct amd_err *err)
{
	int64_t id = amd_store_first_id(st, "SELECT id FROM run WHERE ext_id = ?1", run, NULL, err);
	if (id != 0)
		return id;
	return amd_store_first_id(st,
		"SELECT run.id FROM run LEFT JOIN sweep ON sweep.id = run.sweep_id"
		" WHERE run.name = ?1 AND (?2 IS NULL OR sweep.name = ?2)"
		" ORDER BY run.start_ms DESC, run.ext_id DESC LIMIT 1", run, sweep, err);
}

int64_t amd_store_run_find(struct amd_store *st, const char *run, const char *sweep,
			   char *closest, size_t size, struct amd_err *err)
{
	closest[0] = '\0';
	int64_t id = run_named(st, run, sweep, err);
	if (id != 0)
		return id;
	char **names;
	size_t n;
	if (sel_store_strings(st, "SELECT DISTINCT name FROM run WHERE name IS NOT NULL"
			      " ORDER BY name", &names, &n, err) < 0)
		return -1;
	sel_closest(run, (const char *const *)names, n, closest, size);
	sel_strings_free(names, n);
	return 0;
}

/* What move_rows runs on table t: GPU samples are moved as their chunk
 * rows (gpu_series, gpu_pack.h), py-spy samples, regions and operator
 * averages as their pack rows (stack_sample_pack, stack_pack.h;
 * region_pack, region_pack.h; op_average_pack, op_pack.h), counted
 * record by record. */
static void move_sql(char *sql, size_t size, const char *t, int what)
{
	const char *packed = strcmp(t, "gpu_sample") == 0     ? "gpu_series"
			     : strcmp(t, "stack_sample") == 0 ? "stack_sample_pack"
			     : strcmp(t, "region") == 0       ? "region_pack"
			     : strcmp(t, "op_average") == 0   ? "op_average_pack"
							      : NULL;
	if (packed)
		snprintf(sql, size, what ? "UPDATE %s SET run_id = ?2 WHERE source_id = ?1"
				     " AND run_id IS NOT ?2 RETURNING n"
				   : "SELECT coalesce(sum(n), 0) FROM %s WHERE source_id = ?1", packed);
	else
		snprintf(sql, size, what ? "UPDATE %s SET run_id = ?2 WHERE source_id = ?1"
				     " AND run_id IS NOT ?2"
				   : "SELECT count(*) FROM %s WHERE source_id = ?1", t);
}

/* Counts (what 0) or moves (what 1) the rows of source src in every
 * run table that are not run's; *rows gets the count. */
static int move_rows(struct amd_store *st, int64_t src, int64_t run, int what, int64_t *rows,
		     struct amd_err *err)
{
	*rows = 0;
	for (size_t i = 0; i < amd_run_fact_table_count; i++) {
		char sql[160];
		move_sql(sql, sizeof sql, amd_run_fact_tables[i], what);
		sqlite3_stmt *q = amd_store_prepare(st, sql, err);
		if (!q)
			return -1;
		sqlite3_bind_int64(q, 1, src);
		if (what)
			sqlite3_bind_int64(q, 2, run);
		int rc = sqlite3_step(q), returning = rc == SQLITE_ROW && what;
		while (rc == SQLITE_ROW && returning) { /* UPDATE … RETURNING n */
			*rows += sqlite3_column_int64(q, 0);
			rc = sqlite3_step(q);
		}
		if (rc == SQLITE_ROW)
			*rows += sqlite3_column_int64(q, 0);
		else if (rc == SQLITE_DONE && !returning)
			*rows += sqlite3_changes(st->db);
		sqlite3_finalize(q);
		if (rc != SQLITE_ROW && rc != SQLITE_DONE)
			return amd_store_step_fail(st, rc, err);
	}
	return 0;
}

/* Runs sql (no rows) with texts a, b, c bound (NULL: SQL NULL). */
static int exec_texts(struct amd_store *st, const char *sql, const char *a, const char *b,
		      const char *c, struct amd_err *err)
{
	sqlite3_stmt *q = amd_store_prepare(st, sql, err);
	if (!q)
		return -1;
	const char *v[] = {a, b, c};
	for (int i = 0; i < 3 && i < sqlite3_bind_parameter_count(q); i++)
		if (v[i])
			sqlite3_bind_text(q, i + 1, v[i], -1, SQLITE_STATIC);
	int rc = sqlite3_step(q);
	sqlite3_finalize(q);
	return rc == SQLITE_DONE ? 0 : amd_store_step_fail(st, rc, err);
}

/* A placeholder run NAME in sweep (owned by no source, id
 * "name:SWEEP/NAME" as the unit writer makes them, writer.c), which an
 * MLflow run ingested later under that id fills in. */
static int64_t placeholder_run(struct amd_store *st, const char *name, const char *sweep,
			       struct amd_err *err)
{
	if (exec_texts(st, "INSERT INTO sweep(name) VALUES(?1) ON CONFLICT(name) DO NOTHING",
		       sweep, NULL, NULL, err) < 0)
		return -1;
	char ext[512];
	snprintf(ext, sizeof ext, "name:%s/%s", sweep, name);
	if (exec_texts(st, "INSERT INTO run(sweep_id, ext_id, name, status)"
		       " SELECT id, ?2, ?3, 0 FROM sweep WHERE name = ?1", sweep, ext, name, err) < 0)
		return -1;
	return amd_store_first_id(st, "SELECT id FROM run WHERE ext_id = ?1", ext, NULL, err);
}

static int link_in_tx(struct amd_store *st, const struct amd_config *cfg, const char *path,
		      const char *run, const char *sweep, int create, struct amd_err *err)
{
	int64_t src = amd_store_first_id(st, "SELECT id FROM source WHERE path = ?1", path, NULL, err);
	if (src == 0)
		return amd_fail(err, "%s: not in the store %s; ingest it first", path, st->path);
	char near[512];
	int64_t rid = src < 0 ? -1 : amd_store_run_find(st, run, sweep, near, sizeof near, err);
	if (rid == 0 && create && sweep)
		rid = placeholder_run(st, run, sweep, err);
	if (rid == 0)
		return amd_fail(err, "%s: no run '%s'%s%s in the store%s", path, run,
				sweep ? " in sweep " : "", sweep ? sweep : "", near);
	int64_t rows, moved;
	if (rid < 0 || move_rows(st, src, rid, 0, &rows, err) < 0)
		return -1;
	if (rows == 0)
		return AMD_LINK_NOTHING;
	if (move_rows(st, src, rid, 1, &moved, err) < 0)
		return -1;
	if (moved == 0)
		return AMD_LINK_ALREADY;
	if (amd_run_columns_derive(st, cfg, rid, path, err) < 0)
		return -1;
	return AMD_LINK_DONE;
}

int amd_store_link_source(struct amd_store *st, const struct amd_config *cfg,
			  const char *path, const char *run, const char *sweep, int create,
			  struct amd_err *err)
{
	if (amd_store_begin(st, err) < 0)
		return -1;
	int rc = link_in_tx(st, cfg, path, run, sweep, create, err);
	if (rc < 0 || rc == AMD_LINK_NOTHING || rc == AMD_LINK_ALREADY) {
		amd_store_rollback(st);
		return rc;
	}
	return amd_store_commit(st, err) < 0 ? -1 : rc;
}

int amd_store_link_at(const char *store_path, const struct amd_config *cfg,
		      const char *path, const char *run, const char *sweep, struct amd_err *err)
{
	struct amd_store *st = NULL;
	if (amd_store_open(store_path, AMD_STORE_WRITE, &st, err) < 0)
		return -1;
	int rc = amd_store_link_source(st, cfg, path, run, sweep, 0, err);
	amd_store_close(st);
	return rc;
}
