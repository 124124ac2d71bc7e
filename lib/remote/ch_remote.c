/* ch_remote.c — the ClickHouse backend's row of operations
 * (remote_ops.h): its locations (clickhouse.h's amd_ch_is_url), reads
 * loaded into memory (ch_load.c), the ingest target (ch_target.c),
 * the schema's drop (ch_schema.c), user SQL and relinking on the server
 * (ch_http.c, ch_relink.c) and push (ch_push.c). */
#include "remote_ops.h"

#include "ch_load.h"
#include "ch_push.h"
#include "ch_relink.h"
#include "ch_schema.h"
#include "ch_target.h"
#include "clickhouse.h"

/* The server runs it with readonly=1, where the event-level tables and
 * every ingest attempt are (the view `committed` lists the visible ones). */
static int ch_sql(const char *url, const char *sql, struct amd_buf *out, struct amd_err *err)
{
	struct amd_ch *ch = NULL;
	if (amd_ch_open(url, &ch, err) < 0)
		return -1;
	int rc = amd_ch_user_query(ch, sql, out, err);
	amd_ch_close(ch);
	return rc;
}

static int ch_link(const char *url, const char *path, const char *run, const char *sweep,
		   struct amd_err *err)
{
	struct amd_ch *ch = NULL;
	if (amd_ch_open(url, &ch, err) < 0)
		return -1;
	int rc = amd_ch_relink(ch, path, run, sweep, 0, err);
	amd_ch_close(ch);
	return rc;
}

const struct amd_remote_ops amd_clickhouse_ops = {
	.name = "ClickHouse",
	.scheme = "clickhouse://",
	.form = "clickhouse://[user@]host:port/database",
	.claims = amd_ch_is_url,
	.open_read = amd_ch_store_open_read,
	.exists = amd_ch_store_exists,
	.target = amd_ch_target,
	.drop_if_new = amd_ch_drop_if_new,
	.sql = ch_sql,
	.link = ch_link,
	.push = amd_ch_push,
};
