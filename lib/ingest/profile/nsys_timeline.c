/* nsys_timeline.c — the parts of an Nsight Systems export read event by
 * event (nsys_read.h). NVTX: push/pop ranges (eventType 59) nest per
 * thread, and a range's self time is its duration minus its direct
 * children's (clipped to it); start/end ranges (60) may cross threads and
 * have self = total; each finished range is added to its name's count,
 * self and total, kept in memory by name (a string table: no allocation
 * per range), and reported in name order. (Each device's phases:
 * nsys_phases.c.) */
#include "nsys_read.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "foreign_db.h"
#include "region.h"
#include "trace_strtab.h"

#define NVTX_PUSH_POP 59
#define NVTX_START_END 60

struct open_range {
	int64_t start, end, children;
	uint32_t name; /* in nvtx_ctx.names */
};

/* One name's ranges so far. */
struct nvtx_sum {
	int64_t count, self, total;
};

struct nvtx_ctx {
	struct nsys *n;
	struct open_range *stack;
	size_t depth, cap;
	struct amd_strtab names;
	struct nvtx_sum *sum; /* by name index */
	size_t sum_cap;
};

/* The index of name in c->names, its sums slot made; 0 when out of memory. */
static uint32_t name_index(struct nvtx_ctx *c, const char *name)
{
	uint32_t i = amd_strtab_intern(&c->names, name, strlen(name));
	if (i == 0)
		return 0;
	if (i >= c->sum_cap) {
		size_t old = c->sum_cap;
		if (amd_grow_to(&c->sum, (size_t)i + 1, &c->sum_cap, sizeof *c->sum, 64) < 0)
			return 0;
		memset(c->sum + old, 0, (c->sum_cap - old) * sizeof *c->sum);
	}
	return i;
}

static int finish_range(struct nvtx_ctx *c, uint32_t name, int64_t self, int64_t total,
			struct amd_err *err)
{
	struct nvtx_sum *s = &c->sum[name];
	if (__builtin_add_overflow(s->self, self > 0 ? self : 0, &s->self) ||
	    __builtin_add_overflow(s->total, total, &s->total))
		return amd_fail(err, "%s: integer overflow", c->n->path);
	s->count++;
	return 0;
}

/* Closes the open ranges that end by t (all of them: t = INT64_MAX). */
static int pop_until(struct nvtx_ctx *c, int64_t t, struct amd_err *err)
{
	while (c->depth && c->stack[c->depth - 1].end <= t) {
		struct open_range *r = &c->stack[--c->depth];
		if (finish_range(c, r->name, r->end - r->start - r->children, r->end - r->start,
				 err) < 0)
			return -1;
	}
	return 0;
}

static int push_range(struct nvtx_ctx *c, int64_t start, int64_t end, uint32_t name,
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
	r->name = name;
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
		uint32_t k = name_index(c, name);
		if (k == 0)
			return amd_fail(err, "%s: out of memory", c->n->path);
		if (sqlite3_column_int(q, 4) == NVTX_START_END) {
			if (finish_range(c, k, end - start, end - start, err) < 0)
				return -1;
		} else if (push_range(c, start, end, k, err) < 0) {
			return -1;
		}
	}
	if (rc != SQLITE_DONE)
		return nsys_sql_fail(c->n, err);
	return pop_until(c, INT64_MAX, err);
}

/* A name and its index, sorted in the byte order of the names (as
 * SQLite's GROUP BY gave them). */
struct named {
	const char *s;
	uint32_t i;
};

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct named *)a)->s, ((const struct named *)b)->s);
}

static int nvtx_emit(struct nvtx_ctx *c, struct amd_err *err)
{
	uint32_t n = c->names.n > 0 ? c->names.n - 1 : 0;
	struct named *order = malloc((n + 1) * sizeof *order);
	if (!order)
		return amd_fail(err, "%s: out of memory", c->n->path);
	for (uint32_t i = 0; i < n; i++)
		order[i] = (struct named){c->names.s[i + 1], i + 1};
	qsort(order, n, sizeof *order, by_name);
	int rc = 0;
	for (uint32_t i = 0; i < n && rc == 0; i++) {
		const struct nvtx_sum *s = &c->sum[order[i].i];
		rc = nsys_region(c->n, AMD_REGION_NVTX, order[i].s, -1, s->count, s->self, s->total,
				 -1, err);
	}
	free(order);
	return rc;
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
	struct nvtx_ctx c = {.n = n};
	sqlite3_stmt *q = nsys_prepare(n, sql, err);
	int rc = q ? nvtx_walk(&c, q, err) : -1;
	sqlite3_finalize(q);
	if (rc == 0)
		rc = nvtx_emit(&c, err);
	free(c.stack);
	free(c.sum);
	amd_strtab_free(&c.names);
	return rc;
}
