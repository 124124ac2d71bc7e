/* ch_load.c — reading a ClickHouse store (ch_load.h). The committed
 * sources are read first and numbered 1, 2, … in path order (the order
 * a SQLite store numbers a walk's files, and one that does not depend on
 * which host committed first); runs, sweeps, strings and frames are
 * numbered in the order they first appear; then each table of ch_tables.c, only rows
 * of committed attempts, as JSONCompact (parsed by cJSON), into the
 * same table of an in-memory store, through the store's loader
 * (table_load.h: rows of typed cells; no SQL here). Rows several sources write
 * (a run, a sweep, a param) keep the one SQLite would keep: the run's
 * own source's, the latest. */
#include "ch_load.h"
#include "ch_reduce.h"

#include <math.h>
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
#include "orphans.h"
#include "table_load.h"

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

/* A JSONCompact answer (out) parsed, its rows in *data. */
static cJSON *rows_of(struct amd_ch *ch, const struct amd_buf *out, const cJSON **data,
		      struct amd_err *err)
{
	cJSON *doc = out->len ? cJSON_ParseWithLength(out->data, out->len) : NULL;
	*data = doc ? cJSON_GetObjectItemCaseSensitive(doc, "data") : NULL;
	if (!cJSON_IsArray(*data)) {
		cJSON_Delete(doc);
		amd_fail(err, "%s: the server's answer is not JSONCompact rows", amd_ch_name(ch));
		return NULL;
	}
	return doc;
}

/* Runs sql and parses its JSONCompact answer into *data (the rows). */
static cJSON *fetch(struct amd_ch *ch, const char *sql, const cJSON **data,
		    struct amd_err *err)
{
	struct amd_buf out = {0};
	cJSON *doc = amd_ch_query(ch, sql, &out, err) < 0 ? NULL : rows_of(ch, &out, data, err);
	amd_buf_free(&out);
	return doc;
}

/* The id maps a load needs: attempts, and the renumbered identities of
 * runs, sweeps, dict strings and frames (ch_tables.h, 'r' 'w' 'd' 'f'). */
#define RENUMBERED "rwdf"
static const char *const renumbered_table[] = {"run", "sweep", "dict", "frame"};
struct maps {
	struct attempts src, ids[4];
};

/* The cell of a mapped column (kind, ch_tables.h) or a plain one as
 * JSON gives it: a number as a double (as SQLite would bind it), a
 * string as its text. */
static void cell_value(struct amd_cell *c, const cJSON *v, char kind, int64_t row_src,
		       const struct maps *m)
{
	const struct attempts *a = &m->src;
	memset(c, 0, sizeof *c);
	if (!v || cJSON_IsNull(v))
		return;
	const char *r = strchr(RENUMBERED, kind);
	if (r && kind) {
		if ((c->i = ordinal(&m->ids[r - RENUMBERED], amd_ch_json_int(v))))
			c->type = AMD_CELL_INT;
	} else if (kind == 's') {
		if ((c->i = ordinal(a, amd_ch_json_int(v))))
			c->type = AMD_CELL_INT;
	} else if (kind == 'c') {
		c->type = AMD_CELL_INT;
		c->i = ordinal(a, row_src) << 32 | amd_ch_json_int(v);
	} else if (cJSON_IsNumber(v)) {
		c->type = AMD_CELL_REAL;
		c->f = v->valuedouble;
	} else if (cJSON_IsString(v)) {
		c->type = AMD_CELL_TEXT;
		c->s = v->valuestring;
		c->n = strlen(v->valuestring);
	}
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

/* Whether in names its attempts (a comma list: a part, ch_scope.h)
 * rather than selecting them (amd_ch_committed_sql: the whole store). A
 * join's right side holds of source only a list's rows: ClickHouse
 * builds it in memory from every row its SELECT reads, and a read of a
 * few sources built it from all of them (r17-37). The whole store's
 * join keeps all of source: the committed SELECT a second time would
 * read source twice. */
static int listed(const char *in)
{
	return strncmp(in, "SELECT", 6) != 0;
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
	int bound = listed(in);
	return amd_buf_printf(b, "src FROM %s ANY LEFT JOIN (SELECT id AS src,"
			      " committed_ns, path AS src_path FROM source%s%s%s) USING (src)"
			      " WHERE src IN (%s)%s%s%s%s%s%s ORDER BY %s src_path, src, rn%s"
			      " FORMAT JSONCompact", t->name, bound ? " WHERE id IN (" : "",
			      bound ? in : "", bound ? ")" : "", in, filter ? " AND (" : "", filter ? filter : "",
			      filter ? ")" : "", cond ? " AND (" : "", cond ? cond : "", cond ? ")" : "",
			      prefer(t->name), cond ? " LIMIT 1"
			      : strcmp(t->name, "dict") == 0 ? " LIMIT 1 BY id" : "");
}

int amd_ch_hex_cell(struct amd_cell *c, const char *hex, unsigned char **own)
{
	*own = NULL;
	memset(c, 0, sizeof *c);
	c->type = AMD_CELL_TEXT;
	c->s = "";
	if (!*hex)
		return 0;
	long len = 0;
	if (!(*own = OPENSSL_hexstr2buf(hex, &len)))
		return -1;
	c->s = (const char *)*own;
	c->n = (size_t)len;
	return 0;
}

/* Types that arrive as JSON strings but are integers (Int64, UInt64). */
static int is_int_col(const cJSON *meta, int i)
{
	const cJSON *m = cJSON_GetArrayItem(meta, i);
	const cJSON *ty = m ? cJSON_GetObjectItemCaseSensitive(m, "type") : NULL;
	return cJSON_IsString(ty) && strstr(ty->valuestring, "Int") != NULL;
}

/* The cells of one JSONCompact row of t (ncols columns, then src) in
 * c; the decoded strings in own (freed by row_free). -1 out of memory. */
static int row_cells(const struct ch_table *t, const char *how, const cJSON *meta,
		     const cJSON *row, int ncols, const struct maps *a, struct amd_cell *c,
		     unsigned char **own)
{
	int64_t src = amd_ch_json_int(cJSON_GetArrayItem(row, ncols));
	for (int i = 0; i < ncols; i++) {
		const cJSON *v = cJSON_GetArrayItem(row, i);
		int plain_str = t->kinds[i] == 'p' && cJSON_IsString(v);
		own[i] = NULL;
		if (plain_str && how[i] == 'f')
			c[i] = (struct amd_cell){.type = AMD_CELL_REAL,
						 .f = strtod(v->valuestring, NULL)};
		else if (plain_str && how[i] == 's') {
			if (amd_ch_hex_cell(&c[i], v->valuestring, &own[i]) < 0)
				return -1;
		} else if (plain_str && is_int_col(meta, i))
			c[i] = (struct amd_cell){.type = AMD_CELL_INT, .i = amd_ch_json_int(v)};
		else
			cell_value(&c[i], v, t->kinds[i], src, a);
	}
	return 0;
}

static void row_free(unsigned char **own, int ncols)
{
	for (int i = 0; i < ncols; i++) {
		OPENSSL_free(own[i]);
		own[i] = NULL;
	}
}

/* The server's rows of t (doc's data) through the store's loader. */
static int insert_rows(struct amd_store *st, const struct ch_table *t, const cJSON *doc,
		       const cJSON *data, const struct maps *a, struct amd_err *err)
{
	int ncols = (int)strlen(t->kinds);
	if (ncols > AMD_TABLE_COLS_MAX)
		return amd_fail(err, "%s: table %s: more than %d columns", amd_store_path(st),
				t->name, AMD_TABLE_COLS_MAX);
	char how[AMD_TABLE_COLS_MAX] = {0}; /* how load_sql selected each column (col_load) */
	const char *c = t->cols;
	for (int i = 0; i < ncols && *c; i++) {
		size_t n = strcspn(c, ",");
		how[i] = col_load(t, c, n);
		c += n + (c[n] == ',');
	}
	struct amd_table_load *l;
	if (amd_table_load_open(st, t->name, t->cols, &l, err) < 0)
		return -1;
	const cJSON *meta = cJSON_GetObjectItemCaseSensitive(doc, "meta");
	const cJSON *row;
	struct amd_cell cells[AMD_TABLE_COLS_MAX];
	unsigned char *own[AMD_TABLE_COLS_MAX] = {0};
	int rc = 0;
	cJSON_ArrayForEach(row, data) {
		if (cJSON_GetArraySize(row) != ncols + 1) {
			rc = amd_fail(err, "%s: table %s: a row of %d columns, expected %d",
				      amd_store_path(st), t->name, cJSON_GetArraySize(row), ncols + 1);
			break;
		}
		if (row_cells(t, how, meta, row, ncols, a, cells, own) < 0)
			rc = amd_fail(err, "%s: out of memory", amd_store_path(st));
		else
			rc = amd_table_load_row(l, cells, err);
		row_free(own, ncols);
		if (rc < 0)
			break;
	}
	return amd_table_load_close(l, rc == 0, err);
}

/* In *cond the condition on t's rows of the attempts in: of metric
 * points those meeting keys (an SQL condition, or NULL), of a table
 * naming runs those of runs (a comma list, or NULL: every run's;
 * amd_ch_scope_rows), with unowned only those of no run; an empty
 * buffer for none. */
static int rows_cond(struct amd_buf *cond, const struct ch_table *t, const char *in,
		     const char *keys, const char *runs, int unowned)
{
	if (amd_ch_scope_rows(cond, t, in, runs) < 0)
		return -1;
	if (unowned && amd_buf_printf(cond, "%sisNull(run_id)", cond->len ? " AND " : "") < 0)
		return -1;
	if (!keys || strcmp(t->name, "metric_point") != 0)
		return 0;
	return amd_buf_printf(cond, "%s%s", cond->len ? " AND " : "", keys);
}

/* The SELECT of t's rows a load inserts (rows_cond, load_sql) in sql,
 * NUL-ended; -1 out of memory. */
static int table_sql(struct amd_buf *sql, const struct ch_table *t, const char *in,
		     const char *keys, const char *runs, int unowned)
{
	struct amd_buf cond = {0};
	int bad = rows_cond(&cond, t, in, keys, runs, unowned) < 0 ||
		  amd_buf_append(&cond, "", 1) < 0 ||
		  load_sql(sql, t, in, *cond.data ? cond.data : NULL, NULL) < 0 ||
		  amd_buf_append(sql, "", 1) < 0;
	amd_buf_free(&cond);
	return bad ? -1 : 0;
}

static int load_table(struct amd_ch *ch, struct amd_store *st, const struct ch_table *t,
		      const char *in, const char *keys, const char *runs, int unowned,
		      const struct maps *a, struct amd_err *err)
{
	struct amd_buf sql = {0};
	if (table_sql(&sql, t, in, keys, runs, unowned) < 0) {
		amd_buf_free(&sql);
		return amd_fail(err, "%s: out of memory", amd_store_path(st));
	}
	const cJSON *data;
	cJSON *doc = fetch(ch, sql.data, &data, err);
	amd_buf_free(&sql);
	if (!doc)
		return -1;
	int rc = insert_rows(st, t, doc, data, a, err);
	cJSON_Delete(doc);
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

/* The SELECT of the sources of the attempts in (in), in path order. */
static int sources_sql(struct amd_buf *sql, const char *in)
{
	return amd_buf_printf(sql, "SELECT id, hex(path), kind, size, sha256, ingested_at FROM"
			      " source WHERE id IN (%s) ORDER BY path, id FORMAT JSONCompact", in);
}

/* The sources (sources_sql's rows, data) into st, numbered in path order
 * in a. */
static int load_sources(struct amd_store *st, const cJSON *data, struct attempts *a,
			struct amd_err *err)
{
	const cJSON *row;
	size_t n = (size_t)cJSON_GetArraySize(data);
	a->p = calloc(n ? n : 1, sizeof *a->p);
	struct amd_table_load *l = NULL;
	int rc = !a->p ? amd_fail(err, "%s: out of memory", amd_store_path(st))
		: amd_table_load_open(st, "source", "id,path,kind,size,sha256,ingested_at", &l, err);
	if (rc == 0)
		cJSON_ArrayForEach(row, data) {
			const cJSON *path = cJSON_GetArrayItem(row, 1), *kind = cJSON_GetArrayItem(row, 2),
				    *sha = cJSON_GetArrayItem(row, 4);
			if (cJSON_GetArraySize(row) != 6 || !cJSON_IsString(path) ||
			    !cJSON_IsString(kind) || !cJSON_IsString(sha)) {
				rc = amd_fail(err, "%s: table source: a malformed row",
					      amd_store_path(st));
				break;
			}
			struct attempt *at = &a->p[a->n++];
			at->id = amd_ch_json_int(cJSON_GetArrayItem(row, 0));
			at->ord = (int64_t)a->n;
			unsigned char *own = NULL;
			struct amd_cell c[6] = {
				{.type = AMD_CELL_INT, .i = at->ord},
				{0},
				{.type = AMD_CELL_TEXT, .s = kind->valuestring,
				 .n = strlen(kind->valuestring)},
				{.type = AMD_CELL_INT, .i = amd_ch_json_int(cJSON_GetArrayItem(row, 3))},
				{.type = AMD_CELL_TEXT, .s = sha->valuestring,
				 .n = strlen(sha->valuestring)},
				{.type = AMD_CELL_INT, .i = amd_ch_json_int(cJSON_GetArrayItem(row, 5))},
			};
			rc = amd_ch_hex_cell(&c[1], path->valuestring, &own) < 0
				? amd_fail(err, "%s: out of memory", amd_store_path(st))
				: amd_table_load_row(l, c, err);
			OPENSSL_free(own);
			if (rc < 0)
				break;
		}
	rc = a->p ? amd_table_load_close(l, rc == 0, err) : rc;
	if (rc == 0)
		qsort(a->p, a->n, sizeof *a->p, cmp_attempt);
	return rc;
}

/* The SELECT numbering the ids of table that rows of the attempts in (in) hold, in
 * the order they first appear in the whole committed store (sources by
 * path, then the order their unit wrote them): the ids' order in a
 * SQLite store that ingested the same files, walked in path order, and
 * so the same order whether a read loads all or a part. With own_order,
 * in the order they first appear in the part (a list of attempts): for
 * a read whose answer no id's order changes (the orphan check), which
 * then reads the part's rows, not every committed one's. */
static int ids_sql(struct amd_buf *sql_out, const char *table, const char *in, const char *runs,
		   int own_order)
{
	struct amd_buf sql = *sql_out, part = {0}, right = {0};
	int cut = runs && *runs && strcmp(table, "run") == 0; /* only the part's runs */
	int few = !own_order && listed(in); /* the part's ids' rows, their sources */
	const char *from = own_order ? in : amd_ch_committed_sql;
	int bad = amd_buf_printf(&part, "SELECT id FROM %s WHERE src IN (%s)", table, in) < 0;
	if (own_order)
		bad |= amd_buf_printf(&right, " WHERE id IN (%s)", in) < 0;
	else if (few && !bad)
		bad |= amd_buf_printf(&right, " WHERE id IN (SELECT src FROM %s WHERE id IN (%s))",
				      table, part.data) < 0;
	bad = bad || amd_buf_append(&right, "", 1) < 0 ||
	      amd_buf_printf(&sql, "SELECT id FROM (SELECT id, src_path, src, rn FROM %s ANY LEFT JOIN"
			     " (SELECT id AS src, path AS src_path FROM source%s) USING (src) WHERE"
			     " src IN (%s)%s%s%s%s%s%s ORDER BY src_path, src, rn LIMIT 1 BY id) WHERE"
			     " id IN (%s) ORDER BY src_path, src, rn FORMAT JSONCompact", table,
			     right.data, from, cut ? " AND id IN (" : "", cut ? runs : "",
			     cut ? ")" : "", few ? " AND id IN (" : "", few ? part.data : "",
			     few ? ")" : "", part.data) < 0;
	amd_buf_free(&part);
	amd_buf_free(&right);
	*sql_out = sql;
	return bad ? -1 : 0;
}

/* The ids ids_sql's rows (data) name, numbered in their order, in ids. */
static int load_ids(struct amd_ch *ch, const cJSON *data, struct attempts *ids,
		    struct amd_err *err)
{
	const cJSON *row;
	size_t n = (size_t)cJSON_GetArraySize(data);
	ids->p = calloc(n ? n : 1, sizeof *ids->p);
	if (!ids->p)
		return amd_fail(err, "%s: out of memory", amd_ch_name(ch));
	cJSON_ArrayForEach(row, data) {
		struct attempt *r = &ids->p[ids->n];
		r->id = amd_ch_json_int(cJSON_GetArrayItem(row, 0));
		r->ord = (int64_t)++ids->n;
	}
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
		return amd_fail(err, "%s: out of memory", amd_store_path(st));
	}
	const cJSON *data, *row;
	cJSON *doc = fetch(ch, sql.data, &data, err);
	amd_buf_free(&sql);
	int rc = doc ? 0 : -1;
	if (doc)
		cJSON_ArrayForEach(row, data) {
			struct amd_cell c;
			cell_value(&c, cJSON_GetArrayItem(row, 0), 'w', 0, m);
			if (c.type == AMD_CELL_INT && (rc = amd_store_drop_sweep_if_empty(st, c.i, err)) < 0)
				break;
		}
	cJSON_Delete(doc);
	return rc;
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

/* Whether table's ids are numbered by the load (renumbered_table). */
static int renumbered(const char *table)
{
	for (size_t i = 0; i < strlen(RENUMBERED); i++)
		if (strcmp(renumbered_table[i], table) == 0)
			return 1;
	return 0;
}

/* Whether a row of table with no run makes its source an orphan
 * (orphans.c): the orphan check needs only those rows of it. A GPU
 * sample's run is found by time: that check reads every sample. */
static int owned_or_orphan(const char *table)
{
	for (size_t i = 0; i < amd_run_fact_table_count; i++)
		if (strcmp(amd_run_fact_tables[i], table) == 0)
			return strcmp(table, "gpu_sample") != 0;
	return 0;
}

/* A load's SELECTs, sent at once (amd_ch_query_each) and answered in
 * order: the sources, the renumbered tables' ids, then each table's
 * rows. The bundled sweeps' orphan check asked 12 in turn, ~100 ms. */
struct load_queries {
	struct amd_buf sql[1 + 4 + AMD_CH_TABLES_MAX];
	const struct ch_table *table[1 + 4 + AMD_CH_TABLES_MAX]; /* NULL: sources, ids */
	size_t n;
};

static void load_queries_free(struct load_queries *q)
{
	for (size_t i = 0; i < q->n; i++)
		amd_buf_free(&q->sql[i]);
}

/* q's SELECTs for load_all's arguments; -1 out of memory. */
static int load_queries(struct load_queries *q, const char *in, const char *runs,
			const char *facts, const char *const *tables, size_t ntables,
			const char *keys, const char *left)
{
	memset(q, 0, sizeof *q);
	int bad = sources_sql(&q->sql[q->n++], in) < 0;
	for (size_t i = 0; !bad && i < strlen(RENUMBERED); i++)
		bad = ids_sql(&q->sql[q->n++], renumbered_table[i], in, runs, facts != NULL) < 0;
	for (size_t i = 0; !bad && i < amd_ch_table_count; i++) {
		const struct ch_table *t = &amd_ch_tables[i];
		if (!amd_ch_table_loaded(t) || !wanted(t->name, tables, ntables) ||
		    (left && strcmp(t->name, left) == 0))
			continue;
		q->table[q->n] = t;
		bad = table_sql(&q->sql[q->n++], t, facts && !renumbered(t->name) ? facts : in,
				keys, runs, facts && owned_or_orphan(t->name)) < 0;
	}
	return bad ? -1 : 0;
}

/* The answer of q's query i (out) loaded into st, with the maps m. */
static int load_answer(struct amd_ch *ch, struct amd_store *st, const struct load_queries *q,
		       size_t i, const struct amd_buf *out, struct maps *m, struct amd_err *err)
{
	const cJSON *data;
	cJSON *doc = rows_of(ch, out, &data, err);
	if (!doc)
		return -1;
	int rc = i == 0 ? load_sources(st, data, &m->src, err)
	       : !q->table[i] ? load_ids(ch, data, &m->ids[i - 1], err)
			      : insert_rows(st, q->table[i], doc, data, m, err);
	cJSON_Delete(doc);
	return rc;
}

/* Loads the rows of the attempts in (in): the committed ones, or the
 * part a read needs (ch_scope.h); of the tables named (NULL: all); of
 * metric points those meeting keys (an SQL condition, or NULL: all).
 * With facts (a list of some of the attempts in: the orphan check's,
 * ch_scope.h amd_ch_scope_orphans), of the tables other than the
 * renumbered ones only the rows of those, of a table whose rows a run
 * owns (owned_or_orphan) only those of no run (the bundled sweeps'
 * ingest loaded 7,816 region rows, 141 of no run, to find the orphans),
 * and ids numbered in the part's own order (ids_sql). */
static int load_all(struct amd_ch *ch, struct amd_store *st, const char *in,
		    const char *runs, const char *facts, const char *const *tables, size_t ntables,
		    const char *keys, const char *left, struct maps *keep, struct amd_err *err)
{
	struct maps m;
	memset(&m, 0, sizeof m);
	struct load_queries *q = malloc(sizeof *q);
	struct amd_buf *out = NULL;
	int rc = !q || load_queries(q, in, runs, facts, tables, ntables, keys, left) < 0 ||
			 !(out = calloc(q->n, sizeof *out))
		 ? amd_fail(err, "%s: out of memory", amd_store_path(st))
		 : amd_store_begin(st, err);
	if (rc == 0) {
		const char *sql[1 + 4 + AMD_CH_TABLES_MAX];
		for (size_t i = 0; i < q->n; i++)
			sql[i] = q->sql[i].data;
		rc = amd_ch_query_each(ch, sql, q->n, out, err);
		for (size_t i = 0; rc == 0 && i < q->n; i++) {
			rc = load_answer(ch, st, q, i, &out[i], &m, err);
			amd_buf_free(&out[i]);
		}
		if (rc < 0)
			amd_store_rollback(st);
	}
	for (size_t i = 0; out && i < q->n; i++)
		amd_buf_free(&out[i]);
	free(out);
	if (q)
		load_queries_free(q);
	free(q);
	if (rc < 0) {
		maps_free(&m);
		return -1;
	}
	if (rc == 0)
		rc = drop_emptied_sweeps(ch, st, in, &m, err);
	/* rows shipped before the server's schema 5 have no op role, runs
	 * before its schema 6 no entry point or program */
	if (rc == 0)
		rc = amd_store_load_older_rows(st, err);
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
	/* metric_point: the left keys (the metric, epoch time, throughput),
	 * their condition, and the runs' values reduced by the server */
	char *keys_cond, *names[3];
	int64_t chid[3];
	int have, keep_first;
	int counted; /* the runs' point counts in red: 1, -1 failed, 0 not asked */
	double mad_k;
	/* indexed by the loaded store's run id (1 .. the runs mapped; the
	 * map numbers them from 1): nred slots, a run's with run != 0 */
	struct ch_reduced *red;
	size_t nred;
	int64_t *chid_of; /* the server's id of each run id, [ord - 1] */
};

/* a run's answer of the server: ok 0 when its points must be read;
 * npoints: its points of the left keys (amd_ch_run_series_sql's counts) */
struct ch_reduced {
	int64_t run, npoints;
	int ok;
	struct amd_run_reduced r;
};

static void reduced_free(struct ch_left *l)
{
	for (size_t i = 0; l->red && i < l->nred; i++)
		amd_run_reduced_free(&l->red[i].r);
	free(l->red);
	l->red = NULL;
	l->nred = 0;
	l->have = 0;
}

static void left_free(void *ctx)
{
	struct ch_left *l = ctx;
	if (!l)
		return;
	free(l->url);
	free(l->in);
	free(l->runs);
	free(l->keys_cond);
	for (int i = 0; i < 3; i++)
		free(l->names[i]);
	reduced_free(l);
	free(l->chid_of);
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
	if (rc == 0 &&
	    (rc = load_table(ch, st, l->t, l->in, l->keys_cond, l->runs, 0, &l->m, err)) < 0)
		amd_store_rollback(st);
	else if (rc == 0)
		rc = amd_store_commit(st, err);
	amd_ch_close(ch);
	return rc;
}

/* store.h's load_runs: the left keys' points of the loaded store's runs,
 * read as left_load reads them all (each run id is one server id:
 * load_ids numbers the ids from 1, one number each). */
static int left_load_runs(void *ctx, struct amd_store *st, const int64_t *runs, size_t n,
			  struct amd_err *err)
{
	struct ch_left *l = ctx;
	const struct attempts *a = &l->m.ids[strchr(RENUMBERED, 'r') - RENUMBERED];
	if (!l->chid_of && (l->chid_of = calloc(a->n + 1, sizeof *l->chid_of)))
		for (size_t i = 0; i < a->n; i++) /* the map numbers its ids 1 .. n */
			l->chid_of[a->p[i].ord - 1] = a->p[i].id;
	struct amd_buf cond = {0};
	size_t nids = 0;
	int bad = !l->chid_of || amd_buf_printf(&cond, "(%s) AND run_id IN (", l->keys_cond) < 0;
	for (size_t i = 0; !bad && i < n; i++)
		if (runs[i] > 0 && (size_t)runs[i] <= a->n)
			bad = amd_buf_printf(&cond, "%s%lld", nids++ ? ", " : "",
					     (long long)l->chid_of[runs[i] - 1]) < 0;
	bad = bad || amd_buf_printf(&cond, ")") < 0 || amd_buf_append(&cond, "", 1) < 0;
	if (bad || nids == 0) {
		amd_buf_free(&cond);
		return bad ? amd_fail(err, "%s: out of memory", l->url) : 0;
	}
	struct amd_ch *ch = NULL;
	int rc = amd_ch_open(l->url, &ch, err);
	/* cond names the runs: not the part's list of runs again, which is
	 * every part run's id in each of these queries (a sweep of 6,500
	 * runs: 2,000 queries of 125 KB, 9 minutes) */
	if (rc == 0 && (rc = amd_store_begin(st, err)) == 0) {
		if ((rc = load_table(ch, st, l->t, l->in, cond.data, NULL, 0, &l->m, err)) < 0)
			amd_store_rollback(st);
		else
			rc = amd_store_commit(st, err);
	}
	amd_ch_close(ch);
	amd_buf_free(&cond);
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
		return amd_fail(err, "%s: out of memory", amd_store_path(st));
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
				      amd_store_path(st), cJSON_GetArraySize(row));
			break;
		}
		if (sum_row(row, &l->m, &r) && fn(fn_ctx, &r, 1) < 0) {
			rc = amd_fail(err, "%s: out of memory", amd_store_path(st));
			break;
		}
	}
	cJSON_Delete(doc);
	return rc;
}

/* l's table (named table), URL, scope and runs, for its load later;
 * on failure l is freed. */
static int left_scope(struct ch_left *l, const char *table, const char *url, const char *in,
		      const char *runs, struct amd_err *err)
{
	for (size_t i = 0; !l->t && i < amd_ch_table_count; i++)
		if (strcmp(amd_ch_tables[i].name, table) == 0)
			l->t = &amd_ch_tables[i];
	l->url = strdup(url);
	l->in = strdup(in);
	l->runs = runs ? strdup(runs) : NULL;
	if (!l->t || !l->url || !l->in || (runs && !l->runs)) {
		left_free(l);
		return amd_fail(err, "%s: out of memory", url);
	}
	return 0;
}

/* Leaves the region rows of the part read on the server (st's hooks). */
static int leave_regions(struct amd_store *st, struct ch_left *l, const char *url,
			 const char *in, const char *runs, struct amd_err *err)
{
	if (left_scope(l, "region", url, in, runs, err) < 0)
		return -1;
	const struct amd_store_remote r = {.left = "region", .ctx = l, .load = left_load,
					   .region_sums = left_sums, .release = left_free};
	amd_store_set_remote(st, &r);
	return 0;
}

/* ---- the metric points left on the server (AMD_READ_RUN_VALUES) ---- */

/* The reduced run of the read store's run ord in l (NULL: none). */
static struct ch_reduced *reduced_of(struct ch_left *l, int64_t ord)
{
	return ord > 0 && (size_t)ord < l->nred && l->red[ord].run ? &l->red[ord] : NULL;
}

static struct ch_reduced *reduced_add(struct ch_left *l, int64_t ord)
{
	size_t nruns = l->m.ids[strchr(RENUMBERED, 'r') - RENUMBERED].n;
	if (!l->red && !(l->red = calloc(nruns + 1, sizeof *l->red)))
		return NULL;
	l->nred = nruns + 1;
	if (ord <= 0 || (size_t)ord >= l->nred)
		return NULL;
	struct ch_reduced *r = &l->red[ord];
	if (!r->run) {
		r->run = ord;
		r->ok = 1;
	}
	return r;
}

static double json_double(const cJSON *v)
{
	return cJSON_IsString(v) ? strtod(v->valuestring, NULL)
	       : cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

/* Points of the arrays steps, and of each array of vals (value, t,
 * rate; NULL: NAN) at index. */
static struct amd_reduced_point *points_of(const cJSON *steps, const cJSON *value,
					   const cJSON *t, const cJSON *rate, size_t *n)
{
	*n = (size_t)cJSON_GetArraySize(steps);
	struct amd_reduced_point *p = calloc(*n + 1, sizeof *p);
	/* the arrays walked side by side (cJSON_GetArrayItem walks from the
	 * head each time: a run of a million epochs took minutes) */
	const cJSON *s = steps ? steps->child : NULL, *v = value ? value->child : NULL,
		    *ts = t ? t->child : NULL, *r = rate ? rate->child : NULL;
	for (size_t i = 0; p && i < *n; i++) {
		p[i].step = amd_ch_json_int(s);
		p[i].value = value ? json_double(v) : NAN;
		p[i].t = t ? json_double(ts) : NAN;
		p[i].rate = rate ? json_double(r) : NAN;
		s = s ? s->next : NULL;
		v = v ? v->next : NULL;
		ts = ts ? ts->next : NULL;
		r = r ? r->next : NULL;
	}
	return p;
}

/* The kept points of a list the server sent as step differences, value
 * numbers and distinct values (amd_ch_run_values_sql). */
static struct amd_reduced_point *far_points(const cJSON *diffs, const cJSON *nos,
					    const cJSON *distinct, size_t *n)
{
	size_t nd = (size_t)cJSON_GetArraySize(distinct);
	double *dv = calloc(nd + 1, sizeof *dv);
	const cJSON *v = distinct ? distinct->child : NULL;
	for (size_t i = 0; dv && i < nd; i++, v = v->next)
		dv[i] = json_double(v);
	*n = (size_t)cJSON_GetArraySize(diffs);
	struct amd_reduced_point *p = dv ? calloc(*n + 1, sizeof *p) : NULL;
	const cJSON *d = diffs ? diffs->child : NULL, *k = nos ? nos->child : NULL;
	int64_t step = 0;
	for (size_t i = 0; p && i < *n; i++) {
		int64_t no = k ? amd_ch_json_int(k) : 0;
		step += amd_ch_json_int(d);
		p[i].step = step;
		p[i].value = no >= 1 && (size_t)no <= nd ? dv[no - 1] : NAN;
		p[i].t = p[i].rate = NAN;
		d = d ? d->next : NULL;
		k = k ? k->next : NULL;
	}
	free(dv);
	return p;
}

/* One row of amd_ch_run_values_sql's answer into its run's r. */
static int reduced_row(struct ch_left *l, const cJSON *row)
{
	const cJSON *v[19];
	for (int i = 0; i < 19; i++)
		v[i] = cJSON_GetArrayItem(row, i);
	struct ch_reduced *c = reduced_add(l, ordinal(&l->m.ids[strchr(RENUMBERED, 'r') -
							       RENUMBERED],
						      amd_ch_json_int(v[0])));
	if (!c) /* a run outside the part, or out of memory */
		return l->red ? 0 : -1;
	struct amd_run_reduced *r = &c->r;
	int rate = r->has_rate;
	r->total = amd_ch_json_int(v[1]);
	r->left = points_of(v[2], v[3], NULL, NULL, &r->nleft);
	r->kept = amd_ch_json_int(v[4]);
	r->median = json_double(v[5]);
	r->mad = json_double(v[6]);
	r->far = far_points(v[7], v[8], v[9], &r->nfar);
	r->samples = rate ? json_double(v[10]) : 0;
	r->secs = json_double(rate ? v[11] : v[15]);
	r->nvalid = rate ? 0 : amd_ch_json_int(v[16]);
	r->pairs = rate ? points_of(v[12], NULL, v[13], v[14], &r->npairs)
		   : points_of(v[17], NULL, v[18], NULL, &r->npairs);
	return r->left && r->far && r->pairs ? 0 : -1;
}

/* One row of amd_ch_run_series_sql's answer: an epoch time or
 * throughput series that repeats a step, or a metric series a (step,
 * time), sends its run to its points; a throughput series sets has_rate. */
static int series_row(struct ch_left *l, const cJSON *row)
{
	struct ch_reduced *c = reduced_add(l, ordinal(&l->m.ids[strchr(RENUMBERED, 'r') -
							       RENUMBERED],
						      amd_ch_json_int(cJSON_GetArrayItem(row, 0))));
	if (!c)
		return l->red ? 0 : -1;
	int64_t key = amd_ch_json_int(cJSON_GetArrayItem(row, 1)),
		n = amd_ch_json_int(cJSON_GetArrayItem(row, 2)),
		steps = amd_ch_json_int(cJSON_GetArrayItem(row, 3)),
		times = amd_ch_json_int(cJSON_GetArrayItem(row, 4));
	/* steps looked up (epoch time, throughput) once each; the metric's
	 * points at one step in time order */
	c->ok &= n == (key == l->chid[1] || key == l->chid[2] ? steps : times);
	c->npoints += n;
	if (key == l->chid[2] && n > 0)
		c->r.has_rate = 1;
	return 0;
}

/* Runs sql (amd_buf's text) and each row of its answer through fn. */
static int each_row(struct ch_left *l, struct amd_buf *sql, const char *what,
		    int (*fn)(struct ch_left *, const cJSON *), int ncols, struct amd_err *err)
{
	if (amd_buf_append(sql, "", 1) < 0)
		return amd_fail(err, "%s: out of memory", l->url);
	struct amd_ch *ch = NULL;
	const cJSON *data = NULL, *row;
	cJSON *doc = amd_ch_open(l->url, &ch, err) < 0 ? NULL : fetch(ch, sql->data, &data, err);
	amd_ch_close(ch);
	if (!doc)
		return -1;
	int rc = 0;
	cJSON_ArrayForEach(row, data) {
		if (cJSON_GetArraySize(row) != ncols) {
			rc = amd_fail(err, "%s: %s: a row of %d columns, expected %d", l->url, what,
				      cJSON_GetArraySize(row), ncols);
			break;
		}
		if (fn(l, row) < 0) {
			rc = amd_fail(err, "%s: out of memory", l->url);
			break;
		}
	}
	cJSON_Delete(doc);
	return rc;
}

/* The part's scope (amd_ch_scope_rows) as NUL-ended SQL text in *scope:
 * what the series and the values queries read; -1 with err set. */
static int scope_text(struct ch_left *l, struct amd_buf *scope, struct amd_err *err)
{
	if (amd_ch_scope_rows(scope, l->t, l->in, l->runs) < 0 || amd_buf_append(scope, "", 1) < 0)
		return amd_fail(err, "%s: out of memory", l->url);
	return 0;
}

/* The runs' points of the left keys (amd_ch_run_series_sql), and which
 * series repeat a step, in l->red: the first query of reduce_runs, and
 * alone the counts of a read that asked for no reduced value (every run
 * with child runs). scope: scope_text's. */
static int count_points(struct ch_left *l, const char *scope, struct amd_err *err)
{
	struct amd_buf series = {0};
	reduced_free(l);
	int rc = amd_ch_run_series_sql(&series, l->in, scope, l->chid) < 0
		? amd_fail(err, "%s: out of memory", l->url)
		: each_row(l, &series, "run series", series_row, 5, err);
	amd_buf_free(&series);
	l->counted = rc == 0 ? 1 : -1;
	return rc;
}

/* Asks the server for the part's runs' values (ch_reduce.h). */
static int reduce_runs(struct ch_left *l, int keep_first, double mad_k, struct amd_err *err)
{
	struct amd_buf scope = {0}, values = {0};
	int rc = scope_text(l, &scope, err) < 0 || count_points(l, scope.data, err) < 0 ? -1 : 0;
	if (rc == 0 && amd_ch_run_values_sql(&values, l->in, scope.data, l->chid, keep_first,
					     mad_k / 0.6745 * 0.99) < 0)
		rc = amd_fail(err, "%s: out of memory", l->url);
	amd_buf_free(&scope);
	if (rc == 0)
		rc = each_row(l, &values, "run values", reduced_row, 19, err);
	amd_buf_free(&values);
	l->have = rc == 0;
	l->keep_first = keep_first;
	l->mad_k = mad_k;
	return rc;
}

static struct amd_reduced_point *points_dup(const struct amd_reduced_point *p, size_t n)
{
	struct amd_reduced_point *c = malloc((n + 1) * sizeof *c);
	if (c && n)
		memcpy(c, p, n * sizeof *c);
	return c;
}

/* store.h's run_reduced: the server's answer for run. */
static int left_reduced(void *ctx, struct amd_store *st, int64_t run, int keep_first,
			double mad_k, struct amd_run_reduced *out, struct amd_err *err)
{
	struct ch_left *l = ctx;
	(void)st;
	if ((!l->have || l->keep_first != keep_first || l->mad_k != mad_k) &&
	    reduce_runs(l, keep_first, mad_k, err) < 0)
		return -1;
	const struct ch_reduced *c = reduced_of(l, run);
	if (c && !c->ok)
		return 0;
	if (!c) /* no point of the three keys */
		return 1;
	*out = c->r;
	out->left = points_dup(c->r.left, c->r.nleft);
	out->far = points_dup(c->r.far, c->r.nfar);
	out->pairs = points_dup(c->r.pairs, c->r.npairs);
	if (out->left && out->far && out->pairs)
		return 1;
	amd_run_reduced_free(out);
	return amd_fail(err, "%s: out of memory", l->url);
}

/* store.h's run_points: run's points of the left keys on the server. */
static int64_t left_run_points(void *ctx, int64_t run)
{
	struct ch_left *l = ctx;
	if (l->counted == 0) { /* sets counted; a failure the load of the run asked reports */
		struct amd_err err = {0};
		struct amd_buf scope = {0};
		if (scope_text(l, &scope, &err) == 0)
			count_points(l, scope.data, &err);
		else
			l->counted = -1;
		amd_buf_free(&scope);
	}
	if (l->counted < 0)
		return -1;
	const struct ch_reduced *c = reduced_of(l, run);
	return c ? c->npoints : 0;
}

/* The keys whose points a read of run values leaves on the server: the
 * metric keys[0], epoch_time_s, throughput_samples_per_s (names and
 * server ids in l; 3 of them, a repeated one counted once). */
static const char *const rate_keys[] = {"epoch_time_s", "throughput_samples_per_s"};

static int left_names(struct ch_left *l, const char *metric)
{
	l->names[0] = strdup(metric);
	for (int i = 0; i < 2; i++)
		l->names[i + 1] = strcmp(metric, rate_keys[i]) ? strdup(rate_keys[i]) : NULL;
	for (int i = 0; i < 3; i++) {
		const char *k = i ? rate_keys[i - 1] : metric;
		l->chid[i] = amd_ch_string_id(k, strlen(k));
	}
	return l->names[0] ? 0 : -1;
}

/* The load's condition on metric points in *kcond: the keys (all but
 * the left ones) whole, the left ones' key sets (ch_reduce.h); the left
 * ones' in l->keys_cond. */
static int left_conds(struct ch_left *l, const char *const *keys, size_t nkeys,
		      const char *in, char **kcond, struct amd_err *err)
{
	struct amd_buf kept = {0}, left = {0};
	int rc = amd_buf_printf(&kept, "key_id IN (NULL") < 0 ||
		 amd_buf_printf(&left, "key_id IN (%lld, %lld, %lld)", (long long)l->chid[0],
				(long long)l->chid[1], (long long)l->chid[2]) < 0 ? -1 : 0;
	for (size_t i = 0; rc == 0 && i < nkeys; i++) {
		int64_t id = amd_ch_string_id(keys[i], strlen(keys[i]));
		if (id != l->chid[0] && id != l->chid[1] && id != l->chid[2])
			rc = amd_buf_printf(&kept, ", %lld", (long long)id);
	}
	if (rc == 0)
		rc = amd_buf_printf(&kept, ")");
	if (rc == 0 && amd_buf_append(&left, "", 1) == 0 && amd_buf_append(&kept, "", 1) == 0)
		rc = amd_ch_left_keys_cond(in, kept.data, left.data, kcond, err);
	else
		rc = amd_fail(err, "out of memory");
	amd_buf_free(&kept);
	l->keys_cond = left.data;
	return rc;
}

/* Leaves the left keys' points of the part read on the server (st's
 * hooks; l from left_conds). */
static int leave_points(struct amd_store *st, struct ch_left *l, const char *url,
			const char *in, const char *runs, struct amd_err *err)
{
	if (left_scope(l, "metric_point", url, in, runs, err) < 0)
		return -1;
	size_t n = 0;
	for (int i = 0; i < 3; i++)
		if (l->names[i])
			l->names[n++] = l->names[i];
	for (size_t i = n; i < 3; i++)
		l->names[i] = NULL;
	const struct amd_store_remote r = {.left = "metric_point", .ctx = l, .load = left_load,
					   .keys = (const char *const *)l->names, .nkeys = n,
					   .run_reduced = left_reduced, .load_runs = left_load_runs,
					   .run_points = left_run_points, .release = left_free};
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
	char *part = NULL, *runs = NULL, *kcond = NULL, *facts = NULL;
	if (keys_cond(keys, nkeys, &kcond, err) < 0)
		return -1;
	if (amd_ch_open(url, &ch, err) < 0) {
		free(kcond);
		return -1;
	}
	int rc = amd_ch_check_version(ch, err);
	if (rc == 0 && (how & AMD_READ_ORPHANS_OF))
		rc = amd_ch_scope_orphans(ch, names, n, tables, ntables, &part, &facts, err);
	else if (rc == 0 && n > 0)
		rc = amd_ch_scope_sources(ch, names, n, &part, &runs, err);
	if (how & AMD_READ_WHOLE_SOURCES) {
		free(runs);
		runs = NULL;
	}
	/* the series' first points, chosen by the server (ch_reduce.h) */
	if (rc == 0 && (how & AMD_READ_KEY_SETS) && !kcond)
		rc = amd_ch_key_sets_cond(part && *part ? part : amd_ch_committed_sql, &kcond, err);
	/* the run values reduced by the server: their keys' points left there */
	struct ch_left *points = rc == 0 && (how & AMD_READ_RUN_VALUES) && nkeys &&
		wanted("metric_point", tables, ntables) ? calloc(1, sizeof *points) : NULL;
	if (points) {
		free(kcond);
		kcond = NULL;
		if (left_names(points, keys[0]) < 0)
			rc = amd_fail(err, "%s: out of memory", url);
		else
			rc = left_conds(points, keys, nkeys, part && *part ? part
					: amd_ch_committed_sql, &kcond, err);
	}
	if (rc == 0 && (rc = amd_store_open_loading(url, &st, err)) == 0) {
		int in_part = part && *part;
		if (in_part || kcond) /* what a part cannot answer: the whole store */
			amd_store_set_whole(st, open_whole);
		/* the region rows summed on the server (ch_reduce.h) */
		struct ch_left *left = (how & AMD_READ_REGION_SUMS) &&
			wanted("region", tables, ntables) ? calloc(1, sizeof *left) : NULL;
		const char *in = in_part ? part : amd_ch_committed_sql;
		rc = load_all(ch, st, in, in_part ? runs : NULL,
			      facts, tables, ntables, kcond,
			      left ? "region" : NULL, left ? &left->m
			      : points ? &points->m : NULL, err);
		if (left && rc == 0)
			rc = leave_regions(st, left, url, in, in_part ? runs : NULL, err);
		else
			free(left);
		if (points && rc == 0)
			rc = leave_points(st, points, url, in, in_part ? runs : NULL, err);
		else if (points)
			left_free(points);
		points = NULL;
		amd_store_loaded(st);
	}
	amd_ch_close(ch);
	left_free(points);
	free(part);
	free(runs);
	free(kcond);
	free(facts);
	if (rc < 0) {
		amd_store_close(st);
		return -1;
	}
	*out = st;
	return 0;
}
