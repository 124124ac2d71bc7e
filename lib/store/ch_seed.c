/* ch_seed.c — the run a unit links to, from the ClickHouse store into
 * the unit's staging store (ch_seed.h). A trace or py-spy file that
 * names a run (`ingest --run RUN`, a path's run hint) the staging store
 * does not hold: the committed runs and sweeps are read as every reader
 * loads them (ch_load.c), the run the SQLite writer would link is found
 * there by the writer's own lookup (amd_store_sink_find_run), and copied
 * with its sweep's row, owned by no source. The unit's facts then carry
 * that run's ClickHouse id (chid of its ext_id); the copy ships with the
 * unit like a placeholder run, and readers keep the run's own source's
 * row (ch_load.c, prefer). */
#include "ch_seed.h"
#include "sqlite_int.h"

#include "ch_load.h"
#include "clickhouse.h"
#include "writer.h"

#define RUN_COLS "ext_id, name, parent_ext_id, strategy, n, nodes, rank, repeat, status," \
	" start_ms, end_ms"

/* Copies run id of held, and its sweep, into staging (not replacing
 * what staging holds under the same names). */
static int copy_run(struct amd_store *held, int64_t id, struct amd_store *staging,
		    struct amd_err *err)
{
	sqlite3_stmt *sel = amd_store_prepare(held, "SELECT s.name, s.ext_id, s.axis, r.ext_id,"
		" r.name, r.parent_ext_id, r.strategy, r.n, r.nodes, r.rank, r.repeat, r.status,"
		" r.start_ms, r.end_ms FROM run r LEFT JOIN sweep s ON s.id = r.sweep_id"
		" WHERE r.id = ?1", err);
	if (!sel)
		return -1;
	sqlite3_bind_int64(sel, 1, id);
	int rc = sqlite3_step(sel);
	if (rc != SQLITE_ROW) {
		sqlite3_finalize(sel);
		return amd_store_step_fail(held, rc, err);
	}
	sqlite3_stmt *sw = amd_store_prepare(staging, "INSERT INTO sweep(name, ext_id, axis)"
		" SELECT ?1, ?2, ?3 WHERE ?1 IS NOT NULL ON CONFLICT(name) DO NOTHING", err);
	sqlite3_stmt *run = sw ? amd_store_prepare(staging, "INSERT INTO run(sweep_id, " RUN_COLS
		", source_id) VALUES((SELECT id FROM sweep WHERE name = ?1), ?4, ?5, ?6, ?7, ?8, ?9,"
		" ?10, ?11, ?12, ?13, ?14, NULL) ON CONFLICT(ext_id) DO NOTHING", err) : NULL;
	for (int i = 0; run && i < sqlite3_column_count(sel); i++) {
		if (i < 3)
			sqlite3_bind_value(sw, i + 1, sqlite3_column_value(sel, i));
		sqlite3_bind_value(run, i + 1, sqlite3_column_value(sel, i));
	}
	int ret = -1;
	if (run && (rc = sqlite3_step(sw)) == SQLITE_DONE)
		rc = sqlite3_step(run);
	if (run)
		ret = rc == SQLITE_DONE ? 0 : amd_store_step_fail(staging, rc, err);
	sqlite3_finalize(run);
	sqlite3_finalize(sw);
	sqlite3_finalize(sel);
	return ret;
}

int amd_ch_seed_run(void *ctx, struct amd_store *staging, const char *ext_id,
		    const char *name, const char *sweep, struct amd_err *err)
{
	static const char *const tables[] = {"run", "sweep"};
	struct amd_store *held = NULL;
	if (amd_ch_store_open_tables(amd_ch_name(ctx), NULL, 0, tables, 2, &held, err) < 0)
		return -1;
	int64_t id = amd_store_sink_find_run(held, ext_id, name, sweep, err);
	int rc = id < 0 ? -1 : id == 0 ? 0 : copy_run(held, id, staging, err);
	amd_store_close(held);
	return rc;
}
