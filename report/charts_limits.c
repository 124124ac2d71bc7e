/* charts_limits.c — "What limits scaling" (charts_limits.h): the numbers
 * are amd_scaling's and amd_scaling_curve's; this file only draws them
 * and passes the findings on (with report.html's picker of any region,
 * limits_picker.c). */
#include "charts_limits.h"
#include "limits_picker.h"

#include <math.h>
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "fit_curves.h"
#include "scaling.h"
#include "scaling_table.h"

void report_limits_yrange(const struct amd_scaling_strategy *s, size_t top, double *lo, double *hi)
{
	*lo = INFINITY;
	*hi = 0;
	for (size_t i = 0; i < top; i++) {
		const struct amd_region_model *r = &s->regions[i];
		for (size_t q = 0; q < s->nn; q++)
			if (r->measured[q] > 0) {
				*lo = fmin(*lo, r->measured[q] * 1e3);
				*hi = fmax(*hi, r->measured[q] * 1e3);
			}
		*hi = fmax(*hi, amd_rfit_value(&r->fit, s->target) * 1e3);
	}
	*lo /= 2;
	*hi *= 2;
}

void report_limits_region(struct chart *c, const struct amd_scaling_strategy *s,
			  const struct amd_region_model *r, int i, double level, double ylo,
			  double yhi, int named)
{
	double x[AMD_CURVE_POINTS], y[AMD_CURVE_POINTS], lo[AMD_CURVE_POINTS], hi[AMD_CURVE_POINTS];
	if (amd_scaling_curve(r, s->ns[0], s->target, level, x, y, lo, hi, AMD_CURVE_POINTS) < 0) {
		chart_fail(c);
		return;
	}
	char model[160];
	amd_rfit_model_text(&r->fit, model, sizeof model);
	char info[AMD_CURVE_POINTS][320];
	for (size_t k = 0; k < AMD_CURVE_POINTS; k++) { /* the band is cut at the chart's edges */
		double plo = NAN, phi = NAN; /* as the model gives it, a lower end of 0 too */
		if (amd_rfit_interval(&r->fit, x[k], level, &plo, &phi) < 0)
			chart_fail(c);
		snprintf(info[k], sizeof info[k], "model: %s s; %.0f%% prediction interval %.6g – %.6g ms",
			 model, amd_rfit_interval_level(&r->fit, x[k], level) * 100, plo * 1e3, phi * 1e3);
	}
	for (size_t k = 0; k < AMD_CURVE_POINTS; k++) {
		y[k] *= 1e3;
		lo[k] = fmax(lo[k] * 1e3, ylo);
		hi[k] = fmin(hi[k] * 1e3, yhi);
		if (!(y[k] >= ylo && y[k] <= yhi))
			y[k] = lo[k] = hi[k] = NAN;
	}
	char name[64];
	snprintf(name, sizeof name, "%.40s%s (%s)", r->name, strlen(r->name) > 40 ? "…" : "", r->growth);
	chart_series(c, named ? name : NULL, i, CS_LINE | CS_DASHED | CS_BAND, MARK_CIRCLE, AMD_CURVE_POINTS, x, y,
		     lo, hi);
	for (size_t k = 0; k < AMD_CURVE_POINTS; k++)
		chart_point_info(c, k, info[k]);
	double my[64];
	size_t k = s->nn < 64 ? s->nn : 64;
	for (size_t q = 0; q < k; q++)
		my[q] = r->measured[q] > 0 ? r->measured[q] * 1e3 : NAN;
	chart_series(c, NULL, i, CS_POINTS, MARK_CIRCLE, k, s->ns, my, NULL, NULL);
}

static struct chart *limits_chart(const struct amd_scaling_strategy *s, double level)
{
	char title[160];
	snprintf(title, sizeof title, "What limits scaling: %s", *s->strategy ? s->strategy : "(no strategy)");
	struct chart *c = chart_new(CHART_XY, title, "n (world size)", "time per step per rank (ms)");
	chart_xscale(c, CHART_LOG2);
	chart_yscale(c, CHART_LOG2);
	size_t top = s->nregions < REPORT_LIMITS_TOP ? s->nregions : REPORT_LIMITS_TOP;
	double ylo, yhi;
	report_limits_yrange(s, top, &ylo, &yhi);
	if (ylo < yhi)
		chart_yrange(c, ylo, yhi, 0);
	for (size_t i = 0; i < top; i++)
		report_limits_region(c, s, &s->regions[i], (int)i, level, ylo, yhi, 1);
	chart_subtitle(c, "top %zu regions at n = %g: measured (points), model and %.0f%% prediction"
		       " band to n = %g", top, s->ns[s->nn - 1], level * 100, s->target);
	return c;
}

/* Strategy s's chart with its findings in the caption (the page's
 * sentences; the report's first page keeps its own findings). */
/* The chart's file name: limits_STRATEGY when the strategy is a plain
 * name, else limits_K (its place among the strategies), so a name with
 * '/', markup or bytes of another encoding never becomes a path. */
static void limits_file_name(char *name, size_t size, const char *strategy, size_t k)
{
	int plain = *strategy && strlen(strategy) <= 48;
	for (const char *p = strategy; plain && *p; p++)
		plain = isalnum((unsigned char)*p) || *p == '-' || *p == '_' || *p == '.';
	if (plain && strcmp(strategy, ".") != 0 && strcmp(strategy, "..") != 0)
		snprintf(name, size, "limits_%s", strategy);
	else if (!*strategy)
		snprintf(name, size, "limits_all");
	else
		snprintf(name, size, "limits_%zu", k + 1);
}

static int limits_chart_add(struct report_charts *rc, const struct amd_scaling_strategy *s,
			    size_t k, double level, struct amd_err *err)
{
	char name[96], top[512], whole[512], advice[512];
	limits_file_name(name, sizeof name, s->strategy, k);
	if (amd_scaling_region_finding(s, 0, top, sizeof top) < 0
	    || amd_scaling_whole_finding(s, whole, sizeof whole) < 0
	    || amd_scaling_advice_finding(s, advice, sizeof advice) < 0)
		return amd_fail(err, "What limits scaling (%s): findings too long", s->strategy);
	int rc_ = report_chart_add(
		rc, err, name, limits_chart(s, level), "What limits scaling",
		"Points: measured per-rank time per step; dashed: the model chosen per region (leave-one-n-out"
		" CV, F test per term), bands: %.0f%% prediction intervals to the largest measured n, beyond it"
		" what they cover in simulation where that is less (each point's label).%s %s %s %s",
		level * 100,
		s->per_run ? " Fitted to one observation per run (the mean over its ranks; more than "
			     AMD_SCALING_RANK_OBS_TEXT " rank traces at one n), so the intervals resample runs." : "",
		top, whole, advice);
	if (rc_ == 0 && report_limits_picker(&rc->v[rc->n - 1], s, level) < 0)
		return amd_fail(err, "What limits scaling (%s): out of memory", s->strategy);
	return rc_;
}

int report_limits_charts(struct report_charts *rc, struct amd_store *st,
			 const struct amd_sweep_stats *s, struct amd_region_share *share,
			 struct amd_err *err)
{
	if (!s->scaling || !s->has_traces)
		return report_chart_missing(rc, err, "What limits scaling: %s.",
					    !s->scaling ? "the sweep's axis is not the world size n"
							: "the runs have no profiler traces");
	struct amd_scaling_opts o = { .sweep = s->sweep, .resamples = 1000, .seed = s->seed,
				      .level = s->level, .analysis = s, .share = share };
	struct amd_scaling *sc;
	if (amd_scaling(st, &o, &sc, err) < 0)
		return -1;
	int rc_ = sc->nstrategies ? 0
		: report_chart_missing(rc, err, "What limits scaling: no counted run has a profiler trace.");
	for (size_t i = 0; rc_ == 0 && i < sc->nstrategies; i++) {
		const struct amd_scaling_strategy *ss = &sc->strategies[i];
		if (ss->nn < 3 || ss->nregions == 0) {
			rc_ = report_chart_missing(rc, err, "What limits scaling (%s): %zu measured n; a"
						   " trend needs 3.", ss->strategy, ss->nn);
			continue;
		}
		rc_ = limits_chart_add(rc, ss, i, s->level, err);
	}
	amd_scaling_free(rc->limits);
	rc->limits = sc; /* for explain's region split (charts.h) */
	return rc_;
}
