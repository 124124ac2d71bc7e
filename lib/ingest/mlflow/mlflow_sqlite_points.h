/* mlflow_sqlite_points.h — one run's metric points out of mlflow.db
 * (mlflow_sqlite.c), read on two connections when the run is long: the
 * second half of its rows (by rowid) on a thread of its own into a
 * bounded queue, handed to the sink after the first half, so the sink
 * gets every point in MLflow's logged (rowid) order either way.
 * (SQL on a foreign database, as in mlflow_sqlite.c.) */
#ifndef AMD_MLFLOW_SQLITE_POINTS_H
#define AMD_MLFLOW_SQLITE_POINTS_H

#include <sqlite3.h>

#include "ingest.h"

struct amd_mlpoints {
	sqlite3 *db;
	const char *path;
	struct amd_sink *sink;
	/* "SELECT key, value, timestamp, step, is_nan FROM metrics" with the
	 * columns MLflow's version has (NULL for missing optional ones) */
	char select[600];
	sqlite3_stmt *all;    /* ... WHERE run_uuid=?1 */
	sqlite3_stmt *below;  /* ... WHERE run_uuid=?1 AND rowid<?2, or NULL */
	sqlite3_stmt *lo, *hi; /* the run's first and last rowid */
	int can_split;         /* rowids usable and no WAL (one snapshot) */
};

/* Prepares the statements on db for select; -1 with err. */
int amd_mlpoints_prepare(struct amd_mlpoints *p, struct amd_err *err);
/* Every metric point of run into p->sink, in rowid order; -1 with err
 * (a text value, a read error, the sink's -1). */
int amd_mlpoints_run(struct amd_mlpoints *p, const char *run, struct amd_err *err);
void amd_mlpoints_free(struct amd_mlpoints *p);

#endif
