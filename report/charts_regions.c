/* charts_regions.c — the stacked share chart of a sweep's top regions
 * per configuration (charts_regions.h); the numbers are amd_region_mix's. */
#include "charts_regions.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "region_mix.h"

#define REGIONS_SHOWN 7 /* named regions; the rest is "other" */
#define LEGEND_CHARS 26 /* longer names are cut (with "…") to keep two legend columns */

static struct chart *mix_chart(const struct amd_region_mix *m)
{
	struct chart *c = chart_new(CHART_BARS, "Where the time goes", "n (world size)",
				    "share of self time (%)");
	for (size_t g = 0; g < m->ngroups; g++) {
		char label[64];
		snprintf(label, sizeof label, "%d", m->n[g]);
		chart_group(c, m->n[g] >= 0 ? label : "?",
			    m->strategy[g] ? m->strategy[g] : "strategy unknown");
	}
	double *v = calloc(m->ngroups + 1, sizeof *v);
	if (!v)
		chart_fail(c);
	for (size_t k = 0; v && k < m->nnames; k++) {
		for (size_t g = 0; g < m->ngroups; g++)
			v[g] = 100 * m->share[g * m->nnames + k];
		char name[LEGEND_CHARS + 8];
		if (strlen(m->names[k]) > LEGEND_CHARS)
			snprintf(name, sizeof name, "%.*s…", LEGEND_CHARS - 1, m->names[k]);
		else
			snprintf(name, sizeof name, "%s", m->names[k]);
		chart_bars(c, name, k + 1 == m->nnames ? CHART_GREY : (int)k, 0, v, NULL, NULL);
	}
	free(v);
	chart_stacked(c, 1);
	chart_yrange(c, 0, 100, 1);
	chart_subtitle(c, "%s regions of kind %s, mean per run of the sum over ranks",
		       m->profiler, m->kind);
	return c;
}

/* One note: the region with the largest summed share (the first name)
 * and its range across the configurations. */
static int mix_note(struct report_charts *rc, const struct amd_region_mix *m,
		    struct amd_err *err)
{
	if (m->nnames < 2)
		return 0;
	double lo = 1, hi = 0;
	for (size_t g = 0; g < m->ngroups; g++) {
		double v = m->share[g * m->nnames];
		lo = v < lo ? v : lo;
		hi = v > hi ? v : hi;
	}
	if (m->ngroups == 1)
		return report_chart_note(rc, err, "Where the time goes (%s %s self time): %s is the "
						  "largest region, %.0f%%.", m->profiler, m->kind,
					 m->names[0], 100 * hi);
	return report_chart_note(rc, err, "Where the time goes (%s %s self time): %s is the largest "
					  "region, %.0f%%–%.0f%% across the %zu configurations.",
				 m->profiler, m->kind, m->names[0], 100 * lo, 100 * hi, m->ngroups);
}

int report_region_chart(struct report_charts *rc, struct amd_store *st,
			const struct amd_sweep_stats *s, struct amd_err *err)
{
	struct amd_region_mix m;
	if (amd_region_mix(st, s->sweep, REGIONS_SHOWN, &m, err) < 0)
		return -1;
	int r;
	if (!m.ngroups)
		r = report_chart_missing(rc, err, "Where the time goes: no profiler regions (traces, "
						  "py-spy, cProfile, Nsight Systems, key_averages) "
						  "linked to these runs.");
	else if (mix_note(rc, &m, err) < 0)
		r = -1;
	else
		r = report_chart_add(
			rc, err, "region_shares", mix_chart(&m), "Where the time goes",
			"The share of each configuration's self time spent in its largest regions "
			"(%s, kind %s: the profiler and kind with the most time in this sweep), the "
			"rest as other; `amdahl regions %s` lists them all.", m.profiler, m.kind,
			s->sweep);
	amd_region_mix_free(&m);
	return r;
}
