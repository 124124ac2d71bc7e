/* charts_scaling.c — epoch time, speedup, efficiency, throughput and
 * run-to-run variation (see charts_scaling.h). The model curves come
 * from lib/analysis (fit_curves.h); here they are only drawn. */
#include "charts_scaling.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "fit_curves.h"
#include "labels.h"
#include "sweep_plot.h"

static int epoch_time(struct report_charts *rc, const struct amd_sweep_stats *s,
		      struct amd_err *err)
{
	char rpp[32], metric[128], ci[160], cap[200];
	report_runs_per_point(s, rpp, sizeof rpp);
	report_metric_label(s, metric, sizeof metric);
	plot_ci_note(s, AMD_PV_MEDIAN, "bars", ci, sizeof ci);
	const char *agg = amd_aggregate_label(s->aggregate);
	plot_ci_caption(s, AMD_PV_MEDIAN, agg, cap, sizeof cap);
	struct chart *c = plot_xy(s, "Epoch time", metric);
	chart_yrange(c, NAN, NAN, 1);
	plot_strategy_lines(c, s, AMD_PV_MEDIAN, 1, 1, CS_ERRBARS);
	chart_subtitle(c, "%s of %s runs per point; %s", agg, rpp, ci);
	return report_chart_add(
		rc, err, "epoch_time", c, "Epoch time",
		"%s %s per configuration; each run's value is the median of its kept epochs (the "
		"rules are under Method). Error bars: %s; points with fewer than 3 runs have none.",
		s->aggregate == AMD_AGG_MLPERF ? "MLPerf mean" : "Median", metric, cap);
}

static void ideal_lines(struct chart *c, const struct amd_sweep_stats *s, double nmax)
{
	double bases[16];
	size_t nb = amd_sweep_bases(s, bases, 16);
	for (size_t k = 0; k < nb; k++) {
		double x[AMD_CURVE_POINTS], y[AMD_CURVE_POINTS];
		amd_ideal_curve(bases[k], nmax, x, y, AMD_CURVE_POINTS);
		chart_series(c, k == 0 ? "ideal (S = n/b)" : NULL, CHART_GREY, CS_LINE | CS_THIN,
			     MARK_CIRCLE, AMD_CURVE_POINTS, x, y, NULL, NULL);
	}
}

/* The strategy's Amdahl fit, dashed in its colour (efficiency: in
 * percent); 1 when drawn. */
static int amdahl_fit_line(struct chart *c, const struct amd_strategy_stats *st, int color,
			   double nmax, int efficiency)
{
	double x[AMD_CURVE_POINTS], y[AMD_CURVE_POINTS];
	if (!amd_amdahl_curve(st, nmax, efficiency, x, y, AMD_CURVE_POINTS))
		return 0;
	for (size_t j = 0; efficiency && j < AMD_CURVE_POINTS; j++)
		y[j] *= 100;
	char name[160];
	snprintf(name, sizeof name, "%s: Amdahl fit", st->strategy);
	chart_series(c, name, color, CS_LINE | CS_DASHED, MARK_CIRCLE, AMD_CURVE_POINTS, x, y, NULL,
		     NULL);
	return 1;
}

/* The USL fit as a speedup curve, dotted in the strategy's colour. */
static void usl_fit_line(struct chart *c, const struct amd_strategy_stats *st, int color,
			 double nmax)
{
	double x[AMD_CURVE_POINTS], y[AMD_CURVE_POINTS];
	if (!amd_usl_curve(st, nmax, x, y, AMD_CURVE_POINTS))
		return;
	char name[160];
	snprintf(name, sizeof name, "%s: USL fit", st->strategy);
	chart_series(c, name, color, CS_LINE | CS_DOTTED, MARK_CIRCLE, AMD_CURVE_POINTS, x, y, NULL,
		     NULL);
}

/* Strategy i's speedup interval as a band (the base, exactly 1, has
 * none of its own and is pinned to its value). */
static void speedup_band(struct chart *c, const struct amd_strategy_stats *st, int i)
{
	size_t n = st->npoints;
	double *x = calloc(4 * (n + 1), sizeof *x);
	if (!x) {
		chart_fail(c);
		return;
	}
	double *y = x + n + 1, *lo = y + n + 1, *hi = lo + n + 1;
	for (size_t k = 0; k < n; k++) {
		const struct amd_point_stats *p = &st->points[k];
		x[k] = p->n;
		y[k] = p->speedup;
		lo[k] = p->ci_speedup.valid ? p->ci_speedup.lo : NAN;
		hi[k] = p->ci_speedup.valid ? p->ci_speedup.hi : NAN;
		if (k == 0 && !p->ci_speedup.valid)
			lo[k] = hi[k] = p->speedup;
	}
	chart_series(c, NULL, i, CS_BAND, MARK_CIRCLE, n, x, y, lo, hi);
	free(x);
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

/* The speedup chart's lines: ideal, bands, data, fits; *amdahl and *usl
 * say whether a fit of that kind is shown. */
static void speedup_lines(struct chart *c, const struct amd_sweep_stats *s, double nmax,
			  int *amdahl, int *usl)
{
	ideal_lines(c, s, nmax);
	for (size_t i = 0; i < s->nstrategies; i++)
		speedup_band(c, &s->strategies[i], (int)i);
	plot_strategy_lines(c, s, AMD_PV_SPEEDUP, 1, 0, 0);
	*amdahl = *usl = 0;
	for (size_t i = 0; i < s->nstrategies; i++) {
		*amdahl |= amdahl_fit_line(c, &s->strategies[i], (int)i, nmax, 0);
		usl_fit_line(c, &s->strategies[i], (int)i, nmax);
		*usl |= s->strategies[i].usl.ok && s->strategies[i].npoints >= 3;
	}
}

static int speedup(struct report_charts *rc, const struct amd_sweep_stats *s, struct amd_err *err)
{
	double lo, hi;
	amd_sweep_axis_extent(s, &lo, &hi);
	struct chart *c = plot_xy(s, "Speedup", "speedup S(n) = T(b) / T(n) (×)");
	if (plot_log2(s))
		chart_yscale(c, CHART_LOG2); /* log-log: ideal scaling is a straight line */
	else
		chart_yrange(c, NAN, NAN, 1);
	int amdahl, usl;
	speedup_lines(c, s, hi, &amdahl, &usl);
	char bases[512], rpp[32], ci[160], cap[200], band[240];
	base_text(s, bases, sizeof bases);
	report_runs_per_point(s, rpp, sizeof rpp);
	plot_ci_note(s, AMD_PV_SPEEDUP, "band", ci, sizeof ci);
	plot_ci_caption(s, AMD_PV_SPEEDUP, "speedup", cap, sizeof cap);
	chart_subtitle(c, "%s runs per point; %s%s%s", rpp, ci, amdahl ? "; dashed: Amdahl fit" : "",
		       usl ? "; dotted: USL fit" : "");
	size_t total;
	int bands = amd_sweep_ci_count(s, AMD_PV_SPEEDUP, &total) > 0;
	snprintf(band, sizeof band, "; the shaded band is %s", cap);
	return report_chart_add(
		rc, err, "speedup", c, "Speedup",
		"Speedup relative to the smallest n of each strategy (%s). The grey line is ideal "
		"linear scaling%s; the dashed line is the least-squares Amdahl model T(n) = A + B/n "
		"(drawn when its serial fraction lies between 0 and 1)%s.",
		bases, bands ? band : "",
		usl ? "; the dotted line is the Universal Scalability Law fit of the rate 1/T, "
		      "X(n) = γn/(1 + α(n−1) + βn(n−1)), as X(n)/X(b)" : "");
}

static int efficiency(struct report_charts *rc, const struct amd_sweep_stats *s,
		      struct amd_err *err)
{
	double lo, hi;
	amd_sweep_axis_extent(s, &lo, &hi);
	struct chart *c = plot_xy(s, "Parallel efficiency", "efficiency E(n) = S(n)·b/n (%)");
	chart_yrange(c, 0, NAN, 1);
	chart_ref(c, 100, "ideal 100%");
	plot_strategy_lines(c, s, AMD_PV_EFFICIENCY, 100, 1, CS_ERRBARS);
	int fitted = 0;
	for (size_t i = 0; i < s->nstrategies; i++)
		fitted |= amdahl_fit_line(c, &s->strategies[i], (int)i, hi, 1);
	char rpp[32], ci[160];
	report_runs_per_point(s, rpp, sizeof rpp);
	plot_ci_note(s, AMD_PV_SPEEDUP, "bars", ci, sizeof ci);
	chart_subtitle(c, "%s runs per point; %s%s", rpp, ci, fitted ? "; dashed: Amdahl fit" : "");
	return report_chart_add(
		rc, err, "efficiency", c, "Parallel efficiency",
		"Efficiency E(n) = S(n)·b/n: the share of ideal speedup each configuration reaches. "
		"100%% is perfect scaling; below 50%% half of the added workers' time is lost.");
}

static int throughput(struct report_charts *rc, const struct amd_sweep_stats *s,
		      struct amd_err *err)
{
	char rpp[32];
	report_runs_per_point(s, rpp, sizeof rpp);
	struct chart *c = plot_xy(s, "Throughput", "throughput (samples/s)");
	chart_yrange(c, NAN, NAN, 1);
	plot_strategy_lines(c, s, AMD_PV_THROUGHPUT, 1, 0, 0);
	chart_subtitle(c, "total samples over total time of %s runs per point", rpp);
	return report_chart_add(
		rc, err, "throughput", c, "Throughput",
		"Training throughput per configuration, aggregated as total samples over total time "
		"across its runs (a harmonic mean, not an average of rates).");
}

static int speedup_efficiency(struct report_charts *rc, const struct amd_sweep_stats *s,
			      struct amd_err *err)
{
	if (!s->scaling)
		return report_chart_missing(
			rc, err, "Speedup and efficiency: the axis is %s, not the number of workers; "
				 "throughput and energy per sample tell this sweep's story.", s->axis);
	if (!amd_sweep_scalable(s))
		return report_chart_missing(
			rc, err, "Speedup and efficiency: every strategy was run at one n only, so "
				 "there is nothing to scale against.");
	if (speedup(rc, s, err) < 0)
		return -1;
	return efficiency(rc, s, err);
}

int report_scaling_charts(struct report_charts *rc, const struct amd_sweep_stats *s,
			  struct amd_err *err)
{
	if (epoch_time(rc, s, err) < 0 || speedup_efficiency(rc, s, err) < 0)
		return -1;
	if (amd_sweep_any(s, AMD_PV_THROUGHPUT))
		return throughput(rc, s, err);
	return report_chart_missing(rc, err, "Throughput: the runs logged no throughput_samples_per_s "
					     "(or samples and time to derive it).");
}

/* Strategy i's runs, each a dot at its configuration's x (offset per
 * strategy so that strategies sharing an x sit side by side), and its
 * medians as bars. */
static void variance_points(struct chart *c, const struct amd_sweep_stats *s, size_t i)
{
	const struct amd_strategy_stats *st = &s->strategies[i];
	int log = plot_log2(s);
	double lo, hi;
	amd_sweep_axis_extent(s, &lo, &hi);
	double ns = (double)s->nstrategies, off = ((double)i - (ns - 1) / 2) * 0.1;
	size_t total = 0, m = 0;
	for (size_t k = 0; k < st->npoints; k++)
		total += st->points[k].nruns;
	double *x = calloc(2 * (total + 1) + 2 * (st->npoints + 1), sizeof *x);
	if (!x) {
		chart_fail(c);
		return;
	}
	double *y = x + total + 1, *mx = y + total + 1, *my = mx + st->npoints + 1;
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
	chart_series(c, st->strategy, (int)i, CS_POINTS | CS_JITTER, plot_marker(i), m, x, y, NULL,
		     NULL);
	chart_series(c, NULL, (int)i, CS_POINTS, MARK_DASH, st->npoints, mx, my, NULL, NULL);
	free(x);
}

int report_variance_chart(struct report_charts *rc, const struct amd_sweep_stats *s,
			  struct amd_err *err)
{
	char rpp[32], metric[128];
	report_runs_per_point(s, rpp, sizeof rpp);
	report_metric_label(s, metric, sizeof metric);
	struct chart *c = plot_xy(s, "Run-to-run variation", metric);
	chart_yrange(c, NAN, NAN, 0);
	for (size_t i = 0; i < s->nstrategies; i++)
		variance_points(c, s, i);
	const char *agg = amd_aggregate_label(s->aggregate);
	chart_subtitle(c, "each dot is one run (%s per point); the bar is the %s", rpp, agg);
	return report_chart_add(
		rc, err, "variance", c, "Run-to-run variation",
		"Every run's value, so that a configuration's spread and any outlying repeat can be "
		"seen; the table gives sd, coefficient of variation and min/%s/max per point.", agg);
}
