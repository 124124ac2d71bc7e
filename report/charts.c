/* charts.c — builds the report's charts from a sweep's statistics: epoch
 * time, speedup (ideal line, CI band, Amdahl fit), efficiency,
 * throughput, energy, GPU utilisation, compute vs other, phase split,
 * communication share, per-run variance and the step-time breakdown.
 * Each builder either adds a chart or records why it cannot. */
#include "charts.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pyspy.h"
#include "runs.h"
#include "sources.h"
#include "file.h"
#include "num.h"

#define DENSE 64

static int num(double v)
{
	return !isnan(v) && !isinf(v);
}

static void add(struct report_charts *rc, const char *name, struct chart *c, const char *title,
		const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static void add(struct report_charts *rc, const char *name, struct chart *c, const char *title,
		const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	struct report_chart *v = realloc(rc->v, (rc->n + 1) * sizeof *v);
	if (!v) {
		chart_free(c);
		return;
	}
	rc->v = v;
	rc->v[rc->n++] = (struct report_chart){strdup(name), strdup(title), strdup(buf), c};
}

/* Appends the formatted text to the list (*v, *n); dropped when out of
 * memory. */
static void vappend(char ***v, size_t *n, const char *fmt, va_list ap)
{
	char buf[512];
	vsnprintf(buf, sizeof buf, fmt, ap);
	char **m = realloc(*v, (*n + 1) * sizeof *m);
	if (!m)
		return;
	*v = m;
	(*v)[(*n)++] = strdup(buf);
}

static void missing(struct report_charts *rc, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void missing(struct report_charts *rc, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vappend(&rc->missing, &rc->nmissing, fmt, ap);
	va_end(ap);
}

static void note(struct report_charts *rc, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void note(struct report_charts *rc, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vappend(&rc->notes, &rc->nnotes, fmt, ap);
	va_end(ap);
}

void report_charts_free(struct report_charts *rc)
{
	for (size_t i = 0; i < rc->n; i++) {
		free(rc->v[i].name);
		free(rc->v[i].title);
		free(rc->v[i].caption);
		chart_free(rc->v[i].chart);
	}
	for (size_t i = 0; i < rc->nmissing; i++)
		free(rc->missing[i]);
	for (size_t i = 0; i < rc->nnotes; i++)
		free(rc->notes[i]);
	free(rc->v);
	free(rc->missing);
	free(rc->notes);
	memset(rc, 0, sizeof *rc);
}

/* ---- helpers over the statistics ---- */

const char *report_axis_label(const struct amd_sweep_stats *s)
{
	return s->scaling || !s->axis ? "workers (world size n)" : s->axis;
}

static int world_axis(const struct amd_sweep_stats *s)
{
	return s->scaling;
}

static const char *report_axis_name_short(const struct amd_sweep_stats *s)
{
	return s->scaling || !s->axis ? "n" : s->axis;
}

void report_runs_per_point(const struct amd_sweep_stats *s, char *buf, size_t n)
{
	size_t lo = (size_t)-1, hi = 0;
	for (size_t i = 0; i < s->nstrategies; i++)
		for (size_t k = 0; k < s->strategies[i].npoints; k++) {
			size_t r = s->strategies[i].points[k].nruns;
			lo = r < lo ? r : lo;
			hi = r > hi ? r : hi;
		}
	if (hi == 0)
		snprintf(buf, n, "0");
	else if (lo == hi)
		snprintf(buf, n, "%zu", lo);
	else
		snprintf(buf, n, "%zu–%zu", lo, hi);
}

static void axis_extent(const struct amd_sweep_stats *s, double *lo, double *hi)
{
	*lo = INFINITY;
	*hi = -INFINITY;
	for (size_t i = 0; i < s->nstrategies; i++)
		for (size_t k = 0; k < s->strategies[i].npoints; k++) {
			double n = s->strategies[i].points[k].n;
			*lo = fmin(*lo, n);
			*hi = fmax(*hi, n);
		}
}

static int use_log2(const struct amd_sweep_stats *s)
{
	double lo, hi;
	axis_extent(s, &lo, &hi);
	return lo > 0 && hi / lo >= 3.9;
}

static struct chart *xy_chart(const struct amd_sweep_stats *s, const char *title,
			      const char *ylabel)
{
	struct chart *c = chart_new(CHART_XY, title, report_axis_label(s), ylabel);
	if (use_log2(s))
		chart_xscale(c, CHART_LOG2);
	return c;
}

static enum chart_marker mark(size_t i)
{
	static const enum chart_marker m[] = {MARK_CIRCLE, MARK_SQUARE, MARK_TRIANGLE, MARK_DIAMOND};
	return m[i % 4];
}

typedef double (*point_value)(const struct amd_point_stats *p);

/* One series per strategy of v(point), with optional interval. */
static int strategy_lines(struct chart *c, const struct amd_sweep_stats *s, point_value v,
			  const struct amd_ci *(*ci)(const struct amd_point_stats *),
			  unsigned style)
{
	int drawn = 0;
	for (size_t i = 0; i < s->nstrategies; i++) {
		const struct amd_strategy_stats *st = &s->strategies[i];
		size_t n = st->npoints, k2 = 0;
		double *x = calloc(n + 1, sizeof *x), *y = calloc(n + 1, sizeof *y);
		double *lo = calloc(n + 1, sizeof *lo), *hi = calloc(n + 1, sizeof *hi);
		for (size_t k = 0; k < n; k++) {
			const struct amd_point_stats *p = &st->points[k];
			if (!num(v(p)))
				continue;
			x[k2] = p->n;
			y[k2] = v(p);
			const struct amd_ci *iv = ci ? ci(p) : NULL;
			lo[k2] = iv && iv->valid ? iv->lo : NAN;
			hi[k2] = iv && iv->valid ? iv->hi : NAN;
			k2++;
		}
		if (k2) {
			chart_series(c, st->strategy, (int)i, style | CS_LINE | CS_POINTS, mark(i), k2, x,
				     y, ci ? lo : NULL, ci ? hi : NULL);
			drawn++;
		}
		free(x);
		free(y);
		free(lo);
		free(hi);
	}
	return drawn;
}

static int any_point(const struct amd_sweep_stats *s, point_value v)
{
	for (size_t i = 0; i < s->nstrategies; i++)
		for (size_t k = 0; k < s->strategies[i].npoints; k++)
			if (num(v(&s->strategies[i].points[k])))
				return 1;
	return 0;
}

static const struct amd_ci *ci_median(const struct amd_point_stats *p);

/* Points with a valid interval, out of *total; the base point of a
 * ratio (speedup, efficiency against itself) is left out: it is 1 by
 * definition and carries no interval. */
static int ci_count(const struct amd_sweep_stats *s, const struct amd_ci *(*ci)(const struct amd_point_stats *),
		    size_t *total)
{
	int valid = 0, ratio = ci != ci_median;
	*total = 0;
	for (size_t i = 0; i < s->nstrategies; i++)
		for (size_t k = 0; k < s->strategies[i].npoints; k++) {
			const struct amd_point_stats *p = &s->strategies[i].points[k];
			if (ratio && p->n == s->strategies[i].base_n)
				continue;
			(*total)++;
			valid += ci(p)->valid != 0;
		}
	return valid;
}

static const char *ci_note(const struct amd_sweep_stats *s,
			   const struct amd_ci *(*ci)(const struct amd_point_stats *), const char *what)
{
	static char buf[160];
	size_t total;
	int valid = ci_count(s, ci, &total);
	if (valid == 0)
		snprintf(buf, sizeof buf, "no CI: fewer than 3 runs per point");
	else if ((size_t)valid < total)
		snprintf(buf, sizeof buf, "%s: 95%% CI where a point has 3+ runs", what);
	else
		snprintf(buf, sizeof buf, "%s: 95%% bootstrap CI", what);
	return buf;
}

static double p_median(const struct amd_point_stats *p) { return p->median; }
static double p_speedup(const struct amd_point_stats *p) { return p->speedup; }
static double p_eff(const struct amd_point_stats *p) { return p->efficiency * 100; }
static double p_thr(const struct amd_point_stats *p) { return p->throughput; }
static double p_util(const struct amd_point_stats *p) { return p->util_pct; }
static double p_e_epoch(const struct amd_point_stats *p) { return p->energy_epoch_j; }
static double p_e_sol(const struct amd_point_stats *p) { return p->energy_solution_j; }
static double p_e_sample(const struct amd_point_stats *p) { return p->energy_per_sample_j; }
static double p_comp(const struct amd_point_stats *p) { return p->comp_fraction; }
static double p_comm(const struct amd_point_stats *p) { return p->has_trace ? p->comm_share * 100 : NAN; }
static const struct amd_ci *ci_median(const struct amd_point_stats *p) { return &p->ci; }
static const struct amd_ci *ci_speedup(const struct amd_point_stats *p) { return &p->ci_speedup; }

static const struct amd_ci *ci_eff(const struct amd_point_stats *p)
{
	static struct amd_ci pct;
	pct = p->ci_efficiency;
	pct.lo *= 100;
	pct.hi *= 100;
	return &pct;
}

static const char *metric_label(const struct amd_sweep_stats *s)
{
	static char buf[128];
	if (!s->metric || strcmp(s->metric, "epoch_time_s") == 0)
		return "epoch time (s)";
	size_t len = strlen(s->metric);
	if (len > 2 && strcmp(s->metric + len - 2, "_s") == 0)
		snprintf(buf, sizeof buf, "%.*s (s)", (int)(len - 2), s->metric);
	else
		snprintf(buf, sizeof buf, "%s", s->metric);
	return buf;
}

/* ---- the charts ---- */

static void epoch_time(struct report_charts *rc, const struct amd_sweep_stats *s)
{
	char rpp[32];
	report_runs_per_point(s, rpp, sizeof rpp);
	struct chart *c = xy_chart(s, "Epoch time", metric_label(s));
	chart_yrange(c, NAN, NAN, 1);
	strategy_lines(c, s, p_median, ci_median, CS_ERRBARS);
	chart_subtitle(c, "median of %s runs per point; %s", rpp, ci_note(s, ci_median, "bars"));
	add(rc, "epoch_time", c, "Epoch time",
	    "Median %s per configuration; each run's value is the median of its kept epochs (the "
	    "rules are under Method). Error bars: 95%% bootstrap interval of the median; points "
	    "with fewer than 3 runs have none.",
	    metric_label(s));
}

static int scalable(const struct amd_sweep_stats *s)
{
	for (size_t i = 0; i < s->nstrategies; i++)
		if (s->strategies[i].npoints >= 2)
			return 1;
	return 0;
}

static void ideal_lines(struct chart *c, const struct amd_sweep_stats *s, double nmax)
{
	double bases[16];
	size_t nb = 0;
	for (size_t i = 0; i < s->nstrategies && nb < 16; i++) {
		double b = s->strategies[i].base_n;
		int seen = 0;
		for (size_t k = 0; k < nb; k++)
			seen |= bases[k] == b;
		if (!seen && num(b) && b > 0 && s->strategies[i].npoints >= 2)
			bases[nb++] = b;
	}
	for (size_t k = 0; k < nb; k++) {
		double x[DENSE], y[DENSE];
		for (int j = 0; j < DENSE; j++) {
			x[j] = bases[k] * pow(nmax / bases[k], j / (double)(DENSE - 1));
			y[j] = x[j] / bases[k];
		}
		chart_series(c, k == 0 ? "ideal (S = n/b)" : NULL, CHART_GREY, CS_LINE | CS_THIN,
			     MARK_CIRCLE, DENSE, x, y, NULL, NULL);
	}
}

/* Returns 1 when the line was drawn. */
static int amdahl_fit_line(struct chart *c, const struct amd_strategy_stats *st, int color,
			   double nmax, int efficiency)
{
	if (!st->amdahl.ok || st->npoints < 2 || !(st->amdahl.serial_fraction >= 0) ||
	    st->amdahl.serial_fraction >= 1)
		return 0; /* no model, or one outside Amdahl's range (B < 0: slower with n) */
	double b = st->base_n, x[DENSE], y[DENSE];
	double tb = st->amdahl.a + st->amdahl.b / b;
	for (int j = 0; j < DENSE; j++) {
		x[j] = b * pow(nmax / b, j / (double)(DENSE - 1));
		double sp = tb / (st->amdahl.a + st->amdahl.b / x[j]);
		y[j] = efficiency ? sp * b / x[j] * 100 : sp;
	}
	char name[160];
	snprintf(name, sizeof name, "%s: Amdahl fit", st->strategy);
	chart_series(c, name, color, CS_LINE | CS_DASHED, MARK_CIRCLE, DENSE, x, y, NULL, NULL);
	return 1;
}

/* The USL fit X(n) = γn / (1 + α(n−1) + βn(n−1)) of the rate 1/T as a
 * speedup curve X(n)/X(b), dotted in the strategy's colour. */
static void usl_fit_line(struct chart *c, const struct amd_strategy_stats *st, int color,
			 double nmax)
{
	const struct amd_fit *u = &st->usl;
	if (!u->ok || st->npoints < 3 || !num(u->alpha) || !num(u->beta))
		return;
	double b = st->base_n, x[DENSE], y[DENSE];
	double xb = b / (1 + u->alpha * (b - 1) + u->beta * b * (b - 1));
	for (int j = 0; j < DENSE; j++) {
		x[j] = b * pow(nmax / b, j / (double)(DENSE - 1));
		y[j] = x[j] / (1 + u->alpha * (x[j] - 1) + u->beta * x[j] * (x[j] - 1)) / xb;
		if (!(y[j] > 0))
			y[j] = NAN;
	}
	char name[160];
	snprintf(name, sizeof name, "%s: USL fit", st->strategy);
	chart_series(c, name, color, CS_LINE | CS_DOTTED, MARK_CIRCLE, DENSE, x, y, NULL, NULL);
}

static void speedup_bands(struct chart *c, const struct amd_sweep_stats *s)
{
	for (size_t i = 0; i < s->nstrategies; i++) {
		const struct amd_strategy_stats *st = &s->strategies[i];
		double x[256], lo[256], hi[256], y[256];
		size_t n = st->npoints < 256 ? st->npoints : 256;
		for (size_t k = 0; k < n; k++) {
			x[k] = st->points[k].n;
			y[k] = st->points[k].speedup;
			lo[k] = st->points[k].ci_speedup.valid ? st->points[k].ci_speedup.lo : NAN;
			hi[k] = st->points[k].ci_speedup.valid ? st->points[k].ci_speedup.hi : NAN;
			if (k == 0 && !st->points[k].ci_speedup.valid) /* the base: exactly 1 */
				lo[k] = hi[k] = st->points[k].speedup;
		}
		chart_series(c, NULL, (int)i, CS_BAND, MARK_CIRCLE, n, x, y, lo, hi);
	}
}

static void base_text(const struct amd_sweep_stats *s, char *buf, size_t n)
{
	size_t used = 0;
	buf[0] = 0;
	for (size_t i = 0; i < s->nstrategies && used < n; i++) {
		const struct amd_strategy_stats *st = &s->strategies[i];
		if (st->npoints < 2)
			continue;
		used += (size_t)snprintf(buf + used, n - used, "%s%s b = %g, T(b) = %.3g s", used ? "; " : "",
					 st->strategy, st->base_n, st->base_value);
	}
}

static void speedup(struct report_charts *rc, const struct amd_sweep_stats *s)
{
	double lo, hi;
	axis_extent(s, &lo, &hi);
	struct chart *c = xy_chart(s, "Speedup", "speedup S(n) = T(b) / T(n) (×)");
	if (use_log2(s))
		chart_yscale(c, CHART_LOG2); /* log-log: ideal scaling is a straight line */
	else
		chart_yrange(c, NAN, NAN, 1);
	ideal_lines(c, s, hi);
	speedup_bands(c, s);
	strategy_lines(c, s, p_speedup, NULL, 0);
	int usl_drawn = 0, amdahl_drawn = 0;
	for (size_t i = 0; i < s->nstrategies; i++) {
		amdahl_drawn |= amdahl_fit_line(c, &s->strategies[i], (int)i, hi, 0);
		usl_fit_line(c, &s->strategies[i], (int)i, hi);
		usl_drawn |= s->strategies[i].usl.ok && s->strategies[i].npoints >= 3;
	}
	char bases[512];
	base_text(s, bases, sizeof bases);
	char rpp[32];
	report_runs_per_point(s, rpp, sizeof rpp);
	chart_subtitle(c, "%s runs per point; %s%s%s", rpp, ci_note(s, ci_speedup, "band"),
		       amdahl_drawn ? "; dashed: Amdahl fit" : "", usl_drawn ? "; dotted: USL fit" : "");
	size_t total;
	int bands = ci_count(s, ci_speedup, &total) > 0;
	add(rc, "speedup", c, "Speedup",
	    "Speedup relative to the smallest n of each strategy (%s). The grey line is ideal "
	    "linear scaling%s; the dashed line is the least-squares Amdahl model T(n) = A + B/n "
	    "(drawn when its serial fraction lies between 0 and 1)%s.",
	    bases, bands ? "; the shaded band is the 95% bootstrap interval of the speedup" : "",
	    usl_drawn ? "; the dotted line is the Universal Scalability Law fit of the rate 1/T, "
			"X(n) = γn/(1 + α(n−1) + βn(n−1)), as X(n)/X(b)" : "");
}

static void efficiency(struct report_charts *rc, const struct amd_sweep_stats *s)
{
	double lo, hi;
	axis_extent(s, &lo, &hi);
	struct chart *c = xy_chart(s, "Parallel efficiency", "efficiency E(n) = S(n)·b/n (%)");
	chart_yrange(c, 0, NAN, 1);
	chart_ref(c, 100, "ideal 100%");
	strategy_lines(c, s, p_eff, ci_eff, CS_ERRBARS);
	int fitted = 0;
	for (size_t i = 0; i < s->nstrategies; i++)
		fitted |= amdahl_fit_line(c, &s->strategies[i], (int)i, hi, 1);
	char rpp[32];
	report_runs_per_point(s, rpp, sizeof rpp);
	chart_subtitle(c, "%s runs per point; %s%s", rpp, ci_note(s, ci_speedup, "bars"),
		       fitted ? "; dashed: Amdahl fit" : "");
	add(rc, "efficiency", c, "Parallel efficiency",
	    "Efficiency E(n) = S(n)·b/n: the share of ideal speedup each configuration reaches. "
	    "100%% is perfect scaling; below 50%% half of the added workers' time is lost.");
}

static void throughput(struct report_charts *rc, const struct amd_sweep_stats *s)
{
	char rpp[32];
	report_runs_per_point(s, rpp, sizeof rpp);
	struct chart *c = xy_chart(s, "Throughput", "throughput (samples/s)");
	chart_yrange(c, NAN, NAN, 1);
	strategy_lines(c, s, p_thr, NULL, 0);
	chart_subtitle(c, "total samples over total time of %s runs per point", rpp);
	add(rc, "throughput", c, "Throughput",
	    "Training throughput per configuration, aggregated as total samples over total time "
	    "across its runs (a harmonic mean, not an average of rates).");
}

/* Grouped bars: a group per axis value, a bar per strategy. */
static struct chart *grouped(const struct amd_sweep_stats *s, const char *title,
			     const char *ylabel, point_value v, double scale)
{
	double xs[256];
	size_t nx = 0;
	for (size_t i = 0; i < s->nstrategies; i++)
		for (size_t k = 0; k < s->strategies[i].npoints; k++) {
			double n = s->strategies[i].points[k].n;
			size_t j = 0;
			while (j < nx && xs[j] != n)
				j++;
			if (j == nx && nx < 256)
				xs[nx++] = n;
		}
	for (size_t a = 1; a < nx; a++) /* insertion sort */
		for (size_t b = a; b > 0 && xs[b - 1] > xs[b]; b--) {
			double t = xs[b];
			xs[b] = xs[b - 1];
			xs[b - 1] = t;
		}
	struct chart *c = chart_new(CHART_BARS, title, report_axis_label(s), ylabel);
	for (size_t j = 0; j < nx; j++) {
		char lab[32];
		snprintf(lab, sizeof lab, "%g", xs[j]);
		chart_group(c, lab, NULL);
	}
	double *vals = calloc(nx ? nx : 1, sizeof *vals);
	for (size_t i = 0; i < s->nstrategies; i++) {
		const struct amd_strategy_stats *st = &s->strategies[i];
		for (size_t j = 0; j < nx; j++) {
			vals[j] = NAN;
			for (size_t k = 0; k < st->npoints; k++)
				if (st->points[k].n == xs[j])
					vals[j] = v(&st->points[k]) * scale;
		}
		chart_bars(c, st->strategy, (int)i, 0, vals, NULL, NULL);
	}
	free(vals);
	return c;
}

static double max_of(const struct amd_sweep_stats *s, point_value v)
{
	double m = 0;
	for (size_t i = 0; i < s->nstrategies; i++)
		for (size_t k = 0; k < s->strategies[i].npoints; k++) {
			double x = v(&s->strategies[i].points[k]);
			if (num(x) && x > m)
				m = x;
		}
	return m;
}

static void energy_unit(double max_j, const char **unit, double *scale)
{
	if (max_j >= 3.6e5) {
		*unit = "Wh";
		*scale = 1 / 3600.0;
	} else if (max_j >= 1e4) {
		*unit = "kJ";
		*scale = 1e-3;
	} else if (max_j < 0.1) {
		*unit = "mJ";
		*scale = 1e3;
	} else {
		*unit = "J";
		*scale = 1;
	}
}

static void energy(struct report_charts *rc, const struct amd_sweep_stats *s)
{
	char rpp[32], yl[96];
	report_runs_per_point(s, rpp, sizeof rpp);
	const char *unit;
	double k;
	if (any_point(s, p_e_epoch)) {
		energy_unit(max_of(s, p_e_epoch), &unit, &k);
		snprintf(yl, sizeof yl, "energy per epoch, per GPU (%s)", unit);
		struct chart *c = grouped(s, "Energy per epoch", yl, p_e_epoch, k);
		chart_value_labels(c, k == 1 ? "%.0f" : "%.1f");
		chart_subtitle(c, "mean over %s runs per point, each GPU counted on its own", rpp);
		add(rc, "energy_epoch", c, "Energy per epoch",
		    "Energy of one epoch on one GPU: power integrated over the epoch (itwinai's power × "
		    "probing interval), per GPU and per run, never summed over repeats.");
	}
	if (any_point(s, p_e_sol)) {
		energy_unit(max_of(s, p_e_sol), &unit, &k);
		snprintf(yl, sizeof yl, "energy to solution, all GPUs (%s)", unit);
		struct chart *c = grouped(s, "Energy to solution", yl, p_e_sol, k);
		chart_value_labels(c, k == 1 ? "%.0f" : "%.1f");
		chart_subtitle(c, "one training run on all its GPUs; mean of %s runs per point", rpp);
		add(rc, "energy_solution", c, "Energy to solution",
		    "Energy of a whole training run summed over its GPUs, as a mean over the repeats "
		    "of each configuration: what the run costs, to compare with its speedup.");
	}
	if (any_point(s, p_e_sample)) {
		energy_unit(max_of(s, p_e_sample), &unit, &k);
		snprintf(yl, sizeof yl, "energy per sample (%s)", unit);
		struct chart *c = xy_chart(s, "Energy per sample", yl);
		chart_yrange(c, NAN, NAN, 1);
		for (size_t i = 0; i < s->nstrategies; i++) {
			const struct amd_strategy_stats *st = &s->strategies[i];
			double x[256], y[256];
			size_t n = 0;
			for (size_t j = 0; j < st->npoints && n < 256; j++)
				if (num(st->points[j].energy_per_sample_j)) {
					x[n] = st->points[j].n;
					y[n++] = st->points[j].energy_per_sample_j * k;
				}
			if (n)
				chart_series(c, st->strategy, (int)i, CS_LINE | CS_POINTS, mark(i), n, x, y,
					     NULL, NULL);
		}
		chart_subtitle(c, "energy of all GPUs over samples processed; %s runs per point", rpp);
		add(rc, "energy_sample", c, "Energy per sample",
		    "Energy per training sample: the figure to minimise when the budget is energy, "
		    "not time.");
	}
}

static void utilisation(struct report_charts *rc, const struct amd_sweep_stats *s)
{
	char rpp[32];
	report_runs_per_point(s, rpp, sizeof rpp);
	struct chart *c = grouped(s, "GPU utilisation", "mean GPU utilisation (%)", p_util, 1);
	chart_yrange(c, 0, 100, 1);
	chart_value_labels(c, "%.0f%%");
	chart_subtitle(c, "mean over GPUs and samples of %s runs per point", rpp);
	add(rc, "gpu_util", c, "GPU utilisation",
	    "Mean GPU utilisation reported by NVML/nvidia-smi: the share of time a kernel was "
	    "running, not how busy the GPU's units were.");
}

/* Stacked bars with one group per (strategy, n). */
static struct chart *per_config(const struct amd_sweep_stats *s, const char *title,
				const char *ylabel, size_t *ngroups)
{
	struct chart *c = chart_new(CHART_BARS, title, report_axis_label(s), ylabel);
	*ngroups = 0;
	for (size_t i = 0; i < s->nstrategies; i++)
		for (size_t k = 0; k < s->strategies[i].npoints; k++) {
			char lab[32];
			snprintf(lab, sizeof lab, "%g", s->strategies[i].points[k].n);
			chart_group(c, lab, s->strategies[i].strategy);
			(*ngroups)++;
		}
	chart_stacked(c, 1);
	chart_yrange(c, 0, 100, 1);
	return c;
}

static void compute_vs_other(struct report_charts *rc, const struct amd_sweep_stats *s)
{
	size_t ng;
	struct chart *c = per_config(s, "Computation vs other", "share of profiled GPU time (%)", &ng);
	double *v = calloc(ng + 1, sizeof *v), *other = calloc(ng + 1, sizeof *other);
	size_t g0 = 0;
	for (size_t i = 0; i < s->nstrategies; i++) {
		const struct amd_strategy_stats *st = &s->strategies[i];
		for (size_t j = 0; j < ng; j++)
			v[j] = NAN;
		for (size_t k = 0; k < st->npoints; k++) {
			double f = st->points[k].comp_fraction;
			v[g0 + k] = num(f) ? f * 100 : NAN;
			other[g0 + k] = num(f) ? 100 - f * 100 : NAN;
		}
		chart_bars(c, st->strategy, (int)i, 0, v, NULL, NULL);
		g0 += st->npoints;
	}
	chart_bars(c, "other", CHART_GREY, 1, other, NULL, NULL);
	chart_value_labels(c, "%.1f%%");
	chart_subtitle(c, "itwinai's definition: aten/c10/autograd self CUDA time over all ops");
	add(rc, "compute_vs_other", c, "Computation vs other",
	    "itwinai's computation fraction, for comparison with its plot: the self CUDA time of "
	    "operators matching aten::, at::, c10:: or autograd:: over that of all operators except "
	    "ProfilerStep*. Overlapping time is counted twice, so read it as a ratio of summed "
	    "operator times, not of wall time.");
	free(v);
	free(other);
}

/* Largest sum of the disjoint phase shares over the points: above 1 the
 * phases overlap (CPU traces: threads run at once) and cannot stack. */
static double max_phase_sum(const struct amd_sweep_stats *s, const int *phases, size_t np)
{
	double m = 0;
	for (size_t i = 0; i < s->nstrategies; i++)
		for (size_t k = 0; k < s->strategies[i].npoints; k++) {
			const struct amd_point_stats *pt = &s->strategies[i].points[k];
			double sum = 0;
			for (size_t p = 0; pt->has_trace && p < np; p++)
				if (num(pt->phase_share[phases[p]]))
					sum += pt->phase_share[phases[p]];
			m = fmax(m, sum);
		}
	return m;
}

static int phase_present(const struct amd_sweep_stats *s, int phase)
{
	for (size_t i = 0; i < s->nstrategies; i++)
		for (size_t k = 0; k < s->strategies[i].npoints; k++) {
			const struct amd_point_stats *pt = &s->strategies[i].points[k];
			if (pt->has_trace && num(pt->phase_share[phase]) && pt->phase_share[phase] > 0.0005)
				return 1;
		}
	return 0;
}

static void phase_split(struct report_charts *rc, const struct amd_sweep_stats *s)
{
	static const int phases[] = {AMD_PHASE_COMPUTE, AMD_PHASE_COMM, AMD_PHASE_MEMORY,
				     AMD_PHASE_OTHER, AMD_PHASE_IDLE};
	static const int colors[] = {0, 3, 1, 4, CHART_GREY};
	size_t np = sizeof phases / sizeof phases[0], ng;
	double total = max_phase_sum(s, phases, np);
	int overlapping = total > 1.02;
	struct chart *c = per_config(s, "Time by phase", "share of the trace window (%)", &ng);
	if (overlapping) {
		chart_stacked(c, 0);
		chart_yrange(c, NAN, NAN, 1);
	}
	double *v = calloc(ng + 1, sizeof *v);
	for (size_t p = 0; p < np; p++) {
		if (!phase_present(s, phases[p]))
			continue; /* a phase no rank spent time in: no empty legend entry */
		size_t g = 0;
		for (size_t i = 0; i < s->nstrategies; i++)
			for (size_t k = 0; k < s->strategies[i].npoints; k++, g++) {
				const struct amd_point_stats *pt = &s->strategies[i].points[k];
				v[g] = pt->has_trace ? pt->phase_share[phases[p]] * 100 : NAN;
			}
		chart_bars(c, amd_phase_names[phases[p]], colors[p],
			   !overlapping && phases[p] == AMD_PHASE_IDLE, v, NULL, NULL);
	}
	free(v);
	if (overlapping)
		chart_subtitle(c, "phases overlap (concurrent threads): side by side, up to %.0f%% of "
				  "the window in total", total * 100);
	else
		chart_subtitle(c, "union of kernel intervals per rank, mean over ranks and runs");
	add(rc, "phase_split", c, "Time by phase",
	    "Each rank's trace window split into compute, communication (NCCL/gloo), memory copies "
	    "and sets, other work and idle time (nothing running), as HTA computes it, mean over "
	    "ranks and runs.%s",
	    overlapping ? " Here the phases overlap in time (work on concurrent threads, as in CPU "
			  "traces), so their shares add up to more than 100% and are drawn side by "
			  "side rather than stacked."
			: " The shares add up to the wall time.");
}

static void comm_share(struct report_charts *rc, const struct amd_sweep_stats *s)
{
	struct chart *c = xy_chart(s, "Communication share", "communication / (compute + comm.) (%)");
	chart_yrange(c, 0, NAN, 1);
	strategy_lines(c, s, p_comm, NULL, 0);
	chart_subtitle(c, "kernel and collective time from the profiler traces, mean over ranks and runs");
	add(rc, "comm_share", c, "Communication share",
	    "Communication kernel time as a share of compute plus communication time. A share that "
	    "grows with n is what bends the speedup curve away from ideal.");
}

static void variance(struct report_charts *rc, const struct amd_sweep_stats *s)
{
	char rpp[32];
	report_runs_per_point(s, rpp, sizeof rpp);
	struct chart *c = xy_chart(s, "Run-to-run variation", metric_label(s));
	chart_yrange(c, NAN, NAN, 0);
	int log = use_log2(s);
	double lo, hi;
	axis_extent(s, &lo, &hi);
	double ns = (double)s->nstrategies;
	for (size_t i = 0; i < s->nstrategies; i++) {
		const struct amd_strategy_stats *st = &s->strategies[i];
		double off = ((double)i - (ns - 1) / 2) * 0.1;
		size_t total = 0;
		for (size_t k = 0; k < st->npoints; k++)
			total += st->points[k].nruns;
		double *x = calloc(total + 1, sizeof *x), *y = calloc(total + 1, sizeof *y);
		double *mx = calloc(st->npoints + 1, sizeof *mx), *my = calloc(st->npoints + 1, sizeof *my);
		size_t m = 0;
		for (size_t k = 0; k < st->npoints; k++) {
			const struct amd_point_stats *p = &st->points[k];
			double xo = log ? p->n * pow(2, off) : p->n + off * (hi > lo ? hi - lo : 1) / 2;
			for (size_t r = 0; r < p->nruns; r++) {
				x[m] = xo;
				y[m++] = p->runs[r].value;
			}
			mx[k] = xo;
			my[k] = p->median;
		}
		chart_series(c, st->strategy, (int)i, CS_POINTS | CS_JITTER, mark(i), m, x, y, NULL, NULL);
		chart_series(c, NULL, (int)i, CS_POINTS, MARK_DASH, st->npoints, mx, my, NULL, NULL);
		free(x);
		free(y);
		free(mx);
		free(my);
	}
	chart_subtitle(c, "each dot is one run (%s per point); the bar is the median", rpp);
	add(rc, "variance", c, "Run-to-run variation",
	    "Every run's value, so that a configuration's spread and any outlying repeat can be "
	    "seen; the table gives sd, coefficient of variation and min/median/max per point.");
}

/* ---- step-time breakdown from the runtime step profiler ---- */

static const char *const step_phases[] = {"data", "forward", "backward", "optimizer"};
#define NSTEP 4

static int parse_step_key(const char *key, char *loader, size_t n)
{
	const char *p = key + strlen("profile/train/");
	const char *slash = strchr(p, '/');
	if (!slash || strncmp(p, "dl_", 3) != 0)
		return -1;
	for (int i = 0; i < NSTEP; i++) {
		char want[64];
		snprintf(want, sizeof want, "/time_%s_ms", step_phases[i]);
		if (strcmp(slash, want) == 0) {
			snprintf(loader, n, "%.*s", (int)(slash - p - 3), p + 3);
			return i;
		}
	}
	return -1;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double median_of(double *v, size_t n)
{
	if (!n)
		return NAN;
	qsort(v, n, sizeof *v, cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Runs sharing a strategy and axis value: the step profiler's groups,
 * taken from the run model so that they exist even when the sweep has
 * no epoch metric for the statistics. */
struct step_group {
	char strategy[128];
	double x;
	int64_t *runs;
	size_t nruns;
};

static double run_axis_value(struct amd_store *st, const struct amd_sweep_stats *s,
			     const struct amd_run_view *r)
{
	if (s->scaling)
		return r->n;
	char *v = amd_run_param(st, r->id, s->axis);
	double x = NAN;
	if (!v || amd_parse_double(v, &x) < 0)
		x = NAN;
	free(v);
	return x;
}

static int cmp_group(const void *a, const void *b)
{
	const struct step_group *x = a, *y = b;
	int c = strcmp(x->strategy, y->strategy);
	return c ? c : (x->x > y->x) - (x->x < y->x);
}

static size_t step_groups(struct amd_store *st, const struct amd_sweep_stats *s,
			  struct step_group **out, struct amd_err *err)
{
	struct amd_run_view *runs;
	size_t nr, ng = 0;
	*out = NULL;
	if (amd_runs_list(st, s->sweep, &runs, &nr, err) < 0)
		return 0;
	struct step_group *g = calloc(nr + 1, sizeof *g);
	for (size_t i = 0; g && i < nr; i++) {
		if (!amd_status_ok(runs[i].status))
			continue;
		const char *strategy = runs[i].strategy ? runs[i].strategy : "?";
		double x = run_axis_value(st, s, &runs[i]);
		size_t k = 0;
		while (k < ng && !(strcmp(g[k].strategy, strategy) == 0 &&
				   (g[k].x == x || (isnan(x) && isnan(g[k].x)))))
			k++;
		if (k == ng) {
			snprintf(g[k].strategy, sizeof g[k].strategy, "%s", strategy);
			g[k].x = x;
			g[k].runs = calloc(nr, sizeof *g[k].runs);
			ng++;
		}
		if (g[k].runs)
			g[k].runs[g[k].nruns++] = runs[i].id;
	}
	amd_runs_free(runs, nr);
	if (g)
		qsort(g, ng, sizeof *g, cmp_group);
	*out = g;
	return ng;
}

/* Median over the group's runs of each run's median logged value. */
static double group_key_median(struct amd_store *st, const struct step_group *g,
			       const char *key)
{
	double *per_run = calloc(g->nruns + 1, sizeof *per_run);
	size_t nr = 0;
	for (size_t r = 0; r < g->nruns; r++) {
		struct amd_point *pts;
		size_t n;
		struct amd_err e;
		if (amd_run_metric(st, g->runs[r], key, &pts, &n, &e) < 0)
			continue;
		double *v = calloc(n + 1, sizeof *v);
		size_t m = 0;
		for (size_t i = 0; i < n; i++)
			if (num(pts[i].value))
				v[m++] = pts[i].value;
		if (m)
			per_run[nr++] = median_of(v, m);
		free(v);
		free(pts);
	}
	double med = median_of(per_run, nr);
	free(per_run);
	return med;
}

static size_t step_loaders(struct amd_store *st, const struct amd_sweep_stats *s,
			   char loaders[8][64], struct amd_err *err)
{
	char **keys;
	size_t nk, nl = 0;
	if (amd_store_sweep_metric_keys(st, s->sweep, "profile/train/", &keys, &nk, err) < 0)
		return (size_t)-1;
	for (size_t i = 0; i < nk; i++) {
		char l[64];
		if (parse_step_key(keys[i], l, sizeof l) < 0)
			continue;
		size_t j = 0;
		while (j < nl && strcmp(loaders[j], l) != 0)
			j++;
		if (j == nl && nl < 8)
			snprintf(loaders[nl++], 64, "%s", l);
	}
	amd_strings_free(keys, nk);
	return nl;
}

/* Per loader: the data-loading share of a step where it is largest and
 * where it is smallest. v holds NSTEP rows of ng*nl values. */
static void step_notes(struct report_charts *rc, const struct amd_sweep_stats *s,
		       const struct step_group *g, size_t ng, char loaders[8][64], size_t nl,
		       const double *v)
{
	size_t stride = ng * nl;
	for (size_t l = 0; l < nl; l++) {
		long hi = -1, lo = -1;
		double shi = 0, slo = 0;
		for (size_t k = 0; k < ng; k++) {
			size_t i = k * nl + l;
			double total = 0;
			for (int ph = 0; ph < NSTEP; ph++)
				total += num(v[ph * stride + i]) ? v[ph * stride + i] : 0;
			if (!num(v[i]) || total <= 0)
				continue;
			double share = v[i] / total;
			if (hi < 0 || share > shi)
				hi = (long)k, shi = share;
			if (lo < 0 || share < slo)
				lo = (long)k, slo = share;
		}
		if (hi < 0)
			continue;
		const char *ax = report_axis_name_short(s);
		if (hi == lo)
			note(rc, "Loader %s: data loading takes %.0f%% of a training step (%s, %s = %g).",
			     loaders[l], shi * 100, g[hi].strategy, ax, g[hi].x);
		else
			note(rc, "Loader %s: data loading takes %.0f%% of a training step at %s = %g "
				 "(%s), against %.0f%% at %s = %g.",
			     loaders[l], shi * 100, ax, g[hi].x, g[hi].strategy, slo * 100, ax, g[lo].x);
	}
}

static struct chart *step_chart(struct report_charts *rc, struct amd_store *st,
				const struct amd_sweep_stats *s, const struct step_group *g,
				size_t ng, char loaders[8][64], size_t nl, size_t *runs_lo,
				size_t *runs_hi)
{
	struct chart *c = chart_new(CHART_BARS, "Training step time by phase", "data loader",
				    "time per step (ms)");
	*runs_lo = (size_t)-1;
	*runs_hi = 0;
	for (size_t k = 0; k < ng; k++) {
		char sup[200];
		snprintf(sup, sizeof sup, "%s, %s = %g", g[k].strategy, report_axis_name_short(s), g[k].x);
		for (size_t l = 0; l < nl; l++)
			chart_group(c, loaders[l], sup);
		*runs_lo = g[k].nruns < *runs_lo ? g[k].nruns : *runs_lo;
		*runs_hi = g[k].nruns > *runs_hi ? g[k].nruns : *runs_hi;
	}
	size_t stride = ng * nl;
	double *v = calloc(NSTEP * stride + 1, sizeof *v);
	int any = 0;
	for (int ph = 0; ph < NSTEP; ph++) {
		double *row = v + (size_t)ph * stride;
		size_t i = 0;
		for (size_t k = 0; k < ng; k++)
			for (size_t l = 0; l < nl; l++) {
				char key[160];
				snprintf(key, sizeof key, "profile/train/dl_%s/time_%s_ms", loaders[l],
					 step_phases[ph]);
				row[i] = group_key_median(st, &g[k], key);
				any |= num(row[i++]);
			}
		chart_bars(c, step_phases[ph], ph == 0 ? 3 : ph - 1, 0, row, NULL, NULL);
	}
	if (any)
		step_notes(rc, s, g, ng, loaders, nl, v);
	free(v);
	if (!any) {
		chart_free(c);
		return NULL;
	}
	chart_stacked(c, 1);
	chart_value_labels(c, "%.1f");
	return c;
}

static int step_breakdown(struct report_charts *rc, struct amd_store *st,
			  const struct amd_sweep_stats *s, struct amd_err *err)
{
	char loaders[8][64];
	size_t nl = step_loaders(st, s, loaders, err);
	if (nl == (size_t)-1)
		return -1;
	struct step_group *g = NULL;
	size_t ng = nl ? step_groups(st, s, &g, err) : 0;
	struct chart *c = NULL;
	size_t lo = 0, hi = 0;
	if (ng)
		c = step_chart(rc, st, s, g, ng, loaders, nl, &lo, &hi);
	for (size_t k = 0; k < ng; k++)
		free(g[k].runs);
	free(g);
	if (!c) {
		missing(rc, "Step-time breakdown: the runs logged no profile/train/dl_<loader>/time_*_ms "
			    "metrics (runtime step profiler).");
		return 0;
	}
	if (lo == hi)
		chart_subtitle(c, "median over logged steps of each run, then over its %zu runs", lo);
	else
		chart_subtitle(c, "median over logged steps of each run, then over its %zu–%zu runs", lo,
			       hi);
	add(rc, "step_breakdown", c, "Training step time by phase",
	    "Where a training step's time goes, per data loader, from the runtime step profiler "
	    "(profile/train/dl_<loader>/time_{data,forward,backward,optimizer}_ms): a tall data "
	    "segment means the GPU waits for input.");
	return 0;
}

/* ---- py-spy: where Python time goes ---- */

static int sweep_has_run(const struct amd_run_view *runs, size_t n, int64_t id)
{
	for (size_t i = 0; i < n; i++)
		if (runs[i].id == id)
			return 1;
	return 0;
}

static struct chart *pyspy_chart(const struct amd_pyspy_top *top, const char *label)
{
	struct chart *c = chart_new(CHART_HBARS, "Python time: top functions", NULL,
				    "thread-seconds (s)");
	double *self = calloc(top->n + 1, sizeof *self), *total = calloc(top->n + 1, sizeof *total);
	for (size_t i = 0; i < top->n; i++) {
		const struct amd_pyspy_fn *f = &top->v[i];
		char row[512];
		if (f->file)
			snprintf(row, sizeof row, "%s (%s)", f->name, amd_basename(f->file));
		else
			snprintf(row, sizeof row, "%s", f->name);
		chart_group(c, row, NULL);
		self[i] = f->self_seconds;
		total[i] = f->total_seconds;
	}
	chart_bars(c, "self (in the function)", 0, 0, self, NULL, NULL);
	chart_bars(c, "total (with callees)", 4, 0, total, NULL, NULL);
	chart_value_labels(c, "%.1f");
	chart_subtitle(c, "py-spy, %s: %.1f thread-seconds in %lld samples, %zu thread%s", label,
		       top->seconds, (long long)top->samples, top->threads,
		       top->threads == 1 ? "" : "s");
	free(self);
	free(total);
	return c;
}

/* Icicle colours: one per library (the directory under site-packages or
 * dist-packages) or, outside them, per file; in order of first
 * appearance, cycling through the palette. */
struct lib_colors {
	char names[64][128];
	size_t n;
};

static int library_color(struct lib_colors *lc, const char *file)
{
	if (!file)
		return CHART_GREY;
	char lib[128];
	const char *p = strstr(file, "site-packages/");
	if (!p)
		p = strstr(file, "dist-packages/");
	if (p) {
		p = strchr(p, '/') + 1;
		snprintf(lib, sizeof lib, "%.*s", (int)strcspn(p, "/"), p);
	} else
		snprintf(lib, sizeof lib, "%s", amd_basename(file));
	for (size_t i = 0; i < lc->n; i++)
		if (strcmp(lc->names[i], lib) == 0)
			return (int)(i % CHART_PALETTE_SIZE);
	if (lc->n < 64)
		snprintf(lc->names[lc->n++], sizeof lc->names[0], "%s", lib);
	return (int)((lc->n - 1) % CHART_PALETTE_SIZE);
}

#define ICICLE_MIN_SHARE 0.005 /* frames under 0.5% of all samples are left out */
#define ICICLE_MAX_DEPTH 24

static struct chart *icicle_chart(const struct amd_pyspy_trie *t, const char *label)
{
	char caption[160];
	snprintf(caption, sizeof caption,
		 "width: thread-seconds (the full width is %.1f s); depth: callee below caller",
		 t->seconds);
	struct chart *c = chart_new(CHART_ICICLE, "Python time: call tree (icicle)", caption, NULL);
	long *cell = malloc((t->n + 1) * sizeof *cell);
	struct lib_colors *lc = calloc(1, sizeof *lc);
	if (!c || !cell || !lc) {
		free(cell);
		free(lc);
		return c;
	}
	long root = chart_cell(c, -1, t->seconds, "all", CHART_GREY);
	size_t omitted = 0;
	for (size_t i = 0; i < t->n; i++) {
		const struct amd_pyspy_node *nd = &t->v[i];
		long parent = nd->parent < 0 ? root : cell[nd->parent];
		cell[i] = -1;
		if (parent < 0 || nd->depth >= ICICLE_MAX_DEPTH ||
		    (double)nd->total_samples < ICICLE_MIN_SHARE * (double)t->samples) {
			omitted += parent >= 0;
			continue;
		}
		char name[512];
		if (nd->file)
			snprintf(name, sizeof name, "%s (%s:%d)", nd->name, amd_basename(nd->file),
				 nd->line);
		else
			snprintf(name, sizeof name, "%s", nd->name);
		cell[i] = chart_cell(c, parent, nd->total_seconds, name, library_color(lc, nd->file));
	}
	chart_subtitle(c, "py-spy, %s: %lld samples; %zu call subtree%s under %.1f%% left out", label,
		       (long long)t->samples, omitted, omitted == 1 ? "" : "s", ICICLE_MIN_SHARE * 100);
	free(cell);
	free(lc);
	return c;
}

static int pyspy_icicle(struct report_charts *rc, struct amd_store *st,
			const struct amd_pyspy_sel *sel, size_t shown, struct amd_err *err)
{
	struct amd_pyspy_trie trie;
	if (amd_pyspy_trie_query(st, sel, &trie, err) < 0)
		return -1;
	if (trie.n && trie.samples > 0) {
		char name[32];
		snprintf(name, sizeof name, shown ? "pyspy_icicle_%zu" : "pyspy_icicle", shown + 1);
		add(rc, name, icicle_chart(&trie, sel->label), "Python time: call tree",
		    "The run's Python call stacks merged from the root (py-spy): each frame is a box "
		    "as wide as the thread-seconds spent in it and its callees, with its callees "
		    "beneath it; colour marks the library or file. Frames under %.1f%% of the samples "
		    "are left out.",
		    ICICLE_MIN_SHARE * 100);
	}
	amd_pyspy_trie_free(&trie);
	return 0;
}

static int pyspy_charts(struct report_charts *rc, struct amd_store *st,
			const struct amd_sweep_stats *s, struct amd_err *err)
{
	struct amd_pyspy_sel sel[64];
	int n = amd_pyspy_runs(st, sel, 64, err);
	struct amd_run_view *runs;
	size_t nr, shown = 0;
	if (n < 0 || amd_runs_list(st, s->sweep, &runs, &nr, err) < 0)
		return -1;
	for (int i = 0; i < n && i < 64 && shown < 2; i++) {
		if (!sweep_has_run(runs, nr, sel[i].run_id))
			continue;
		struct amd_pyspy_top_opts o = {.order = AMD_PYSPY_SELF, .limit = 12};
		struct amd_pyspy_top top;
		if (amd_pyspy_top_query(st, &sel[i], &o, &top, err) < 0) {
			amd_runs_free(runs, nr);
			return -1;
		}
		if (top.n) {
			char name[32];
			snprintf(name, sizeof name, shown ? "pyspy_top_%zu" : "pyspy_top", shown + 1);
			add(rc, name, pyspy_chart(&top, sel[i].label), "Python time: top functions",
			    "The Python functions where the run's threads spent the most samples "
			    "(py-spy): self time in the function itself and total time including what "
			    "it calls, in thread-seconds (samples over the sampling rate).");
			if (pyspy_icicle(rc, st, &sel[i], shown, err) < 0) {
				amd_pyspy_top_free(&top);
				amd_runs_free(runs, nr);
				return -1;
			}
			shown++;
		}
		amd_pyspy_top_free(&top);
	}
	amd_runs_free(runs, nr);
	if (!shown)
		missing(rc, "Python profile: no py-spy samples linked to these runs.");
	return 0;
}

/* ---- entry ---- */

static int any_trace(const struct amd_sweep_stats *s)
{
	for (size_t i = 0; i < s->nstrategies; i++)
		for (size_t k = 0; k < s->strategies[i].npoints; k++)
			if (s->strategies[i].points[k].has_trace)
				return 1;
	return 0;
}

static int any_multi_run(const struct amd_sweep_stats *s)
{
	for (size_t i = 0; i < s->nstrategies; i++)
		for (size_t k = 0; k < s->strategies[i].npoints; k++)
			if (s->strategies[i].points[k].nruns >= 2)
				return 1;
	return 0;
}

static void scaling_charts(struct report_charts *rc, const struct amd_sweep_stats *s)
{
	if (!world_axis(s))
		missing(rc, "Speedup and efficiency: the axis is %s, not the number of workers; "
			    "throughput and energy per sample tell this sweep's story.", s->axis);
	else if (!scalable(s))
		missing(rc, "Speedup and efficiency: every strategy was run at one n only, so there is "
			    "nothing to scale against.");
	else {
		speedup(rc, s);
		efficiency(rc, s);
	}
	if (any_point(s, p_thr))
		throughput(rc, s);
	else
		missing(rc, "Throughput: the runs logged no throughput_samples_per_s (or samples "
			    "and time to derive it).");
}

static void resource_charts(struct report_charts *rc, const struct amd_sweep_stats *s)
{
	if (any_point(s, p_e_epoch) || any_point(s, p_e_sol) || any_point(s, p_e_sample))
		energy(rc, s);
	else
		missing(rc, "Energy: no GPU energy or power metrics (gpu_energy_J, gpu_power_W, "
			    "nvidia-smi power.draw) for these runs.");
	if (s->has_util && any_point(s, p_util))
		utilisation(rc, s);
	else
		missing(rc, "GPU utilisation: no utilisation metrics or nvidia-smi samples.");
}

int report_charts_build(struct amd_store *st, const struct amd_sweep_stats *s,
			struct report_charts *out, struct amd_err *err)
{
	memset(out, 0, sizeof *out);
	int usable = any_point(s, p_median);
	if (usable) {
		epoch_time(out, s);
		scaling_charts(out, s);
	} else
		missing(out, "Epoch time, speedup, efficiency, throughput and run-to-run variation: no "
			     "run has a usable %s.", s->metric ? s->metric : "metric");
	resource_charts(out, s);
	if (any_point(s, p_comp))
		compute_vs_other(out, s);
	else
		missing(out, "Computation vs other: no torch_profiling_averages.csv or profiler traces "
			     "with operator times.");
	if (any_trace(s)) {
		phase_split(out, s);
		if (max_of(s, p_comm) > 0.05)
			comm_share(out, s);
		else
			missing(out, "Communication share: the traces hold no communication (one rank "
				     "per run, or no collectives).");
	} else
		missing(out, "Phase split and communication share: no PyTorch profiler traces linked "
			     "to these runs.");
	if (any_multi_run(s))
		variance(out, s);
	else if (usable)
		missing(out, "Run-to-run variation: one run per configuration; repeat runs (3 or more) "
			     "to see spread and get intervals.");
	if (step_breakdown(out, st, s, err) < 0 || pyspy_charts(out, st, s, err) < 0) {
		report_charts_free(out);
		return -1;
	}
	return 0;
}
