/* metric_ext.c — the `sqlite3` shell's view of amdahl's packed metric
 * series: a loadable extension (built as amdahl_metric.so next to the
 * amdahl binary, compiled with AMD_SQLITE_EXT; this file is empty in the
 * library) registering the metric_point virtual table and the
 * amd_metric_pack aggregate of metric_sql.h:
 *   sqlite3 -cmd '.load build/amdahl_metric' amdahl.db
 *     'SELECT count(*) FROM metric_point' */
#ifdef AMD_SQLITE_EXT
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT1

#include "metric_sql.h"

int sqlite3_amdahlmetric_init(sqlite3 *db, char **msg, const sqlite3_api_routines *api);

int sqlite3_amdahlmetric_init(sqlite3 *db, char **msg, const sqlite3_api_routines *api)
{
	SQLITE_EXTENSION_INIT2(api);
	return amd_metric_sql_register(db);
}
#else
typedef int amd_metric_ext_empty; /* a translation unit is not empty */
#endif
