/* target.c — the SQLite store as an ingest target (model/sink.h): the
 * workers' one connection, used in turns (write_gate.h), the
 * source-state check, and one writer (a store sink in its own
 * transaction) per unit. */
#include "orphans.h"
#include "write_gate.h"
#include "writer.h"

#include "ch_target.h"
#include "clickhouse.h"

static int target_prepare(void *ctx, struct amd_err *err)
{
	struct amd_store *st = NULL;
	if (amd_store_open(ctx, AMD_STORE_WRITE, &st, err) < 0)
		return -1;
	amd_store_close(st);
	return 0;
}

/* Every worker's connection is the one of the store's write gate
 * (write_gate.h), used in turns. */
static void *target_connect(void *ctx, struct amd_err *err)
{
	return amd_write_gate_open(ctx, err);
}

static void target_disconnect(void *conn)
{
	amd_write_gate_close(conn);
}

static int target_state(void *conn, const char *path, const char *sha, struct amd_err *err)
{
	amd_write_gate_enter(conn);
	int rc = amd_store_source_state(amd_write_gate_store(conn), path, sha, NULL, 0, err);
	amd_write_gate_leave(conn);
	return rc;
}

static struct amd_unit_writer *target_begin(void *conn, const struct amd_unit_info *u,
					    struct amd_err *err)
{
	struct amd_store_sink *ss = amd_store_sink_new(amd_write_gate_store(conn), u->path,
						       u->kind, u->sha256, u->size,
						       u->sweep_override, u->config);
	if (!ss)
		amd_fail(err, "%s: out of memory", u->path);
	return (struct amd_unit_writer *)ss;
}

static struct amd_sink *target_sink(struct amd_unit_writer *w)
{
	return amd_store_sink_iface((struct amd_store_sink *)w);
}

static int target_finish(struct amd_unit_writer *w, enum amd_source_state *state,
			 struct amd_err *err)
{
	return amd_store_sink_finish((struct amd_store_sink *)w, state, err);
}

static void target_rollback(struct amd_unit_writer *w)
{
	amd_store_sink_abort((struct amd_store_sink *)w);
}

static int target_link(void *conn, const char *path, const char *run, const char *sweep,
		       const struct amd_config *cfg, struct amd_err *err)
{
	amd_write_gate_enter(conn);
	int rc = amd_store_link_source(amd_write_gate_store(conn), cfg, path, run, sweep, 1, err);
	amd_write_gate_leave(conn);
	return rc < 0 ? -1 : rc == AMD_LINK_DONE;
}

static int target_forget(void *conn, const char *path, struct amd_err *err)
{
	amd_write_gate_enter(conn);
	int rc = amd_store_forget_source(amd_write_gate_store(conn), path, err);
	amd_write_gate_leave(conn);
	return rc;
}

struct amd_ingest_target amd_store_target(const char *path)
{
	if (amd_ch_is_url(path))
		return amd_ch_target(path);
	return (struct amd_ingest_target){
		.ctx = (void *)path,
		.prepare = target_prepare,
		.connect = target_connect,
		.disconnect = target_disconnect,
		.state = target_state,
		.begin = target_begin,
		.sink = target_sink,
		.finish = target_finish,
		.rollback = target_rollback,
		.link = target_link,
		.forget = target_forget,
	};
}
