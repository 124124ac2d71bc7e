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
	free(j->name_rank);
	amd_hmap_free(&j->names_ix);
	free(j->pairs);
	amd_hmap_free(&j->pairs_ix);
	free(j->groups);
	amd_hmap_free(&j->groups_ix);
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

/* The rows' order: strategy, n, repeat, then the order the traces were
 * added in (region_times.c reads them by run ext_id, file path and rank:
 * not by row id, which depends on the order the files were ingested). */
static int cmp_order(const void *a, const void *b)
{
	size_t i = *(const size_t *)a, k = *(const size_t *)b;
	const struct rj_trace *x = &sort_j->tr[i], *y = &sort_j->tr[k];
	int c = strcmp(x->strategy, y->strategy);
	if (c)
		return c;
	CMP(x->n, y->n);
	CMP(x->rep, y->rep);
	CMP(i, k);
	return 0;
}

int rj_index(struct rj *j)
{
	if (j->ntr >= (size_t)1 << 29) /* rj_row's trace */
		return -1;
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
	return key[1] == ((const struct amd_dict_text *)(uintptr_t)key[0])[idx].id;
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
	j->names[j->nnames] = (struct amd_dict_text){ id, NULL };
	return (int64_t)j->nnames++;
}

static int same_group(const void *ctx, uint32_t idx)
{
	const struct rj_group *const *key = ctx;
	const struct rj_group *g = &key[0][idx];
	return g->kind == key[1]->kind && g->name == key[1]->name;
}

int64_t rj_group(struct rj *j, uint32_t kind, uint32_t name)
{
	struct rj_group want = { kind, name };
	const struct rj_group *key[2] = { j->groups, &want };
	uint32_t h = amd_hash_u64((uint64_t)kind << 32 | name);
	int64_t at = amd_hmap_find(&j->groups_ix, h, same_group, key);
	if (at >= 0)
		return at;
	if (amd_grow(&j->groups, j->ngroups, &j->cap_groups, sizeof *j->groups, 64) < 0
	    || amd_hmap_put(&j->groups_ix, h, (uint32_t)j->ngroups) < 0)
		return -1;
	j->groups[j->ngroups] = want;
	return (int64_t)j->ngroups++;
}

int rj_reserve(struct rj *j, size_t rows)
{
	if (rows && amd_grow_to(&j->rows, rows, &j->cap, sizeof *j->rows, 4096) < 0)
		return -1;
	amd_huge_hint(j->rows, j->cap * sizeof *j->rows);
	return 0;
}

static int same_pair(const void *ctx, uint32_t idx)
{
	const struct rj_pair *const *key = ctx;
	const struct rj_pair *p = &key[0][idx];
	return p->name_id == key[1]->name_id && p->kind_id == key[1]->kind_id;
}

/* The index in pairs of r's (name, kind), added when new; -1 out of
 * memory. */
static int64_t pair_of(struct rj *j, const struct rj_in *r)
{
	const struct rj_pair *l = j->npairs ? &j->pairs[j->last_pair] : NULL;
	if (l && l->name_id == r->name_id && l->kind_id == r->kind_id)
		return (int64_t)j->last_pair;
	struct rj_pair want = { r->name_id, r->kind_id, 0, 0, 0 };
	const struct rj_pair *key[2] = { j->pairs, &want };
	uint32_t h = amd_hash_u64((uint64_t)r->name_id * 0x9e3779b97f4a7c15ULL ^ (uint64_t)r->kind_id);
	int64_t at = amd_hmap_find(&j->pairs_ix, h, same_pair, key);
	if (at < 0) {
		int64_t name = intern(j, r->name_id), kind = intern(j, r->kind_id), group = 0;
		if (name >= 0 && kind >= 0 && !(j->coll_kind && r->kind_id == j->coll_kind))
			group = rj_group(j, RJ_KIND_DICT + (uint32_t)kind, (uint32_t)name);
		if (name < 0 || kind < 0 || group < 0
		    || amd_grow(&j->pairs, j->npairs, &j->cap_pairs, sizeof *j->pairs, 64) < 0
		    || amd_hmap_put(&j->pairs_ix, h, (uint32_t)j->npairs) < 0)
			return -1;
		want.name = (uint32_t)name;
		want.kind = (uint32_t)kind;
		want.group = (uint32_t)group;
		j->pairs[j->npairs] = want;
		at = (int64_t)j->npairs++;
	}
	j->last_pair = (size_t)at;
	return at;
}

int rj_add(struct rj *j, int64_t src, int null_rank, int rank, const struct rj_in *r)
{
	size_t lo, hi;
	find(j, src, null_rank, rank, &lo, &hi);
	if (lo == hi)
		return 0;
	int64_t at = pair_of(j, r);
	if (at < 0)
		return -1;
	const struct rj_pair *p = &j->pairs[at];
	for (size_t i = lo; i < hi; i++) {
		size_t cap = j->cap;
		if (amd_grow(&j->rows, j->nrows, &j->cap, sizeof *j->rows, 4096) < 0)
			return -1;
		if (j->cap != cap) /* millions of rows in a big sweep: huge pages */
			amd_huge_hint(j->rows, j->cap * sizeof *j->rows);
		j->rows[j->nrows++] = (struct rj_row){
			.self_ns = r->self_ns, .pair = (uint32_t)at,
			.trace = (unsigned)j->by_key[i], .has_self = r->has_self != 0,
			.coll = j->coll_kind && p->kind_id == j->coll_kind,
		};
	}
	return 0;
}

/* rj_cmp_coll's rows' pairs and their names' places in byte order:
 * qsort and bsearch have no context argument; one per thread, so that
 * two walks on two threads (a library caller's) do not meet here. */
static _Thread_local const struct rj_pair *coll_pairs;
static _Thread_local const uint32_t *coll_rank;
static _Thread_local const struct amd_dict_text *rank_names;

static int cmp_name(const void *a, const void *b)
{
	const char *x = rank_names[*(const uint32_t *)a].s, *y = rank_names[*(const uint32_t *)b].s;
	return strcmp(x ? x : "", y ? y : "");
}

int rj_coll_of(struct rj *j)
{
	uint32_t *by = malloc((j->nnames ? j->nnames : 1) * sizeof *by);
	free(j->name_rank);
	j->name_rank = malloc((j->nnames ? j->nnames : 1) * sizeof *j->name_rank);
	if (!by || !j->name_rank) {
		free(by);
		return -1;
	}
	for (size_t i = 0; i < j->nnames; i++)
		by[i] = (uint32_t)i;
	rank_names = j->names;
	if (j->nnames > 1)
		qsort(by, j->nnames, sizeof *by, cmp_name);
	for (size_t i = 0; i < j->nnames; i++)
		j->name_rank[by[i]] = (uint32_t)i;
	free(by);
	coll_pairs = j->pairs;
	coll_rank = j->name_rank;
	return 0;
}

/* A trace's collectives of one name: by trace, then name (its text: the
 * dict's ids depend on the order the files were ingested in). */
int rj_cmp_coll(const void *a, const void *b)
{
	const struct rj_row *x = *(const struct rj_row *const *)a;
	const struct rj_row *y = *(const struct rj_row *const *)b;
	CMP(x->trace, y->trace);
	CMP(coll_rank[coll_pairs[x->pair].name], coll_rank[coll_pairs[y->pair].name]);
	return 0;
}
