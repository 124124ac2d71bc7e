/* test_metric_pack.c — the packed metric series (lib/store/packed/
 * metric_pack.h): the blob's byte layout against values written out by
 * hand, the pack/unpack round trip (NaN, infinities, extreme integers),
 * an empty series, a truncated blob refused, and a long series through
 * the store's writer: cut into AMD_METRIC_CHUNK-point chunk rows and
 * read back whole by amd_run_metric, repeated steps kept. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "config.h"
#include "metric_pack.h"
#include "runs.h"
#include "store.h"
#include "user_sql.h"
#include "writer.h"

static void layout_by_hand(void **state)
{
	(void)state;
	int64_t step[] = {1, -2}, ts[] = {0x0102030405060708, 0};
	double val[] = {1.0, -0.5};
	struct amd_metric_cols c = {step, ts, val, 2};
	unsigned char b[48];
	amd_metric_pack(&c, b);
	/* steps, then times, then values, each little-endian int64 / IEEE double */
	static const unsigned char want[48] = {
		1, 0, 0, 0, 0, 0, 0, 0, 0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		8, 7, 6, 5, 4, 3, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0,
		0, 0, 0, 0, 0, 0, 0xf0, 0x3f, 0, 0, 0, 0, 0, 0, 0xe0, 0xbf};
	assert_memory_equal(b, want, sizeof want);
}

static void round_trip(void **state)
{
	(void)state;
	int64_t step[] = {0, INT64_MAX, INT64_MIN, 7, 7};
	int64_t ts[] = {1700000000000, -1, 0, 5, 5};
	double val[] = {NAN, INFINITY, -INFINITY, 4.9e-324, -0.0};
	struct amd_metric_cols c = {step, ts, val, 5}, back;
	unsigned char b[5 * AMD_METRIC_POINT_BYTES];
	amd_metric_pack(&c, b);
	struct amd_err err = {{0}};
	assert_int_equal(amd_metric_unpack(b, sizeof b, "t", &back, &err), 0);
	assert_int_equal(back.n, 5);
	assert_memory_equal(back.step, step, sizeof step);
	assert_memory_equal(back.ts_ms, ts, sizeof ts);
	assert_true(isnan(back.value[0]));
	assert_true(isinf(back.value[1]) && back.value[1] > 0);
	assert_true(isinf(back.value[2]) && back.value[2] < 0);
	assert_true(back.value[3] == 4.9e-324);
	assert_true(back.value[4] == 0 && signbit(back.value[4]));
	amd_metric_cols_free(&back);
}

static void empty_and_truncated(void **state)
{
	(void)state;
	struct amd_err err = {{0}};
	struct amd_metric_cols c;
	assert_int_equal(amd_metric_unpack(NULL, 0, "t", &c, &err), 0);
	assert_int_equal(c.n, 0);
	assert_null(c.step);
	unsigned char b[47] = {0};
	assert_int_equal(amd_metric_unpack(b, sizeof b, "s.db: metric_series run 1", &c, &err), -1);
	assert_string_equal(err.msg, "s.db: metric_series run 1: packed points of 47 bytes,"
			    " not a multiple of 24");
	assert_null(c.step);
}

/* The first number of `amdahl sql`'s answer (after the header line). */
static long long sql_number(const char *store, const char *sql)
{
	struct amd_buf out = {0};
	struct amd_err err = {{0}};
	assert_int_equal(amd_store_sql(store, sql, &out, &err), 0);
	assert_int_equal(amd_buf_append(&out, "", 1), 0);
	const char *nl = strchr(out.data, '\n');
	assert_non_null(nl);
	long long v = strtoll(nl + 1, NULL, 10);
	amd_buf_free(&out);
	return v;
}

/* 3 chunks and a bit of one key, another key in between, each step
 * logged twice from step 5000 on: every point back, in step order. */
static void long_series_in_chunks(void **state)
{
	(void)state;
	char dir[] = "/tmp/amd-metric-pack-XXXXXX", path[64];
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/s.db", dir);
	struct amd_err err = {{0}};
	struct amd_store *st;
	struct amd_config cfg = {0};
	assert_int_equal(amd_store_open(path, AMD_STORE_WRITE, &st, &err), 0);
	struct amd_store_sink *ss = amd_store_sink_new(st, "unit", "test", "00", 1, NULL, &cfg);
	struct amd_sink *s = amd_store_sink_iface(ss);
	struct amd_run_rec r = {.ext_id = "r1", .name = "r1", .sweep = "w"};
	assert_int_equal(s->run(s, &r, &err), 0);
	const long n = 3 * AMD_METRIC_CHUNK + 100;
	long logged = 0;
	for (long i = 0; i < n; i++) {
		assert_int_equal(s->metric(s, "loss", i, 1000 + i, (double)i / 2, &err), 0);
		if (i >= 5000)
			assert_int_equal(s->metric(s, "loss", i, 1000 + i, -(double)i, &err), 0);
		logged += 1 + (i >= 5000);
		if (i % 1000 == 0)
			assert_int_equal(s->metric(s, "lr", i, 0, NAN, &err), 0);
	}
	enum amd_source_state got;
	assert_int_equal(amd_store_sink_finish(ss, &got, &err), 0);
	struct amd_point *p;
	size_t np;
	assert_int_equal(amd_run_metric(st, 1, "loss", &p, &np, &err), 0);
	assert_int_equal(np, logged);
	for (size_t i = 0, k = 0; i < (size_t)n; i++) {
		assert_int_equal(p[k].step, (int64_t)i);
		assert_int_equal(p[k].ts_ms, 1000 + (int64_t)i);
		assert_true(p[k++].value == (double)i / 2); /* the first logged first */
		if (i >= 5000)
			assert_true(p[k++].value == -(double)i);
	}
	free(p);
	assert_int_equal(amd_run_metric(st, 1, "lr", &p, &np, &err), 0);
	assert_int_equal(np, (n + 999) / 1000);
	assert_true(isnan(p[0].value));
	free(p);
	amd_store_close(st);
	/* chunks of at most AMD_METRIC_CHUNK points; the virtual table agrees */
	long long chunks = (logged + AMD_METRIC_CHUNK - 1) / AMD_METRIC_CHUNK;
	assert_int_equal(sql_number(path, "SELECT count(*) FROM metric_series m JOIN dict d"
				    " ON d.id = m.key_id WHERE d.s = 'loss'"), chunks);
	assert_int_equal(sql_number(path, "SELECT max(n) FROM metric_series"), AMD_METRIC_CHUNK);
	assert_int_equal(sql_number(path, "SELECT count(*) FROM metric_point"),
			 logged + (n + 999) / 1000);
	assert_int_equal(sql_number(path, "SELECT count(*) FROM metric_point WHERE value IS NULL"),
			 (n + 999) / 1000);
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(layout_by_hand),
		cmocka_unit_test(round_trip),
		cmocka_unit_test(empty_and_truncated),
		cmocka_unit_test(long_series_in_chunks),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
