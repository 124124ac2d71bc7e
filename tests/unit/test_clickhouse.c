/* test_clickhouse.c — the ClickHouse backend's pieces that need no
 * server (lib/store/clickhouse.h, ch_ship.h, ch_tables.h): store URLs and
 * what is refused in them, ids computed on the client against sha256sum,
 * TSV and SQL-literal escaping, and the table list's own consistency. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "ch_ship.h"
#include "ch_tables.h"
#include "clickhouse.h"

static void urls(void **state)
{
	(void)state;
	struct amd_ch *ch = NULL;
	struct amd_err err = {{0}};
	assert_true(amd_ch_is_url("clickhouse://h:1/db"));
	assert_true(amd_ch_is_url("clickhouse+https://h:1/db"));
	assert_false(amd_ch_is_url("amdahl.db"));
	assert_false(amd_ch_is_url("clickhouse.db"));
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
	assert_int_equal(amd_ch_tsv_text(&b, "a\tb\nc\\d\re"), 0);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(urls),
		cmocka_unit_test(string_ids),
		cmocka_unit_test(escaping),
		cmocka_unit_test(tables),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
