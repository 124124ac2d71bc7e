/* nsys_timeline.c — the parts of an Nsight Systems export read event by
 * event (nsys_read.h). NVTX: push/pop ranges (eventType 59) nest per
 * thread, and a range's self time is its duration minus its direct
 * children's (clipped to it); start/end ranges (60) may cross threads and
 * have self = total; each finished range is added to its name's count,
 * self and total, kept in memory by name (a string table: no allocation
 * per range), and reported in name order. The ranges are sorted in
 * memory, not by SQLite. (Each device's phases:
 * nsys_phases.c.) */
#include "nsys_read.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "buf.h"
#include "foreign_db.h"
#include "hmap.h"
#include "huge_map.h"
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

/* The ranges are read in table order and sorted here (by event type,
 * thread, start, end descending, then table order): SQLite's sorter,
 * carrying each row's name text, spilled to temporary files and was a
 * third of the reader's time. Names are interned per textId. */
static const char nvtx_rows[] =
	"SELECT n.globalTid, n.start, n.\"end\", n.text, %s, n.eventType"
	" FROM NVTX_EVENTS n WHERE n.\"end\" IS NOT NULL AND n.eventType IN (59, 60) AND %s";

struct nvtx_row {
	int64_t tid, start, end;
	uint32_t name, seq; /* seq: the row's place in table order */
	int type;
};

static int row_cmp(const void *pa, const void *pb)
{
	const struct nvtx_row *a = pa, *b = pb;
	if (a->type != b->type)
		return a->type < b->type ? -1 : 1;
	if (a->tid != b->tid)
		return a->tid < b->tid ? -1 : 1;
	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	if (a->end != b->end)
		return a->end > b->end ? -1 : 1;
	return (a->seq > b->seq) - (a->seq < b->seq);
}

struct nvtx_rows {
	struct nvtx_row *v;
	size_t n, cap;
	struct amd_hmap by_text_id; /* text ids seen: index into text_ids */
	struct {
		int64_t id;
		uint32_t name;
	} *text_ids;
	size_t n_ids, cap_ids;
	sqlite3_stmt *string_q;
};

/* Whether the rows already are in row_cmp's order (a total order: seq
 * breaks ties), as an export's rows of one thread in start order are:
 * then the sort (a merge sort with a buffer as large as the rows, 7% of
 * the reader's CPU) is not needed. */
static int in_order(const struct nvtx_rows *r)
{
	for (size_t i = 1; i < r->n; i++)
		if (row_cmp(&r->v[i - 1], &r->v[i]) > 0)
			return 0;
	return 1;
}

static int text_id_eq(const void *ctx, uint32_t idx)
{
	const struct nvtx_rows *r = ((const void *const *)ctx)[0];
	return r->text_ids[idx].id == *(const int64_t *)((const void *const *)ctx)[1];
}

/* The name of StringIds row id ('(unnamed)' when none), interned once per id. */
static uint32_t text_id_name(struct nvtx_ctx *c, struct nvtx_rows *r, int64_t id,
			     struct amd_err *err)
{
	uint32_t h = amd_hash_u64((uint64_t)id);
	const void *ctx[2] = {r, &id};
	int64_t at = amd_hmap_find(&r->by_text_id, h, text_id_eq, ctx);
	if (at >= 0)
		return r->text_ids[at].name;
	if (!r->string_q && !(r->string_q = nsys_prepare(c->n,
				"SELECT value FROM StringIds WHERE id = ?1", err)))
		return 0;
	sqlite3_bind_int64(r->string_q, 1, id);
	int rc = sqlite3_step(r->string_q);
	const char *s = rc == SQLITE_ROW ? (const char *)sqlite3_column_text(r->string_q, 0) : NULL;
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		sqlite3_reset(r->string_q);
		nsys_sql_fail(c->n, err);
		return 0;
	}
	uint32_t name = name_index(c, s ? s : "(unnamed)");
	sqlite3_reset(r->string_q);
	if (!name || amd_grow(&r->text_ids, r->n_ids, &r->cap_ids, sizeof *r->text_ids, 64) < 0 ||
	    amd_hmap_put(&r->by_text_id, h, (uint32_t)r->n_ids) < 0) {
		amd_fail(err, "%s: out of memory", c->n->path);
		return 0;
	}
	r->text_ids[r->n_ids].id = id;
	r->text_ids[r->n_ids++].name = name;
	return name;
}

/* A row's name: its own text, else its textId's string, else '(unnamed)'. */
static uint32_t row_name(struct nvtx_ctx *c, struct nvtx_rows *r, sqlite3_stmt *q,
			 struct amd_err *err)
{
	if (sqlite3_column_type(q, 3) != SQLITE_NULL) {
		const char *s = (const char *)sqlite3_column_text(q, 3);
		uint32_t name = s ? name_index(c, s) : 0;
		if (!name)
			amd_fail(err, "%s: out of memory", c->n->path);
		return name;
	}
	if (sqlite3_column_type(q, 4) != SQLITE_NULL)
		return text_id_name(c, r, sqlite3_column_int64(q, 4), err);
	uint32_t name = name_index(c, "(unnamed)");
	if (!name)
		amd_fail(err, "%s: out of memory", c->n->path);
	return name;
}

static int nvtx_read(struct nvtx_ctx *c, struct nvtx_rows *r, sqlite3_stmt *q,
		     struct amd_err *err)
{
	int rc;
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		struct nvtx_row w = {.tid = sqlite3_column_int64(q, 0),
				     .start = sqlite3_column_int64(q, 1),
				     .end = sqlite3_column_int64(q, 2),
				     .type = sqlite3_column_int(q, 5)};
		if (!(w.name = row_name(c, r, q, err)))
			return -1;
		if (w.end < w.start)
			return amd_fail(err, "%s: an NVTX range '%s' ends before it starts",
					c->n->path, c->names.s[w.name]);
		size_t cap = r->cap;
		if (r->n >= UINT32_MAX || amd_grow(&r->v, r->n, &r->cap, sizeof *r->v, 1024) < 0)
			return amd_fail(err, "%s: out of memory", c->n->path);
		if (r->cap != cap) /* tens of MB: faulted in 2 MB pages, not 4 KB */
			amd_huge_hint(r->v, r->cap * sizeof *r->v);
		w.seq = (uint32_t)r->n;
		r->v[r->n++] = w;
	}
	return rc == SQLITE_DONE ? 0 : nsys_sql_fail(c->n, err);
}

/* Room for the rows up front when NVTX_EVENTS' largest rowid says how
 * many there are (an export numbers them 1..n): growing by doubling
 * copied the array and faulted its pages in twice. Bounded by the
 * file's size (a row takes more than 24 bytes of it); a hint only. */
static void nvtx_reserve(struct nsys *n, struct nvtx_rows *r)
{
	sqlite3_stmt *q;
	struct stat st;
	if (stat(n->path, &st) < 0 || sqlite3_prepare_v2(n->db, "SELECT max(rowid) FROM NVTX_EVENTS",
							 -1, &q, NULL) != SQLITE_OK)
		return;
	int64_t rows = sqlite3_step(q) == SQLITE_ROW ? sqlite3_column_int64(q, 0) : 0;
	sqlite3_finalize(q);
	if (rows > st.st_size / 24)
		rows = st.st_size / 24;
	if (rows <= 1024 || rows >= UINT32_MAX ||
	    amd_grow_to(&r->v, (size_t)rows, &r->cap, sizeof *r->v, (size_t)rows) < 0)
		return;
	amd_huge_hint(r->v, r->cap * sizeof *r->v);
}

static int nvtx_walk(struct nvtx_ctx *c, const struct nvtx_rows *r, struct amd_err *err)
{
	int64_t tid = 0;
	for (size_t i = 0; i < r->n; i++) {
		const struct nvtx_row *w = &r->v[i];
		if ((w->tid != tid && pop_until(c, INT64_MAX, err) < 0))
			return -1;
		tid = w->tid;
		if (w->type == NVTX_START_END) {
			if (finish_range(c, w->name, w->end - w->start, w->end - w->start, err) < 0)
				return -1;
		} else if (push_range(c, w->start, w->end, w->name, err) < 0) {
			return -1;
		}
	}
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
	snprintf(sql, sizeof sql, nvtx_rows, text_id ? "n.textId" : "NULL",
		 nsys_proc_cond(n, "n.globalTid", cond, sizeof cond));
	struct nvtx_ctx c = {.n = n};
	struct nvtx_rows r = {0};
	sqlite3_stmt *q = nsys_prepare(n, sql, err);
	if (q)
		nvtx_reserve(n, &r);
	int rc = q ? nvtx_read(&c, &r, q, err) : -1;
	sqlite3_finalize(q);
	sqlite3_finalize(r.string_q);
	if (rc == 0 && r.n > 0 && !in_order(&r))
		qsort(r.v, r.n, sizeof *r.v, row_cmp);
	if (rc == 0)
		rc = nvtx_walk(&c, &r, err);
	if (rc == 0)
		rc = nvtx_emit(&c, err);
	free(r.v);
	free(r.text_ids);
	amd_hmap_free(&r.by_text_id);
	free(c.stack);
	free(c.sum);
	amd_strtab_free(&c.names);
	return rc;
}
