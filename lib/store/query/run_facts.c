/* run_facts.c — SQL behind amd_analyse (run_facts.h): sweep axis,
 * trace windows and phases, operator averages (collectives: collectives.c). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "run_facts.h"
#include "sqlite_int.h"
#include "buf.h"
#include "sink.h" /* enum amd_op_role */
#include "stmt_cache.h"

/* Rows of the logical run ?1: its own and its child workers'. */
#define OF_RUN(col) "(" col " = ?1 OR " col " IN (SELECT c.id FROM run c" \
	" WHERE c.parent_ext_id = (SELECT ext_id FROM run WHERE id = ?1)))"

int amd_store_sweep_axis(struct amd_store *st, const char *sweep, char **out,
			 struct amd_err *err)
{
	*out = NULL;
	if (!sweep)
		return 0;
	sqlite3_stmt *q = amd_store_prepare(st, "SELECT axis FROM sweep WHERE name = ?1", err);
	if (!q)
		return -1;
	sqlite3_bind_text(q, 1, sweep, -1, SQLITE_STATIC);
	int rc = sqlite3_step(q);
	if (rc == SQLITE_ROW)
		rc = amd_store_col_text(q, 0, out) < 0 ? SQLITE_NOMEM : SQLITE_DONE;
	return amd_store_rows_done(st, q, rc, err);
}

/* Adds the phase rows of each trace in v. */
static int trace_phases(struct amd_store *st, struct amd_trace_row *v, size_t n,
			struct amd_err *err)
{
	struct amd_phase_ids ids;
	sqlite3_stmt *q = amd_store_phases_stmt(st, &ids, err);
	if (!q)
		return -1;
	int rc = SQLITE_DONE;
	for (size_t i = 0; i < n && rc == SQLITE_DONE; i++)
		rc = amd_store_trace_phases(q, &ids, v[i].id, v[i].phase_ns, &v[i].has_phases);
	return amd_store_cached_done(st, q, rc, err);
}

int amd_store_run_traces(struct amd_store *st, int64_t run, struct amd_trace_row **out,
			 size_t *n, struct amd_err *err)
{
	*out = NULL;
	*n = 0;
	sqlite3_stmt *q = amd_store_cached(st,
		"SELECT t.id, COALESCE(t.rank, 0), COALESCE(t.start_ns, 0), COALESCE(t.end_ns, 0),"
		" t.comp_fraction, COALESCE(t.has_gpu, 0) FROM trace t LEFT JOIN source f ON f.id = t.source_id"
		" WHERE " OF_RUN("t.run_id") " ORDER BY t.rank, f.path, t.id",
		err);
	if (!q)
		return -1;
	sqlite3_bind_int64(q, 1, run);
	size_t cap = 0;
	int rc;
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		if (amd_grow(out, *n, &cap, sizeof **out, 8) < 0) {
			rc = SQLITE_NOMEM;
			break;
		}
		struct amd_trace_row *t = &(*out)[(*n)++];
		memset(t, 0, sizeof *t);
		t->id = sqlite3_column_int64(q, 0);
		t->rank = sqlite3_column_int(q, 1);
		t->start_ns = sqlite3_column_int64(q, 2);
		t->end_ns = sqlite3_column_int64(q, 3);
		t->comp_fraction = sqlite3_column_type(q, 4) == SQLITE_NULL
			? NAN : sqlite3_column_double(q, 4);
		t->has_gpu = sqlite3_column_int(q, 5) != 0;
	}
	if (amd_store_cached_done(st, q, rc, err) < 0 || trace_phases(st, *out, *n, err) < 0) {
		free(*out);
		*out = NULL;
		*n = 0;
		return -1;
	}
	return 0;
}

int amd_store_run_op_fraction(struct amd_store *st, int64_t run, double *comp,
			      double *total, struct amd_err *err)
{
	*comp = *total = NAN;
	/* summed here, in the order of the files' paths and each file's rows,
	 * not by SQL's sum() in row-id order: a store's ids follow the order
	 * its files were ingested in (ingest -j N), the last digits must not */
	/* the role is the reader's (enum amd_op_role): compute ops over all
	 * ops but the enclosing ones */
	sqlite3_stmt *q = amd_store_cached(st,
		"SELECT o.role = ?2, o.self_cuda_us FROM op_average o"
		" LEFT JOIN source f ON f.id = o.source_id"
		" WHERE " OF_RUN("o.run_id") " AND o.role <> ?3"
		" ORDER BY f.path, o.rowid", err);
	if (!q)
		return -1;
	sqlite3_bind_int64(q, 1, run);
	sqlite3_bind_int(q, 2, AMD_OP_COMPUTE);
	sqlite3_bind_int(q, 3, AMD_OP_ENCLOSING);
	double c = 0, t = 0;
	size_t rows = 0;
	int rc;
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		rows++;
		if (sqlite3_column_type(q, 1) == SQLITE_NULL)
			continue;
		double us = sqlite3_column_double(q, 1);
		if (sqlite3_column_int(q, 0))
			c += us;
		t += us;
	}
	if (rows) {
		*comp = c;
		*total = t;
	}
	return amd_store_cached_done(st, q, rc, err);
}

/* Steps q (a cached statement, given back) to its end, one element of
 * elem bytes per row filled by fill, into the growing array *out; on an
 * error *out is freed. */
static int collect(struct amd_store *st, sqlite3_stmt *q, size_t elem,
		   void (*fill)(sqlite3_stmt *q, void *row), void **out, size_t *n,
		   struct amd_err *err)
{
	size_t cap = 0;
	int rc;
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		if (amd_grow(out, *n, &cap, elem, 16) < 0) {
			rc = SQLITE_NOMEM;
			break;
		}
		fill(q, (char *)*out + elem * (*n)++);
	}
	if (amd_store_cached_done(st, q, rc, err) < 0) {
		free(*out);
		*out = NULL;
		*n = 0;
		return -1;
	}
	return 0;
}

static void fill_mem_row(sqlite3_stmt *q, void *row)
{
	*(struct amd_mem_row *)row = (struct amd_mem_row){
		sqlite3_column_int64(q, 0), sqlite3_column_int(q, 1), sqlite3_column_int(q, 2),
		sqlite3_column_int(q, 3), sqlite3_column_int(q, 4), sqlite3_column_int64(q, 5),
		sqlite3_column_int64(q, 6)};
}

int amd_store_run_memory(struct amd_store *st, int64_t run, struct amd_mem_row **out,
			 size_t *n, struct amd_err *err)
{
	*out = NULL;
	*n = 0;
	sqlite3_stmt *q = amd_store_cached(st,
		"SELECT m.trace_id, COALESCE(t.rank, -1), m.device_type, m.device_id, m.from_totals,"
		" COALESCE(m.peak_allocated, -1), COALESCE(m.peak_reserved, -1)"
		" FROM trace_memory m JOIN trace t ON t.id = m.trace_id"
		" LEFT JOIN source f ON f.id = t.source_id"
		" WHERE " OF_RUN("t.run_id") " ORDER BY t.rank, m.device_type, m.device_id, f.path,"
		" m.trace_id", err);
	if (!q)
		return -1;
	sqlite3_bind_int64(q, 1, run);
	return collect(st, q, sizeof **out, fill_mem_row, (void **)out, n, err);
}

static void fill_mem_sample(sqlite3_stmt *q, void *row)
{
	*(struct amd_mem_sample *)row = (struct amd_mem_sample){
		sqlite3_column_int64(q, 0), sqlite3_column_int64(q, 1), sqlite3_column_int64(q, 2)};
}

int amd_store_memory_samples(struct amd_store *st, int64_t trace_id, int device_type,
			     int device_id, struct amd_mem_sample **out, size_t *n,
			     struct amd_err *err)
{
	*out = NULL;
	*n = 0;
	sqlite3_stmt *q = amd_store_cached(st,
		"SELECT ts_ns, COALESCE(allocated, -1), COALESCE(reserved, -1)"
		" FROM trace_memory_sample WHERE trace_id = ?1 AND device_type = ?2"
		" AND device_id = ?3 ORDER BY ts_ns", err);
	if (!q)
		return -1;
	sqlite3_bind_int64(q, 1, trace_id);
	sqlite3_bind_int(q, 2, device_type);
	sqlite3_bind_int(q, 3, device_id);
	return collect(st, q, sizeof **out, fill_mem_sample, (void **)out, n, err);
}
