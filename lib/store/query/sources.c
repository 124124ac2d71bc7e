/* sources.c — SQL behind sources.h: a sweep's sources and its metric
 * keys by prefix. */
#include "sources.h"
#include "sqlite_int.h"

#include <stdlib.h>
#include <string.h>

#include "buf.h"

/* Column i as a malloc'd copy ("" for NULL); -1 when out of memory. */
static int dup_col(sqlite3_stmt *q, int i, char **out)
{
	if (amd_store_col_text(q, i, out) < 0)
		return -1;
	return *out || (*out = strdup("")) ? 0 : -1;
}

/* Runs of the sweep, with their children. */
#define SWEEP_RUNS "(SELECT r.id FROM run r JOIN sweep s ON s.id = r.sweep_id WHERE s.name = ?1" \
	" UNION SELECT c.id FROM run c JOIN run p ON c.parent_ext_id = p.ext_id" \
	" JOIN sweep s ON s.id = p.sweep_id WHERE s.name = ?1)"

/* A sweep's files: its runs' own (run.source_id, the first of a run's
 * files to be ingested: it depends on the order of ingest) and every
 * file a fact of its runs came from, params and tags too — so that the
 * list does not depend on that order (a TensorBoard run's hparams file
 * and its events file). */
static const char sources_sql[] =
	"WITH runs AS " SWEEP_RUNS ","
	" ids AS (SELECT source_id AS id FROM run WHERE id IN runs"
	"  UNION SELECT source_id FROM trace WHERE run_id IN runs"
	"  UNION SELECT source_id FROM gpu_series WHERE run_id IN runs"
	"  UNION SELECT source_id FROM op_average_pack WHERE run_id IN runs"
	"  UNION SELECT source_id FROM stack_sample_pack WHERE run_id IN runs"
	"  UNION SELECT source_id FROM metric_series WHERE run_id IN runs"
	"  UNION SELECT source_id FROM param WHERE run_id IN runs"
	"  UNION SELECT source_id FROM tag WHERE run_id IN runs)"
	" SELECT path, kind, size, sha256 FROM source WHERE id IN ids ORDER BY path";

int amd_store_sweep_sources(struct amd_store *st, const char *sweep,
			    struct amd_source_row **out, size_t *n, struct amd_err *err)
{
	*out = NULL;
	*n = 0;
	sqlite3_stmt *q = amd_store_prepare(st, sources_sql, err);
	if (!q)
		return -1;
	sqlite3_bind_text(q, 1, sweep, -1, SQLITE_STATIC);
	size_t cap = 0;
	int rc;
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		if (amd_grow(out, *n, &cap, sizeof **out, 32) < 0) {
			rc = SQLITE_NOMEM;
			break;
		}
		struct amd_source_row *r = &(*out)[(*n)++];
		memset(r, 0, sizeof *r);
		r->size = sqlite3_column_int64(q, 2);
		if (dup_col(q, 0, &r->path) < 0 || dup_col(q, 1, &r->kind) < 0 ||
		    dup_col(q, 3, &r->sha256) < 0) {
			rc = SQLITE_NOMEM;
			break;
		}
	}
	sqlite3_finalize(q);
	if (rc != SQLITE_DONE) {
		amd_source_rows_free(*out, *n);
		*out = NULL;
		*n = 0;
		return amd_store_step_fail(st, rc, err);
	}
	return 0;
}

void amd_source_rows_free(struct amd_source_row *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].path);
		free(v[i].kind);
		free(v[i].sha256);
	}
	free(v);
}

static const char keys_sql[] =
	"SELECT DISTINCT d.s FROM metric_series m JOIN dict d ON d.id = m.key_id"
	" WHERE m.run_id IN " SWEEP_RUNS " AND substr(d.s, 1, length(?2)) = ?2 ORDER BY d.s";

int amd_store_sweep_metric_keys(struct amd_store *st, const char *sweep, const char *prefix,
				char ***out, size_t *n, struct amd_err *err)
{
	*out = NULL;
	*n = 0;
	sqlite3_stmt *q = amd_store_prepare(st, keys_sql, err);
	if (!q)
		return -1;
	sqlite3_bind_text(q, 1, sweep, -1, SQLITE_STATIC);
	sqlite3_bind_text(q, 2, prefix, -1, SQLITE_STATIC);
	size_t cap = 0;
	int rc;
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		if (amd_grow(out, *n, &cap, sizeof **out, 16) < 0 ||
		    dup_col(q, 0, &(*out)[*n]) < 0) {
			rc = SQLITE_NOMEM;
			break;
		}
		(*n)++;
	}
	sqlite3_finalize(q);
	if (rc != SQLITE_DONE) {
		amd_strings_free(*out, *n);
		*out = NULL;
		*n = 0;
		return amd_store_step_fail(st, rc, err);
	}
	return 0;
}

void amd_strings_free(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}
