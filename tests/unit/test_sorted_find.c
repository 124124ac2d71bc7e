/* test_sorted_find.c — the one lower-bound search (lib/core/
 * sorted_find.h) and its two users, amd_points_find_step (a run's
 * metric points by step) and amd_stack_node_find (a py-spy pack's nodes
 * by id): on seeded random sorted arrays with repeated keys, every key
 * present and absent is answered as a linear scan for the first equal
 * key answers it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>

#include "metric_points.h"
#include "sorted_find.h"
#include "stack_pack.h"

static uint64_t rng = 0x9e3779b97f4a7c15u;

static uint64_t next_rand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* The first i with key(i) == key, else n. */
static size_t linear(const int64_t *keys, size_t n, int64_t key)
{
	for (size_t i = 0; i < n; i++)
		if (keys[i] == key)
			return i;
	return n;
}

/* n ascending keys from lo, with repeats when dup. */
static void make_keys(int64_t *keys, size_t n, int64_t lo, int dup)
{
	int64_t k = lo;
	for (size_t i = 0; i < n; i++) {
		keys[i] = k;
		k += dup ? (int64_t)(next_rand() % 3) : 1 + (int64_t)(next_rand() % 3);
	}
}

static void points_by_step(void **state)
{
	(void)state;
	for (size_t n = 0; n < 70; n++) {
		int64_t keys[70];
		struct amd_point p[70];
		make_keys(keys, n, -5, 1);
		for (size_t i = 0; i < n; i++)
			p[i] = (struct amd_point){.step = keys[i], .ts_ms = (int64_t)i, .value = 1};
		for (int64_t k = -7; k < (int64_t)n * 2 + 3; k++)
			assert_int_equal(amd_points_find_step(p, n, k), linear(keys, n, k));
	}
}

static void nodes_by_id(void **state)
{
	(void)state;
	for (size_t n = 0; n < 70; n++) {
		int64_t keys[70];
		struct amd_packed_node v[70];
		make_keys(keys, n, 1, 0);
		for (size_t i = 0; i < n; i++)
			v[i] = (struct amd_packed_node){keys[i], 0, 7};
		for (int64_t k = -1; k < (int64_t)n * 4 + 3; k++) {
			size_t at = linear(keys, n, k);
			assert_int_equal(amd_stack_node_find(v, n, k), at < n ? (int64_t)at : -1);
		}
	}
}

/* The keys' extremes, and a key in the middle of a record. */
static void extremes(void **state)
{
	(void)state;
	struct rec {
		char pad[3];
		int64_t key;
		double other;
	} r[4] = {{"", INT64_MIN, 0}, {"", -1, 0}, {"", -1, 0}, {"", INT64_MAX, 0}};
	size_t off = offsetof(struct rec, key);
	assert_int_equal(amd_sorted_find_i64(r, 4, sizeof r[0], off, INT64_MIN), 0);
	assert_int_equal(amd_sorted_find_i64(r, 4, sizeof r[0], off, -1), 1);
	assert_int_equal(amd_sorted_find_i64(r, 4, sizeof r[0], off, 0), 4);
	assert_int_equal(amd_sorted_find_i64(r, 4, sizeof r[0], off, INT64_MAX), 3);
	assert_int_equal(amd_sorted_find_i64(r, 0, sizeof r[0], off, -1), 0);
	assert_int_equal(amd_sorted_find_i64(NULL, 0, sizeof r[0], off, 5), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(points_by_step),
		cmocka_unit_test(nodes_by_id),
		cmocka_unit_test(extremes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
