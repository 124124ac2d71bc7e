/* ch_scope.c — resolving what one read of a ClickHouse store needs
 * (ch_scope.h), in two queries answered on the server: the runs named
 * (a sweep's runs, runs by id or name, the runs a named source file's
 * rows refer to) with their parents and children, then every committed
 * attempt that wrote a row of those runs, plus the named files' own.
 * Loading whole attempts keeps every row a query of those runs reads,
 * in the order the full store holds it. */
#include "ch_scope.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ch_load.h"
#include "ch_ship.h"
#include "ch_tables.h"
#include "selector.h"

char *amd_ch_first_line(struct amd_ch *ch, const char *sql, struct amd_err *err)
{
	struct amd_buf out = {0};
	int rc = amd_ch_query(ch, sql, &out, err);
	if (rc == 0 && amd_buf_append(&out, "", 1) < 0)
		rc = amd_fail(err, "%s: out of memory", amd_ch_name(ch));
	if (rc < 0) {
		amd_buf_free(&out);
		return NULL;
	}
	out.data[strcspn(out.data, "\n")] = '\0';
	return out.data;
}

char *amd_ch_id_list(struct amd_ch *ch, const char *select, struct amd_err *err)
{
	struct amd_buf sql = {0};
	if (amd_buf_printf(&sql, "SELECT arrayStringConcat(groupArray(toString(x)), ',')"
				 " FROM (%s) FORMAT TabSeparated", select) < 0 ||
	    amd_buf_append(&sql, "", 1) < 0) {
		amd_buf_free(&sql);
		amd_fail(err, "%s: out of memory", amd_ch_name(ch));
		return NULL;
	}
	char *line = amd_ch_first_line(ch, sql.data, err);
	amd_buf_free(&sql);
	return line;
}

int amd_ch_id_parse(const char *list, int64_t **ids, size_t *n)
{
	size_t cap = 1;
	for (const char *c = list; *c; c++)
		cap += *c == ',';
	*n = 0;
	if (!(*ids = malloc(cap * sizeof **ids)))
		return -1;
	char *end;
	for (const char *c = list; *c && *n < cap; c = end + (*end == ',')) {
		(*ids)[*n] = strtoll(c, &end, 10);
		if (end == c)
			break;
		++*n;
	}
	qsort(*ids, *n, sizeof **ids, amd_id_cmp);
	return 0;
}

/* Appends SELECT x FROM (… UNION ALL …) over every loaded table with a
 * run column (ch_tables.h kind 'r'): with want_runs the runs that the
 * rows of the attempts in (in) refer to, else the attempts of the rows
 * that refer to the runs in (in). */
static int run_rows(struct amd_buf *b, int want_runs, const char *in)
{
	int bad = amd_buf_printf(b, "SELECT x FROM (") < 0;
	const char *sep = "";
	for (size_t i = 0; i < amd_ch_table_count; i++) {
		const struct ch_table *t = &amd_ch_tables[i];
		const char *r = strchr(t->kinds, 'r'), *col = t->cols;
		if (!r || !amd_ch_table_loaded(t))
			continue;
		for (long k = r - t->kinds; k > 0; k--)
			col = strchr(col, ',') + 1;
		int len = (int)strcspn(col, ",");
		bad |= (want_runs ? amd_buf_printf(b, "%sSELECT ifNull(%.*s, 0) AS x FROM %s"
						   " WHERE src IN (%s)", sep, len, col, t->name, in)
				  : amd_buf_printf(b, "%sSELECT src AS x FROM %s WHERE %.*s IN (%s)",
						   sep, t->name, len, col, in)) < 0;
		sep = " UNION ALL ";
	}
	return bad || amd_buf_printf(b, ")") < 0 ? -1 : 0;
}

/* names as a list of string literals (lits) and of the ids ClickHouse
 * gives a sweep or a run of that name (chids) */
static int name_lists(const char *const *names, size_t n, struct amd_buf *lits,
		      struct amd_buf *chids)
{
	for (size_t i = 0; i < n; i++)
		if ((i && amd_buf_append(lits, ",", 1) < 0) || amd_ch_quote(lits, names[i]) < 0 ||
		    amd_buf_printf(chids, "%s%lld", i ? "," : "",
				   (long long)amd_ch_string_id(names[i], strlen(names[i]))) < 0)
			return -1;
	return amd_buf_append(lits, "", 1) < 0 || amd_buf_append(chids, "", 1) < 0 ? -1 : 0;
}

/* The SELECT (column x) of the committed attempts of paths (n of them);
 * NULL out of memory. */
static char *attempts_sql(const char *const *paths, size_t n)
{
	struct amd_buf b = {0};
	int bad = amd_buf_printf(&b, "SELECT aid AS x FROM (SELECT argMax(id, (committed_ns, id)) AS"
				 " aid, argMax(sha256, (committed_ns, id)) AS asha FROM source WHERE"
				 " path IN (%s", n ? "" : "''") < 0;
	for (size_t i = 0; !bad && i < n; i++)
		bad = (i && amd_buf_append(&b, ",", 1) < 0) || amd_ch_quote(&b, paths[i]) < 0;
	if (bad || amd_buf_printf(&b, ") GROUP BY path) WHERE asha != ''") < 0 ||
	    amd_buf_append(&b, "", 1) < 0) {
		amd_buf_free(&b);
		return NULL;
	}
	return b.data;
}

/* The SELECT (column x) of the runs names picks, with their parent and
 * child runs: a sweep's runs, a run by id or name, and the runs the
 * rows of a named source file (files: attempts_sql of the names) refer
 * to. files groups only the named paths: the committed set of the whole
 * store (amd_ch_committed_sql, a GROUP BY over all of source) stays
 * once in each of the three places below, not once more for each table
 * run_rows names (34 times a query, ~20 s at 400,000 sources). */
static int runs_sql(struct amd_buf *b, const char *lits, const char *chids, const char *files)
{
	const char *c = amd_ch_committed_sql;
	struct amd_buf base = {0};
	int bad = amd_buf_printf(&base, "SELECT x FROM (SELECT id AS x FROM run WHERE src IN (%s) AND (sweep_id IN"
				 " (%s) OR id IN (%s) OR name IN (%s)) UNION ALL ", c, chids,
				 chids, lits) < 0;
	bad |= bad || run_rows(&base, 1, files) < 0 || amd_buf_append(&base, ")", 2) < 0;
	bad |= bad || amd_buf_printf(b, "SELECT id AS x FROM run WHERE src IN (%s) AND (id IN (%s)"
				     " OR ifNull(parent_ext_id, '') IN (SELECT ext_id FROM run WHERE"
				     " id IN (%s)) OR ext_id IN (SELECT ifNull(parent_ext_id, '')"
				     " FROM run WHERE id IN (%s))) GROUP BY id", c, base.data,
				     base.data, base.data) < 0;
	amd_buf_free(&base);
	return bad || amd_buf_append(b, "", 1) < 0 ? -1 : 0;
}

/* The SELECT (column x) of the committed attempts holding a row of the
 * runs in runs (a comma list) or a named sweep (a sweep with no runs
 * yet), or being a named file. */
static int sources_sql(struct amd_buf *b, const char *runs, const char *lits, const char *chids)
{
	const char *c = amd_ch_committed_sql;
	int bad = amd_buf_printf(b, "SELECT x FROM (") < 0 || run_rows(b, 0, *runs ? runs : "0") < 0;
	bad = bad || amd_buf_printf(b, " UNION ALL SELECT src AS x FROM sweep WHERE id IN (%s)"
				    " UNION ALL SELECT id AS x FROM source WHERE path IN (%s))"
				    " WHERE x IN (%s) GROUP BY x", chids, lits, c) < 0;
	return bad || amd_buf_append(b, "", 1) < 0 ? -1 : 0;
}

/* The longest list of attempts a load names (a read's part; the orphan
 * check's own attempts, twice that with the runs' holders): a query
 * names it up to six times (run_holders_sql; load_ids three times,
 * beside the runs' list of at most AMD_CH_RUN_LIST_MAX) and must stay
 * under the server's max_query_size (256 KiB by default). About 1,600
 * attempts; more load the whole store, as a part matching nothing does. */
#define ATTEMPT_LIST_MAX (32 * 1024)
/* The room for the runs' list in one sources_sql, which names it once
 * for each loaded table with a run column: a sweep of 2,000 runs (38 KB
 * of ids) made a 390 KB query the server refused. */
#define SOURCES_ROOM (160 * 1024)

static size_t run_tables(void)
{
	size_t n = 0;
	for (size_t i = 0; i < amd_ch_table_count; i++)
		n += strchr(amd_ch_tables[i].kinds, 'r') && amd_ch_table_loaded(&amd_ch_tables[i]);
	return n ? n : 1;
}

/* The length of the longest head of list (a comma list) at most max
 * bytes long that ends before a comma; at least its first item. */
static size_t chunk_len(const char *list, size_t max)
{
	size_t len = strlen(list), end = 0;
	if (len <= max)
		return len;
	for (const char *c = list; (c = strchr(c, ',')) && (size_t)(c - list) <= max; c++)
		end = (size_t)(c - list);
	return end ? end : strcspn(list, ",");
}

/* list (a comma list of ids) with each id once, ascending, in *out
 * (malloc'd); -1 out of memory. */
static int unique_ids(const char *list, char **out)
{
	int64_t *v;
	size_t n;
	if (amd_ch_id_parse(list, &v, &n) < 0)
		return -1;
	struct amd_buf b = {0};
	int bad = 0;
	for (size_t i = 0; !bad && i < n; i++)
		if (i == 0 || v[i] != v[i - 1])
			bad = amd_buf_printf(&b, "%s%lld", i ? "," : "", (long long)v[i]) < 0;
	free(v);
	if (!bad && !b.data)
		bad = !(b.data = strdup(""));
	if (bad) {
		amd_buf_free(&b);
		return -1;
	}
	*out = b.data;
	return 0;
}

/* In *ids the committed attempts of sources_sql for the runs in runs,
 * asked in as many queries as the runs' list needs (SOURCES_ROOM), each
 * id once. */
static int sources_of(struct amd_ch *ch, const char *runs, const char *lits, const char *chids,
		      char **ids, struct amd_err *err)
{
	size_t room = SOURCES_ROOM / run_tables();
	struct amd_buf sql = {0}, all = {0};
	int rc = 0;
	for (const char *p = runs; rc == 0;) {
		size_t len = chunk_len(p, room);
		char *chunk = strndup(p, len), *got = NULL;
		sql.len = 0;
		if (!chunk || sources_sql(&sql, chunk, lits, chids) < 0)
			rc = -2;
		else if (!(got = amd_ch_id_list(ch, sql.data, err)))
			rc = -1;
		else if (*got && amd_buf_printf(&all, "%s%s", all.len ? "," : "", got) < 0)
			rc = -2;
		free(chunk);
		free(got);
		p += len + (p[len] == ',');
		if (!*p)
			break;
	}
	if (rc == 0 && unique_ids(all.data ? all.data : "", ids) < 0)
		rc = -2;
	amd_buf_free(&sql);
	amd_buf_free(&all);
	return rc == -2 ? amd_fail(err, "%s: out of memory", amd_ch_name(ch)) : rc;
}

int amd_ch_scope_sources(struct amd_ch *ch, const char *const *names, size_t n, char **ids,
			 char **run_ids, struct amd_err *err)
{
	struct amd_buf lits = {0}, chids = {0}, sql = {0};
	char *runs = NULL;
	*ids = NULL;
	*run_ids = NULL;
	char *files = attempts_sql(names, n);
	int bad = !files || name_lists(names, n, &lits, &chids) < 0 ||
		  runs_sql(&sql, lits.data, chids.data, files) < 0;
	if (!bad && (runs = amd_ch_id_list(ch, sql.data, err)) != NULL &&
	    sources_of(ch, runs, lits.data, chids.data, ids, err) == 0 &&
	    strlen(*ids) > ATTEMPT_LIST_MAX)
		**ids = '\0'; /* too many to name: the whole store */
	if (*ids && **ids && runs && strlen(runs) <= AMD_CH_RUN_LIST_MAX)
		*run_ids = runs;
	else
		free(runs);
	free(files);
	amd_buf_free(&lits);
	amd_buf_free(&chids);
	amd_buf_free(&sql);
	if (bad)
		return amd_fail(err, "%s: out of memory", amd_ch_name(ch));
	if (!*ids) {
		free(*run_ids);
		*run_ids = NULL;
	}
	return *ids ? 0 : -1;
}

static const char *run_column(const struct ch_table *t, int *len);

/* In span the condition on a run row that its start..end meets the span
 * of the GPU samples of the attempts in (a comma list): "0" when they
 * have none. Asked first, not as a scalar subquery: on a cluster each
 * shard would answer it of its own rows. */
static int gpu_span(struct amd_ch *ch, const char *in, char *span, size_t size,
		    struct amd_err *err)
{
	struct amd_buf sql = {0};
	if (amd_buf_printf(&sql, "SELECT count(), min(ts_ms), max(ts_ms) FROM gpu_sample WHERE src IN"
			   " (%s) FORMAT TabSeparated", in) < 0 || amd_buf_append(&sql, "", 1) < 0) {
		amd_buf_free(&sql);
		return amd_fail(err, "%s: out of memory", amd_ch_name(ch));
	}
	char *line = amd_ch_first_line(ch, sql.data, err);
	amd_buf_free(&sql);
	long long n = 0, t0 = 0, t1 = 0;
	if (!line)
		return -1;
	int got = sscanf(line, "%lld %lld %lld", &n, &t0, &t1);
	free(line);
	if (got != 3)
		return amd_fail(err, "%s: GPU sample span: an answer not understood",
				amd_ch_name(ch));
	if (n > 0)
		snprintf(span, size, "start_ms <= %lld AND end_ms >= %lld", t1, t0);
	else
		snprintf(span, size, "0");
	return 0;
}

/* The SELECT (column x) of the committed attempts holding a row of a run
 * that the rows of the attempts in (a comma list) of the tables (n of
 * them) name, or meeting span (gpu_span), but those: every copy of such
 * a run, so the load keeps the row a whole load would. */
static int run_holders_sql(struct amd_buf *b, const char *in, const char *span,
			   const char *const *tables, size_t n)
{
	int bad = amd_buf_printf(b, "SELECT src AS x FROM run WHERE id IN (SELECT x FROM (SELECT id"
				 " AS x FROM run WHERE %s", span) < 0;
	for (size_t i = 0; i < amd_ch_table_count; i++) {
		const struct ch_table *t = &amd_ch_tables[i];
		int len;
		const char *col = run_column(t, &len);
		size_t k = 0;
		while (k < n && strcmp(tables[k], t->name) != 0)
			k++;
		if (col && k < n)
			bad |= amd_buf_printf(b, " UNION ALL SELECT ifNull(%.*s, 0) AS x FROM %s"
					      " WHERE src IN (%s)", len, col, t->name, in) < 0;
	}
	bad |= amd_buf_printf(b, ")) AND src NOT IN (%s) AND src IN (%s) GROUP BY src", in,
			      amd_ch_committed_sql) < 0;
	return bad || amd_buf_append(b, "", 1) < 0 ? -1 : 0;
}

/* In *ids the attempts own (a comma list) and the committed ones holding
 * a row of the runs their rows of tables name or their GPU samples fall
 * in (run_holders_sql). */
static int with_run_holders(struct amd_ch *ch, const char *own, const char *const *tables,
			    size_t ntables, char **ids, struct amd_err *err)
{
	struct amd_buf sql = {0}, part = {0};
	char span[96];
	if (gpu_span(ch, own, span, sizeof span, err) < 0)
		return -1;
	if (run_holders_sql(&sql, own, span, tables, ntables) < 0) {
		amd_buf_free(&sql);
		return amd_fail(err, "%s: out of memory", amd_ch_name(ch));
	}
	char *held = amd_ch_id_list(ch, sql.data, err);
	amd_buf_free(&sql);
	if (!held)
		return -1;
	int bad = amd_buf_printf(&part, "%s%s%s", own, *held ? "," : "", held) < 0 ||
		  amd_buf_append(&part, "", 1) < 0;
	free(held);
	if (bad) {
		amd_buf_free(&part);
		return amd_fail(err, "%s: out of memory", amd_ch_name(ch));
	}
	*ids = part.data;
	return 0;
}

int amd_ch_scope_orphans(struct amd_ch *ch, const char *const *paths, size_t n,
			 const char *const *tables, size_t ntables, char **ids, char **facts,
			 struct amd_err *err)
{
	*ids = *facts = NULL;
	char *sql = attempts_sql(paths, n);
	if (!sql)
		return amd_fail(err, "%s: out of memory", amd_ch_name(ch));
	if (strlen(sql) > AMD_CH_RUN_LIST_MAX) { /* too long a query: the whole store */
		free(sql);
		return 0;
	}
	char *own = amd_ch_id_list(ch, sql, err);
	free(sql);
	if (!own)
		return -1;
	int rc = 0;
	if (!*own) /* none held (an attempt id is never 0) */
		rc = (*ids = strdup("0")) ? 0 : amd_fail(err, "%s: out of memory", amd_ch_name(ch));
	else if (strlen(own) <= ATTEMPT_LIST_MAX) /* else the whole store */
		rc = with_run_holders(ch, own, tables, ntables, ids, err);
	if (*ids && strlen(*ids) > 2 * ATTEMPT_LIST_MAX) { /* the whole store */
		free(*ids);
		*ids = NULL;
	}
	if (*ids && strcmp(*ids, "0") != 0) {
		*facts = own;
		return rc;
	}
	free(own);
	return rc;
}

/* The column of t that names a run (kind 'r'), its length in *len;
 * NULL when t has none. */
static const char *run_column(const struct ch_table *t, int *len)
{
	const char *r = strchr(t->kinds, 'r'), *col = t->cols;
	if (!r)
		return NULL;
	for (long k = r - t->kinds; k > 0; k--)
		col = strchr(col, ',') + 1;
	*len = (int)strcspn(col, ",");
	return col;
}

/* Whether column col (len bytes) of t may be NULL. */
static int nullable(const struct ch_table *t, const char *col, int len)
{
	for (const char *c = t->columns; (c = strstr(c, col)) != NULL; c += len)
		if ((c == t->columns || c[-1] == ' ') && c[len] == ' ')
			return strncmp(c + len + 1, "Nullable(", 9) == 0;
	return 0;
}

/* The table whose rows the rows of t belong to through a column
 * "NAME_id" of kind 'c' (an id local to its source: trace_step's
 * trace_id, region_detail's region_id), when that table names a run. */
static const struct ch_table *owner(const struct ch_table *t, const char **col, int *len)
{
	const char *c = t->cols;
	for (const char *k = t->kinds; *k; k++) {
		int n = (int)strcspn(c, ",");
		for (size_t i = 0; *k == 'c' && n > 3 && i < amd_ch_table_count; i++) {
			const struct ch_table *o = &amd_ch_tables[i];
			int olen = (int)strlen(o->name), rl;
			if (o != t && olen == n - 3 && strncmp(c, o->name, (size_t)olen) == 0 &&
			    strncmp(c + olen, "_id", 3) == 0 && run_column(o, &rl)) {
				*col = c;
				*len = n;
				return o;
			}
		}
		c += n + (c[n] == ',');
	}
	return NULL;
}

/* The condition "the row's run is one of runs, or it has none". */
static int run_cond(struct amd_buf *b, const struct ch_table *t, const char *runs)
{
	int len;
	const char *col = run_column(t, &len);
	if (nullable(t, col, len))
		return amd_buf_printf(b, "(isNull(%.*s) OR %.*s IN (%s))", len, col, len, col, runs);
	return amd_buf_printf(b, "%.*s IN (%s)", len, col, runs);
}

int amd_ch_scope_rows(struct amd_buf *b, const struct ch_table *t, const char *in,
		      const char *runs)
{
	const char *col;
	int len;
	const struct ch_table *o;
	if (!runs || !*runs)
		return 0;
	if (run_column(t, &len))
		return run_cond(b, t, runs);
	if (!(o = owner(t, &col, &len)))
		return 0;
	if (amd_buf_printf(b, "(src, %.*s) IN (SELECT src, id FROM %s WHERE src IN (%s) AND ",
			   len, col, o->name, in) < 0 || run_cond(b, o, runs) < 0)
		return -1;
	return amd_buf_printf(b, ")");
}
