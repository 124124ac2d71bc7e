/* analysis.c — amd_analyse (analysis.h): from the store's runs to per-run
 * values (epoch exclusion rules, MAD flags, throughput, energy), per
 * configuration statistics with bootstrap intervals, and per strategy
 * speedup, efficiency, Karp–Flatt and the Amdahl and USL fits. */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "runs.h"
#include "stats.h"
#include "run_facts.h"
#include "buf.h"
#include "num.h"

static const char *const no_ci[] = {"n=0: no CI", "n=1: no CI", "n=2: no CI"};

/* A run while it is analysed. */
struct work {
	struct amd_run_view *rv;
	struct amd_run_value v;
	double *vals;   /* kept epoch values */
	size_t nvals;
	int ok;         /* counts in statistics */
	double share[AMD_PHASE_COUNT], comm_share, comp_fraction, straggler_ns;
	double op_comp_us, op_total_us; /* itwinai's fraction, pooled per point */
	int has_trace;
};

struct opts {
	const char *metric, *axis;
	int keep_first, keep_profiled;
	double mad_k;
	struct amd_boot boot;
};

static int metric_higher_is_better(const char *m)
{
	return strstr(m, "throughput") || strstr(m, "per_s") || strstr(m, "samples_s");
}

/* ---- per run: epochs ---- */

/* Points of the lowest rank in p (p sorted by rank then step). */
static size_t lowest_rank(const struct amd_point *p, size_t n)
{
	size_t k = 0;
	while (k < n && p[k].rank == p[0].rank)
		k++;
	return k;
}

/* Does epoch i of pts (span from the previous point, or start_ms, to its
 * own timestamp) overlap a known profiler window? */
static int overlaps_window(const struct amd_point *pts, size_t i, int64_t start_ms,
			   const struct amd_trace_row *tr, size_t ntr)
{
	int64_t end = pts[i].ts_ms, beg = i ? pts[i - 1].ts_ms : start_ms;
	if (!beg || beg > end)
		beg = end;
	for (size_t t = 0; t < ntr; t++) {
		if (tr[t].start_ns <= 0 || tr[t].end_ns <= 0)
			continue;
		double ws = (double)tr[t].start_ns / 1e6, we = (double)tr[t].end_ns / 1e6;
		if (ws < (double)end && we > (double)beg)
			return 1;
	}
	return 0;
}

static int known_windows(const struct amd_trace_row *tr, size_t ntr)
{
	for (size_t t = 0; t < ntr; t++)
		if (tr[t].start_ns > 0 && tr[t].end_ns > tr[t].start_ns)
			return 1;
	return 0;
}

/* Marks profiled epochs in prof[]; returns the rule used (see analysis.h). */
static int profiled_epochs(const struct amd_point *pts, size_t n, int64_t start_ms,
			   const struct amd_trace_row *tr, size_t ntr, int *prof)
{
	memset(prof, 0, n * sizeof *prof);
	if (ntr == 0 || n == 0)
		return 0;
	if (!known_windows(tr, ntr)) {
		prof[n - 1] = 1;
		return 2;
	}
	for (size_t i = 0; i < n; i++)
		prof[i] = overlaps_window(pts, i, start_ms, tr, ntr);
	return 1;
}

static void note(struct amd_buf *b, int64_t step, const char *why)
{
	amd_buf_printf(b, "%sepoch %lld (%s)", b->len ? ", " : "", (long long)step, why);
}

/* Chooses the kept epochs of pts; keep[i] set for them. */
static void choose_epochs(struct work *w, const struct amd_point *pts, size_t n,
			  const int *prof, const struct opts *o, int *keep)
{
	struct amd_buf ex = {0};
	w->vals = malloc((n ? n : 1) * sizeof *w->vals);
	w->nvals = 0;
	for (size_t i = 0; i < n; i++) {
		keep[i] = 0;
		if (pts[i].step == 0 && !o->keep_first)
			note(&ex, pts[i].step, "warm-up");
		else if (prof[i] && !o->keep_profiled)
			note(&ex, pts[i].step, "profiled");
		else if (!isfinite(pts[i].value))
			note(&ex, pts[i].step, "NaN");
		else {
			keep[i] = 1;
			if (w->vals)
				w->vals[w->nvals++] = pts[i].value;
		}
	}
	w->v.excluded = ex.data ? ex.data : strdup("");
	w->v.epochs_kept = (int)w->nvals;
	w->v.epochs_total = (int)n;
}

static void flag_outliers(struct work *w, const struct amd_point *pts, size_t n,
			  const int *keep, double k)
{
	int *fl = calloc(w->nvals ? w->nvals : 1, sizeof *fl);
	struct amd_buf b = {0};
	if (fl && amd_mad_flags(w->vals, w->nvals, k, fl)) {
		double med = amd_median(w->vals, w->nvals), mad = amd_mad(w->vals, w->nvals);
		for (size_t i = 0, j = 0; i < n; i++) {
			if (!keep[i])
				continue;
			if (fl[j]) {
				char why[96];
				snprintf(why, sizeof why, "%.6g, modified z %.1f", pts[i].value,
					 0.6745 * fabs(pts[i].value - med) / mad);
				note(&b, pts[i].step, why);
			}
			j++;
		}
	}
	free(fl);
	w->v.flagged = b.data ? b.data : strdup("");
}

/* Value of key at the given step for the lowest rank, NAN if absent. */
static double at_step(const struct amd_point *p, size_t n, int64_t step)
{
	for (size_t i = 0; i < n; i++)
		if (p[i].rank == p[0].rank && p[i].step == step)
			return p[i].value;
	return NAN;
}

static int fetch(struct amd_store *st, int64_t run, const char *key, struct amd_point **p,
		 size_t *n, struct amd_err *err)
{
	return amd_run_metric(st, run, key, p, n, err);
}

/* Samples and seconds of the kept epochs: samples from the logged
 * throughput × epoch time, else global_batch_size × steps_per_epoch. */
static int run_throughput(struct amd_store *st, struct work *w, const struct amd_point *pts,
			  size_t n, const int *keep, struct amd_err *err)
{
	struct amd_point *tp = NULL, *ep = NULL;
	size_t ntp = 0, nep = 0;
	if (fetch(st, w->rv->id, "throughput_samples_per_s", &tp, &ntp, err) < 0 ||
	    fetch(st, w->rv->id, "epoch_time_s", &ep, &nep, err) < 0) {
		free(tp);
		free(ep);
		return -1;
	}
	char *gbs = amd_run_param(st, w->rv->id, "global_batch_size");
	char *spe = amd_run_param(st, w->rv->id, "steps_per_epoch");
	double b = NAN, s = NAN;
	if (gbs && spe && amd_parse_double(gbs, &b) == 0 && amd_parse_double(spe, &s) == 0)
		b *= s;
	else
		b = NAN;
	double samples = 0, secs = 0;
	for (size_t i = 0; i < n; i++) {
		if (!keep[i])
			continue;
		double t = at_step(ep, nep, pts[i].step);
		double per = ntp ? at_step(tp, ntp, pts[i].step) * t : b;
		if (isfinite(t) && isfinite(per)) {
			samples += per;
			secs += t;
		}
	}
	w->v.samples = secs > 0 ? samples : NAN;
	w->v.time_s = secs > 0 ? secs : NAN;
	w->v.throughput = secs > 0 ? samples / secs : NAN;
	free(gbs);
	free(spe);
	free(tp);
	free(ep);
	return 0;
}

static int is_kept_step(const struct amd_point *pts, size_t n, const int *keep, int64_t step)
{
	for (size_t i = 0; i < n; i++)
		if (pts[i].step == step)
			return keep[i];
	return 0;
}

/* Mean of the values of p (all ranks). */
static double mean_points(const struct amd_point *p, size_t n)
{
	double s = 0;
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (isfinite(p[i].value)) {
			s += p[i].value;
			k++;
		}
	return k ? s / (double)k : NAN;
}

/* Energy from the NVML counter gpu_energy_J (J per epoch per GPU). */
static void energy_counter(struct work *w, const struct amd_point *e, size_t ne,
			   const struct amd_point *pts, size_t n, const int *keep)
{
	double all = 0, kept = 0;
	size_t nk = 0;
	for (size_t i = 0; i < ne; i++) {
		if (!isfinite(e[i].value))
			continue;
		all += e[i].value;
		if (is_kept_step(pts, n, keep, e[i].step)) {
			kept += e[i].value;
			nk++;
		}
	}
	w->v.energy_run_j = all;
	w->v.energy_kept_j = nk ? kept : NAN;
	w->v.energy_epoch_j = nk ? kept / (double)nk : NAN;
}

/* Energy from power samples the way itwinai does it (power × probing
 * interval), per GPU (rank) and per run. Per epoch and GPU, as the samples
 * are too sparse to split by epoch: mean power × the run's epoch time. */
static void energy_integrated(struct work *w, const struct amd_point *p, size_t np,
			      double interval)
{
	double all = 0;
	for (size_t i = 0; i < np; i++)
		if (isfinite(p[i].value))
			all += p[i].value * interval;
	w->v.energy_run_j = all;
	w->v.energy_kept_j = NAN;
	w->v.energy_epoch_j = mean_points(p, np) * w->v.value;
}

static int run_energy(struct amd_store *st, struct work *w, const struct amd_point *pts,
		      size_t n, const int *keep, struct amd_err *err)
{
	struct amd_point *e = NULL, *pw = NULL, *u = NULL;
	size_t ne = 0, npw = 0, nu = 0;
	int rc = -1;
	if (fetch(st, w->rv->id, "gpu_energy_J", &e, &ne, err) < 0 ||
	    fetch(st, w->rv->id, "gpu_power_W", &pw, &npw, err) < 0 ||
	    fetch(st, w->rv->id, "gpu_util_pct", &u, &nu, err) < 0)
		goto out;
	if (nu == 0) {
		free(u);
		u = NULL;
		if (fetch(st, w->rv->id, "gpu_utilization_percent", &u, &nu, err) < 0)
			goto out;
	}
	w->v.energy_run_j = w->v.energy_kept_j = w->v.energy_epoch_j = NAN;
	if (ne)
		energy_counter(w, e, ne, pts, n, keep);
	else if (npw) {
		char *pi = amd_run_param(st, w->rv->id, "probing_interval");
		double iv;
		if (pi && amd_parse_double(pi, &iv) == 0 && iv > 0)
			energy_integrated(w, pw, npw, iv);
		free(pi);
	}
	w->v.power_w = mean_points(pw, npw);
	w->v.util_pct = mean_points(u, nu);
	rc = 0;
out:
	free(e);
	free(pw);
	free(u);
	return rc;
}

/* ---- per run: traces ---- */

static void run_trace_shares(struct work *w, const struct amd_trace_row *tr, size_t ntr)
{
	size_t k = 0, kc = 0;
	double cf = 0;
	size_t ncf = 0;
	w->comm_share = 0;
	for (int p = 0; p < AMD_PHASE_COUNT; p++)
		w->share[p] = 0;
	for (size_t t = 0; t < ntr; t++) {
		if (isfinite(tr[t].comp_fraction)) {
			cf += tr[t].comp_fraction;
			ncf++;
		}
		double win = (double)(tr[t].end_ns - tr[t].start_ns);
		if (!tr[t].has_phases || !(win > 0))
			continue;
		for (int p = 0; p < AMD_PHASE_COUNT; p++)
			w->share[p] += (double)tr[t].phase_ns[p] / win;
		k++;
		double c = (double)tr[t].phase_ns[AMD_PHASE_COMPUTE];
		double m = (double)tr[t].phase_ns[AMD_PHASE_COMM];
		if (c + m > 0) {
			w->comm_share += m / (c + m);
			kc++;
		}
	}
	for (int p = 0; p < AMD_PHASE_COUNT; p++)
		w->share[p] = k ? w->share[p] / (double)k : NAN;
	w->comm_share = kc ? w->comm_share / (double)kc : NAN;
	w->comp_fraction = ncf ? cf / (double)ncf : NAN;
	w->has_trace = ntr > 0;
}

/* ---- per run: the whole evaluation ---- */

static void exclude(struct work *w, const char *fmt, const char *arg)
{
	char buf[256];
	snprintf(buf, sizeof buf, fmt, arg);
	free(w->v.excluded);
	w->v.excluded = strdup(buf);
	w->ok = 0;
}

static int run_epochs(struct amd_store *st, struct work *w, const struct opts *o,
		      struct amd_err *err)
{
	struct amd_point *pts = NULL;
	struct amd_trace_row *tr = NULL;
	size_t np = 0, ntr = 0;
	int rc = -1, *prof = NULL, *keep = NULL;
	if (fetch(st, w->rv->id, o->metric, &pts, &np, err) < 0 ||
	    amd_store_run_traces(st, w->rv->id, &tr, &ntr, err) < 0)
		goto out;
	np = np ? lowest_rank(pts, np) : 0;
	prof = calloc(np + 1, sizeof *prof);
	keep = calloc(np + 1, sizeof *keep);
	if (!prof || !keep) {
		amd_fail(err, "out of memory");
		goto out;
	}
	w->v.profiled_rule = profiled_epochs(pts, np, w->rv->start_ms, tr, ntr, prof);
	choose_epochs(w, pts, np, prof, o, keep);
	rc = 0;
	if (np == 0) {
		exclude(w, "no %s logged", o->metric);
		goto out;
	}
	if (w->nvals == 0) {
		char why[256];
		snprintf(why, sizeof why, "no epoch left after the rules (%s)", w->v.excluded);
		exclude(w, "%s", why);
		goto out;
	}
	w->v.value = amd_median(w->vals, w->nvals);
	flag_outliers(w, pts, np, keep, o->mad_k);
	if (run_throughput(st, w, pts, np, keep, err) < 0 ||
	    run_energy(st, w, pts, np, keep, err) < 0 ||
	    amd_store_run_op_fraction(st, w->rv->id, &w->op_comp_us, &w->op_total_us, err) < 0 ||
	    amd_store_run_straggler(st, w->rv->id, &w->straggler_ns, err) < 0)
		rc = -1;
	else
		run_trace_shares(w, tr, ntr);
out:
	free(pts);
	free(tr);
	free(prof);
	free(keep);
	return rc;
}

static void run_init(struct work *w, struct amd_run_view *rv)
{
	memset(w, 0, sizeof *w);
	w->rv = rv;
	w->ok = 1;
	struct amd_run_value *v = &w->v;
	v->run_id = rv->id;
	v->ext_id = strdup(rv->ext_id ? rv->ext_id : "");
	v->name = strdup(rv->name ? rv->name : "");
	v->strategy = strdup(rv->strategy ? rv->strategy : "");
	v->repeat = rv->repeat;
	v->status = rv->status;
	v->value = v->throughput = v->energy_epoch_j = v->energy_run_j = NAN;
	v->power_w = v->util_pct = v->samples = v->time_s = v->energy_kept_j = NAN;
	v->n = NAN;
	w->comp_fraction = w->straggler_ns = w->comm_share = NAN;
	w->op_comp_us = w->op_total_us = NAN;
	for (int p = 0; p < AMD_PHASE_COUNT; p++)
		w->share[p] = NAN;
}

static int run_evaluate(struct amd_store *st, struct work *w, const struct opts *o,
			struct amd_err *err)
{
	if (o->axis) {
		char *s = amd_run_param(st, w->rv->id, o->axis);
		double x;
		if (s && amd_parse_double(s, &x) == 0 && isfinite(x))
			w->v.n = x;
		free(s);
	} else if (w->rv->n > 0)
		w->v.n = w->rv->n;
	if (!amd_status_ok(w->rv->status)) {
		exclude(w, "%s", amd_status_name(w->rv->status));
		return 0;
	}
	if (isnan(w->v.n)) {
		exclude(w, "no axis value (%s unknown)", o->axis ? o->axis : "world size");
		return 0;
	}
	return run_epochs(st, w, o, err);
}

/* ---- per configuration ---- */

static int cmp_work(const void *a, const void *b)
{
	const struct work *x = *(struct work *const *)a, *y = *(struct work *const *)b;
	int c = strcmp(x->v.strategy, y->v.strategy);
	if (c)
		return c;
	if (x->v.n != y->v.n)
		return x->v.n < y->v.n ? -1 : 1;
	if (x->v.repeat != y->v.repeat)
		return x->v.repeat < y->v.repeat ? -1 : 1;
	return x->v.run_id < y->v.run_id ? -1 : x->v.run_id > y->v.run_id;
}

static void set_ci(struct amd_ci *dst, const struct amd_interval *src, size_t nruns)
{
	dst->lo = src->lo;
	dst->hi = src->hi;
	dst->valid = src->valid;
	dst->why = src->valid ? NULL : nruns < 3 ? no_ci[nruns] : "bootstrap failed";
}

/* Mean over the runs of the finite double at offset off of struct work. */
static double mean_of(struct work **w, size_t n, size_t off)
{
	double s = 0;
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		double x = *(const double *)((const char *)w[i] + off);
		if (isfinite(x)) {
			s += x;
			k++;
		}
	}
	return k ? s / (double)k : NAN;
}

/* Sum over runs at num_off over the sum at den_off; with skip_missing,
 * runs lacking either are left out, else they make the ratio NAN. */
static double ratio_of_sums(struct work **w, size_t n, size_t num_off, size_t den_off,
			    int skip_missing)
{
	double a = 0, b = 0;
	for (size_t i = 0; i < n; i++) {
		double x = *(const double *)((const char *)w[i] + num_off);
		double y = *(const double *)((const char *)w[i] + den_off);
		if (!isfinite(x) || !isfinite(y)) {
			if (skip_missing)
				continue;
			return NAN;
		}
		a += x;
		b += y;
	}
	return b > 0 ? a / b : NAN;
}

static char *dup0(const char *s)
{
	return strdup(s ? s : "");
}

static struct amd_run_value run_copy(const struct amd_run_value *v)
{
	struct amd_run_value c = *v;
	c.ext_id = dup0(v->ext_id);
	c.name = dup0(v->name);
	c.excluded = dup0(v->excluded);
	c.flagged = dup0(v->flagged);
	c.strategy = dup0(v->strategy);
	return c;
}

static void run_value_free(struct amd_run_value *v)
{
	free(v->ext_id);
	free(v->name);
	free(v->excluded);
	free(v->flagged);
	free(v->strategy);
}

static void point_stats(struct amd_point_stats *ps, struct work **w, size_t n,
			const struct opts *o)
{
	ps->nruns = n;
	ps->runs = calloc(n ? n : 1, sizeof *ps->runs);
	double *x = malloc((n ? n : 1) * sizeof *x);
	for (size_t i = 0; i < n; i++) {
		ps->runs[i] = run_copy(&w[i]->v);
		x[i] = ps->runs[i].value;
	}
	ps->median = amd_median(x, n);
	ps->mean = amd_mean(x, n);
	ps->sd = amd_sd(x, n);
	ps->cv = amd_cv(x, n);
	ps->min = amd_min(x, n);
	ps->max = amd_max(x, n);
	struct amd_interval ci;
	amd_boot_median_ci(x, n, &o->boot, &ci);
	set_ci(&ps->ci, &ci, n);
	amd_t_mean_ci(x, n, o->boot.level, &ci);
	set_ci(&ps->ci_mean_t, &ci, n);
	free(x);
	ps->throughput = ratio_of_sums(w, n, offsetof(struct work, v.samples),
				       offsetof(struct work, v.time_s), 0);
	ps->energy_per_sample_j = ratio_of_sums(w, n, offsetof(struct work, v.energy_kept_j),
						offsetof(struct work, v.samples), 0);
	ps->energy_epoch_j = mean_of(w, n, offsetof(struct work, v.energy_epoch_j));
	ps->energy_solution_j = mean_of(w, n, offsetof(struct work, v.energy_run_j));
	ps->power_w = mean_of(w, n, offsetof(struct work, v.power_w));
	ps->util_pct = mean_of(w, n, offsetof(struct work, v.util_pct));
	for (int p = 0; p < AMD_PHASE_COUNT; p++)
		ps->phase_share[p] = mean_of(w, n, offsetof(struct work, share) + (size_t)p * sizeof(double));
	/* itwinai pools every rank's and repeat's operator rows of a point */
	ps->comp_fraction = ratio_of_sums(w, n, offsetof(struct work, op_comp_us),
					  offsetof(struct work, op_total_us), 1);
	if (!isfinite(ps->comp_fraction))
		ps->comp_fraction = mean_of(w, n, offsetof(struct work, comp_fraction));
	ps->comm_share = mean_of(w, n, offsetof(struct work, comm_share));
	ps->straggler_ns = mean_of(w, n, offsetof(struct work, straggler_ns));
	for (size_t i = 0; i < n; i++)
		ps->has_trace |= w[i]->has_trace;
	ps->speedup = ps->efficiency = ps->karp_flatt = NAN;
	ps->ci_speedup = ps->ci_efficiency = (struct amd_ci){NAN, NAN, 0, "no speedup"};
}

/* ---- per strategy ---- */

static double *run_values(const struct amd_point_stats *p, int invert)
{
	double *x = malloc((p->nruns ? p->nruns : 1) * sizeof *x);
	for (size_t i = 0; x && i < p->nruns; i++)
		x[i] = invert ? 1 / p->runs[i].value : p->runs[i].value;
	return x;
}

static void speedups(struct amd_strategy_stats *s, const struct opts *o, int higher)
{
	const struct amd_point_stats *b = &s->points[0];
	double *xb = run_values(b, 0);
	for (size_t i = 0; i < s->npoints; i++) {
		struct amd_point_stats *p = &s->points[i];
		double *x = run_values(p, 0);
		p->speedup = higher ? p->median / b->median : b->median / p->median;
		p->efficiency = p->speedup * s->base_n / p->n;
		p->karp_flatt = amd_karp_flatt(p->speedup, p->n / s->base_n);
		if (i == 0) { /* the base: 1 by definition */
			p->ci_speedup = p->ci_efficiency = (struct amd_ci){NAN, NAN, 0, "base"};
			free(x);
			continue;
		}
		struct amd_interval ci;
		if (higher)
			amd_boot_ratio_ci(x, p->nruns, xb, b->nruns, &o->boot, &ci);
		else
			amd_boot_ratio_ci(xb, b->nruns, x, p->nruns, &o->boot, &ci);
		size_t m = p->nruns < b->nruns ? p->nruns : b->nruns;
		set_ci(&p->ci_speedup, &ci, m);
		p->ci_efficiency = p->ci_speedup;
		p->ci_efficiency.lo *= s->base_n / p->n;
		p->ci_efficiency.hi *= s->base_n / p->n;
		free(x);
	}
	free(xb);
}

static void amdahl(struct amd_strategy_stats *s, const struct opts *o, int higher)
{
	struct amd_fit *f = &s->amdahl;
	size_t m = s->npoints;
	double *n = malloc(m * sizeof *n), *t = malloc(m * sizeof *t);
	struct amd_group *g = calloc(m, sizeof *g);
	for (size_t i = 0; n && t && g && i < m; i++) {
		n[i] = s->points[i].n;
		t[i] = higher ? 1 / s->points[i].median : s->points[i].median;
		g[i].n = n[i];
		g[i].x = run_values(&s->points[i], higher);
		g[i].len = s->points[i].nruns;
	}
	struct amd_amdahl a;
	if (n && t && g && amd_amdahl_fit(n, t, m, &a) == 0) {
		f->ok = 1;
		f->a = a.a;
		f->b = a.b;
		f->serial_fraction = a.serial;
		f->r2 = a.r2;
		struct amd_interval ci;
		size_t fewest = SIZE_MAX;
		for (size_t i = 0; i < m; i++)
			fewest = g[i].len < fewest ? g[i].len : fewest;
		amd_amdahl_serial_ci(g, m, &o->boot, &ci);
		set_ci(&f->ci_serial, &ci, fewest);
	} else
		snprintf(f->why, sizeof f->why, "%s", n && t && g ? a.why : "out of memory");
	for (size_t i = 0; g && i < m; i++)
		free((double *)g[i].x);
	free(g);
	free(n);
	free(t);
}

static void usl(struct amd_strategy_stats *s, int higher)
{
	struct amd_fit *f = &s->usl;
	size_t m = s->npoints;
	double *n = malloc(m * sizeof *n), *x = malloc(m * sizeof *x);
	for (size_t i = 0; n && x && i < m; i++) {
		n[i] = s->points[i].n;
		x[i] = higher ? s->points[i].median : 1 / s->points[i].median;
	}
	struct amd_usl u;
	if (n && x && amd_usl_fit(n, x, m, &u) == 0) {
		f->ok = 1;
		f->alpha = u.alpha;
		f->beta = u.beta;
		f->gamma = u.gamma;
		f->n_peak = u.n_peak;
	} else
		snprintf(f->why, sizeof f->why, "%s", n && x ? u.why : "out of memory");
	free(n);
	free(x);
}

static void fit_init(struct amd_fit *f)
{
	memset(f, 0, sizeof *f);
	f->a = f->b = f->serial_fraction = f->r2 = NAN;
	f->alpha = f->beta = f->gamma = f->n_peak = NAN;
	f->ci_serial = (struct amd_ci){NAN, NAN, 0, "no fit"};
}

static void strategy_stats(struct amd_strategy_stats *s, const struct opts *o,
			   const struct amd_sweep_stats *sw)
{
	fit_init(&s->amdahl);
	fit_init(&s->usl);
	s->base_n = s->points[0].n;
	s->base_value = s->points[0].median;
	if (!sw->scaling) {
		snprintf(s->amdahl.why, sizeof s->amdahl.why, "%s", sw->note);
		snprintf(s->usl.why, sizeof s->usl.why, "%s", sw->note);
		return;
	}
	speedups(s, o, sw->higher_is_better);
	amdahl(s, o, sw->higher_is_better);
	usl(s, sw->higher_is_better);
}

/* Builds the strategies from the sorted included runs w[0..n). */
static int build_strategies(struct amd_sweep_stats *sw, struct work **w, size_t n,
			    const struct opts *o)
{
	for (size_t i = 0; i < n; i++)
		if (i == 0 || strcmp(w[i]->v.strategy, w[i - 1]->v.strategy) != 0)
			sw->nstrategies++;
	sw->strategies = calloc(sw->nstrategies ? sw->nstrategies : 1, sizeof *sw->strategies);
	if (!sw->strategies)
		return -1;
	size_t si = 0;
	for (size_t i = 0; i < n; si++) {
		size_t j = i;
		while (j < n && strcmp(w[j]->v.strategy, w[i]->v.strategy) == 0)
			j++;
		struct amd_strategy_stats *s = &sw->strategies[si];
		s->strategy = strdup(w[i]->v.strategy);
		for (size_t k = i; k < j; k++)
			s->npoints += k == i || w[k]->v.n != w[k - 1]->v.n;
		s->points = calloc(s->npoints, sizeof *s->points);
		if (!s->strategy || !s->points)
			return -1;
		size_t pi = 0;
		for (size_t k = i; k < j; pi++) {
			size_t e = k;
			while (e < j && w[e]->v.n == w[k]->v.n)
				e++;
			s->points[pi].strategy = strdup(s->strategy);
			s->points[pi].n = w[k]->v.n;
			point_stats(&s->points[pi], w + k, e - k, o);
			k = e;
		}
		strategy_stats(s, o, sw);
		i = j;
	}
	return 0;
}

/* ---- the sweep ---- */

static int pick_sweep(struct amd_store *st, const char *want, char **out,
		      struct amd_err *err)
{
	struct amd_sweep_view *sw;
	size_t n;
	*out = NULL;
	if (amd_sweeps_list(st, &sw, &n, err) < 0)
		return -1;
	struct amd_buf names = {0};
	for (size_t i = 0; i < n; i++) {
		if (want && strcmp(sw[i].name, want) == 0)
			*out = strdup(want);
		amd_buf_printf(&names, "%s%s", i ? ", " : "", sw[i].name);
	}
	if (!want && n == 1)
		*out = strdup(sw[0].name);
	int rc = 0;
	if (!*out) {
		if (n == 0)
			rc = amd_fail(err, "%s: no sweeps in the store; 'amdahl ingest PATH' loads some",
				      amd_store_path(st));
		else if (want)
			rc = amd_fail(err, "%s: no sweep named '%s' (sweeps: %s)", amd_store_path(st), want,
				      names.data);
		else
			rc = amd_fail(err, "%s: %zu sweeps (%s); name one with --sweep", amd_store_path(st), n,
				      names.data);
	}
	amd_buf_free(&names);
	amd_sweeps_free(sw, n);
	return rc;
}

static void resolve_opts(const struct amd_analysis_opts *in, struct opts *o)
{
	o->metric = in->metric && *in->metric ? in->metric : "epoch_time_s";
	o->axis = in->axis && *in->axis ? in->axis : NULL;
	o->keep_first = in->keep_first;
	o->keep_profiled = in->keep_profiled;
	o->mad_k = in->mad_k > 0 ? in->mad_k : 3.5;
	o->boot.resamples = in->resamples >= 2000 ? in->resamples : in->resamples ? 2000 : 4000;
	o->boot.seed = in->seed ? in->seed : 20260101UL;
	o->boot.level = in->level > 0 && in->level < 1 ? in->level : 0.95;
}

static void write_rules(struct amd_sweep_stats *sw, const struct opts *o)
{
	char ex[200] = "";
	if (!o->keep_first && !o->keep_profiled)
		snprintf(ex, sizeof ex, "excluding epoch 0 (warm-up) and epochs overlapping a"
			 " profiler trace window (a run with traces of unknown window: its last epoch)");
	else if (!o->keep_first)
		snprintf(ex, sizeof ex, "excluding epoch 0 (warm-up), keeping profiled epochs");
	else if (!o->keep_profiled)
		snprintf(ex, sizeof ex, "keeping epoch 0, excluding epochs overlapping a profiler"
			 " trace window");
	else
		snprintf(ex, sizeof ex, "keeping every epoch");
	snprintf(sw->rules, sizeof sw->rules,
		 "Per run: median %s of its epochs, %s; epochs with modified z-score"
		 " 0.6745|x-median|/MAD > %g are flagged, not dropped. %g%% CIs: percentile"
		 " bootstrap, %d resamples, mt19937 seed %lu (speedup: both samples resampled;"
		 " Amdahl serial fraction: runs resampled per n, refitted); fewer than 3 runs: no CI.",
		 o->metric, ex, o->mad_k, o->boot.level * 100, o->boot.resamples, o->boot.seed);
}

static void sweep_flags(struct amd_sweep_stats *sw, struct work *w, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (!w[i].ok)
			continue;
		sw->has_energy |= isfinite(w[i].v.energy_run_j);
		sw->has_traces |= w[i].has_trace;
		sw->has_util |= isfinite(w[i].v.util_pct);
	}
	for (size_t s = 0; s < sw->nstrategies; s++)
		for (size_t p = 0; p < sw->strategies[s].npoints; p++) {
			struct amd_point_stats *ps = &sw->strategies[s].points[p];
			for (size_t i = 0; i < n; i++)
				ps->nexcluded_runs += !w[i].ok && strcmp(w[i].v.strategy, ps->strategy) == 0 &&
						      w[i].v.n == ps->n;
		}
}

static int collect_excluded(struct amd_sweep_stats *sw, struct work *w, size_t n)
{
	for (size_t i = 0; i < n; i++)
		sw->nexcluded += !w[i].ok;
	sw->excluded = calloc(sw->nexcluded ? sw->nexcluded : 1, sizeof *sw->excluded);
	if (!sw->excluded)
		return -1;
	for (size_t i = 0, k = 0; i < n; i++)
		if (!w[i].ok)
			sw->excluded[k++] = run_copy(&w[i].v);
	sw->nruns_total = n;
	sw->nruns_excluded = sw->nexcluded;
	return 0;
}

static int analyse_runs(struct amd_store *st, struct amd_sweep_stats *sw, struct work *w,
			size_t n, const struct opts *o, struct amd_err *err)
{
	struct work **inc = calloc(n ? n : 1, sizeof *inc);
	if (!inc)
		return amd_fail(err, "out of memory");
	size_t ninc = 0;
	for (size_t i = 0; i < n; i++) {
		if (run_evaluate(st, &w[i], o, err) < 0) {
			free(inc);
			return -1;
		}
		if (w[i].ok)
			inc[ninc++] = &w[i];
	}
	qsort(inc, ninc, sizeof *inc, cmp_work);
	int rc = build_strategies(sw, inc, ninc, o) < 0 || collect_excluded(sw, w, n) < 0
		? amd_fail(err, "out of memory") : 0;
	if (rc == 0)
		sweep_flags(sw, w, n);
	free(inc);
	return rc;
}

static void sweep_setup(struct amd_sweep_stats *sw, const struct opts *o)
{
	sw->metric = strdup(o->metric);
	sw->axis = strdup(o->axis ? o->axis : "n");
	sw->higher_is_better = metric_higher_is_better(o->metric);
	sw->scaling = o->axis == NULL;
	if (!sw->scaling)
		snprintf(sw->note, sizeof sw->note,
			 "axis is %s, not the world size: throughput and energy per sample,"
			 " no speedup or scaling fits", o->axis);
	sw->resamples = o->boot.resamples;
	sw->seed = o->boot.seed;
	sw->level = o->boot.level;
	sw->mad_k = o->mad_k;
	sw->keep_first = o->keep_first;
	sw->keep_profiled = o->keep_profiled;
	write_rules(sw, o);
}

int amd_analyse(struct amd_store *st, const struct amd_analysis_opts *in,
		struct amd_sweep_stats **out, struct amd_err *err)
{
	*out = NULL;
	struct amd_analysis_opts none = {0};
	struct opts o;
	resolve_opts(in ? in : &none, &o);
	char *sweep, *axis = NULL;
	if (pick_sweep(st, in ? in->sweep : NULL, &sweep, err) < 0)
		return -1;
	if (!o.axis)
		o.axis = axis = amd_store_sweep_axis(st, sweep);
	struct amd_sweep_stats *sw = calloc(1, sizeof *sw);
	struct amd_run_view *rv = NULL;
	size_t n = 0;
	int rc = -1;
	if (!sw) {
		amd_fail(err, "out of memory");
		goto out;
	}
	sw->sweep = sweep;
	sweep = NULL;
	sweep_setup(sw, &o);
	if (amd_runs_list(st, sw->sweep, &rv, &n, err) < 0)
		goto out;
	struct work *w = calloc(n ? n : 1, sizeof *w);
	if (!w) {
		amd_fail(err, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < n; i++)
		run_init(&w[i], &rv[i]);
	rc = analyse_runs(st, sw, w, n, &o, err);
	for (size_t i = 0; i < n; i++) {
		run_value_free(&w[i].v);
		free(w[i].vals);
	}
	free(w);
out:
	amd_runs_free(rv, n);
	free(sweep);
	free(axis);
	if (rc < 0)
		amd_sweep_stats_free(sw);
	else
		*out = sw;
	return rc;
}

void amd_sweep_stats_free(struct amd_sweep_stats *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nstrategies; i++) {
		struct amd_strategy_stats *st = &s->strategies[i];
		for (size_t p = 0; p < st->npoints; p++) {
			for (size_t r = 0; r < st->points[p].nruns; r++)
				run_value_free(&st->points[p].runs[r]);
			free(st->points[p].runs);
			free(st->points[p].strategy);
		}
		free(st->points);
		free(st->strategy);
	}
	free(s->strategies);
	for (size_t i = 0; i < s->nexcluded; i++)
		run_value_free(&s->excluded[i]);
	free(s->excluded);
	free(s->sweep);
	free(s->metric);
	free(s->axis);
	free(s);
}
