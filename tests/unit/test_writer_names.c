/* test_writer_names.c — a unit's names given ahead of its facts
 * (sink->names, lib/store/writer/writer_names.c) are known to the
 * connection's intern cache too: regions naming them (itwinai's CSV,
 * key_averages tables: one region per op row) cost no look-up in dict's
 * index, counted by sqlite3_trace_v2 on the store's connection (issue 38:
 * that look-up per row made itwinai's ingest grow faster than its input).
 * Each region's name id is still the dict id of its name, checked by
 * sqlite3 after the commit; a name already in dict from an earlier unit
 * keeps its id. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "region.h"
#include "sqlite_int.h"
#include "store.h"
#include "writer.h"

#define NAMES 300

static int dict_reads;

static int count_dict_reads(unsigned type, void *ctx, void *p, void *x)
{
	(void)ctx;
	(void)x;
	const char *sql = sqlite3_sql((sqlite3_stmt *)p);
	if (type == SQLITE_TRACE_STMT && sql && strstr(sql, "FROM dict WHERE s"))
		dict_reads++;
	return 0;
}

/* A unit's sink on st for src, its run r1 reported. */
static struct amd_store_sink *unit_start(struct amd_store *st, const char *src,
					 struct amd_sink **s)
{
	static struct amd_config cfg;
	struct amd_err err = {{0}};
	struct amd_store_sink *ss = amd_store_sink_new(st, src, "test", src, 1, NULL, &cfg);
	*s = amd_store_sink_iface(ss);
	struct amd_run_rec r = {.ext_id = "r1", .name = "r1", .sweep = "w"};
	assert_int_equal((*s)->run(*s, &r, &err), 0);
	return ss;
}

/* One unit: its NAMES op names given ahead, then one region each (the
 * names in reverse, as file order need not be byte order); the dict
 * look-ups the regions made into *reads. */
static void unit(struct amd_store *st, const char *src, char names[][32], int *reads)
{
	struct amd_err err = {{0}};
	struct amd_sink *s;
	struct amd_store_sink *ss = unit_start(st, src, &s);
	const char *ptr[NAMES];
	for (int i = 0; i < NAMES; i++)
		ptr[i] = names[i];
	assert_int_equal(s->names(s, ptr, NAMES, 0, &err), 0);
	dict_reads = 0;
	sqlite3_trace_v2(st->db, SQLITE_TRACE_STMT, count_dict_reads, NULL);
	for (int i = NAMES - 1; i >= 0; i--) {
		struct amd_region_rec rec = {
			.name = names[i], .kind = AMD_REGION_OP_DEVICE, .profiler = "torch-averages",
			.rank = 0, .device = -1, .calls = i, .prim_calls = i, .self_ns = i,
			.total_ns = 2 * i, .bytes = -1,
		};
		assert_int_equal(s->region(s, &rec, &err), 0);
	}
	*reads = dict_reads;
	sqlite3_trace_v2(st->db, 0, NULL, NULL);
	enum amd_source_state got;
	assert_int_equal(amd_store_sink_finish(ss, &got, &err), 0);
}

/* Regions whose name_id is not the dict id of the name "op#<calls>". */
static int wrong_names(const char *path)
{
	sqlite3 *db;
	sqlite3_stmt *q;
	assert_int_equal(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	/* region is a virtual table over region_pack (lib/store/packed) */
	assert_int_equal(amd_store_sql_register(db), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db,
		"SELECT count(*) FROM region r LEFT JOIN dict d ON d.id = r.name_id"
		" WHERE d.s IS NOT 'op#' || r.calls", -1, &q, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(q), SQLITE_ROW);
	int n = sqlite3_column_int(q, 0);
	sqlite3_finalize(q);
	sqlite3_close(db);
	return n;
}

static void regions_find_given_names_in_memory(void **state)
{
	(void)state;
	char dir[] = "/tmp/amd-writer-names-XXXXXX", path[64], cmd[128];
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/s.db", dir);
	static char names[NAMES][32];
	for (int i = 0; i < NAMES; i++)
		snprintf(names[i], sizeof names[i], "op#%d", i);
	struct amd_err err = {{0}};
	struct amd_store *st;
	assert_int_equal(amd_store_open(path, AMD_STORE_WRITE, &st, &err), 0);
	int reads = -1;
	/* at most the region's kind and profiler, once each (before: one a
	 * region, NAMES + 2) */
	unit(st, "a.csv", names, &reads);
	assert_in_range(reads, 0, 2);
	/* the same names again in another unit: in dict already */
	unit(st, "b.csv", names, &reads);
	assert_in_range(reads, 0, 2);
	amd_store_close(st);
	assert_int_equal(wrong_names(path), 0);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

/* One unit of regions named names[0..n) in that order, given ahead by
 * the names callback in that order when in_order is 1, not given when
 * it is -1. */
static void unit_of(struct amd_store *st, const char *src, const char *const *names, size_t n,
		    int in_order)
{
	struct amd_err err = {{0}};
	struct amd_sink *s;
	struct amd_store_sink *ss = unit_start(st, src, &s);
	if (in_order >= 0)
		assert_int_equal(s->names(s, names, n, in_order, &err), 0);
	for (size_t i = 0; i < n; i++) {
		struct amd_region_rec rec = {
			.name = names[i], .kind = AMD_REGION_FUNCTION, .profiler = "py-spy",
			.rank = -1, .device = -1, .calls = -1, .prim_calls = -1, .self_ns = 1,
			.total_ns = 1, .bytes = -1,
		};
		assert_int_equal(s->region(s, &rec, &err), 0);
	}
	enum amd_source_state got;
	assert_int_equal(amd_store_sink_finish(ss, &got, &err), 0);
}

/* The store's dict, "id s" a line, into out. */
static void dict_of(const char *path, char *out, size_t size)
{
	sqlite3 *db;
	sqlite3_stmt *q;
	assert_int_equal(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db, "SELECT id, s FROM dict ORDER BY id", -1, &q, NULL),
			 SQLITE_OK);
	size_t len = 0;
	out[0] = '\0';
	while (sqlite3_step(q) == SQLITE_ROW && len < size)
		len += (size_t)snprintf(out + len, size - len, "%lld %s\n",
					(long long)sqlite3_column_int64(q, 0),
					(const char *)sqlite3_column_text(q, 1));
	sqlite3_finalize(q);
	sqlite3_close(db);
}

/* Names given in the order the facts meet them (py-spy's frames, sink.h
 * in_order) take the ids the facts alone give them: two stores, the same
 * units, one of them with the names given ahead (many to an INSERT: 150
 * new names, some repeated, one the store held from an earlier unit whose
 * region also put the kind and profiler in dict), hold the same dict.
 * Given in byte order (in_order 0, all there was before) they do not. */
static void names_in_order_keep_their_ids(void **state)
{
	(void)state;
	char dir[] = "/tmp/amd-writer-names-XXXXXX", path[2][64], cmd[128];
	assert_non_null(mkdtemp(dir));
	static char text[160][16];
	const char *v[160], *early[] = {"f#77"};
	for (int i = 0; i < 160; i++) {
		snprintf(text[i], sizeof text[i], "f#%d", (i * 37) % 150); /* not byte order */
		v[i] = text[i];
	}
	static char dict[2][16384];
	for (int k = 0; k < 2; k++) {
		snprintf(path[k], sizeof path[k], "%s/s%d.db", dir, k);
		struct amd_err err = {{0}};
		struct amd_store *st;
		assert_int_equal(amd_store_open(path[k], AMD_STORE_WRITE, &st, &err), 0);
		unit_of(st, "early.txt", early, 1, -1);
		unit_of(st, "a.txt", v, 160, k ? 1 : -1);
		amd_store_close(st);
		dict_of(path[k], dict[k], sizeof dict[k]);
	}
	assert_true(strlen(dict[0]) > 150 * 5);
	assert_string_equal(dict[1], dict[0]);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(regions_find_given_names_in_memory),
		cmocka_unit_test(names_in_order_keep_their_ids),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
