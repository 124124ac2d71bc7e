/* table_load.c — a store filled from another backend's rows
 * (table_load.h): each table's rows bound cell by cell into the same
 * table of an in-memory store; the packed tables through their temporary
 * row tables (metric_rows.h). */
#include "table_load.h"
#include "sqlite_int.h"

#include <stdlib.h>
#include <string.h>

#include "metric_rows.h"
#include "run.h"
#include "schema.h"

int amd_store_open_loading(const char *name, struct amd_store **out, struct amd_err *err)
{
	if (amd_store_open(":memory:", AMD_STORE_WRITE, out, err) < 0)
		return -1;
	char *copy = strdup(name);
	if (!copy) {
		amd_store_close(*out);
		*out = NULL;
		return amd_fail(err, "%s: out of memory", name);
	}
	free((*out)->path);
	(*out)->path = copy;
	return 0;
}

void amd_store_loaded(struct amd_store *st)
{
	st->mode = AMD_STORE_READ;
}

/* which temporary row table a packed table's rows go through */
enum packed { NOT_PACKED, PACK_POINTS, PACK_GPU, PACK_NODES, PACK_SAMPLES, PACK_REGIONS,
	      PACK_OPS, PACK_CALLS };

struct amd_table_load {
	struct amd_store *st;
	sqlite3_stmt *q;
	int ncols, seq; /* seq: the row's order is a column (metric_point, gpu_sample) */
	int64_t nrow;
	enum packed packed;
};

/* A run's kept row (the first loaded: the latest) takes what it lacks
 * of the columns a SQLite run row only ever gains (the writer COALESCEs
 * them) from the run's other rows: units of one run that staged at once
 * (two processes, or two workers of ingest -j N) each shipped a row
 * without the other's part. When both rows are span parts (their
 * sources of kind AMD_SPAN_PART_KIND, run.h), the kept row also widens
 * to the other's start and end, as the SQLite writer widens a run for
 * each span part (writer.c, sink_run): the run spans every committed
 * part, whichever shipped last and whatever it saw of the others. */
#define SPAN_PART(src) "(SELECT kind FROM source WHERE id = " src ") = '" AMD_SPAN_PART_KIND "'"
#define BOTH_PARTS SPAN_PART("run.source_id") " AND " SPAN_PART("excluded.source_id")
#define RUN_FILL " ON CONFLICT(id) DO UPDATE SET name = COALESCE(name, excluded.name)," \
	" parent_ext_id = COALESCE(parent_ext_id, excluded.parent_ext_id)," \
	" strategy = COALESCE(strategy, excluded.strategy), n = COALESCE(n, excluded.n)," \
	" nodes = COALESCE(nodes, excluded.nodes), rank = COALESCE(rank, excluded.rank)," \
	" repeat = COALESCE(repeat, excluded.repeat)," \
	" entry_point = COALESCE(entry_point, excluded.entry_point)," \
	" program = COALESCE(program, excluded.program)," \
	" start_ms = CASE WHEN " BOTH_PARTS " THEN min(COALESCE(start_ms, excluded.start_ms)," \
	" COALESCE(excluded.start_ms, start_ms)) ELSE start_ms END," \
	" end_ms = CASE WHEN " BOTH_PARTS " THEN max(COALESCE(end_ms, excluded.end_ms)," \
	" COALESCE(excluded.end_ms, end_ms)) ELSE end_ms END"

static enum packed packed_of(const char *table)
{
	return strcmp(table, "metric_point") == 0   ? PACK_POINTS
	       : strcmp(table, "gpu_sample") == 0   ? PACK_GPU
	       : strcmp(table, "stack_node") == 0   ? PACK_NODES
	       : strcmp(table, "stack_sample") == 0 ? PACK_SAMPLES
	       : strcmp(table, "region") == 0       ? PACK_REGIONS
	       : strcmp(table, "op_average") == 0   ? PACK_OPS
	       : strcmp(table, "region_call") == 0  ? PACK_CALLS
						    : NOT_PACKED;
}

static int rows_open(struct amd_store *st, enum packed p, struct amd_err *err)
{
	return p == PACK_POINTS ? amd_metric_rows_open(st, err)
	       : p == PACK_GPU	? amd_gpu_rows_open(st, err)
	       : p == PACK_REGIONS ? amd_region_rows_open(st, err)
	       : p == PACK_OPS ? amd_op_rows_open(st, err)
	       : p == PACK_CALLS ? amd_call_rows_open(st, err)
	       : p == NOT_PACKED ? 0
				 : amd_stack_rows_open(st, p == PACK_NODES, err);
}

static int rows_pack(struct amd_store *st, enum packed p, struct amd_err *err)
{
	return p == PACK_POINTS ? amd_metric_rows_pack(st, err)
	       : p == PACK_GPU	? amd_gpu_rows_pack(st, err)
	       : p == PACK_REGIONS ? amd_region_rows_pack(st, err)
	       : p == PACK_OPS ? amd_op_rows_pack(st, err)
	       : p == PACK_CALLS ? amd_call_rows_pack(st, err)
	       : p == NOT_PACKED ? 0
				 : amd_stack_rows_pack(st, p == PACK_NODES, err);
}

/* The INSERT of the load into sql (size bytes); -1 when it does not fit. */
static int insert_sql(char *sql, size_t size, const char *table, const char *cols, int ncols,
		      int seq)
{
	int len = snprintf(sql, size, "INSERT OR IGNORE INTO %s(%s%s) VALUES(", table, cols,
			   seq ? ",seq" : "");
	for (int i = 0; i < ncols + seq && len > 0 && (size_t)len < size; i++)
		len += snprintf(sql + len, size - (size_t)len, i ? ",?" : "?");
	if (len < 0 || (size_t)len >= size)
		return -1;
	len += snprintf(sql + len, size - (size_t)len, ")%s",
			strcmp(table, "run") == 0 ? RUN_FILL : "");
	return len < 0 || (size_t)len >= size ? -1 : 0;
}

int amd_table_load_open(struct amd_store *st, const char *table, const char *cols,
			struct amd_table_load **out, struct amd_err *err)
{
	*out = NULL;
	int ncols = 1;
	for (const char *c = cols; *c; c++)
		ncols += *c == ',';
	if (ncols > AMD_TABLE_COLS_MAX)
		return amd_fail(err, "%s: table %s: more than %d columns", st->path, table,
				AMD_TABLE_COLS_MAX);
	struct amd_table_load *l = calloc(1, sizeof *l);
	if (!l)
		return amd_fail(err, "%s: out of memory", st->path);
	l->st = st;
	l->ncols = ncols;
	l->packed = packed_of(table);
	l->seq = l->packed == PACK_POINTS || l->packed == PACK_GPU;
	char sql[2400];
	if (insert_sql(sql, sizeof sql, table, cols, ncols, l->seq) < 0) {
		free(l);
		return amd_fail(err, "%s: table %s: too many columns", st->path, table);
	}
	if (rows_open(st, l->packed, err) < 0 || !(l->q = amd_store_prepare(st, sql, err))) {
		free(l);
		return -1;
	}
	*out = l;
	return 0;
}

int amd_table_load_row(struct amd_table_load *l, const struct amd_cell *cells,
		       struct amd_err *err)
{
	sqlite3_reset(l->q);
	int rc = SQLITE_OK;
	for (int i = 0; rc == SQLITE_OK && i < l->ncols; i++)
		rc = amd_store_bind_cell(l->q, i + 1, &cells[i], SQLITE_STATIC);
	if (rc == SQLITE_OK && l->seq)
		rc = sqlite3_bind_int64(l->q, l->ncols + 1, l->nrow++);
	if (rc == SQLITE_OK)
		rc = sqlite3_step(l->q);
	sqlite3_clear_bindings(l->q);
	return rc == SQLITE_DONE ? 0 : amd_store_step_fail(l->st, rc, err);
}

int amd_table_load_close(struct amd_table_load *l, int ok, struct amd_err *err)
{
	if (!l)
		return ok ? 0 : -1;
	sqlite3_finalize(l->q);
	int rc = ok ? rows_pack(l->st, l->packed, err) : -1;
	free(l);
	return rc;
}

int amd_store_drop_sweep_if_empty(struct amd_store *st, int64_t id, struct amd_err *err)
{
	sqlite3_stmt *q = amd_store_prepare(st, "DELETE FROM sweep WHERE id = ?1 AND"
					    " NOT EXISTS(SELECT 1 FROM run WHERE sweep_id = ?1)", err);
	if (!q)
		return -1;
	sqlite3_bind_int64(q, 1, id);
	return amd_store_rows_done(st, q, sqlite3_step(q), err);
}

int amd_store_load_older_rows(struct amd_store *st, struct amd_err *err)
{
	/* the op roles of older rows: as they are packed (amd_op_rows_pack) */
	return amd_store_run_launch_of_older_rows(st, err);
}

int64_t amd_store_sweep_id(struct amd_store *st, const char *name, struct amd_err *err)
{
	return amd_store_first_id(st, "SELECT id FROM sweep WHERE name = ?1", name, NULL, err);
}

int64_t amd_store_source_count(struct amd_store *st, struct amd_err *err)
{
	return amd_store_first_id(st, "SELECT count(*) FROM source", NULL, NULL, err);
}

int amd_store_date_from_sources(struct amd_store *st, struct amd_err *err)
{
	return amd_store_exec(st, "UPDATE schema_version SET applied_at ="
			      " (SELECT ifnull(max(ingested_at), 0) FROM source)", err);
}

int amd_store_write_image(struct amd_store *st, FILE *f, const char *path,
			  struct amd_err *err)
{
	sqlite3_int64 size = 0;
	unsigned char *img = sqlite3_serialize(st->db, "main", &size, 0);
	if (!img)
		return amd_fail(err, "%s: out of memory", st->path);
	int rc = fwrite(img, 1, (size_t)size, f) == (size_t)size ? 0
		 : amd_fail(err, "%s: cannot write", path);
	sqlite3_free(img);
	return rc;
}
