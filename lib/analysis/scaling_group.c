/* scaling_group.c — amd_scaling_group_rows (scaling_group.h). The store
 * gives each distinct string of its rows one copy, so a million rows hold
 * a few hundred (kind, name) pointer pairs: those are hashed, ranked by
 * their text (equal texts at different addresses share a rank) and the
 * rows counted into place — the order a stable sort of the rows by
 * strcmp gives (glibc's qsort, a merge sort, is stable), at a fraction
 * of its cost. */
#include "scaling_group.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "hmap.h"
#include "huge_map.h"

struct pair {
	const char *kind, *name;
	size_t rank;
};

struct groups {
	struct pair *v;
	size_t n, cap;
	struct amd_hmap ix;
	const struct pair *find; /* same_pair's key */
};

static int same_pair(const void *ctx, uint32_t idx)
{
	const struct groups *g = ctx;
	return g->v[idx].kind == g->find->kind && g->v[idx].name == g->find->name;
}

/* The index of r's (kind, name) pointers in g, added when new; -1 out of memory. */
static int64_t pair_of(struct groups *g, const struct amd_region_time *r)
{
	struct pair key = { r->kind, r->name, 0 };
	uint32_t h = amd_hash_u64((uint64_t)(uintptr_t)r->kind * 0x9e3779b97f4a7c15ULL
				  ^ (uint64_t)(uintptr_t)r->name);
	g->find = &key;
	int64_t at = amd_hmap_find(&g->ix, h, same_pair, g);
	if (at >= 0)
		return at;
	if (amd_grow(&g->v, g->n, &g->cap, sizeof *g->v, 64) < 0
	    || amd_hmap_put(&g->ix, h, (uint32_t)g->n) < 0)
		return -1;
	g->v[g->n] = key;
	return (int64_t)g->n++;
}

static int cmp_text(const struct pair *x, const struct pair *y)
{
	int c = x->kind == y->kind ? 0 : strcmp(x->kind, y->kind);
	return c || x->name == y->name ? c : strcmp(x->name, y->name);
}

static const struct pair *rank_v; /* qsort has no context argument */

static int cmp_pair(const void *a, const void *b)
{
	return cmp_text(&rank_v[*(const size_t *)a], &rank_v[*(const size_t *)b]);
}

/* g->v[i].rank: its place among the distinct texts. */
static int rank_pairs(struct groups *g)
{
	size_t *ord = malloc((g->n ? g->n : 1) * sizeof *ord);
	if (!ord)
		return -1;
	for (size_t i = 0; i < g->n; i++)
		ord[i] = i;
	rank_v = g->v;
	if (g->n > 1)
		qsort(ord, g->n, sizeof *ord, cmp_pair);
	for (size_t i = 0, r = 0; i < g->n; i++) {
		r += i && cmp_text(&g->v[ord[i - 1]], &g->v[ord[i]]) != 0;
		g->v[ord[i]].rank = r;
	}
	free(ord);
	return 0;
}

/* Places ix by rank (of[a]: row a's pair), stable. */
static int place(struct amd_region_time **ix, size_t m, const uint32_t *of,
		 const struct groups *g)
{
	size_t *at = calloc(g->n + 1, sizeof *at);
	struct amd_region_time **tmp = malloc((m ? m : 1) * sizeof *tmp);
	if (!at || !tmp) {
		free(at);
		free(tmp);
		return -1;
	}
	amd_huge_hint(tmp, m * sizeof *tmp);
	for (size_t a = 0; a < m; a++)
		at[g->v[of[a]].rank + 1]++;
	for (size_t r = 1; r <= g->n; r++)
		at[r] += at[r - 1];
	for (size_t a = 0; a < m; a++)
		tmp[at[g->v[of[a]].rank]++] = ix[a];
	if (m)
		memcpy(ix, tmp, m * sizeof *ix);
	free(at);
	free(tmp);
	return 0;
}

int amd_scaling_group_rows(struct amd_region_time **ix, size_t m)
{
	struct groups g;
	memset(&g, 0, sizeof g);
	uint32_t *of = malloc((m ? m : 1) * sizeof *of);
	int rc = of ? 0 : -1;
	for (size_t a = 0; rc == 0 && a < m; a++) {
		int64_t p = pair_of(&g, ix[a]);
		rc = p < 0 ? -1 : 0;
		if (rc == 0)
			of[a] = (uint32_t)p;
	}
	if (rc == 0)
		rc = rank_pairs(&g);
	if (rc == 0)
		rc = place(ix, m, of, &g);
	free(of);
	free(g.v);
	amd_hmap_free(&g.ix);
	return rc;
}
