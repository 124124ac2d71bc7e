/* ch_target.c — the ClickHouse ingest target (ch_target.h). A unit is
 * parsed into the SQLite writer over a private in-memory store (so every
 * rule of the writer holds unchanged), and on finish, if the store has
 * not meanwhile committed the same bytes (as of its batch's list of
 * sources, ch_state.h), shipped with a fresh attempt
 * id and its commit row. Nothing is visible before the commit row;
 * readers pick one committed attempt per path (ch_load.c). A run the
 * unit links to and the staging store lacks is copied from the server
 * first (ch_seed.c), so its facts join that run, not a placeholder.
 * A connection keeps its staging stores for its next units: each holds
 * one open transaction, rolled back to the bare schema as its unit is
 * done (staging_put), so the schema is made and the writer's statements
 * prepared once per store, not once per unit. A batch is shipped by a
 * thread of its own on a connection of its own (batch_send, the flight)
 * while the worker reads its next units. */
#include "ch_target.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "ch_relink.h"
#include "ch_schema.h"
#include "ch_seed.h"
#include "ch_state.h"
#include "ch_ship.h"
#include "clickhouse.h"
#include "file.h"
#include "orphans.h"
#include "writer.h"

/* A batch being shipped (batch_send .. batch_landed): its units, by
 * a thread on ch, its own connection (opened at the first flight and
 * kept), which alone touches them until it is joined. */
struct ch_flight {
	struct amd_ch *ch;
	struct ch_unit **units;
	struct amd_ch_unit_rows *rows;
	size_t n, cap, cap_rows;
	pthread_t thread;
	int running; /* the thread was started and is not joined yet */
	int active;  /* sent, and batch_landed not yet asked */
	int rc;      /* amd_ch_ship_units' answer, once joined */
	struct amd_err err;
};

/* A worker's connection, and the units of its open batch (batch_begin
 * .. batch_end) that finished and wait to be shipped together. */
struct ch_conn {
	struct amd_ch *ch;
	const char *url;
	struct ch_flight flight;
	int batching;
	struct ch_unit **pending;
	size_t npending, cap;
	struct amd_store **stagings; /* the pending units' (ch_seed.h, waiting) */
	size_t cap_stagings;
	/* the server's runs when it holds few, else only that it holds
	 * many: asked at the batch's first run lookup (ch_seed.h, shared);
	 * dropped as a batch begins */
	struct amd_ch_held held;
	/* the store's sources, listed at the batch's first state question
	 * (ch_state.h; its units are asked before it begins) and dropped as
	 * it ends: a batch asks once, not twice a unit */
	struct amd_ch_sources sources;
	unsigned long listed_at; /* batches_shipped when it was listed */
	/* staging stores its done units left, emptied (staging_put) */
	struct amd_store **idle;
	size_t nidle, cap_idle;
};

/* Batches this process's workers have shipped: a unit that finishes on
 * a list made before another worker shipped a batch asks again, so the
 * workers of one ingest see each other's commits at a unit's finish
 * (a copy another worker committed is DUPLICATE), as before the list. */
static atomic_ulong batches_shipped;

struct ch_unit {
	struct amd_ch *ch;
	struct ch_conn *conn;
	int64_t attempt;
	struct ch_source src;
	struct amd_store *staging;
	struct amd_store_sink *ss;
	struct amd_ch_seed seed; /* its run lookups (ch_seed.c) */
	char *path, *kind, *sha;
	uint64_t size;
	int fresh; /* NEW at its finish: it replaces no attempt (ch_ship.h) */
	amd_same_run_fn *same_run; /* the ingest's rule for held copies (sink.h) */
};

static int target_prepare(void *ctx, struct amd_err *err)
{
	struct amd_ch *ch = NULL;
	if (amd_ch_open(ctx, &ch, err) < 0)
		return -1;
	int rc = amd_ch_migrate(ch, err);
	/* what an earlier ingest committed and could not clean up (its
	 * batch_end returned 1). A server that refuses it leaves them, still
	 * seen by no reader, to the next ingest; one that stopped answering
	 * stops this ingest here, with its own words (every later request
	 * would only say an earlier one went unanswered). */
	struct amd_err stale = {{0}};
	if (rc == 0 && amd_ch_drop_stale(ch, &stale) < 0 && amd_ch_unanswered(ch)) {
		*err = stale;
		rc = -1;
	}
	amd_ch_close(ch);
	return rc;
}

static void *target_connect(void *ctx, struct amd_err *err)
{
	struct ch_conn *c = calloc(1, sizeof *c);
	if (!c) {
		amd_fail(err, "%s: out of memory", (const char *)ctx);
		return NULL;
	}
	if (amd_ch_open(ctx, &c->ch, err) < 0) {
		free(c);
		return NULL;
	}
	c->url = ctx;
	return c;
}

static void unit_free(struct ch_unit *u);

/* A staging store for a unit of c: an emptied one of c's, else a new
 * one; inside a transaction (amd_store_batch_begin: the unit's writes
 * are savepoints in it) that staging_put rolls back. A kept store whose
 * transaction cannot begin (the last one did not end) is closed. */
static struct amd_store *staging_get(struct ch_conn *c, const char *path, struct amd_err *err)
{
	while (c->nidle) {
		struct amd_store *st = c->idle[--c->nidle];
		struct amd_err ignored;
		if (amd_store_batch_begin(st, &ignored) == 0)
			return st;
		amd_store_close(st);
	}
	struct amd_store *st = NULL;
	if (amd_store_open(":memory:", AMD_STORE_WRITE, &st, err) < 0 ||
	    amd_store_batch_begin(st, err) < 0) {
		amd_store_close(st);
		amd_fail_prefix(err, "%s: staging", path);
		return NULL;
	}
	return st;
}

/* Rolls st's transaction back (nothing of its unit stays: its rows, ids
 * and names) and keeps st for c's next unit. */
static void staging_put(struct ch_conn *c, struct amd_store *st)
{
	if (!st)
		return;
	struct amd_err ignored; /* a rollback fails with no message */
	amd_store_batch_end(st, 0, &ignored);
	if (amd_grow_to(&c->idle, c->nidle + 1, &c->cap_idle, sizeof *c->idle, 4) < 0) {
		amd_store_close(st);
		return;
	}
	c->idle[c->nidle++] = st;
}

/* ch_seed.h's waiting: the staging stores of the batch's units, in order. */
static struct amd_store *const *waiting_stagings(void *ctx, size_t *n)
{
	struct ch_conn *c = ctx;
	*n = 0;
	if (!c->npending ||
	    amd_grow_to(&c->stagings, c->npending, &c->cap_stagings, sizeof *c->stagings, 16) < 0)
		return NULL;
	for (size_t i = 0; i < c->npending; i++)
		c->stagings[i] = c->pending[i]->staging;
	*n = c->npending;
	return c->stagings;
}

/* Frees the batch's waiting units (shipped or not). */
static void pending_free(struct ch_conn *c)
{
	for (size_t i = 0; i < c->npending; i++)
		unit_free(c->pending[i]);
	c->npending = 0;
}

/* 1 when one of the n units holds sha at another path that puts it in
 * path's run (same, else amd_same_run_folder): a copy of it, DUPLICATE
 * once that unit is committed. */
static int holds_copy(struct ch_unit *const *units, size_t n, const char *path, const char *sha,
		      amd_same_run_fn *same)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(units[i]->sha, sha) == 0 && strcmp(units[i]->path, path) != 0 &&
		    (same ? same : amd_same_run_folder)(units[i]->path, path))
			return 1;
	return 0;
}

static void *flight_ship(void *arg)
{
	struct ch_flight *f = arg;
	f->rc = amd_ch_ship_units(f->ch, f->rows, f->n, &f->err);
	return NULL;
}

/* The flight's ship has ended: a commit is counted (batches_shipped).
 * A list of sources made while it flew (ch_state.h) still holds for the
 * next units when no other worker shipped meanwhile: the flight's paths
 * are none of theirs, and a copy of its bytes joined it first
 * (target_state). */
static void flight_shipped(struct ch_conn *c)
{
	if (c->flight.rc < 0)
		return;
	unsigned long before = atomic_fetch_add(&batches_shipped, 1);
	if (c->sources.listed && c->listed_at == before)
		c->listed_at = before + 1;
}

/* Waits for the flight's thread to end (its answer stays for
 * flight_take). */
static void flight_join(struct ch_conn *c)
{
	struct ch_flight *f = &c->flight;
	if (!f->running)
		return;
	pthread_join(f->thread, NULL);
	f->running = 0;
	flight_shipped(c);
}

/* The flight's answer (as batch_end's), its units freed; 0 for none. */
static int flight_take(struct ch_conn *c, struct amd_err *err)
{
	struct ch_flight *f = &c->flight;
	if (!f->active)
		return 0;
	flight_join(c);
	for (size_t i = 0; i < f->n; i++)
		unit_free(f->units[i]);
	f->n = 0;
	f->active = 0;
	*err = f->err;
	return f->rc;
}

/* 1 when a unit of the flight holds sha at a path in path's run. */
static int flight_holds(const struct ch_conn *c, const char *path, const char *sha,
			amd_same_run_fn *same)
{
	const struct ch_flight *f = &c->flight;
	return f->active && holds_copy(f->units, f->n, path, sha, same);
}

static void target_disconnect(void *conn)
{
	struct ch_conn *c = conn;
	if (!c)
		return;
	struct amd_err ignored; /* the engine took the flight's answer */
	flight_take(c, &ignored);
	amd_ch_close(c->flight.ch);
	free(c->flight.units);
	free(c->flight.rows);
	pending_free(c);
	amd_ch_held_free(&c->held);
	amd_ch_sources_release(&c->sources);
	for (size_t i = 0; i < c->nidle; i++)
		amd_store_close(c->idle[i]);
	free(c->idle);
	free(c->pending);
	free(c->stagings);
	amd_ch_close(c->ch);
	free(c);
}

/* DUPLICATE when a unit waiting in the batch holds sha at a path that
 * puts it in the same run (what the server would say once it is
 * committed), else 0. */
static int pending_state(struct ch_conn *c, const char *path, const char *sha,
			 amd_same_run_fn *same)
{
	return holds_copy(c->pending, c->npending, path, sha, same) ? AMD_SOURCE_DUPLICATE : 0;
}

static int target_state(void *conn, const char *path, const char *sha, amd_same_run_fn *same,
			struct amd_err *err)
{
	struct ch_conn *c = conn;
	if (flight_holds(c, path, sha, same)) { /* asked once it has landed */
		flight_join(c);
		amd_ch_sources_free(&c->sources);
	}
	int held = pending_state(c, path, sha, same);
	if (held)
		return held;
	unsigned long shipped = atomic_load(&batches_shipped);
	if (c->batching && c->sources.listed && c->listed_at != shipped)
		amd_ch_sources_free(&c->sources);
	if (!c->sources.listed)
		c->listed_at = shipped;
	return amd_ch_listed_state(c->ch, &c->sources, path, sha, same, err);
}

/* The worker's next units (sink.h expect): its list of sources holds
 * their paths and the paths holding their bytes, not every path of the
 * store (ch_state.h). Out of memory, every path is listed, as before. */
static void target_expect(void *conn, const char *const *paths, const char *const *shas,
			  size_t n)
{
	struct ch_conn *c = conn;
	if (amd_ch_sources_expect(&c->sources, paths, shas, n) < 0)
		amd_ch_sources_expect(&c->sources, NULL, NULL, 0);
}

static void unit_free(struct ch_unit *u)
{
	if (!u)
		return;
	amd_store_sink_free(u->ss);
	amd_ch_seed_free(&u->seed);
	staging_put(u->conn, u->staging);
	free(u->path);
	free(u->kind);
	free(u->sha);
	free(u);
}

/* Frees u, done outside a batch: the list of sources it was asked
 * about is dropped with it (ch_state.h), as a batch's at its end. */
static void unit_over(struct ch_unit *u)
{
	if (!u->conn->batching)
		amd_ch_sources_free(&u->conn->sources);
	unit_free(u);
}

static struct amd_unit_writer *target_begin(void *conn, const struct amd_unit_info *info,
					    struct amd_err *err)
{
	struct ch_unit *u = calloc(1, sizeof *u);
	if (!u) {
		amd_fail(err, "%s: out of memory", info->path);
		return NULL;
	}
	u->conn = conn;
	u->ch = u->conn->ch;
	u->seed.ch = u->ch;
	u->seed.waiting = waiting_stagings;
	u->seed.waiting_ctx = u->conn;
	u->seed.shared = u->conn->batching ? &u->conn->held : NULL;
	u->size = info->size;
	u->same_run = info->same_run;
	u->path = strdup(info->path);
	u->kind = strdup(info->kind);
	u->sha = strdup(info->sha256);
	if (!u->path || !u->kind || !u->sha) {
		amd_fail(err, "%s: out of memory", info->path);
		goto fail;
	}
	if (!(u->staging = staging_get(u->conn, info->path, err)))
		goto fail;
	u->ss = amd_store_sink_new(u->staging, info->path, info->kind, info->sha256, info->size,
				   info->sweep_override, info->config);
	if (!u->ss) {
		amd_fail(err, "%s: out of memory", info->path);
		goto fail;
	}
	/* a run the unit links to is looked up on the server (ch_seed.c) */
	amd_store_sink_seed_runs(u->ss, amd_ch_seed_run, &u->seed);
	amd_store_sink_same_run(u->ss, info->same_run);
	return (struct amd_unit_writer *)u;
fail:
	unit_free(u);
	return NULL;
}

static struct amd_sink *target_sink(struct amd_unit_writer *w)
{
	return amd_store_sink_iface(((struct ch_unit *)w)->ss);
}

/* Keeps u (finished, its rows staged) to ship with the batch. */
static int batch_add(struct ch_conn *c, struct ch_unit *u, struct amd_err *err)
{
	if (amd_grow_to(&c->pending, c->npending + 1, &c->cap, sizeof *c->pending, 16) < 0) {
		amd_fail(err, "%s: out of memory", u->path);
		unit_free(u);
		return -1;
	}
	c->pending[c->npending++] = u;
	return 0;
}

static int target_finish(struct amd_unit_writer *w, enum amd_source_state *state,
			 struct amd_err *err)
{
	struct ch_unit *u = (struct ch_unit *)w;
	enum amd_source_state staged;
	struct amd_store_sink *ss = u->ss;
	u->ss = NULL; /* finish frees it, on success and failure */
	int rc = amd_store_sink_finish(ss, &staged, err);
	if (rc == 0) {
		/* another process may have committed these bytes meanwhile
		 * (before the batch's list was made: ch_state.h) */
		int now = target_state(u->conn, u->path, u->sha, u->same_run, err);
		rc = now < 0 ? -1 : 0;
		if (rc == 0)
			*state = (enum amd_source_state)now;
		u->attempt = amd_ch_new_attempt();
		u->src = (struct ch_source){u->path, u->kind, u->sha, u->size};
		u->fresh = now == AMD_SOURCE_NEW;
		if ((now == AMD_SOURCE_NEW || now == AMD_SOURCE_CHANGED) && u->conn->batching)
			return batch_add(u->conn, u, err); /* shipped by batch_end */
		if (now == AMD_SOURCE_NEW || now == AMD_SOURCE_CHANGED)
			rc = amd_ch_ship(u->ch, u->staging, u->attempt, &u->src, err);
	}
	unit_over(u);
	return rc;
}

static void target_rollback(struct amd_unit_writer *w)
{
	unit_over((struct ch_unit *)w);
}

static int target_link(void *conn, const char *path, const char *run, const char *sweep,
		       const struct amd_config *cfg, struct amd_err *err)
{
	(void)cfg; /* no params move: the run's derived columns stay */
	flight_join(conn); /* the run may be one the flight makes */
	int rc = amd_ch_relink(((struct ch_conn *)conn)->ch, path, run, sweep, 1, err);
	return rc < 0 ? -1 : rc == AMD_LINK_DONE;
}

static int target_forget(void *conn, const char *path, struct amd_err *err)
{
	struct ch_conn *c = conn;
	flight_join(c);
	amd_ch_sources_free(&c->sources); /* the path's state changes */
	return amd_ch_forget(c->ch, path, err);
}

/* The unit failed because the server did — it could not be reached or
 * stopped answering — when the last request on its connection got no
 * answer (the transport says so: amd_ch_unanswered); an answer of the
 * server, even an error, is the unit's failure. Never read from msg:
 * a path or a parse error may hold any words. */
static int target_store_failed(void *conn, const char *msg)
{
	(void)msg;
	const struct ch_conn *c = conn;
	return amd_ch_unanswered(c->ch) || (c->flight.ch && amd_ch_unanswered(c->flight.ch));
}

/* A batch: its units' rows go in one INSERT per table and their commit
 * rows in one INSERT, after the last unit (amd_ch_ship_units): ~6–12
 * requests per unit fewer. Nothing of it is visible before that one
 * commit INSERT; a failure fails every unit of it (engine.c). */
static int target_batch_begin(void *conn, struct amd_err *err)
{
	(void)err;
	struct ch_conn *c = conn;
	pending_free(c);
	amd_ch_held_free(&c->held);
	c->batching = 1;
	return 0;
}

/* The memory of the batch's staged units (engine.c ends it past a bound). */
static size_t target_batch_held(void *conn)
{
	struct ch_conn *c = conn;
	size_t held = 0;
	for (size_t i = 0; i < c->npending; i++)
		held += amd_store_memory(c->pending[i]->staging);
	return held;
}

/* What of u a batch ships (ch_ship.h). */
/* What of the n units a batch ships (ch_ship.h), in *rows (grown, its
 * room in *cap); -1 out of memory. */
static int unit_rows(struct ch_unit *const *units, size_t n, struct amd_ch_unit_rows **rows,
		     size_t *cap)
{
	if (amd_grow_to(rows, n, cap, sizeof **rows, 16) < 0)
		return -1;
	for (size_t i = 0; i < n; i++)
		(*rows)[i] = (struct amd_ch_unit_rows){units[i]->staging, 0, units[i]->attempt,
						       &units[i]->src, units[i]->fresh};
	return 0;
}

static int target_batch_end(void *conn, int commit, struct amd_err *err)
{
	struct ch_conn *c = conn;
	c->batching = 0;
	struct amd_ch_unit_rows *rows = NULL;
	size_t cap = 0;
	int rc = 0;
	if (commit && c->npending && unit_rows(c->pending, c->npending, &rows, &cap) < 0)
		rc = amd_fail(err, "%s: out of memory", amd_ch_name(c->ch));
	else if (commit && c->npending)
		rc = amd_ch_ship_units(c->ch, rows, c->npending, err);
	if (rows && rc >= 0) /* 1: committed, its clean-up failed (ch_ship.h) */
		atomic_fetch_add(&batches_shipped, 1);
	free(rows);
	pending_free(c);
	amd_ch_sources_free(&c->sources); /* the next batch lists what it committed */
	return rc;
}

/* batch_end's ship, on the flight's thread: the batch's units become
 * the flight's (c->pending and the flight's array swap places). Without
 * a thread the ship runs at once; its answer waits all the same. */
static void target_batch_send(void *conn)
{
	struct ch_conn *c = conn;
	struct ch_flight *f = &c->flight;
	c->batching = 0;
	struct ch_unit **units = f->units;
	size_t cap = f->cap;
	f->units = c->pending;
	f->cap = c->cap;
	f->n = c->npending;
	c->pending = units;
	c->cap = cap;
	c->npending = 0;
	f->active = 1;
	f->rc = 0;
	memset(&f->err, 0, sizeof f->err);
	amd_ch_sources_free(&c->sources); /* the next batch lists what it committed */
	if (!f->n)
		return;
	if (unit_rows(f->units, f->n, &f->rows, &f->cap_rows) < 0) {
		f->rc = amd_fail(&f->err, "%s: out of memory", amd_ch_name(c->ch));
		return;
	}
	if (!f->ch && amd_ch_open(c->url, &f->ch, &f->err) < 0) {
		f->rc = -1;
		return;
	}
	if (pthread_create(&f->thread, NULL, flight_ship, f) == 0)
		f->running = 1;
	else {
		f->rc = amd_ch_ship_units(f->ch, f->rows, f->n, &f->err);
		flight_shipped(c);
	}
}

static int target_batch_landed(void *conn, struct amd_err *err)
{
	return flight_take(conn, err);
}

struct amd_ingest_target amd_ch_target(const char *url)
{
	return (struct amd_ingest_target){
		.ctx = (void *)url,
		.prepare = target_prepare,
		.connect = target_connect,
		.disconnect = target_disconnect,
		.state = target_state,
		.expect = target_expect,
		.begin = target_begin,
		.sink = target_sink,
		.finish = target_finish,
		.rollback = target_rollback,
		.link = target_link,
		.forget = target_forget,
		.store_failed = target_store_failed,
		.batch_begin = target_batch_begin,
		.batch_end = target_batch_end,
		.batch_send = target_batch_send,
		.batch_landed = target_batch_landed,
		.batch_always = 1,
		.batch_held = target_batch_held,
	};
}
