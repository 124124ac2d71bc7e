/* target.c — the SQLite store as an ingest target (model/sink.h): the
 * workers' one connection, used in turns (write_gate.h) and opened once
 * by prepare, the source-state check on it when no turn is taken, else
 * on a worker's own read connection (outside the turns), one writer (a
 * store sink in its own transaction) per unit, and batches of units in
 * one transaction. */
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "orphans.h"
#include "write_gate.h"
#include "writer.h"

/* Creates and migrates the store on the workers' shared connection,
 * which stays open for them until release (it was opened, migrated
 * and closed here, and each worker opened it again: a one-file ingest
 * read the schema four times and made the log twice). */
static int target_prepare(void *ctx, struct amd_err *err)
{
	return amd_write_gate_pin(ctx, err);
}

static void target_release(void *ctx)
{
	amd_write_gate_unpin(ctx);
}

/* A worker's connection: the store's write gate (write_gate.h), shared
 * and used in turns, and a read connection of its own, opened when a
 * source check finds the turn taken, so that checks wait for no turn;
 * a unit's writer checks its source again inside its turn (writer.c). */
struct target_conn {
	struct amd_write_gate *gate;
	struct amd_store *reader;
};

static void target_disconnect(void *conn)
{
	struct target_conn *c = conn;
	if (!c)
		return;
	/* The read connection first: the last connection to close
	 * checkpoints the WAL into the store file, and a read-only one
	 * cannot, which would leave every unit's pages in the -wal file. */
	amd_store_close(c->reader);
	if (c->gate)
		amd_write_gate_close(c->gate);
	free(c);
}

static void *target_connect(void *ctx, struct amd_err *err)
{
	struct target_conn *c = calloc(1, sizeof *c);
	if (!c) {
		amd_fail(err, "%s: out of memory", (const char *)ctx);
		return NULL;
	}
	if (!(c->gate = amd_write_gate_open(ctx, err))) {
		target_disconnect(c);
		return NULL;
	}
	return c;
}

static struct amd_store *shared_store(void *conn)
{
	return amd_write_gate_store(((struct target_conn *)conn)->gate);
}

/* On the shared connection when no worker holds the turn (one worker:
 * always), else on the worker's read connection. */
static int target_state(void *conn, const char *path, const char *sha, amd_same_run_fn *same,
			struct amd_err *err)
{
	struct target_conn *c = conn;
	if (amd_write_gate_try_enter(c->gate)) {
		int state = amd_store_source_state(amd_write_gate_store(c->gate), path, sha, same,
						   err);
		amd_write_gate_leave(c->gate);
		return state;
	}
	if (!c->reader &&
	    amd_store_open(amd_store_path(amd_write_gate_store(c->gate)), AMD_STORE_READ,
			   &c->reader, err) < 0)
		return -1;
	return amd_store_source_state(c->reader, path, sha, same, err);
}

static int target_batch_begin(void *conn, struct amd_err *err)
{
	return amd_store_batch_begin(shared_store(conn), err);
}

static int target_batch_end(void *conn, int commit, struct amd_err *err)
{
	return amd_store_batch_end(shared_store(conn), commit, err);
}

static struct amd_unit_writer *target_begin(void *conn, const struct amd_unit_info *u,
					    struct amd_err *err)
{
	struct amd_store_sink *ss = amd_store_sink_new(shared_store(conn), u->path,
						       u->kind, u->sha256, u->size,
						       u->sweep_override, u->config);
	if (!ss)
		amd_fail(err, "%s: out of memory", u->path);
	else
		amd_store_sink_same_run(ss, u->same_run);
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
	struct amd_write_gate *g = ((struct target_conn *)conn)->gate;
	amd_write_gate_enter(g);
	int rc = amd_store_link_source(amd_write_gate_store(g), cfg, path, run, sweep, 1, err);
	amd_write_gate_leave(g);
	return rc < 0 ? -1 : rc == AMD_LINK_DONE;
}

static int target_forget(void *conn, const char *path, struct amd_err *err)
{
	struct amd_write_gate *g = ((struct target_conn *)conn)->gate;
	amd_write_gate_enter(g);
	int rc = amd_store_forget_source(amd_write_gate_store(g), path, err);
	amd_write_gate_leave(g);
	return rc;
}

/* SQLite's own words (sqlite3_errstr) for the failures of the file
 * rather than of a unit: full, unreadable/unwritable, damaged, read-only. */
static int target_store_failed(void *conn, const char *msg)
{
	(void)conn;
	static const int codes[] = {SQLITE_FULL, SQLITE_IOERR, SQLITE_CORRUPT, SQLITE_NOTADB,
				    SQLITE_READONLY, SQLITE_CANTOPEN};
	for (size_t i = 0; i < sizeof codes / sizeof *codes; i++)
		if (strstr(msg, sqlite3_errstr(codes[i])))
			return 1;
	return 0;
}

struct amd_ingest_target amd_store_target(const char *path)
{
	return (struct amd_ingest_target){
		.ctx = (void *)path,
		.prepare = target_prepare,
		.release = target_release,
		.connect = target_connect,
		.disconnect = target_disconnect,
		.state = target_state,
		.begin = target_begin,
		.sink = target_sink,
		.finish = target_finish,
		.rollback = target_rollback,
		.link = target_link,
		.forget = target_forget,
		.batch_begin = target_batch_begin,
		.batch_end = target_batch_end,
		.store_failed = target_store_failed,
	};
}
