/* ch_load.c — reading a ClickHouse store (ch_load.h). The committed
 * sources are read first and numbered 1, 2, … in path order (the order
 * a SQLite store numbers a walk's files, and one that does not depend on
 * which host committed first); runs, sweeps, strings and frames are
 * numbered in the order they first appear; then each table of ch_tables.c, only rows
 * of committed attempts, as JSONCompact (parsed by cJSON), into the
 * same table of an in-memory SQLite store. Rows several sources write
 * (a run, a sweep, a param) keep the one SQLite would keep: the run's
 * own source's, the latest. */
#include "ch_load.h"
#include "ch_reduce.h"
#include "sqlite_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>
#include <openssl/crypto.h>

#include "ch_schema.h"
#include "ch_scope.h"
#include "ch_tables.h"
#include "remote_ops.h"
#include "clickhouse.h"
#include "metric_rows.h"
#include "schema.h"

/* The latest committed attempt of each path not forgotten (sha256 ""):
 * a source is its place and content, so two paths with the same bytes
 * are two sources (issue 40 items 3/4). */
const char amd_ch_committed_sql[] =
	"SELECT aid FROM (SELECT argMax(id, (committed_ns, id)) AS aid,"
	" argMax(sha256, (committed_ns, id)) AS asha"
	" FROM source GROUP BY path) WHERE asha != ''";

/* Which row wins where several sources write one (INSERT OR IGNORE
 * keeps the first), before commit and insertion order. */
static const char *prefer(const char *table)
{
	if (strcmp(table, "run") == 0)
		return "isNull(source_id), committed_ns DESC,";
	if (strcmp(table, "sweep") == 0)
		return "isNull(ext_id),";
	if (strcmp(table, "param") == 0 || strcmp(table, "tag") == 0)
		return "committed_ns DESC,";
	return "";
}

/* attempt id -> its number in the loaded store, sorted by attempt id */
struct attempt {
	int64_t id, ord;
};
struct attempts {
	struct attempt *p;
	size_t n;
};

static int64_t ordinal(const struct attempts *a, int64_t attempt)
{
	for (size_t lo = 0, hi = a->n; lo < hi;) {
		size_t mid = (lo + hi) / 2;
		if (a->p[mid].id == attempt)
			return a->p[mid].ord;
		if (a->p[mid].id < attempt)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

int64_t amd_ch_json_int(const cJSON *v)
{
	if (cJSON_IsString(v))
		return strtoll(v->valuestring, NULL, 10);
	return (int64_t)v->valuedouble;
}

/* Runs sql and parses its JSONCompact answer into *data (the rows). */
static cJSON *fetch(struct amd_ch *ch, const char *sql, const cJSON **data,
		    struct amd_err *err)
{
	struct amd_buf out = {0};
	if (amd_ch_query(ch, sql, &out, err) < 0)
		return NULL;
	cJSON *doc = out.len ? cJSON_ParseWithLength(out.data, out.len) : NULL;
	amd_buf_free(&out);
	*data = doc ? cJSON_GetObjectItemCaseSensitive(doc, "data") : NULL;
	if (!cJSON_IsArray(*data)) {
		cJSON_Delete(doc);
		amd_fail(err, "%s: the server's answer is not JSONCompact rows", amd_ch_name(ch));
		return NULL;
	}
	return doc;
}

/* The id maps a load needs: attempts, and the renumbered identities of
 * runs, sweeps, dict strings and frames (ch_tables.h, 'r' 'w' 'd' 'f'). */
#define RENUMBERED "rwdf"
static const char *const renumbered_table[] = {"run", "sweep", "dict", "frame"};
struct maps {
	struct attempts src, ids[4];
};

static int bind_value(sqlite3_stmt *q, int i, const cJSON *v, char kind, int64_t row_src,
		      const struct maps *m)
{
	const struct attempts *a = &m->src;
	if (!v || cJSON_IsNull(v))
		return sqlite3_bind_null(q, i);
	const char *r = strchr(RENUMBERED, kind);
	if (r && kind) {
		int64_t o = ordinal(&m->ids[r - RENUMBERED], amd_ch_json_int(v));
		return o ? sqlite3_bind_int64(q, i, o) : sqlite3_bind_null(q, i);
	}
	if (kind == 's') {
		int64_t o = ordinal(a, amd_ch_json_int(v));
		return o ? sqlite3_bind_int64(q, i, o) : sqlite3_bind_null(q, i);
	}
	if (kind == 'c')
		return sqlite3_bind_int64(q, i, ordinal(a, row_src) << 32 | amd_ch_json_int(v));
	if (cJSON_IsNumber(v))
		return sqlite3_bind_double(q, i, v->valuedouble);
	return sqlite3_bind_text(q, i, v->valuestring, -1, SQLITE_STATIC);
}

/* How column name (n bytes) of t is loaded: 'f' a Float64 (or Nullable)
 * as text (toString, read back with strtod): JSON has no infinities, so
 * the server would send inf and -inf as null, and a read-only user may
 * not set the setting that quotes them (output_format_json_quote_denormals);
 * 's' a String (or Nullable) as hex (decoded with OpenSSL): the server's
 * JSON writes a run of bytes that are not UTF-8 as one U+FFFD, and a
 * name must come back byte for byte as SQLite keeps it; 0 as it is. */
static char col_load(const struct ch_table *t, const char *name, size_t n)
{
	for (const char *c = t->columns; *c; c++) {
		const char *type = c + n;
		if ((c == t->columns || c[-1] == ' ') && strncmp(c, name, n) == 0 && *type == ' ') {
			type++;
			if (strncmp(type, "Nullable(", 9) == 0)
				type += 9;
			return strncmp(type, "Float64", 7) == 0 ? 'f'
			       : strncmp(type, "String", 6) == 0 ? 's' : 0;
		}
	}
	return 0;
}

/* The load SELECT of t: its columns (floats as text, strings as hex) and
 * src, the rows of the attempts in (in) meeting filter (an SQL
 * condition, or NULL), in the order a SQLite store would hold them; with
 * cond (an SQL condition, or NULL) only the first row meeting it: the
 * one a load keeps. Of dict only the first row of each id: every source
 * holds its own copy of the strings it uses (one id per string,
 * amd_ch_string_id) and the load keeps the first (INSERT OR IGNORE), so
 * the server sends that one — `regions` of a sweep of 1,280 trace files
 * was sent 124,615 dict rows for a store of 520 strings. */
static int load_sql(struct amd_buf *b, const struct ch_table *t, const char *in,
		    const char *filter, const char *cond)
{
	int bad = amd_buf_printf(b, "SELECT ") < 0;
	for (const char *c = t->cols; !bad && *c;) {
		size_t n = strcspn(c, ",");
		char how = col_load(t, c, n);
		bad = amd_buf_printf(b, how == 'f' ? "toString(%.*s), " : how == 's' ? "hex(%.*s), "
				     : "%.*s, ", (int)n, c) < 0;
		c += n + (c[n] == ',');
	}
	if (bad)
		return -1;
	return amd_buf_printf(b, "src FROM %s ANY LEFT JOIN (SELECT id AS src,"
			      " committed_ns, path AS src_path FROM source) USING (src) WHERE src IN (%s)"
			      "%s%s%s%s%s%s ORDER BY %s src_path, src, rn%s FORMAT JSONCompact",
			      t->name, in, filter ? " AND (" : "", filter ? filter : "",
			      filter ? ")" : "", cond ? " AND (" : "", cond ? cond : "", cond ? ")" : "",
			      prefer(t->name), cond ? " LIMIT 1"
			      : strcmp(t->name, "dict") == 0 ? " LIMIT 1 BY id" : "");
}

/* Binds the bytes the hex text of a String column stands for. */
int amd_ch_bind_hex(sqlite3_stmt *q, int i, const char *hex)
{
	if (!*hex)
		return sqlite3_bind_text(q, i, "", 0, SQLITE_STATIC);
	long len = 0;
	unsigned char *bytes = OPENSSL_hexstr2buf(hex, &len);
	if (!bytes)
		return SQLITE_NOMEM;
	int rc = sqlite3_bind_text(q, i, (const char *)bytes, (int)len, SQLITE_TRANSIENT);
	OPENSSL_free(bytes);
	return rc;
}

/* Types that arrive as JSON strings but are integers (Int64, UInt64). */
static int is_int_col(const cJSON *meta, int i)
{
	const cJSON *m = cJSON_GetArrayItem(meta, i);
	const cJSON *ty = m ? cJSON_GetObjectItemCaseSensitive(m, "type") : NULL;
	return cJSON_IsString(ty) && strstr(ty->valuestring, "Int") != NULL;
}

/* A run's kept row (the first, prefer) takes what it lacks of the
 * columns a SQLite run row only ever gains (the writer COALESCEs them)
 * from the run's other rows: units of one run that staged at once (two
 * processes) each shipped a row without the other's part. */
#define RUN_FILL " ON CONFLICT(id) DO UPDATE SET name = COALESCE(name, excluded.name)," \
	" parent_ext_id = COALESCE(parent_ext_id, excluded.parent_ext_id)," \
	" strategy = COALESCE(strategy, excluded.strategy), n = COALESCE(n, excluded.n)," \
	" nodes = COALESCE(nodes, excluded.nodes), rank = COALESCE(rank, excluded.rank)," \
	" repeat = COALESCE(repeat, excluded.repeat)," \
	" entry_point = COALESCE(entry_point, excluded.entry_point)," \
	" program = COALESCE(program, excluded.program)"

static int insert_rows(struct amd_store *st, const struct ch_table *t, const cJSON *doc,
		       const cJSON *data, const struct maps *a, struct amd_err *err)
{
	int ncols = (int)strlen(t->kinds);
	char how[64] = {0}; /* how load_sql selected each column (col_load) */
	const char *c = t->cols;
	for (int i = 0; i < ncols && i < 64 && *c; i++) {
		size_t n = strcspn(c, ",");
		how[i] = col_load(t, c, n);
		c += n + (c[n] == ',');
	}
	if (ncols > 64)
		return amd_fail(err, "%s: table %s: more than 64 columns", st->path, t->name);
	/* SQLite's metric_point keys repeated steps apart by seq, gpu_sample
	 * packs its samples in seq order: the row's order */
	int seq = strcmp(t->name, "metric_point") == 0 || strcmp(t->name, "gpu_sample") == 0;
	char sql[1200];
	int len = snprintf(sql, sizeof sql, "INSERT OR IGNORE INTO %s(%s%s) VALUES(", t->name,
			   t->cols, seq ? ",seq" : "");
	for (int i = 0; i < ncols + seq && len < (int)sizeof sql - 4; i++)
		len += snprintf(sql + len, sizeof sql - (size_t)len, i ? ",?" : "?");
	snprintf(sql + len, sizeof sql - (size_t)len, ")%s",
		 strcmp(t->name, "run") == 0 ? RUN_FILL : "");
	sqlite3_stmt *q = amd_store_prepare(st, sql, err);
	if (!q)
		return -1;
	const cJSON *meta = cJSON_GetObjectItemCaseSensitive(doc, "meta");
	const cJSON *row;
	int rc = SQLITE_DONE;
	int64_t nrow = 0;
	cJSON_ArrayForEach(row, data) {
		if (cJSON_GetArraySize(row) != ncols + 1) {
			sqlite3_finalize(q);
			return amd_fail(err, "%s: table %s: a row of %d columns, expected %d",
					st->path, t->name, cJSON_GetArraySize(row), ncols + 1);
		}
		int64_t src = amd_ch_json_int(cJSON_GetArrayItem(row, ncols));
		sqlite3_reset(q);
		for (int i = 0; i < ncols; i++) {
			const cJSON *v = cJSON_GetArrayItem(row, i);
			int plain_str = t->kinds[i] == 'p' && cJSON_IsString(v);
			if (plain_str && how[i] == 'f')
				sqlite3_bind_double(q, i + 1, strtod(v->valuestring, NULL));
			else if (plain_str && how[i] == 's')
				rc = amd_ch_bind_hex(q, i + 1, v->valuestring);
			else if (plain_str && is_int_col(meta, i))
				sqlite3_bind_int64(q, i + 1, amd_ch_json_int(v));
			else
				bind_value(q, i + 1, v, t->kinds[i], src, a);
			if (rc != SQLITE_DONE && rc != SQLITE_OK)
				break;
			rc = SQLITE_DONE;
		}
		if (rc != SQLITE_DONE)
			break;
		if (seq)
			sqlite3_bind_int64(q, ncols + 1, nrow++);
		if ((rc = sqlite3_step(q)) != SQLITE_DONE)
			break;
	}
	return amd_store_rows_done(st, q, rc, err);
}

/* In *cond the condition on t's rows of the attempts in: of metric
 * points those meeting keys (an SQL condition, or NULL), and of a
 * table naming runs those of runs (a comma list, or NULL: every run's;
 * amd_ch_scope_rows); an empty buffer for none. */
static int rows_cond(struct amd_buf *cond, const struct ch_table *t, const char *in,
		     const char *keys, const char *runs)
{
	if (amd_ch_scope_rows(cond, t, in, runs) < 0)
		return -1;
	if (!keys || strcmp(t->name, "metric_point") != 0)
		return 0;
	return amd_buf_printf(cond, "%s%s", cond->len ? " AND " : "", keys);
}

static int load_table(struct amd_ch *ch, struct amd_store *st, const struct ch_table *t,
		      const char *in, const char *keys, const char *runs, const struct maps *a,
		      struct amd_err *err)
{
	int points = strcmp(t->name, "metric_point") == 0, gpu = strcmp(t->name, "gpu_sample") == 0;
	int nodes = strcmp(t->name, "stack_node") == 0, stacks = nodes ||
		strcmp(t->name, "stack_sample") == 0, regions = strcmp(t->name, "region") == 0;
	struct amd_buf sql = {0}, cond = {0};
	int bad = rows_cond(&cond, t, in, keys, runs) < 0 || amd_buf_append(&cond, "", 1) < 0 ||
		  load_sql(&sql, t, in, *cond.data ? cond.data : NULL, NULL) < 0 ||
		  amd_buf_append(&sql, "", 1) < 0;
	amd_buf_free(&cond);
	if (bad) {
		amd_buf_free(&sql);
		return amd_fail(err, "%s: out of memory", st->path);
	}
	const cJSON *data;
	cJSON *doc = fetch(ch, sql.data, &data, err);
	amd_buf_free(&sql);
	if (!doc)
		return -1;
	/* rows packed into series */
	int rc = points   ? amd_metric_rows_open(st, err)
		 : gpu    ? amd_gpu_rows_open(st, err)
		 : stacks ? amd_stack_rows_open(st, nodes, err)
		 : regions ? amd_region_rows_open(st, err)
			  : 0;
	if (rc == 0)
		rc = insert_rows(st, t, doc, data, a, err);
	cJSON_Delete(doc);
	if (rc == 0 && points)
		rc = amd_metric_rows_pack(st, err);
	if (rc == 0 && gpu)
		rc = amd_gpu_rows_pack(st, err);
	if (rc == 0 && stacks)
		rc = amd_stack_rows_pack(st, nodes, err);
	if (rc == 0 && regions)
		rc = amd_region_rows_pack(st, err);
	return rc;
}

cJSON *amd_ch_kept_row(struct amd_ch *ch, const char *table, const char *cond,
			const cJSON **row, struct amd_err *err)
{
	const struct ch_table *t = NULL;
	for (size_t i = 0; !t && i < amd_ch_table_count; i++)
		if (strcmp(amd_ch_tables[i].name, table) == 0)
			t = &amd_ch_tables[i];
	struct amd_buf sql = {0};
	if (!t || load_sql(&sql, t, amd_ch_committed_sql, NULL, cond) < 0 ||
	    amd_buf_append(&sql, "", 1) < 0) {
		amd_buf_free(&sql);
		amd_fail(err, "%s: %s", amd_ch_name(ch), t ? "out of memory" : "no such table");
		return NULL;
	}
	const cJSON *data;
	cJSON *doc = fetch(ch, sql.data, &data, err);
	amd_buf_free(&sql);
	*row = doc ? cJSON_GetArrayItem(data, 0) : NULL;
	return doc;
}

static int cmp_attempt(const void *x, const void *y)
{
	int64_t a = ((const struct attempt *)x)->id, b = ((const struct attempt *)y)->id;
	return (a > b) - (a < b);
}

/* The sources of the attempts in (in), numbered in path order. */
static int load_sources(struct amd_ch *ch, struct amd_store *st, const char *in,
			struct attempts *a, struct amd_err *err)
{
	struct amd_buf sql = {0};
	if (amd_buf_printf(&sql, "SELECT id, hex(path), kind, size, sha256, ingested_at FROM source"
			   " WHERE id IN (%s) ORDER BY path, id FORMAT JSONCompact", in) < 0) {
		amd_buf_free(&sql);
		return amd_fail(err, "%s: out of memory", st->path);
	}
	const cJSON *data, *row;
	cJSON *doc = fetch(ch, sql.data, &data, err);
	amd_buf_free(&sql);
	if (!doc)
		return -1;
	size_t n = (size_t)cJSON_GetArraySize(data);
	a->p = calloc(n ? n : 1, sizeof *a->p);
	sqlite3_stmt *q = a->p ? amd_store_prepare(st, "INSERT INTO source(id, path, kind,"
				 " size, sha256, ingested_at) VALUES(?1,?2,?3,?4,?5,?6)", err) : NULL;
	int rc = SQLITE_DONE;
	if (q)
		cJSON_ArrayForEach(row, data) {
			const cJSON *path = cJSON_GetArrayItem(row, 1), *kind = cJSON_GetArrayItem(row, 2),
				    *sha = cJSON_GetArrayItem(row, 4);
			if (cJSON_GetArraySize(row) != 6 || !cJSON_IsString(path) ||
			    !cJSON_IsString(kind) || !cJSON_IsString(sha)) {
				rc = SQLITE_MISMATCH;
				break;
			}
			struct attempt *at = &a->p[a->n++];
			at->id = amd_ch_json_int(cJSON_GetArrayItem(row, 0));
			at->ord = (int64_t)a->n;
			sqlite3_reset(q);
			sqlite3_bind_int64(q, 1, at->ord);
			if ((rc = amd_ch_bind_hex(q, 2, path->valuestring)) != SQLITE_OK)
				break;
			sqlite3_bind_text(q, 3, kind->valuestring, -1, SQLITE_STATIC);
			sqlite3_bind_int64(q, 4, amd_ch_json_int(cJSON_GetArrayItem(row, 3)));
			sqlite3_bind_text(q, 5, sha->valuestring, -1, SQLITE_STATIC);
			sqlite3_bind_int64(q, 6, amd_ch_json_int(cJSON_GetArrayItem(row, 5)));
			if ((rc = sqlite3_step(q)) != SQLITE_DONE)
				break;
		}
	int ret = !a->p ? amd_fail(err, "%s: out of memory", st->path)
		: !q ? -1 : amd_store_rows_done(st, q, rc, err);
	cJSON_Delete(doc);
	if (ret == 0)
		qsort(a->p, a->n, sizeof *a->p, cmp_attempt);
	return ret;
}

/* Numbers the ids of table that rows of the attempts in (in) hold, in
 * the order they first appear in the whole committed store (sources by
 * path, then the order their unit wrote them): the ids' order in a
 * SQLite store that ingested the same files, walked in path order, and
 * so the same order whether a read loads all or a part. */
static int load_ids(struct amd_ch *ch, const char *table, const char *in, const char *runs,
		    struct attempts *ids, struct amd_err *err)
{
	struct amd_buf sql = {0};
	int cut = runs && *runs && strcmp(table, "run") == 0; /* only the part's runs */
	if (amd_buf_printf(&sql, "SELECT id FROM (SELECT id, src_path, src, rn FROM %s ANY LEFT JOIN"
			   " (SELECT id AS src, path AS src_path FROM source) USING (src) WHERE src IN"
			   " (%s)%s%s%s ORDER BY src_path, src, rn LIMIT 1 BY id) WHERE id IN (SELECT id"
			   " FROM %s WHERE src IN (%s)) ORDER BY src_path, src, rn FORMAT JSONCompact",
			   table, amd_ch_committed_sql, cut ? " AND id IN (" : "", cut ? runs : "",
			   cut ? ")" : "", table, in) < 0) {
		amd_buf_free(&sql);
		return amd_fail(err, "%s: out of memory", amd_ch_name(ch));
	}
	const cJSON *data, *row;
	cJSON *doc = fetch(ch, sql.data, &data, err);
	amd_buf_free(&sql);
	if (!doc)
		return -1;
	size_t n = (size_t)cJSON_GetArraySize(data);
	ids->p = calloc(n ? n : 1, sizeof *ids->p);
	if (!ids->p) {
		cJSON_Delete(doc);
		return amd_fail(err, "%s: out of memory", amd_ch_name(ch));
	}
	cJSON_ArrayForEach(row, data) {
		struct attempt *r = &ids->p[ids->n];
		r->id = amd_ch_json_int(cJSON_GetArrayItem(row, 0));
		r->ord = (int64_t)++ids->n;
	}
	cJSON_Delete(doc);
	qsort(ids->p, ids->n, sizeof *ids->p, cmp_attempt);
	return 0;
}

/* Drops the loaded sweeps some run row placed runs in that now hold
 * none: a placeholder run's sweep ("default", for a trace that names
 * no sweep), which the SQLite writer deletes when the run's own unit
 * moves the run out of it. */
static int drop_emptied_sweeps(struct amd_ch *ch, struct amd_store *st, const char *in,
			       const struct maps *m, struct amd_err *err)
{
	struct amd_buf sql = {0};
	if (amd_buf_printf(&sql, "SELECT DISTINCT sweep_id FROM run WHERE src IN (%s) AND"
			   " isNotNull(sweep_id) FORMAT JSONCompact", in) < 0) {
		amd_buf_free(&sql);
		return amd_fail(err, "%s: out of memory", st->path);
	}
	const cJSON *data, *row;
	cJSON *doc = fetch(ch, sql.data, &data, err);
	amd_buf_free(&sql);
	sqlite3_stmt *q = doc ? amd_store_prepare(st, "DELETE FROM sweep WHERE id = ?1 AND"
				" NOT EXISTS(SELECT 1 FROM run WHERE sweep_id = ?1)", err) : NULL;
	int rc = SQLITE_DONE;
	if (q)
		cJSON_ArrayForEach(row, data) {
			sqlite3_reset(q);
			bind_value(q, 1, cJSON_GetArrayItem(row, 0), 'w', 0, m);
			if ((rc = sqlite3_step(q)) != SQLITE_DONE)
				break;
		}
	cJSON_Delete(doc);
	return q ? amd_store_rows_done(st, q, rc, err) : -1;
}

static void maps_free(struct maps *m)
{
	free(m->src.p);
	for (size_t i = 0; i < strlen(RENUMBERED); i++)
		free(m->ids[i].p);
	memset(m, 0, sizeof *m);
}

/* Whether table is one of tables (n of them; NULL: every table). */
static int wanted(const char *table, const char *const *tables, size_t n)
{
	for (size_t i = 0; tables && i < n; i++)
		if (strcmp(tables[i], table) == 0)
			return 1;
	return !tables;
}

/* Loads the rows of the attempts in (in): the committed ones, or the
 * part a read needs (ch_scope.h); of the tables named (NULL: all); of
 * metric points those meeting keys (an SQL condition, or NULL: all). */
static int load_all(struct amd_ch *ch, struct amd_store *st, const char *in,
		    const char *runs, const char *const *tables, size_t ntables, const char *keys,
		    const char *left, struct maps *keep, struct amd_err *err)
{
	struct maps m;
	memset(&m, 0, sizeof m);
	if (amd_store_begin(st, err) < 0)
		return -1;
	int rc = load_sources(ch, st, in, &m.src, err);
	for (size_t i = 0; rc == 0 && i < strlen(RENUMBERED); i++)
		rc = load_ids(ch, renumbered_table[i], in, runs, &m.ids[i], err);
	for (size_t i = 0; rc == 0 && i < amd_ch_table_count; i++)
		if (amd_ch_table_loaded(&amd_ch_tables[i]) &&
		    wanted(amd_ch_tables[i].name, tables, ntables) &&
		    !(left && strcmp(amd_ch_tables[i].name, left) == 0))
			rc = load_table(ch, st, &amd_ch_tables[i], in, keys, runs, &m, err);
	if (rc == 0)
		rc = drop_emptied_sweeps(ch, st, in, &m, err);
	/* rows shipped before the server's schema 5 have no op role, runs
	 * before its schema 6 no entry point or program */
	if (rc == 0)
		rc = amd_store_op_roles_of_older_rows(st, err);
	if (rc == 0)
		rc = amd_store_run_launch_of_older_rows(st, err);
	if (rc == 0 && keep) /* the maps a table left on the server loads by */
		*keep = m;
	else
		maps_free(&m);
	if (rc < 0) {
		amd_store_rollback(st);
		return -1;
	}
	return amd_store_commit(st, err);
}

/* ---- the region rows left on the server (AMD_READ_REGION_SUMS) ---- */

/* What a read left on the server and what reading it later needs: the
 * store.h amd_store_remote's ctx. */
struct ch_left {
	char *url, *in, *runs; /* the part read (in: its attempts; runs: NULL all) */
	const struct ch_table *t;
	struct maps m;
};

static void left_free(void *ctx)
{
	struct ch_left *l = ctx;
	if (!l)
		return;
	free(l->url);
	free(l->in);
	free(l->runs);
	maps_free(&l->m);
	free(l);
}

/* store.h's load: the rows left, loaded as load_all would have. */
static int left_load(void *ctx, struct amd_store *st, struct amd_err *err)
{
	struct ch_left *l = ctx;
	struct amd_ch *ch = NULL;
	if (amd_ch_open(l->url, &ch, err) < 0)
		return -1;
	int rc = amd_store_begin(st, err);
	if (rc == 0 && (rc = load_table(ch, st, l->t, l->in, NULL, l->runs, &l->m, err)) < 0)
		amd_store_rollback(st);
	else if (rc == 0)
		rc = amd_store_commit(st, err);
	amd_ch_close(ch);
	return rc;
}

/* The server's id of the string the loaded store numbered ord (0: none). */
static int64_t string_chid(const struct maps *m, int64_t ord)
{
	const struct attempts *d = &m->ids[strchr(RENUMBERED, 'd') - RENUMBERED];
	for (size_t i = 0; ord > 0 && i < d->n; i++)
		if (d->p[i].ord == ord)
			return d->p[i].id;
	return 0;
}

/* A row of amd_ch_region_sums_sql's answer in the loaded store's ids
 * in *r; 0 when its run is not the part's (the load would give it no
 * run: rows_sql leaves it out). */
static int sum_row(const cJSON *row, const struct maps *m, struct amd_region_sum *r)
{
	const struct attempts *runs = &m->ids[strchr(RENUMBERED, 'r') - RENUMBERED],
			      *dict = &m->ids[strchr(RENUMBERED, 'd') - RENUMBERED];
	const cJSON *v[11];
	for (int i = 0; i < 11; i++)
		v[i] = cJSON_GetArrayItem(row, i);
	memset(r, 0, sizeof *r);
	r->run_id = ordinal(runs, amd_ch_json_int(v[0]));
	r->profiler_id = ordinal(dict, amd_ch_json_int(v[1]));
	r->kind_id = ordinal(dict, amd_ch_json_int(v[2]));
	r->name_id = ordinal(dict, amd_ch_json_int(v[3]));
	if ((r->has_file = v[4] && !cJSON_IsNull(v[4])))
		r->file_id = ordinal(dict, amd_ch_json_int(v[4]));
	if ((r->has_line = v[5] && !cJSON_IsNull(v[5])))
		r->line = amd_ch_json_int(v[5]);
	for (int k = 0; k < 5; k++)
		if ((r->has[k] = v[6 + k] && !cJSON_IsNull(v[6 + k])))
			r->sum[k] = amd_ch_json_int(v[6 + k]);
	return r->run_id != 0;
}

/* store.h's region_sums: amd_ch_region_sums_sql on the server, its rows
 * to fn. */
static int left_sums(void *ctx, struct amd_store *st, int64_t kind_id, int64_t profiler_id,
		     amd_region_sum_fn fn, void *fn_ctx, struct amd_err *err)
{
	struct ch_left *l = ctx;
	struct amd_buf cond = {0}, sql = {0};
	int64_t kind = string_chid(&l->m, kind_id), prof = string_chid(&l->m, profiler_id);
	if ((kind_id && !kind) || (profiler_id && !prof))
		return 0; /* a kind or profiler no row of the part has */
	int bad = amd_ch_scope_rows(&cond, l->t, l->in, l->runs) < 0 ||
		  amd_buf_append(&cond, "", 1) < 0 ||
		  amd_ch_region_sums_sql(&sql, l->in, cond.data, kind, prof) < 0 ||
		  amd_buf_append(&sql, "", 1) < 0;
	amd_buf_free(&cond);
	if (bad) {
		amd_buf_free(&sql);
		return amd_fail(err, "%s: out of memory", st->path);
	}
	struct amd_ch *ch = NULL;
	const cJSON *data = NULL, *row;
	cJSON *doc = amd_ch_open(l->url, &ch, err) < 0 ? NULL : fetch(ch, sql.data, &data, err);
	amd_ch_close(ch);
	amd_buf_free(&sql);
	if (!doc)
		return -1;
	int rc = 0;
	cJSON_ArrayForEach(row, data) {
		struct amd_region_sum r;
		if (cJSON_GetArraySize(row) != 11) {
			rc = amd_fail(err, "%s: region sums: a row of %d columns, expected 11",
				      st->path, cJSON_GetArraySize(row));
			break;
		}
		if (sum_row(row, &l->m, &r) && fn(fn_ctx, &r, 1) < 0) {
			rc = amd_fail(err, "%s: out of memory", st->path);
			break;
		}
	}
	cJSON_Delete(doc);
	return rc;
}

/* Leaves the region rows of the part read on the server (st's hooks). */
static int leave_regions(struct amd_store *st, struct ch_left *l, const char *url,
			 const char *in, const char *runs, struct amd_err *err)
{
	for (size_t i = 0; !l->t && i < amd_ch_table_count; i++)
		if (strcmp(amd_ch_tables[i].name, "region") == 0)
			l->t = &amd_ch_tables[i];
	l->url = strdup(url);
	l->in = strdup(in);
	l->runs = runs ? strdup(runs) : NULL;
	if (!l->t || !l->url || !l->in || (runs && !l->runs)) {
		left_free(l);
		return amd_fail(err, "%s: out of memory", url);
	}
	const struct amd_store_remote r = {"region", l, left_load, left_sums, left_free};
	amd_store_set_remote(st, &r);
	return 0;
}

int amd_ch_store_open(const char *url, const char *const *names, size_t n,
		      struct amd_store **out, struct amd_err *err)
{
	return amd_ch_store_open_tables(url, names, n, NULL, 0, NULL, 0, out, err);
}

static int open_whole(const char *url, struct amd_store **out, struct amd_err *err)
{
	return amd_ch_store_open(url, NULL, 0, out, err);
}

/* The condition "key_id IN (…)" of the keys (their ids on the server:
 * amd_ch_string_id) in *out; NULL when keys is NULL. */
static int keys_cond(const char *const *keys, size_t nkeys, char **out, struct amd_err *err)
{
	*out = NULL;
	if (!keys)
		return 0;
	struct amd_buf b = {0};
	int rc = amd_buf_printf(&b, "key_id IN (");
	for (size_t i = 0; rc == 0 && i < nkeys; i++)
		rc = amd_buf_printf(&b, "%s%lld", i ? ", " : "",
				    (long long)amd_ch_string_id(keys[i], strlen(keys[i])));
	if (rc == 0)
		rc = amd_buf_printf(&b, nkeys ? ")" : "NULL)");
	if (rc < 0) {
		amd_buf_free(&b);
		return amd_fail(err, "out of memory");
	}
	*out = b.data;
	return 0;
}

int amd_ch_store_open_tables(const char *url, const char *const *names, size_t n,
			     const char *const *tables, size_t ntables, const char *const *keys,
			     size_t nkeys, struct amd_store **out, struct amd_err *err)
{
	return amd_ch_store_open_read(url, names, n, tables, ntables, keys, nkeys, 0, out, err);
}

int amd_ch_store_open_read(const char *url, const char *const *names, size_t n,
			   const char *const *tables, size_t ntables, const char *const *keys,
			   size_t nkeys, int how, struct amd_store **out, struct amd_err *err)
{
	*out = NULL;
	struct amd_ch *ch = NULL;
	struct amd_store *st = NULL;
	char *part = NULL, *runs = NULL, *kcond = NULL;
	if (keys_cond(keys, nkeys, &kcond, err) < 0)
		return -1;
	if (amd_ch_open(url, &ch, err) < 0) {
		free(kcond);
		return -1;
	}
	int rc = amd_ch_check_version(ch, err);
	if (rc == 0 && n > 0)
		rc = amd_ch_scope_sources(ch, names, n, &part, &runs, err);
	if (how & AMD_READ_WHOLE_SOURCES) {
		free(runs);
		runs = NULL;
	}
	/* the series' first points, chosen by the server (ch_reduce.h) */
	if (rc == 0 && (how & AMD_READ_KEY_SETS) && !kcond)
		rc = amd_ch_key_sets_cond(part && *part ? part : amd_ch_committed_sql, &kcond, err);
	if (rc == 0 && (rc = amd_store_open(":memory:", AMD_STORE_WRITE, &st, err)) == 0) {
		char *name = strdup(url);
		if (!name)
			rc = amd_fail(err, "%s: out of memory", url);
		else {
			free(st->path);
			st->path = name;
			int in_part = part && *part;
			if (in_part || kcond) /* what a part cannot answer: the whole store */
				amd_store_set_whole(st, open_whole);
			/* the region rows summed on the server (ch_reduce.h) */
			struct ch_left *left = (how & AMD_READ_REGION_SUMS) &&
				wanted("region", tables, ntables) ? calloc(1, sizeof *left) : NULL;
			const char *in = in_part ? part : amd_ch_committed_sql;
			rc = load_all(ch, st, in, in_part ? runs : NULL, tables, ntables, kcond,
				      left ? "region" : NULL, left ? &left->m : NULL, err);
			if (left && rc == 0)
				rc = leave_regions(st, left, url, in, in_part ? runs : NULL, err);
			else
				free(left);
			st->mode = AMD_STORE_READ;
		}
	}
	amd_ch_close(ch);
	free(part);
	free(runs);
	free(kcond);
	if (rc < 0) {
		amd_store_close(st);
		return -1;
	}
	*out = st;
	return 0;
}
