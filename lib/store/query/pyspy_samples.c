/* pyspy_samples.c — the SQL behind pyspy_samples.h: resolving what the
 * user names, the runs with samples, and the rows of a selection (stack
 * nodes, samples, frames) that lib/analysis/pyspy.c adds up. */
#include "pyspy_samples.h"
#include "selector_hint.h"
#include "sweep_keys.h"
#include "sqlite_int.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"

/* ---- resolving RUN ---- */

static int64_t one_id(struct amd_store *st, const char *sql, const char *text, int *count)
{
	sqlite3_stmt *q = amd_store_prepare(st, sql, NULL);
	int64_t id = 0;
	*count = 0;
	if (!q)
		return -1;
	sqlite3_bind_text(q, 1, text, -1, SQLITE_STATIC);
	while (sqlite3_step(q) == SQLITE_ROW) {
		if (!*count)
			id = sqlite3_column_int64(q, 0);
		(*count)++;
	}
	sqlite3_finalize(q);
	return id;
}

/* A name that is no run's: the error names the closest run names. */
static int no_run(struct amd_store *st, const char *what, struct amd_err *err)
{
	char near[512];
	amd_run_names_closest(st, what, 0, near, sizeof near);
	return amd_fail(err, "%s: no run (name or id) or py-spy file of that path in the store%s",
			what, near);
}

int amd_pyspy_resolve(struct amd_store *st, const char *what, struct amd_pyspy_sel *sel,
		      struct amd_err *err)
{
	memset(sel, 0, sizeof *sel);
	char real[PATH_MAX];
	int count;
	const char *paths[] = {what, realpath(what, real) ? real : NULL};
	for (int i = 0; i < 2; i++) {
		if (!paths[i])
			continue;
		int64_t id = one_id(st, "SELECT id FROM source WHERE path=?1", paths[i], &count);
		if (id > 0) {
			sel->source_id = id;
			snprintf(sel->label, sizeof sel->label, "%s", paths[i]);
			return 0;
		}
	}
	int64_t id = one_id(st, "SELECT id FROM run WHERE ext_id=?1", what, &count);
	/* a name: the rule of trace show and regions, the newest launch of
	 * that name with the data (py-spy samples), else the newest */
	if (id <= 0)
		id = one_id(st, "SELECT id FROM run WHERE name=?1 ORDER BY"
			    " id IN (SELECT run_id FROM stack_sample_pack) DESC, start_ms DESC, id DESC",
			    what, &count);
	if (id <= 0)
		return no_run(st, what, err);
	sel->run_id = id;
	snprintf(sel->label, sizeof sel->label, "%s", what);
	return 0;
}

int amd_pyspy_runs(struct amd_store *st, struct amd_pyspy_sel *out, size_t max,
		   struct amd_err *err)
{
	sqlite3_stmt *q = amd_store_prepare(st,
		"SELECT run.id, CASE WHEN run.name IS NULL THEN run.ext_id"
		" ELSE run.name || ' (' || run.ext_id || ')' END FROM run WHERE run.id IN"
		" (SELECT DISTINCT run_id FROM stack_sample_pack) ORDER BY run.start_ms DESC, run.id",
		err);
	if (!q)
		return -1;
	int n = 0, rc;
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		if ((size_t)n < max) {
			const char *label = (const char *)sqlite3_column_text(q, 1);
			if (!label) {
				rc = SQLITE_NOMEM;
				break;
			}
			memset(&out[n], 0, sizeof out[n]);
			out[n].run_id = sqlite3_column_int64(q, 0);
			snprintf(out[n].label, sizeof out[n].label, "%s", label);
		}
		n++;
	}
	if (rc != SQLITE_DONE)
		n = amd_store_step_fail(st, rc, err);
	sqlite3_finalize(q);
	return n;
}

/* ---- the rows of a selection ---- */

static const char *sel_where(const struct amd_pyspy_sel *sel)
{
	return sel->run_id > 0 ? "run_id=?1" : "source_id=?1";
}

/* Prepares sql (with one %s for the selection's condition) bound to sel. */
static sqlite3_stmt *sel_query(struct amd_store *st, const char *sql,
			       const struct amd_pyspy_sel *sel, struct amd_err *err)
{
	char text[512];
	snprintf(text, sizeof text, sql, sel_where(sel));
	sqlite3_stmt *q = amd_store_prepare(st, text, err);
	if (q)
		sqlite3_bind_int64(q, 1, sel->run_id > 0 ? sel->run_id : sel->source_id);
	return q;
}

int amd_pyspy_nodes(struct amd_store *st, const struct amd_pyspy_sel *sel,
		    struct amd_pyspy_node_row **out, size_t *n, struct amd_err *err)
{
	*out = NULL;
	*n = 0;
	sqlite3_stmt *q = sel_query(st,
		"SELECT n.id, COALESCE(n.parent_id, 0), n.frame_id, f.name_id,"
		" COALESCE(f.file_id, 0), COALESCE(f.line, 0) FROM stack_node n"
		" JOIN frame f ON f.id=n.frame_id WHERE n.source_id IN"
		" (SELECT DISTINCT source_id FROM stack_sample_pack WHERE %s) ORDER BY n.id", sel, err);
	if (!q)
		return -1;
	size_t cap = 0;
	int rc;
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		if (amd_grow(out, *n, &cap, sizeof **out, 1024) < 0) {
			rc = SQLITE_NOMEM;
			break;
		}
		struct amd_pyspy_node_row *r = &(*out)[(*n)++];
		r->id = sqlite3_column_int64(q, 0);
		r->parent_id = sqlite3_column_int64(q, 1);
		r->frame_id = sqlite3_column_int64(q, 2);
		r->name_id = sqlite3_column_int64(q, 3);
		r->file_id = sqlite3_column_int64(q, 4);
		r->line = sqlite3_column_int(q, 5);
	}
	return amd_store_rows_done(st, q, rc, err);
}

int amd_pyspy_samples(struct amd_store *st, const struct amd_pyspy_sel *sel,
		      struct amd_pyspy_sample_row **out, size_t *n, struct amd_err *err)
{
	*out = NULL;
	*n = 0;
	sqlite3_stmt *q = sel_query(st,
		"SELECT leaf_id, COALESCE(process_id, 0), COALESCE(thread_id, 0), samples,"
		" seconds FROM stack_sample WHERE %s", sel, err);
	if (!q)
		return -1;
	size_t cap = 0;
	int rc;
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		if (amd_grow(out, *n, &cap, sizeof **out, 1024) < 0) {
			rc = SQLITE_NOMEM;
			break;
		}
		struct amd_pyspy_sample_row *r = &(*out)[(*n)++];
		r->leaf_id = sqlite3_column_int64(q, 0);
		r->process_id = sqlite3_column_int64(q, 1);
		r->thread_id = sqlite3_column_int64(q, 2);
		r->samples = sqlite3_column_int64(q, 3);
		r->seconds = sqlite3_column_double(q, 4);
	}
	return amd_store_rows_done(st, q, rc, err);
}

static int count_one(struct amd_store *st, const char *sql, const struct amd_pyspy_sel *sel,
		     size_t *n, struct amd_err *err)
{
	*n = 0;
	sqlite3_stmt *q = sel_query(st, sql, sel, err);
	if (!q)
		return -1;
	int rc = sqlite3_step(q);
	if (rc == SQLITE_ROW) {
		*n = (size_t)sqlite3_column_int64(q, 0);
		rc = SQLITE_DONE;
	}
	return amd_store_rows_done(st, q, rc, err);
}

int amd_pyspy_count_sources(struct amd_store *st, const struct amd_pyspy_sel *sel,
			    size_t *n, struct amd_err *err)
{
	return count_one(st, "SELECT COUNT(DISTINCT source_id) FROM stack_sample_pack WHERE %s", sel,
			 n, err);
}

int amd_pyspy_count_snapshots(struct amd_store *st, const struct amd_pyspy_sel *sel,
			      size_t *n, struct amd_err *err)
{
	return count_one(st, "SELECT COUNT(*) FROM source WHERE kind IN ('pyspy-dump',"
			 " 'pyspy-dump-json') AND id IN (SELECT DISTINCT source_id FROM stack_sample_pack"
			 " WHERE %s)", sel, n, err);
}

int amd_pyspy_frame(struct amd_store *st, int64_t frame_id, int64_t *name_id,
		    int64_t *file_id, int *line, struct amd_err *err)
{
	sqlite3_stmt *q = amd_store_prepare(st,
		"SELECT name_id, COALESCE(file_id, 0), COALESCE(line, 0) FROM frame WHERE id=?1",
		err);
	if (!q)
		return -1;
	sqlite3_bind_int64(q, 1, frame_id);
	int rc = sqlite3_step(q), found = rc == SQLITE_ROW;
	if (found) {
		*name_id = sqlite3_column_int64(q, 0);
		*file_id = sqlite3_column_int64(q, 1);
		*line = sqlite3_column_int(q, 2);
		rc = SQLITE_DONE;
	}
	if (amd_store_rows_done(st, q, rc, err) < 0)
		return -1;
	return found ? 0 : 1;
}
