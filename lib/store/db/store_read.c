/* store_read.c — amd_store_read_begin/end (store_read.h): a named
 * savepoint, which outside a transaction is a deferred BEGIN. */
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
}
