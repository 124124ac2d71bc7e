/* test_table.c — the table model (lib/core/table.h): headers, rows,
 * alignment, emphasis and notes, a NULL table taken as a failed one, and
 * the cell formats against hand-written strings; and the stats tables
 * (lib/analysis/stats_table.h) on a built strategy. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "num.h"
#include "stats_table.h"
#include "table.h"

static void test_model(void **state)
{
	(void)state;
	const char *h[] = {"a", "b", NULL};
	struct amd_table *t = amd_table_new(3, h);
	assert_non_null(t);
	assert_int_equal(t->elastic, -1);
	assert_string_equal(t->head[2], "");
	amd_table_right(t, 1);
	amd_table_right(t, 7); /* outside: ignored */
	assert_true(t->right[1] && !t->right[0] && !t->right[2]);
	for (int i = 0; i < 40; i++) { /* past the first growth */
		char n[16];
		snprintf(n, sizeof n, "%d", i);
		const char *row[] = {n, NULL, "x"};
		assert_int_equal(amd_table_add(t, row), 0);
		if (i == 3)
			amd_table_strong(t, 2);
	}
	assert_int_equal(t->nrows, 40);
	assert_string_equal(amd_table_cell(t, 39, 0), "39");
	assert_string_equal(amd_table_cell(t, 39, 1), "");
	assert_string_equal(amd_table_cell(t, 40, 0), ""); /* outside */
	assert_true(t->strong[3 * 3 + 2]);
	assert_false(t->strong[4 * 3 + 2]);
	assert_int_equal(amd_table_note(t, "%d notes", 1), 0);
	assert_int_equal(t->nnotes, 1);
	assert_string_equal(t->notes[0], "1 notes");
	assert_true(amd_table_ok(t));
	amd_table_free(t);
	/* a NULL table (out of memory at amd_table_new) is a failed one */
	const char *row[] = {"1"};
	assert_int_equal(amd_table_add(NULL, row), -1);
	assert_int_equal(amd_table_note(NULL, "x"), -1);
	amd_table_right(NULL, 0);
	amd_table_strong(NULL, 0);
	assert_false(amd_table_ok(NULL));
	amd_table_free(NULL);
}

static void test_cells(void **state)
{
	(void)state;
	char b[32];
	assert_true(amd_num_ok(1.5) && !amd_num_ok(NAN) && !amd_num_ok(INFINITY) &&
		    !amd_num_ok(-INFINITY));
	assert_string_equal(amd_cell(b, sizeof b, "%.2f", 1.234), "1.23");
	assert_string_equal(amd_cell(b, sizeof b, "%.2f", NAN), "–");
	assert_string_equal(amd_cell_or(b, sizeof b, "%.4g", INFINITY, "-"), "-");
	assert_string_equal(amd_cell_pct(b, sizeof b, "%.1f%%", 0.1234), "12.3%");
	assert_string_equal(amd_cell_pct(b, sizeof b, "%.0f%%", -INFINITY), "–");
	/* the digits a value's size calls for (the report's rule) */
	assert_string_equal(amd_cell_sig(b, sizeof b, 1234.5), "1234");
	assert_string_equal(amd_cell_sig(b, sizeof b, -100), "-100");
	assert_string_equal(amd_cell_sig(b, sizeof b, 12.34), "12.3");
	assert_string_equal(amd_cell_sig(b, sizeof b, 1.234), "1.23");
	assert_string_equal(amd_cell_sig(b, sizeof b, 0.1234), "0.123");
	assert_string_equal(amd_cell_sig(b, sizeof b, 0.01), "0.010");
	assert_string_equal(amd_cell_sig(b, sizeof b, 0.001234), "0.0012");
	assert_string_equal(amd_cell_sig(b, sizeof b, 0), "0");
	assert_string_equal(amd_cell_sig(b, sizeof b, NAN), "–");
}

static void test_stats_tables(void **state)
{
	(void)state;
	struct amd_point_stats pt[2];
	memset(pt, 0, sizeof pt);
	for (int i = 0; i < 2; i++) {
		pt[i].n = i + 1;
		pt[i].nruns = 3;
		pt[i].median = 10.0 / (i + 1);
		pt[i].cv = 0.012;
		pt[i].speedup = i ? 1.9 : 1;
		pt[i].efficiency = i ? 0.95 : 1;
		pt[i].karp_flatt = i ? 0.0526 : NAN;
		pt[i].throughput = 100 * (i + 1);
		pt[i].ci = (struct amd_ci){9, 11, 1, NULL, 0};
		pt[i].ci_speedup = (struct amd_ci){NAN, NAN, 0, "no CI", 0};
		pt[i].energy_solution_j = pt[i].power_w = pt[i].util_pct = NAN;
		pt[i].energy_epoch_j = pt[i].energy_per_sample_j = NAN;
		pt[i].comp_fraction = pt[i].comm_share = pt[i].straggler_ns = NAN;
		for (int p = 0; p < AMD_PHASE_COUNT; p++)
			pt[i].phase_share[p] = NAN;
	}
	struct amd_strategy_stats st = {.strategy = "ddp", .npoints = 2, .points = pt};
	struct amd_sweep_stats s = {.scaling = 1, .metric = "epoch_time_s"};
	struct amd_table *t = amd_stats_table(&s, &st);
	assert_true(amd_table_ok(t));
	assert_int_equal(t->ncols, 9);
	assert_int_equal(t->nrows, 2);
	assert_true(t->right[0] && !t->right[3] && !t->right[5] && t->right[8]);
	assert_string_equal(amd_table_cell(t, 1, 2), "5");
	assert_string_equal(amd_table_cell(t, 1, 3), "[9, 11]");
	assert_string_equal(amd_table_cell(t, 1, 4), "1.2%");
	assert_string_equal(amd_table_cell(t, 1, 5), "1.90 "); /* no CI: nothing after */
	assert_string_equal(amd_table_cell(t, 0, 7), "–");
	amd_table_free(t);
	/* no point has energy or a profile: tables without rows */
	t = amd_energy_table(&st);
	assert_true(amd_table_ok(t) && t->nrows == 0);
	amd_table_free(t);
	pt[1].comm_share = 0.25;
	t = amd_profile_table(&st);
	assert_int_equal(t->nrows, 2);
	assert_string_equal(amd_table_cell(t, 1, 5), "25.0%");
	assert_string_equal(amd_table_cell(t, 0, 5), "–");
	amd_table_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_model),
		cmocka_unit_test(test_cells),
		cmocka_unit_test(test_stats_tables),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
