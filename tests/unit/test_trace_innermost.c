/* test_trace_innermost.c — a thread's innermost-op steps kept in bounded
 * memory (issue 40 item 9): the charges made with steps spilled to the
 * temporary file through a one-block cache are the very charges made with
 * every step in memory, in Kineto's order (every op before the first
 * call) and interleaved; the blocks held in memory never pass the cap;
 * the file is unlinked; a file that cannot be created or written fails
 * with one line naming the directory and the cause. */
#include <dirent.h>
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#include <cmocka.h>

#include "trace_innermost.h"

#define N_OPS 64

/* Every charge, in order: a log both ways must be equal. */
struct log {
	int64_t self[N_OPS];
	uint64_t hash; /* of the (op, ns) sequence */
	size_t n;
};

static void on_charge(void *ctx, uint32_t op, int64_t ns)
{
	struct log *l = ctx;
	assert_true(op < N_OPS);
	l->self[op] -= ns;
	l->hash = (l->hash ^ ((uint64_t)op * 0x9e3779b97f4a7c15u ^ (uint64_t)ns)) * 0x100000001b3u;
	l->n++;
}

static uint64_t rng = 88172645463325252u;
static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* A call's [start, end) in start order. */
struct call {
	int64_t start, end;
};

/* One thread's ops as nested intervals: the steps they make (an op
 * starts: it is innermost; it ends: its parent is) into every m[], and a
 * call inside every few ops into calls (start order). Returns the calls. */
static size_t make_steps(struct amd_innermost **ms, size_t n_m, size_t n_ops, struct call *calls)
{
	static int64_t t = 1000, last_start; /* on from one call to the next */
	uint32_t stack[16];
	size_t depth = 0, n_calls = 0;
	for (size_t i = 0; i < n_ops; i++) {
		if (depth && (depth == 16 || next() % 3 == 0)) { /* close the top */
			depth--;
			t += (int64_t)(next() % 5); /* 0: the same moment as the last step */
			for (size_t k = 0; k < n_m; k++)
				assert_int_equal(amd_innermost_set(ms[k], t, depth ? stack[depth - 1] : 0), 0);
			continue;
		}
		uint32_t op = (uint32_t)(next() % N_OPS) + 1;
		stack[depth++] = op;
		t += (int64_t)(next() % 7);
		for (size_t k = 0; k < n_m; k++)
			assert_int_equal(amd_innermost_set(ms[k], t, op), 0);
		if (next() % 2 == 0) {
			int64_t s = t + (int64_t)(next() % 4);
			s = last_start = s > last_start ? s : last_start;
			calls[n_calls++] = (struct call){s, s + 1 + (int64_t)(next() % 40)};
		}
	}
	return n_calls;
}

static void charge_all(struct amd_innermost *m, const struct call *c, size_t n, struct log *l)
{
	for (size_t i = 0; i < n; i++)
		assert_int_equal(amd_innermost_charge(m, c[i].start, c[i].end, on_charge, l), 0);
}

/* a tiny cache (blocks of 3 steps, one in memory, one cached) against
 * every step in memory */
static void kineto_order_same_charges(void **state)
{
	(void)state;
	enum { OPS = 60000 };
	struct call *calls = malloc(OPS * sizeof *calls);
	struct amd_innermost tiny = {.block_steps = 3, .mem_blocks = 1, .cache_blocks = 1};
	struct amd_innermost whole = {.block_steps = 3, .mem_blocks = (size_t)-1};
	struct amd_innermost *ms[] = {&tiny, &whole};
	size_t n = make_steps(ms, 2, OPS, calls);
	assert_true(n > 1000);
	assert_int_equal(tiny.n, whole.n);
	assert_true(amd_innermost_blocks_spilled(&tiny) > tiny.n / 3 - 2); /* all but the newest */
	assert_int_equal(amd_innermost_blocks_spilled(&whole), 0);
	assert_true(amd_innermost_blocks_held(&tiny) <= 1 + 1 + 1);
	struct log a = {0}, b = {0};
	charge_all(&tiny, calls, n, &a);
	charge_all(&whole, calls, n, &b);
	assert_true(a.n > 1000);
	assert_int_equal(a.n, b.n);
	assert_int_equal(a.hash, b.hash);
	assert_memory_equal(a.self, b.self, sizeof a.self);
	assert_true(amd_innermost_blocks_held(&tiny) <= 1 + 1 + 1);
	amd_innermost_free(&tiny);
	amd_innermost_free(&whole);
	free(calls);
}

/* calls charged a few ops after they were made: the file is emptied and
 * written again; still the same charges */
static void interleaved_same_charges(void **state)
{
	(void)state;
	enum { OPS = 400 };
	struct call calls[OPS];
	struct amd_innermost tiny = {.block_steps = 2, .mem_blocks = 1, .cache_blocks = 1};
	struct amd_innermost whole = {.block_steps = 2, .mem_blocks = (size_t)-1};
	struct amd_innermost *ms[] = {&tiny, &whole};
	struct log a = {0}, b = {0};
	for (int round = 0; round < 200; round++) {
		size_t n = make_steps(ms, 2, OPS, calls);
		charge_all(&tiny, calls, n, &a);
		charge_all(&whole, calls, n, &b);
		assert_true(amd_innermost_blocks_held(&tiny) <= 3);
	}
	assert_int_equal(a.n, b.n);
	assert_int_equal(a.hash, b.hash);
	assert_memory_equal(a.self, b.self, sizeof a.self);
	amd_innermost_free(&tiny);
	amd_innermost_free(&whole);
}

/* the default limits: a million steps never charged hold 16 blocks in
 * memory, the rest in the file; then charged, the same as in memory */
static void default_cap(void **state)
{
	(void)state;
	struct amd_innermost m = {0}, whole = {.mem_blocks = (size_t)-1};
	for (int64_t k = 0; k < 1000000; k++) {
		assert_int_equal(amd_innermost_set(&m, 10 * k, (uint32_t)(k % N_OPS) + 1), 0);
		assert_int_equal(amd_innermost_set(&whole, 10 * k, (uint32_t)(k % N_OPS) + 1), 0);
		assert_true(amd_innermost_blocks_held(&m) <= AMD_INNERMOST_MEM_BLOCKS + 1);
	}
	assert_int_equal(amd_innermost_blocks_spilled(&m),
			 1000000 / AMD_INNERMOST_BLOCK + 1 - AMD_INNERMOST_MEM_BLOCKS);
	struct log a = {0}, b = {0};
	for (int64_t s = 5; s < 10000000; s += 97) {
		assert_int_equal(amd_innermost_charge(&m, s, s + 23, on_charge, &a), 0);
		assert_int_equal(amd_innermost_charge(&whole, s, s + 23, on_charge, &b), 0);
		assert_true(amd_innermost_blocks_held(&m) <=
			    AMD_INNERMOST_MEM_BLOCKS + AMD_INNERMOST_CACHE_BLOCKS + 1);
	}
	assert_int_equal(a.hash, b.hash);
	assert_memory_equal(a.self, b.self, sizeof a.self);
	amd_innermost_free(&m);
	amd_innermost_free(&whole);
}

/* Steps into m until it fails or `steps` were set; the last result. */
static int fill(struct amd_innermost *m, int steps)
{
	for (int k = 0; k < steps; k++)
		if (amd_innermost_set(m, k, (uint32_t)(k % 2) + 1) < 0)
			return -1;
	return 0;
}

static char dir[] = "/tmp/amdahl-innermost-XXXXXX";

static int entries(const char *d)
{
	DIR *h = opendir(d);
	int n = 0;
	for (struct dirent *e; h && (e = readdir(h));)
		n += e->d_name[0] != '.';
	if (h)
		closedir(h);
	return n;
}

/* the file lives in TMPDIR with no name; a TMPDIR that is not there
 * fails with one line */
static void file_unlinked_and_errors(void **state)
{
	(void)state;
	const char *old = getenv("TMPDIR");
	char *saved = old ? strdup(old) : NULL;
	assert_non_null(mkdtemp(dir));
	setenv("TMPDIR", dir, 1);
	struct amd_innermost m = {.block_steps = 4, .mem_blocks = 1};
	assert_int_equal(fill(&m, 100), 0);
	assert_true(m.has_file);
	assert_int_equal(entries(dir), 0);
	amd_innermost_free(&m);
	rmdir(dir);

	setenv("TMPDIR", "/nonexistent/amdahl-test", 1);
	struct amd_innermost bad = {.block_steps = 4, .mem_blocks = 1};
	assert_int_equal(fill(&bad, 100), -1);
	assert_int_equal(bad.sys_errno, ENOENT);
	assert_non_null(strstr(bad.why, "cannot create the temporary file in /nonexistent/amdahl-test"));
	assert_null(strchr(bad.why, '\n'));
	amd_innermost_free(&bad);

	/* a full disk, as a file size limit: the second 48 KB block fails */
	if (saved)
		setenv("TMPDIR", saved, 1);
	else
		unsetenv("TMPDIR");
	struct rlimit was, lim;
	assert_int_equal(getrlimit(RLIMIT_FSIZE, &was), 0);
	lim = was;
	lim.rlim_cur = 64 * 1024;
	signal(SIGXFSZ, SIG_IGN);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
	struct amd_innermost full = {.mem_blocks = 1};
	int rc = fill(&full, 4 * AMD_INNERMOST_BLOCK);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &was), 0);
	signal(SIGXFSZ, SIG_DFL);
	assert_int_equal(rc, -1);
	assert_int_equal(full.sys_errno, EFBIG);
	assert_non_null(strstr(full.why, "cannot write the temporary file in "));
	amd_innermost_free(&full);
	free(saved);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(kineto_order_same_charges),
		cmocka_unit_test(interleaved_same_charges),
		cmocka_unit_test(default_cap),
		cmocka_unit_test(file_unlinked_and_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
