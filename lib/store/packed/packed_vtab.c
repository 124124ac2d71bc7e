/* packed_vtab.c — the packed virtual tables' shared parts (packed_vtab.h).
 * Compiled into the library, and again with AMD_SQLITE_EXT for the
 * `sqlite3` shell's loadable extension (metric_ext.c). */
#ifdef AMD_SQLITE_EXT
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT3
#endif
#include "packed_vtab.h"

#include <math.h>
#include <string.h>

int amd_packed_vtab_connect(sqlite3 *db, const char *schema, sqlite3_vtab **out)
{
	int rc = sqlite3_declare_vtab(db, schema);
	if (rc != SQLITE_OK)
		return rc;
	struct amd_packed_vtab *v = sqlite3_malloc(sizeof *v);
	if (!v)
		return SQLITE_NOMEM;
	memset(v, 0, sizeof *v);
	v->db = db;
	*out = &v->base;
	return SQLITE_OK;
}

int amd_packed_vtab_disconnect(sqlite3_vtab *v)
{
	sqlite3_free(v);
	return SQLITE_OK;
}

int amd_packed_cursor_open(size_t size, sqlite3_vtab_cursor **out)
{
	sqlite3_vtab_cursor *c = sqlite3_malloc64(size);
	if (!c)
		return SQLITE_NOMEM;
	memset(c, 0, size);
	*out = c;
	return SQLITE_OK;
}

int amd_packed_vtab_corrupt(sqlite3_vtab_cursor *cur, const char *msg)
{
	sqlite3_vtab *v = cur->pVtab;
	sqlite3_free(v->zErrMsg);
	v->zErrMsg = sqlite3_mprintf("%s", msg);
	return SQLITE_CORRUPT;
}

void amd_packed_result_double(sqlite3_context *ctx, double v)
{
	if (isnan(v))
		sqlite3_result_null(ctx);
	else
		sqlite3_result_double(ctx, v);
}
