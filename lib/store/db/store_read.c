/* store_read.c — amd_store_read_begin/end (store_read.h): a named
 * savepoint, which outside a transaction is a deferred BEGIN; the
 * shared region scan's switch, off (its kept half dropped) when the
 * outermost ends. */
#include "store_read.h"
#include "sqlite_int.h"

int amd_store_read_begin(struct amd_store *st, struct amd_err *err)
{
	return amd_store_exec(st, "SAVEPOINT amd_read", err);
}

void amd_store_read_end(struct amd_store *st)
{
	struct amd_err ignored;
	(void)amd_store_exec(st, "RELEASE amd_read", &ignored); /* reads only: cannot fail to commit */
	if (sqlite3_get_autocommit(st->db)) { /* the outermost: the snapshot is gone */
		amd_store_drop_region_stash(st);
		st->share_regions = 0;
	}
}

void amd_store_read_share_regions(struct amd_store *st)
{
	st->share_regions = 1;
}
