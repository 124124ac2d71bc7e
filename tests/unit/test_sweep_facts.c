/* test_sweep_facts.c — what lib/analysis derives for the report from a
 * sweep's statistics, on a small sweep built by hand: the facts that
 * decide which charts are drawn (sweep_facts.h), the points findings
 * name (highlights.h), the model curves (fit_curves.h), metric names
 * (metric_name.h), the step-time data share (step_time.h) and a py-spy
 * frame's library (pyspy_sweep.h). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fit_curves.h"
#include "highlights.h"
#include "metric_name.h"
#include "pyspy_sweep.h"
#include "step_time.h"
#include "sweep_facts.h"

#define assert_double_equal(a, b, tol) do { \
	double a_ = (a), b_ = (b); \
	if (!(fabs(a_ - b_) <= (tol))) \
		fail_msg("%s = %.17g, wanted %.17g (± %g)", #a, a_, b_, (double)(tol)); \
} while (0)

/* The runs of the points in order (3, 3, 3, 2 for ddp; 1, 1 for fsdp);
 * two have flagged epochs. */
static struct amd_run_value runs[13] = {
	[0] = {.flagged = ""}, [1] = {.flagged = "epoch 3"}, [10] = {.flagged = "epoch 1"},
	[12] = {.flagged = ""}};

static struct amd_point_stats ddp[4], fsdp[2];
static struct amd_strategy_stats strategies[2];
static struct amd_sweep_stats sweep;

static void point(struct amd_point_stats *p, const char *strategy, double n, size_t nruns,
		  double median, double speedup)
{
	*p = (struct amd_point_stats){.strategy = (char *)strategy, .n = n, .nruns = nruns,
				      .median = median, .speedup = speedup};
	p->efficiency = speedup / n * (strcmp(strategy, "ddp") == 0 ? 1 : 2);
	p->throughput = p->energy_per_sample_j = p->cv = p->comm_share = NAN;
	p->energy_epoch_j = p->energy_solution_j = p->util_pct = p->comp_fraction = NAN;
	for (int k = 0; k < AMD_PHASE_COUNT; k++)
		p->phase_share[k] = NAN;
}

/* ddp at n = 1, 2, 4, 8 (slower at 8 than at 4), fsdp at n = 2, 4. */
static int setup(void **state)
{
	(void)state;
	point(&ddp[0], "ddp", 1, 3, 100, 1);
	point(&ddp[1], "ddp", 2, 3, 55, 100 / 55.0);
	point(&ddp[2], "ddp", 4, 3, 30, 100 / 30.0);
	point(&ddp[3], "ddp", 8, 2, 32, 100 / 32.0);
	ddp[0].ci = (struct amd_ci){90, 110, 1, NULL, 0};
	ddp[1].ci_speedup = (struct amd_ci){1.7, 1.9, 1, NULL, 0};
	ddp[2].ci_speedup = (struct amd_ci){3.1, 3.5, 1, NULL, 0};
	ddp[3].ci_speedup = (struct amd_ci){NAN, NAN, 0, "n=2: no CI", 0};
	for (int k = 0; k < 4; k++)
		ddp[k].throughput = 10 * ddp[k].speedup;
	ddp[0].runs = runs, ddp[1].runs = runs + 3, ddp[2].runs = runs + 6, ddp[3].runs = runs + 9;
	ddp[1].cv = 0.05, ddp[2].cv = 0.02, ddp[3].cv = 0.2;
	ddp[1].has_trace = ddp[2].has_trace = 1;
	ddp[1].comm_share = 0.1, ddp[2].comm_share = 0.25;
	ddp[1].phase_share[AMD_PHASE_COMPUTE] = 0.7, ddp[1].phase_share[AMD_PHASE_COMM] = 0.2;
	ddp[2].phase_share[AMD_PHASE_COMPUTE] = 0.9, ddp[2].phase_share[AMD_PHASE_COMM] = 0.3;
	ddp[2].phase_share[AMD_PHASE_IDLE] = 0.0001;
	ddp[0].energy_per_sample_j = 2, ddp[2].energy_per_sample_j = 3;
	point(&fsdp[0], "fsdp", 2, 1, 60, 1);
	point(&fsdp[1], "fsdp", 4, 1, 50, 1.2);
	fsdp[0].runs = runs + 11, fsdp[1].runs = runs + 12;
	fsdp[1].energy_per_sample_j = 1.5;
	fsdp[1].cv = 0.9; /* one run: no spread to speak of */
	strategies[0] = (struct amd_strategy_stats){.strategy = "ddp", .base_n = 1, .base_value = 100,
						    .npoints = 4, .points = ddp};
	strategies[1] = (struct amd_strategy_stats){.strategy = "fsdp", .base_n = 2, .base_value = 60,
						    .npoints = 2, .points = fsdp};
	sweep = (struct amd_sweep_stats){.sweep = "s", .metric = "epoch_time_s", .axis = "n",
					 .nstrategies = 2, .strategies = strategies, .scaling = 1};
	return 0;
}

static void facts_decide_the_charts(void **state)
{
	(void)state;
	double lo, hi;
	assert_int_equal(amd_sweep_axis_extent(&sweep, &lo, &hi), 6);
	assert_true(lo == 1 && hi == 8);
	double *xs;
	size_t n;
	assert_int_equal(amd_sweep_axis_values(&sweep, &xs, &n), 0);
	assert_int_equal(n, 4);
	assert_true(xs[0] == 1 && xs[1] == 2 && xs[2] == 4 && xs[3] == 8);
	free(xs);
	size_t rlo, rhi;
	amd_sweep_runs_range(&sweep, &rlo, &rhi);
	assert_true(rlo == 1 && rhi == 3);
	size_t total;
	/* speedup: bases left out; 2 of ddp's 3 and none of fsdp's 1 */
	assert_int_equal(amd_sweep_ci_count(&sweep, AMD_PV_SPEEDUP, &total), 2);
	assert_int_equal(total, 4);
	assert_int_equal(amd_sweep_ci_count(&sweep, AMD_PV_MEDIAN, &total), 1);
	assert_int_equal(total, 6);
	assert_true(amd_sweep_any(&sweep, AMD_PV_THROUGHPUT));
	assert_false(amd_sweep_any(&sweep, AMD_PV_UTIL));
	assert_double_equal(amd_sweep_max(&sweep, AMD_PV_COMM_SHARE), 0.25, 0);
	assert_true(isnan(amd_point_value(&ddp[0], AMD_PV_COMM_SHARE))); /* no trace */
	assert_true(amd_sweep_scalable(&sweep) && amd_sweep_has_trace(&sweep));
	assert_true(amd_sweep_has_repeats(&sweep));
	double bases[4];
	assert_int_equal(amd_sweep_bases(&sweep, bases, 4), 2);
	assert_true(bases[0] == 1 && bases[1] == 2);
	int phases[] = {AMD_PHASE_COMPUTE, AMD_PHASE_COMM};
	assert_double_equal(amd_sweep_phase_sum_max(&sweep, phases, 2), 1.2, 1e-12);
	assert_true(amd_sweep_phase_present(&sweep, AMD_PHASE_COMM, 0.0005));
	assert_false(amd_sweep_phase_present(&sweep, AMD_PHASE_IDLE, 0.0005));
}

static void highlights_name_the_points(void **state)
{
	(void)state;
	assert_ptr_equal(amd_best_speedup(&strategies[0]), &ddp[2]);
	assert_int_equal(amd_scaling_stop(&sweep, &strategies[0]), 3); /* 32 s at 8 after 30 at 4 */
	assert_int_equal(amd_scaling_stop(&sweep, &strategies[1]), 0);
	assert_ptr_equal(amd_efficiency_below(&strategies[0], 0.5), &ddp[3]);
	assert_null(amd_efficiency_below(&strategies[1], 0.5));
	const struct amd_point_stats *a, *b;
	amd_throughput_extremes(&strategies[0], &a, &b);
	assert_ptr_equal(a, &ddp[0]);
	assert_ptr_equal(b, &ddp[2]);
	amd_comm_span(&strategies[0], 0.0005, &a, &b);
	assert_ptr_equal(a, &ddp[1]);
	assert_ptr_equal(b, &ddp[2]);
	struct amd_point_pick best, worst;
	amd_energy_extremes(&sweep, &best, &worst);
	assert_ptr_equal(best.p, &fsdp[1]);
	assert_string_equal(best.strategy, "fsdp");
	assert_ptr_equal(worst.p, &ddp[2]);
	struct amd_point_pick spread = amd_largest_spread(&sweep);
	assert_ptr_equal(spread.p, &ddp[3]);
	assert_int_equal(amd_flagged_runs(&sweep), 2); /* "epoch 3" and "epoch 1" */
	sweep.higher_is_better = 1; /* a rate: lower is worse, 4 → 8 keeps falling short */
	assert_int_equal(amd_scaling_stop(&sweep, &strategies[0]), 1);
	sweep.higher_is_better = 0;
}

static void curves_follow_the_models(void **state)
{
	(void)state;
	double x[AMD_CURVE_POINTS], y[AMD_CURVE_POINTS];
	amd_ideal_curve(2, 16, x, y, AMD_CURVE_POINTS);
	assert_double_equal(x[0], 2, 1e-12);
	assert_double_equal(x[AMD_CURVE_POINTS - 1], 16, 1e-9);
	assert_double_equal(y[AMD_CURVE_POINTS - 1], 8, 1e-9);
	struct amd_strategy_stats *st = &strategies[0];
	st->amdahl = (struct amd_fit){.ok = 1, .a = 10, .b = 90, .serial_fraction = 0.1};
	assert_int_equal(amd_amdahl_curve(st, 8, 0, x, y, AMD_CURVE_POINTS), 1);
	assert_double_equal(y[0], 1, 1e-12);
	assert_double_equal(y[AMD_CURVE_POINTS - 1], 100 / (10 + 90 / 8.0), 1e-9);
	assert_int_equal(amd_amdahl_curve(st, 8, 1, x, y, AMD_CURVE_POINTS), 1);
	assert_double_equal(y[AMD_CURVE_POINTS - 1], 100 / (10 + 90 / 8.0) / 8, 1e-9);
	st->amdahl.serial_fraction = 1.2; /* B < 0: outside Amdahl's range */
	assert_int_equal(amd_amdahl_curve(st, 8, 0, x, y, AMD_CURVE_POINTS), 0);
	st->usl = (struct amd_fit){.ok = 1, .alpha = 0.05, .beta = 0.01};
	assert_int_equal(amd_usl_curve(st, 8, x, y, AMD_CURVE_POINTS), 1);
	assert_double_equal(y[0], 1, 1e-12);
	st->usl.beta = NAN;
	assert_int_equal(amd_usl_curve(st, 8, x, y, AMD_CURVE_POINTS), 0);
	st->amdahl = st->usl = (struct amd_fit){0};
}

static void metric_names(void **state)
{
	(void)state;
	assert_true(amd_metric_in_seconds("epoch_time_s"));
	assert_true(amd_metric_in_seconds("x_s"));
	assert_false(amd_metric_in_seconds("_s"));
	assert_false(amd_metric_in_seconds("throughput_samples_per_s2"));
	assert_false(amd_metric_in_seconds(NULL));
	assert_int_equal(amd_metric_stem_len("step_time_s"), strlen("step_time"));
	assert_int_equal(amd_metric_stem_len("loss"), 4);
	assert_true(amd_sweep_time_metric(&sweep));
	sweep.higher_is_better = 1;
	assert_false(amd_sweep_time_metric(&sweep));
	sweep.higher_is_better = 0;
}

/* Two groups of one loader: data 10 of 40 ms, then 30 of 30 (the other
 * phases 0 or, the optimizer, not logged). */
static void step_data_share(void **state)
{
	(void)state;
	struct amd_step_group g[2] = {{.strategy = "a", .x = 0}, {.strategy = "a", .x = 4}};
	double ms[AMD_STEP_PHASES * 2] = {10, 30, 10, 0, 20, 0, 0, NAN};
	struct amd_step_time t = {.nloaders = 1, .groups = g, .ngroups = 2, .ms = ms, .any = 1};
	assert_double_equal(amd_step_ms(&t, 1, 1, 0), 0, 0);
	struct amd_step_share sh;
	amd_step_data_share(&t, 0, &sh);
	assert_int_equal(sh.hi, 1);
	assert_int_equal(sh.lo, 0);
	assert_double_equal(sh.share_hi, 1.0, 1e-12);
	assert_double_equal(sh.share_lo, 0.25, 1e-12);
	ms[0] = ms[1] = NAN;
	amd_step_data_share(&t, 0, &sh);
	assert_true(sh.hi < 0);
	assert_string_equal(amd_step_phases[0], "data");
}

static void pyspy_libraries(void **state)
{
	(void)state;
	char lib[64];
	amd_pyspy_library("/venv/lib/python3.11/site-packages/torch/nn/module.py", lib, sizeof lib);
	assert_string_equal(lib, "torch");
	amd_pyspy_library("/usr/lib/python3/dist-packages/numpy/core.py", lib, sizeof lib);
	assert_string_equal(lib, "numpy");
	amd_pyspy_library("/home/me/train.py", lib, sizeof lib);
	assert_string_equal(lib, "train.py");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(facts_decide_the_charts),
		cmocka_unit_test(highlights_name_the_points),
		cmocka_unit_test(curves_follow_the_models),
		cmocka_unit_test(metric_names),
		cmocka_unit_test(step_data_share),
		cmocka_unit_test(pyspy_libraries),
	};
	return cmocka_run_group_tests(tests, setup, NULL);
}
