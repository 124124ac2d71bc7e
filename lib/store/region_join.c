/* region_join.c — region rows joined to their traces and ordered in
 * memory for amd_store_region_times (region_join.h). */
#include "region_join.h"

#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "huge_map.h"

void rj_init(struct rj *j)
{
	memset(j, 0, sizeof *j);
}

void rj_free(struct rj *j)
{
	for (size_t i = 0; i < j->ntr; i++)
		free(j->tr[i].strategy);
	free(j->tr);
	free(j->by_key);
	free(j->rows);
	for (size_t i = 0; i < j->nnames; i++)
		free(j->names[i].s);
	free(j->names);
	amd_hmap_free(&j->names_ix);
}

static const struct rj *sort_j; /* qsort has no context argument */

static int key_cmp(const struct rj_trace *t, int64_t src, int null_rank, int rank)
{
	if (t->src != src)
		return t->src < src ? -1 : 1;
	if (t->null_rank != null_rank)
		return t->null_rank < null_rank ? -1 : 1;
	if (null_rank || t->rank == rank)
		return 0;
	return t->rank < rank ? -1 : 1;
}

static int cmp_key(const void *a, const void *b)
{
	const struct rj_trace *y = &sort_j->tr[*(const size_t *)b];
	return key_cmp(&sort_j->tr[*(const size_t *)a], y->src, y->null_rank, y->rank);
}

#define CMP(x, y) if ((x) != (y)) return (x) < (y) ? -1 : 1

/* The rows' order: strategy, n, repeat, run, trace. */
static int cmp_order(const void *a, const void *b)
{
	const struct rj_trace *x = &sort_j->tr[*(const size_t *)a];
	const struct rj_trace *y = &sort_j->tr[*(const size_t *)b];
	int c = strcmp(x->strategy, y->strategy);
	if (c)
		return c;
	CMP(x->n, y->n);
	CMP(x->rep, y->rep);
	CMP(x->rid, y->rid);
	CMP(x->tid, y->tid);
	return 0;
}

int rj_index(struct rj *j)
{
	size_t *ord = malloc((j->ntr ? j->ntr : 1) * sizeof *ord);
	j->by_key = malloc((j->ntr ? j->ntr : 1) * sizeof *j->by_key);
	if (!ord || !j->by_key) {
		free(ord);
		return -1;
	}
	for (size_t i = 0; i < j->ntr; i++)
		ord[i] = j->by_key[i] = i;
	sort_j = j;
	if (j->ntr > 1) {
		qsort(j->by_key, j->ntr, sizeof *j->by_key, cmp_key);
		qsort(ord, j->ntr, sizeof *ord, cmp_order);
	}
	for (size_t i = 0; i < j->ntr; i++)
		j->tr[ord[i]].order = i;
	free(ord);
	return 0;
}

/* The traces of key (src, null_rank, rank): by_key[lo..hi). */
static void find(struct rj *j, int64_t src, int null_rank, int rank, size_t *lo, size_t *hi)
{
	if (j->has_last && j->last_src == src && j->last_null == null_rank
	    && (null_rank || j->last_rank == rank)) {
		*lo = j->last_lo;
		*hi = j->last_hi;
		return;
	}
	size_t a = 0, b = j->ntr;
	while (a < b) {
		size_t m = (a + b) / 2;
		if (key_cmp(&j->tr[j->by_key[m]], src, null_rank, rank) < 0)
			a = m + 1;
		else
			b = m;
	}
	*lo = a;
	while (b < j->ntr && key_cmp(&j->tr[j->by_key[b]], src, null_rank, rank) == 0)
		b++;
	*hi = b > a ? b : a;
	j->has_last = 1;
	j->last_src = src;
	j->last_null = null_rank;
	j->last_rank = rank;
	j->last_lo = *lo;
	j->last_hi = *hi;
}

static int same_id(const void *ctx, uint32_t idx)
{
	const int64_t *key = ctx;
	return key[1] == ((const struct rj_name *)(uintptr_t)key[0])[idx].id;
}

/* The index of dict id in names, added when new; -1 out of memory. */
static int64_t intern(struct rj *j, int64_t id)
{
	int64_t key[2] = { (int64_t)(uintptr_t)j->names, id };
	uint32_t h = amd_hash_u64((uint64_t)id);
	int64_t at = amd_hmap_find(&j->names_ix, h, same_id, key);
	if (at >= 0)
		return at;
	if (amd_grow(&j->names, j->nnames, &j->cap_names, sizeof *j->names, 64) < 0
	    || amd_hmap_put(&j->names_ix, h, (uint32_t)j->nnames) < 0)
		return -1;
	j->names[j->nnames] = (struct rj_name){ id, NULL };
	return (int64_t)j->nnames++;
}

int rj_reserve(struct rj *j, size_t rows)
{
	if (rows && amd_grow_to(&j->rows, rows, &j->cap, sizeof *j->rows, 4096) < 0)
		return -1;
	amd_huge_hint(j->rows, j->cap * sizeof *j->rows);
	return 0;
}

int rj_add(struct rj *j, int64_t src, int null_rank, int rank, const struct rj_row *r)
{
	size_t lo, hi;
	find(j, src, null_rank, rank, &lo, &hi);
	if (lo == hi)
		return 0;
	int64_t name = intern(j, r->name_id), kind = intern(j, r->kind_id);
	if (name < 0 || kind < 0)
		return -1;
	for (size_t i = lo; i < hi; i++) {
		size_t cap = j->cap;
		if (amd_grow(&j->rows, j->nrows, &j->cap, sizeof *j->rows, 4096) < 0)
			return -1;
		if (j->cap != cap) /* millions of rows in a big sweep: huge pages */
			amd_huge_hint(j->rows, j->cap * sizeof *j->rows);
		struct rj_row *o = &j->rows[j->nrows++];
		*o = *r;
		o->name = (uint32_t)name;
		o->kind = (uint32_t)kind;
		o->trace = j->by_key[i];
	}
	return 0;
}

/* A trace's collectives of one name: by trace, then name. */
static int cmp_coll(const void *a, const void *b)
{
	const struct rj_row *x = *(const struct rj_row *const *)a;
	const struct rj_row *y = *(const struct rj_row *const *)b;
	CMP(x->trace, y->trace);
	CMP(x->name_id, y->name_id);
	return 0;
}

/* The collective rows, sorted by (trace, name). */
static int collectives(const struct rj *j, const struct rj_row ***out, size_t *n)
{
	size_t k = 0;
	for (size_t i = 0; i < j->nrows; i++)
		k += j->coll_kind && j->rows[i].kind_id == j->coll_kind;
	*out = malloc((k ? k : 1) * sizeof **out);
	if (!*out)
		return -1;
	*n = 0;
	for (size_t i = 0; i < j->nrows; i++)
		if (j->coll_kind && j->rows[i].kind_id == j->coll_kind)
			(*out)[(*n)++] = &j->rows[i];
	if (*n > 1)
		qsort(*out, *n, sizeof **out, cmp_coll);
	return 0;
}

/* 1 when an operator row r is hidden by its trace's collective of that name. */
static int hidden(const struct rj_row *r, const struct rj_row *const *coll, size_t nc)
{
	const struct rj_row *key = r;
	return nc && bsearch(&key, coll, nc, sizeof *coll, cmp_coll) != NULL;
}

/* The output's strings, each once, after its rows in the same block. */
struct pool {
	char *at;
	const char **name;     /* names[i].s's copy */
	const char **strategy; /* trace i's strategy's copy */
	const char *coll, *step, *step_name;
};

static const char *put(struct pool *p, const char *s)
{
	size_t len = strlen(s) + 1;
	char *o = memcpy(p->at, s, len);
	p->at += len;
	return o;
}

/* Bytes of every string the pool holds. */
static size_t pool_bytes(const struct rj *j)
{
	size_t b = sizeof "collective" + sizeof "step" + sizeof AMD_REGION_STEP;
	for (size_t i = 0; i < j->nnames; i++)
		b += strlen(j->names[i].s ? j->names[i].s : "") + 1;
	for (size_t i = 0; i < j->ntr; i++)
		b += strlen(j->tr[i].strategy) + 1;
	return b;
}

static void pool_fill(const struct rj *j, struct pool *p)
{
	for (size_t i = 0; i < j->nnames; i++)
		p->name[i] = put(p, j->names[i].s ? j->names[i].s : "");
	for (size_t i = 0; i < j->ntr; i++)
		p->strategy[i] = i && strcmp(j->tr[i].strategy, j->tr[i - 1].strategy) == 0
			? p->strategy[i - 1] : put(p, j->tr[i].strategy);
	p->coll = put(p, "collective");
	p->step = put(p, "step");
	p->step_name = put(p, AMD_REGION_STEP);
}

/* o for trace t (index ti): region name and kind, seconds per step. */
static void fill(struct amd_region_time *o, const struct rj *j, size_t ti, const struct pool *p,
		 const char *name, const char *kind, int64_t ns)
{
	const struct rj_trace *t = &j->tr[ti];
	*o = (struct amd_region_time){
		.name = name, .kind = kind, .strategy = p->strategy[ti],
		.n = t->n, .repeat = t->rep, .rank = t->rank, .trace_id = t->tid, .run_id = t->rid,
		.seconds = (double)ns * 1e-9 / (double)(t->nsteps > 1 ? t->nsteps : 1),
	};
}

/* 1 when row r is an operator row that counts (not a collective, not hidden). */
static int counts(const struct rj *j, const struct rj_row *r, const struct rj_row *const *coll,
		  size_t nc)
{
	return r->has_self && !(j->coll_kind && r->kind_id == j->coll_kind) && !hidden(r, coll, nc);
}

/* The end of the group of collectives starting at a; *any when one has a time. */
static size_t coll_group(const struct rj_row *const *coll, size_t nc, size_t a, int64_t *sum,
			 int *any)
{
	size_t b = a;
	*sum = 0;
	*any = 0;
	for (; b < nc && cmp_coll(&coll[a], &coll[b]) == 0; b++)
		if (coll[b]->has_self) {
			*sum += coll[b]->self_ns;
			*any = 1;
		}
	return b;
}

/* Emits into out[at[order]++] (out NULL: counts into at[order]):
 * operator rows, summed collectives, steps. */
static void emit_rows(const struct rj *j, const struct rj_row *const *coll, size_t nc,
		      size_t *at, struct amd_region_time *out, const struct pool *p)
{
	for (size_t i = 0; i < j->nrows; i++) {
		const struct rj_row *r = &j->rows[i];
		if (!counts(j, r, coll, nc))
			continue;
		size_t k = at[j->tr[r->trace].order]++;
		if (out)
			fill(&out[k], j, r->trace, p, p->name[r->name], p->name[r->kind], r->self_ns);
	}
	for (size_t a = 0, b; a < nc; a = b) {
		int64_t sum;
		int any;
		b = coll_group(coll, nc, a, &sum, &any);
		if (!any)
			continue;
		size_t k = at[j->tr[coll[a]->trace].order]++;
		if (out)
			fill(&out[k], j, coll[a]->trace, p, p->name[coll[a]->name], p->coll, sum);
	}
	for (size_t i = 0; i < j->ntr; i++) {
		if (j->tr[i].nsteps <= 0)
			continue;
		size_t k = at[j->tr[i].order]++;
		if (out)
			fill(&out[k], j, i, p, p->step_name, p->step, j->tr[i].step_ns);
	}
}

/* The output block: rows[0..total), then the pool's strings. */
static int emit(const struct rj *j, const struct rj_row *const *coll, size_t nc, size_t *at,
		size_t total, struct amd_region_time **out)
{
	struct pool p = { NULL, calloc(j->nnames + 1, sizeof *p.name),
			  calloc(j->ntr + 1, sizeof *p.strategy), NULL, NULL, NULL };
	size_t rows = total * sizeof **out;
	size_t bytes = rows + pool_bytes(j);
	*out = p.name && p.strategy ? malloc(bytes) : NULL;
	if (*out) {
		amd_huge_hint(*out, bytes);
		p.at = (char *)*out + rows;
		pool_fill(j, &p);
		emit_rows(j, coll, nc, at, *out, &p);
	}
	free(p.name);
	free(p.strategy);
	return *out ? 0 : -1;
}

void amd_region_times_free(struct amd_region_time *v)
{
	free(v);
}

int rj_emit(struct rj *j, struct amd_region_time **out, size_t *n)
{
	*out = NULL;
	*n = 0;
	const struct rj_row **coll = NULL;
	size_t nc = 0, total = 0;
	size_t *at = calloc(j->ntr + 1, sizeof *at);
	if (!at || collectives(j, &coll, &nc) < 0) {
		free(at);
		return -1;
	}
	emit_rows(j, coll, nc, at, NULL, NULL);
	for (size_t i = 0; i < j->ntr; i++) {
		size_t c = at[i];
		at[i] = total;
		total += c;
	}
	int rc = emit(j, coll, nc, at, total, out);
	free(coll);
	free(at);
	if (rc == 0)
		*n = total;
	return rc;
}
