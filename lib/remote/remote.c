/* remote.c — the remote backends' table and the one place that decides
 * whether a store location is remote (remote.h): each function asks the
 * table once and calls the backend's operation (remote_ops.h), or
 * lib/store's SQLite function for a file. A second backend is one file
 * defining its struct amd_remote_ops and one row here. */
#include "remote.h"
#include "remote_ops.h"

#include <unistd.h>

#include "orphans.h"
#include "sqlite_setup.h"
#include "user_sql.h"
#include "writer.h"

static const struct amd_remote_ops *const backends[] = {
	&amd_clickhouse_ops,
};

const struct amd_remote_ops *amd_remote_find(const char *location)
{
	for (size_t i = 0; i < sizeof backends / sizeof *backends; i++)
		if (backends[i]->claims(location))
			return backends[i];
	return NULL;
}

/* A read of location: a backend loads what the names and tables select;
 * a SQLite file is read in place, whole. */
static int open_read(const char *location, const char *const *names, size_t n,
		     const char *const *tables, size_t ntables, const char *const *keys,
		     size_t nkeys, int how, struct amd_store **out, struct amd_err *err)
{
	const struct amd_remote_ops *r = amd_remote_find(location);
	if (r)
		return r->open_read(location, names, n, tables, ntables, keys, nkeys, how,
				    out, err);
	return amd_store_open(location, AMD_STORE_READ, out, err);
}

int amd_location_open_read(const char *location, const char *const *names, size_t n,
			   struct amd_store **out, struct amd_err *err)
{
	return open_read(location, names, n, NULL, 0, NULL, 0, 0, out, err);
}

int amd_location_open_metrics(const char *location, const char *const *names, size_t n,
			      const char *const *keys, size_t nkeys, struct amd_store **out,
			      struct amd_err *err)
{
	return open_read(location, names, n, NULL, 0, keys, nkeys, 0, out, err);
}

int amd_location_open_run_values(const char *location, const char *const *names, size_t n,
				 const char *const *keys, size_t nkeys, struct amd_store **out,
				 struct amd_err *err)
{
	return open_read(location, names, n, NULL, 0, keys, nkeys, AMD_READ_RUN_VALUES, out, err);
}

int amd_location_open_tables(const char *location, const char *const *tables, size_t n,
			     struct amd_store **out, struct amd_err *err)
{
	return open_read(location, NULL, 0, tables, n, NULL, 0, 0, out, err);
}

int amd_location_open_orphans_of(const char *location, const char *const *paths, size_t n,
				 const char *const *tables, size_t ntables,
				 struct amd_store **out, struct amd_err *err)
{
	return open_read(location, paths, n, tables, ntables, NULL, 0, AMD_READ_ORPHANS_OF, out,
			 err);
}

int amd_location_open_key_sets(const char *location, const char *const *names, size_t n,
			       const char *const *tables, size_t ntables, struct amd_store **out,
			       struct amd_err *err)
{
	return open_read(location, names, n, tables, ntables, NULL, 0, AMD_READ_KEY_SETS, out, err);
}

int amd_location_open_region_sums(const char *location, const char *const *names, size_t n,
				  const char *const *tables, size_t ntables,
				  struct amd_store **out, struct amd_err *err)
{
	return open_read(location, names, n, tables, ntables, NULL, 0,
			 AMD_READ_KEY_SETS | AMD_READ_REGION_SUMS, out, err);
}

void amd_location_prepare_write(const char *location)
{
	amd_sqlite_setup(amd_remote_find(location) ? AMD_SQLITE_ANY : AMD_SQLITE_INGEST);
}

int amd_location_exists(const char *location, struct amd_err *err)
{
	const struct amd_remote_ops *r = amd_remote_find(location);
	return r ? r->exists(location, err) : access(location, F_OK) == 0;
}

int amd_location_settle(const char *location, struct amd_err *err)
{
	return amd_remote_find(location) ? 0 : amd_store_settle(location, err);
}

struct amd_ingest_target amd_location_target(const char *location)
{
	const struct amd_remote_ops *r = amd_remote_find(location);
	return r ? r->target(location) : amd_store_target(location);
}

int amd_location_drop_if_new(const char *location, int64_t since, struct amd_err *err)
{
	const struct amd_remote_ops *r = amd_remote_find(location);
	return r ? r->drop_if_new(location, since, err) : 0;
}

int amd_location_sql(const char *location, const char *sql, struct amd_buf *out,
		     struct amd_err *err)
{
	const struct amd_remote_ops *r = amd_remote_find(location);
	return r ? r->sql(location, sql, out, err) : amd_store_sql(location, sql, out, err);
}

int amd_location_link(const char *location, const struct amd_config *cfg, const char *path,
		      const char *run, const char *sweep, struct amd_err *err)
{
	const struct amd_remote_ops *r = amd_remote_find(location);
	return r ? r->link(location, path, run, sweep, err)
		 : amd_store_link_at(location, cfg, path, run, sweep, err);
}

/* "a ClickHouse store (clickhouse://[user@]host:port/database)", one
 * per backend joined by " or " (short: the scheme and "…" only), for
 * the message of a location no backend claims. */
static int backend_forms(struct amd_buf *b, int short_form)
{
	for (size_t i = 0; i < sizeof backends / sizeof *backends; i++)
		if (amd_buf_printf(b, "%sa %s store (%s%s)", i ? " or " : "", backends[i]->name,
				   short_form ? backends[i]->scheme : backends[i]->form,
				   short_form ? "…" : "") < 0)
			return -1;
	return 0;
}

/* err: "LOCATION: WHAT FORMS[TAIL]", the forms backend_forms gives. */
static int fail_unclaimed(const char *location, const char *what, int short_form,
			  const char *tail, struct amd_err *err)
{
	struct amd_buf b = {0};
	if (backend_forms(&b, short_form) < 0) {
		amd_buf_free(&b);
		return amd_fail(err, "%s: out of memory", location);
	}
	amd_fail(err, "%s: %s %s%s", location, what, b.data, tail);
	amd_buf_free(&b);
	return -1;
}

int amd_remote_push(const char *local, const char *to, const char *sweep,
		    struct amd_push_counts *counts, struct amd_err *err)
{
	*counts = (struct amd_push_counts){0};
	const struct amd_remote_ops *r = amd_remote_find(to);
	if (!r)
		return fail_unclaimed(to, "push goes to", 0, "", err);
	if (amd_remote_find(local))
		return amd_fail(err, "%s: push reads a local SQLite store (--store FILE)", local);
	return r->push(local, to, sweep, counts, err);
}

int amd_remote_pull(const char *from, const char *sweep, const char *to, size_t *nsources,
		    struct amd_err *err)
{
	*nsources = 0;
	const struct amd_remote_ops *r = amd_remote_find(from);
	if (!r)
		return fail_unclaimed(from, "pull reads", 1, "; a SQLite store is copied with cp",
				      err);
	return amd_remote_pull_copy(r, from, sweep, to, nsources, err);
}
