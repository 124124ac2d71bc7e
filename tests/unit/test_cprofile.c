/* test_cprofile.c — the cProfile reader's caller look-up
 * (lib/ingest/profile/cprofile.c): a caller key naming its file and
 * function by the same marshal objects as its own entry is found by
 * those objects and its line (two functions of one file sharing a name
 * object, lines 1 and 5, stay apart), and one whose strings are copies
 * (no reference) by its text. The dump is what CPython 3's
 * marshal.dumps writes for
 *   fm, f = "m.py", "f"; cm = "".join(["m", ".py"])
 *   {(fm, 1, f): (1, 1, 0.5, 1.0, {(fm, 5, f): (1, 1, 0.5, 1.0)}),
 *    (fm, 5, f): (2, 3, 0.25, 1.5, {(cm, 9, "g"): (3, 2, 0.25, 1.5)}),
 *    (fm, 9, "g"): (1, 1, 0.125, 2.0, {})}
 * (checked there: the first caller's strings are its entry's objects, the
 * second's file is not); the expected keys and numbers are pstats' own
 * reading of it (keys numbered in dict order from 1). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ingest.h"

extern const struct amd_format amd_fmt_cprofile;

static const char dump[] =
	"\xfb\xa9\x03\xfa\x04\x6d\x2e\x70\x79\xe9\x01\x00\x00\x00\xda\x01\x66\x29\x05\x72\x03"
	"\x00\x00\x00\x72\x03\x00\x00\x00\xe7\x00\x00\x00\x00\x00\x00\xe0\x3f\xe7\x00\x00\x00"
	"\x00\x00\x00\xf0\x3f\x7b\x29\x03\x72\x02\x00\x00\x00\xe9\x05\x00\x00\x00\x72\x04\x00"
	"\x00\x00\xa9\x04\x72\x03\x00\x00\x00\x72\x03\x00\x00\x00\x72\x05\x00\x00\x00\x72\x06"
	"\x00\x00\x00\x30\xa9\x03\x72\x02\x00\x00\x00\x72\x07\x00\x00\x00\x72\x04\x00\x00\x00"
	"\x29\x05\xe9\x02\x00\x00\x00\xe9\x03\x00\x00\x00\xe7\x00\x00\x00\x00\x00\x00\xd0\x3f"
	"\xe7\x00\x00\x00\x00\x00\x00\xf8\x3f\x7b\x29\x03\xfa\x04\x6d\x2e\x70\x79\xe9\x09\x00"
	"\x00\x00\xda\x01\x67\xa9\x04\x72\x0b\x00\x00\x00\x72\x0a\x00\x00\x00\x72\x0c\x00\x00"
	"\x00\x72\x0d\x00\x00\x00\x30\xa9\x03\x72\x02\x00\x00\x00\x72\x0f\x00\x00\x00\x72\x10"
	"\x00\x00\x00\x29\x05\x72\x03\x00\x00\x00\x72\x03\x00\x00\x00\xe7\x00\x00\x00\x00\x00"
	"\x00\xc0\x3f\xe7\x00\x00\x00\x00\x00\x00\x00\x40\x7b\x30\x30";

struct seen {
	struct amd_region_call call[4];
	int n_calls, n_regions;
	int64_t line[4];
};

static int on_region(struct amd_sink *s, const struct amd_region_rec *r, struct amd_err *err)
{
	(void)err;
	struct seen *v = s->ctx;
	if (v->n_regions < 4)
		v->line[v->n_regions] = r->line;
	v->n_regions++;
	return 0;
}

static int on_call(struct amd_sink *s, const struct amd_region_call *c, struct amd_err *err)
{
	(void)err;
	struct seen *v = s->ctx;
	if (v->n_calls < 4)
		v->call[v->n_calls] = *c;
	v->n_calls++;
	return 0;
}

static void callers_by_object_and_by_text(void **state)
{
	(void)state;
	char path[] = "/tmp/amdahl-test-cprofile-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, dump, sizeof dump - 1), (ssize_t)(sizeof dump - 1));
	close(fd);
	struct seen v = {0};
	struct amd_sink sink = {.ctx = &v, .region = on_region, .region_call = on_call};
	struct amd_input in = {.path = path, .rank_hint = -1};
	struct amd_err err = {{0}};
	int rc = amd_fmt_cprofile.parse(&in, &sink, &err);
	unlink(path);
	assert_int_equal(rc, 0);
	assert_int_equal(v.n_regions, 3);
	assert_int_equal(v.line[0], 1);
	assert_int_equal(v.line[1], 5);
	assert_int_equal(v.line[2], 9);
	assert_int_equal(v.n_calls, 2);
	/* (m.py, 5, f) calls (m.py, 1, f): found by its objects, not line 1's */
	assert_int_equal(v.call[0].callee_key, 1);
	assert_int_equal(v.call[0].caller_key, 2);
	assert_int_equal(v.call[0].calls, 1);
	assert_int_equal(v.call[0].prim_calls, 1);
	assert_int_equal(v.call[0].self_ns, 500000000);
	assert_int_equal(v.call[0].total_ns, 1000000000);
	/* (m.py copied, 9, g) calls (m.py, 5, f): found by its text */
	assert_int_equal(v.call[1].callee_key, 2);
	assert_int_equal(v.call[1].caller_key, 3);
	assert_int_equal(v.call[1].calls, 3);
	assert_int_equal(v.call[1].prim_calls, 2);
	assert_int_equal(v.call[1].self_ns, 250000000);
	assert_int_equal(v.call[1].total_ns, 1500000000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(callers_by_object_and_by_text),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
