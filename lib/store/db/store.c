/* store.c — opening the SQLite store, migrating it, transactions and the
 * string dictionary. See store.h. */
#include "store.h"
#include "sqlite_int.h"
#include "unit_rows.h"
#include "sqlite_setup.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "metric_sql.h"
#include "schema.h"
#include "stmt_cache.h"

#define BUSY_TIMEOUT_MS 60000
/* How long a writer's last checkpoint waits for a reader in the middle
 * of a read (amd_store_settle): the ingest is done; the log is not lost,
 * and the warning says how to finish. */
#define SETTLE_WAIT_MS 5000

/* ---- a table a remote read left on the server, loaded on first use ----
 * Every statement of lib/store is prepared here (amd_store_prepare, and
 * amd_store_exec's): while a remote read left a table on the server
 * (amd_store_set_remote), SQLite's authorizer tells, as a statement is
 * prepared, whether it reads that table (directly, through a view or a
 * subquery); if so the rows are loaded (amd_store_need) and the
 * statement prepared again. No reader has to ask for it, but for the
 * metric points of keys a read leaves with their key sets in the store
 * (amd_store_need_key, asked by amd_run_metric). */

/* Whether table holds the rows of table left: left itself, or the pack
 * table behind its virtual table (region: region_pack, region_pack_name;
 * lib/store/packed), which a reader may read directly. */
static int holds_rows_of(const char *table, const char *left)
{
	size_t n = strlen(left);
	return strncmp(table, left, n) == 0 &&
	       (table[n] == '\0' || strncmp(table + n, "_pack", 5) == 0);
}

static int note_left_read(void *ctx, int action, const char *a, const char *b,
			  const char *db, const char *via)
{
	(void)b;
	(void)db;
	(void)via;
	struct amd_store *st = ctx;
	if (!st->watching)
		return SQLITE_OK;
	/* a table left with some rows in the store (metric_point's key sets:
	 * nkeys > 0) is loaded by key when a reader asks (amd_store_need_key),
	 * not whenever a statement reads the rows that are there */
	if (action == SQLITE_READ && a && st->has_remote && st->remote.nkeys == 0 &&
	    holds_rows_of(a, st->remote.left))
		st->left_read = 1;
	return SQLITE_OK;
}

/* sqlite3_prepare_v2 of sql (its first statement; *tail after it),
 * watching whether it reads the table left on the server. The
 * authorizer stays installed (amd_store_set_remote) and only notes
 * while watching: installing or removing it expires every prepared
 * statement of the connection (the cached ones, stmt_cache.h), which
 * SQLite would then parse and plan again at their next step. */
static int prepare_watched(struct amd_store *st, const char *sql, sqlite3_stmt **q,
			   const char **tail)
{
	st->nprepared++;
	if (!st->has_remote)
		return sqlite3_prepare_v2(st->db, sql, -1, q, tail);
	st->left_read = 0;
	st->watching = 1;
	int rc = sqlite3_prepare_v2(st->db, sql, -1, q, tail);
	st->watching = 0;
	return rc;
}

size_t amd_store_prepares(const struct amd_store *st)
{
	return st->nprepared;
}

/* Loads the table left on the server when one of sql's statements
 * reads it (before sqlite3_exec runs them). */
static int need_for_sql(struct amd_store *st, const char *sql, struct amd_err *err)
{
	for (const char *p = sql; st->has_remote && p && *p;) {
		sqlite3_stmt *q = NULL;
		const char *tail = NULL;
		int rc = prepare_watched(st, p, &q, &tail);
		sqlite3_finalize(q);
		if (rc != SQLITE_OK)
			return 0; /* sqlite3_exec reports it */
		if (st->left_read)
			return amd_store_need(st, st->remote.left, err);
		p = tail;
	}
	return 0;
}

int amd_store_exec(struct amd_store *st, const char *sql, struct amd_err *err)
{
	if (need_for_sql(st, sql, err) < 0)
		return -1;
	char *msg = NULL;
	if (sqlite3_exec(st->db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		amd_fail(err, "%s: %s", st->path, msg ? msg : sqlite3_errmsg(st->db));
		sqlite3_free(msg);
		return -1;
	}
	return 0;
}

size_t amd_store_memory(struct amd_store *st)
{
	int cur = 0, hi = 0;
	if (!st || sqlite3_db_status(st->db, SQLITE_DBSTATUS_CACHE_USED, &cur, &hi, 0) != SQLITE_OK)
		return 0;
	return cur > 0 ? (size_t)cur : 0;
}

sqlite3_stmt *amd_store_prepare(struct amd_store *st, const char *sql,
				struct amd_err *err)
{
	sqlite3_stmt *s = NULL;
	int rc = prepare_watched(st, sql, &s, NULL);
	if (rc == SQLITE_OK && st->has_remote && st->left_read) {
		sqlite3_finalize(s);
		s = NULL;
		if (amd_store_need(st, st->remote.left, err) < 0)
			return NULL;
		st->nprepared++;
		rc = sqlite3_prepare_v2(st->db, sql, -1, &s, NULL);
	}
	if (rc != SQLITE_OK) {
		amd_fail(err, "%s: %s", st->path, sqlite3_errmsg(st->db));
		return NULL;
	}
	return s;
}

int amd_store_bind_cell(sqlite3_stmt *q, int i, const struct amd_cell *c,
			sqlite3_destructor_type how)
{
	switch (c->type) {
	case AMD_CELL_INT:
		return sqlite3_bind_int64(q, i, c->i);
	case AMD_CELL_REAL:
		return sqlite3_bind_double(q, i, c->f);
	case AMD_CELL_TEXT:
		return sqlite3_bind_text(q, i, c->s, (int)c->n, how);
	default:
		return sqlite3_bind_null(q, i);
	}
}

int amd_store_col_text(sqlite3_stmt *q, int i, char **out)
{
	*out = NULL;
	if (sqlite3_column_type(q, i) == SQLITE_NULL)
		return 0;
	const char *s = (const char *)sqlite3_column_text(q, i);
	return s && (*out = strdup(s)) ? 0 : -1;
}

int amd_store_step_fail(struct amd_store *st, int rc, struct amd_err *err)
{
	if (rc == SQLITE_NOMEM)
		return amd_fail(err, "%s: out of memory", st->path);
	int known = sqlite3_errcode(st->db) != SQLITE_OK;
	return amd_fail(err, "%s: %s", st->path, known ? sqlite3_errmsg(st->db) : sqlite3_errstr(rc));
}

int64_t amd_store_first_id(struct amd_store *st, const char *sql, const char *a, const char *b,
			   struct amd_err *err)
{
	sqlite3_stmt *q = amd_store_prepare(st, sql, err);
	if (!q)
		return -1;
	sqlite3_bind_text(q, 1, a, -1, SQLITE_STATIC);
	if (sqlite3_bind_parameter_count(q) >= 2) {
		if (b)
			sqlite3_bind_text(q, 2, b, -1, SQLITE_STATIC);
		else
			sqlite3_bind_null(q, 2);
	}
	int rc = sqlite3_step(q);
	int64_t id = rc == SQLITE_ROW ? sqlite3_column_int64(q, 0) : 0;
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		id = amd_store_step_fail(st, rc, err);
	sqlite3_finalize(q);
	return id;
}

int amd_store_rows_done(struct amd_store *st, sqlite3_stmt *q, int rc, struct amd_err *err)
{
	sqlite3_finalize(q);
	return rc == SQLITE_DONE ? 0 : amd_store_step_fail(st, rc, err);
}

int amd_store_schema_version(struct amd_store *st)
{
	sqlite3_stmt *s = NULL;
	int v = 0;
	if (sqlite3_prepare_v2(st->db, "SELECT max(version) FROM schema_version",
			       -1, &s, NULL) == SQLITE_OK &&
	    sqlite3_step(s) == SQLITE_ROW)
		v = sqlite3_column_int(s, 0);
	sqlite3_finalize(s);
	return v;
}

static int migrate(struct amd_store *st, struct amd_err *err)
{
	if (amd_store_begin(st, err) < 0)
		return -1;
	if (amd_store_exec(st, "CREATE TABLE IF NOT EXISTS schema_version("
			       "version INTEGER NOT NULL, applied_at INTEGER NOT NULL)",
			   err) < 0)
		goto fail;
	int have = amd_store_schema_version(st);
	if (have > amd_migration_count) {
		amd_fail(err, "%s: store has schema version %d, this amdahl knows up to %d;"
			 " use a newer amdahl", st->path, have, amd_migration_count);
		goto fail;
	}
	for (int v = have + 1; v <= amd_migration_count; v++) {
		char bump[128];
		if (amd_store_exec(st, amd_migrations[v - 1], err) < 0)
			goto fail;
		snprintf(bump, sizeof bump,
			 "INSERT INTO schema_version VALUES(%d, strftime('%%s','now'))", v);
		if (amd_store_exec(st, bump, err) < 0)
			goto fail;
	}
	return amd_store_commit(st, err);
fail:
	amd_store_rollback(st);
	return -1;
}

/* A writer's page cache: 32 MiB instead of SQLite's 2 MB. A unit whose
 * names are all new (itwinai's op averages) inserts them into dict's
 * UNIQUE index in no order; once that index outgrew 2 MB, SQLite spilled
 * dirty pages to the WAL in the middle of the transaction and wrote the
 * same pages again and again (an 8 MB CSV: 163 k pwrite calls, 16 MB:
 * 521 k), so twice the input took 2.4 times the CPU. The cache grows only
 * as pages are touched. */
#define INGEST_CACHE_PRAGMA "PRAGMA cache_size=-32768"
/* A reader's temporary B-trees (UNION, DISTINCT, ORDER BY without an
 * index) in memory, not in a temporary file: a report's file lists
 * (65,000 rows for 1,000 runs x 64 ranks) wrote ~3,000 pages of one. */
#define READ_TEMP_PRAGMA "PRAGMA temp_store=MEMORY"

/* Switches a store to WAL. SQLite does not call the busy handler for a
 * journal-mode change, so two ingests creating the same new store at once
 * could see "database is locked" here: retry within the busy timeout. */
static int use_wal(struct amd_store *st, struct amd_err *err)
{
	for (int waited = 0;; waited += 20) {
		int rc = sqlite3_exec(st->db, "PRAGMA journal_mode=WAL", NULL, NULL, NULL);
		if (rc == SQLITE_OK)
			return 0;
		if ((rc & 0xff) != SQLITE_BUSY && (rc & 0xff) != SQLITE_LOCKED)
			break;
		if (waited >= BUSY_TIMEOUT_MS)
			break;
		sqlite3_sleep(20);
	}
	return amd_fail(err, "%s: %s", st->path, sqlite3_errmsg(st->db));
}

/* The first read of a store opened read-only; on a read-only mount or
 * directory it falls back to SQLite's immutable mode (store_guard.c),
 * and someone else's database is described. */
static int read_only_probe(struct amd_store *st, struct amd_err *err)
{
	sqlite3_stmt *q = NULL;
	int rc = sqlite3_prepare_v2(st->db, "SELECT count(*) FROM sqlite_master", -1, &q, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_step(q) == SQLITE_ROW ? SQLITE_OK : sqlite3_errcode(st->db);
	sqlite3_finalize(q);
	if ((rc & 0xff) == SQLITE_NOTADB)
		return amd_fail(err, "%s: file is not a database (not an SQLite file, so not an "
				     "amdahl store)", st->path);
	if (rc != SQLITE_OK && amd_store_read_only_fallback(st, rc, err) < 0)
		return -1;
	return amd_store_check_foreign(st, err);
}

int amd_store_whole(struct amd_store *st, struct amd_store **whole, struct amd_err *err)
{
	*whole = st;
	return st->open_whole ? st->open_whole(st->path, whole, err) : 0;
}

void amd_store_set_whole(struct amd_store *st, amd_store_open_whole_fn open_whole)
{
	st->open_whole = open_whole;
}

static void drop_remote(struct amd_store *st);

void amd_store_set_remote(struct amd_store *st, const struct amd_store_remote *r)
{
	drop_remote(st);
	st->remote = *r;
	st->has_remote = 1;
	if (!st->watch_on)
		sqlite3_set_authorizer(st->db, note_left_read, st);
	st->watch_on = 1;
}

/* The hooks' ctx released once the table is in or the store closes. */
static void drop_remote(struct amd_store *st)
{
	if (st->remote.release)
		st->remote.release(st->remote.ctx);
	memset(&st->remote, 0, sizeof st->remote);
	st->has_remote = 0;
	free(st->runs_in);
	st->runs_in = NULL;
	st->nruns_in = 0;
}

/* The left keys' first points (their key sets), dropped before their
 * points are loaded: of every run (runs NULL), else of the n runs. */
static int drop_key_sets(struct amd_store *st, const int64_t *runs, size_t n,
			 struct amd_err *err)
{
	for (size_t i = 0; i < st->remote.nkeys; i++) {
		sqlite3_stmt *q = amd_store_prepare(st, "DELETE FROM metric_series WHERE key_id ="
						    " (SELECT id FROM dict WHERE s = ?1) AND"
						    " (?2 IS NULL OR run_id = ?2)", err);
		if (!q)
			return -1;
		sqlite3_bind_text(q, 1, st->remote.keys[i], -1, SQLITE_TRANSIENT);
		int rc = SQLITE_DONE;
		for (size_t j = 0; rc == SQLITE_DONE && j < (runs ? n : 1); j++) {
			if (runs)
				sqlite3_bind_int64(q, 2, runs[j]);
			if ((rc = sqlite3_step(q)) == SQLITE_DONE)
				sqlite3_reset(q);
		}
		if (amd_store_rows_done(st, q, rc, err) < 0)
			return -1;
	}
	return 0;
}

/* Loads the rows left (runs NULL), or the left keys' points of the n
 * runs (remote.load_runs), as a write inside whatever read is open. */
static int load_left(struct amd_store *st, const int64_t *runs, size_t n, struct amd_err *err)
{
	/* the load's own statements read the table: no second load */
	struct amd_store_remote r = st->remote;
	st->has_remote = 0;
	enum amd_store_mode mode = st->mode;
	int batch = st->batch;
	st->mode = AMD_STORE_WRITE;
	/* inside a read transaction (store_read.h: `stats` reads points
	 * mid-analysis) the load is a savepoint, as a unit's in a batch */
	st->batch = batch || !sqlite3_get_autocommit(st->db);
	int rc = drop_key_sets(st, runs, n, err);
	if (rc == 0)
		rc = runs ? r.load_runs(r.ctx, st, runs, n, err) : r.load(r.ctx, st, err);
	st->batch = batch;
	st->mode = mode;
	st->has_remote = 1;
	return rc;
}

int amd_store_need(struct amd_store *st, const char *table, struct amd_err *err)
{
	if (!st->has_remote || strcmp(st->remote.left, table) != 0)
		return 0;
	int rc = load_left(st, NULL, 0, err);
	if (rc == 0)
		drop_remote(st);
	return rc;
}

int amd_store_region_sums(struct amd_store *st, int64_t kind_id, int64_t profiler_id,
			  amd_region_sum_fn fn, void *ctx, struct amd_err *err)
{
	if (!st->has_remote || strcmp(st->remote.left, "region") != 0 || !st->remote.region_sums)
		return 1;
	return st->remote.region_sums(st->remote.ctx, st, kind_id, profiler_id, fn, ctx, err);
}

static int cmp_id(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

/* Whether the left keys' points of run are in st (runs_in, sorted). */
static int run_in(const struct amd_store *st, int64_t run)
{
	return st->nruns_in &&
	       bsearch(&run, st->runs_in, st->nruns_in, sizeof run, cmp_id) != NULL;
}

/* In *ids (sorted) run and its child runs (amd_run_metric folds them)
 * whose left keys' points are not in st yet. */
static int runs_to_load(struct amd_store *st, int64_t run, int64_t **ids, size_t *n,
			struct amd_err *err)
{
	*ids = NULL;
	*n = 0;
	sqlite3_stmt *q = amd_store_prepare(st, "SELECT id FROM run WHERE id = ?1 OR"
					    " parent_ext_id = (SELECT ext_id FROM run WHERE id = ?1)"
					    " ORDER BY id", err);
	if (!q)
		return -1;
	sqlite3_bind_int64(q, 1, run);
	int rc, bad = 0;
	while (!bad && (rc = sqlite3_step(q)) == SQLITE_ROW) {
		int64_t id = sqlite3_column_int64(q, 0), *p;
		if (run_in(st, id))
			continue;
		if (!(p = realloc(*ids, (*n + 1) * sizeof *p)))
			bad = 1;
		else
			(*ids = p)[(*n)++] = id;
	}
	if (bad) {
		sqlite3_finalize(q);
		rc = amd_fail(err, "%s: out of memory", st->path);
	} else
		rc = amd_store_rows_done(st, q, rc, err);
	if (rc < 0) {
		free(*ids);
		*ids = NULL;
		*n = 0;
	}
	return rc;
}

/* Notes the n runs (none loaded yet) as loaded, runs_in kept sorted
 * (runs are mostly read in id order: each then goes at the end). */
static int note_runs_in(struct amd_store *st, const int64_t *ids, size_t n)
{
	int64_t *p = realloc(st->runs_in, (st->nruns_in + n) * sizeof *p);
	if (!p)
		return -1;
	st->runs_in = p;
	for (size_t k = 0; k < n; k++) {
		size_t at = st->nruns_in;
		while (at > 0 && p[at - 1] > ids[k])
			at--;
		memmove(p + at + 1, p + at, (st->nruns_in - at) * sizeof *p);
		p[at] = ids[k];
		st->nruns_in++;
	}
	return 0;
}

int amd_store_plan_reads(struct amd_store *st, const int64_t *runs, size_t n,
			 struct amd_err *err)
{
	free(st->plan);
	st->plan = NULL;
	st->nplan = st->plan_at = 0;
	if (n == 0)
		return 0;
	if (!(st->plan = malloc(n * sizeof *st->plan)))
		return amd_fail(err, "%s: out of memory", st->path);
	memcpy(st->plan, runs, n * sizeof *st->plan);
	st->nplan = n;
	return 0;
}

/* The place after run in the plan (0: not planned), from where the last
 * load found its run (a reader asks in the plan's order). */
static size_t plan_after(struct amd_store *st, int64_t run)
{
	for (size_t k = 0; k < st->nplan; k++) {
		size_t at = (st->plan_at + k) % st->nplan;
		if (st->plan[at] == run)
			return (st->plan_at = at) + 1;
	}
	return 0;
}

/* The left keys' points the server holds of the m runs (-1: unknown). */
static int64_t points_of(struct amd_store *st, const int64_t *runs, size_t m)
{
	int64_t sum = 0;
	for (size_t i = 0; i < m; i++) {
		int64_t np = st->remote.run_points(st->remote.ctx, runs[i]);
		if (np < 0)
			return -1;
		sum += np;
	}
	return sum;
}

/* Whether one of the m runs is among the n ids. */
static int any_listed(const int64_t *ids, size_t n, const int64_t *runs, size_t m)
{
	for (size_t i = 0; i < m; i++)
		for (size_t k = 0; k < n; k++)
			if (ids[k] == runs[i])
				return 1;
	return 0;
}

/* Adds the planned run and its child runs not loaded yet to the n runs
 * in *ids, their points to *points, when they fit a load's bounds: 1
 * added (or none to add), 0 when they do not fit, -1 with err set. */
static int add_planned(struct amd_store *st, int64_t planned, int64_t **ids, size_t *n,
		       int64_t *points, struct amd_err *err)
{
	int64_t *more, *p;
	size_t m;
	if (runs_to_load(st, planned, &more, &m, err) < 0)
		return -1;
	int64_t np = m ? points_of(st, more, m) : 0;
	int rc = np >= 0 && *n + m <= AMD_NEED_BATCH_RUNS &&
		 np <= AMD_NEED_BATCH_POINTS - *points && !any_listed(*ids, *n, more, m);
	if (m && rc == 1) {
		if (!(p = realloc(*ids, (*n + m) * sizeof *p)))
			rc = amd_fail(err, "%s: out of memory", st->path);
		else {
			memcpy((*ids = p) + *n, more, m * sizeof *p);
			*n += m;
			*points += np;
		}
	}
	free(more);
	return rc;
}

/* Adds to the n runs in *ids (run's and its child runs', n > 0) the runs
 * planned after run (amd_store_plan_reads) with their child runs, not
 * loaded yet, in the plan's order, and sorts them: one load for many
 * runs, not a query each. The reader reads each planned run's points
 * (the server could not reduce its value; traces, child runs or energy
 * counters make the reader read its points), so the rows loaded are
 * those its own asks load: a 6,500-run sweep whose 2,000 runs two
 * sources hold made 2,038 queries. Bounds of a load: AMD_NEED_BATCH_RUNS
 * runs (a server id is ≤ 21 bytes in the query: ~11 KB of the server's
 * 256 KiB max_query_size, beside the part's attempts, ≤ 3 × 32 KiB) and
 * AMD_NEED_BATCH_POINTS points added (the answer is parsed whole, cJSON
 * at ~0.7 KB a point row, before it goes into the store: ~50 MB whatever
 * the runs' lengths; a run of more points loads alone, as before). */
static int add_foreseen(struct amd_store *st, int64_t run, int64_t **ids, size_t *n,
			struct amd_err *err)
{
	size_t at = st->remote.run_points ? plan_after(st, run) : 0;
	int64_t points = 0;
	int rc = 1;
	while (rc == 1 && at && at < st->nplan && *n < AMD_NEED_BATCH_RUNS)
		rc = add_planned(st, st->plan[at++], ids, n, &points, err);
	if (rc < 0)
		return -1;
	qsort(*ids, *n, sizeof **ids, cmp_id);
	return 0;
}

int amd_store_need_key(struct amd_store *st, int64_t run, const char *key,
		       struct amd_err *err)
{
	size_t i = 0;
	while (st->has_remote && i < st->remote.nkeys && strcmp(st->remote.keys[i], key) != 0)
		i++;
	if (!st->has_remote || i == st->remote.nkeys)
		return 0;
	if (run <= 0 || !st->remote.load_runs)
		return amd_store_need(st, "metric_point", err);
	int64_t *ids;
	size_t n;
	if (runs_to_load(st, run, &ids, &n, err) < 0)
		return -1;
	if (n && add_foreseen(st, run, &ids, &n, err) < 0) {
		free(ids);
		return -1;
	}
	int rc = n ? load_left(st, ids, n, err) : 0;
	if (rc == 0 && n && note_runs_in(st, ids, n) < 0)
		rc = amd_fail(err, "%s: out of memory", st->path);
	free(ids);
	return rc;
}

int amd_store_run_reduced(struct amd_store *st, int64_t run, const char *metric,
			  int keep_first, double mad_k, struct amd_run_reduced *out,
			  struct amd_err *err)
{
	memset(out, 0, sizeof *out);
	if (!st->has_remote || !st->remote.run_reduced || st->remote.nkeys == 0 ||
	    strcmp(st->remote.keys[0], metric) != 0)
		return 0;
	return st->remote.run_reduced(st->remote.ctx, st, run, keep_first, mad_k, out, err);
}

void amd_run_reduced_free(struct amd_run_reduced *r)
{
	free(r->left);
	free(r->far);
	free(r->pairs);
	memset(r, 0, sizeof *r);
}

int amd_store_sql_register(sqlite3 *db)
{
	return amd_metric_sql_register(db);
}

/* What a file that is there but not a regular file is, for the message
 * (opening a FIFO to read would wait for a writer forever). */
static const char *not_regular(const char *path)
{
	struct stat sb;
	if (strcmp(path, ":memory:") == 0 || stat(path, &sb) != 0 || S_ISREG(sb.st_mode))
		return NULL;
	return S_ISFIFO(sb.st_mode)  ? "a FIFO"
	       : S_ISDIR(sb.st_mode) ? "a directory"
	       : S_ISCHR(sb.st_mode) ? "a character device"
	       : S_ISBLK(sb.st_mode) ? "a block device"
	       : S_ISSOCK(sb.st_mode) ? "a socket"
				     : "not a regular file";
}

/* A new in-memory store starts from schema_fresh.c's schema, as a new
 * file does (amd_store_create_new); migrate takes it on from there. */
static int fresh_in_memory(struct amd_store *st, struct amd_err *err)
{
	if (strcmp(st->path, ":memory:") != 0 || amd_store_fresh_schema(st->db) == SQLITE_OK)
		return 0;
	return amd_fail(err, "%s: %s", st->path, sqlite3_errmsg(st->db));
}

int amd_store_open(const char *path, enum amd_store_mode mode,
		   struct amd_store **out, struct amd_err *err)
{
	*out = NULL;
	struct stat sb;
	if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode))
		return amd_fail(err, "%s: is a directory; --store names the store's file "
				"(e.g. %s/amdahl.db)", path, path);
	const char *kind = not_regular(path);
	if (kind)
		return amd_fail(err, "%s: %s, not a store; a store is a regular file (name a new "
				     "file, or a store)", path, kind);
	if (mode == AMD_STORE_READ && access(path, F_OK) != 0)
		return amd_fail(err, "%s: no store here; run 'amdahl ingest PATH' first"
				" (or name one with --store)", path);
	struct amd_store *st = calloc(1, sizeof *st);
	if (!st)
		return amd_fail(err, "%s: out of memory", path);
	if (!(st->path = strdup(path))) {
		free(st);
		return amd_fail(err, "%s: out of memory", path);
	}
	st->mode = mode;
	amd_sqlite_setup(AMD_SQLITE_ANY); /* before SQLite's first use: sqlite_setup.h */
	if (mode == AMD_STORE_WRITE)
		amd_store_create_new(path); /* a new store made whole first (store_create.c) */
	int flags = mode == AMD_STORE_READ ? SQLITE_OPEN_READONLY
					   : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
	if (sqlite3_open_v2(path, &st->db, flags | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
		amd_fail(err, "%s: %s", path, st->db ? sqlite3_errmsg(st->db) : "cannot open");
		amd_store_close(st);
		return -1;
	}
	sqlite3_extended_result_codes(st->db, 1);
	sqlite3_busy_timeout(st->db, BUSY_TIMEOUT_MS);
	if (amd_store_sql_register(st->db) != SQLITE_OK) {
		amd_fail(err, "%s: %s", path, sqlite3_errmsg(st->db));
		amd_store_close(st);
		return -1;
	}
	if (mode == AMD_STORE_READ && read_only_probe(st, err) < 0) {
		amd_store_close(st);
		return -1;
	}
	if (mode == AMD_STORE_WRITE && sqlite3_db_readonly(st->db, "main") == 1) {
		/* SQLite opened a file it may not write read-only: say so now,
		 * not at the first unit's commit and in a checkpoint warning */
		amd_fail(err, "%s: cannot write the store: the file is read-only "
			      "(attempt to write a readonly database)", path);
		amd_store_close(st);
		return -1;
	}
	if (mode == AMD_STORE_WRITE) {
		if (amd_store_check_foreign(st, err) < 0 || use_wal(st, err) < 0 ||
		    amd_store_exec(st, "PRAGMA synchronous=NORMAL", err) < 0 ||
		    amd_store_exec(st, INGEST_CACHE_PRAGMA, err) < 0 ||
		    fresh_in_memory(st, err) < 0 || migrate(st, err) < 0) {
			amd_store_close(st);
			return -1;
		}
	} else {
		int v = amd_store_schema_version(st);
		if (v < 1) {
			amd_fail(err, "%s: not an amdahl store (no schema version)", path);
			amd_store_close(st);
			return -1;
		}
		if (v > amd_migration_count) {
			amd_fail(err, "%s: store has schema version %d, this amdahl knows up to %d",
				 path, v, amd_migration_count);
			amd_store_close(st);
			return -1;
		}
		if (v < amd_migration_count) {
			amd_fail(err, "%s: store has schema version %d; run any 'amdahl ingest'"
				 " on it to migrate to %d", path, v, amd_migration_count);
			amd_store_close(st);
			return -1;
		}
		if (amd_store_exec(st, READ_TEMP_PRAGMA, err) < 0) {
			amd_store_close(st);
			return -1;
		}
	}
	*out = st;
	return 0;
}

void amd_store_close(struct amd_store *st)
{
	if (!st)
		return;
	if (st->in_tx)
		amd_store_rollback(st);
	drop_remote(st);
	free(st->plan);
	sqlite3_finalize(st->dict_find);
	sqlite3_finalize(st->dict_add);
	amd_store_cache_free(st);
	amd_intern_cache_clear(&st->names);
	sqlite3_close_v2(st->db);
	free(st->path);
	free(st);
}

/* The log's frames left uncopied by a checkpoint that could not finish. */
static int settle_fail(const char *path, sqlite3 *db, int rc, int log, int done,
		       struct amd_err *err)
{
	if (rc == SQLITE_OK)
		return amd_fail(err, "%s: %d pages stay in %s-wal only (another process is "
				     "reading the store); copy the store with its -wal file, or "
				     "finish with `sqlite3 %s 'PRAGMA wal_checkpoint'` once that "
				     "process has ended",
				path, log - done, path, path);
	int busy = (rc & 0xff) == SQLITE_BUSY || (rc & 0xff) == SQLITE_LOCKED;
	return amd_fail(err, "%s: cannot copy the write-ahead log into the store (%s%s); its "
			     "pages stay in %s-wal only: copy the store with its -wal file, or "
			     "finish with `sqlite3 %s 'PRAGMA wal_checkpoint'` once %s",
			path, sqlite3_errmsg(db), busy ? ": another process is reading it" : "",
			path, path, busy ? "that process has ended" : "the file system has room");
}

/* 1 when another connection holds the store's write lock now (another
 * ingest): it settles the log itself when it ends. */
static int other_writer(sqlite3 *db)
{
	sqlite3_busy_timeout(db, 0);
	int rc = sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL);
	if (rc == SQLITE_OK)
		sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
	return (rc & 0xff) == SQLITE_BUSY;
}

int amd_store_settle(const char *path, struct amd_err *err)
{
	char *wal = sqlite3_mprintf("%s-wal", path);
	int has_log = wal && access(wal, F_OK) == 0;
	sqlite3_free(wal);
	if (!has_log)
		return 0;
	sqlite3 *db = NULL;
	int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX;
	/* SQLite opens a file it may not write read-only: not writable either */
	if (sqlite3_open_v2(path, &db, flags, NULL) != SQLITE_OK ||
	    sqlite3_db_readonly(db, "main") != 0) {
		sqlite3_close_v2(db);
		return 0; /* not writable here: the writer's own close was the only chance */
	}
	int log = 0, done = 0;
	/* a first read: the connection learns the file is in WAL mode */
	int rc = sqlite3_exec(db, "SELECT count(*) FROM sqlite_master", NULL, NULL, NULL);
	if (rc == SQLITE_OK && other_writer(db)) {
		sqlite3_close_v2(db);
		return 0; /* its own end settles the log */
	}
	sqlite3_busy_timeout(db, SETTLE_WAIT_MS);
	if (rc == SQLITE_OK)
		rc = sqlite3_wal_checkpoint_v2(db, NULL, SQLITE_CHECKPOINT_FULL, &log, &done);
	int out = rc == SQLITE_OK && done >= log ? 0
		: (rc & 0xff) == SQLITE_BUSY && other_writer(db) ? 0
		: settle_fail(path, db, rc, log, done, err);
	sqlite3_close_v2(db); /* the last connection also removes the log */
	return out;
}

/* A turn at a shared connection (sqlite_int.h's amd_store_turns), when
 * st is one. */
static void turn_enter(struct amd_store *st)
{
	if (st->turns.enter)
		st->turns.enter(st->turns.holder);
}

static void turn_leave(struct amd_store *st)
{
	if (st->turns.leave)
		st->turns.leave(st->turns.holder);
}

/* A unit's transaction: BEGIN IMMEDIATE, or inside a batch a savepoint.
 * On the workers' shared connection the turn comes first: only its
 * holder may read st->batch and st->in_tx. */
int amd_store_begin(struct amd_store *st, struct amd_err *err)
{
	turn_enter(st);
	if (amd_store_exec(st, st->batch ? "SAVEPOINT amd_unit" : "BEGIN IMMEDIATE", err) < 0) {
		turn_leave(st);
		return -1;
	}
	st->in_tx = 1;
	return 0;
}

int amd_store_commit(struct amd_store *st, struct amd_err *err)
{
	if (amd_store_exec(st, st->batch ? "RELEASE amd_unit" : "COMMIT", err) < 0) {
		amd_store_rollback(st);
		return -1;
	}
	st->in_tx = 0;
	if (!st->batch) /* in a batch the unit's names stay: the batch holds them */
		amd_intern_cache_clear(&st->names);
	turn_leave(st); /* last: st is the next worker's from here */
	return 0;
}

/* Only a transaction amd_store_begin opened: a second call (a failed
 * COMMIT rolls back, then its sink again) must not end the transaction
 * another worker has opened since on a shared connection (write_gate.h). */
void amd_store_rollback(struct amd_store *st)
{
	if (!st->in_tx)
		return;
	sqlite3_exec(st->db, st->batch ? "ROLLBACK TO amd_unit; RELEASE amd_unit" : "ROLLBACK",
		     NULL, NULL, NULL);
	st->in_tx = 0;
	amd_intern_cache_clear(&st->names);
	turn_leave(st); /* last: st is the next worker's from here */
}

int amd_store_batch_begin(struct amd_store *st, struct amd_err *err)
{
	turn_enter(st); /* held until the batch ends */
	if (amd_store_exec(st, "BEGIN IMMEDIATE", err) < 0) {
		turn_leave(st);
		return -1;
	}
	st->batch = 1;
	return 0;
}

int amd_store_batch_end(struct amd_store *st, int commit, struct amd_err *err)
{
	if (!st->batch)
		return 0;
	amd_store_rollback(st); /* a unit left open is not in the batch */
	st->batch = 0;
	int rc = commit ? amd_store_exec(st, "COMMIT", err) : 0;
	if (!commit || rc < 0)
		sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
	amd_intern_cache_clear(&st->names);
	turn_leave(st);
	return rc;
}

/* The id of s in dict, 0 when absent, -1 on an error. */
static int64_t dict_lookup(struct amd_store *st, const char *s)
{
	if (!st->dict_find &&
	    sqlite3_prepare_v2(st->db, "SELECT id FROM dict WHERE s=?1", -1, &st->dict_find,
			       NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_text(st->dict_find, 1, s, -1, SQLITE_STATIC);
	int rc = sqlite3_step(st->dict_find);
	int64_t id = rc == SQLITE_ROW ? sqlite3_column_int64(st->dict_find, 0)
				      : rc == SQLITE_DONE ? 0 : -1;
	sqlite3_reset(st->dict_find);
	return id;
}

int64_t amd_store_dict_id(struct amd_store *st, const char *s, struct amd_err *err)
{
	int64_t id = dict_lookup(st, s);
	return id < 0 ? amd_fail(err, "%s: %s", st->path, sqlite3_errmsg(st->db)) : id;
}

const char *amd_store_name(struct amd_store *st, const char *s, char out[AMD_NAME_MAX + 1],
			   struct amd_err *err)
{
	const char *name = amd_name_cap(s, out);
	if (!name)
		amd_fail(err, "%s: out of memory", st->path);
	return name;
}

int64_t *amd_store_intern_slot(struct amd_store *st, const char **s,
			       char capped[AMD_NAME_MAX + 1], struct amd_err *err)
{
	if (!(*s = amd_store_name(st, *s, capped, err)))
		return NULL;
	int64_t *known = amd_intern_cache_slot(&st->names, *s);
	if (!known)
		amd_fail(err, "%s: out of memory", st->path);
	return known;
}

/* s added to dict by INSERT OR IGNORE (a new name costs one probe of
 * dict's index): its new id, 0 when dict held it already, -1 on an
 * error. */
static int64_t dict_insert(struct amd_store *st, const char *s)
{
	if (!st->dict_add &&
	    sqlite3_prepare_v2(st->db, "INSERT OR IGNORE INTO dict(s) VALUES(?1)", -1,
			       &st->dict_add, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_text(st->dict_add, 1, s, -1, SQLITE_STATIC);
	int rc = sqlite3_step(st->dict_add);
	sqlite3_reset(st->dict_add);
	if (rc != SQLITE_DONE)
		return -1;
	return sqlite3_changes(st->db) == 1 ? sqlite3_last_insert_rowid(st->db) : 0;
}

/* After this many new names in a row, a name is added first and looked
 * up only when dict held it (a reader's names are new, or all known). */
#define FRESH_RUN 4

/* s's id from dict, adding it when absent; -1 on an error. */
static int64_t dict_id(struct amd_store *st, const char *s)
{
	unsigned *fresh = &st->names.fresh;
	int64_t id = *fresh >= FRESH_RUN ? dict_insert(st, s) : 0;
	if (id > 0)
		return id;
	if (id == 0 && (id = dict_lookup(st, s)) > 0) {
		*fresh = 0;
		return id;
	}
	if (id == 0 && (id = dict_insert(st, s)) > 0)
		++*fresh;
	return id > 0 ? id : -1;
}

int64_t amd_store_intern_kept(struct amd_store *st, const char *s, const char **kept,
			      struct amd_err *err)
{
	char capped[AMD_NAME_MAX + 1];
	int64_t *known = amd_store_intern_slot(st, &s, capped, err);
	if (!known)
		return -1;
	if (kept)
		*kept = st->names.names.s[known - st->names.ids];
	if (*known > 0)
		return *known;
	int64_t id = dict_id(st, s);
	if (id < 0)
		return amd_fail(err, "%s: %s", st->path, sqlite3_errmsg(st->db));
	return *known = id;
}

int64_t amd_store_intern(struct amd_store *st, const char *s, struct amd_err *err)
{
	return amd_store_intern_kept(st, s, NULL, err);
}

static const char dict_text_sql[] = "SELECT s FROM dict WHERE id = ?1";

int amd_store_texts(struct amd_store *st, struct amd_dict_text *t, size_t n,
		    struct amd_err *err)
{
	sqlite3_stmt *q = amd_store_cached(st, dict_text_sql, err);
	if (!q)
		return -1;
	int rc = SQLITE_DONE;
	for (size_t i = 0; i < n && rc == SQLITE_DONE; i++) {
		sqlite3_reset(q);
		sqlite3_bind_int64(q, 1, t[i].id);
		t[i].s = NULL;
		if ((rc = sqlite3_step(q)) == SQLITE_ROW)
			rc = amd_store_col_text(q, 0, &t[i].s) < 0 ? SQLITE_NOMEM : SQLITE_DONE;
	}
	return amd_store_cached_done(st, q, rc, err);
}

int amd_store_text(struct amd_store *st, int64_t id, char **out, struct amd_err *err)
{
	struct amd_dict_text t = { id, NULL };
	int rc = amd_store_texts(st, &t, 1, err);
	*out = t.s;
	return rc;
}

const char *amd_store_path(const struct amd_store *st)
{
	return st->path;
}
