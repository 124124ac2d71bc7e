/* test_clickhouse.c — the ClickHouse backend's pieces that need no
 * server (lib/remote/clickhouse.h, ch_ship.h, ch_tables.h): store URLs and
 * what is refused in them, ids computed on the client against sha256sum,
 * TSV and SQL-literal escaping, the table list's own consistency, and
 * RowBinary rows (ch_rowbinary.h) against bytes written out by hand from
 * the format's definition; a cluster's URL, its GLOBAL subqueries
 * (ch_cluster.h) and the timeout's variable; the metric points shipped
 * straight from the packed series (unit_rows.h, amd_ch_rowbinary_points)
 * against the rows metric_point's export SELECT gives, byte for byte;
 * every other table's row stream with as many cells as its columns;
 * the ?compress= URL parameter; a request that got no answer (nothing
 * listens) marked by the transport, which is what the ingest target
 * reads — never libcurl's words in a message. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <sqlite3.h>

#include <stdlib.h>
#include <string.h>

#include "ch_cluster.h"
#include "ch_rowbinary.h"
#include "ch_ship.h"
#include "ch_tables.h"
#include "ch_target.h"
#include "clickhouse.h"
#include "metric_sql.h"
#include "unit_rows.h"
#include "remote_ops.h"
#include "sqlite_int.h"
#include "unit_rows.h"
#include "user_sql.h"

static void cluster(void **state)
{
	(void)state;
	struct amd_ch *ch = NULL;
	struct amd_err err = {{0}};
	assert_int_equal(amd_ch_open("clickhouse://me@h:1/sweeps?cluster=team-2x2", &ch, &err), 0);
	assert_string_equal(amd_ch_database(ch), "sweeps");
	assert_string_equal(amd_ch_cluster(ch), "team-2x2");
	amd_ch_close(ch);
	assert_int_equal(amd_ch_open("clickhouse://h:1/sweeps", &ch, &err), 0);
	assert_null(amd_ch_cluster(ch));
	amd_ch_close(ch);
	assert_int_equal(amd_ch_open("clickhouse://h:1/db?cluster=a;b", &ch, &err), -1);
	assert_non_null(strstr(err.msg, "cluster=NAME"));
	assert_int_equal(amd_ch_open("clickhouse://h:1/db?cluster=", &ch, &err), -1);
	assert_int_equal(amd_ch_open("clickhouse://h:1/db?readonly=0", &ch, &err), -1);
	char *g = amd_ch_cluster_sql("SELECT x FROM t ANY LEFT JOIN (SELECT 1) USING (x) WHERE"
				     " src IN (SELECT id FROM s) AND y NOT IN (SELECT 2) AND z IN (1,2)");
	assert_string_equal(g, "SELECT x FROM t GLOBAL ANY LEFT JOIN (SELECT 1) USING (x) WHERE"
			    " src GLOBAL IN (SELECT id FROM s) AND y GLOBAL NOT IN (SELECT 2)"
			    " AND z IN (1,2)");
	free(g);
	setenv("AMDAHL_CLICKHOUSE_TIMEOUT", "0", 1);
	assert_int_equal(amd_ch_open("clickhouse://h:1/db", &ch, &err), -1);
	assert_non_null(strstr(err.msg, "$AMDAHL_CLICKHOUSE_TIMEOUT is not a number of seconds"));
	setenv("AMDAHL_CLICKHOUSE_TIMEOUT", "30s", 1);
	assert_int_equal(amd_ch_open("clickhouse://h:1/db", &ch, &err), -1);
	setenv("AMDAHL_CLICKHOUSE_TIMEOUT", "30", 1);
	assert_int_equal(amd_ch_open("clickhouse://h:1/db", &ch, &err), 0);
	amd_ch_close(ch);
	unsetenv("AMDAHL_CLICKHOUSE_TIMEOUT");
}

static void urls(void **state)
{
	(void)state;
	struct amd_ch *ch = NULL;
	struct amd_err err = {{0}};
	assert_true(amd_ch_is_url("clickhouse://h:1/db"));
	assert_true(amd_ch_is_url("clickhouse+https://h:1/db"));
	assert_false(amd_ch_is_url("amdahl.db"));
	assert_false(amd_ch_is_url("clickhouse.db"));
	/* the one decision above the store: remote.c's table claims the URL */
	assert_ptr_equal(amd_remote_find("clickhouse://h:1/db"), &amd_clickhouse_ops);
	assert_ptr_equal(amd_remote_find("clickhouse+https://h:1/db"), &amd_clickhouse_ops);
	assert_null(amd_remote_find("clickhouse.db"));
	assert_int_equal(amd_ch_open("clickhouse://me@ch1.example:9123/sweeps_2", &ch, &err), 0);
	assert_string_equal(amd_ch_database(ch), "sweeps_2");
	assert_string_equal(amd_ch_name(ch), "clickhouse://me@ch1.example:9123/sweeps_2");
	amd_ch_close(ch);
	assert_int_equal(amd_ch_open("clickhouse://u:secret@h:1/db", &ch, &err), -1);
	assert_null(ch);
	assert_non_null(strstr(err.msg, "password in the store URL is refused"));
	assert_null(strstr(err.msg, "secret"));
	assert_int_equal(amd_ch_open("clickhouse://h:1/", &ch, &err), -1);
	assert_non_null(strstr(err.msg, "/DATABASE"));
	assert_int_equal(amd_ch_open("clickhouse://h:1/a;DROP", &ch, &err), -1);
	assert_int_equal(amd_ch_open("clickhouse://h:1/a/b", &ch, &err), -1);
}

static void string_ids(void **state)
{
	(void)state;
	/* sha256("abc") = ba7816bf8f01cfe…, sha256("run-1") = 4e65d3fbe8ad653… */
	assert_int_equal(amd_ch_string_id("abc", 3), (int64_t)0xba7816bf8f01cfeLL);
	assert_int_equal(amd_ch_string_id("run-1", 5), (int64_t)0x4e65d3fbe8ad653LL);
	assert_true(amd_ch_string_id("", 0) > 0);
}

static void escaping(void **state)
{
	(void)state;
	struct amd_buf b = {0};
	assert_int_equal(amd_tsv_text(&b, "a\tb\nc\\d\re"), 0);
	assert_string_equal(b.data, "a\\tb\\nc\\\\d\\re");
	b.len = 0;
	assert_int_equal(amd_ch_quote(&b, "it's a\\path"), 0);
	assert_string_equal(b.data, "'it\\'s a\\\\path'");
	amd_buf_free(&b);
}

/* Every table: one load kind per column, known kinds, an export that
 * ends with the attempt, a version. */
static void tables(void **state)
{
	(void)state;
	for (size_t i = 0; i < amd_ch_table_count; i++) {
		const struct ch_table *t = &amd_ch_tables[i];
		size_t cols = 1;
		for (const char *p = t->cols; *p; p++)
			cols += *p == ',';
		assert_int_equal(strlen(t->kinds), cols);
		assert_int_equal(strspn(t->kinds, "pscrwdf"), cols);
		assert_true(!t->null_as || strlen(t->null_as) == cols);
		assert_true(t->since >= 1);
	}
}

/* Every table but metric_point (the series iterator's) streams out of a
 * store (unit_rows.h) with one cell per column the remote table has. */
static void table_streams(void **state)
{
	(void)state;
	struct amd_store *st = NULL;
	struct amd_err err = {{0}};
	assert_int_equal(amd_store_open(":memory:", AMD_STORE_WRITE, &st, &err), 0);
	for (size_t i = 0; i < amd_ch_table_count; i++) {
		const struct ch_table *t = &amd_ch_tables[i];
		struct amd_table_iter *it = NULL;
		if (strcmp(t->name, "metric_point") == 0)
			continue;
		assert_int_equal(amd_table_iter_open(st, t->name, &it, &err), 0);
		assert_int_equal(amd_table_iter_columns(it), (int)strlen(t->kinds));
		amd_table_iter_close(it);
	}
	assert_int_equal(amd_table_iter_open(st, "nosuch", &(struct amd_table_iter *){NULL}, &err),
			 -1);
	amd_store_close(st);
}

static void rowbinary_types(void **state)
{
	(void)state;
	char types[64];
	assert_int_equal(amd_ch_rowbinary_types("a Int64, b Nullable(Float64), c String,"
						 " d Nullable(String), e Float64, f Nullable(Int64)",
						 types, sizeof types), 6);
	assert_string_equal(types, "iFsSfI");
	assert_int_equal(amd_ch_rowbinary_types("a UInt8", types, sizeof types), -1);
	assert_int_equal(amd_ch_rowbinary_types("a Nullable(Int64", types, sizeof types), -1);
	assert_int_equal(amd_ch_rowbinary_types("a Int64, b Int64", types, 2), -1);
	/* every table ships: each of its column types has a binary form */
	for (size_t i = 0; i < amd_ch_table_count; i++)
		assert_int_equal(amd_ch_rowbinary_types(amd_ch_tables[i].columns, types, sizeof types),
				 (int)strlen(amd_ch_tables[i].kinds));
}

static void rowbinary_row(void **state)
{
	(void)state;
	sqlite3 *db = NULL;
	sqlite3_stmt *q = NULL;
	assert_int_equal(sqlite3_open(":memory:", &db), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db, "SELECT -2, NULL, 1.5, 'ab', 42, 7, NULL, printf('%.200c', 'x')",
					    -1, &q, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(q), SQLITE_ROW);
	struct amd_cell c[8];
	for (int i = 0; i < 8; i++) {
		int type = sqlite3_column_type(q, i);
		c[i] = type == SQLITE_NULL ? (struct amd_cell){.type = AMD_CELL_NULL}
		     : type == SQLITE_INTEGER ? (struct amd_cell){.type = AMD_CELL_INT,
								  .i = sqlite3_column_int64(q, i)}
		     : type == SQLITE_FLOAT ? (struct amd_cell){.type = AMD_CELL_REAL,
								.f = sqlite3_column_double(q, i)}
		     : (struct amd_cell){.type = AMD_CELL_TEXT,
					 .s = (const char *)sqlite3_column_text(q, i),
					 .n = (size_t)sqlite3_column_bytes(q, i)};
	}
	struct amd_buf b = {0};
	assert_int_equal(amd_ch_rowbinary_row(&b, c, "iIFsSfIs", 258), 0);
	static const unsigned char head[] = {
		0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, /* Int64 -2 */
		0x01,                                           /* Nullable: NULL */
		0x00, 0, 0, 0, 0, 0, 0, 0xf8, 0x3f,             /* Nullable(Float64) 1.5 */
		0x02, 'a', 'b',                                 /* String "ab" */
		0x00, 0x02, '4', '2',                           /* Nullable(String) of 42 */
		0, 0, 0, 0, 0, 0, 0x1c, 0x40,                   /* Float64 of 7 */
		0x01,                                           /* Nullable: NULL */
		0xc8, 0x01,                                     /* a 200-byte string's length */
	};
	assert_int_equal(b.len, sizeof head + 200 + 8);
	assert_memory_equal(b.data, head, sizeof head);
	assert_int_equal(b.data[sizeof head + 199], 'x');
	static const unsigned char extra[] = {0x02, 0x01, 0, 0, 0, 0, 0, 0}; /* Int64 258 */
	assert_memory_equal(b.data + sizeof head + 200, extra, sizeof extra);
	/* a NULL in a column that is not Nullable: refused, naming the column */
	assert_int_equal(amd_ch_rowbinary_row(&b, c, "ii", 0), -2 - 1);
	amd_buf_free(&b);
	sqlite3_finalize(q);
	sqlite3_close(db);
}

/* A staging store whose series need every case of the export's order:
 * one series in two sources, steps out of order and repeated (within a
 * source and across sources), chunks of one series, NaN and infinities,
 * a series of an unknown key id (not exported: the SELECT joins dict). */
static const char series_rows[] =
	"INSERT INTO dict(id, s) VALUES (5, 'loss'), (3, 'acc');"
	"INSERT INTO run(id, ext_id) VALUES (1, 'run-one'), (2, 'run-two');"
	"CREATE TEMP TABLE pts(run_id, key_id, step, ts_ms, value, source_id, seq);"
	"WITH RECURSIVE i(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM i WHERE k < 8999)"
	" INSERT INTO pts SELECT 1, 5, (k * 7919) % 1000, k * 10, CASE WHEN k % 97 = 0 THEN"
	" NULL WHEN k % 101 = 0 THEN 1e999 ELSE k / 3.0 END, 1, k FROM i;"
	"WITH RECURSIVE i(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM i WHERE k < 499)"
	" INSERT INTO pts SELECT 1, 5, 999 - k, 0, -k, 2, k FROM i;"
	"INSERT INTO pts VALUES (2, 3, 1, 7, 0.5, 1, 0), (2, 3, 2, 8, -1e-300, 1, 1),"
	" (2, 5, 4, 0, 2.5, 2, 0), (2, 5, 4, 0, 3.5, 2, 1), (1, 9, 1, 1, 1, 1, 0);"
	AMD_METRIC_PACK_SQL("temp.pts");

/* chid(): amd_ch_string_id of the text, for the oracle SELECT below. */
static void chid_fn(sqlite3_context *c, int argc, sqlite3_value **argv)
{
	(void)argc;
	sqlite3_result_int64(c, amd_ch_string_id((const char *)sqlite3_value_text(argv[0]),
						 (size_t)sqlite3_value_bytes(argv[0])));
}

/* metric_point's rows as its export SELECT gave them before the series
 * stream (the oracle: SQLite's own virtual table and ORDER BY), in
 * RowBinary. */
static const char point_export_sql[] =
	"SELECT chid(r.ext_id), chid(d.s), m.step, m.ts_ms, m.value, ?1, ?1"
	" FROM metric_point m JOIN run r ON r.id = m.run_id JOIN dict d ON d.id = m.key_id"
	" ORDER BY m.run_id, m.key_id, m.step, m.source_id, m.seq";

static void export_rows(struct amd_store *st, struct amd_buf *b)
{
	const struct ch_table *t = NULL;
	for (size_t i = 0; i < amd_ch_table_count; i++)
		if (strcmp(amd_ch_tables[i].name, "metric_point") == 0)
			t = &amd_ch_tables[i];
	assert_non_null(t);
	char types[64];
	int n = amd_ch_rowbinary_types(t->columns, types, sizeof types - 1);
	assert_true(n > 0);
	strcpy(types + n, "i");
	sqlite3_stmt *q = NULL;
	assert_int_equal(sqlite3_create_function(st->db, "chid", 1, SQLITE_UTF8, NULL, chid_fn,
						 NULL, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(st->db, point_export_sql, -1, &q, NULL), SQLITE_OK);
	sqlite3_bind_int64(q, 1, 77);
	int64_t rn = 0;
	while (sqlite3_step(q) == SQLITE_ROW) {
		struct amd_cell c[7];
		for (int i = 0; i < 7; i++)
			c[i] = sqlite3_column_type(q, i) == SQLITE_NULL
				       ? (struct amd_cell){.type = AMD_CELL_NULL}
				       : sqlite3_column_type(q, i) == SQLITE_FLOAT
				       ? (struct amd_cell){.type = AMD_CELL_REAL,
							   .f = sqlite3_column_double(q, i)}
				       : (struct amd_cell){.type = AMD_CELL_INT,
							   .i = sqlite3_column_int64(q, i)};
		assert_int_equal(amd_ch_rowbinary_row(b, c, types, rn++), 0);
	}
	sqlite3_finalize(q);
}

/* The same rows through the series iterator of source (0: all). */
static void series_rows_of(struct amd_store *st, int64_t source, struct amd_buf *b)
{
	struct amd_err err = {{0}};
	struct amd_series_iter *it = NULL;
	assert_int_equal(amd_series_iter_open(st, source, &it, &err), 0);
	struct amd_series_rows s;
	int64_t rn = 0;
	int got;
	while ((got = amd_series_iter_next(it, &s, &err)) > 0) {
		int64_t run = amd_ch_string_id(s.run_ext, s.run_ext_len);
		int64_t key = amd_ch_string_id(s.key, s.key_len);
		/* in two slices, as ship_series cuts a long series */
		assert_int_equal(amd_ch_rowbinary_points(b, run, key, &s, 0, s.n / 2, 77, &rn), 0);
		assert_int_equal(amd_ch_rowbinary_points(b, run, key, &s, s.n / 2, s.n, 77, &rn), 0);
	}
	assert_int_equal(got, 0);
	amd_series_iter_close(it);
}

static void series_export(void **state)
{
	(void)state;
	struct amd_store *st = NULL;
	struct amd_err err = {{0}};
	assert_int_equal(amd_store_open(":memory:", AMD_STORE_WRITE, &st, &err), 0);
	assert_int_equal(sqlite3_exec(st->db, series_rows, NULL, NULL, NULL), SQLITE_OK);
	struct amd_buf want = {0}, got = {0};
	export_rows(st, &want);
	series_rows_of(st, 0, &got);
	/* 9000 + 500 + 2 + 2 points, 66 bytes each but a NaN's 8 */
	assert_true(want.len > 9500 * 58);
	assert_int_equal(got.len, want.len);
	assert_memory_equal(got.data, want.data, want.len);
	/* one local source (push): its rows only, as its temporary view shows */
	assert_int_equal(sqlite3_exec(st->db, "CREATE TEMP VIEW metric_point AS SELECT * FROM"
				      " main.metric_point WHERE source_id = 2", NULL, NULL, NULL),
			 SQLITE_OK);
	want.len = got.len = 0;
	export_rows(st, &want);
	series_rows_of(st, 2, &got);
	assert_int_equal(want.len, 502 * 66);
	assert_int_equal(got.len, want.len);
	assert_memory_equal(got.data, want.data, want.len);
	amd_buf_free(&want);
	amd_buf_free(&got);
	amd_store_close(st);
}

static void compress_param(void **state)
{
	(void)state;
	struct amd_ch *ch = NULL;
	struct amd_err err = {{0}};
	assert_int_equal(amd_ch_open("clickhouse://h:1/db?compress=gzip", &ch, &err), 0);
	amd_ch_close(ch);
	assert_int_equal(amd_ch_open("clickhouse://h:1/db?cluster=c2&compress=none", &ch, &err), 0);
	assert_string_equal(amd_ch_cluster(ch), "c2");
	amd_ch_close(ch);
	assert_int_equal(amd_ch_open("clickhouse://h:1/db?compress=zstd", &ch, &err), -1);
	assert_non_null(strstr(err.msg, "compress=gzip|none"));
	assert_int_equal(amd_ch_open("clickhouse://h:1/db?cluster=a&cluster=b", &ch, &err), -1);
}

/* Nothing listens on 127.0.0.1:1: the request is refused before any
 * answer, and ch_http.c marks it (amd_ch_unanswered); the ingest target
 * takes a unit's failure for the server's from that mark alone. Before,
 * it matched libcurl's error words in the message: a unit whose path or
 * parse error held them stopped the whole ingest. */
static void unanswered(void **state)
{
	(void)state;
	const char *url = "clickhouse://127.0.0.1:1/db";
	struct amd_ingest_target t = amd_ch_target(url);
	struct amd_err err = {{0}};
	void *conn = t.connect(t.ctx, &err);
	assert_non_null(conn);
	assert_int_equal(t.store_failed(conn, ""), 0);
	/* libcurl's words in a unit's message, no request failed: the unit's */
	assert_int_equal(t.store_failed(conn, "/d/Couldn't connect to server.json: byte 3: truncated"
					    " JSON; Failure when receiving data from the peer"), 0);
	assert_int_equal(t.state(conn, "/d/x.json", "00", NULL, &err), -1);
	assert_non_null(strstr(err.msg, url));
	assert_int_equal(t.store_failed(conn, "any words"), 1);
	t.disconnect(conn);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(urls),
		cmocka_unit_test(cluster),
		cmocka_unit_test(string_ids),
		cmocka_unit_test(escaping),
		cmocka_unit_test(tables),
		cmocka_unit_test(rowbinary_types),
		cmocka_unit_test(rowbinary_row),
		cmocka_unit_test(series_export),
		cmocka_unit_test(table_streams),
		cmocka_unit_test(compress_param),
		cmocka_unit_test(unanswered),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
