/* ch_relink.c — a held source linked to a run on ClickHouse
 * (ch_relink.h). Rows are never updated in place there: the source's
 * committed attempt is copied on the server into a fresh attempt (one
 * INSERT … SELECT per table, nothing sent back and forth), the run
 * column of its run-owned rows (orphans.h, amd_run_fact_tables) set to
 * the run's ClickHouse id as the SQLite link sets it; then the copy's
 * source row is written (the commit, with the same path, bytes and
 * ingest time) and the old attempt deleted as a replaced one
 * (ch_ship.c). Until the commit row lands readers see the old attempt.
 * `--sweep S --run NEW` with no run NEW in S writes a placeholder run
 * (and sweep S) into the copy, as the SQLite link makes one. */
#include "ch_relink.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ch_load.h"
#include "ch_scope.h"
#include "ch_ship.h"
#include "ch_tables.h"
#include "orphans.h"
#include "unit_rows.h"

static int is_run_fact_table(const char *name)
{
	for (size_t i = 0; i < amd_run_fact_table_count; i++)
		if (strcmp(amd_run_fact_tables[i], name) == 0)
			return 1;
	return 0;
}

/* The number select (one row, one column) answers; -1 with err set. */
static int64_t query_number(struct amd_ch *ch, const char *select, struct amd_err *err)
{
	char *v = amd_ch_id_list(ch, select, err);
	int64_t n = v ? strtoll(v, NULL, 10) : -1;
	free(v);
	return n;
}

/* The ClickHouse id of the run `--run run` names (ch_tables.c: chid of
 * its ext_id), found in the committed store as SQLite finds it; 0 with
 * err filled when there is none. */
static int64_t run_chid(struct amd_ch *ch, const char *path, const char *run,
			const char *sweep, struct amd_err *err)
{
	static const char *const tables[] = {"run", "sweep"};
	struct amd_store *held = NULL;
	if (amd_ch_store_open_tables(amd_ch_name(ch), NULL, 0, tables, 2, NULL, 0, &held, err) < 0)
		return -1;
	char near[512], *ext = NULL;
	int64_t id = amd_store_run_find(held, run, sweep, near, sizeof near, err);
	if (id > 0 && amd_store_run_ext_id(held, id, &ext, err) < 0)
		id = -1;
	amd_store_close(held);
	if (id == 0)
		return amd_fail(err, "%s: no run '%s'%s%s in the store%s", path, run,
				sweep ? " in sweep " : "", sweep ? sweep : "", near), 0;
	int64_t chid = id < 0 ? -1 : amd_ch_string_id(ext, strlen(ext));
	free(ext);
	return chid;
}

/* Counts attempt's rows in the run tables (*rows) and those not of run
 * (*moved). */
static int count_rows(struct amd_ch *ch, int64_t attempt, int64_t run, int64_t *rows,
		      int64_t *moved, struct amd_err *err)
{
	*rows = *moved = 0;
	for (size_t i = 0; i < amd_run_fact_table_count; i++) {
		char sql[300];
		for (int what = 0; what < 2; what++) {
			snprintf(sql, sizeof sql, "SELECT count() AS x FROM %s WHERE src = %lld%s",
				 amd_run_fact_tables[i], (long long)attempt,
				 what ? " AND (isNull(run_id) OR run_id != " : "");
			if (what)
				snprintf(sql + strlen(sql), sizeof sql - strlen(sql), "%lld)",
					 (long long)run);
			int64_t n = query_number(ch, sql, err);
			if (n < 0)
				return -1;
			*(what ? moved : rows) += n;
		}
	}
	return 0;
}

/* 1 when column col of t is Nullable. */
static int nullable(const struct ch_table *t, const char *col, size_t len)
{
	for (const char *c = t->columns; (c = strstr(c, col)) != NULL; c += len)
		if ((c == t->columns || c[-1] == ' ') && strncmp(c + len, " Nullable(", 10) == 0)
			return 1;
	return 0;
}

/* INSERT … SELECT copying t's rows of attempt from into attempt to. */
static int copy_sql(struct amd_buf *b, const struct ch_table *t, int64_t from, int64_t to,
		    int64_t run)
{
	int bad = amd_buf_printf(b, "INSERT INTO %s (%s,src,rn) SELECT ", t->name, t->cols) < 0;
	const char *c = t->cols;
	for (size_t k = 0; !bad && t->kinds[k]; k++) {
		size_t len = strcspn(c, ",");
		if (t->kinds[k] == 's')
			bad = nullable(t, c, len)
				? amd_buf_printf(b, "if(isNull(%.*s), NULL, toInt64(%lld)), ", (int)len, c,
						 (long long)to) < 0
				: amd_buf_printf(b, "toInt64(%lld), ", (long long)to) < 0;
		else if (t->kinds[k] == 'r' && is_run_fact_table(t->name))
			bad = amd_buf_printf(b, "toInt64(%lld), ", (long long)run) < 0;
		else
			bad = amd_buf_printf(b, "%.*s, ", (int)len, c) < 0;
		c += len + (c[len] == ',');
	}
	return bad || amd_buf_printf(b, "toInt64(%lld), rn FROM %s WHERE src = %lld", (long long)to,
				     t->name, (long long)from) < 0 ? -1 : 0;
}

/* A run `--sweep S --run NEW` makes when the store has no NEW in S: a
 * placeholder as the SQLite link makes it (orphans.c): id "name:S/NEW",
 * owned by no source, in sweep S (made when the store has none). */
struct placeholder {
	const char *name, *sweep;
	char ext[512];
};

/* The two INSERTs writing ph into attempt to, after its copied rows
 * (rn: the SQLite link makes them last). */
static int placeholder_sql(struct amd_buf *b, const struct placeholder *ph, int64_t to)
{
	long long sw = (long long)amd_ch_string_id(ph->sweep, strlen(ph->sweep));
	long long run = (long long)amd_ch_string_id(ph->ext, strlen(ph->ext));
	int bad = amd_buf_printf(b, "INSERT INTO sweep (id,name,ext_id,axis,src,rn) SELECT"
				 " toInt64(%lld), ", sw) < 0 || amd_ch_quote(b, ph->sweep) < 0 ||
		  amd_buf_printf(b, ", NULL, NULL, toInt64(%lld), toInt64(%lld) FROM system.one"
				 " WHERE (SELECT count() FROM sweep WHERE id = %lld AND src IN (%s)) = 0",
				 (long long)to, 1LL << 40, sw, amd_ch_committed_sql) < 0 ||
		  amd_buf_append(b, "", 1) < 0;
	size_t second = b->len;
	bad = bad || amd_buf_printf(b, "INSERT INTO run (id,sweep_id,ext_id,name,status,source_id,"
				    "src,rn) VALUES (%lld, %lld, ", run, sw) < 0 ||
	      amd_ch_quote(b, ph->ext) < 0 || amd_buf_append(b, ", ", 2) < 0 ||
	      amd_ch_quote(b, ph->name) < 0 ||
	      amd_buf_printf(b, ", 0, NULL, %lld, %lld)", (long long)to, 1LL << 40) < 0 ||
	      amd_buf_append(b, "", 1) < 0;
	return bad ? -1 : (int)second;
}

/* The attempt from copied into to with its rows of the run tables
 * moved to run (with the placeholder ph when not NULL), committed, and
 * from deleted. */
static int copy_attempt(struct amd_ch *ch, const char *path, int64_t from, int64_t to,
			int64_t run, const struct placeholder *ph, struct amd_err *err)
{
	struct amd_buf sql = {0};
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < amd_ch_table_count; i++) {
		sql.len = 0;
		rc = copy_sql(&sql, &amd_ch_tables[i], from, to, run) < 0 ||
			     amd_buf_append(&sql, "", 1) < 0
			     ? amd_fail(err, "%s: out of memory", path)
			     : amd_ch_query(ch, sql.data, NULL, err);
	}
	if (rc == 0 && ph) {
		sql.len = 0;
		int second = placeholder_sql(&sql, ph, to);
		rc = second < 0 ? amd_fail(err, "%s: out of memory", path)
			: amd_ch_query(ch, sql.data, NULL, err) < 0 ? -1
			: amd_ch_query(ch, sql.data + second, NULL, err);
	}
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	long long ns = (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
	sql.len = 0;
	if (rc == 0)
		rc = amd_buf_printf(&sql, "INSERT INTO source (id, path, kind, size, sha256,"
				    " ingested_at, committed_ns) SELECT toInt64(%lld), path, kind, size,"
				    " sha256, ingested_at, toInt64(%lld) FROM source WHERE id = %lld",
				    (long long)to, ns, (long long)from) < 0
			     ? amd_fail(err, "%s: out of memory", path)
			     : amd_ch_query(ch, sql.data, NULL, err);
	amd_buf_free(&sql);
	if (rc < 0)
		return amd_fail_prefix(err, "%s", path);
	return amd_ch_drop_replaced(ch, path, to, ns, err);
}

int amd_ch_relink(struct amd_ch *ch, const char *path, const char *run, const char *sweep,
		  int create, struct amd_err *err)
{
	struct amd_buf sql = {0};
	/* the path's latest commit, unless it was forgotten (ch_ship.h) */
	int64_t attempt = amd_buf_printf(&sql, "SELECT argMax(id, (committed_ns, id)) AS x"
					 " FROM source WHERE path = ") < 0 ||
				  amd_ch_quote(&sql, path) < 0 ||
				  amd_buf_printf(&sql, " HAVING argMax(sha256, (committed_ns, id))"
						 " != ''") < 0 || amd_buf_append(&sql, "", 1) < 0
				  ? amd_fail(err, "%s: out of memory", path)
				  : query_number(ch, sql.data, err);
	amd_buf_free(&sql);
	if (attempt == 0)
		return amd_fail(err, "%s: not in the store %s; ingest it first", path,
				amd_ch_name(ch));
	int64_t rid = attempt < 0 ? -1 : run_chid(ch, path, run, sweep, err);
	struct placeholder ph = {run, sweep, ""}, *make = NULL;
	if (rid == 0 && create && sweep) {
		snprintf(ph.ext, sizeof ph.ext, "name:%s/%s", sweep, run);
		rid = amd_ch_string_id(ph.ext, strlen(ph.ext));
		make = &ph;
		err->msg[0] = '\0'; /* run_chid's "no run": made here instead */
	}
	int64_t rows, moved;
	if (rid <= 0 || count_rows(ch, attempt, rid, &rows, &moved, err) < 0)
		return -1;
	if (rows == 0)
		return AMD_LINK_NOTHING;
	if (moved == 0)
		return AMD_LINK_ALREADY;
	return copy_attempt(ch, path, attempt, amd_ch_new_attempt(), rid, make, err) < 0
		       ? -1 : AMD_LINK_DONE;
}
