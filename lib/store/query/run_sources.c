/* run_sources.c — the SQL behind run_sources.h: the files each chosen
 * run's facts came from (its own run file or directory, traces, GPU
 * logs, op averages, py-spy files, metric files, the files of its
 * params and tags), the orphans after them, and the per-run sum the
 * report's Appendix C shows. */
#include "run_sources.h"
#include "sqlite_int.h"

#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "hash.h"
#include "orphans.h"
#include "runs.h"
#include "selector.h"

/* pick: the runs chosen (?1 a sweep's name, ?2 a JSON array of logical
 * run ids; both NULL: every run), each with its logical run (lid);
 * links: (source, run) of every fact table with a run — params and
 * tags too: a run's own file (run.source_id) is the first of its files
 * ingested, which depends on the order of ingest (a TensorBoard run's
 * hparams file and its events file), the files its facts came from do
 * not. A logical run's
 * file comes once per child run that links it: as ext_id and path are
 * unique (every column follows from them) and lead the order, such
 * rows come together and add_row keeps the first — what DISTINCT did,
 * without its second temporary B-tree over every row (65,000 in a
 * sweep of 1,000 runs × 64 ranks; a third of the query's time). */
static const char sql[] =
	"WITH pick AS (SELECT r.id, coalesce(p.id, r.id) AS lid FROM run r"
	"  LEFT JOIN run p ON p.ext_id = r.parent_ext_id"
	"  LEFT JOIN sweep w ON w.id = coalesce(p.sweep_id, r.sweep_id)"
	"  WHERE (?1 IS NULL AND ?2 IS NULL) OR w.name = ?1"
	"   OR coalesce(p.id, r.id) IN (SELECT value FROM json_each(coalesce(?2, '[]')))),"
	" links AS (SELECT source_id AS sid, id AS rid FROM run"
	"  WHERE source_id IS NOT NULL AND id IN (SELECT id FROM pick)"
	"  UNION SELECT source_id, run_id FROM trace WHERE run_id IN (SELECT id FROM pick)"
	"  UNION SELECT source_id, run_id FROM gpu_series WHERE run_id IN (SELECT id FROM pick)"
	"  UNION SELECT source_id, run_id FROM op_average_pack WHERE run_id IN (SELECT id FROM pick)"
	"  UNION SELECT source_id, run_id FROM stack_sample_pack"
	"   WHERE run_id IN (SELECT id FROM pick)"
	"  UNION SELECT source_id, run_id FROM metric_series WHERE run_id IN (SELECT id FROM pick)"
	"  UNION SELECT source_id, run_id FROM param WHERE run_id IN (SELECT id FROM pick)"
	"  UNION SELECT source_id, run_id FROM tag WHERE run_id IN (SELECT id FROM pick))"
	" SELECT l.ext_id, l.name, coalesce(l.n, 0), l.repeat, s.path, s.kind, s.size,"
	"  s.sha256, coalesce(l.strategy, '')"
	" FROM links k JOIN pick p ON p.id = k.rid JOIN run l ON l.id = p.lid"
	" JOIN source s ON s.id = k.sid"
	" ORDER BY 9, 3, 4, 1, 5";

static const char by_path_sql[] =
	"SELECT NULL, NULL, 0, 0, path, kind, size, sha256 FROM source WHERE path = ?1";

void amd_run_sources_free(struct amd_run_source *v, size_t n)
{
	for (size_t i = 0; v && i < n; i++) {
		free(v[i].run);
		free(v[i].name);
		free(v[i].path);
		free(v[i].kind);
		free(v[i].sha256);
	}
	free(v);
}

/* 1 when the current row of q is row r again (the same run and path). */
static int repeats(sqlite3_stmt *q, const struct amd_run_source *r)
{
	const char *run = (const char *)sqlite3_column_text(q, 0);
	const char *path = (const char *)sqlite3_column_text(q, 4);
	return path && strcmp(path, r->path) == 0
		&& (run && r->run ? strcmp(run, r->run) == 0 : !run && !r->run);
}

/* Appends the current row of q to *out unless it repeats the last one;
 * -1 when out of memory. */
static int add_row(sqlite3_stmt *q, struct amd_run_source **out, size_t *n, size_t *cap)
{
	if (*n && repeats(q, &(*out)[*n - 1]))
		return 0;
	if (amd_grow(out, *n, cap, sizeof **out, 64) < 0)
		return -1;
	struct amd_run_source *r = &(*out)[(*n)++];
	memset(r, 0, sizeof *r);
	r->n = sqlite3_column_int(q, 2);
	r->repeat = sqlite3_column_int(q, 3);
	r->size = sqlite3_column_int64(q, 6);
	if (amd_store_col_text(q, 0, &r->run) < 0 || amd_store_col_text(q, 1, &r->name) < 0
	    || amd_store_col_text(q, 4, &r->path) < 0 || amd_store_col_text(q, 5, &r->kind) < 0
	    || amd_store_col_text(q, 7, &r->sha256) < 0)
		return -1;
	return r->path && r->kind && (r->sha256 || (r->sha256 = strdup(""))) ? 0 : -1;
}

/* Runs q (bound) to its end, appending its rows. */
static int read_rows(struct amd_store *st, sqlite3_stmt *q, struct amd_run_source **out,
		     size_t *n, size_t *cap, struct amd_err *err)
{
	int rc;
	while ((rc = sqlite3_step(q)) == SQLITE_ROW)
		if (add_row(q, out, n, cap) < 0) {
			rc = SQLITE_NOMEM;
			break;
		}
	return amd_store_rows_done(st, q, rc, err);
}

int amd_selected_runs_json(struct amd_store *st, const char *text, char **json,
			   struct amd_err *err)
{
	struct amd_run_view *v;
	size_t n;
	if (amd_select_runs(st, text, &v, &n, err) < 0)
		return -1;
	struct amd_buf b = {0};
	int rc = amd_buf_printf(&b, "[");
	for (size_t i = 0; rc == 0 && i < n; i++)
		rc = amd_buf_printf(&b, "%s%lld", i ? "," : "", (long long)v[i].id);
	if (rc == 0)
		rc = amd_buf_printf(&b, "]");
	amd_runs_free(v, n);
	if (rc < 0) {
		amd_buf_free(&b);
		return amd_fail(err, "%s: out of memory", amd_store_path(st));
	}
	*json = b.data;
	return 0;
}

/* The orphans' rows, run NULL, after the others. */
static int add_orphans(struct amd_store *st, struct amd_run_source **out, size_t *n,
		       size_t *cap, struct amd_err *err)
{
	struct amd_orphan *v;
	size_t no;
	if (amd_store_orphans(st, &v, &no, err) < 0)
		return -1;
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < no; i++) {
		sqlite3_stmt *q = amd_store_prepare(st, by_path_sql, err);
		if (!q) {
			rc = -1;
			break;
		}
		sqlite3_bind_text(q, 1, v[i].path, -1, SQLITE_STATIC);
		rc = read_rows(st, q, out, n, cap, err);
	}
	amd_orphans_free(v, no);
	return rc;
}

int amd_store_run_sources(struct amd_store *st, const char *sweep,
			  struct amd_run_source **out, size_t *n, struct amd_err *err)
{
	*out = NULL;
	*n = 0;
	char *ids = NULL;
	int by_selector = sweep && amd_store_selector_is(st, sweep);
	if (by_selector && amd_selected_runs_json(st, sweep, &ids, err) < 0)
		return -1;
	sqlite3_stmt *q = amd_store_prepare(st, sql, err);
	size_t cap = 0;
	int rc = q ? 0 : -1;
	if (q) {
		if (by_selector)
			sqlite3_bind_text(q, 2, ids, -1, SQLITE_STATIC);
		else if (sweep)
			sqlite3_bind_text(q, 1, sweep, -1, SQLITE_STATIC);
		rc = read_rows(st, q, out, n, &cap, err);
	}
	if (rc == 0 && !sweep)
		rc = add_orphans(st, out, n, &cap, err);
	free(ids);
	if (rc < 0) {
		amd_run_sources_free(*out, *n);
		*out = NULL;
		*n = 0;
	}
	return rc;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The distinct kinds of rows v[0..k), sorted, into f->kinds. */
static int kinds_of(const struct amd_run_source *v, size_t k, struct amd_run_files *f)
{
	const char **ks = malloc(k * sizeof *ks);
	if (!ks)
		return -1;
	for (size_t i = 0; i < k; i++)
		ks[i] = v[i].kind;
	if (k > 1)
		qsort(ks, k, sizeof *ks, cmp_str);
	size_t at = 0;
	for (size_t i = 0; i < k; i++) {
		if (i && strcmp(ks[i], ks[i - 1]) == 0)
			continue;
		size_t len = strlen(ks[i]) + (at ? 2 : 0);
		if (at + len + 1 > sizeof f->kinds)
			break;
		memcpy(f->kinds + at, at ? ", " : "", at ? 2 : 0);
		memcpy(f->kinds + at + (at ? 2 : 0), ks[i], strlen(ks[i]) + 1);
		at += len;
	}
	free(ks);
	return 0;
}

static int same_run(const struct amd_run_source *a, const struct amd_run_source *b)
{
	if (!a->run || !b->run)
		return !a->run && !b->run;
	return strcmp(a->run, b->run) == 0;
}

/* One run's rows v[0..k) (in path order) summed into f. */
static int sum_run(const struct amd_run_source *v, size_t k, struct amd_run_files *f)
{
	memset(f, 0, sizeof *f);
	f->first = v;
	f->files = k;
	struct amd_sha *h = amd_sha_new();
	int rc = h ? 0 : -1;
	for (size_t i = 0; rc == 0 && i < k; i++) {
		f->bytes += v[i].size;
		rc = amd_sha_update(h, v[i].sha256, strlen(v[i].sha256)) < 0
			|| amd_sha_update(h, "\n", 1) < 0 ? -1 : 0;
	}
	if (h)
		amd_sha_final(h, f->digest);
	return rc == 0 ? kinds_of(v, k, f) : -1;
}

int amd_run_files_sum(const struct amd_run_source *v, size_t n, struct amd_run_files **out,
		      size_t *nout, struct amd_err *err)
{
	*out = NULL;
	*nout = 0;
	size_t cap = 0;
	for (size_t a = 0; a < n;) {
		size_t b = a + 1;
		while (b < n && same_run(&v[a], &v[b]))
			b++;
		if (amd_grow(out, *nout, &cap, sizeof **out, 64) < 0
		    || sum_run(v + a, b - a, &(*out)[(*nout)++]) < 0) {
			free(*out);
			*out = NULL;
			*nout = 0;
			return amd_fail(err, "sources: out of memory");
		}
		a = b;
	}
	return 0;
}
