/* charts_regions.c — the stacked share chart of a sweep's top regions
 * per configuration with the table of its top 5 regions per
 * configuration under it, and per run the Nsight Systems phase split
 * next to the trace's (charts_regions.h); the numbers are
 * amd_region_mix's (the table narrows its region list: region_pick.h, no
 * second scan) and amd_phase_pairs'. */
#include "charts_regions.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "phase_pairs.h"
#include "region_mix.h"
#include "region_pick.h"
#include "region_table.h"
#include "regions.h"

#define REGIONS_SHOWN 7 /* named regions; the rest is "other" */
#define REGIONS_LISTED 5 /* rows per configuration in the table under the chart */

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
		/* the full name: the legend shortens it where words meet, the
		 * PDF gives it whole in a footnote and the page in a tooltip */
		chart_bars(c, m->names[k], k + 1 == m->nnames ? CHART_GREY : (int)k, 0, v, NULL, NULL);
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

static const int pair_colors[AMD_PAIR_PHASES] = {0, 3, 1, 4, CHART_GREY};

static struct chart *pairs_chart(const struct amd_phase_pair *p, size_t n)
{
	struct chart *c = chart_new(CHART_BARS, "Nsight Systems and trace phases", "run",
				    "share of the profiled window (%)");
	size_t ng = 0;
	for (size_t i = 0; i < n; i++) {
		char sup[128];
		snprintf(sup, sizeof sup, "%s n=%d #%d", p[i].strategy ? p[i].strategy : "?", p[i].n,
			 p[i].repeat);
		if (!isnan(p[i].trace[0])) {
			chart_group(c, "trace", sup);
			ng++;
		}
		chart_group(c, "nsys", sup);
		ng++;
	}
	double *v = calloc(ng + 1, sizeof *v);
	if (!v)
		chart_fail(c);
	for (int k = 0; v && k < AMD_PAIR_PHASES; k++) {
		size_t g = 0;
		for (size_t i = 0; i < n; i++) {
			if (!isnan(p[i].trace[0]))
				v[g++] = 100 * p[i].trace[k];
			v[g++] = 100 * p[i].nsys[k];
		}
		chart_bars(c, amd_phase_names[amd_pair_phases[k]], pair_colors[k], 0, v, NULL, NULL);
	}
	free(v);
	chart_stacked(c, 1);
	chart_yrange(c, 0, NAN, 1); /* CPU traces' thread time may pass 100% */
	chart_subtitle(c, "Nsight: all GPUs of the export; trace: all ranks' windows");
	return c;
}

/* Per run with an Nsight Systems export: its phases next to its traces'. */
static int report_pairs_chart(struct report_charts *rc, struct amd_store *st,
			      const struct amd_sweep_stats *s, struct amd_err *err)
{
	struct amd_region_sel sel;
	struct amd_phase_pair *p;
	size_t n;
	if (amd_region_resolve(st, s->sweep, &sel, err) < 0 ||
	    amd_phase_pairs(st, sel.sweep_id, &p, &n, err) < 0)
		return -1;
	int r = 0; /* no export: no chart, and no line among the data gaps, as
		      Nsight Systems is an extra most sweeps do without */
	if (n)
		r = report_chart_add(
			rc, err, "nsys_phases", pairs_chart(p, n), "Nsight Systems and trace phases",
			"Per run with an Nsight Systems export, its GPUs' time split into compute, "
			"communication (NCCL kernels), memory copies and sets and idle time over the "
			"export's window, the same rule as for the PyTorch profiler traces, whose split "
			"stands next to it when the run has traces (a CPU-only trace splits thread time, "
			"which can add up past 100%% of its window).");
	amd_phase_pairs_free(p, n);
	return r;
}

/* The table under the chart: per configuration the top regions of the
 * chart's profiler and kind, as `amdahl regions SWEEP` lists them. */
static int mix_table(struct report_chart *ch, struct amd_store *st, const char *sweep,
		     const struct amd_region_mix *m, struct amd_err *err)
{
	struct amd_region_filter f = {.kind = m->kind, .profiler = m->profiler,
				      .limit = REGIONS_LISTED};
	struct amd_region_list l;
	if (amd_region_list_pick(&m->all, &f, &l) < 0)
		return amd_fail(err, "%s: out of memory", amd_store_path(st));
	ch->table = amd_region_table(&l, 1);
	amd_region_list_free(&l);
	amd_table_note(ch->table, "The top %d %s regions of kind %s per configuration (mean per "
				  "run of the sum over ranks): `amdahl regions %s --source %s --kind "
				  "%s -n %d`; -n 0 lists all.",
		       REGIONS_LISTED, m->profiler, m->kind, sweep, m->profiler, m->kind,
		       REGIONS_LISTED);
	if (!ch->table || ch->table->failed)
		return amd_fail(err, "region table: out of memory");
	return 0;
}

int report_region_chart(struct report_charts *rc, struct amd_store *st,
			const struct amd_sweep_stats *s, struct amd_region_share *share,
			struct amd_err *err)
{
	struct amd_region_mix m;
	if (amd_region_mix(st, s->sweep, REGIONS_SHOWN, share, &m, err) < 0)
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
	if (r == 0 && m.ngroups)
		r = mix_table(&rc->v[rc->n - 1], st, s->sweep, &m, err);
	amd_region_mix_free(&m);
	return r < 0 ? -1 : report_pairs_chart(rc, st, s, err);
}
