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
 * once which runs it holds (list_held_runs), and then only for those;
 * a unit of a few runs asks, for each, whether any row of the run's
 * ext_id is stored (held_point: one granule of the run table's key, in a
 * store of any size), and fetches the run only then. A batch first asks
 * once whether the store holds at most SMALL_STORE run rows and, if so,
 * their ids (list_small_store): its units then look up in that list,
 * with no request each (an empty store: one request per batch, not one
 * per unit). (A batch's list of every run the store held was ~3 MB read
 * and ~0.4 MB sent per batch at 19,000 runs.)
 * The staging store is written through its row interface (unit_rows.h). */
#include "ch_seed.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>
#include <openssl/crypto.h>

#include "ch_load.h"
#include "ch_scope.h"
#include "ch_ship.h"
#include "clickhouse.h"
#include "selector.h"
#include "unit_rows.h"
#include "writer.h"

/* The values a copy writes, in this order: the sweep's, then the run's. */
#define NVALUES 14
static const char *const value_names[NVALUES] = {"name", "ext_id", "axis", "ext_id", "name",
	"parent_ext_id", "strategy", "n", "nodes", "rank", "repeat", "status", "start_ms",
	"end_ms"};
#define FIRST_INT 7 /* n and what follows are integers */

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

/* The values' cells (unit_rows.h; hex Strings decoded into bytes[i],
 * freed by free_cells); 0, or -1 out of memory. */
static int json_cells(const struct json_values *j, struct amd_cell *v, unsigned char **bytes)
{
	for (int i = 0; i < NVALUES; i++) {
		const cJSON *x = j->v[i];
		long len = 0;
		v[i] = (struct amd_cell){.type = AMD_CELL_NULL};
		if (!x || cJSON_IsNull(x))
			continue;
		if (i >= FIRST_INT) {
			v[i] = (struct amd_cell){.type = AMD_CELL_INT, .i = amd_ch_json_int(x)};
		} else if (cJSON_IsString(x) && j->hex[i] && *x->valuestring) {
			if (!(bytes[i] = OPENSSL_hexstr2buf(x->valuestring, &len)))
				return -1;
			v[i] = (struct amd_cell){.type = AMD_CELL_TEXT, .s = (const char *)bytes[i],
						 .n = (size_t)len};
		} else if (cJSON_IsString(x)) {
			v[i] = (struct amd_cell){.type = AMD_CELL_TEXT,
						 .s = j->hex[i] ? "" : x->valuestring,
						 .n = j->hex[i] ? 0 : strlen(x->valuestring)};
		}
	}
	return 0;
}

static int put_json_run(struct amd_store *staging, const struct json_values *j,
			struct amd_err *err)
{
	struct amd_cell v[NVALUES];
	unsigned char *bytes[NVALUES] = {0};
	int rc = json_cells(j, v, bytes) < 0 ? amd_fail(err, "%s: out of memory", amd_store_path(staging))
					     : amd_store_put_run_copy(staging, v, err);
	for (int i = 0; i < NVALUES; i++)
		OPENSSL_free(bytes[i]);
	return rc;
}

/* Runs a unit holds before its lookups go through one list of the
 * server's runs instead of one query each. */
#define HELD_LIST_AFTER 8

/* A store of at most this many run rows is listed whole for a batch
 * (at most ~80 KB sent, ~33 KB read: less than the server reads for
 * one question by key, a granule of ~130 KB); a larger one is asked by
 * key. A store that grows past it during an ingest (1,000 runs into an
 * empty store) is listed until then. */
#define SMALL_STORE 4096

/* The comma-separated ids, sorted into h (listed); 0, or -1 out of
 * memory. */
static int held_parse(struct amd_ch *ch, struct amd_ch_held *h, const char *ids,
		      struct amd_err *err)
{
	amd_ch_held_free(h);
	if (amd_ch_id_parse(ids, &h->ids, &h->n) < 0)
		return amd_fail(err, "%s: out of memory", amd_ch_name(ch));
	h->listed = 1;
	return 0;
}

/* Into h, the ids of every run row of a store that holds at most
 * SMALL_STORE of them (any attempt: a superset of what is committed,
 * as held_point's), else h->large: one request, which reads at most
 * SMALL_STORE + 1 ids and sends at most SMALL_STORE. */
static int list_small_store(struct amd_ch *ch, struct amd_ch_held *h, struct amd_err *err)
{
	struct amd_buf sql = {0};
	int bad = amd_buf_printf(&sql, "SELECT if(count() > %d, 'large', arrayStringConcat("
				       "groupArray(toString(x)), ',')) FROM (SELECT id AS x FROM run"
				       " LIMIT %d) FORMAT TabSeparated",
				 SMALL_STORE, SMALL_STORE + 1) < 0 ||
		  amd_buf_append(&sql, "", 1) < 0;
	char *line = bad ? NULL : amd_ch_first_line(ch, sql.data, err);
	amd_buf_free(&sql);
	if (bad)
		return amd_fail(err, "%s: out of memory", amd_ch_name(ch));
	if (!line)
		return -1;
	int large = strcmp(line, "large") == 0;
	int rc = large ? 0 : held_parse(ch, h, line, err);
	free(line);
	h->large = large;
	h->listed = rc == 0;
	return rc;
}

/* The ids (chid of ext_id) of the runs the server holds, sorted into
 * h, when a unit has reported HELD_LIST_AFTER runs; a run committed by
 * another ingest since is missed, as it is by two units staged at once
 * (the reader merges them: ch_load.c, RUN_FILL). An id
 * may come twice (18.16's SELECT DISTINCT under `src IN (…)` returned
 * one run id of two committed sources twice: the bundled GPU sweep, 25
 * rows, 24 distinct); a repeated id in the sorted list is harmless. */
static int list_held_runs(struct amd_ch *ch, struct amd_ch_held *h, struct amd_err *err)
{
	struct amd_buf sql = {0};
	int bad = amd_buf_printf(&sql, "SELECT DISTINCT id AS x FROM run WHERE src IN (%s)",
				 amd_ch_committed_sql) < 0;
	char *ids = bad ? NULL : amd_ch_id_list(ch, sql.data, err);
	amd_buf_free(&sql);
	if (bad)
		return amd_fail(err, "%s: out of memory", amd_ch_name(ch));
	if (!ids)
		return -1;
	int rc = held_parse(ch, h, ids, err);
	free(ids);
	return rc;
}

/* 1 when the run table holds a row of ext_id, of any attempt (the run
 * is then fetched as readers keep it, which says whether a committed
 * one is held), 0 when none, -1 on an error. ext_id leads the table's
 * ORDER BY: the server reads one granule of it, not every run. */
static int held_point(struct amd_ch *ch, const char *ext_id, struct amd_err *err)
{
	struct amd_buf sql = {0};
	int bad = amd_buf_printf(&sql, "SELECT id AS x FROM run WHERE ext_id = ") < 0 ||
		  amd_ch_quote(&sql, ext_id) < 0 || amd_buf_printf(&sql, " LIMIT 1") < 0;
	char *ids = bad ? NULL : amd_ch_id_list(ch, sql.data, err);
	amd_buf_free(&sql);
	if (bad)
		return amd_fail(err, "%s: out of memory", amd_ch_name(ch));
	int held = ids && *ids;
	free(ids);
	return ids ? held : -1;
}

/* 0 when the server does not hold the run of ext_id (by the batch's
 * list of a small store's runs; else by the unit's list of its runs
 * once past HELD_LIST_AFTER runs, else by held_point), 1 when it may
 * (ask it), -1 on an error. */
static int may_hold(struct amd_ch_seed *seed, struct amd_store *staging, const char *ext_id,
		    struct amd_err *err)
{
	struct amd_ch_held *s = seed->shared;
	if (s && !s->listed && list_small_store(seed->ch, s, err) < 0)
		return -1;
	struct amd_ch_held *h = s && !s->large ? s : &seed->own;
	int64_t runs = h->listed ? 0 : amd_store_run_count(staging, err);
	if (runs < 0)
		return -1;
	if (!h->listed && runs < HELD_LIST_AFTER)
		return held_point(seed->ch, ext_id, err);
	if (!h->listed && list_held_runs(seed->ch, h, err) < 0)
		return -1;
	int64_t id = amd_ch_string_id(ext_id, strlen(ext_id));
	return bsearch(&id, h->ids, h->n, sizeof id, amd_id_cmp) != NULL;
}

/* The run of ext_id the store holds into staging: 1 when copied, 0
 * when the store holds none. */
static int seed_by_ext_id(struct amd_ch_seed *seed, struct amd_store *staging,
			  const char *ext_id, struct amd_err *err)
{
	struct amd_ch *ch = seed->ch;
	struct amd_buf cond = {0};
	if (amd_buf_printf(&cond, "ext_id = ") < 0 || amd_ch_quote(&cond, ext_id) < 0 ||
	    amd_buf_append(&cond, "", 1) < 0) {
		amd_buf_free(&cond);
		return amd_fail(err, "%s: out of memory", amd_ch_name(ch));
	}
	size_t nwait = 0;
	struct amd_store *const *wait = seed->waiting ? seed->waiting(seed->waiting_ctx, &nwait)
						       : NULL;
	for (size_t i = nwait; i-- > 0;) {
		int64_t id = amd_store_run_by_ext_id(wait[i], ext_id, err);
		if (id != 0) {
			amd_buf_free(&cond);
			return id < 0 || amd_store_copy_run(wait[i], id, staging, err) < 0 ? -1 : 1;
		}
	}
	int may = may_hold(seed, staging, ext_id, err);
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
		rc = put_json_run(staging, &values, err) < 0 ? -1 : 1;
	}
	cJSON_Delete(sdoc);
	cJSON_Delete(rdoc);
	amd_buf_free(&cond);
	return rc;
}

int amd_ch_seed_run(void *ctx, struct amd_store *staging, const char *ext_id,
		    const char *name, const char *sweep, struct amd_err *err)
{
	struct amd_ch_seed *seed = ctx;
	int by_id = ext_id ? seed_by_ext_id(seed, staging, ext_id, err) : 0;
	if (by_id != 0 || !name)
		return by_id < 0 ? -1 : 0;
	static const char *const tables[] = {"run", "sweep"};
	struct amd_store *held = NULL;
	if (amd_ch_store_open_tables(amd_ch_name(seed->ch), NULL, 0, tables, 2, NULL, 0, &held,
				     err) < 0)
		return -1;
	int64_t id = amd_store_sink_find_run(held, ext_id, name, sweep, err);
	int rc = id < 0 ? -1 : id == 0 ? 0 : amd_store_copy_run(held, id, staging, err);
	amd_store_close(held);
	return rc;
}

void amd_ch_held_free(struct amd_ch_held *h)
{
	free(h->ids);
	*h = (struct amd_ch_held){0};
}

void amd_ch_seed_free(struct amd_ch_seed *seed)
{
	amd_ch_held_free(&seed->own);
}
