/* region_mix.c — a sweep's region shares per configuration
 * (region_mix.h), from amd_regions_top over the sweep. */
#include "region_mix.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "regions.h"

/* Steps and the profiler's own span contain the others; phases and
 * devices are another split of the same time. */
static int drawn_kind(const char *kind)
{
	return strcmp(kind, "phase") != 0 && strcmp(kind, "device") != 0 &&
	       strcmp(kind, "step") != 0;
}

/* The (profiler, kind) row with the most self time over the sweep:
 * one pass, summing into the pairs met so far. Kinds (region.h) and
 * profilers are fixed small sets, so PAIRS holds every pair there is. */
#define PAIRS 256
static const struct amd_region_row *dominant(const struct amd_region_list *l)
{
	const struct amd_region_row *pair[PAIRS];
	int64_t sum[PAIRS];
	size_t npairs = 0;
	for (size_t i = 0; i < l->n; i++) {
		const struct amd_region_row *r = &l->v[i];
		if (!drawn_kind(r->kind) || r->self_ns < 0)
			continue;
		size_t k = 0;
		while (k < npairs && !(amd_region_same_text(pair[k]->profiler, r->profiler) &&
				       amd_region_same_text(pair[k]->kind, r->kind)))
			k++;
		if (k == npairs) {
			if (npairs == PAIRS)
				continue;
			pair[npairs] = r;
			sum[npairs++] = 0;
		}
		if (r->self_ns > 0)
			sum[k] += r->self_ns;
	}
	size_t best = 0;
	for (size_t k = 1; k < npairs; k++)
		if (sum[k] > sum[best])
			best = k;
	return npairs ? pair[best] : NULL;
}

static long group_of(const struct amd_region_mix *m, const struct amd_region_row *r)
{
	for (size_t g = 0; g < m->ngroups; g++)
		if (amd_region_same_text(m->strategy[g], r->strategy) && m->n[g] == r->n)
			return (long)g;
	return -1;
}

static int add_group(struct amd_region_mix *m, size_t *cap, const struct amd_region_row *r)
{
	size_t c = *cap;
	if (amd_grow(&m->strategy, m->ngroups, &c, sizeof *m->strategy, 8) < 0)
		return -1;
	size_t c2 = *cap;
	if (amd_grow(&m->n, m->ngroups, &c2, sizeof *m->n, 8) < 0)
		return -1;
	*cap = c;
	m->strategy[m->ngroups] = r->strategy ? strdup(r->strategy) : NULL;
	m->n[m->ngroups] = r->n;
	if (r->strategy && !m->strategy[m->ngroups])
		return -1;
	m->ngroups++;
	return 0;
}

struct name_score {
	const char *name;
	double score;
};

static int by_score(const void *a, const void *b)
{
	const struct name_score *x = a, *y = b;
	return (x->score < y->score) - (x->score > y->score);
}

/* The top names by summed share over the groups, then "other". */
static int pick_names(struct amd_region_mix *m, const struct amd_region_row **rows, size_t nrows,
		      size_t top)
{
	struct name_score *s = calloc(nrows + 1, sizeof *s);
	size_t ns = 0;
	if (!s)
		return -1;
	for (size_t i = 0; i < nrows; i++) {
		size_t k = 0;
		while (k < ns && strcmp(s[k].name, rows[i]->name) != 0)
			k++;
		if (k == ns)
			s[ns++].name = rows[i]->name;
		s[k].score += isnan(rows[i]->share) ? 0 : rows[i]->share;
	}
	qsort(s, ns, sizeof *s, by_score);
	size_t keep = ns < top ? ns : top;
	m->names = calloc(keep + 1, sizeof *m->names);
	int rc = m->names ? 0 : -1;
	for (size_t k = 0; rc == 0 && k < keep; k++)
		if (!(m->names[m->nnames++] = strdup(s[k].name)))
			rc = -1;
	if (rc == 0 && !(m->names[m->nnames++] = strdup("other")))
		rc = -1;
	free(s);
	return rc;
}

static int fill(struct amd_region_mix *m, const struct amd_region_row **rows, size_t nrows)
{
	m->share = calloc(m->ngroups * m->nnames + 1, sizeof *m->share);
	if (!m->share)
		return -1;
	for (size_t g = 0; g < m->ngroups; g++)
		m->share[g * m->nnames + m->nnames - 1] = 1;
	for (size_t i = 0; i < nrows; i++) {
		long g = group_of(m, rows[i]);
		for (size_t k = 0; g >= 0 && k + 1 < m->nnames; k++)
			if (strcmp(m->names[k], rows[i]->name) == 0 && !isnan(rows[i]->share)) {
				m->share[(size_t)g * m->nnames + k] += rows[i]->share;
				m->share[(size_t)g * m->nnames + m->nnames - 1] -= rows[i]->share;
			}
	}
	for (size_t g = 0; g < m->ngroups; g++) /* rounding: never below zero */
		if (m->share[g * m->nnames + m->nnames - 1] < 0)
			m->share[g * m->nnames + m->nnames - 1] = 0;
	return 0;
}

static int build(struct amd_region_mix *m, const struct amd_region_list *l, size_t top)
{
	const struct amd_region_row *d = dominant(l);
	if (!d)
		return 0;
	const struct amd_region_row **rows = calloc(l->n + 1, sizeof *rows);
	size_t nrows = 0, cap = 0;
	if (!rows || !(m->profiler = strdup(d->profiler)) || !(m->kind = strdup(d->kind))) {
		free(rows);
		return -1;
	}
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < l->n; i++) {
		const struct amd_region_row *r = &l->v[i];
		if (!amd_region_same_text(r->profiler, m->profiler) || !amd_region_same_text(r->kind, m->kind))
			continue;
		rows[nrows++] = r;
		if (group_of(m, r) < 0)
			rc = add_group(m, &cap, r);
	}
	if (rc == 0)
		rc = pick_names(m, rows, nrows, top) < 0 || fill(m, rows, nrows) < 0 ? -1 : 0;
	free(rows);
	return rc;
}

int amd_region_mix(struct amd_store *st, const char *sweep, size_t top,
		   struct amd_region_share *share, struct amd_region_mix *out,
		   struct amd_err *err)
{
	memset(out, 0, sizeof *out);
	struct amd_region_sel sel;
	struct amd_region_list l;
	struct amd_region_filter f = {.limit = 0, .share = share};
	if (amd_region_resolve(st, sweep, &sel, err) < 0)
		return -1;
	if (sel.sweep_id <= 0)
		return amd_fail(err, "%s: not a sweep", sweep);
	if (amd_regions_top(st, &sel, &f, &l, err) < 0)
		return -1;
	int rc = build(out, &l, top);
	out->all = l;
	if (rc < 0) {
		amd_region_mix_free(out);
		return amd_fail(err, "%s: out of memory", amd_store_path(st));
	}
	return 0;
}

void amd_region_mix_free(struct amd_region_mix *m)
{
	for (size_t g = 0; g < m->ngroups; g++)
		free(m->strategy[g]);
	for (size_t k = 0; k < m->nnames; k++)
		free(m->names[k]);
	free(m->strategy);
	free(m->n);
	free(m->names);
	free(m->share);
	free(m->profiler);
	free(m->kind);
	amd_region_list_free(&m->all);
	memset(m, 0, sizeof *m);
}
