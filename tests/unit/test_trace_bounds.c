/* test_trace_bounds.c — trace times at the edges of int64 nanoseconds:
 * the range check of trace_time.h at its limits, and the aggregator
 * refusing (not wrapping) sums past INT64_MAX while taking sums just
 * below it exactly. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "trace_agg.h"
#include "trace_time.h"

static void range_limits(void **state)
{
	(void)state;
	assert_null(amd_trace_time_check(0, AMD_TRACE_TIMESTAMP));
	assert_null(amd_trace_time_check(AMD_TRACE_MAX_TIME_NS, AMD_TRACE_TIMESTAMP));
	assert_non_null(amd_trace_time_check(AMD_TRACE_MAX_TIME_NS + 1, AMD_TRACE_TIMESTAMP));
	assert_non_null(amd_trace_time_check(-1, AMD_TRACE_TIMESTAMP));
	assert_non_null(amd_trace_time_check(INT64_MAX, AMD_TRACE_TIMESTAMP));
	assert_null(amd_trace_time_check(AMD_TRACE_MAX_DUR_NS, AMD_TRACE_DURATION));
	assert_non_null(amd_trace_time_check(AMD_TRACE_MAX_DUR_NS + 1, AMD_TRACE_DURATION));
	assert_non_null(amd_trace_time_check(-1, AMD_TRACE_DURATION));
	/* the worst sum the range allows still fits */
	assert_true(INT64_MAX - AMD_TRACE_MAX_TIME_NS - AMD_TRACE_MAX_TIME_NS >= AMD_TRACE_MAX_DUR_NS);
}

static void feed(struct amd_trace_agg *a, const char *tid, int64_t ts, int64_t dur)
{
	struct amd_trace_event e = {0};
	e.name = "aten::mm";
	e.name_len = 8;
	e.cat = "cpu_op";
	e.cat_len = 6;
	e.pid = "1";
	e.pid_len = 1;
	e.tid = tid;
	e.tid_len = strlen(tid);
	e.ph = 'X';
	e.has_ts = 1;
	e.ts = ts;
	e.dur = dur;
	e.in_nelems = e.out_nelems = e.msg_bytes = -1;
	e.group_size = -1;
	assert_int_equal(amd_trace_agg_event(a, &e), 0);
}

/* n events of the longest duration on n threads at the latest start. */
static int finish_n_max(int n, int64_t *total)
{
	struct amd_trace_agg *a = amd_trace_agg_new();
	assert_non_null(a);
	for (int i = 0; i < n; i++) {
		char tid[8];
		snprintf(tid, sizeof tid, "%d", i);
		feed(a, tid, AMD_TRACE_MAX_TIME_NS, AMD_TRACE_MAX_DUR_NS);
	}
	struct amd_trace_summary s;
	int rc = amd_trace_agg_finish(a, AMD_TRACE_MAX_TIME_NS, &s);
	if (rc == 0) {
		assert_int_equal(s.n_ops, 1);
		*total = s.ops[0].total_ns;
		assert_int_equal(s.end_ns, 2 * AMD_TRACE_MAX_TIME_NS + AMD_TRACE_MAX_DUR_NS);
	} else
		assert_int_equal(amd_trace_agg_overflowed(a), 1);
	amd_trace_agg_free(a);
	return rc;
}

static void sums_below_int64_are_exact(void **state)
{
	(void)state;
	int64_t total = 0;
	assert_int_equal(finish_n_max(9, &total), 0);
	assert_int_equal(total, 9 * AMD_TRACE_MAX_DUR_NS); /* 9e18 < INT64_MAX */
}

static void sums_past_int64_are_refused(void **state)
{
	(void)state;
	int64_t total = 0;
	assert_int_equal(finish_n_max(10, &total), -1); /* 1e19 > INT64_MAX */
}

static void out_of_range_fed_directly_is_refused(void **state)
{
	(void)state;
	struct amd_trace_agg *a = amd_trace_agg_new();
	assert_non_null(a);
	feed(a, "1", INT64_MAX - 5, 10);
	struct amd_trace_summary s;
	assert_int_equal(amd_trace_agg_finish(a, 0, &s), -1);
	assert_int_equal(amd_trace_agg_overflowed(a), 1);
	amd_trace_agg_free(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(range_limits),
		cmocka_unit_test(sums_below_int64_are_exact),
		cmocka_unit_test(sums_past_int64_are_refused),
		cmocka_unit_test(out_of_range_fed_directly_is_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
