/* findings.c — sentences computed from struct amd_sweep_stats for the
 * report's first page and summaries; see findings.h. */
#include "findings.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "num.h"
#include "table.h"

void report_text_add(struct report_text *t, const char *fmt, ...)
{
	char *s = NULL;
	va_list ap;
	va_start(ap, fmt);
	int rc = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (rc < 0)
		return;
	char **v = realloc(t->v, (t->n + 1) * sizeof *v);
	if (!v) {
		free(s);
		return;
	}
	t->v = v;
	t->v[t->n++] = s;
}

void report_text_free(struct report_text *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->v[i]);
	free(t->v);
	t->v = NULL;
	t->n = 0;
}

void report_num(double v, char *buf, size_t n)
{
	amd_cell_sig(buf, n, v); /* the one cell format (lib/core/table.h) */
}

void report_ci(const struct amd_ci *ci, double scale, const char *suffix, char *buf, size_t n)
{
	if (!ci->valid) {
		snprintf(buf, n, "%s", ci->why ? ci->why : "no CI");
		return;
	}
	char lo[32], hi[32];
	report_num(ci->lo * scale, lo, sizeof lo);
	report_num(ci->hi * scale, hi, sizeof hi);
	snprintf(buf, n, "%s–%s%s", lo, hi, suffix);
}

/* "95% CI a–b" or the reason there is none. */
static void ci_phrase(const struct amd_ci *ci, double scale, const char *suffix, char *buf,
		      size_t n)
{
	if (!ci->valid) {
		snprintf(buf, n, "%s", ci->why && *ci->why ? ci->why : "no CI");
		return;
	}
	char r[96];
	report_ci(ci, scale, suffix, r, sizeof r);
	snprintf(buf, n, "95%% CI %s", r);
}

static void strategy_list(const struct amd_sweep_stats *s, char *buf, size_t n)
{
	size_t used = 0;
	buf[0] = 0;
	for (size_t i = 0; i < s->nstrategies && used < n; i++)
		used += (size_t)snprintf(buf + used, n - used, "%s%s",
					 i == 0 ? "" : i + 1 == s->nstrategies ? " and " : ", ",
					 s->strategies[i].strategy);
}

static void overview(const struct amd_sweep_stats *s, struct report_text *out)
{
	double lo = INFINITY, hi = -INFINITY;
	size_t points = 0;
	for (size_t i = 0; i < s->nstrategies; i++)
		for (size_t k = 0; k < s->strategies[i].npoints; k++) {
			lo = fmin(lo, s->strategies[i].points[k].n);
			hi = fmax(hi, s->strategies[i].points[k].n);
			points++;
		}
	char strats[512];
	strategy_list(s, strats, sizeof strats);
	size_t used = s->nruns_total - s->nruns_excluded;
	const char *axis = s->scaling ? "n" : s->axis;
	if (points == 0) {
		report_text_add(out, "Sweep %s: %zu runs, none usable for statistics (%zu left out).",
				s->sweep, s->nruns_total, s->nruns_excluded);
		return;
	}
	char range[96];
	if (lo == hi)
		snprintf(range, sizeof range, "%s = %g only", axis, lo);
	else
		snprintf(range, sizeof range, "%s from %g to %g", axis, lo, hi);
	report_text_add(out, "Sweep %s: %zu runs in the statistics over %zu configuration%s of %s (%s)%s",
			s->sweep, used, points, points == 1 ? "" : "s", strats, range,
			s->nruns_excluded ? "" : ".");
	if (s->nruns_excluded) {
		char *last = out->v[out->n - 1];
		char *ext = NULL;
		if (asprintf(&ext, "%s; %zu run%s left out (failed or unfinished, listed in the appendix).",
			     last, s->nruns_excluded, s->nruns_excluded == 1 ? "" : "s") >= 0) {
			free(last);
			out->v[out->n - 1] = ext;
		}
	}
}

static const struct amd_point_stats *best_speedup(const struct amd_strategy_stats *st)
{
	const struct amd_point_stats *best = NULL;
	for (size_t k = 1; k < st->npoints; k++)
		if (amd_num_ok(st->points[k].speedup) && (!best || st->points[k].speedup > best->speedup))
			best = &st->points[k];
	return best;
}

/* A time metric (name ending in _s, lower is better) reads "an epoch
 * takes X s"; any other metric is named. */
static int time_metric(const struct amd_sweep_stats *s)
{
	size_t len = s->metric ? strlen(s->metric) : 0;
	return !s->higher_is_better && len > 2 && strcmp(s->metric + len - 2, "_s") == 0;
}

static void scaling_findings(const struct amd_sweep_stats *s, const struct amd_strategy_stats *st,
			     struct report_text *out)
{
	char a[32], b[32], ci[96];
	const char *unit = time_metric(s) ? " s" : "";
	const struct amd_point_stats *best = best_speedup(st);
	if (!best)
		return;
	report_num(st->base_value, b, sizeof b);
	ci_phrase(&best->ci_speedup, 1, "", ci, sizeof ci);
	if (best->speedup < 1)
		report_text_add(out, "%s never runs faster than at n = %g (%s(%g) = %s%s): its best "
				     "speedup is %.2f× (%s) at n = %g.",
				st->strategy, st->base_n, time_metric(s) ? "T" : s->metric, st->base_n, b,
				unit, best->speedup, ci, best->n);
	else
		report_text_add(out, "%s: best speedup %.2f× (%s) at n = %g, against n = %g "
				     "(%s(%g) = %s%s).",
				st->strategy, best->speedup, ci, best->n, st->base_n,
				time_metric(s) ? "T" : s->metric, st->base_n, b, unit);
	const struct amd_point_stats *last = &st->points[st->npoints - 1];
	ci_phrase(&last->ci_efficiency, 100, "%", ci, sizeof ci);
	report_text_add(out, "%s: at its largest n = %g, efficiency is %.0f%% (%s).",
			st->strategy, last->n, last->efficiency * 100, ci);
	for (size_t k = 1; k < st->npoints; k++) {
		const struct amd_point_stats *p = &st->points[k], *q = &st->points[k - 1];
		int worse = s->higher_is_better ? p->median <= q->median : p->median >= q->median;
		if (amd_num_ok(p->median) && amd_num_ok(q->median) && worse) {
			report_num(p->median, a, sizeof a);
			report_num(q->median, b, sizeof b);
			if (time_metric(s))
				report_text_add(out, "%s stops scaling after n = %g: at n = %g an epoch takes "
						     "%s s, against %s s at n = %g.",
						st->strategy, q->n, p->n, a, b, q->n);
			else
				report_text_add(out, "%s stops scaling after n = %g: at n = %g the median "
						     "%s is %s, against %s at n = %g.",
						st->strategy, q->n, p->n, s->metric, a, b, q->n);
			return;
		}
	}
	for (size_t k = 1; k < st->npoints; k++)
		if (amd_num_ok(st->points[k].efficiency) && st->points[k].efficiency < 0.5) {
			report_text_add(out, "%s still gets faster through n = %g, but its efficiency "
					     "drops below 50%% at n = %g (%.0f%%).",
					st->strategy, last->n, st->points[k].n, st->points[k].efficiency * 100);
			return;
		}
	report_text_add(out, "%s keeps scaling through n = %g with efficiency at or above 50%%.",
			st->strategy, last->n);
}

static void fit_findings(const struct amd_strategy_stats *st, struct report_text *out)
{
	if (!st->amdahl.ok || !(st->amdahl.serial_fraction >= 0 && st->amdahl.serial_fraction < 1))
		return;
	char ci[96];
	ci_phrase(&st->amdahl.ci_serial, 100, "%", ci, sizeof ci);
	double f = st->amdahl.serial_fraction;
	char limit[96] = "";
	if (f > 0)
		snprintf(limit, sizeof limit, ", which caps the speedup at 1/f ≈ %.0f×", 1 / f);
	report_text_add(out, "%s: the Amdahl fit T(n) = A + B/n gives a serial fraction of %.1f%% "
			     "(%s, R² %.3f)%s.",
			st->strategy, f * 100, ci, st->amdahl.r2, limit);
	if (st->usl.ok && amd_num_ok(st->usl.n_peak) && st->usl.n_peak > 0)
		report_text_add(out, "%s: the USL fit predicts peak throughput at n* ≈ %.1f.",
				st->strategy, st->usl.n_peak);
}

static void axis_findings(const struct amd_sweep_stats *s, const struct amd_strategy_stats *st,
			  struct report_text *out)
{
	const struct amd_point_stats *lo = NULL, *hi = NULL;
	for (size_t k = 0; k < st->npoints; k++) {
		const struct amd_point_stats *p = &st->points[k];
		if (!amd_num_ok(p->throughput))
			continue;
		if (!lo || p->throughput < lo->throughput)
			lo = p;
		if (!hi || p->throughput > hi->throughput)
			hi = p;
	}
	if (lo && hi && lo != hi) {
		char a[32], b[32];
		report_num(lo->throughput, a, sizeof a);
		report_num(hi->throughput, b, sizeof b);
		report_text_add(out, "%s: throughput is highest at %s = %g with %s samples/s, against "
				     "%s samples/s at %s = %g (%.1f×).",
				st->strategy, s->axis, hi->n, b, a, s->axis, lo->n,
				hi->throughput / lo->throughput);
	}
}

static void energy_findings(const struct amd_sweep_stats *s, struct report_text *out)
{
	const struct amd_point_stats *best = NULL, *worst = NULL;
	const char *bs = NULL, *ws = NULL;
	for (size_t i = 0; i < s->nstrategies; i++)
		for (size_t k = 0; k < s->strategies[i].npoints; k++) {
			const struct amd_point_stats *p = &s->strategies[i].points[k];
			if (!amd_num_ok(p->energy_per_sample_j))
				continue;
			if (!best || p->energy_per_sample_j < best->energy_per_sample_j) {
				best = p;
				bs = s->strategies[i].strategy;
			}
			if (!worst || p->energy_per_sample_j > worst->energy_per_sample_j) {
				worst = p;
				ws = s->strategies[i].strategy;
			}
		}
	if (!best)
		return;
	const char *axis = s->scaling ? "n" : s->axis;
	char a[32], b[32];
	report_num(best->energy_per_sample_j, a, sizeof a);
	report_num(worst->energy_per_sample_j, b, sizeof b);
	if (best == worst)
		report_text_add(out, "Energy per sample: %s J (%s, %s = %g).", a, bs, axis, best->n);
	else
		report_text_add(out, "Energy per sample is lowest for %s at %s = %g: %s J, against %s J "
				     "for %s at %s = %g (%.1f× more).",
				bs, axis, best->n, a, b, ws, axis, worst->n,
				worst->energy_per_sample_j / best->energy_per_sample_j);
}

static void comm_finding(const struct amd_sweep_stats *s, const struct amd_strategy_stats *st,
			 struct report_text *out)
{
	const struct amd_point_stats *first = NULL, *last = NULL;
	for (size_t k = 0; k < st->npoints; k++) {
		const struct amd_point_stats *p = &st->points[k];
		if (!p->has_trace || !amd_num_ok(p->comm_share) || p->comm_share <= 0.0005)
			continue;
		if (!first)
			first = p;
		last = p;
	}
	if (!last)
		return;
	const char *axis = s->scaling ? "n" : s->axis;
	if (first == last)
		report_text_add(out, "%s: communication takes %.0f%% of compute plus communication "
				     "time at %s = %g (profiler traces).",
				st->strategy, last->comm_share * 100, axis, last->n);
	else
		report_text_add(out, "%s: communication grows from %.0f%% of compute plus "
				     "communication time at %s = %g to %.0f%% at %s = %g (profiler traces).",
				st->strategy, first->comm_share * 100, axis, first->n,
				last->comm_share * 100, axis, last->n);
}

static void spread_finding(const struct amd_sweep_stats *s, struct report_text *out)
{
	const struct amd_point_stats *worst = NULL;
	const char *ws = NULL;
	for (size_t i = 0; i < s->nstrategies; i++)
		for (size_t k = 0; k < s->strategies[i].npoints; k++) {
			const struct amd_point_stats *p = &s->strategies[i].points[k];
			if (p->nruns >= 2 && amd_num_ok(p->cv) && (!worst || p->cv > worst->cv)) {
				worst = p;
				ws = s->strategies[i].strategy;
			}
		}
	if (worst)
		report_text_add(out, "Largest run-to-run spread: %s at %s = %g, coefficient of "
				     "variation %.1f%% over %zu runs.",
				ws, s->scaling ? "n" : s->axis, worst->n, worst->cv * 100, worst->nruns);
}

void report_findings(const struct amd_sweep_stats *s, struct report_text *out)
{
	overview(s, out);
	for (size_t i = 0; i < s->nstrategies; i++) {
		const struct amd_strategy_stats *st = &s->strategies[i];
		if (s->scaling && st->npoints >= 2) {
			scaling_findings(s, st, out);
			fit_findings(st, out);
		} else if (!s->scaling)
			axis_findings(s, st, out);
		comm_finding(s, st, out);
	}
	energy_findings(s, out);
	spread_finding(s, out);
}

void report_gaps(const struct amd_sweep_stats *s, struct report_text *out)
{
	if (s->nexcluded)
		report_text_add(out, "%zu run%s left out of the statistics (failed, killed, unfinished "
				     "or without the metric); see the appendix for each and why.",
				s->nexcluded, s->nexcluded == 1 ? "" : "s");
	char buf[1024];
	size_t used = 0, few = 0;
	buf[0] = 0;
	for (size_t i = 0; i < s->nstrategies; i++)
		for (size_t k = 0; k < s->strategies[i].npoints; k++) {
			const struct amd_point_stats *p = &s->strategies[i].points[k];
			if (p->nruns >= 3)
				continue;
			few++;
			if (used < sizeof buf - 64)
				used += (size_t)snprintf(buf + used, sizeof buf - used, "%s%s %s = %g (%zu)",
							 used ? ", " : "", p->strategy,
							 s->scaling ? "n" : s->axis, p->n, p->nruns);
		}
	if (few)
		report_text_add(out, "%zu configuration%s with fewer than 3 runs, so no confidence "
				     "interval: %s.",
				few, few == 1 ? "" : "s", buf);
	size_t flagged = 0;
	for (size_t i = 0; i < s->nstrategies; i++)
		for (size_t k = 0; k < s->strategies[i].npoints; k++)
			for (size_t r = 0; r < s->strategies[i].points[k].nruns; r++) {
				const char *f = s->strategies[i].points[k].runs[r].flagged;
				flagged += f && *f;
			}
	if (flagged)
		report_text_add(out, "%zu run%s with epochs flagged as outliers (kept in the medians; "
				     "listed in the appendix).",
				flagged, flagged == 1 ? "" : "s");
}
