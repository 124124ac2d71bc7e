/* test_compare.c — the comparison statistics: the exact Mann–Whitney
 * distribution and the normal approximation against SciPy, Holm against a
 * hand computation, the smallest attainable p, insufficient-data
 * detection, the bootstrap ratio, verdicts on small built sweeps, the
 * gate's verdict (with and without --require-all), the comparison's JSON
 * and its reader, and the comparison's tables.
 *
 * Reference p-values were computed independently with SciPy 1.10.1:
 *   /usr/bin/python3 -c "from scipy.stats import mannwhitneyu as f;
 *     r = f(X, Y, alternative='two-sided', method=M, use_continuity=True);
 *     print(repr(r.statistic), repr(r.pvalue))"
 * with X, Y, M as in each case below; 2/C(m+n, m) with math.comb. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "compare.h"
#include "compare_json.h"
#include "compare_table.h"
#include "verdict.h"

struct mw_case {
	double x[32], y[32];
	size_t m, n;
	int exact;
	double u, p;
};

static const struct mw_case cases[] = {
	{{1, 2, 3}, {4, 5, 6}, 3, 3, 1, 0.0, 0.1},
	{{1, 5, 3}, {4, 2, 6}, 3, 3, 1, 3.0, 0.7},
	{{0.41, 0.44, 0.39, 0.52, 0.47}, {0.45, 0.50, 0.55, 0.58, 0.61}, 5, 5, 1, 3.0,
	 0.05555555555555555},
	{{1.1, 2.3, 0.7, 4.2, 3.3, 5.9, 2.2}, {3.1, 4.4, 6.0, 7.2, 5.5, 8.1, 6.6, 2.9, 9.0}, 7, 9, 1,
	 8.0, 0.011538461538461539},
	{{3, 1}, {2, 4, 5, 6, 7, 0.5}, 2, 6, 1, 3.0, 0.42857142857142855},
	/* ties: normal approximation with tie and continuity correction */
	{{1, 2, 2, 3}, {2, 3, 4, 4, 5}, 4, 5, 0, 2.5, 0.07854585095119067},
	{{1, 1, 1}, {1, 1, 1}, 3, 3, 0, 4.5, 1.0},
};

static void test_mann_whitney_matches_scipy(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const struct mw_case *c = &cases[i];
		struct amd_mwu r;
		struct amd_err err = {{0}};
		assert_int_equal(amd_mann_whitney(c->x, c->m, c->y, c->n, &r, &err), 0);
		assert_int_equal(r.exact, c->exact);
		assert_true(fabs(r.u - c->u) < 1e-12);
		assert_true(fabs(r.p - c->p) < 1e-12);
	}
}

/* 30 vs 30 (x = 0..29, y = x + 7.5): scipy exact p 0.003193540818593945,
 * asymptotic 0.003670893392450653 (U = 253). */
static void test_exact_large_and_normal(void **state)
{
	(void)state;
	double x[30], y[30];
	for (int i = 0; i < 30; i++) {
		x[i] = i;
		y[i] = i + 7.5;
	}
	struct amd_mwu r;
	struct amd_err err = {{0}};
	assert_int_equal(amd_mann_whitney(x, 30, y, 30, &r, &err), 0);
	assert_true(r.exact);
	assert_true(fabs(r.u - 253) < 1e-12);
	assert_true(fabs(r.p - 0.003193540818593945) < 1e-12);
	/* 60 vs 60 is past the exact limit: the normal approximation is used */
	double a[60], b[60];
	for (int i = 0; i < 60; i++) {
		a[i] = i;
		b[i] = i + 20.5;
	}
	assert_int_equal(amd_mann_whitney(a, 60, b, 60, &r, &err), 0);
	assert_false(r.exact);
}

/* The exact distribution is a distribution: P(U ≤ mn) = 1, symmetric. */
static void test_exact_cdf_shape(void **state)
{
	(void)state;
	assert_true(fabs(amd_mwu_exact_cdf(4, 6, 24) - 1) < 1e-15);
	/* 3 vs 3: 20 rankings, one with U = 0, one with U = 1 */
	assert_true(fabs(amd_mwu_exact_cdf(3, 3, 0) - 1.0 / 20) < 1e-15);
	assert_true(fabs(amd_mwu_exact_cdf(3, 3, 1) - 2.0 / 20) < 1e-15);
	for (int u = 0; u <= 24; u++)
		assert_true(fabs(amd_mwu_exact_cdf(4, 6, u) - (1 - amd_mwu_exact_cdf(4, 6, 23 - u))) <
			    1e-12);
	assert_true(fabs(amd_mwu_exact_cdf(4, 6, 5) - amd_mwu_exact_cdf(6, 4, 5)) < 1e-15);
}

static void test_min_p_and_runs_needed(void **state)
{
	(void)state;
	assert_true(amd_mwu_min_p(3, 3) == 0.1); /* 2/20, exact */
	assert_true(fabs(amd_mwu_min_p(5, 5) - 0.007936507936507936) < 1e-15);
	assert_true(fabs(amd_mwu_min_p(3, 4) - 0.05714285714285714) < 1e-15);
	assert_true(fabs(amd_mwu_min_p(8, 3) - 0.012121212121212121) < 1e-15);
	assert_true(amd_mwu_min_p(2, 2) > 0.33 && amd_mwu_min_p(1, 1) == 1);
	assert_int_equal(amd_mwu_runs_needed(0.05), 4);       /* 4 vs 4: 0.0286 */
	assert_int_equal(amd_mwu_runs_needed(0.05 / 6), 5);   /* 5 vs 5: 0.0079 */
	assert_int_equal(amd_mwu_runs_needed(0.05 / 12), 6);  /* 6 vs 6: 0.0022 */
}

/* Holm by hand: sorted 0.005·4 = 0.02, 0.01·3 = 0.03, 0.03·2 = 0.06,
 * 0.04·1 = 0.04 → kept monotone at 0.06. */
static void test_holm(void **state)
{
	(void)state;
	double p[] = {0.01, 0.04, 0.03, 0.005}, adj[4];
	assert_int_equal(amd_holm(p, 4, adj), 0);
	double want[] = {0.03, 0.06, 0.06, 0.02};
	for (int i = 0; i < 4; i++)
		assert_true(fabs(adj[i] - want[i]) < 1e-15);
	double q[] = {0.5, 0.9}; /* capped at 1 */
	amd_holm(q, 2, q);
	assert_true(q[0] == 1 && q[1] == 1);
}

static void test_median_ratio(void **state)
{
	(void)state;
	double b[] = {10, 11, 9, 10.5, 9.5}, c[] = {12, 13.2, 10.8, 12.6, 11.4};
	double ratio;
	struct amd_ci ci;
	struct amd_err err = {{0}};
	assert_int_equal(amd_median_ratio(b, 5, c, 5, 2000, 7, 0.95, &ratio, &ci, &err), 0);
	assert_true(fabs(ratio - 1.2) < 1e-12);
	assert_true(ci.valid && ci.lo <= ratio && ratio <= ci.hi);
	assert_true(ci.lo > 1.0 && ci.hi < 1.47); /* resampled ratios lie in [0.98, 1.47] */
	double lo = ci.lo, hi = ci.hi; /* fixed seed: the same interval again */
	assert_int_equal(amd_median_ratio(b, 5, c, 5, 2000, 7, 0.95, &ratio, &ci, &err), 0);
	assert_true(ci.lo == lo && ci.hi == hi);
	assert_int_equal(amd_median_ratio(b, 2, c, 5, 2000, 7, 0.95, &ratio, &ci, &err), 0);
	assert_false(ci.valid);
	assert_non_null(ci.why);
}

/* ---- verdicts on built sweeps: one strategy "s", points n = 1 and 2 ---- */

struct built {
	struct amd_sweep_stats sw;
	struct amd_strategy_stats st;
	struct amd_point_stats pt[2];
	struct amd_run_value runs[2][16];
};

static void build(struct built *b, const char *name, const double *t1, const double *t2,
		  size_t k)
{
	memset(b, 0, sizeof *b);
	b->sw.sweep = (char *)name;
	b->sw.metric = "epoch_time_s";
	b->sw.nstrategies = 1;
	b->sw.strategies = &b->st;
	b->st.strategy = "s";
	b->st.npoints = 2;
	b->st.points = b->pt;
	b->st.base_n = 1;
	const double *t[2] = {t1, t2};
	for (int p = 0; p < 2; p++) {
		b->pt[p].strategy = "s";
		b->pt[p].n = p + 1;
		b->pt[p].nruns = k;
		b->pt[p].runs = b->runs[p];
		for (size_t i = 0; i < k; i++) {
			struct amd_run_value *r = &b->runs[p][i];
			r->value = t[p][i];
			r->throughput = 1000 / t[p][i];
			r->energy_epoch_j = r->energy_run_j = r->power_w = r->util_pct = NAN;
		}
	}
	double tmp[16];
	memcpy(tmp, t1, k * sizeof *tmp);
	for (size_t i = 0; i < k; i++) /* median of t1 by selection (k odd) */
		for (size_t j = i + 1; j < k; j++)
			if (tmp[j] < tmp[i]) {
				double x = tmp[i];
				tmp[i] = tmp[j];
				tmp[j] = x;
			}
	b->st.base_value = tmp[k / 2];
}

static const struct amd_cmp_row *row(const struct amd_comparison *c, const char *metric, double n)
{
	for (size_t i = 0; i < c->nrows; i++)
		if (strcmp(c->rows[i].metric, metric) == 0 && c->rows[i].n == n)
			return &c->rows[i];
	return NULL;
}

static void test_insufficient_three_vs_three(void **state)
{
	(void)state;
	double a1[] = {10, 10.2, 9.9}, a2[] = {6, 6.1, 5.9};
	double b1[] = {20, 20.5, 19.8}, b2[] = {12, 12.3, 11.9};
	struct built base, cand;
	build(&base, "A", a1, a2, 3);
	build(&cand, "B", b1, b2, 3);
	struct amd_compare_opts o = {0};
	struct amd_comparison *c;
	struct amd_err err = {{0}};
	assert_int_equal(amd_compare_stats(&base.sw, &cand.sw, NULL, NULL, 0, &o, &c, &err), 0);
	const struct amd_cmp_row *r = row(c, "epoch_time_s", 1);
	assert_non_null(r);
	assert_int_equal(r->verdict, AMD_INSUFFICIENT);
	assert_true(fabs(r->ratio - 2.0) < 1e-12);
	assert_true(r->mwu.p == 0.1);
	assert_true(isnan(r->p_adj));
	assert_int_equal(r->runs_needed, 5); /* 5 gated rows: 5 vs 5 reaches 0.05/5 */
	assert_non_null(strstr(r->note, "3 vs 3"));
	assert_int_equal(c->regressions, 0);
	assert_int_equal(c->insufficient, c->ngated);
	/* time (2 n), throughput (2 n), speedup (n = 2) gated; efficiency shown */
	assert_int_equal(c->ngated, 5);
	assert_non_null(row(c, "efficiency", 2));
	assert_false(row(c, "efficiency", 2)->gated);
	assert_null(row(c, "speedup", 1));
	amd_comparison_free(c);
}

static void test_regression_and_improvement_five_vs_five(void **state)
{
	(void)state;
	double a1[] = {10, 10.2, 9.9, 10.1, 10.05}, a2[] = {6, 6.1, 5.9, 6.05, 6.02};
	double b1[] = {12, 12.2, 11.9, 12.1, 12.05}, b2[] = {6.01, 6.11, 5.91, 6.06, 6.03};
	struct built base, cand;
	build(&base, "A", a1, a2, 5);
	build(&cand, "B", b1, b2, 5);
	struct amd_compare_opts o = {0};
	struct amd_comparison *c;
	struct amd_err err = {{0}};
	assert_int_equal(amd_compare_stats(&base.sw, &cand.sw, NULL, NULL, 0, &o, &c, &err), 0);
	assert_int_equal(c->family, 5); /* 5 · 0.0079 = 0.040 ≤ 0.05 */
	const struct amd_cmp_row *t1 = row(c, "epoch_time_s", 1), *x1 = row(c, "throughput", 1);
	assert_int_equal(t1->verdict, AMD_REGRESSION); /* slower: lower is better */
	assert_int_equal(x1->verdict, AMD_REGRESSION); /* less throughput: higher is better */
	assert_true(fabs(t1->p_adj - 5 * 0.007936507936507936) < 1e-12);
	/* n = 2: 0.1–0.2 % slower, significant but below the 5 % threshold */
	assert_int_equal(row(c, "epoch_time_s", 2)->verdict, AMD_NO_CHANGE);
	/* speedup at n = 2 rose (base slower, n = 2 the same): improvement */
	assert_int_equal(row(c, "speedup", 2)->verdict, AMD_IMPROVEMENT);
	assert_int_equal(c->regressions, 2);
	amd_comparison_free(c);
	/* swapped: the same rows are improvements, none a regression */
	assert_int_equal(amd_compare_stats(&cand.sw, &base.sw, NULL, NULL, 0, &o, &c, &err), 0);
	assert_int_equal(row(c, "epoch_time_s", 1)->verdict, AMD_IMPROVEMENT);
	assert_int_equal(row(c, "throughput", 1)->verdict, AMD_IMPROVEMENT);
	assert_int_equal(row(c, "speedup", 2)->verdict, AMD_REGRESSION);
	amd_comparison_free(c);
}

/* 5 vs 5 across 12 gated rows can never pass Holm: insufficient, not "no change". */
static void test_family_too_large(void **state)
{
	(void)state;
	double a1[] = {10, 10.2, 9.9, 10.1, 10.05}, a2[] = {6, 6.1, 5.9, 6.05, 6.02};
	struct built base, cand;
	build(&base, "A", a1, a2, 5);
	build(&cand, "B", a1, a2, 5);
	const char *only[] = {"epoch_time_s", "throughput", "speedup", "efficiency", NULL};
	struct amd_compare_opts o = {.only_metrics = only};
	struct amd_comparison *c;
	struct amd_err err = {{0}};
	assert_int_equal(amd_compare_stats(&base.sw, &cand.sw, NULL, NULL, 0, &o, &c, &err), 0);
	assert_int_equal(c->ngated, 6);
	assert_int_equal(c->family, 6); /* 6 · 0.0079 = 0.048 */
	amd_comparison_free(c);
	o.alpha = 0.04; /* 6 · 0.0079 > 0.04: nothing can be significant */
	assert_int_equal(amd_compare_stats(&base.sw, &cand.sw, NULL, NULL, 0, &o, &c, &err), 0);
	assert_int_equal(c->family, 0);
	assert_int_equal(c->insufficient, 6);
	assert_non_null(strstr(row(c, "epoch_time_s", 1)->note, "across 6 gated comparisons"));
	assert_int_equal(c->regressions, 0);
	amd_comparison_free(c);
}

static void test_missing_configuration(void **state)
{
	(void)state;
	double a1[] = {10, 10.2, 9.9}, a2[] = {6, 6.1, 5.9};
	struct built base, cand;
	build(&base, "A", a1, a2, 3);
	build(&cand, "B", a1, a2, 3);
	cand.st.npoints = 1; /* the candidate lacks n = 2 */
	struct amd_compare_opts o = {0};
	struct amd_comparison *c;
	struct amd_err err = {{0}};
	assert_int_equal(amd_compare_stats(&base.sw, &cand.sw, NULL, NULL, 0, &o, &c, &err), 0);
	assert_int_equal(row(c, "epoch_time_s", 2)->verdict, AMD_MISSING);
	assert_int_equal(row(c, "epoch_time_s", 2)->nc, 0);
	assert_null(row(c, "speedup", 2)); /* one n on a side: no scaling rows */
	assert_int_equal(c->missing, 2);
	amd_comparison_free(c);
}


/* The gate's verdict: regression before insufficient before pass; a
 * configuration on one side only fails only with require_all. */
static void test_gate_verdict(void **state)
{
	(void)state;
	double a1[] = {10, 10.2, 9.9}, a2[] = {6, 6.1, 5.9};
	struct built base, cand;
	build(&base, "A", a1, a2, 3);
	build(&cand, "B", a1, a2, 3);
	cand.st.npoints = 1; /* n = 2 on the baseline's side only */
	struct amd_compare_opts o = {0};
	struct amd_comparison *c;
	struct amd_err err = {{0}};
	assert_int_equal(amd_compare_stats(&base.sw, &cand.sw, NULL, NULL, 0, &o, &c, &err), 0);
	struct amd_gate_verdict v;
	amd_gate_verdict(c, NULL, &v);
	assert_int_equal(v.result, AMD_GATE_INSUFFICIENT);
	assert_int_equal(v.exit_code, 3);
	assert_string_equal(v.word, "INSUFFICIENT DATA");
	assert_string_equal(v.name, "insufficient");
	assert_string_equal(amd_gate_result_json(v.result), "insufficient_data");
	assert_string_equal(amd_gate_result_shown("insufficient_data", 1), "INSUFFICIENT DATA");
	assert_string_equal(amd_gate_result_shown("regression", 1), "FAIL");
	assert_string_equal(amd_gate_result_shown("pass", 0), "pass");
	assert_string_equal(amd_gate_result_shown("INSUFFICIENT DATA", 1), "INSUFFICIENT DATA");
	assert_int_equal(v.failing, 0);
	assert_non_null(strstr(v.sentence, "gate: INSUFFICIENT DATA: B against baseline A, "));
	const struct amd_cmp_row *m = row(c, "epoch_time_s", 2);
	struct amd_gate_opts all = {.require_all = 1};
	assert_false(amd_gate_row_fails(m, NULL));
	assert_true(amd_gate_row_fails(m, &all));
	amd_gate_verdict(c, &all, &v);
	assert_int_equal(v.result, AMD_GATE_REGRESSION);
	assert_int_equal(v.exit_code, 1);
	assert_string_equal(v.word, "FAIL");
	assert_string_equal(v.name, "regression");
	assert_int_equal(v.failing, c->missing);
	assert_non_null(strstr(v.sentence, "2 on one side only (a failure with --require-all)."));
	amd_comparison_free(c);
}

static void test_gate_verdict_regression_and_pass(void **state)
{
	(void)state;
	double a1[] = {10, 10.2, 9.9, 10.1, 10.05}, a2[] = {6, 6.1, 5.9, 6.05, 6.02};
	double b1[] = {12, 12.2, 11.9, 12.1, 12.05}, b2[] = {6.01, 6.11, 5.91, 6.06, 6.03};
	struct built base, cand;
	build(&base, "A", a1, a2, 5);
	build(&cand, "B", b1, b2, 5);
	struct amd_compare_opts o = {0};
	struct amd_comparison *c;
	struct amd_err err = {{0}};
	assert_int_equal(amd_compare_stats(&base.sw, &cand.sw, NULL, NULL, 0, &o, &c, &err), 0);
	struct amd_gate_verdict v;
	amd_gate_verdict(c, NULL, &v);
	assert_int_equal(v.exit_code, 1);
	assert_int_equal(v.failing, 2);
	assert_non_null(strstr(v.sentence, "5 gated rows: 2 regressions — epoch_time_s s n=1 "
					   "ratio 1.199 [")); /* 12.05 / 10.05 */
	assert_non_null(strstr(v.sentence, "(lower is better), Holm p 0.0397; throughput s n=1"));
	amd_comparison_free(c);
	/* A against itself: no regression, no improvement */
	assert_int_equal(amd_compare_stats(&base.sw, &base.sw, NULL, NULL, 0, &o, &c, &err), 0);
	amd_gate_verdict(c, NULL, &v);
	assert_int_equal(v.result, AMD_GATE_PASS);
	assert_int_equal(v.exit_code, 0);
	assert_string_equal(v.sentence, "gate: PASS: A against baseline A, 5 gated rows: no "
					"regression; 0 improvements, 5 without a significant change "
					"past the threshold.");
	amd_comparison_free(c);
}

/* The one JSON shape: head and rows in order, every row, and the reader. */
static void test_comparison_json(void **state)
{
	(void)state;
	double a1[] = {10, 10.2, 9.9}, a2[] = {6, 6.1, 5.9};
	struct built base, cand;
	build(&base, "A", a1, a2, 3);
	build(&cand, "B", a1, a2, 3);
	struct amd_compare_opts o = {.cand_strategy = "s"};
	struct amd_comparison *c;
	struct amd_err err = {{0}};
	assert_int_equal(amd_compare_stats(&base.sw, &cand.sw, NULL, NULL, 0, &o, &c, &err), 0);
	struct amd_cmp_json_opts w = {.base_store = "a.db", .cand_store = "b.db", .settings = 1};
	cJSON *j = amd_comparison_json(c, &w);
	assert_non_null(j);
	const char *keys[] = {"baseline", "candidate", "metric", "resamples", "seed", "level",
			      "aggregate", "rows", "summary"};
	const cJSON *k = j->child;
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++, k = k->next)
		assert_string_equal(k->string, keys[i]);
	assert_null(k);
	const cJSON *b = cJSON_GetObjectItem(j, "baseline"), *cd = cJSON_GetObjectItem(j, "candidate");
	assert_true(cJSON_IsNull(cJSON_GetObjectItem(b, "strategy"))); /* null, never left out */
	assert_string_equal(cJSON_GetObjectItem(b, "store")->valuestring, "a.db");
	assert_string_equal(cJSON_GetObjectItem(cd, "strategy")->valuestring, "s");
	assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(j, "rows")), (int)c->nrows);
	assert_null(amd_comparison_json_result(j)); /* no verdict written */
	cJSON_AddStringToObject(j, "result", "FAIL");
	assert_string_equal(amd_comparison_json_result(j), "FAIL");
	cJSON_Delete(j);
	/* a head without settings or stores, as report.json's "gate" */
	j = cJSON_CreateObject();
	struct amd_cmp_json_opts none = {0};
	assert_int_equal(amd_comparison_json_head(j, c, &none), 0);
	assert_null(cJSON_GetObjectItem(j, "seed"));
	assert_true(cJSON_IsNull(cJSON_GetObjectItem(cJSON_GetObjectItem(j, "baseline"), "store")));
	cJSON_AddStringToObject(j, "result", "pass");
	assert_null(amd_comparison_json_result(j)); /* not a comparison: no rows */
	cJSON_Delete(j);
	assert_null(amd_comparison_json_result(NULL));
	amd_comparison_free(c);
}

/* The tables: sections, the "gated" column, emphasis, cells, notes once. */
static void test_comparison_tables(void **state)
{
	(void)state;
	double a1[] = {10, 10.2, 9.9, 10.1, 10.05}, a2[] = {6, 6.1, 5.9, 6.05, 6.02};
	double b1[] = {12, 12.2, 11.9, 12.1, 12.05}, b2[] = {6.01, 6.11, 5.91, 6.06, 6.03};
	struct built base, cand;
	build(&base, "A", a1, a2, 5);
	build(&cand, "B", b1, b2, 5);
	struct amd_compare_opts o = {0};
	struct amd_comparison *c;
	struct amd_err err = {{0}};
	assert_int_equal(amd_compare_stats(&base.sw, &cand.sw, NULL, NULL, 0, &o, &c, &err), 0);
	struct amd_table *g = amd_cmp_table_text(c, 1), *s = amd_cmp_table_text(c, 0);
	struct amd_table *all = amd_cmp_table_text(c, AMD_CMP_ALL);
	assert_true(amd_table_ok(g) && amd_table_ok(s) && amd_table_ok(all));
	assert_int_equal(g->nrows, c->ngated);
	assert_int_equal(g->nrows + s->nrows, c->nrows);
	assert_int_equal(all->ncols, 10);
	assert_string_equal(amd_table_cell(all, 0, 0), "epoch_time_s");
	assert_string_equal(amd_table_cell(all, 0, 3), "10.05 (5)");
	assert_string_equal(amd_table_cell(all, 0, 8), "regression");
	size_t strong = 0, on_verdicts = 0; /* the gated regressions' verdicts, nothing else */
	for (size_t k = 0; k < all->nrows * all->ncols; k++) {
		strong += all->strong[k];
		on_verdicts += all->strong[k] && k % all->ncols == 8 &&
			       strcmp(all->cells[k], "regression") == 0;
	}
	assert_int_equal(strong, c->regressions);
	assert_int_equal(on_verdicts, c->regressions);
	assert_string_equal(amd_table_cell(all, g->nrows, 9), "no"); /* shown rows after */
	amd_table_free(g);
	amd_table_free(s);
	amd_table_free(all);
	struct amd_table *r = amd_cmp_table_report(c, 1);
	assert_int_equal(r->elastic, 1);
	assert_string_equal(amd_table_cell(r, 0, 1), "s n=1");
	assert_string_equal(amd_table_cell(r, 0, 2), "10.1");
	assert_string_equal(amd_table_cell(r, 0, 7), "0.00794");
	amd_table_free(r);
	amd_comparison_free(c);
	/* 3 vs 3: every gated row has the same note; it is given once */
	build(&base, "A", a1, a2, 3);
	build(&cand, "B", b1, b2, 3);
	assert_int_equal(amd_compare_stats(&base.sw, &cand.sw, NULL, NULL, 0, &o, &c, &err), 0);
	size_t i = 0, notes = 0;
	while (amd_cmp_next_note(c, &i, 1))
		notes++;
	assert_int_equal(notes, 1);
	amd_comparison_free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mann_whitney_matches_scipy),
		cmocka_unit_test(test_exact_large_and_normal),
		cmocka_unit_test(test_exact_cdf_shape),
		cmocka_unit_test(test_min_p_and_runs_needed),
		cmocka_unit_test(test_holm),
		cmocka_unit_test(test_median_ratio),
		cmocka_unit_test(test_insufficient_three_vs_three),
		cmocka_unit_test(test_regression_and_improvement_five_vs_five),
		cmocka_unit_test(test_family_too_large),
		cmocka_unit_test(test_missing_configuration),
		cmocka_unit_test(test_gate_verdict),
		cmocka_unit_test(test_gate_verdict_regression_and_pass),
		cmocka_unit_test(test_comparison_json),
		cmocka_unit_test(test_comparison_tables),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
