/* nsys_api.c — an Nsight Systems export's CUDA API calls
 * (CUPTI_ACTIVITY_KIND_RUNTIME) of the process read, summed per nameId in
 * memory (count, sum and least of "end" - start, as SQL's count(*), sum()
 * and min() give them, NULL durations left out of the sum and least) and
 * reported in nameId order under their StringIds names; a nameId with no
 * string is dropped, as the join did. SQLite's GROUP BY sorted a million
 * rows in its sorter for the handful of names. */
#include "nsys_read.h"

#include <stdio.h>
#include <stdlib.h>

#include "buf.h"
#include "hmap.h"
#include "region.h"

struct api_sum {
	int64_t name_id, calls, sum, least;
	int timed; /* a duration seen: least is set */
};

struct api_sums {
	struct api_sum *v;
	size_t n, cap;
	struct amd_hmap index;
};

struct api_probe {
	const struct api_sums *s;
	int64_t id;
};

static int same_id(const void *ctx, uint32_t idx)
{
	const struct api_probe *p = ctx;
	return p->s->v[idx].name_id == p->id;
}

static struct api_sum *slot(struct api_sums *s, int64_t id)
{
	uint32_t h = amd_hash_u64((uint64_t)id);
	struct api_probe p = {s, id};
	int64_t at = amd_hmap_find(&s->index, h, same_id, &p);
	if (at >= 0)
		return &s->v[at];
	if (s->n >= UINT32_MAX || amd_grow(&s->v, s->n, &s->cap, sizeof *s->v, 64) < 0 ||
	    amd_hmap_put(&s->index, h, (uint32_t)s->n) < 0)
		return NULL;
	s->v[s->n] = (struct api_sum){.name_id = id};
	return &s->v[s->n++];
}

static int add_call(const struct nsys *n, struct api_sum *a, sqlite3_stmt *q,
		    struct amd_err *err)
{
	a->calls++;
	if (sqlite3_column_type(q, 1) == SQLITE_NULL)
		return 0;
	int64_t d = sqlite3_column_int64(q, 1);
	if (__builtin_add_overflow(a->sum, d, &a->sum))
		return amd_fail(err, "%s: integer overflow", n->path);
	if (!a->timed || d < a->least)
		a->least = d;
	a->timed = 1;
	return 0;
}

static int sum_calls(const struct nsys *n, struct api_sums *s, struct amd_err *err)
{
	char sql[256], cond[64];
	snprintf(sql, sizeof sql, "SELECT nameId, \"end\" - start FROM CUPTI_ACTIVITY_KIND_RUNTIME"
		 " WHERE nameId IS NOT NULL AND %s", nsys_proc_cond(n, "globalTid", cond, sizeof cond));
	sqlite3_stmt *q = nsys_prepare(n, sql, err);
	if (!q)
		return -1;
	int rc;
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		struct api_sum *a = slot(s, sqlite3_column_int64(q, 0));
		if (!a) {
			sqlite3_finalize(q);
			return amd_fail(err, "%s: out of memory", n->path);
		}
		if (add_call(n, a, q, err) < 0) {
			sqlite3_finalize(q);
			return -1;
		}
	}
	sqlite3_finalize(q);
	return rc == SQLITE_DONE ? 0 : nsys_sql_fail(n, err);
}

static int by_name_id(const void *pa, const void *pb)
{
	const struct api_sum *a = pa, *b = pb;
	return (a->name_id > b->name_id) - (a->name_id < b->name_id);
}

static int report(const struct nsys *n, const struct api_sums *s, struct amd_err *err)
{
	sqlite3_stmt *q = nsys_prepare(n, "SELECT value FROM StringIds WHERE id = ?1", err);
	if (!q)
		return -1;
	int rc = 0;
	for (size_t i = 0; i < s->n && rc == 0; i++) {
		const struct api_sum *a = &s->v[i];
		sqlite3_bind_int64(q, 1, a->name_id);
		int step = sqlite3_step(q);
		const char *text = step == SQLITE_ROW ? (const char *)sqlite3_column_text(q, 0) : NULL;
		if (step != SQLITE_ROW && step != SQLITE_DONE)
			rc = nsys_sql_fail(n, err);
		else if (step == SQLITE_ROW && a->timed && a->least < 0)
			rc = amd_fail(err, "%s: a %s row of '%s' ends before it starts", n->path,
				      AMD_REGION_API, text ? text : "?");
		else if (step == SQLITE_ROW)
			rc = nsys_region(n, AMD_REGION_API, text && *text ? text : "(unnamed)", -1,
					 a->calls, a->sum, a->sum, -1, err);
		sqlite3_reset(q);
	}
	sqlite3_finalize(q);
	return rc;
}

int nsys_api_calls(struct nsys *n, struct amd_err *err)
{
	struct api_sums s = {0};
	int rc = sum_calls(n, &s, err);
	if (rc == 0 && s.n > 0)
		qsort(s.v, s.n, sizeof *s.v, by_name_id);
	if (rc == 0)
		rc = report(n, &s, err);
	free(s.v);
	amd_hmap_free(&s.index);
	return rc;
}
