/* ch_schema.c — the ClickHouse store's schema (ch_schema.h). Tables are
 * MergeTree, sorted by the keys readers filter on; strings with a global
 * identity are ids computed on the client (ch_tables.c), so the only
 * free-text columns left are a source's path and kind; kind is
 * LowCardinality where the server has it as a stable type (19.x on). */
#include "ch_schema.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ch_load.h"
#include "ch_tables.h"

int amd_ch_schema_target(void)
{
	int v = 1;
	for (size_t i = 0; i < amd_ch_table_count; i++)
		if (amd_ch_tables[i].since > v)
			v = amd_ch_tables[i].since;
	for (size_t i = 0; i < amd_ch_added_column_count; i++)
		if (amd_ch_added_columns[i].since > v)
			v = amd_ch_added_columns[i].since;
	return v;
}

/* The first integer of the server's answer to sql, or -1 (err set). */
static long query_long(struct amd_ch *ch, const char *sql, int in_db, struct amd_err *err)
{
	struct amd_buf out = {0};
	if (amd_ch_run(ch, sql, NULL, 0, in_db, &out, err) < 0)
		return -1;
	long v = out.len ? strtol(out.data, NULL, 10) : 0;
	amd_buf_free(&out);
	return v;
}

/* Rows a granule of the primary index covers: ClickHouse's default, and
 * source's. A look-up of a few paths (an ingest's state list, a read's
 * sources) reads whole granules of source, which holds a row per
 * committed attempt: at 400,000 sources a 16-path look-up read 111,819
 * rows (14.1 MB) in 8,192-row granules, 4,113 (0.52 MB) in 256-row ones.
 * A store created before keeps 8,192 (the setting is fixed at CREATE). */
#define DEFAULT_GRANULE 8192
#define SOURCE_GRANULE 256

/* Runs a CREATE … IF NOT EXISTS: another host creating the same object
 * at the same moment can make the server say it already exists. */
static int create(struct amd_ch *ch, const char *sql, int in_db, struct amd_err *err)
{
	if (amd_ch_run(ch, sql, NULL, 0, in_db, NULL, err) == 0)
		return 0;
	return strstr(err->msg, "already exists") ? 0 : -1;
}

/* Creates store table name (columns, sort key order_by, granules of
 * granule rows). On one server a MergeTree table; on a cluster
 * (clickhouse.h amd_ch_cluster) a ReplicatedMergeTree table name_local
 * on every node, replicated within its shard through ZooKeeper, and the
 * Distributed table name over them, sharded by shard_key so that one
 * ingest attempt's rows (src, or the source row's id) live on one
 * shard. */
static int create_store_table(struct amd_ch *ch, const char *name, const char *columns,
			      const char *order_by, const char *shard_key, int granule,
			      struct amd_err *err)
{
	const char *c = amd_ch_cluster(ch), *db = amd_ch_database(ch);
	char *local = NULL, *dist = NULL;
	int bad = c ? asprintf(&local, "CREATE TABLE IF NOT EXISTS %s.%s_local ON CLUSTER %s (%s)"
			       " ENGINE = ReplicatedMergeTree('/clickhouse/tables/{shard}/%s/%s',"
			       " '{replica}') ORDER BY %s SETTINGS index_granularity = %d", db, name,
			       c, columns, db, name, order_by, granule) < 0 ||
			asprintf(&dist, "CREATE TABLE IF NOT EXISTS %s.%s ON CLUSTER %s AS %s.%s_local"
				 " ENGINE = Distributed(%s, %s, %s_local, %s)", db, name, c, db, name,
				 c, db, name, shard_key) < 0
		    : asprintf(&local, "CREATE TABLE IF NOT EXISTS %s (%s) ENGINE = MergeTree"
			       " ORDER BY %s SETTINGS index_granularity = %d", name, columns,
			       order_by, granule) < 0;
	int rc = bad ? amd_fail(err, "%s: out of memory", amd_ch_name(ch))
		     : create(ch, local, 1, err) < 0 || (dist && create(ch, dist, 1, err) < 0) ? -1 : 0;
	if (bad)
		local = dist = NULL;
	free(local);
	free(dist);
	return rc;
}

static int create_table(struct amd_ch *ch, const struct ch_table *t, struct amd_err *err)
{
	char *cols = NULL;
	if (asprintf(&cols, "%s, src Int64, rn Int64", t->columns) < 0)
		return amd_fail(err, "%s: out of memory", amd_ch_name(ch));
	int rc = create_store_table(ch, t->name, cols, t->order_by, "src", DEFAULT_GRANULE, err);
	free(cols);
	return rc;
}

int amd_ch_alter(struct amd_ch *ch, const char *table, int both, const char *clause,
		 struct amd_err *err)
{
	const char *c = amd_ch_cluster(ch), *db = amd_ch_database(ch);
	char *sql = NULL;
	int rc = 0;
	if (!c) {
		rc = asprintf(&sql, "ALTER TABLE %s %s", table, clause) < 0
			? amd_fail(err, "%s: out of memory", amd_ch_name(ch))
			: amd_ch_run(ch, sql, NULL, 0, 1, NULL, err);
		free(sql);
		return rc;
	}
	for (int local = 1; rc == 0 && local >= !both; local--) {
		rc = asprintf(&sql, "ALTER TABLE %s.%s%s ON CLUSTER %s %s", db, table,
			      local ? "_local" : "", c, clause) < 0
			? amd_fail(err, "%s: out of memory", amd_ch_name(ch))
			: amd_ch_run(ch, sql, NULL, 0, 1, NULL, err);
		free(sql);
		sql = NULL;
	}
	return rc;
}

/* Drops store table name (on a cluster, its Distributed table, then
 * its local tables on every node). */
static int drop_store_table(struct amd_ch *ch, const char *name, struct amd_err *err)
{
	const char *c = amd_ch_cluster(ch), *db = amd_ch_database(ch);
	char sql[400];
	if (!c) {
		snprintf(sql, sizeof sql, "DROP TABLE IF EXISTS %s", name);
		return amd_ch_query(ch, sql, NULL, err);
	}
	snprintf(sql, sizeof sql, "DROP TABLE IF EXISTS %s.%s ON CLUSTER %s", db, name, c);
	if (amd_ch_query(ch, sql, NULL, err) < 0)
		return -1;
	if (strcmp(name, "committed") == 0)
		return 0;
	snprintf(sql, sizeof sql, "DROP TABLE IF EXISTS %s.%s_local ON CLUSTER %s", db, name, c);
	return amd_ch_query(ch, sql, NULL, err);
}

/* Adds column c to its table unless the table has it (made with it,
 * or by another host migrating at the same moment: older servers know
 * no ADD COLUMN IF NOT EXISTS). */
static int add_column(struct amd_ch *ch, const struct ch_added_column *c, struct amd_err *err)
{
	char has[400];
	snprintf(has, sizeof has, "SELECT count() FROM system.columns WHERE database = '%s'"
		 " AND table = '%s' AND name = '%s'", amd_ch_database(ch), c->table, c->name);
	long n = query_long(ch, has, 0, err);
	if (n != 0)
		return n < 0 ? -1 : 0;
	char *clause = NULL;
	if (asprintf(&clause, "ADD COLUMN %s %s", c->name, c->type) < 0)
		return amd_fail(err, "%s: out of memory", amd_ch_name(ch));
	int rc = amd_ch_alter(ch, c->table, 1, clause, err);
	free(clause);
	return rc == 0 || strstr(err->msg, "already exists") ? 0 : -1;
}

static int create_base(struct amd_ch *ch, struct amd_err *err)
{
	long major = query_long(ch, "SELECT toUInt32(splitByChar('.', version())[1])", 0, err);
	if (major < 0)
		return -1;
	const char *c = amd_ch_cluster(ch);
	char db[300], source[300];
	snprintf(db, sizeof db, "CREATE DATABASE IF NOT EXISTS %s%s%s", amd_ch_database(ch),
		 c ? " ON CLUSTER " : "", c ? c : "");
	/* one row per committed ingest attempt, written after all its rows */
	snprintf(source, sizeof source, "id Int64, path String, kind %s, size Int64,"
		 " sha256 String, ingested_at Int64, committed_ns Int64",
		 major >= 19 ? "LowCardinality(String)" : "String");
	if (create(ch, db, 0, err) < 0 ||
	    create_store_table(ch, "schema_version", "version Int32, applied_at DateTime",
			       "version", "version", DEFAULT_GRANULE, err) < 0 ||
	    create_store_table(ch, "source", source, "(path, id)", "id", SOURCE_GRANULE, err) < 0)
		return -1;
	/* for `amdahl sql`: the attempts readers see (WHERE src IN committed) */
	struct amd_buf view = {0};
	/* on a cluster its table is named with the database: each node
	 * resolves the view where it runs the DDL */
	const char *from = strstr(amd_ch_committed_sql, "FROM source ");
	int head = from ? (int)(from - amd_ch_committed_sql) + 5 : 0;
	int bad = c ? amd_buf_printf(&view, "CREATE VIEW IF NOT EXISTS %s.committed ON CLUSTER %s"
				     " AS %.*s%s.%s", amd_ch_database(ch), c, head,
				     amd_ch_committed_sql, amd_ch_database(ch),
				     amd_ch_committed_sql + head) < 0
		    : amd_buf_printf(&view, "CREATE VIEW IF NOT EXISTS committed AS %s",
				     amd_ch_committed_sql) < 0;
	int rc = bad
		? amd_fail(err, "%s: out of memory", amd_ch_name(ch))
		: create(ch, view.data, 1, err);
	amd_buf_free(&view);
	return rc;
}

/* 1 when the store at ch exists at this amdahl's version, 0, -1. */
static int current(struct amd_ch *ch, struct amd_err *err);
static int writable(struct amd_ch *ch, struct amd_err *err);

int amd_ch_migrate(struct amd_ch *ch, struct amd_err *err)
{
	/* on a cluster, DDL ON CLUSTER waits for every node: a store that
	 * is current is left alone, so an ingest goes on with a node down */
	int up = amd_ch_cluster(ch) ? current(ch, err) : 0;
	if (up != 0)
		return up < 0 ? -1 : writable(ch, err);
	if (create_base(ch, err) < 0)
		return -1;
	long have = query_long(ch, "SELECT max(version) FROM schema_version", 1, err);
	if (have < 0)
		return -1;
	int target = amd_ch_schema_target();
	if (have > target)
		return amd_fail(err, "%s: store has schema version %ld, this amdahl knows up"
				" to %d; use a newer amdahl", amd_ch_name(ch), have, target);
	for (int v = (int)have + 1; v <= target; v++) {
		for (size_t i = 0; i < amd_ch_table_count; i++)
			if (amd_ch_tables[i].since == v && create_table(ch, &amd_ch_tables[i], err) < 0)
				return -1;
		for (size_t i = 0; i < amd_ch_added_column_count; i++)
			if (amd_ch_added_columns[i].since == v &&
			    add_column(ch, &amd_ch_added_columns[i], err) < 0)
				return -1;
		char bump[128];
		snprintf(bump, sizeof bump, "INSERT INTO schema_version VALUES (%d, now())", v);
		if (amd_ch_query(ch, bump, NULL, err) < 0)
			return -1;
	}
	return 0;
}

/* 1 when the database holds a store (its schema_version table), 0, -1. */
static int has_store(struct amd_ch *ch, struct amd_err *err)
{
	char sql[300];
	snprintf(sql, sizeof sql, "SELECT count() FROM system.tables WHERE database = '%s'"
		 " AND name = 'schema_version'", amd_ch_database(ch));
	long exists = query_long(ch, sql, 0, err);
	return exists < 0 ? -1 : exists > 0;
}

static int current(struct amd_ch *ch, struct amd_err *err)
{
	int exists = has_store(ch, err);
	if (exists <= 0)
		return exists;
	long v = query_long(ch, "SELECT max(version) FROM schema_version", 1, err);
	return v < 0 ? -1 : v == amd_ch_schema_target();
}

/* 0 when the user may write, else -1 with one line saying it is not
 * (as the server's refusal of a CREATE says on one server). */
static int writable(struct amd_ch *ch, struct amd_err *err)
{
	long ro = query_long(ch, "SELECT toUInt32(value) FROM system.settings WHERE"
			     " name = 'readonly'", 0, err);
	if (ro < 0)
		return -1;
	return ro ? amd_fail(err, "%s: this user is read-only on the server (readonly=%ld);"
			     " ingest needs a user that may write", amd_ch_name(ch), ro) : 0;
}

int amd_ch_store_exists(const char *url, struct amd_err *err)
{
	struct amd_ch *ch = NULL;
	if (amd_ch_open(url, &ch, err) < 0)
		return -1;
	int rc = has_store(ch, err);
	amd_ch_close(ch);
	return rc;
}

int amd_ch_check_version(struct amd_ch *ch, struct amd_err *err)
{
	int exists = has_store(ch, err);
	if (exists < 0)
		return -1;
	if (exists == 0)
		return amd_fail(err, "%s: no store here; run 'amdahl ingest PATH' first",
				amd_ch_name(ch));
	long v = query_long(ch, "SELECT max(version) FROM schema_version", 1, err);
	if (v < 0)
		return -1;
	int target = amd_ch_schema_target();
	if (v > target)
		return amd_fail(err, "%s: store has schema version %ld, this amdahl knows up to %d",
				amd_ch_name(ch), v, target);
	if (v < target)
		return amd_fail(err, "%s: store has schema version %ld; run any 'amdahl ingest'"
				" on it to migrate to %d", amd_ch_name(ch), v, target);
	return 0;
}

/* 1 when the store at ch is new and empty: a schema made at or after
 * since and no committed source; 0 when not (or no store); -1. */
static int new_and_empty(struct amd_ch *ch, int64_t since, struct amd_err *err)
{
	char sql[300];
	snprintf(sql, sizeof sql, "SELECT count() FROM system.tables WHERE database = '%s'"
		 " AND name IN ('schema_version', 'source')", amd_ch_database(ch));
	long tables = query_long(ch, sql, 0, err);
	if (tables < 2)
		return tables < 0 ? -1 : 0;
	snprintf(sql, sizeof sql, "SELECT count() FROM schema_version WHERE applied_at"
		 " < toDateTime(%lld)", (long long)since);
	long older = query_long(ch, sql, 1, err);
	long held = older ? older : query_long(ch, "SELECT count() FROM source", 1, err);
	if (older < 0 || held < 0)
		return -1;
	return older == 0 && held == 0;
}

int amd_ch_drop_if_new(const char *url, int64_t since, struct amd_err *err)
{
	struct amd_ch *ch = NULL;
	if (amd_ch_open(url, &ch, err) < 0)
		return -1;
	int rc = new_and_empty(ch, since, err);
	if (rc != 1) {
		amd_ch_close(ch);
		return rc;
	}
	/* the view first, schema_version last: a store is one until then */
	rc = drop_store_table(ch, "committed", err);
	for (size_t i = 0; rc == 0 && i < amd_ch_table_count; i++)
		rc = drop_store_table(ch, amd_ch_tables[i].name, err);
	if (rc == 0)
		rc = drop_store_table(ch, "source", err);
	if (rc == 0)
		rc = drop_store_table(ch, "schema_version", err);
	amd_ch_close(ch);
	return rc < 0 ? -1 : 0;
}
