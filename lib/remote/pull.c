/* pull.c — `amdahl pull` (remote.h's amd_remote_pull): the remote store
 * loaded into an in-memory SQLite store by the backend's reading path
 * (on ClickHouse ch_load.c, scoped by ch_scope.c), and that database's
 * image written whole as the output file (outfile.h), so the copy
 * answers every command as the remote store does. Only a new or empty
 * file or an amdahl store is replaced (store.h). */
#include "remote_ops.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "outfile.h"
#include "table_load.h"

/* A store file whose write-ahead log is not empty is in use (or was left
 * by a crash): replacing the file under it would mix the two. */
static int check_target(const char *to, struct amd_err *err)
{
	char wal[4096];
	struct stat sb;
	if (snprintf(wal, sizeof wal, "%s-wal", to) >= (int)sizeof wal)
		return amd_fail(err, "%s: path too long", to);
	if (lstat(wal, &sb) == 0 && (!S_ISREG(sb.st_mode) || sb.st_size > 0))
		return amd_fail(err, "%s: its write-ahead log %s is not empty: a process has the "
				     "store open; not replaced", to, wal);
	return 0;
}

static int write_image(struct amd_store *st, const char *to, struct amd_err *err)
{
	struct amd_out o;
	if (amd_out_open_path(&o, to, err) < 0)
		return -1;
	if (amd_store_write_image(st, o.f, to, err) < 0) {
		amd_out_discard(&o);
		return -1;
	}
	return amd_out_commit(&o, err);
}

int amd_remote_pull_copy(const struct amd_remote_ops *r, const char *url, const char *sweep,
			 const char *to, size_t *nsources, struct amd_err *err)
{
	if (check_target(to, err) < 0 || amd_store_check_replace(to, err) < 0)
		return -1;
	const char *names[] = {sweep};
	struct amd_store *st;
	/* a copy holds its sources whole, as the server does */
	if (r->open_read(url, names, sweep ? 1 : 0, NULL, 0, NULL, 0, AMD_READ_WHOLE_SOURCES, &st,
			 err) < 0)
		return -1;
	int rc = 0;
	if (sweep) {
		int64_t id = amd_store_sweep_id(st, sweep, err);
		if (id == 0)
			amd_fail(err, "%s: no sweep named %s", url, sweep);
		rc = id > 0 ? 0 : -1;
	}
	int64_t n = rc == 0 ? amd_store_source_count(st, err) : 0;
	if (n < 0)
		rc = -1;
	/* the copy's schema dates from its newest source, not from the
	 * second it was pulled: pulling an unchanged store again gives the
	 * same bytes */
	if (rc == 0)
		rc = amd_store_date_from_sources(st, err);
	if (rc == 0)
		rc = write_image(st, to, err);
	if (rc == 0)
		*nsources = (size_t)n;
	amd_store_close(st);
	return rc;
}
