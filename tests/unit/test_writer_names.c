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

/* One unit: its NAMES op names given ahead, then one region each (the
 * names in reverse, as file order need not be byte order); the dict
 * look-ups the regions made into *reads. */
static void unit(struct amd_store *st, const char *src, char names[][32], int *reads)
{
	struct amd_err err = {{0}};
	struct amd_config cfg = {0};
	struct amd_store_sink *ss = amd_store_sink_new(st, src, "test", src, 1, NULL, &cfg);
	struct amd_sink *s = amd_store_sink_iface(ss);
	struct amd_run_rec r = {.ext_id = "r1", .name = "r1", .sweep = "w"};
	assert_int_equal(s->run(s, &r, &err), 0);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(regions_find_given_names_in_memory),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
