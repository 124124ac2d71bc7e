/* region_diff.c — per-region comparison of two sides (region_diff.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "region_diff.h"
#include "buf.h"
#include "region_times.h"
#include "runs.h"
#include "significance.h"
#include "stats.h"
#include "sweep_keys.h"

/* One side's traces: rows of the side, their distinct traces and runs. */
struct side {
	struct amd_region_time *rows;
	size_t nrows;
	long long *trace;       /* distinct trace ids */
	int *trace_run;         /* the run (index) of each trace */
	size_t ntraces;
	size_t nruns;           /* runs: distinct (strategy, repeat) */
	int n;
};

static void side_free(struct side *s)
{
	amd_region_times_free(s->rows);
	free(s->trace);
	free(s->trace_run);
}

void amd_region_diff_free(struct amd_rdiff *d)
{
	for (size_t i = 0; d && i < d->nrows; i++) {
		free(d->rows[i].name);
		free(d->rows[i].kind);
	}
	if (d)
		free(d->rows);
	free(d);
}

static int wanted(const struct amd_region_time *r, const struct amd_rdiff_side *w, int n)
{
	return (!w->strategy || strcmp(r->strategy, w->strategy) == 0) && r->n == n
		&& strcmp(r->kind, "step") != 0;
}

/* -1 naming the closest when side w's sweep is none of the store's, or
 * its strategy none of the sweep's rows[0..m) (a typo, not a sweep
 * without traces); else 0. */
static int side_misspelt(struct amd_store *st, const struct amd_rdiff_side *w,
			 const struct amd_region_time *rows, size_t m, struct amd_err *err)
{
	struct amd_sweep_view *sw;
	size_t n, i = 0;
	char near[512];
	if (amd_sweeps_list(st, &sw, &n, err) < 0)
		return -1;
	while (i < n && strcmp(sw[i].name, w->sweep) != 0)
		i++;
	int missing = i == n, list = missing && amd_sweeps_closest(sw, n, w->sweep, near, sizeof near);
	struct amd_buf all = {0};
	for (i = 0; list && i < n; i++)
		amd_buf_printf(&all, "%s%s", i ? ", " : " (sweeps: ", sw[i].name);
	amd_buf_printf(&all, "%s", list && n ? ")" : "");
	amd_sweeps_free(sw, n);
	if (missing)
		missing = amd_fail(err, "%s: no sweep named '%s'%s%s", amd_store_path(st), w->sweep,
				   all.data ? all.data : "", near);
	amd_buf_free(&all);
	if (missing)
		return -1;
	if (!w->strategy)
		return 0;
	const char **names = calloc(m ? m : 1, sizeof *names);
	if (!names)
		return amd_fail(err, "diff: out of memory");
	size_t k = 0;
	for (i = 0; i < m && strcmp(rows[i].strategy, w->strategy) != 0; i++) {
		size_t j = 0;
		while (j < k && strcmp(names[j], rows[i].strategy) != 0)
			j++;
		if (j == k)
			names[k++] = rows[i].strategy;
	}
	int found = i < m;
	if (!found)
		amd_names_closest(w->strategy, names, k, near, sizeof near);
	free(names);
	return found ? 0 : amd_fail(err, "%s: sweep %s has no strategy '%s' with profiler traces%s",
				    amd_store_path(st), w->sweep, w->strategy, near);
}

/* Reads side w: its rows at its n (the largest of its strategy's when
 * w->n is 0), its traces and runs. */
static int side_load(struct amd_store *st, const struct amd_rdiff_side *w, struct side *s,
		     struct amd_err *err)
{
	memset(s, 0, sizeof *s);
	struct amd_region_time *all;
	size_t m;
	if (amd_store_region_times(st, w->sweep, &all, &m, err) < 0)
		return -1;
	s->n = w->n;
	for (size_t i = 0; !w->n && i < m; i++)
		if ((!w->strategy || strcmp(all[i].strategy, w->strategy) == 0) && all[i].n > s->n)
			s->n = all[i].n;
	size_t k = 0, ct = 0, cr = 0;
	for (size_t i = 0; i < m; i++) {
		if (wanted(&all[i], w, s->n))
			all[k++] = all[i];
	}
	s->rows = all;
	s->nrows = k;
	for (size_t i = 0; i < k; i++) {
		if (i > 0 && all[i - 1].trace_id == all[i].trace_id)
			continue;
		if (amd_grow(&s->trace, s->ntraces, &ct, sizeof *s->trace, 16) < 0
		    || amd_grow(&s->trace_run, s->ntraces, &cr, sizeof *s->trace_run, 16) < 0)
			return amd_fail(err, "diff: out of memory");
		const struct amd_region_time *prev = NULL;
		for (size_t j = i; j-- > 0 && !prev;)
			prev = &all[j];
		int new_run = !prev || prev->run_id != all[i].run_id;
		s->nruns += new_run;
		s->trace[s->ntraces] = all[i].trace_id;
		s->trace_run[s->ntraces++] = (int)s->nruns - 1;
	}
	if (s->ntraces == 0 && side_misspelt(st, w, all, m, err) < 0)
		return -1;
	if (s->ntraces == 0)
		return amd_fail(err, "%s: sweep %s%s%s has no profiler traces at n = %d",
				amd_store_path(st), w->sweep, w->strategy ? ", strategy " : "",
				w->strategy ? w->strategy : "", s->n);
	return 0;
}

static int cmp_key(const struct amd_region_time *x, const struct amd_region_time *y)
{
	int c = strcmp(x->kind, y->kind);
	return c ? c : strcmp(x->name, y->name);
}

static int cmp_row(const void *a, const void *b)
{
	return cmp_key(*(const struct amd_region_time *const *)a,
		       *(const struct amd_region_time *const *)b);
}

/* Side s sorted by region: pointers to its rows. */
static struct amd_region_time **by_region(struct side *s)
{
	struct amd_region_time **ix = malloc((s->nrows ? s->nrows : 1) * sizeof *ix);
	for (size_t i = 0; ix && i < s->nrows; i++)
		ix[i] = &s->rows[i];
	if (ix)
		qsort(ix, s->nrows, sizeof *ix, cmp_row);
	return ix;
}

/* The region grp[0..k) of side s as per-trace values v (0 where a trace
 * lacks it) and per-run means r. */
static void values(const struct side *s, struct amd_region_time **grp, size_t k, double *v,
		   double *r)
{
	memset(v, 0, s->ntraces * sizeof *v);
	for (size_t a = 0; a < k; a++)
		for (size_t t = 0; t < s->ntraces; t++)
			if (s->trace[t] == grp[a]->trace_id)
				v[t] += grp[a]->seconds;
	for (size_t u = 0; u < s->nruns; u++) {
		double sum = 0;
		size_t c = 0;
		for (size_t t = 0; t < s->ntraces; t++)
			if (s->trace_run[t] == (int)u) {
				sum += v[t];
				c++;
			}
		r[u] = c ? sum / (double)c : NAN;
	}
}

struct work {
	const struct side *a, *b;
	double *va, *vb, *ra, *rb;
	int resamples;
	unsigned long seed;
	double level;
};

/* The row of one region: ga (k_a rows of side A, may be 0) and gb. */
static int diff_row(struct work *w, struct amd_region_time **ga, size_t ka,
		    struct amd_region_time **gb, size_t kb, struct amd_rdiff_row *row,
		    struct amd_err *err)
{
	const struct amd_region_time *any = ka ? ga[0] : gb[0];
	memset(row, 0, sizeof *row);
	row->name = strdup(any->name);
	row->kind = strdup(any->kind);
	if (!row->name || !row->kind)
		return amd_fail(err, "diff: out of memory");
	row->side = ka && kb ? 0 : kb ? 1 : -1;
	values(w->a, ga, ka, w->va, w->ra);
	values(w->b, gb, kb, w->vb, w->rb);
	row->a = amd_median(w->va, w->a->ntraces);
	row->b = amd_median(w->vb, w->b->ntraces);
	row->p = row->p_holm = NAN;
	row->ratio = NAN;
	row->ci = (struct amd_ci){ NAN, NAN, 0, row->side ? "on one side only" : NULL, 0};
	if (row->side)
		return 0;
	if (amd_median_ratio(w->va, w->a->ntraces, w->vb, w->b->ntraces, w->resamples, w->seed,
			     w->level, &row->ratio, &row->ci, err) < 0)
		return -1;
	if (w->a->nruns >= 2 && w->b->nruns >= 2) {
		struct amd_mwu u;
		if (amd_mann_whitney(w->rb, w->b->nruns, w->ra, w->a->nruns, &u, err) < 0)
			return -1;
		row->p = u.p;
	}
	return 0;
}

static int cmp_change(const void *x, const void *y)
{
	const struct amd_rdiff_row *a = x, *b = y;
	double p = fabs(a->b - a->a), q = fabs(b->b - b->a);
	return (p < q) - (p > q);
}

/* Merge-joins the two sides' regions into d->rows. */
static int join(struct work *w, struct amd_region_time **ia, struct amd_region_time **ib,
		struct amd_rdiff *d, struct amd_err *err)
{
	size_t i = 0, j = 0, cap = 0;
	while (i < w->a->nrows || j < w->b->nrows) {
		int c = i == w->a->nrows ? 1 : j == w->b->nrows ? -1 : cmp_key(ia[i], ib[j]);
		size_t ei = i, ej = j;
		while (c <= 0 && ei < w->a->nrows && cmp_key(ia[ei], ia[i]) == 0)
			ei++;
		while (c >= 0 && ej < w->b->nrows && cmp_key(ib[ej], ib[j]) == 0)
			ej++;
		if (amd_grow(&d->rows, d->nrows, &cap, sizeof *d->rows, 64) < 0)
			return amd_fail(err, "diff: out of memory");
		int rc = diff_row(w, ia + i, ei - i, ib + j, ej - j, &d->rows[d->nrows], err);
		d->nrows++;
		if (rc < 0)
			return -1;
		i = ei;
		j = ej;
	}
	return 0;
}

/* Holm over the regions that have a test. */
static int holm(struct amd_rdiff *d, struct amd_err *err)
{
	double *p = malloc((d->nrows ? d->nrows : 1) * sizeof *p);
	size_t *at = malloc((d->nrows ? d->nrows : 1) * sizeof *at), k = 0;
	int rc = p && at ? 0 : amd_fail(err, "diff: out of memory");
	for (size_t i = 0; rc == 0 && i < d->nrows; i++)
		if (!isnan(d->rows[i].p)) {
			at[k] = i;
			p[k++] = d->rows[i].p;
		}
	if (rc == 0 && k && amd_holm(p, k, p) < 0)
		rc = amd_fail(err, "diff: out of memory");
	for (size_t i = 0; rc == 0 && i < k; i++)
		d->rows[at[i]].p_holm = p[i];
	free(p);
	free(at);
	return rc;
}

int amd_region_diff(struct amd_store *st, const struct amd_rdiff_side *a,
		    const struct amd_rdiff_side *b, int resamples, unsigned long seed, double level,
		    struct amd_rdiff **out, struct amd_err *err)
{
	struct side sa, sb;
	struct amd_rdiff *d = calloc(1, sizeof *d);
	*out = NULL;
	if (!d)
		return amd_fail(err, "diff: out of memory");
	int rc = side_load(st, a, &sa, err);
	if (rc == 0)
		rc = side_load(st, b, &sb, err);
	else
		memset(&sb, 0, sizeof sb);
	struct work w = { &sa, &sb, NULL, NULL, NULL, NULL, resamples, seed, level };
	struct amd_region_time **ia = NULL, **ib = NULL;
	if (rc == 0) {
		w.va = malloc(sa.ntraces * sizeof *w.va);
		w.vb = malloc(sb.ntraces * sizeof *w.vb);
		w.ra = malloc(sa.nruns * sizeof *w.ra);
		w.rb = malloc(sb.nruns * sizeof *w.rb);
		ia = by_region(&sa);
		ib = by_region(&sb);
		rc = w.va && w.vb && w.ra && w.rb && ia && ib ? 0 : amd_fail(err, "diff: out of memory");
	}
	if (rc == 0)
		rc = join(&w, ia, ib, d, err);
	if (rc == 0)
		rc = holm(d, err);
	if (rc == 0) {
		qsort(d->rows, d->nrows, sizeof *d->rows, cmp_change);
		d->n_a = sa.n, d->n_b = sb.n;
		d->traces_a = sa.ntraces, d->traces_b = sb.ntraces;
		d->runs_a = sa.nruns, d->runs_b = sb.nruns;
	}
	free(w.va), free(w.vb), free(w.ra), free(w.rb), free(ia), free(ib);
	side_free(&sa);
	side_free(&sb);
	if (rc < 0) {
		amd_region_diff_free(d);
		return -1;
	}
	*out = d;
	return 0;
}
