/* ch_relink.h — `ingest --run RUN FILE` for a file a ClickHouse store
 * already holds: its facts moved to RUN without reading the file again,
 * as amd_store_link_source does in a SQLite store (orphans.h). */
#ifndef AMD_CH_RELINK_H
#define AMD_CH_RELINK_H

#include "clickhouse.h"

/* Links the committed source at path to run (its id, or the newest run
 * of that name, in sweep when not NULL) on ch's store: enum
 * amd_link_result (orphans.h), or -1 with err filled. With create and a
 * sweep, a run the store lacks is made there, a placeholder owned by no
 * source (`ingest --sweep S --run NEW`, as amd_store_link_source). */
int amd_ch_relink(struct amd_ch *ch, const char *path, const char *run, const char *sweep,
		  int create, struct amd_err *err);

#endif
