/* unit_runs.c — a run another backend holds, copied into a unit's
 * staging store, and what that backend asks of a store about its runs
 * (unit_rows.h): the run and its sweep written owned by no source, so
 * the unit's facts join it; a run copied from one store into another;
 * how many runs a store holds; a run's ext_id. */
#include "unit_rows.h"
#include "sqlite_int.h"

#include <stdlib.h>

int amd_store_put_run_copy(struct amd_store *st, const struct amd_cell v[AMD_RUN_COPY_COLS],
			   struct amd_err *err)
{
	sqlite3_stmt *sw = amd_store_prepare(st, "INSERT INTO sweep(name, ext_id, axis)"
		" SELECT ?1, ?2, ?3 WHERE ?1 IS NOT NULL ON CONFLICT(name) DO NOTHING", err);
	sqlite3_stmt *run = sw ? amd_store_prepare(st, "INSERT INTO run(sweep_id, ext_id,"
		" name, parent_ext_id, strategy, n, nodes, rank, repeat, status, start_ms, end_ms,"
		" source_id) VALUES((SELECT id FROM sweep WHERE name = ?1), ?4, ?5, ?6, ?7, ?8, ?9,"
		" ?10, ?11, ?12, ?13, ?14, NULL) ON CONFLICT(ext_id) DO NOTHING", err) : NULL;
	int rc = SQLITE_OK, ret = -1;
	for (int i = 0; run && rc == SQLITE_OK && i < AMD_RUN_COPY_COLS; i++) {
		if (i < 3)
			rc = amd_store_bind_cell(sw, i + 1, &v[i], SQLITE_TRANSIENT);
		if (rc == SQLITE_OK)
			rc = amd_store_bind_cell(run, i + 1, &v[i], SQLITE_TRANSIENT);
	}
	if (run && rc == SQLITE_OK && (rc = sqlite3_step(sw)) == SQLITE_DONE)
		rc = sqlite3_step(run);
	if (run)
		ret = rc == SQLITE_DONE ? 0 : amd_store_step_fail(st, rc, err);
	sqlite3_finalize(run);
	sqlite3_finalize(sw);
	return ret;
}

int amd_store_copy_run(struct amd_store *from, int64_t id, struct amd_store *to,
		       struct amd_err *err)
{
	sqlite3_stmt *sel = amd_store_prepare(from, "SELECT s.name, s.ext_id, s.axis, r.ext_id,"
		" r.name, r.parent_ext_id, r.strategy, r.n, r.nodes, r.rank, r.repeat, r.status,"
		" r.start_ms, r.end_ms FROM run r LEFT JOIN sweep s ON s.id = r.sweep_id"
		" WHERE r.id = ?1", err);
	if (!sel)
		return -1;
	sqlite3_bind_int64(sel, 1, id);
	int rc = sqlite3_step(sel), ret;
	if (rc != SQLITE_ROW) {
		ret = amd_store_step_fail(from, rc, err);
	} else {
		struct amd_cell v[AMD_RUN_COPY_COLS];
		for (int i = 0; i < AMD_RUN_COPY_COLS; i++) {
			int type = sqlite3_column_type(sel, i);
			v[i] = type == SQLITE_NULL ? (struct amd_cell){.type = AMD_CELL_NULL}
			     : type == SQLITE_INTEGER
				     ? (struct amd_cell){.type = AMD_CELL_INT,
							 .i = sqlite3_column_int64(sel, i)}
			     : type == SQLITE_FLOAT
				     ? (struct amd_cell){.type = AMD_CELL_REAL,
							 .f = sqlite3_column_double(sel, i)}
				     : (struct amd_cell){.type = AMD_CELL_TEXT,
							 .s = (const char *)sqlite3_column_text(sel, i)};
			if (v[i].type == AMD_CELL_TEXT)
				v[i].n = (size_t)sqlite3_column_bytes(sel, i);
		}
		ret = amd_store_put_run_copy(to, v, err);
	}
	sqlite3_finalize(sel);
	return ret;
}

int64_t amd_store_run_count(struct amd_store *st, struct amd_err *err)
{
	return amd_store_first_id(st, "SELECT count(*) FROM main.run WHERE ?1 IS NOT NULL", "",
				  NULL, err);
}

int amd_store_run_ext_id(struct amd_store *st, int64_t id, char **ext, struct amd_err *err)
{
	*ext = NULL;
	sqlite3_stmt *q = amd_store_prepare(st, "SELECT ext_id FROM run WHERE id = ?1", err);
	if (!q)
		return -1;
	sqlite3_bind_int64(q, 1, id);
	int rc = sqlite3_step(q);
	if (rc == SQLITE_ROW && amd_store_col_text(q, 0, ext) < 0)
		rc = SQLITE_NOMEM;
	sqlite3_finalize(q);
	return rc == SQLITE_ROW && *ext ? 0 : amd_store_step_fail(st, rc, err);
}

int64_t amd_store_run_by_ext_id(struct amd_store *st, const char *ext_id, struct amd_err *err)
{
	return amd_store_first_id(st, "SELECT id FROM main.run WHERE ext_id = ?1", ext_id, NULL,
				  err);
}
