/* ch_ship.c — a staged unit to ClickHouse (ch_ship.h): each table of
 * ch_tables.c streamed out of the staging store (unit_rows.h: typed
 * cells, identities mapped to ClickHouse's ids here) and sent as RowBinary in batches (one INSERT per table and batch, no
 * per-row round trips); the source row goes last, so a killed ingest
 * leaves rows no reader sees. Then the attempts of the same path it
 * replaces are deleted with ALTER TABLE … DELETE mutations. A forgotten
 * path gets an empty commit (sha256 "") that hides its earlier ones. */
#include "ch_ship.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include <zlib.h>

#include "ch_rowbinary.h"
#include "ch_schema.h"
#include "ch_scope.h"
#include "ch_tables.h"
#include "unit_rows.h"
#include "user_sql.h"

#define BATCH_BYTES (8u << 20)

/* amd_ch_string_id of the last identities seen, by slot: a table's rows
 * name the same run and keys over and over, and each is a SHA-256. */
#define CHID_SLOTS 256
struct chid_cache {
	struct chid_slot {
		char *s;
		size_t n;
		int64_t id;
	} slot[CHID_SLOTS];
};

static void chid_cache_free(void *p)
{
	struct chid_cache *c = p;
	for (size_t i = 0; i < CHID_SLOTS; i++)
		free(c->slot[i].s);
	free(c);
}

static int64_t chid_cached(struct chid_cache *c, const char *s, size_t n)
{
	struct chid_slot *e = &c->slot[crc32(0, (const Bytef *)s, (uInt)n) % CHID_SLOTS];
	if (e->s && e->n == n && memcmp(e->s, s, n) == 0)
		return e->id;
	int64_t id = amd_ch_string_id(s, n);
	char *copy = id < 0 ? NULL : malloc(n + 1);
	if (copy) {
		memcpy(copy, s, n);
		copy[n] = '\0';
		free(e->s);
		*e = (struct chid_slot){copy, n, id};
	}
	return id;
}

int64_t amd_ch_new_attempt(void)
{
	uint64_t r = 0;
	if (getrandom(&r, sizeof r, 0) != (ssize_t)sizeof r) {
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		r = (uint64_t)ts.tv_nsec * 2654435761u ^ (uint64_t)ts.tv_sec << 20 ^ (uint64_t)getpid();
	}
	r &= INT64_MAX;
	return r ? (int64_t)r : 1;
}

int amd_ch_quote(struct amd_buf *b, const char *s)
{
	if (amd_buf_append(b, "'", 1) < 0)
		return -1;
	for (; *s; s++)
		if ((*s == '\\' || *s == '\'') && amd_buf_append(b, "\\", 1) < 0)
			return -1;
		else if (amd_buf_append(b, s, 1) < 0)
			return -1;
	return amd_buf_append(b, "'", 1);
}

static int send_batch(struct amd_ch *ch, const struct ch_table *t, struct amd_buf *b,
		      struct amd_err *err)
{
	if (!b->len)
		return 0;
	char sql[600];
	snprintf(sql, sizeof sql, "INSERT INTO %s (%s,src,rn) FORMAT RowBinary", t->name, t->cols);
	int rc = amd_ch_run(ch, sql, b->data, b->len, 1, NULL, err);
	b->len = 0;
	return rc;
}

/* The RowBinary types of t's export columns: its columns, then src. */
static int export_types(const struct ch_table *t, char *types, size_t cap)
{
	int n = amd_ch_rowbinary_types(t->columns, types, cap - 1);
	if (n < 0)
		return -1;
	types[n] = 'i';
	types[n + 1] = '\0';
	return 0;
}

/* Row cells into ClickHouse's values by t's kinds: an identity (a run,
 * sweep, dict string, frame: unit_rows.h) to its id, a source to the
 * attempt, a NULL where the column takes none to t's null_as. 0, or -1
 * out of memory, -2 - column for a value that cannot be mapped. */
static int map_cells(const struct ch_table *t, const char *types, struct chid_cache *ids,
		     int64_t attempt, const struct amd_cell *in, struct amd_cell *out)
{
	for (int k = 0; t->kinds[k]; k++) {
		struct amd_cell c = in[k];
		char kind = t->kinds[k];
		int nullable = types[k] >= 'A' && types[k] <= 'Z';
		if (strchr("rwdf", kind) && c.type == AMD_CELL_TEXT) {
			c.i = chid_cached(ids, c.s, c.n);
			if (c.i < 0)
				return -1;
			c.type = AMD_CELL_INT;
		} else if (strchr("rwdf", kind) && c.type != AMD_CELL_NULL) {
			return -2 - k;
		} else if (kind == 's' && (!nullable || c.type != AMD_CELL_NULL)) {
			c = (struct amd_cell){.type = AMD_CELL_INT, .i = attempt};
		}
		if (c.type == AMD_CELL_NULL && !nullable && t->null_as && t->null_as[k] == '0')
			c = (struct amd_cell){.type = AMD_CELL_INT, .i = 0};
		else if (c.type == AMD_CELL_NULL && !nullable && t->null_as && t->null_as[k] == '-')
			c = (struct amd_cell){.type = AMD_CELL_INT, .i = -1};
		out[k] = c;
	}
	return 0;
}

/* t's rows from the store's row stream (unit_rows.h) appended to b in
 * RowBinary, b sent whenever it is past BATCH_BYTES. */
static int ship_table(struct amd_ch *ch, struct amd_store *staging, struct chid_cache *ids,
		      int64_t attempt, const struct ch_table *t, struct amd_buf *bp,
		      struct amd_err *err)
{
	char types[64];
	if (export_types(t, types, sizeof types) < 0)
		return amd_fail(err, "%s: table %s: a column type RowBinary is not written for",
				amd_ch_name(ch), t->name);
	int ncols = (int)strlen(t->kinds);
	struct amd_table_iter *it;
	if (amd_table_iter_open(staging, t->name, &it, err) < 0)
		return -1;
	int given = amd_table_iter_columns(it);
	if (given != ncols || ncols >= AMD_TABLE_COLS_MAX) {
		amd_table_iter_close(it);
		return amd_fail(err, "%s: table %s: the store gives %d columns, not %d",
				amd_ch_name(ch), t->name, given, ncols);
	}
	struct amd_buf b = *bp;
	struct amd_cell row[AMD_TABLE_COLS_MAX];
	const struct amd_cell *cells;
	int got, ret = 0;
	int64_t rn = 0;
	while ((got = amd_table_iter_next(it, &cells, err)) > 0) {
		int put = map_cells(t, types, ids, attempt, cells, row);
		row[ncols] = (struct amd_cell){.type = AMD_CELL_INT, .i = attempt}; /* src */
		if (put == 0)
			put = amd_ch_rowbinary_row(&b, row, types, rn++);
		if (put < 0) {
			ret = put == -1 ? amd_fail(err, "%s: out of memory", amd_ch_name(ch))
					: amd_fail(err, "%s: table %s: row %lld: no value for column %d",
						   amd_ch_name(ch), t->name, (long long)rn, -put - 1);
			break;
		}
		if (b.len >= BATCH_BYTES && (ret = send_batch(ch, t, &b, err)) < 0)
			break;
	}
	if (ret == 0 && got < 0)
		ret = -1;
	amd_table_iter_close(it);
	*bp = b;
	return ret;
}

/* Points encoded between checks of the batch's size. */
#define POINT_SLICE 65536

/* metric_point straight from the packed series (unit_rows.h): a series'
 * run and key ids computed once, its points encoded without a row of SQL
 * each; the same rows, in the same order and numbering, as the table's
 * export SELECT gives (test_clickhouse.c compares them). */
static int ship_series(struct amd_ch *ch, struct amd_store *staging, int64_t source,
		       int64_t attempt, const struct ch_table *t, struct amd_buf *bp,
		       struct amd_err *err)
{
	struct amd_series_iter *it;
	if (amd_series_iter_open(staging, source, &it, err) < 0)
		return -1;
	struct amd_buf b = *bp;
	struct amd_series_rows s;
	int64_t rn = 0;
	int got, ret = 0;
	while (ret == 0 && (got = amd_series_iter_next(it, &s, err)) > 0) {
		int64_t run = amd_ch_string_id(s.run_ext, s.run_ext_len);
		int64_t key = amd_ch_string_id(s.key, s.key_len);
		for (size_t i = 0; ret == 0 && i < s.n; i += POINT_SLICE) {
			size_t to = s.n - i > POINT_SLICE ? i + POINT_SLICE : s.n;
			if (run < 0 || key < 0 ||
			    amd_ch_rowbinary_points(&b, run, key, &s, i, to, attempt, &rn) < 0)
				ret = amd_fail(err, "%s: out of memory", amd_ch_name(ch));
			else if (b.len >= BATCH_BYTES)
				ret = send_batch(ch, t, &b, err);
		}
	}
	if (ret == 0 && got < 0)
		ret = -1;
	amd_series_iter_close(it);
	*bp = b;
	return ret;
}

/* The source row of attempt (src) at ts, appended to b as TSV. */
static int source_line(struct amd_buf *b, int64_t attempt, const struct ch_source *src,
		       long long ns)
{
	return amd_buf_printf(b, "%lld\t", (long long)attempt) < 0 ||
		       amd_tsv_text(b, src->path) < 0 || amd_buf_append(b, "\t", 1) < 0 ||
		       amd_tsv_text(b, src->kind) < 0 ||
		       amd_buf_printf(b, "\t%llu\t%s\t%lld\t%lld\n", (unsigned long long)src->size,
				      src->sha256, ns / 1000000000LL, ns) < 0
		       ? -1 : 0;
}

/* The source rows of units (one INSERT, one block: every unit of it
 * becomes visible at once, or none). Unit i commits at ns + i: readers
 * keep a run's row of the latest commit (ch_load.c, prefer), and a later
 * unit of the batch holds what an earlier one wrote of a run it shares
 * (ch_seed.c copies it from the waiting unit), as in a SQLite store,
 * where the last unit's row is the run's. */
static int commit_rows(struct amd_ch *ch, const struct amd_ch_unit_rows *units, size_t n,
		       long long ns, struct amd_err *err)
{
	struct amd_buf b = {0};
	int bad = 0;
	for (size_t i = 0; !bad && i < n; i++)
		bad = source_line(&b, units[i].attempt, units[i].src, ns + (long long)i) < 0;
	int rc = bad ? amd_fail(err, "%s: out of memory", amd_ch_name(ch))
		     : amd_ch_run(ch, "INSERT INTO source (id, path, kind, size, sha256,"
				  " ingested_at, committed_ns) FORMAT TabSeparated",
				  b.data, b.len, 1, NULL, err);
	amd_buf_free(&b);
	return rc;
}

/* The attempts of the units' paths committed before theirs (at ns;
 * at ns too, a smaller id): readers take the latest commit of a path,
 * so none of them is seen any more. One query for every unit. "" when
 * there are none; NULL with err set. */
static char *replaced_attempts(struct amd_ch *ch, const struct amd_ch_unit_rows *units,
			       size_t n, long long ns, struct amd_err *err)
{
	size_t asked = 0;
	for (size_t i = 0; i < n; i++)
		asked += !units[i].fresh;
	if (!asked) {
		char *none = strdup("");
		if (!none)
			amd_fail(err, "%s: out of memory", amd_ch_name(ch));
		return none;
	}
	struct amd_buf sql = {0};
	int bad = amd_buf_printf(&sql, "SELECT id AS x FROM source WHERE ") < 0;
	for (size_t i = 0, k = 0; !bad && i < n; i++)
		bad = !units[i].fresh &&
		      (amd_buf_printf(&sql, "%s(path = ", k++ ? " OR " : "") < 0 ||
		      amd_ch_quote(&sql, units[i].src->path) < 0 ||
		      amd_buf_printf(&sql, " AND (committed_ns < %lld OR (committed_ns = %lld AND"
				     " id < %lld)))", ns + (long long)i, ns + (long long)i,
				     (long long)units[i].attempt) < 0);
	bad = bad || amd_buf_append(&sql, "", 1) < 0;
	char *ids = bad ? NULL : amd_ch_id_list(ch, sql.data, err);
	if (bad)
		amd_fail(err, "%s: out of memory", amd_ch_name(ch));
	amd_buf_free(&sql);
	return ids;
}

/* Deletes the rows of the attempts in ids (a comma list) with one
 * ALTER TABLE … DELETE mutation per table, the source rows last: an
 * interrupted clean-up leaves rows no reader sees, as before it. */
static int delete_attempts(struct amd_ch *ch, const char *ids, struct amd_err *err)
{
	for (size_t i = 0; i <= amd_ch_table_count; i++) {
		const char *table = i < amd_ch_table_count ? amd_ch_tables[i].name : "source";
		struct amd_buf clause = {0};
		int rc = amd_buf_printf(&clause, "DELETE WHERE %s IN (%s)",
					i < amd_ch_table_count ? "src" : "id", ids) < 0
				 ? amd_fail(err, "%s: out of memory", amd_ch_name(ch))
				 : amd_ch_alter(ch, table, 0, clause.data, err);
		amd_buf_free(&clause);
		if (rc < 0)
			return -1;
	}
	return 0;
}

int amd_ch_ship(struct amd_ch *ch, struct amd_store *staging, int64_t attempt,
		const struct ch_source *src, struct amd_err *err)
{
	return amd_ch_ship_source(ch, staging, 0, attempt, src, err) != 0 ? -1 : 0;
}

int amd_ch_ship_source(struct amd_ch *ch, struct amd_store *staging, int64_t source,
		       int64_t attempt, const struct ch_source *src, struct amd_err *err)
{
	struct amd_ch_unit_rows u = {staging, source, attempt, src, 0};
	return amd_ch_ship_units(ch, &u, 1, err);
}

/* Every table's rows of units, one INSERT per table (and BATCH_BYTES). */
static int ship_rows(struct amd_ch *ch, const struct amd_ch_unit_rows *units, size_t n,
		     struct amd_err *err)
{
	struct chid_cache *ids = calloc(1, sizeof *ids);
	if (!ids)
		return amd_fail(err, "%s: out of memory", units[0].src->path);
	struct amd_buf b = {0};
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < amd_ch_table_count; i++) {
		const struct ch_table *t = &amd_ch_tables[i];
		int series = strcmp(t->name, "metric_point") == 0;
		for (size_t k = 0; rc == 0 && k < n; k++) {
			const struct amd_ch_unit_rows *u = &units[k];
			rc = series ? ship_series(ch, u->staging, u->source, u->attempt, t, &b, err)
				    : ship_table(ch, u->staging, ids, u->attempt, t, &b, err);
			if (rc < 0 && n == 1) /* a batch's failure is each unit's (engine.c) */
				amd_fail_prefix(err, "%s", u->src->path);
		}
		if (rc == 0 && (rc = send_batch(ch, t, &b, err)) < 0 && n == 1)
			amd_fail_prefix(err, "%s", units[0].src->path);
	}
	chid_cache_free(ids);
	amd_buf_free(&b);
	return rc;
}

static int drop_replaced(struct amd_ch *ch, const struct amd_ch_unit_rows *units, size_t n,
			 long long ns, struct amd_err *err);

int amd_ch_ship_units(struct amd_ch *ch, const struct amd_ch_unit_rows *units, size_t n,
		      struct amd_err *err)
{
	if (!n)
		return 0;
	if (ship_rows(ch, units, n, err) < 0)
		return -1;
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	long long ns = (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
	if (commit_rows(ch, units, n, ns, err) < 0)
		return n == 1 ? amd_fail_prefix(err, "%s", units[0].src->path) : -1;
	return drop_replaced(ch, units, n, ns, err) < 0 ? 1 : 0;
}

int amd_ch_forget(struct amd_ch *ch, const char *path, struct amd_err *err)
{
	int64_t attempt = amd_ch_new_attempt();
	struct ch_source forgotten = {path, "", "", 0};
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	long long ns = (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
	struct amd_ch_unit_rows u = {NULL, 0, attempt, &forgotten, 0};
	if (commit_rows(ch, &u, 1, ns, err) < 0)
		return amd_fail_prefix(err, "%s: forgetting it", path);
	return amd_ch_drop_replaced(ch, path, attempt, ns, err);
}

static int drop_replaced(struct amd_ch *ch, const struct amd_ch_unit_rows *units, size_t n,
			 long long ns, struct amd_err *err)
{
	char *ids = replaced_attempts(ch, units, n, ns, err);
	int rc = ids && *ids ? delete_attempts(ch, ids, err) : ids ? 0 : -1;
	free(ids);
	return rc < 0 ? amd_fail_prefix(err, "%s%s: committed; removing the attempts it replaces",
					 units[0].src->path, n > 1 ? " and the units beside it" : "")
		      : 0;
}

/* Every attempt of a path committed before the path's latest. */
#define STALE_SQL "SELECT id AS x FROM source WHERE id NOT IN" \
	" (SELECT argMax(id, (committed_ns, id)) FROM source GROUP BY path)"

int amd_ch_drop_stale(struct amd_ch *ch, struct amd_err *err)
{
	char *ids = amd_ch_id_list(ch, STALE_SQL, err);
	int rc = ids && *ids ? delete_attempts(ch, ids, err) : ids ? 0 : -1;
	free(ids);
	return rc < 0 ? amd_fail_prefix(err, "removing the attempts replaced before") : 0;
}

int amd_ch_drop_replaced(struct amd_ch *ch, const char *path, int64_t attempt, long long ns,
			 struct amd_err *err)
{
	struct ch_source src = {path, "", "", 0};
	struct amd_ch_unit_rows u = {NULL, 0, attempt, &src, 0};
	return drop_replaced(ch, &u, 1, ns, err);
}
