/* charts_trace.c — computation vs other, time by phase and
 * communication share (see charts_trace.h). */
#include "charts_trace.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "num.h"
#include "sweep_plot.h"

/* What the computation fraction is a share of, from what the sweep's
 * traces hold: device time where a trace has GPU activity, self CPU time
 * in a CPU-only trace (trace_agg.c); itwinai's op averages, without
 * traces, hold self CUDA time. */
static const char *fraction_time(const struct amd_sweep_stats *s)
{
	if (s->ntraces_gpu && s->ntraces_cpu)
		return "GPU or CPU";
	if (s->ntraces_cpu)
		return "CPU";
	return s->ntraces_gpu ? "GPU" : "CUDA";
}

static int compute_vs_other(struct report_charts *rc, const struct amd_sweep_stats *s,
			    struct amd_err *err)
{
	size_t ng;
	const char *what = fraction_time(s);
	char ylabel[64], text[640];
	snprintf(ylabel, sizeof ylabel, "share of profiled %s time (%%)", what);
	snprintf(text, sizeof text,
		 "itwinai's computation fraction, for comparison with its plot: the self %s time "
		 "of operators matching aten::, at::, c10:: or autograd:: over that of all "
		 "operators except ProfilerStep*.%s Overlapping time is counted twice, so read it "
		 "as a ratio of summed operator times, not of wall time.", what,
		 s->ntraces_cpu && s->ntraces_gpu
			 ? " Traces with GPU activity give device time; the CPU-only ones have none,"
			   " and their self CPU time stands in for it."
		 : s->ntraces_cpu ? " The traces hold no GPU activity (a CPU-only sweep): self CPU"
				    " time stands in for itwinai's self CUDA time."
				  : "");
	struct chart *c = plot_per_config(s, "Computation vs other", ylabel, &ng);
	double *v = calloc(2 * (ng + 1), sizeof *v), *other = NULL;
	if (v)
		other = v + ng + 1;
	else
		chart_fail(c);
	size_t g0 = 0;
	for (size_t i = 0; v && i < s->nstrategies; i++) {
		const struct amd_strategy_stats *st = &s->strategies[i];
		for (size_t j = 0; j < ng; j++)
			v[j] = NAN;
		for (size_t k = 0; k < st->npoints; k++) {
			double f = st->points[k].comp_fraction;
			int known = amd_num_ok(f);
			v[g0 + k] = known ? f * 100 : NAN;
			other[g0 + k] = known ? 100 - f * 100 : NAN;
		}
		chart_bars(c, st->strategy, (int)i, 0, v, NULL, NULL);
		g0 += st->npoints;
	}
	chart_bars(c, "other", CHART_GREY, 1, other, NULL, NULL);
	free(v);
	chart_value_labels(c, "%.1f%%");
	chart_subtitle(c, "itwinai's definition: aten/c10/autograd self %s time over all ops", what);
	return report_chart_add(rc, err, "compute_vs_other", c, "Computation vs other", "%s", text);
}

static const int split_phases[] = {AMD_PHASE_COMPUTE, AMD_PHASE_COMM, AMD_PHASE_MEMORY,
				   AMD_PHASE_OTHER, AMD_PHASE_IDLE};
static const int split_colors[] = {0, 3, 1, 4, CHART_GREY};
#define NSPLIT (sizeof split_phases / sizeof split_phases[0])

/* One bar series per phase some rank spent time in (no empty legend
 * entries): its share of each configuration's trace window, in percent. */
static void phase_bars(struct chart *c, const struct amd_sweep_stats *s, size_t ng,
		       int overlapping)
{
	double *v = calloc(ng + 1, sizeof *v);
	if (!v) {
		chart_fail(c);
		return;
	}
	for (size_t p = 0; p < NSPLIT; p++) {
		if (!amd_sweep_phase_present(s, split_phases[p], 0.0005))
			continue;
		size_t g = 0;
		for (size_t i = 0; i < s->nstrategies; i++)
			for (size_t k = 0; k < s->strategies[i].npoints; k++, g++) {
				const struct amd_point_stats *pt = &s->strategies[i].points[k];
				v[g] = pt->has_trace ? pt->phase_share[split_phases[p]] * 100 : NAN;
			}
		chart_bars(c, amd_phase_names[split_phases[p]], split_colors[p],
			   !overlapping && split_phases[p] == AMD_PHASE_IDLE, v, NULL, NULL);
	}
	free(v);
}

static int phase_split(struct report_charts *rc, const struct amd_sweep_stats *s,
		       struct amd_err *err)
{
	size_t ng;
	double total = amd_sweep_phase_sum_max(s, split_phases, NSPLIT);
	int overlapping = total > 1.02;
	struct chart *c = plot_per_config(s, "Time by phase", "share of the trace window (%)", &ng);
	if (overlapping) {
		chart_stacked(c, 0);
		chart_yrange(c, NAN, NAN, 1);
	}
	phase_bars(c, s, ng, overlapping);
	if (overlapping)
		chart_subtitle(c, "phases overlap (concurrent threads): side by side, up to %.0f%% of "
				  "the window in total", total * 100);
	else
		chart_subtitle(c, "union of kernel intervals per rank, mean over ranks and runs");
	return report_chart_add(
		rc, err, "phase_split", c, "Time by phase",
		"Each rank's trace window split into compute, communication (NCCL/gloo), memory copies "
		"and sets, other work and idle time (nothing running), as HTA computes it, mean over "
		"ranks and runs.%s",
		overlapping ? " Here the phases overlap in time (work on concurrent threads, as in CPU "
			      "traces), so their shares add up to more than 100% and are drawn side by "
			      "side rather than stacked."
			    : " The shares add up to the wall time.");
}

static int comm_share(struct report_charts *rc, const struct amd_sweep_stats *s,
		      struct amd_err *err)
{
	struct chart *c = plot_xy(s, "Communication share", "communication / (compute + comm.) (%)");
	chart_yrange(c, 0, NAN, 1);
	plot_strategy_lines(c, s, AMD_PV_COMM_SHARE, 100, 0, 0);
	chart_subtitle(c, "kernel and collective time from the profiler traces, mean over ranks and runs");
	return report_chart_add(
		rc, err, "comm_share", c, "Communication share",
		"Communication kernel time as a share of compute plus communication time. A share that "
		"grows with n is what bends the speedup curve away from ideal.");
}

/* The phase split and, when the traces hold communication (above
 * 0.05%), its share. */
static int trace_phases(struct report_charts *rc, const struct amd_sweep_stats *s,
			struct amd_err *err)
{
	if (phase_split(rc, s, err) < 0)
		return -1;
	if (amd_sweep_max(s, AMD_PV_COMM_SHARE) * 100 > 0.05)
		return comm_share(rc, s, err);
	return report_chart_missing(rc, err, "Communication share: the traces hold no communication "
					     "(one rank per run, or no collectives).");
}

int report_trace_charts(struct report_charts *rc, const struct amd_sweep_stats *s,
			struct amd_err *err)
{
	int r;
	if (amd_sweep_any(s, AMD_PV_COMP_FRACTION))
		r = compute_vs_other(rc, s, err);
	else
		r = report_chart_missing(rc, err, "Computation vs other: no torch_profiling_averages.csv "
						 "or profiler traces with operator times.");
	if (r < 0)
		return -1;
	if (amd_sweep_has_trace(s))
		return trace_phases(rc, s, err);
	return report_chart_missing(rc, err, "Phase split and communication share: no PyTorch "
					     "profiler traces linked to these runs.");
}
