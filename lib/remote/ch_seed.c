/* ch_seed.c — a run the ClickHouse store holds, into a unit's staging
 * store (ch_seed.h), so the unit's facts and its report of the run merge
 * with it as they would in a store that holds it. A run a unit reports
 * (several units report one TensorBoard run: its span, params and
 * derived columns add up) is fetched by its ext_id: the row a reader
 * keeps (ch_load.c, amd_ch_kept_row) and its sweep's. A trace or py-spy
 * file that names a run (`ingest --run RUN`, a path's run hint) by name:
 * the committed runs and sweeps are read as every reader loads them and
 * the run the SQLite writer would link is found there by the writer's
 * own lookup (amd_store_sink_find_run). Either copy is owned by no
 * source; the unit's facts then carry that run's ClickHouse id (chid of
 * its ext_id), the copy ships with the unit like a placeholder run, and
 * readers keep the latest owned row (ch_load.c, prefer). A unit that
 * reports many runs (an mlflow.db of a team's 10,000) asks the server
 * once which runs it holds (held_runs), and then only for those. */
#include "ch_seed.h"
#include "sqlite_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "ch_load.h"
#include "ch_scope.h"
#include "ch_ship.h"
#include "clickhouse.h"
#include "writer.h"

/* The values a copy writes, in this order: the sweep's, then the run's. */
#define NVALUES 14
static const char *const value_names[NVALUES] = {"name", "ext_id", "axis", "ext_id", "name",
	"parent_ext_id", "strategy", "n", "nodes", "rank", "repeat", "status", "start_ms",
	"end_ms"};
#define FIRST_INT 7 /* n and what follows are integers */

/* Binds value v (an index of value_names) as parameter i of q. */
typedef void bind_fn(void *ctx, sqlite3_stmt *q, int i, int v);

/* Writes the sweep (unless staging has one of that name) and the run
 * (unless staging has it), owned by no source. */
static int put_run(struct amd_store *staging, bind_fn *bind, void *ctx, struct amd_err *err)
{
	sqlite3_stmt *sw = amd_store_prepare(staging, "INSERT INTO sweep(name, ext_id, axis)"
		" SELECT ?1, ?2, ?3 WHERE ?1 IS NOT NULL ON CONFLICT(name) DO NOTHING", err);
	sqlite3_stmt *run = sw ? amd_store_prepare(staging, "INSERT INTO run(sweep_id, ext_id,"
		" name, parent_ext_id, strategy, n, nodes, rank, repeat, status, start_ms, end_ms,"
		" source_id) VALUES((SELECT id FROM sweep WHERE name = ?1), ?4, ?5, ?6, ?7, ?8, ?9,"
		" ?10, ?11, ?12, ?13, ?14, NULL) ON CONFLICT(ext_id) DO NOTHING", err) : NULL;
	for (int i = 0; run && i < NVALUES; i++) {
		if (i < 3)
			bind(ctx, sw, i + 1, i);
		bind(ctx, run, i + 1, i);
	}
	int rc = SQLITE_DONE, ret = -1;
	if (run && (rc = sqlite3_step(sw)) == SQLITE_DONE)
		rc = sqlite3_step(run);
	if (run)
		ret = rc == SQLITE_DONE ? 0 : amd_store_step_fail(staging, rc, err);
	sqlite3_finalize(run);
	sqlite3_finalize(sw);
	return ret;
}

static void bind_column(void *sel, sqlite3_stmt *q, int i, int v)
{
	sqlite3_bind_value(q, i, sqlite3_column_value(sel, v));
}

/* Copies run id of held, and its sweep, into staging. */
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
	int ret = rc == SQLITE_ROW ? put_run(staging, bind_column, sel, err)
				   : amd_store_step_fail(held, rc, err);
	sqlite3_finalize(sel);
	return ret;
}

/* Item name of a JSONCompact row, by the answer's "meta" names: the
 * column itself or, for a String, its hex ("hex(NAME)": *hex set). */
static const cJSON *item(const cJSON *doc, const cJSON *row, const char *name, char *hex)
{
	const cJSON *m;
	int i = 0;
	size_t len = strlen(name);
	cJSON_ArrayForEach(m, cJSON_GetObjectItemCaseSensitive(doc, "meta")) {
		const cJSON *n = cJSON_GetObjectItemCaseSensitive(m, "name");
		const char *s = cJSON_IsString(n) ? n->valuestring : "";
		*hex = strncmp(s, "hex(", 4) == 0 && strncmp(s + 4, name, len) == 0 &&
		       strcmp(s + 4 + len, ")") == 0;
		if (*hex || strcmp(s, name) == 0)
			return cJSON_GetArrayItem(row, i);
		i++;
	}
	return NULL;
}

/* The values a copy writes from the server's answers, and which are hex. */
struct json_values {
	const cJSON *v[NVALUES];
	char hex[NVALUES];
};

static void bind_json(void *values, sqlite3_stmt *q, int i, int v)
{
	const struct json_values *j = values;
	const cJSON *x = j->v[v];
	if (!x || cJSON_IsNull(x))
		sqlite3_bind_null(q, i);
	else if (v >= FIRST_INT)
		sqlite3_bind_int64(q, i, amd_ch_json_int(x));
	else if (cJSON_IsString(x) && j->hex[v])
		amd_ch_bind_hex(q, i, x->valuestring);
	else if (cJSON_IsString(x))
		sqlite3_bind_text(q, i, x->valuestring, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(q, i);
}

/* Runs a unit holds before its lookups go through one list of the
 * server's runs instead of one query each. */
#define HELD_LIST_AFTER 8

/* The ids (chid of ext_id) of the runs the server held when the unit
 * had reported HELD_LIST_AFTER runs, as a temporary table of staging;
 * a run committed by another ingest since is missed, as it is by two
 * units staged at once (the reader merges them: ch_load.c, RUN_FILL).
 * An id may come twice: 18.16's SELECT DISTINCT under `src IN (…)`
 * returned one run id of two committed sources twice (the bundled GPU
 * sweep: 25 rows, 24 distinct), so the list is taken OR IGNORE. */
static int list_held_runs(struct amd_ch *ch, struct amd_store *staging, struct amd_err *err)
{
	struct amd_buf sql = {0};
	int bad = amd_buf_printf(&sql, "SELECT DISTINCT id AS x FROM run WHERE src IN (%s)",
				 amd_ch_committed_sql) < 0;
	char *ids = bad ? NULL : amd_ch_id_list(ch, sql.data, err);
	if (bad)
		amd_fail(err, "%s: out of memory", amd_ch_name(ch));
	sql.len = 0;
	int rc = !ids ? -1
		 : amd_buf_printf(&sql, "CREATE TEMP TABLE ch_held_run(id INTEGER PRIMARY KEY);"
				  " INSERT OR IGNORE INTO ch_held_run SELECT value FROM json_each('[%s]')",
				  ids) < 0
			 ? amd_fail(err, "%s: out of memory", amd_ch_name(ch))
			 : amd_store_exec(staging, sql.data, err);
	free(ids);
	amd_buf_free(&sql);
	return rc;
}

/* 0 when the server does not hold the run of ext_id (by the list of its
 * runs, once the unit is past HELD_LIST_AFTER runs), 1 when it may (ask
 * it), -1 on an error. */
static int may_hold(struct amd_ch *ch, struct amd_store *staging, const char *ext_id,
		    struct amd_err *err)
{
	int64_t listed = amd_store_first_id(staging, "SELECT count(*) FROM temp.sqlite_master"
					    " WHERE name = 'ch_held_run' AND ?1 IS NOT NULL",
					    "", NULL, err);
	int64_t runs = listed ? 0 : amd_store_first_id(staging, "SELECT count(*) FROM main.run"
					       " WHERE ?1 IS NOT NULL", "", NULL, err);
	if (listed < 0 || runs < 0)
		return -1;
	if (!listed && runs < HELD_LIST_AFTER)
		return 1;
	if (!listed && list_held_runs(ch, staging, err) < 0)
		return -1;
	char id[24];
	snprintf(id, sizeof id, "%lld", (long long)amd_ch_string_id(ext_id, strlen(ext_id)));
	int64_t held = amd_store_first_id(staging, "SELECT count(*) FROM temp.ch_held_run"
					  " WHERE id = CAST(?1 AS INTEGER)", id, NULL, err);
	return held < 0 ? -1 : held > 0;
}

/* The run of ext_id the store holds into staging: 1 when copied, 0
 * when the store holds none. */
static int seed_by_ext_id(struct amd_ch *ch, struct amd_store *staging, const char *ext_id,
			  struct amd_err *err)
{
	struct amd_buf cond = {0};
	if (amd_buf_printf(&cond, "ext_id = ") < 0 || amd_ch_quote(&cond, ext_id) < 0 ||
	    amd_buf_append(&cond, "", 1) < 0) {
		amd_buf_free(&cond);
		return amd_fail(err, "%s: out of memory", amd_ch_name(ch));
	}
	int may = may_hold(ch, staging, ext_id, err);
	if (may <= 0) {
		amd_buf_free(&cond);
		return may;
	}
	const cJSON *run = NULL, *sweep = NULL;
	cJSON *rdoc = amd_ch_kept_row(ch, "run", cond.data, &run, err), *sdoc = NULL;
	char hex;
	const cJSON *sweep_id = rdoc && run ? item(rdoc, run, "sweep_id", &hex) : NULL;
	int rc = rdoc ? 0 : -1;
	if (sweep_id && !cJSON_IsNull(sweep_id)) {
		cond.len = 0;
		rc = amd_buf_printf(&cond, "id = %lld", (long long)amd_ch_json_int(sweep_id)) < 0
			     ? amd_fail(err, "%s: out of memory", amd_ch_name(ch))
			     : (sdoc = amd_ch_kept_row(ch, "sweep", cond.data, &sweep, err)) ? 0 : -1;
	}
	if (rc == 0 && run) {
		struct json_values values = {0};
		for (int i = 0; i < NVALUES; i++)
			values.v[i] = i < 3 ? (sweep ? item(sdoc, sweep, value_names[i], &values.hex[i])
						     : NULL)
					    : item(rdoc, run, value_names[i], &values.hex[i]);
		rc = put_run(staging, bind_json, &values, err) < 0 ? -1 : 1;
	}
	cJSON_Delete(sdoc);
	cJSON_Delete(rdoc);
	amd_buf_free(&cond);
	return rc;
}

int amd_ch_seed_run(void *ctx, struct amd_store *staging, const char *ext_id,
		    const char *name, const char *sweep, struct amd_err *err)
{
	int by_id = ext_id ? seed_by_ext_id(ctx, staging, ext_id, err) : 0;
	if (by_id != 0 || !name)
		return by_id < 0 ? -1 : 0;
	static const char *const tables[] = {"run", "sweep"};
	struct amd_store *held = NULL;
	if (amd_ch_store_open_tables(amd_ch_name(ctx), NULL, 0, tables, 2, NULL, 0, &held, err) < 0)
		return -1;
	int64_t id = amd_store_sink_find_run(held, ext_id, name, sweep, err);
	int rc = id < 0 ? -1 : id == 0 ? 0 : copy_run(held, id, staging, err);
	amd_store_close(held);
	return rc;
}
