/* charts_history.c — the history chart (charts_history.h): x is the
 * group's place in the order (1 = the first), y the metric. */
#include "charts_history.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "stats.h"

/* Every run as a grey point at its group's x. */
static int runs_series(struct chart *c, const struct amd_history *h)
{
	size_t n = 0, k = 0;
	for (size_t g = 0; g < h->ngroups; g++)
		n += h->groups[g].nruns;
	double *x = malloc((n ? n : 1) * sizeof *x), *y = malloc((n ? n : 1) * sizeof *y);
	int rc = x && y ? 0 : chart_fail(c);
	for (size_t g = 0; rc == 0 && g < h->ngroups; g++)
		for (size_t i = 0; i < h->groups[g].nruns; i++, k++) {
			x[k] = (double)(g + 1);
			y[k] = h->groups[g].values[i];
		}
	if (rc == 0)
		rc = chart_series(c, "runs", CHART_GREY, CS_POINTS | CS_JITTER, MARK_CIRCLE, n, x, y,
				  NULL, NULL);
	free(x);
	free(y);
	return rc;
}

static int medians_series(struct chart *c, const struct amd_history *h)
{
	size_t n = h->ngroups;
	double *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
	double *lo = malloc(n * sizeof *lo), *hi = malloc(n * sizeof *hi);
	int rc = x && y && lo && hi ? 0 : chart_fail(c);
	for (size_t g = 0; rc == 0 && g < n; g++) {
		const struct amd_history_group *hg = &h->groups[g];
		x[g] = (double)(g + 1);
		y[g] = hg->median;
		lo[g] = hg->ci.valid ? hg->ci.lo : NAN;
		hi[g] = hg->ci.valid ? hg->ci.hi : NAN;
	}
	if (rc == 0)
		rc = chart_series(c, "group median, 95% CI", 0, CS_LINE | CS_POINTS | CS_ERRBARS,
				  MARK_CIRCLE, n, x, y, lo, hi);
	free(x);
	free(y);
	free(lo);
	free(hi);
	return rc;
}

/* Each segment between change points at the median of its runs. */
static int segments(struct chart *c, const struct amd_history *h)
{
	int rc = 0;
	for (size_t s = 0; rc == 0 && s <= h->nchanges; s++) {
		size_t from = s ? h->changes[s - 1].group : 0;
		size_t to = s < h->nchanges ? h->changes[s].group : h->ngroups;
		double level = s < h->nchanges ? h->changes[s].before : h->changes[s - 1].after;
		double x[2] = {(double)from + 0.6, (double)to + 0.4}, y[2] = {level, level};
		rc = chart_series(c, s == 0 ? "median between change points" : NULL, 1, CS_LINE |
				  CS_DASHED, MARK_DASH, 2, x, y, NULL, NULL);
	}
	for (size_t i = 0; rc == 0 && i < h->nchanges; i++) {
		const struct amd_history_change *ch = &h->changes[i];
		char label[160];
		snprintf(label, sizeof label, "change at %s: ×%.3f", h->groups[ch->group].label,
			 ch->ratio);
		rc = chart_note(c, (double)ch->group + 1, ch->after, label);
	}
	return rc;
}

struct chart *history_chart(const struct amd_history *h)
{
	char title[300], xlabel[300];
	snprintf(title, sizeof title, "%s by %s", h->metric, h->by);
	snprintf(xlabel, sizeof xlabel, "%s, in order of %s (1 = %s, %zu = %s)", h->by, h->order,
		 h->ngroups ? h->groups[0].label : "", h->ngroups,
		 h->ngroups ? h->groups[h->ngroups - 1].label : "");
	struct chart *c = chart_new(CHART_XY, title, xlabel, h->metric);
	if (!c)
		return NULL;
	chart_subtitle(c, "%s; %zu change point%s (E-Divisive means, permutation p <= %g)",
		       h->ngroups ? h->groups[0].config : "", h->nchanges,
		       h->nchanges == 1 ? "" : "s", h->cp.alpha);
	if (runs_series(c, h) == 0 && medians_series(c, h) == 0 && h->nchanges)
		segments(c, h);
	return c;
}
