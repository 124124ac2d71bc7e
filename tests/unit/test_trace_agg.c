/* test_trace_agg.c — the trace aggregator on small hand-made event
 * streams whose answers are worked out by hand: self time from nesting
 * (events given out of order), GPU phase split with overlap, CPU-only
 * thread-time shares, steps, collective bytes, the window. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "trace_agg.h"

static void feed(struct amd_trace_agg *a, const char *name, const char *cat, const char *tid,
		 int64_t ts, int64_t dur)
{
	struct amd_trace_event e = {0};
	e.name = name;
	e.name_len = strlen(name);
	e.cat = cat;
	e.cat_len = strlen(cat);
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

static const struct amd_trace_op *op(const struct amd_trace_summary *s, const char *name)
{
	for (size_t i = 0; i < s->n_ops; i++)
		if (strcmp(s->ops[i].name, name) == 0)
			return &s->ops[i];
	fail_msg("no op %s", name);
	return NULL;
}

static void self_time_from_nesting_out_of_order(void **state)
{
	(void)state;
	struct amd_trace_agg *a = amd_trace_agg_new();
	/* A[0,100) holds B[10,40) (which holds D[20,30)) and C[50,60); fed D, C, A, B */
	feed(a, "D", "cpu_op", "1", 20, 10);
	feed(a, "C", "cpu_op", "1", 50, 10);
	feed(a, "A", "cpu_op", "1", 0, 100);
	feed(a, "B", "cpu_op", "1", 10, 30);
	/* same name on another thread: not a child of A */
	feed(a, "C", "cpu_op", "2", 55, 5);
	struct amd_trace_summary s;
	assert_int_equal(amd_trace_agg_finish(a, 1000, &s), 0);
	assert_int_equal(op(&s, "A")->self_ns, 60);
	assert_int_equal(op(&s, "B")->self_ns, 20);
	assert_int_equal(op(&s, "D")->self_ns, 10);
	const struct amd_trace_op *c = op(&s, "C");
	assert_int_equal(c->count, 2);
	assert_int_equal(c->total_ns, 15);
	assert_int_equal(c->self_ns, 15);
	assert_int_equal(c->min_ns, 5);
	assert_int_equal(c->max_ns, 10);
	assert_int_equal(s.start_ns, 1000);
	assert_int_equal(s.end_ns, 1100);
	assert_int_equal(s.events, 5);
	amd_trace_agg_free(a);
}

static void runtime_calls_leave_self_time(void **state)
{
	(void)state;
	struct amd_trace_agg *a = amd_trace_agg_new();
	/* Kineto's order: the ops first, the runtime calls of the same thread
	 * in a later pass. E[0,100) holds F[10,50); cudaMalloc[20,45) runs
	 * inside F, cudaLaunchKernel[60,70) (holding cuLaunchKernel[62,68))
	 * inside E only, cudaFree[120,130) inside no op; thread 2's call is
	 * not E's. */
	feed(a, "E", "cpu_op", "1", 0, 100);
	feed(a, "F", "cpu_op", "1", 10, 40);
	feed(a, "cudaMalloc", "cuda_runtime", "1", 20, 25);
	feed(a, "cudaLaunchKernel", "cuda_runtime", "1", 60, 10);
	feed(a, "cuLaunchKernel", "cuda_driver", "1", 62, 6);
	feed(a, "cudaFree", "cuda_runtime", "1", 120, 10);
	feed(a, "cudaMemcpy", "cuda_runtime", "2", 80, 10);
	struct amd_trace_summary s;
	assert_int_equal(amd_trace_agg_finish(a, 0, &s), 0);
	assert_int_equal(op(&s, "E")->self_ns, 100 - 40 - 10);
	assert_int_equal(op(&s, "F")->self_ns, 40 - 25);
	assert_int_equal(op(&s, "cudaMalloc")->self_ns, 25);
	assert_int_equal(op(&s, "cudaLaunchKernel")->self_ns, 4);
	assert_int_equal(op(&s, "cuLaunchKernel")->self_ns, 6);
	assert_int_equal(op(&s, "cudaFree")->self_ns, 10);
	amd_trace_agg_free(a);
}

static void gpu_phases_with_overlap(void **state)
{
	(void)state;
	struct amd_trace_agg *a = amd_trace_agg_new();
	feed(a, "ProfilerStep#1", "user_annotation", "1", 0, 200);
	feed(a, "void at::native::add_kernel", "kernel", "7", 0, 50);
	feed(a, "ncclDevKernel_AllReduce_Sum_f32", "kernel", "20", 30, 50);
	feed(a, "Memcpy HtoD (Pageable -> Device)", "gpu_memcpy", "7", 70, 30);
	struct amd_trace_summary s;
	assert_int_equal(amd_trace_agg_finish(a, 0, &s), 0);
	assert_true(s.has_gpu);
	assert_int_equal(s.phase_ns[AMD_PHASE_COMPUTE], 50);
	assert_int_equal(s.phase_ns[AMD_PHASE_COMM], 30);    /* [50,80) */
	assert_int_equal(s.phase_ns[AMD_PHASE_OVERLAP], 20); /* [30,50) */
	assert_int_equal(s.phase_ns[AMD_PHASE_MEMORY], 20);  /* [80,100) */
	assert_int_equal(s.phase_ns[AMD_PHASE_IDLE], 100);   /* window 200 - 100 busy */
	/* itwinai's fraction over device ops: at:: kernel 50 of 50+50+30 */
	assert_true(fabs(s.comp_fraction - 50.0 / 130.0) < 1e-12);
	assert_int_equal(s.n_colls, 1);
	assert_string_equal(s.colls[0].name, "ncclDevKernel_AllReduce_Sum_f32");
	amd_trace_agg_free(a);
}

static void cpu_only_shares_steps_and_collectives(void **state)
{
	(void)state;
	struct amd_trace_agg *a = amd_trace_agg_new();
	feed(a, "ProfilerStep#3", "user_annotation", "1", 100, 100);
	feed(a, "ProfilerStep#1", "user_annotation", "1", 0, 100);
	feed(a, "aten::linear", "cpu_op", "1", 10, 60);
	feed(a, "aten::addmm", "cpu_op", "1", 20, 40);   /* nested: not counted again */
	feed(a, "aten::relu", "cpu_op", "1", 120, 10);
	feed(a, "gloo:all_reduce", "user_annotation", "9", 50, 100);
	struct amd_trace_event e = {.name = "record_param_comms", .name_len = 18, .cat = "cpu_op",
		.cat_len = 6, .pid = "1", .pid_len = 1, .tid = "1", .tid_len = 1, .ph = 'X',
		.has_ts = 1, .ts = 150, .dur = 5, .in_nelems = 10, .out_nelems = 10, .msg_bytes = -1,
		.group_size = 2, .dtype = "Float", .dtype_len = 5, .coll_name = "allreduce",
		.coll_name_len = 9};
	assert_int_equal(amd_trace_agg_event(a, &e), 0);
	struct amd_trace_summary s;
	assert_int_equal(amd_trace_agg_finish(a, 0, &s), 0);
	assert_false(s.has_gpu);
	assert_int_equal(s.phase_ns[AMD_PHASE_COMPUTE], 70);  /* linear 60 + relu 10 */
	assert_int_equal(s.phase_ns[AMD_PHASE_COMM], 105);    /* gloo 100 + record_param_comms 5 */
	assert_int_equal(s.phase_ns[AMD_PHASE_OTHER], 25);    /* window 200 - 175 */
	assert_int_equal(s.n_steps, 2);
	assert_int_equal(s.steps[0].step, 1);
	assert_int_equal(s.steps[1].step, 3);
	assert_int_equal(s.steps[1].dur_ns, 100);
	assert_int_equal(s.n_colls, 2);
	assert_string_equal(s.colls[0].name, "allreduce");
	assert_int_equal(s.colls[0].bytes, 40);
	assert_int_equal(s.colls[0].group_size, 2);
	assert_string_equal(s.colls[1].name, "gloo:all_reduce");
	assert_int_equal(s.colls[1].bytes, -1);
	amd_trace_agg_free(a);
}

static void itwinai_name_rule(void **state)
{
	(void)state;
	assert_true(amd_trace_is_itwinai_compute("aten::mm"));
	assert_true(amd_trace_is_itwinai_compute("void at::native::vectorized_kernel<...>"));
	assert_true(amd_trace_is_itwinai_compute("c10::Half something"));
	assert_true(amd_trace_is_itwinai_compute("autograd::engine::evaluate_function: MmBackward0"));
	assert_false(amd_trace_is_itwinai_compute("at::native::no_space_before"));
	assert_false(amd_trace_is_itwinai_compute("c10d::allreduce_"));
	assert_false(amd_trace_is_itwinai_compute("ampere_sgemm_128x64_tn"));
	assert_false(amd_trace_is_itwinai_compute("ProfilerStep#2"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(self_time_from_nesting_out_of_order),
		cmocka_unit_test(runtime_calls_leave_self_time),
		cmocka_unit_test(gpu_phases_with_overlap),
		cmocka_unit_test(cpu_only_shares_steps_and_collectives),
		cmocka_unit_test(itwinai_name_rule),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
