/* test_clickhouse.c — the ClickHouse backend's pieces that need no
 * server (lib/remote/clickhouse.h, ch_ship.h, ch_tables.h): store URLs and
 * what is refused in them, ids computed on the client against sha256sum,
 * TSV and SQL-literal escaping, the table list's own consistency, and
 * RowBinary rows (ch_rowbinary.h) against bytes written out by hand from
 * the format's definition; a cluster's URL, its GLOBAL subqueries
 * (ch_cluster.h) and the timeout's variable; a request that got no
 * answer (nothing listens) marked by the transport, which is what the
 * ingest target reads — never libcurl's words in a message. */
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
#include "remote_ops.h"
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
	assert_non_null(strstr(err.msg, "?cluster=NAME"));
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
		assert_non_null(strstr(t->export_sql, "?1"));
		assert_true(t->since >= 1);
	}
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
	struct amd_buf b = {0};
	assert_int_equal(amd_ch_rowbinary_row(&b, q, "iIFsSfIs", 258), 0);
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
	assert_int_equal(amd_ch_rowbinary_row(&b, q, "ii", 0), -2 - 1);
	amd_buf_free(&b);
	sqlite3_finalize(q);
	sqlite3_close(db);
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
	struct amd_ch *ch = t.connect(t.ctx, &err);
	assert_non_null(ch);
	assert_int_equal(amd_ch_unanswered(ch), 0);
	/* libcurl's words in a unit's message, no request failed: the unit's */
	assert_int_equal(t.store_failed(ch, "/d/Couldn't connect to server.json: byte 3: truncated"
					  " JSON; Failure when receiving data from the peer"), 0);
	assert_int_equal(amd_ch_query(ch, "SELECT 1", NULL, &err), -1);
	assert_non_null(strstr(err.msg, url));
	assert_int_equal(amd_ch_unanswered(ch), 1);
	assert_int_equal(t.store_failed(ch, "any words"), 1);
	t.disconnect(ch);
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
		cmocka_unit_test(unanswered),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
