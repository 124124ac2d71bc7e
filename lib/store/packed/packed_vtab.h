/* packed_vtab.h — the one skeleton of the packed layouts' read-only
 * virtual tables (metric_sql.c's metric_point, gpu_sql.c's gpu_sample,
 * stack_sql.c's stack_node and stack_sample): the module (connecting,
 * xBestIndex from a table of usable constraints, the cursor, the scan of
 * pack rows with its statement kept between filters, stepping through a
 * pack's records, the rowid), the error of a damaged pack, and a double
 * that SQLite shows as NULL when NaN. A table is one struct
 * amd_packed_def: its schema, its scan's SQL, its constraints and its
 * callbacks (unpack a pack, give a column); it is registered with
 * amd_packed_create_module. Private to lib/store/packed; compiled into
 * the library and into the sqlite3 shell's extension. */
#ifndef AMD_PACKED_VTAB_H
#define AMD_PACKED_VTAB_H

#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>

struct amd_packed_cursor;
struct amd_err;

/* A constraint the scan takes: column col compared by op (an
 * SQLITE_INDEX_CONSTRAINT_*), spelled `letter` in idxStr and `sql` (one
 * "?") in the scan's WHERE. keep: SQLite tests it again (it only skips
 * packs); unique: at most one row matches; divide: the scan's cost is
 * divided by it when used. */
struct amd_packed_use {
	int col, op;
	char letter;
	unsigned char keep, unique;
	double divide;
	const char *sql;
};

/* Equality on column col (SQL name `name`): omitted, cost / 100. */
#define AMD_PACKED_EQ(col, letter, name) \
	{(col), SQLITE_INDEX_CONSTRAINT_EQ, (letter), 0, 0, 100, " AND " name " = ?"}
#define AMD_PACKED_USE_END {0, 0, 0, 0, 0, 0, NULL}

struct amd_packed_def {
	const char *schema; /* xConnect's "CREATE TABLE x(...)" */
	/* The scan: "SELECT rowid, n, <blob>, source_id[, run_id, ...] FROM
	 * main.<packs> WHERE 1"; the used constraints' sql and then `order`
	 * are appended. */
	const char *scan, *order;
	const struct amd_packed_use *use; /* ended by a letter 0 */
	int has_run;        /* column 4 of the scan is run_id */
	/* The plan names the used constraints by idxNum (bit u: use[u])
	 * instead of idxStr's letters (as metric_point always has). */
	int plan_by_number;
	size_t cursor_size; /* the table's cursor: struct amd_packed_cursor first */
	/* Unpacks the pack of the scan's current row (c->q) into c->v (or the
	 * table's own cursor fields) and sets c->n; an SQLite code
	 * (amd_packed_vtab_corrupt for a damaged pack). */
	int (*unpack)(struct amd_packed_cursor *c);
	/* Optional: what the table reads of every scan row besides source_id
	 * and run_id, after unpack (or when the pack was already loaded). */
	int (*keys)(struct amd_packed_cursor *c);
	/* Column col of record c->i. */
	void (*column)(struct amd_packed_cursor *c, sqlite3_context *ctx, int col);
	/* Optional: the row's rowid; NULL: rows counted from 0 per filter. */
	sqlite3_int64 (*rowid)(const struct amd_packed_cursor *c);
	/* Optional: when idxStr starts with find_letter, the filter is this
	 * look-up (it sets i, end and eof) instead of the scan. */
	char find_letter;
	int (*find)(struct amd_packed_cursor *c, int argc, sqlite3_value **argv);
	void (*clear)(struct amd_packed_cursor *c); /* optional: frees the table's fields */
};

struct amd_packed_cursor {
	sqlite3_vtab_cursor base;
	const struct amd_packed_def *def;
	sqlite3_stmt *q;      /* the scan's packs (NULL: no more) */
	sqlite3_stmt *cached; /* q's statement, kept between filters */
	void *v;              /* the loaded pack's records (malloc'd) */
	size_t n, i, end;     /* records i..end of the n are the filter's */
	int64_t pack;         /* the loaded pack's rowid */
	int loaded;           /* a pack is loaded (pack says which) */
	int64_t row;          /* the filter's rows stepped so far */
	int64_t source;       /* the pack's source_id */
	sqlite3_value *run;   /* has_run: a copy of the pack's run_id */
	int eof;
};

/* Registers the table def (static storage) as an eponymous module. */
int amd_packed_create_module(sqlite3 *db, const char *name, const struct amd_packed_def *def);

/* For a def's find: makes sql (one statement per cursor, kept while its
 * text stays the same) the cursor's q with argv bound from 1 on. */
int amd_packed_cursor_query(struct amd_packed_cursor *c, const char *sql, int argc,
			    sqlite3_value **argv);
/* For a def's find: loads the pack of q's current row (kept when it is
 * the one loaded) and reads its keys; an SQLite code. */
int amd_packed_cursor_load(struct amd_packed_cursor *c);
/* For a def's find of one record by its id (argv[0]): the loaded pack
 * when in_loaded says it may hold it, else the packs sql (argv bound
 * from 1 on) gives, in order, until find (a record's index in a pack's
 * records, -1 when none) finds it; the cursor on that record, or at its
 * end when no pack holds it or argv[0] is not a whole number. An SQLite
 * code. */
typedef int64_t (*amd_packed_find_fn)(const void *v, size_t n, int64_t id);
int amd_packed_cursor_find_id(struct amd_packed_cursor *c, int in_loaded, const char *sql,
			      int argc, sqlite3_value **argv, amd_packed_find_fn find);

/* For a def's unpack: the blob of column col of q (NULL with *len 0 when
 * empty); SQLITE_NOMEM when SQLite could not give it. */
int amd_packed_blob(struct amd_packed_cursor *c, int col, const void **blob, size_t *len);
/* For a def's unpack: c->v replaced by room for count records of size
 * bytes (one more, so that 0 is not an empty allocation); an SQLite code. */
int amd_packed_records(struct amd_packed_cursor *c, size_t count, size_t size);

/* A pack's records into out[0..n) (as call_pack.h's amd_call_unpack,
 * op_pack.h's amd_op_unpack): -1 with err naming what when damaged. */
typedef int amd_packed_unpack_fn(const void *blob, size_t len, int64_t n, const char *what,
				 void *out, struct amd_err *err);
/* For a def whose pack row holds (rowid, n, blob): c->v and c->n its
 * n records of size bytes, made by unpack; room is made only for an n
 * the blob's bytes can hold (a record takes a byte at least: unpack
 * refuses a larger n before writing); a damaged blob is the table's
 * error, naming "table rowid". An SQLite code. */
int amd_packed_unpack_counted(struct amd_packed_cursor *c, const char *table, size_t size,
			      amd_packed_unpack_fn *unpack);

/* A pack aggregate's rows (its aggregate context): n records, grown
 * by amd_packed_acc_add; oom: one could not be added (final fails). */
struct amd_packed_acc {
	void *v;
	size_t n, cap;
	int oom;
};
/* For a pack aggregate's step: room for one more record of size bytes
 * in the context's struct amd_packed_acc; NULL when out of memory. */
void *amd_packed_acc_add(sqlite3_context *ctx, size_t size);

/* A damaged pack: msg as the table's error, SQLITE_CORRUPT. */
int amd_packed_vtab_corrupt(sqlite3_vtab_cursor *cur, const char *msg);
/* v as the column's value, NULL when NaN (SQLite has no NaN). */
void amd_packed_result_double(sqlite3_context *ctx, double v);

#endif
