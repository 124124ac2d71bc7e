/* nsys_timeline.c — the parts of an Nsight Systems export read event by
 * event (nsys_read.h). NVTX: push/pop ranges (eventType 59) nest per
 * thread, and a range's self time is its duration minus its direct
 * children's (clipped to it); start/end ranges (60) may cross threads and
 * have self = total; each finished range goes into a temporary table
 * that SQLite sums per name. (Each device's phases: nsys_phases.c.) */
#include "nsys_read.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "foreign_db.h"
#include "region.h"

#define NVTX_PUSH_POP 59
#define NVTX_START_END 60

struct open_range {
	int64_t start, end, children;
	char *name;
};

struct nvtx_ctx {
	struct nsys *n;
	sqlite3_stmt *ins;
	struct open_range *stack;
	size_t depth, cap;
};

static int finish_range(struct nvtx_ctx *c, const char *name, int64_t self, int64_t total,
			struct amd_err *err)
{
	sqlite3_reset(c->ins);
	sqlite3_bind_text(c->ins, 1, name, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(c->ins, 2, self > 0 ? self : 0);
	sqlite3_bind_int64(c->ins, 3, total);
	return sqlite3_step(c->ins) == SQLITE_DONE ? 0 : nsys_sql_fail(c->n, err);
}

/* Closes the open ranges that end by t (all of them: t = INT64_MAX). */
static int pop_until(struct nvtx_ctx *c, int64_t t, struct amd_err *err)
{
	while (c->depth && c->stack[c->depth - 1].end <= t) {
		struct open_range *r = &c->stack[--c->depth];
		int rc = finish_range(c, r->name, r->end - r->start - r->children,
				      r->end - r->start, err);
		free(r->name);
		if (rc < 0)
			return -1;
	}
	return 0;
}

static int push_range(struct nvtx_ctx *c, int64_t start, int64_t end, const char *name,
		      struct amd_err *err)
{
	if (pop_until(c, start, err) < 0)
		return -1;
	if (c->depth) {
		struct open_range *p = &c->stack[c->depth - 1];
		p->children += (end < p->end ? end : p->end) - start;
	}
	if (amd_grow(&c->stack, c->depth, &c->cap, sizeof *c->stack, 16) < 0)
		return amd_fail(err, "%s: out of memory", c->n->path);
	struct open_range *r = &c->stack[c->depth];
	r->start = start;
	r->end = end;
	r->children = 0;
	if (!(r->name = strdup(name)))
		return amd_fail(err, "%s: out of memory", c->n->path);
	c->depth++;
	return 0;
}

static const char nvtx_rows[] =
	"SELECT n.globalTid, n.start, n.\"end\", coalesce(n.text, %s, '(unnamed)'), n.eventType"
	" FROM NVTX_EVENTS n %s WHERE n.\"end\" IS NOT NULL AND n.eventType IN (59, 60) AND %s"
	" ORDER BY n.eventType, n.globalTid, n.start, n.\"end\" DESC";

static int nvtx_walk(struct nvtx_ctx *c, sqlite3_stmt *q, struct amd_err *err)
{
	int rc;
	int64_t tid = 0;
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		int64_t t = sqlite3_column_int64(q, 0), start = sqlite3_column_int64(q, 1);
		int64_t end = sqlite3_column_int64(q, 2);
		const char *name = (const char *)sqlite3_column_text(q, 3);
		if (!name)
			return amd_fail(err, "%s: out of memory", c->n->path);
		if (end < start)
			return amd_fail(err, "%s: an NVTX range '%s' ends before it starts",
					c->n->path, name);
		if ((t != tid && pop_until(c, INT64_MAX, err) < 0))
			return -1;
		tid = t;
		if (sqlite3_column_int(q, 4) == NVTX_START_END) {
			if (finish_range(c, name, end - start, end - start, err) < 0)
				return -1;
		} else if (push_range(c, start, end, name, err) < 0) {
			return -1;
		}
	}
	if (rc != SQLITE_DONE)
		return nsys_sql_fail(c->n, err);
	return pop_until(c, INT64_MAX, err);
}

static int nvtx_emit(struct nsys *n, struct amd_err *err)
{
	sqlite3_stmt *q = nsys_prepare(n, "SELECT name, count(*), sum(self), sum(total)"
				       " FROM temp.amd_nvtx GROUP BY name", err);
	if (!q)
		return -1;
	int rc;
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(q, 0);
		if (!name || nsys_region(n, AMD_REGION_NVTX, name, -1, sqlite3_column_int64(q, 1),
					 sqlite3_column_int64(q, 2), sqlite3_column_int64(q, 3),
					 -1, err) < 0) {
			sqlite3_finalize(q);
			return name ? -1 : amd_fail(err, "%s: out of memory", n->path);
		}
	}
	sqlite3_finalize(q);
	return rc == SQLITE_DONE ? 0 : nsys_sql_fail(n, err);
}

int nsys_nvtx(struct nsys *n, struct amd_err *err)
{
	int text_id = amd_foreign_has_column(n->db, "NVTX_EVENTS", "textId");
	if (text_id < 0)
		return nsys_sql_fail(n, err);
	char sql[640], cond[64];
	snprintf(sql, sizeof sql, nvtx_rows, text_id ? "s.value" : "NULL",
		 text_id ? "LEFT JOIN StringIds s ON s.id = n.textId" : "",
		 nsys_proc_cond(n, "n.globalTid", cond, sizeof cond));
	if (sqlite3_exec(n->db, "CREATE TEMP TABLE IF NOT EXISTS amd_nvtx(name TEXT, self INTEGER,"
			 " total INTEGER); DELETE FROM temp.amd_nvtx", NULL, NULL, NULL) != SQLITE_OK)
		return nsys_sql_fail(n, err);
	struct nvtx_ctx c = {.n = n};
	sqlite3_stmt *q = nsys_prepare(n, sql, err);
	c.ins = q ? nsys_prepare(n, "INSERT INTO temp.amd_nvtx VALUES(?1, ?2, ?3)", err) : NULL;
	int rc = c.ins ? nvtx_walk(&c, q, err) : -1;
	while (c.depth)
		free(c.stack[--c.depth].name);
	free(c.stack);
	sqlite3_finalize(c.ins);
	sqlite3_finalize(q);
	return rc < 0 ? -1 : nvtx_emit(n, err);
}
