/* traces.c — SQL behind `amdahl trace show` (traces.h): a run's
 * stored trace summaries, their steps and top ops (the trace's regions
 * with a detail); and the one reader of
 * a trace's phase totals, which run_facts.c uses too (sqlite_int.h). */
#include "traces.h"
#include "sqlite_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "stmt_cache.h"

/* The run with that ext id, else, among runs of that name (repeats),
 * the newest one that has traces, else the newest. */
static int find_run(struct amd_store *st, const char *run, int64_t *id, char **label,
		    struct amd_err *err)
{
	sqlite3_stmt *q = amd_store_prepare(st,
		"SELECT id, coalesce(name, ext_id) || ' (' || ext_id || ')' FROM run"
		" WHERE ext_id=?1 OR name=?1 ORDER BY ext_id=?1 DESC,"
		" EXISTS(SELECT 1 FROM trace t WHERE t.run_id=run.id) DESC, start_ms DESC LIMIT 1", err);
	if (!q)
		return -1;
	sqlite3_bind_text(q, 1, run, -1, SQLITE_STATIC);
	int rc = sqlite3_step(q);
	*id = 0;
	if (rc == SQLITE_ROW) {
		*id = sqlite3_column_int64(q, 0);
		rc = amd_store_col_text(q, 1, label) < 0 ? SQLITE_NOMEM : SQLITE_DONE;
	}
	return amd_store_rows_done(st, q, rc, err);
}

int amd_store_phase_ids(struct amd_store *st, struct amd_phase_ids *ids, struct amd_err *err)
{
	for (int p = 0; p < AMD_PHASE_COUNT; p++)
		if ((ids->id[p] = amd_store_dict_id(st, amd_phase_names[p], err)) < 0)
			return -1;
	return 0;
}

sqlite3_stmt *amd_store_phases_stmt(struct amd_store *st, struct amd_phase_ids *ids,
				   struct amd_err *err)
{
	if (amd_store_phase_ids(st, ids, err) < 0)
		return NULL;
	return amd_store_cached(st, "SELECT phase_id, ns FROM trace_phase WHERE trace_id = ?1",
				err);
}

void amd_store_phase_row(sqlite3_stmt *q, int col, const struct amd_phase_ids *ids,
			 int64_t *phase_ns, int *found)
{
	int64_t id = sqlite3_column_int64(q, col);
	for (int p = 0; p < AMD_PHASE_COUNT; p++)
		if (ids->id[p] == id && id != 0) {
			phase_ns[p] = sqlite3_column_int64(q, col + 1);
			if (found)
				*found = 1;
			return;
		}
}

int amd_store_trace_phases(sqlite3_stmt *q, const struct amd_phase_ids *ids, int64_t trace_id,
			   int64_t *phase_ns, int *found)
{
	sqlite3_reset(q);
	sqlite3_bind_int64(q, 1, trace_id);
	int rc;
	while ((rc = sqlite3_step(q)) == SQLITE_ROW)
		amd_store_phase_row(q, 0, ids, phase_ns, found);
	return rc;
}

/* The current row of q as a trace view; -1 out of memory. */
static int trace_view(sqlite3_stmt *q, struct amd_trace_view *v)
{
	memset(v, 0, sizeof *v);
	v->id = sqlite3_column_int64(q, 0);
	v->rank = sqlite3_column_int(q, 1);
	v->world_size = sqlite3_column_int(q, 2);
	v->start_ns = sqlite3_column_int64(q, 6);
	v->end_ns = sqlite3_column_int64(q, 7);
	v->events = sqlite3_column_int64(q, 8);
	v->has_gpu = sqlite3_column_int(q, 9);
	v->comp_fraction = sqlite3_column_type(q, 10) == SQLITE_NULL
		? NAN : sqlite3_column_double(q, 10);
	if (amd_store_col_text(q, 3, &v->backend) < 0 ||
	    amd_store_col_text(q, 4, &v->device) < 0 ||
	    amd_store_col_text(q, 5, &v->path) < 0)
		return -1;
	return 0;
}

/* The traces of run_id (and its child workers'), with their phases. */
static int read_traces(struct amd_store *st, int64_t run_id, int rank,
		       struct amd_trace_view **out, size_t *n, struct amd_err *err)
{
	sqlite3_stmt *q = amd_store_prepare(st,
		"SELECT t.id, coalesce(t.rank,-1), coalesce(t.world_size,-1), t.backend, t.device,"
		" s.path, t.start_ns, t.end_ns, t.events, t.has_gpu, t.comp_fraction"
		" FROM trace t JOIN source s ON s.id=t.source_id"
		" WHERE (t.run_id=?1 OR t.run_id IN (SELECT c.id FROM run c JOIN run p"
		"   ON c.parent_ext_id=p.ext_id WHERE p.id=?1)) AND (?2 < 0 OR t.rank=?2)"
		" ORDER BY t.rank, s.path", err);
	if (!q)
		return -1;
	sqlite3_bind_int64(q, 1, run_id);
	sqlite3_bind_int(q, 2, rank);
	size_t cap = 0;
	int rc;
	while ((rc = sqlite3_step(q)) == SQLITE_ROW)
		if (amd_grow(out, *n, &cap, sizeof **out, 16) < 0 ||
		    trace_view(q, &(*out)[(*n)++]) < 0) {
			rc = SQLITE_NOMEM;
			break;
		}
	struct amd_phase_ids ids;
	if (amd_store_rows_done(st, q, rc, err) < 0 || !(q = amd_store_phases_stmt(st, &ids, err)))
		return -1;
	rc = SQLITE_DONE;
	for (size_t i = 0; i < *n && rc == SQLITE_DONE; i++)
		rc = amd_store_trace_phases(q, &ids, (*out)[i].id, (*out)[i].phase_ns, NULL);
	return amd_store_cached_done(st, q, rc, err);
}

int amd_trace_list(struct amd_store *st, const char *run, int rank, int64_t *run_id,
		   char **run_label, struct amd_trace_view **out, size_t *n,
		   struct amd_err *err)
{
	*out = NULL;
	*n = 0;
	*run_label = NULL;
	if (find_run(st, run, run_id, run_label, err) < 0)
		return -1; /* find_run leaves *run_label NULL when it fails */
	if (*run_id == 0 || read_traces(st, *run_id, rank, out, n, err) == 0)
		return 0;
	amd_trace_views_free(*out, *n);
	*out = NULL;
	*n = 0;
	free(*run_label);
	*run_label = NULL;
	return -1;
}

void amd_trace_views_free(struct amd_trace_view *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].backend);
		free(v[i].device);
		free(v[i].path);
	}
	free(v);
}

int amd_trace_steps(struct amd_store *st, int64_t trace_id, struct amd_trace_step **out,
		    size_t *n, struct amd_err *err)
{
	*out = NULL;
	*n = 0;
	sqlite3_stmt *q = amd_store_prepare(st,
		"SELECT step, start_ns, dur_ns FROM trace_step WHERE trace_id=?1 ORDER BY step", err);
	if (!q)
		return -1;
	sqlite3_bind_int64(q, 1, trace_id);
	size_t cap = 0;
	int rc;
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		if (amd_grow(out, *n, &cap, sizeof **out, 16) < 0) {
			rc = SQLITE_NOMEM;
			break;
		}
		(*out)[(*n)++] = (struct amd_trace_step){sqlite3_column_int64(q, 0),
			sqlite3_column_int64(q, 1), sqlite3_column_int64(q, 2)};
	}
	sqlite3_finalize(q);
	if (rc == SQLITE_DONE)
		return 0;
	free(*out);
	*out = NULL;
	*n = 0;
	return amd_store_step_fail(st, rc, err);
}

/* The trace's ops: the regions of its source and rank that carry a
 * detail (lib/model/region.h), largest self time first. */
static const char top_ops_sql[] =
	"SELECT n.s, c.s, g.calls, g.total_ns, g.self_ns, d.min_ns, d.max_ns"
	" FROM trace t JOIN region g ON g.source_id = t.source_id AND g.rank IS t.rank"
	" JOIN region_detail d ON d.region_id = g.id JOIN dict n ON n.id = g.name_id"
	" LEFT JOIN dict c ON c.id = d.category_id"
	" WHERE t.id = ?1 ORDER BY g.self_ns DESC, n.s, d.seq";

/* cat (NULL: none, as "") is one of leave_out's. */
static int left_out(const char *cat, const char *const *leave_out)
{
	for (; leave_out && *leave_out; leave_out++)
		if (strcmp(cat ? cat : "", *leave_out) == 0)
			return 1;
	return 0;
}

/* The current row of q as an op view; -1 out of memory. */
static int op_view(sqlite3_stmt *q, struct amd_trace_op_view *o)
{
	memset(o, 0, sizeof *o);
	if (amd_store_col_text(q, 0, &o->name) < 0 || amd_store_col_text(q, 1, &o->cat) < 0)
		return -1;
	o->count = sqlite3_column_int64(q, 2);
	o->total_ns = sqlite3_column_int64(q, 3);
	o->self_ns = sqlite3_column_int64(q, 4);
	o->min_ns = sqlite3_column_int64(q, 5);
	o->max_ns = sqlite3_column_int64(q, 6);
	return 0;
}

int amd_trace_top_ops(struct amd_store *st, int64_t trace_id, int limit,
		      const char *const *leave_out, struct amd_trace_op_view **out, size_t *n,
		      struct amd_err *err)
{
	*out = NULL;
	*n = 0;
	sqlite3_stmt *q = amd_store_prepare(st, top_ops_sql, err);
	if (!q)
		return -1;
	sqlite3_bind_int64(q, 1, trace_id);
	size_t cap = 0;
	int rc;
	while ((limit <= 0 || *n < (size_t)limit) && (rc = sqlite3_step(q)) == SQLITE_ROW) {
		if (left_out((const char *)sqlite3_column_text(q, 1), leave_out))
			continue;
		if (amd_grow(out, *n, &cap, sizeof **out, 16) < 0 ||
		    op_view(q, &(*out)[(*n)++]) < 0) {
			rc = SQLITE_NOMEM;
			break;
		}
	}
	if (limit > 0 && *n == (size_t)limit)
		rc = SQLITE_DONE;
	sqlite3_finalize(q);
	if (rc == SQLITE_DONE)
		return 0;
	amd_trace_op_views_free(*out, *n);
	*out = NULL;
	*n = 0;
	return amd_store_step_fail(st, rc, err);
}

void amd_trace_op_views_free(struct amd_trace_op_view *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].name);
		free(v[i].cat);
	}
	free(v);
}
