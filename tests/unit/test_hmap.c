/* test_hmap.c — the open-addressing hash index (lib/core/hmap.h): every
 * element put is found again through growth, absent keys are not, and
 * elements whose hashes collide are told apart by the caller's test. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "hmap.h"

#define N 100000

static uint64_t keys[N];

static int key_eq(const void *ctx, uint32_t idx)
{
	return keys[idx] == *(const uint64_t *)ctx;
}

static void finds_what_was_put(void **state)
{
	struct amd_hmap m = {0};
	for (uint32_t i = 0; i < N; i++) {
		keys[i] = (uint64_t)i * 7919 + 3;
		uint32_t h = amd_hash_u64(keys[i]);
		assert_int_equal(amd_hmap_find(&m, h, key_eq, &keys[i]), -1);
		assert_int_equal(amd_hmap_put(&m, h, i), 0);
	}
	assert_int_equal(m.n, N);
	assert_true(m.cap >= 2 * N);
	for (uint32_t i = 0; i < N; i++)
		assert_int_equal(amd_hmap_find(&m, amd_hash_u64(keys[i]), key_eq, &keys[i]), i);
	uint64_t absent = 5; /* 5 - 3 is not a multiple of 7919 */
	assert_int_equal(amd_hmap_find(&m, amd_hash_u64(absent), key_eq, &absent), -1);
	amd_hmap_free(&m);
	assert_null(m.s);
}

static void colliding_hashes(void **state)
{
	struct amd_hmap m = {0};
	for (uint32_t i = 0; i < 1000; i++) {
		keys[i] = 1000 + i;
		assert_int_equal(amd_hmap_put(&m, 42, i), 0); /* one hash for all */
	}
	for (uint32_t i = 0; i < 1000; i++)
		assert_int_equal(amd_hmap_find(&m, 42, key_eq, &keys[i]), i);
	uint64_t absent = 7;
	assert_int_equal(amd_hmap_find(&m, 42, key_eq, &absent), -1);
	amd_hmap_free(&m);
}

static void bytes_hash(void **state)
{
	/* FNV-1a test vectors: "" and "a" */
	assert_true(amd_hash_bytes(AMD_HASH_SEED, "", 0) == 0xcbf29ce484222325ULL);
	assert_true(amd_hash_bytes(AMD_HASH_SEED, "a", 1) == 0xaf63dc4c8601ec8cULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(finds_what_was_put),
		cmocka_unit_test(colliding_hashes),
		cmocka_unit_test(bytes_hash),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
