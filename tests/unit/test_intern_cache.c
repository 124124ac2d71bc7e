/* test_intern_cache.c — amd_store_intern with its in-memory cache
 * (lib/store/db/intern_cache.c): a name seen again in a transaction keeps
 * its id; after a rollback the ids that transaction made are gone from
 * dict, so the cache must not hand them out again (SQLite gives the next
 * new name the same rowid); after a commit the names are still found.
 * Names asked for again in the order they were added are found at the
 * place after the last one, without the hash table, and exactly. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "intern_cache.h"
#include "store.h"

static char dir[] = "/tmp/amdahl-test-intern-XXXXXX";
static char path[64];

static void assert_text(struct amd_store *st, int64_t id, const char *want)
{
	struct amd_err err = {{0}};
	char *s = NULL;
	assert_int_equal(amd_store_text(st, id, &s, &err), 0);
	assert_non_null(s);
	assert_string_equal(s, want);
	free(s);
}

static void ids_survive_commit_not_rollback(void **state)
{
	(void)state;
	struct amd_store *st;
	struct amd_err err = {{0}};
	assert_int_equal(amd_store_open(path, AMD_STORE_WRITE, &st, &err), 0);

	assert_int_equal(amd_store_begin(st, &err), 0);
	int64_t kept = amd_store_intern(st, "kept", &err);
	assert_true(kept > 0);
	assert_int_equal(amd_store_intern(st, "kept", &err), kept);
	assert_int_equal(amd_store_commit(st, &err), 0);

	assert_int_equal(amd_store_begin(st, &err), 0);
	int64_t lost = amd_store_intern(st, "rolled back", &err);
	assert_true(lost > kept);
	assert_int_equal(amd_store_intern(st, "rolled back", &err), lost);
	amd_store_rollback(st);

	assert_int_equal(amd_store_begin(st, &err), 0);
	int64_t other = amd_store_intern(st, "another", &err); /* takes the freed rowid */
	assert_int_equal(other, lost);
	int64_t again = amd_store_intern(st, "rolled back", &err);
	assert_true(again > 0);
	assert_true(again != other);
	assert_int_equal(amd_store_intern(st, "kept", &err), kept);
	assert_int_equal(amd_store_commit(st, &err), 0);

	assert_text(st, kept, "kept");
	assert_text(st, other, "another");
	assert_text(st, again, "rolled back");
	amd_store_close(st);
}

/* Many names, each asked for twice in one transaction: the same id both
 * times, and dict holds exactly that name under it. */
static void many_names(void **state)
{
	(void)state;
	struct amd_store *st;
	struct amd_err err = {{0}};
	assert_int_equal(amd_store_open(path, AMD_STORE_WRITE, &st, &err), 0);
	assert_int_equal(amd_store_begin(st, &err), 0);
	enum { N = 5000 };
	static int64_t id[N];
	char name[32];
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < N; i++) {
			snprintf(name, sizeof name, "op#%d", i);
			int64_t got = amd_store_intern(st, name, &err);
			assert_true(got > 0);
			if (pass)
				assert_int_equal(got, id[i]);
			id[i] = got;
		}
	assert_int_equal(amd_store_commit(st, &err), 0);
	for (int i = 0; i < N; i += 499) {
		snprintf(name, sizeof name, "op#%d", i);
		assert_text(st, id[i], name);
	}
	amd_store_close(st);
}

/* After a run of new names (amd_store_intern then adds a name before it
 * looks it up), a name an earlier transaction added keeps its id, and a
 * new one is added once: dict's ids are those a look-up first gives. */
static void known_after_new(void **state)
{
	(void)state;
	struct amd_store *st;
	struct amd_err err = {{0}};
	enum { N = 10 };
	int64_t old[N], fresh[N];
	char name[32];
	assert_int_equal(amd_store_open(path, AMD_STORE_WRITE, &st, &err), 0);
	assert_int_equal(amd_store_begin(st, &err), 0);
	for (int i = 0; i < N; i++) {
		snprintf(name, sizeof name, "old#%d", i);
		assert_true((old[i] = amd_store_intern(st, name, &err)) > 0);
	}
	assert_int_equal(amd_store_commit(st, &err), 0);
	assert_int_equal(amd_store_begin(st, &err), 0);
	int64_t top = old[N - 1]; /* dict's last id */
	for (int i = 0; i < N; i++) {
		snprintf(name, sizeof name, "new#%d", i);
		assert_int_equal(fresh[i] = amd_store_intern(st, name, &err), top + 1 + i);
	}
	for (int i = 0; i < N; i++) { /* a fresh buffer each: not the cache's */
		char again[32];
		snprintf(again, sizeof again, "old#%d", i);
		assert_int_equal(amd_store_intern(st, again, &err), old[i]);
		snprintf(again, sizeof again, "new#%d", i);
		assert_int_equal(amd_store_intern(st, again, &err), fresh[i]);
	}
	assert_int_equal(amd_store_commit(st, &err), 0);
	for (int i = 0; i < N; i++) {
		snprintf(name, sizeof name, "old#%d", i);
		assert_text(st, old[i], name);
		snprintf(name, sizeof name, "new#%d", i);
		assert_text(st, fresh[i], name);
	}
	amd_store_close(st);
}

/* The slot of s, asked for from a buffer of its own (not a pointer the
 * cache remembers). */
static int64_t *slot_of(struct amd_intern_cache *c, const char *s)
{
	char buf[32];
	snprintf(buf, sizeof buf, "%s", s);
	int64_t *slot = amd_intern_cache_slot(c, buf);
	assert_non_null(slot);
	return slot;
}

/* Names asked for again in the order they were added (a py-spy unit's
 * frames after writer_names added their names) are found at the place
 * after the last one found: with the hash table's slots wiped, each is
 * still found, its slot the one it was given. */
static void found_again_in_order(void **state)
{
	(void)state;
	struct amd_intern_cache c = {0};
	enum { N = 3000 };
	char name[32];
	for (int i = 0; i < N; i++) {
		snprintf(name, sizeof name, "frame#%d", i);
		int64_t *slot = slot_of(&c, name);
		assert_int_equal(*slot, 0);
		*slot = 1000 + i;
	}
	memset(c.names.slots, 0, c.names.nslots * sizeof *c.names.slots);
	for (int i = 0; i < N; i++) {
		snprintf(name, sizeof name, "frame#%d", i);
		assert_int_equal(*slot_of(&c, name), 1000 + i);
	}
	assert_int_equal(c.names.n, N + 1); /* none added again */
	amd_intern_cache_clear(&c);
}

/* A name found again through the hash table further on than the place
 * moves the place past it: the names after it are then found there. */
static void moves_past_a_name_found_further_on(void **state)
{
	(void)state;
	struct amd_intern_cache c = {0};
	static const char *const added[] = {"a", "b", "c", "d", "e"};
	for (int i = 0; i < 5; i++)
		*slot_of(&c, added[i]) = 1 + i;
	assert_int_equal(*slot_of(&c, "c"), 3);
	memset(c.names.slots, 0, c.names.nslots * sizeof *c.names.slots);
	assert_int_equal(*slot_of(&c, "d"), 4);
	assert_int_equal(*slot_of(&c, "e"), 5);
	assert_int_equal(c.names.n, 6);
	amd_intern_cache_clear(&c);
}

/* Out of that order the names are still exact: a name that is the
 * start of the one expected next, an older name again, a new one in
 * between, a name found further on (the place moves past it). */
static void found_out_of_order(void **state)
{
	(void)state;
	struct amd_intern_cache c = {0};
	static const char *const added[] = {"ab", "abc", "a", "abcd", "b", "ba", "c"};
	enum { N = sizeof added / sizeof added[0] };
	for (int i = 0; i < N; i++)
		*slot_of(&c, added[i]) = 10 + i;
	static const struct {
		const char *s;
		int64_t want; /* 0: new */
	} asks[] = {
		{"ab", 10}, {"ab", 10},	 {"abc", 11}, {"abcd", 13}, {"a", 12}, {"abc", 11},
		{"zz", 0},  {"abcd", 13}, {"b", 14},  {"ab", 10},   {"ba", 15}, {"c", 16},
		{"b", 14},  {"c", 16},	 {"bac", 0},  {"ba", 15},
	};
	for (size_t i = 0; i < sizeof asks / sizeof asks[0]; i++) {
		int64_t *slot = slot_of(&c, asks[i].s);
		assert_int_equal(*slot, asks[i].want);
		if (asks[i].want == 0)
			*slot = 100 + (int64_t)i;
	}
	assert_int_equal(*slot_of(&c, "zz"), 106);
	assert_int_equal(*slot_of(&c, "bac"), 114);
	amd_intern_cache_clear(&c);
}

static int setup(void **state)
{
	(void)state;
	if (!mkdtemp(dir))
		return -1;
	snprintf(path, sizeof path, "%s/s.db", dir);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ids_survive_commit_not_rollback),
		cmocka_unit_test(many_names),
		cmocka_unit_test(known_after_new),
		cmocka_unit_test(found_again_in_order),
		cmocka_unit_test(moves_past_a_name_found_further_on),
		cmocka_unit_test(found_out_of_order),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
