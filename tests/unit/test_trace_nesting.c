/* test_trace_nesting.c — the aggregator on a stack of ops nested deeper
 * than its first allocation (16): each op's self time is its length
 * minus its child's, and the outermost aten op alone counts as CPU aten
 * time. Under ASan this is the regression test of a read through a
 * pointer into the open-interval stack after growing it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "trace_agg.h"

#define DEPTH 40

static void deep_stack(void **state)
{
	(void)state;
	struct amd_trace_agg *a = amd_trace_agg_new();
	char names[DEPTH][32];
	/* op i spans [10 i, 1000 - 10 i]: each inside the one before */
	for (int i = 0; i < DEPTH; i++) {
		snprintf(names[i], sizeof names[i], "aten::op%d", i);
		struct amd_trace_event e = {0};
		e.name = names[i];
		e.name_len = strlen(names[i]);
		e.cat = "cpu_op";
		e.cat_len = 6;
		e.pid = e.tid = "1";
		e.pid_len = e.tid_len = 1;
		e.ph = 'X';
		e.has_ts = 1;
		e.ts = 10 * i;
		e.dur = 1000 - 20 * i;
		e.in_nelems = e.out_nelems = e.msg_bytes = -1;
		e.group_size = -1;
		assert_int_equal(amd_trace_agg_event(a, &e), 0);
	}
	struct amd_trace_summary s;
	assert_int_equal(amd_trace_agg_finish(a, 0, &s), 0);
	assert_int_equal(s.n_ops, DEPTH);
	for (size_t i = 0; i < s.n_ops; i++) {
		int k = atoi(s.ops[i].name + 8);
		int64_t self = k == DEPTH - 1 ? 1000 - 20 * k : 20;
		assert_int_equal(s.ops[i].self_ns, self);
	}
	assert_int_equal(s.phase_ns[AMD_PHASE_COMPUTE], 1000); /* the outermost only */
	amd_trace_agg_free(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {cmocka_unit_test(deep_stack)};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
