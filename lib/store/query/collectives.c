/* collectives.c — amd_store_coll_set (collectives.h): a sweep's traces
 * with their window, phases, steps and collective calls, for the
 * cross-rank matching of `amdahl explain` (and of stats' arrival spread,
 * one run at a time: amd_store_coll_run, calls only). Its statements are
 * the store's cached ones: stats asks for each run's set. Traces come in the order of
 * names (strategy, n, repeat, the logical run's ext id, rank, file), never
 * of row ids, so that the order of ingest changes no sum. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "collectives.h"
#include "sqlite_int.h"
#include "stmt_cache.h"
#include "buf.h"
#include "hmap.h"
#include "run.h"
#include "selector.h"

#define TRACE_COLUMNS \
	"SELECT t.id, coalesce(l.id, r.id), coalesce(l.strategy, r.strategy, '')," \
	"  coalesce(l.ext_id, r.ext_id), coalesce(l.n, r.n, 0), coalesce(l.repeat, r.repeat, 0)," \
	"  coalesce(t.rank, -1), coalesce(t.has_gpu, 0), coalesce(t.start_ns, 0)," \
	"  coalesce(t.end_ns, 0), coalesce(l.status, r.status, 0)" \
	"  FROM trace t JOIN run r ON r.id = t.run_id" \
	"  LEFT JOIN run l ON l.ext_id = r.parent_ext_id"

static const char traces_sql[] =
	TRACE_COLUMNS
	"  JOIN sweep w ON w.id = coalesce(l.sweep_id, r.sweep_id)"
	"  LEFT JOIN source f ON f.id = t.source_id"
	"  WHERE ?1 IS NULL OR w.name = ?1"
	"  ORDER BY 3, 5, 6, 4, t.rank, f.path, t.id";

/* The traces of the logical run ?1: its own and its child workers'. */
static const char run_traces_sql[] =
	TRACE_COLUMNS
	"  LEFT JOIN source f ON f.id = t.source_id"
	"  WHERE t.run_id = ?1 OR t.run_id IN (SELECT c.id FROM run c"
	"   WHERE c.parent_ext_id = (SELECT ext_id FROM run WHERE id = ?1))"
	"  ORDER BY t.rank, f.path, t.id";

static const char calls_sql[] =
	"SELECT c.name_id, coalesce(c.seq, 0), coalesce(c.start_ns, 0), coalesce(c.dur_ns, 0),"
	" c.group_id, coalesce(c.group_size, -1)"
	" FROM trace_collective c WHERE c.trace_id = ?1 ORDER BY 3, 1, 2";

/* A name of the set's calls, looked up by id (only the set's: stats asks
 * for one run's set at a time, and reading every name of the store's
 * collectives for each of 1,000 runs of 64 traces was 85+ CPU-s of a
 * `report build`, issue 38 item 4). */
static const char name_sql[] = "SELECT s FROM dict WHERE id = ?1";

struct name_map {
	int64_t *ids; /* ascending, distinct */
	char **s; /* borrowed from the set's strings; NULL: no such name */
	size_t n;
};

/* Keeps a copy of text in the set; NULL when out of memory. */
static const char *keep(struct amd_coll_set *s, size_t *cap, const char *text)
{
	if (amd_grow(&s->strings, s->nstrings, cap, sizeof *s->strings, 64) < 0)
		return NULL;
	char *c = strdup(text ? text : "");
	if (c)
		s->strings[s->nstrings++] = c;
	return c;
}

/* The n ids (sorted here; INT64_MIN: none) as m, each distinct one with
 * its name from the dictionary, kept in the set. */
static int read_names(struct amd_store *st, struct amd_coll_set *s, size_t *scap, int64_t *ids,
		      size_t n, struct name_map *m, struct amd_err *err)
{
	if (n > 1)
		qsort(ids, n, sizeof *ids, amd_id_cmp);
	m->ids = malloc((n ? n : 1) * sizeof *m->ids);
	m->s = calloc(n ? n : 1, sizeof *m->s);
	sqlite3_stmt *q = m->ids && m->s ? amd_store_cached(st, name_sql, err) : NULL;
	if (!q)
		return m->ids && m->s ? -1 : amd_fail(err, "%s: out of memory", amd_store_path(st));
	int rc = SQLITE_DONE;
	for (size_t i = 0; i < n && rc == SQLITE_DONE; i++) {
		if (ids[i] == INT64_MIN || (m->n && m->ids[m->n - 1] == ids[i]))
			continue;
		m->ids[m->n] = ids[i];
		sqlite3_reset(q);
		sqlite3_bind_int64(q, 1, ids[i]);
		if ((rc = sqlite3_step(q)) == SQLITE_ROW) {
			rc = SQLITE_DONE;
			if (!(m->s[m->n] = (char *)keep(s, scap, (const char *)sqlite3_column_text(q, 0))))
				rc = SQLITE_NOMEM;
		}
		m->n++;
	}
	return amd_store_cached_done(st, q, rc, err);
}

/* The name of id in m, NULL when the dictionary has none. */
static const char *name_of(const struct name_map *m, int64_t id)
{
	const int64_t *at = bsearch(&id, m->ids, m->n, sizeof *m->ids, amd_id_cmp);
	return at ? m->s[at - m->ids] : NULL;
}

/* The traces of a sweep (or selector) sweep, or when run > 0 of that
 * logical run whatever its status. */
static int read_traces(struct amd_store *st, const char *sweep, int64_t run,
		       struct amd_coll_set *s, size_t *scap, struct amd_err *err)
{
	int64_t *ids = NULL;
	size_t nids = 0, cap = 0;
	int by_selector = run <= 0 && sweep && amd_store_selector_is(st, sweep);
	if (by_selector && amd_select_run_ids(st, sweep, &ids, &nids, err) < 0)
		return -1;
	sqlite3_stmt *q = amd_store_cached(st, run > 0 ? run_traces_sql : traces_sql, err);
	if (!q) {
		free(ids);
		return -1;
	}
	if (run > 0)
		sqlite3_bind_int64(q, 1, run);
	else if (sweep && !by_selector)
		sqlite3_bind_text(q, 1, sweep, -1, SQLITE_STATIC);
	int rc;
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		int64_t rid = sqlite3_column_int64(q, 1);
		if ((run <= 0 && !amd_status_ok(sqlite3_column_int(q, 10)))
		    || (by_selector && !bsearch(&rid, ids, nids, sizeof *ids, amd_id_cmp)))
			continue;
		if (amd_grow(&s->traces, s->ntraces, &cap, sizeof *s->traces, 64) < 0) {
			rc = SQLITE_NOMEM;
			break;
		}
		struct amd_coll_trace *t = &s->traces[s->ntraces++];
		memset(t, 0, sizeof *t);
		t->trace_id = sqlite3_column_int64(q, 0);
		t->run_id = rid;
		t->strategy = keep(s, scap, (const char *)sqlite3_column_text(q, 2));
		t->run = keep(s, scap, (const char *)sqlite3_column_text(q, 3));
		t->n = sqlite3_column_int(q, 4);
		t->repeat = sqlite3_column_int(q, 5);
		t->rank = sqlite3_column_int(q, 6);
		t->has_gpu = sqlite3_column_int(q, 7);
		t->start_ns = sqlite3_column_int64(q, 8);
		t->end_ns = sqlite3_column_int64(q, 9);
		if (!t->strategy || !t->run) {
			rc = SQLITE_NOMEM;
			break;
		}
	}
	free(ids);
	return amd_store_cached_done(st, q, rc, err);
}

/* The set's trace ids as a JSON array (for json_each), NULL when out
 * of memory. */
static char *trace_ids_json(const struct amd_coll_set *s)
{
	struct amd_buf b = {0};
	int rc = amd_buf_append(&b, "[", 1);
	for (size_t i = 0; rc == 0 && i < s->ntraces; i++)
		rc = amd_buf_printf(&b, "%s%lld", i ? "," : "", (long long)s->traces[i].trace_id);
	if (rc == 0)
		rc = amd_buf_append(&b, "]", 2);
	if (rc < 0) {
		amd_buf_free(&b);
		return NULL;
	}
	return b.data;
}

/* A trace id and its index in the set, to find a row's trace. */
struct trace_ix {
	int64_t id;
	size_t at;
};

static int trace_ix_cmp(const void *a, const void *b)
{
	int64_t x = ((const struct trace_ix *)a)->id, y = ((const struct trace_ix *)b)->id;
	return (x > y) - (x < y);
}

/* The set's trace ids, sorted, each with its index; NULL out of memory. */
static struct trace_ix *index_traces(const struct amd_coll_set *s)
{
	struct trace_ix *ix = malloc((s->ntraces ? s->ntraces : 1) * sizeof *ix);
	for (size_t i = 0; ix && i < s->ntraces; i++)
		ix[i] = (struct trace_ix){ s->traces[i].trace_id, i };
	if (ix)
		qsort(ix, s->ntraces, sizeof *ix, trace_ix_cmp);
	return ix;
}

/* The index in the set of trace id, or SIZE_MAX. */
static size_t trace_at(const struct trace_ix *ix, size_t n, int64_t id)
{
	struct trace_ix key = { id, 0 };
	const struct trace_ix *t = bsearch(&key, ix, n, sizeof *ix, trace_ix_cmp);
	return t ? t->at : SIZE_MAX;
}

/* How the set's steps, phases and calls are read: by the set's trace
 * ids (json_each, each table's index on trace_id), or when the set holds
 * most of the store's traces by one scan of each table, the other
 * traces' rows dropped here (the 64,000 lookups in json_each and in the
 * indexes, with the 64,000 phase queries, were ~2.4 G instructions of
 * a 1,000 x 64 sweep's `report build`, issue 38 item 4). */
enum set_read {
	BY_IDS,
	SCAN_MOST, /* half of the store's traces or more */
	SCAN_ALL,  /* all of them: an aggregate over a table is the set's */
};

static int set_read_of(struct amd_store *st, const struct amd_coll_set *s,
		       enum set_read *how, struct amd_err *err)
{
	sqlite3_stmt *q = amd_store_prepare(st, "SELECT count(*) FROM trace", err);
	if (!q)
		return -1;
	int rc = sqlite3_step(q);
	if (rc == SQLITE_ROW) {
		int64_t n = sqlite3_column_int64(q, 0);
		*how = (int64_t)s->ntraces == n ? SCAN_ALL
			: (int64_t)s->ntraces >= n - (int64_t)s->ntraces ? SCAN_MOST : BY_IDS;
		rc = SQLITE_DONE;
	}
	return amd_store_rows_done(st, q, rc, err);
}

/* Every trace's step count, summed duration and span in one query (a
 * trace without steps: zeros, as the per-trace aggregate gives). */
#define SET_STEPS \
	"SELECT trace_id, count(*), coalesce(sum(dur_ns), 0), coalesce(min(start_ns), 0)," \
	" coalesce(max(start_ns + dur_ns), 0) FROM trace_step"
static const char set_steps_sql[] =
	SET_STEPS " WHERE trace_id IN (SELECT value FROM json_each(?1)) GROUP BY trace_id";
static const char all_steps_sql[] = SET_STEPS " GROUP BY trace_id";

static int read_step_sums(struct amd_store *st, struct amd_coll_set *s, const char *json,
			  const struct trace_ix *ix, enum set_read how, struct amd_err *err)
{
	sqlite3_stmt *q = amd_store_prepare(st, how == SCAN_ALL ? all_steps_sql : set_steps_sql,
					    err);
	if (!q)
		return -1;
	if (how != SCAN_ALL)
		sqlite3_bind_text(q, 1, json, -1, SQLITE_STATIC);
	int rc;
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		size_t at = trace_at(ix, s->ntraces, sqlite3_column_int64(q, 0));
		if (at == SIZE_MAX)
			continue;
		struct amd_coll_trace *t = &s->traces[at];
		t->nsteps = sqlite3_column_int64(q, 1);
		t->step_ns = sqlite3_column_int64(q, 2);
		t->steps_from = sqlite3_column_int64(q, 3);
		t->steps_to = sqlite3_column_int64(q, 4);
	}
	return amd_store_rows_done(st, q, rc, err);
}

/* Every trace's phases by one scan of trace_phase, each trace's in the
 * order of its phase ids, as amd_store_trace_phases reads them. */
static int scan_phases(struct amd_store *st, struct amd_coll_set *s, const struct trace_ix *ix,
		       struct amd_err *err)
{
	struct amd_phase_ids ids;
	if (amd_store_phase_ids(st, &ids, err) < 0)
		return -1;
	sqlite3_stmt *q = amd_store_prepare(st,
		"SELECT trace_id, phase_id, ns FROM trace_phase ORDER BY trace_id, phase_id", err);
	if (!q)
		return -1;
	int rc;
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		size_t at = trace_at(ix, s->ntraces, sqlite3_column_int64(q, 0));
		if (at != SIZE_MAX)
			amd_store_phase_row(q, 1, &ids, s->traces[at].phase_ns, NULL);
	}
	return amd_store_rows_done(st, q, rc, err);
}

static int read_steps(struct amd_store *st, struct amd_coll_set *s, const char *json,
		      const struct trace_ix *ix, enum set_read how, struct amd_err *err)
{
	if (read_step_sums(st, s, json, ix, how, err) < 0)
		return -1;
	if (how != BY_IDS)
		return scan_phases(st, s, ix, err);
	struct amd_phase_ids ids;
	sqlite3_stmt *p = amd_store_phases_stmt(st, &ids, err);
	if (!p)
		return -1;
	int rc = SQLITE_DONE;
	for (size_t i = 0; i < s->ntraces && rc == SQLITE_DONE; i++)
		rc = amd_store_trace_phases(p, &ids, s->traces[i].trace_id, s->traces[i].phase_ns,
					    NULL);
	return amd_store_cached_done(st, p, rc, err);
}

/* One call as the set's query reads it: its trace (index in the set),
 * the per-trace query's sort keys, its place in the result. */
struct call_row {
	size_t at, ord;
	int64_t name, group, seq, start, dur; /* group INT64_MIN: none */
	int group_size;
};

/* calls_sql's order within a trace (start, name id, seq); ord last. */
static int call_row_cmp(const void *pa, const void *pb)
{
	const struct call_row *a = pa, *b = pb;
	if (a->at != b->at)
		return a->at < b->at ? -1 : 1;
	int64_t x[3] = { a->start, a->name, a->seq }, y[3] = { b->start, b->name, b->seq };
	for (int k = 0; k < 3; k++)
		if (x[k] != y[k])
			return x[k] < y[k] ? -1 : 1;
	return (a->ord > b->ord) - (a->ord < b->ord);
}

/* 1 when a and b (sorted neighbours of one trace) tie on calls_sql's
 * keys but differ: their order would be SQLite's sorter's to choose. */
static int open_tie(const struct call_row *a, const struct call_row *b)
{
	return a->at == b->at && a->start == b->start && a->name == b->name && a->seq == b->seq
		&& (a->dur != b->dur || a->group != b->group || a->group_size != b->group_size);
}

/* r[0..n) in call_row_cmp's order: placed trace by trace (a counting
 * sort on at, stable), then each trace's few rows sorted (one qsort of
 * the set's 384,000 rows was 0.3 G instructions of a 1,000 x 64 sweep's
 * `report build`, issue 38 item 4); -1 out of memory. */
static int sort_calls(struct call_row **r, size_t n, size_t ntraces)
{
	size_t *end = calloc(ntraces + 1, sizeof *end);
	struct call_row *v = malloc((n ? n : 1) * sizeof *v);
	if (!end || !v) {
		free(end);
		free(v);
		return -1;
	}
	for (size_t k = 0; k < n; k++)
		end[(*r)[k].at + 1]++;
	for (size_t i = 0; i < ntraces; i++)
		end[i + 1] += end[i];
	for (size_t k = 0; k < n; k++) /* end[i]: trace i's next place, then its end */
		v[end[(*r)[k].at]++] = (*r)[k];
	for (size_t i = 0, a = 0; i < ntraces; a = end[i++])
		if (end[i] - a > 1)
			qsort(v + a, end[i] - a, sizeof *v, call_row_cmp);
	free(end);
	free(*r);
	*r = v;
	return 0;
}

#define SET_CALLS \
	"SELECT c.trace_id, c.name_id, coalesce(c.seq, 0), coalesce(c.start_ns, 0)," \
	" coalesce(c.dur_ns, 0), c.group_id, coalesce(c.group_size, -1)" \
	" FROM trace_collective c"
static const char set_calls_sql[] =
	SET_CALLS " WHERE c.trace_id IN (SELECT value FROM json_each(?1))";

/* Every call of the set's traces, in one query, sorted as calls_sql
 * sorts each trace's; *n rows in *out. */
static int query_calls(struct amd_store *st, const struct amd_coll_set *s, const char *json,
		       const struct trace_ix *ix, enum set_read how, struct call_row **out,
		       size_t *n, struct amd_err *err)
{
	sqlite3_stmt *q = amd_store_prepare(st, how == BY_IDS ? set_calls_sql : SET_CALLS, err);
	if (!q)
		return -1;
	if (how == BY_IDS)
		sqlite3_bind_text(q, 1, json, -1, SQLITE_STATIC);
	size_t cap = 0;
	int rc;
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		size_t at = trace_at(ix, s->ntraces, sqlite3_column_int64(q, 0));
		if (at == SIZE_MAX)
			continue;
		if (amd_grow(out, *n, &cap, sizeof **out, 256) < 0) {
			rc = SQLITE_NOMEM;
			break;
		}
		(*out)[*n] = (struct call_row){ at, *n, sqlite3_column_int64(q, 1),
			sqlite3_column_type(q, 5) == SQLITE_NULL ? INT64_MIN : sqlite3_column_int64(q, 5),
			sqlite3_column_int64(q, 2), sqlite3_column_int64(q, 3),
			sqlite3_column_int64(q, 4), sqlite3_column_int(q, 6) };
		(*n)++;
	}
	if (amd_store_rows_done(st, q, rc, err) < 0)
		return -1;
	return sort_calls(out, *n, s->ntraces) < 0
		? amd_fail(err, "%s: out of memory", amd_store_path(st)) : 0;
}

/* Room for call k of the set and its two ids. */
static int grow_call(struct amd_coll_set *s, int64_t **ids, size_t *cap, size_t *icap)
{
	return amd_grow(&s->calls, s->ncalls, cap, sizeof *s->calls, 256) < 0
		|| amd_grow_to(ids, 2 * s->ncalls + 2, icap, sizeof **ids, 512) < 0 ? -1 : 0;
}

/* Trace i's calls by calls_sql itself (the ties' order is its sorter's). */
static int trace_calls(sqlite3_stmt *q, struct amd_coll_set *s, size_t i, int64_t **ids,
		       size_t *cap, size_t *icap)
{
	sqlite3_reset(q);
	sqlite3_bind_int64(q, 1, s->traces[i].trace_id);
	int rc;
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		if (grow_call(s, ids, cap, icap) < 0)
			return SQLITE_NOMEM;
		(*ids)[2 * s->ncalls] = sqlite3_column_int64(q, 0);
		(*ids)[2 * s->ncalls + 1] = sqlite3_column_type(q, 4) == SQLITE_NULL
			? INT64_MIN : sqlite3_column_int64(q, 4);
		s->calls[s->ncalls++] = (struct amd_coll_call){
			NULL, NULL, sqlite3_column_int64(q, 1), sqlite3_column_int64(q, 2),
			sqlite3_column_int64(q, 3), sqlite3_column_int(q, 5)};
	}
	return rc;
}

/* Rows [a, b) (one trace's, sorted) as the set's calls. */
static int copy_calls(struct amd_coll_set *s, const struct call_row *r, size_t a, size_t b,
		      int64_t **ids, size_t *cap, size_t *icap)
{
	for (size_t k = a; k < b; k++) {
		if (grow_call(s, ids, cap, icap) < 0)
			return SQLITE_NOMEM;
		(*ids)[2 * s->ncalls] = r[k].name;
		(*ids)[2 * s->ncalls + 1] = r[k].group;
		s->calls[s->ncalls++] = (struct amd_coll_call){
			NULL, NULL, r[k].seq, r[k].start, r[k].dur, r[k].group_size };
	}
	return SQLITE_DONE;
}

/* The sorted rows r[0..n) as each trace's calls: a trace whose rows tie
 * (open_tie) read again by calls_sql, so that every order is the one the
 * per-trace query gives. */
static int place_calls(struct amd_store *st, struct amd_coll_set *s, const struct call_row *r,
		       size_t n, int64_t **ids, struct amd_err *err)
{
	sqlite3_stmt *q = amd_store_cached(st, calls_sql, err);
	size_t *first = q ? calloc(s->ntraces + 1, sizeof *first) : NULL;
	if (!first)
		return q ? amd_store_cached_done(st, q, SQLITE_NOMEM, err) : -1;
	size_t cap = 0, icap = 0, k = 0;
	int rc = SQLITE_DONE;
	for (size_t i = 0; i < s->ntraces && rc == SQLITE_DONE; i++) {
		size_t a = k, tie = 0;
		for (; k < n && r[k].at == i; k++)
			tie |= k > a && open_tie(&r[k - 1], &r[k]);
		first[i] = s->ncalls;
		rc = tie ? trace_calls(q, s, i, ids, &cap, &icap)
			 : copy_calls(s, r, a, k, ids, &cap, &icap);
	}
	for (size_t i = 0; rc == SQLITE_DONE && i < s->ntraces; i++) {
		size_t end = i + 1 < s->ntraces ? first[i + 1] : s->ncalls;
		s->traces[i].calls = s->calls + first[i];
		s->traces[i].ncalls = end - first[i];
	}
	free(first);
	return amd_store_cached_done(st, q, rc, err);
}

/* Each trace's calls, their name and group ids in *ids (two a call,
 * INT64_MIN for no group), to be named by name_calls: one query for the
 * set (64,000 per-trace queries, each with its sort, were a fifth of a
 * 1,000 x 64 sweep's `report build`, issue 38 item 4). */
static int read_calls(struct amd_store *st, struct amd_coll_set *s, const char *json,
		      const struct trace_ix *ix, enum set_read how, int64_t **ids,
		      struct amd_err *err)
{
	struct call_row *r = NULL;
	size_t n = 0;
	int rc = query_calls(st, s, json, ix, how, &r, &n, err);
	if (rc == 0)
		rc = place_calls(st, s, r, n, ids, err);
	free(r);
	return rc;
}

static int same_id(const void *ctx, uint32_t idx)
{
	const int64_t *const *key = ctx;
	return key[0][idx] == *key[1];
}

/* The distinct ids of ids[0..n) but INT64_MIN, as met, into *out (*k
 * of them); -1 out of memory. */
static int distinct_ids(const int64_t *ids, size_t n, int64_t **out, size_t *k)
{
	struct amd_hmap h = {0};
	size_t cap = 0;
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < n; i++) {
		int64_t id = ids[i];
		const int64_t *key[2] = { *out, &id };
		uint32_t hash = amd_hash_u64((uint64_t)id);
		if (id == INT64_MIN || amd_hmap_find(&h, hash, same_id, key) >= 0)
			continue;
		if (amd_grow(out, *k, &cap, sizeof **out, 64) < 0
		    || amd_hmap_put(&h, hash, (uint32_t)*k) < 0)
			rc = -1;
		else
			(*out)[(*k)++] = id;
	}
	amd_hmap_free(&h);
	return rc;
}

/* Names the set's calls (ids as read_calls left them): a name the
 * dictionary lacks is "", a group it lacks none. Their few distinct ids
 * are looked up (sorting all 768,000 was 0.2 G instructions of a
 * 1,000 x 64 sweep's `report build`). */
static int name_calls(struct amd_store *st, struct amd_coll_set *s, size_t *scap, int64_t *ids,
		      struct amd_err *err)
{
	int64_t *sorted = NULL;
	size_t n = 0;
	if (distinct_ids(ids, 2 * s->ncalls, &sorted, &n) < 0) {
		free(sorted);
		return amd_fail(err, "%s: out of memory", amd_store_path(st));
	}
	struct name_map m = {0};
	int rc = read_names(st, s, scap, sorted, n, &m, err);
	for (size_t i = 0; rc == 0 && i < s->ncalls; i++) {
		const char *name = name_of(&m, ids[2 * i]);
		s->calls[i].name = name ? name : "";
		s->calls[i].group = ids[2 * i + 1] == INT64_MIN ? NULL : name_of(&m, ids[2 * i + 1]);
	}
	free(sorted);
	free(m.ids);
	free(m.s);
	return rc;
}

static int coll_run_cmp(const void *a, const void *b)
{
	int64_t x = ((const struct amd_coll_run *)a)->run_id, y = ((const struct amd_coll_run *)b)->run_id;
	return (x > y) - (x < y);
}

/* s->runs: each logical run's traces (together in the set's order). */
static int index_runs(struct amd_coll_set *s)
{
	s->runs = malloc((s->ntraces ? s->ntraces : 1) * sizeof *s->runs);
	if (!s->runs)
		return -1;
	for (size_t a = 0, b; a < s->ntraces; a = b) {
		for (b = a + 1; b < s->ntraces && s->traces[b].run_id == s->traces[a].run_id;)
			b++;
		s->runs[s->nruns++] = (struct amd_coll_run){ s->traces[a].run_id, a, b - a };
	}
	qsort(s->runs, s->nruns, sizeof *s->runs, coll_run_cmp);
	return 0;
}

const struct amd_coll_trace *amd_coll_set_run(const struct amd_coll_set *s, int64_t run,
					      size_t *n)
{
	struct amd_coll_run key = { run, 0, 0 };
	const struct amd_coll_run *r = s->runs
		? bsearch(&key, s->runs, s->nruns, sizeof *s->runs, coll_run_cmp) : NULL;
	*n = r ? r->n : 0;
	return r ? s->traces + r->first : NULL;
}

static int coll_set(struct amd_store *st, const char *sweep, int64_t run,
		    struct amd_coll_set *out, struct amd_err *err)
{
	memset(out, 0, sizeof *out);
	int64_t *ids = NULL;
	size_t scap = 0;
	int rc = read_traces(st, sweep, run, out, &scap, err);
	if (rc == 0 && out->ntraces == 0)
		return 0; /* (stats asks of every run; most have no trace) */
	char *json = rc == 0 ? trace_ids_json(out) : NULL;
	struct trace_ix *ix = json ? index_traces(out) : NULL;
	if (rc == 0 && !ix)
		rc = amd_fail(err, "%s: out of memory", amd_store_path(st));
	enum set_read how = BY_IDS;
	if (rc == 0 && run <= 0) /* (one run's: a few of many) */
		rc = set_read_of(st, out, &how, err);
	if (rc == 0 && run <= 0) /* one run's set is for its arrival spread: calls only */
		rc = read_steps(st, out, json, ix, how, err);
	if (rc == 0)
		rc = read_calls(st, out, json, ix, how, &ids, err);
	if (rc == 0)
		rc = name_calls(st, out, &scap, ids, err);
	if (rc == 0 && index_runs(out) < 0)
		rc = amd_fail(err, "%s: out of memory", amd_store_path(st));
	free(ids);
	free(ix);
	free(json);
	if (rc < 0)
		amd_coll_set_free(out);
	return rc;
}

int amd_store_coll_set(struct amd_store *st, const char *sweep, struct amd_coll_set *out,
		       struct amd_err *err)
{
	return coll_set(st, sweep, 0, out, err);
}

int amd_store_coll_run(struct amd_store *st, int64_t run, struct amd_coll_set *out,
		       struct amd_err *err)
{
	return coll_set(st, NULL, run, out, err);
}

void amd_coll_set_free(struct amd_coll_set *s)
{
	for (size_t i = 0; i < s->nstrings; i++)
		free(s->strings[i]);
	free(s->strings);
	free(s->traces);
	free(s->runs);
	free(s->calls);
	memset(s, 0, sizeof *s);
}
