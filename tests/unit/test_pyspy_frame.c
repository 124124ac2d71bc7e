/* test_pyspy_frame.c — the py-spy frame text parser: "name (file:line)",
 * "name (file)", bare names, py-spy's -s process frames whose command
 * line holds ';', -t thread frames, collapsed lines; and the stack
 * accumulator that merges identical stacks before the sink. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "pyspy_stack.h"

static void frame_with_line(void **state)
{
	char s[] = "train_step (/opt/venv/lib/python3.11/site-packages/itwinai/torch/trainer.py:812)";
	struct amd_stack_frame f;
	const char *why = NULL;
	assert_int_equal(amd_pyspy_parse_frame(s, &f, &why), 0);
	assert_string_equal(f.name, "train_step");
	assert_string_equal(f.file, "/opt/venv/lib/python3.11/site-packages/itwinai/torch/trainer.py");
	assert_int_equal(f.line, 812);
}

static void frame_without_line(void **state)
{
	char s[] = "<module> (train.py)";
	struct amd_stack_frame f;
	const char *why = NULL;
	assert_int_equal(amd_pyspy_parse_frame(s, &f, &why), 0);
	assert_string_equal(f.name, "<module>");
	assert_string_equal(f.file, "train.py");
	assert_int_equal(f.line, 0);
}

static void frame_bare_and_native(void **state)
{
	char bare[] = "__libc_start_main";
	char native[] = "at::native::add_out(at::Tensor const&) (libtorch_cpu.so)";
	char windows[] = "run (C:\\proj\\train.py:7)";
	struct amd_stack_frame f;
	const char *why = NULL;
	assert_int_equal(amd_pyspy_parse_frame(bare, &f, &why), 0);
	assert_string_equal(f.name, "__libc_start_main");
	assert_null(f.file);
	assert_int_equal(amd_pyspy_parse_frame(native, &f, &why), 0);
	assert_string_equal(f.name, "at::native::add_out(at::Tensor const&)");
	assert_string_equal(f.file, "libtorch_cpu.so");
	assert_int_equal(amd_pyspy_parse_frame(windows, &f, &why), 0);
	assert_string_equal(f.file, "C:\\proj\\train.py");
	assert_int_equal(f.line, 7);
}

static void frame_empty_is_an_error(void **state)
{
	char s[] = "";
	struct amd_stack_frame f;
	const char *why = NULL;
	assert_int_equal(amd_pyspy_parse_frame(s, &f, &why), -1);
	assert_non_null(why);
}

static void thread_frames(void **state)
{
	char hex[] = "thread (0x7F3A2C1B5740): MainThread";
	char dec[] = "thread (1234)";
	char paren[] = "thread (0x16EF87000): Thread-2 (_handle_tasks)";
	char not_thread[] = "thread (worker.py:3)";
	assert_int_equal(amd_pyspy_thread_frame(hex), 1);
	assert_string_equal(hex, "0x7F3A2C1B5740 MainThread");
	assert_int_equal(amd_pyspy_thread_frame(dec), 1);
	assert_string_equal(dec, "1234");
	assert_int_equal(amd_pyspy_thread_frame(paren), 1);
	assert_string_equal(paren, "0x16EF87000 Thread-2 (_handle_tasks)");
	assert_int_equal(amd_pyspy_thread_frame(not_thread), 0);
}

static void process_frames(void **state)
{
	char s[] = "process 4250:\"python train.py --a;b\"";
	char old[] = "process 7:\"python x.py\" ()";
	char not_process[] = "process (worker.py:3)";
	assert_int_equal(amd_pyspy_process_frame(s), 1);
	assert_string_equal(s, "4250 python train.py --a;b");
	assert_int_equal(amd_pyspy_process_frame(old), 1);
	assert_string_equal(old, "7 python x.py");
	assert_int_equal(amd_pyspy_process_frame(not_process), 0);
}

static void collapsed_with_cmdline_semicolons(void **state)
{
	char line[] = "process 1:\"torchrun train.py\";process 42:\"python train.py --a;b;c\";"
		      "thread (0x1F): MainThread;<module> (train.py:10);main (train.py:5);"
		      "step (lib/itwinai/x.py:3) 17\r";
	struct amd_pyspy_stack st = {0};
	int64_t count = 0;
	const char *why = NULL;
	assert_int_equal(amd_pyspy_parse_collapsed(line, &st, &count, &why), 0);
	assert_int_equal(count, 17);
	assert_string_equal(st.process, "42 python train.py --a;b;c");
	assert_string_equal(st.thread, "0x1F MainThread");
	assert_int_equal(st.depth, 3);
	assert_string_equal(st.frames[0].name, "<module>");
	assert_int_equal(st.frames[0].line, 10);
	assert_string_equal(st.frames[2].name, "step");
	assert_string_equal(st.frames[2].file, "lib/itwinai/x.py");
	amd_pyspy_stack_free(&st);
}

static void collapsed_perf_and_old_trailing_semicolon(void **state)
{
	char perf[] = "cksum-?;_start;__libc_start_main;main;cksum 31";
	char old[] = "run (a.py:1);work (a.py:9); 4";
	struct amd_pyspy_stack st = {0};
	int64_t count = 0;
	const char *why = NULL;
	assert_int_equal(amd_pyspy_parse_collapsed(perf, &st, &count, &why), 0);
	assert_int_equal(count, 31);
	assert_int_equal(st.depth, 5);
	assert_null(st.process);
	assert_null(st.thread);
	assert_string_equal(st.frames[4].name, "cksum");
	assert_int_equal(amd_pyspy_parse_collapsed(old, &st, &count, &why), 0);
	assert_int_equal(count, 4);
	assert_int_equal(st.depth, 2);
	assert_string_equal(st.frames[1].name, "work");
	amd_pyspy_stack_free(&st);
}

static void collapsed_errors(void **state)
{
	char no_count[] = "run (a.py:1);work (a.py:9)";
	char bad_count[] = "run (a.py:1) 1.5";
	char empty_frame[] = "run (a.py:1);;work (a.py:9) 3";
	char only_threads[] = "thread (0x1): MainThread 3";
	struct amd_pyspy_stack st = {0};
	int64_t count;
	const char *why = NULL;
	assert_int_equal(amd_pyspy_parse_collapsed(no_count, &st, &count, &why), -1);
	assert_int_equal(amd_pyspy_parse_collapsed(bad_count, &st, &count, &why), -1);
	assert_int_equal(amd_pyspy_parse_collapsed(empty_frame, &st, &count, &why), -1);
	assert_int_equal(amd_pyspy_parse_collapsed(only_threads, &st, &count, &why), -1);
	assert_non_null(why);
	amd_pyspy_stack_free(&st);
}

struct seen {
	int calls;
	int64_t samples;
	double seconds;
	char leaf[64], thread[64];
};

static int count_stack(struct amd_sink *s, const struct amd_stack_rec *r, struct amd_err *err)
{
	struct seen *c = s->ctx;
	c->calls++;
	c->samples += r->samples;
	c->seconds += r->seconds;
	snprintf(c->leaf, sizeof c->leaf, "%s", r->frames[r->depth - 1].name);
	snprintf(c->thread, sizeof c->thread, "%s", r->thread ? r->thread : "");
	return 0;
}

static void accumulator_merges_identical_stacks(void **state)
{
	struct amd_pyspy_acc *a = amd_pyspy_acc_new();
	struct seen c = {0};
	struct amd_sink sink = {.ctx = &c, .stack = count_stack};
	struct amd_err err = {{0}};
	struct amd_stack_frame f[2] = {{.name = "main", .file = "t.py", .line = 1},
				       {.name = "step\x1e\x1f", .file = NULL, .line = 0}};
	struct amd_pyspy_stack st = {.frames = f, .depth = 2, .thread = "0x1 Main\x1d"};
	for (int i = 0; i < 5000; i++) /* past the first compaction */
		assert_int_equal(amd_pyspy_acc_add(a, &st, 3, -1), 0);
	assert_int_equal(amd_pyspy_acc_flush(a, 100, &sink, "t", &err), 0);
	assert_int_equal(c.calls, 1);
	assert_int_equal(c.samples, 15000);
	assert_true(c.seconds > 149.999 && c.seconds < 150.001);
	assert_string_equal(c.leaf, "step??"); /* separator bytes cannot split a key */
	assert_string_equal(c.thread, "0x1 Main?");
	amd_pyspy_acc_free(a);
}

static void accumulator_time_weighted(void **state)
{
	struct amd_pyspy_acc *a = amd_pyspy_acc_new();
	struct seen c = {0};
	struct amd_sink sink = {.ctx = &c, .stack = count_stack};
	struct amd_err err = {{0}};
	struct amd_stack_frame f = {.name = "run", .file = "a.py", .line = 2};
	struct amd_pyspy_stack st = {.frames = &f, .depth = 1};
	assert_int_equal(amd_pyspy_acc_add_us(a, &st, 25000), 0);
	assert_int_equal(amd_pyspy_acc_add_us(a, &st, 15000), 0);
	assert_int_equal(amd_pyspy_acc_flush(a, 100, &sink, "t", &err), 0);
	assert_int_equal(c.samples, 4); /* 40 ms at 100 Hz */
	assert_true(c.seconds > 0.03999 && c.seconds < 0.04001);
	amd_pyspy_acc_free(a);
}

/* The stacks the sink got, each as "thread|frame;frame;…=samples". */
struct listing {
	char lines[16][128];
	int n;
};

static int list_stack(struct amd_sink *s, const struct amd_stack_rec *r, struct amd_err *err)
{
	struct listing *l = s->ctx;
	if (l->n == 16)
		return -1;
	char *o = l->lines[l->n++];
	size_t k = (size_t)snprintf(o, 128, "%s|", r->thread ? r->thread : "-");
	for (size_t i = 0; i < r->depth; i++)
		k += (size_t)snprintf(o + k, 128 - k, "%s%s:%d", i ? ";" : "", r->frames[i].name,
				      r->frames[i].line);
	snprintf(o + k, 128 - k, "=%lld", (long long)r->samples);
	return 0;
}

/* Stacks added in no order, sharing prefixes across threads, one of
 * them a prefix of others, lines 9 and 10 (key order compares line
 * numbers as text): the sink gets each distinct stack once, samples
 * added, sorted by the key (thread, then frames name, file, line) — the
 * order written out by hand here. */
static void accumulator_key_order(void **state)
{
	struct amd_pyspy_acc *a = amd_pyspy_acc_new();
	struct listing got = {0};
	struct amd_sink sink = {.ctx = &got, .stack = list_stack};
	struct amd_err err = {{0}};
	struct amd_stack_frame m = {.name = "main", .line = 1}, b9 = {.name = "b", .line = 9},
			       b10 = {.name = "b", .line = 10}, ab = {.name = "ab", .line = 1};
	struct {
		const char *thread;
		struct amd_stack_frame f[2];
		size_t depth;
		int64_t n;
	} in[] = {
		{"t2", {m, b9}, 2, 1}, {"t1", {m, b9}, 2, 2}, {"t1", {m}, 1, 4},
		{"t1", {m, b10}, 2, 8}, {"t1", {m, ab}, 2, 16}, {"t2", {m, b9}, 2, 32},
		{NULL, {b9}, 1, 64},   {"t1", {m, b9}, 2, 128},
	};
	for (size_t i = 0; i < sizeof in / sizeof in[0]; i++) {
		struct amd_pyspy_stack st = {.frames = in[i].f, .depth = in[i].depth,
					     .thread = in[i].thread};
		assert_int_equal(amd_pyspy_acc_add(a, &st, in[i].n, -1), 0);
	}
	assert_int_equal(amd_pyspy_acc_flush(a, 100, &sink, "t", &err), 0);
	static const char *const want[] = {
		"-|b:9=64",	  "t1|main:1=4",	"t1|main:1;ab:1=16",
		"t1|main:1;b:10=8", "t1|main:1;b:9=130", "t2|main:1;b:9=33",
	};
	assert_int_equal(got.n, 6);
	for (int i = 0; i < 6; i++)
		assert_string_equal(got.lines[i], want[i]);
	amd_pyspy_acc_free(a);
}

/* Keys longer than a word that agree in their first eight bytes are in
 * strcmp's order: "forward" before "forward_" before "forward_pass_a"
 * (0x1f, the separator, sorts low), line 10 before line 2 (text), a
 * name past byte 0x7f (UTF-8 "ü") after "zeta" (unsigned bytes). Added
 * in the reverse of that order, so a sort that compared only a key's
 * first word would leave them so (a faster key sort was tried on this,
 * issue 38 round 21). */
static void accumulator_key_order_long_keys(void **state)
{
	struct amd_pyspy_acc *a = amd_pyspy_acc_new();
	struct listing got = {0};
	struct amd_sink sink = {.ctx = &got, .stack = list_stack};
	struct amd_err err = {{0}};
	static const char *const want[] = {
		"t|forward:1=1",	"t|forward_:1=2",	 "t|forward_pass_a:10=3",
		"t|forward_pass_a:2=4", "t|forward_pass_b:1=5", "t|zeta:1=6",
		"t|\xc3\xbc" "ber:1=7",
	};
	enum { N = sizeof want / sizeof want[0] };
	static const struct amd_stack_frame f[N] = {
		{.name = "forward", .line = 1},	       {.name = "forward_", .line = 1},
		{.name = "forward_pass_a", .line = 10}, {.name = "forward_pass_a", .line = 2},
		{.name = "forward_pass_b", .line = 1},  {.name = "zeta", .line = 1},
		{.name = "\xc3\xbc" "ber", .line = 1},
	};
	for (int i = N - 1; i >= 0; i--) {
		struct amd_pyspy_stack st = {.frames = (struct amd_stack_frame *)&f[i], .depth = 1,
					     .thread = "t"};
		assert_int_equal(amd_pyspy_acc_add(a, &st, i + 1, -1), 0);
	}
	assert_int_equal(amd_pyspy_acc_flush(a, 100, &sink, "t", &err), 0);
	assert_int_equal(got.n, N);
	for (int i = 0; i < N; i++)
		assert_string_equal(got.lines[i], want[i]);
	amd_pyspy_acc_free(a);
}

/* What a sink saw of the accumulator's flush: the names handed ahead of
 * the stacks (sink.h, in order) and, worked out here from the stacks as
 * they came, the texts in the order a writer meets them first (a
 * frame's name and file the first time its id comes, a thread's label
 * after its first stack); each frame text's id. */
struct numbered {
	int names_calls, in_order, stacks_before_names;
	char given[32][32], met[32][32];
	int n_given, n_met;
	char by_id[32][48]; /* "name|file|line" of id 1..31 */
	int stacks;
	char thread_done[4][16];
	int n_threads;
};

static int numbered_names(struct amd_sink *s, const char *const *names, size_t n,
			  int in_order, struct amd_err *err)
{
	struct numbered *c = s->ctx;
	c->names_calls++;
	c->in_order = in_order;
	c->stacks_before_names = c->stacks;
	for (size_t i = 0; i < n && c->n_given < 32; i++)
		snprintf(c->given[c->n_given++], 32, "%s", names[i]);
	return 0;
}

static void met(struct numbered *c, const char *s)
{
	if (s && c->n_met < 32)
		snprintf(c->met[c->n_met++], 32, "%s", s);
}

static int numbered_stack(struct amd_sink *s, const struct amd_stack_rec *r, struct amd_err *err)
{
	struct numbered *c = s->ctx;
	c->stacks++;
	for (size_t i = 0; i < r->depth; i++) {
		const struct amd_stack_frame *f = &r->frames[i];
		char text[48];
		snprintf(text, sizeof text, "%s|%s|%d", f->name, f->file ? f->file : "-", f->line);
		assert_true(f->id > 0 && f->id < 32);
		if (c->by_id[f->id][0] == '\0') {
			snprintf(c->by_id[f->id], sizeof c->by_id[f->id], "%s", text);
			met(c, f->name);
			met(c, f->file);
		}
		assert_string_equal(c->by_id[f->id], text); /* one id, one frame */
		for (int j = 1; j < 32; j++) /* one frame, one id */
			assert_true(j == (int)f->id || strcmp(c->by_id[j], text) != 0);
	}
	for (int i = 0; i < c->n_threads; i++)
		if (strcmp(c->thread_done[i], r->thread) == 0)
			return 0;
	snprintf(c->thread_done[c->n_threads++], 16, "%s", r->thread);
	met(c, r->process); /* NULL here: not met */
	met(c, r->thread);
	return 0;
}

/* The flush numbers its frames (records.h: the same id for the same
 * name, file and line, none shared) and hands the sink the texts its
 * stacks will bring, before them, in the order they bring them first. */
static void accumulator_numbers_and_names_frames(void **state)
{
	struct amd_pyspy_acc *a = amd_pyspy_acc_new();
	struct numbered got = {0};
	struct amd_sink sink = {.ctx = &got, .stack = numbered_stack, .names = numbered_names};
	struct amd_err err = {{0}};
	struct amd_stack_frame m = {.name = "main", .file = "t.py", .line = 1},
			       b9 = {.name = "b", .file = "u.py", .line = 9},
			       b10 = {.name = "b", .file = "u.py", .line = 10},
			       c = {.name = "c", .line = 3};
	struct {
		const char *thread;
		struct amd_stack_frame f[3];
		size_t depth;
	} in[] = {
		{"t2", {m, b9}, 2}, {"t1", {m, b10, c}, 3}, {"t1", {c}, 1},
		{"t1", {m, b9}, 2}, {"t2", {c, m}, 2},      {"t1", {m, b9, c}, 3},
	};
	for (size_t i = 0; i < sizeof in / sizeof in[0]; i++) {
		struct amd_pyspy_stack st = {.frames = in[i].f, .depth = in[i].depth,
					     .thread = in[i].thread};
		assert_int_equal(amd_pyspy_acc_add(a, &st, 1, -1), 0);
	}
	assert_int_equal(amd_pyspy_acc_flush(a, 100, &sink, "t", &err), 0);
	assert_int_equal(got.stacks, 6);
	assert_int_equal(got.names_calls, 1);
	assert_int_equal(got.stacks_before_names, 0);
	assert_int_equal(got.in_order, 1);
	assert_int_equal(got.n_given, got.n_met);
	for (int i = 0; i < got.n_met; i++)
		assert_string_equal(got.given[i], got.met[i]);
	amd_pyspy_acc_free(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(frame_with_line),
		cmocka_unit_test(frame_without_line),
		cmocka_unit_test(frame_bare_and_native),
		cmocka_unit_test(frame_empty_is_an_error),
		cmocka_unit_test(thread_frames),
		cmocka_unit_test(process_frames),
		cmocka_unit_test(collapsed_with_cmdline_semicolons),
		cmocka_unit_test(collapsed_perf_and_old_trailing_semicolon),
		cmocka_unit_test(collapsed_errors),
		cmocka_unit_test(accumulator_merges_identical_stacks),
		cmocka_unit_test(accumulator_time_weighted),
		cmocka_unit_test(accumulator_key_order),
		cmocka_unit_test(accumulator_key_order_long_keys),
		cmocka_unit_test(accumulator_numbers_and_names_frames),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
