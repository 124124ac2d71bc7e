/* test_store_need.c — a table a remote read left on the server is
 * loaded by the store itself the first time a statement reads it
 * (lib/store/db/store.c: amd_store_prepare and amd_store_exec watch
 * what a statement reads), so a reader that never asks for it — here
 * lib/store/writer/orphans.c — sees the rows; a statement that does not
 * read it loads nothing; a load inside a read transaction (store_read.h)
 * works. The rows are put through the loader (table_load.h), as the
 * ClickHouse reader does. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "orphans.h"
#include "store_read.h"
#include "table_load.h"

static int loads;

static struct amd_cell num(int64_t v)
{
	return (struct amd_cell){.type = AMD_CELL_INT, .i = v};
}

static struct amd_cell text(const char *s)
{
	return (struct amd_cell){.type = AMD_CELL_TEXT, .s = s, .n = strlen(s)};
}

static void load_rows(struct amd_store *st, const char *table, const char *cols,
		      const struct amd_cell *cells)
{
	struct amd_err err = {0};
	struct amd_table_load *l;
	assert_int_equal(amd_table_load_open(st, table, cols, &l, &err), 0);
	assert_int_equal(amd_table_load_row(l, cells, &err), 0);
	assert_int_equal(amd_table_load_close(l, 1, &err), 0);
}

/* the hook's load: source 1's region, no run owning it (an orphan) */
static int load_region(void *ctx, struct amd_store *st, struct amd_err *err)
{
	(void)ctx;
	loads++;
	if (amd_store_begin(st, err) < 0)
		return -1;
	const struct amd_cell r[] = {num(1), num(1), num(7), num(8), num(9)};
	load_rows(st, "region", "id,source_id,kind_id,profiler_id,name_id", r);
	return amd_store_commit(st, err);
}

/* A loaded store holding one source, its region left "on the server". */
static struct amd_store *store_with_left_region(void)
{
	struct amd_err err = {0};
	struct amd_store *st;
	assert_int_equal(amd_store_open_loading("clickhouse://test", &st, &err), 0);
	assert_int_equal(amd_store_begin(st, &err), 0);
	const struct amd_cell s[] = {num(1), text("/data/trace.json"), text("torch-trace"),
				     num(10), text("ab"), num(1)};
	load_rows(st, "source", "id,path,kind,size,sha256,ingested_at", s);
	assert_int_equal(amd_store_commit(st, &err), 0);
	const struct amd_store_remote r = {.left = "region", .load = load_region};
	amd_store_set_remote(st, &r);
	amd_store_loaded(st);
	loads = 0;
	return st;
}

static void orphans_see_the_left_rows(void **state)
{
	(void)state;
	struct amd_err err = {0};
	struct amd_store *st = store_with_left_region();
	/* a statement that reads no region loads nothing */
	assert_int_equal(amd_store_sweep_id(st, "none", &err), 0);
	assert_int_equal(amd_store_source_count(st, &err), 1);
	assert_int_equal(loads, 0);
	/* orphans.c reads region without asking: the store loads it */
	struct amd_orphan *v = NULL;
	size_t n = 0;
	assert_int_equal(amd_store_orphans(st, &v, &n, &err), 0);
	assert_int_equal(loads, 1);
	assert_int_equal(n, 1);
	assert_string_equal(v[0].path, "/data/trace.json");
	amd_orphans_free(v, n);
	/* loaded once */
	assert_int_equal(amd_store_orphans(st, &v, &n, &err), 0);
	assert_int_equal(loads, 1);
	assert_int_equal(n, 1);
	amd_orphans_free(v, n);
	amd_store_close(st);
}

static void loads_inside_a_read_transaction(void **state)
{
	(void)state;
	struct amd_err err = {0};
	struct amd_store *st = store_with_left_region();
	assert_int_equal(amd_store_read_begin(st, &err), 0);
	struct amd_orphan *v = NULL;
	size_t n = 0;
	int rc = amd_store_orphans(st, &v, &n, &err);
	if (rc < 0)
		fail_msg("%s", err.msg);
	amd_store_read_end(st);
	assert_int_equal(loads, 1);
	assert_int_equal(n, 1);
	amd_orphans_free(v, n);
	amd_store_close(st);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(orphans_see_the_left_rows),
		cmocka_unit_test(loads_inside_a_read_transaction),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
