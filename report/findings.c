/* findings.c — sentences from struct amd_sweep_stats for the report's
 * first page and summaries (see findings.h); which points they name is
 * lib/analysis' choice (highlights.h), the words are ours. */
#include "findings.h"

#include <math.h>
#include <stdio.h>

#include "highlights.h"
#include "labels.h"
#include "metric_name.h"
#include "numfmt.h"
#include "table.h"
#include "sweep_facts.h"

/* "95% CI a–b" (the interval's own level when it has one: "75% CI a–b")
 * or the reason there is none. */
static void ci_phrase(const struct amd_ci *ci, double scale, const char *suffix, char *buf,
		      size_t n)
{
	if (!ci->valid) {
		snprintf(buf, n, "%s", ci->why && *ci->why ? ci->why : "no CI");
		return;
	}
	char r[96];
	report_ci_range(ci, scale, suffix, r, sizeof r);
	snprintf(buf, n, "%.0f%% CI %s", (ci->level > 0 ? ci->level : 0.95) * 100, r);
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
	double lo, hi;
	size_t points = amd_sweep_axis_extent(s, &lo, &hi);
	char strats[512];
	strategy_list(s, strats, sizeof strats);
	size_t used = s->nruns_total - s->nruns_excluded;
	const char *axis = report_axis_name(s);
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
	char left[128] = ".";
	if (s->nruns_excluded)
		snprintf(left, sizeof left, "; %zu run%s left out (failed or unfinished, listed in the "
			 "appendix).", s->nruns_excluded, s->nruns_excluded == 1 ? "" : "s");
	report_text_add(out, "Sweep %s: %zu runs in the statistics over %zu configuration%s of %s (%s)%s",
			s->sweep, used, points, points == 1 ? "" : "s", strats, range, left);
}

/* Where the strategy stops scaling, or its efficiency drops below 50%,
 * or that it does neither. */
static void scaling_end(const struct amd_sweep_stats *s, const struct amd_strategy_stats *st,
			struct report_text *out)
{
	char a[32], b[32];
	const struct amd_point_stats *last = &st->points[st->npoints - 1];
	size_t k = amd_scaling_stop(s, st);
	if (k) {
		const struct amd_point_stats *p = &st->points[k], *q = &st->points[k - 1];
		amd_cell_sig(a, sizeof a, p->median);
		amd_cell_sig(b, sizeof b, q->median);
		if (amd_sweep_time_metric(s))
			report_text_add(out, "%s stops scaling after n = %g: at n = %g an epoch takes "
					     "%s s, against %s s at n = %g.",
					st->strategy, q->n, p->n, a, b, q->n);
		else
			report_text_add(out, "%s stops scaling after n = %g: at n = %g the median "
					     "%s is %s, against %s at n = %g.",
					st->strategy, q->n, p->n, s->metric, a, b, q->n);
		return;
	}
	const struct amd_point_stats *low = amd_efficiency_below(st, 0.5);
	if (low)
		report_text_add(out, "%s still gets faster through n = %g, but its efficiency "
				     "drops below 50%% at n = %g (%.0f%%).",
				st->strategy, last->n, low->n, low->efficiency * 100);
	else
		report_text_add(out, "%s keeps scaling through n = %g with efficiency at or above 50%%.",
				st->strategy, last->n);
}

static void scaling_findings(const struct amd_sweep_stats *s, const struct amd_strategy_stats *st,
			     struct report_text *out)
{
	char b[32], ci[96];
	const char *unit = amd_sweep_time_metric(s) ? " s" : "";
	const struct amd_point_stats *best = amd_best_speedup(st);
	if (!best)
		return;
	amd_cell_sig(b, sizeof b, st->base_value);
	ci_phrase(&best->ci_speedup, 1, "", ci, sizeof ci);
	if (best->speedup < 1)
		report_text_add(out, "%s never runs faster than at n = %g (%s(%g) = %s%s): its best "
				     "speedup is %.2f× (%s) at n = %g.",
				st->strategy, st->base_n, amd_sweep_time_metric(s) ? "T" : s->metric, st->base_n, b,
				unit, best->speedup, ci, best->n);
	else
		report_text_add(out, "%s: best speedup %.2f× (%s) at n = %g, against n = %g "
				     "(%s(%g) = %s%s).",
				st->strategy, best->speedup, ci, best->n, st->base_n,
				amd_sweep_time_metric(s) ? "T" : s->metric, st->base_n, b, unit);
	const struct amd_point_stats *last = &st->points[st->npoints - 1];
	ci_phrase(&last->ci_efficiency, 100, "%", ci, sizeof ci);
	report_text_add(out, "%s: at its largest n = %g, efficiency is %.0f%% (%s).",
			st->strategy, last->n, last->efficiency * 100, ci);
	scaling_end(s, st, out);
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
	if (st->usl.ok && isfinite(st->usl.n_peak) && st->usl.n_peak > 0)
		report_text_add(out, "%s: the USL fit predicts peak throughput at n* ≈ %.1f.",
				st->strategy, st->usl.n_peak);
}

static void axis_findings(const struct amd_sweep_stats *s, const struct amd_strategy_stats *st,
			  struct report_text *out)
{
	const struct amd_point_stats *lo, *hi;
	amd_throughput_extremes(st, &lo, &hi);
	if (lo && hi && lo != hi) {
		char a[32], b[32];
		amd_cell_sig(a, sizeof a, lo->throughput);
		amd_cell_sig(b, sizeof b, hi->throughput);
		report_text_add(out, "%s: throughput is highest at %s = %g with %s samples/s, against "
				     "%s samples/s at %s = %g (%.1f×).",
				st->strategy, s->axis, hi->n, b, a, s->axis, lo->n,
				hi->throughput / lo->throughput);
	}
}

static void energy_findings(const struct amd_sweep_stats *s, struct report_text *out)
{
	struct amd_point_pick best, worst;
	amd_energy_extremes(s, &best, &worst);
	if (!best.p)
		return;
	const char *axis = report_axis_name(s);
	char a[32], b[32];
	amd_cell_sig(a, sizeof a, best.p->energy_per_sample_j);
	amd_cell_sig(b, sizeof b, worst.p->energy_per_sample_j);
	if (best.p == worst.p)
		report_text_add(out, "Energy per sample: %s J (%s, %s = %g).", a, best.strategy, axis,
				best.p->n);
	else
		report_text_add(out, "Energy per sample is lowest for %s at %s = %g: %s J, against %s J "
				     "for %s at %s = %g (%.1f× more).",
				best.strategy, axis, best.p->n, a, b, worst.strategy, axis, worst.p->n,
				worst.p->energy_per_sample_j / best.p->energy_per_sample_j);
}

static void comm_finding(const struct amd_sweep_stats *s, const struct amd_strategy_stats *st,
			 struct report_text *out)
{
	const struct amd_point_stats *first, *last;
	amd_comm_span(st, 0.0005, &first, &last);
	if (!last)
		return;
	const char *axis = report_axis_name(s);
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
	struct amd_point_pick worst = amd_largest_spread(s);
	if (worst.p)
		report_text_add(out, "Largest run-to-run spread: %s at %s = %g, coefficient of "
				     "variation %.1f%% over %zu runs.",
				worst.strategy, report_axis_name(s), worst.p->n, worst.p->cv * 100,
				worst.p->nruns);
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
							 report_axis_name(s), p->n, p->nruns);
		}
	if (few)
		report_text_add(out, "%zu configuration%s with fewer than 3 runs, so no confidence "
				     "interval: %s.",
				few, few == 1 ? "" : "s", buf);
	for (size_t i = 0; i < s->nstrategies; i++)
		for (size_t k = 0; k < s->strategies[i].npoints; k++) {
			const struct amd_point_stats *p = &s->strategies[i].points[k];
			if (p->pooled_param[0])
				report_text_add(out, "%s at %s = %g pools %zu runs of %zu configurations "
						     "that differ in param %s (%s): its numbers mix them, "
						     "so no finding is drawn from it; split them with "
						     "--by param.%s, or scale over them with --axis %s.",
						p->strategy, report_axis_name(s), p->n, p->nruns,
						p->pooled_names, p->pooled_param, p->pooled_values,
						p->pooled_param, p->pooled_param);
		}
	size_t flagged = amd_flagged_runs(s);
	if (flagged)
		report_text_add(out, "%zu run%s with epochs flagged as outliers (kept in the medians; "
				     "listed in the appendix).",
				flagged, flagged == 1 ? "" : "s");
}
