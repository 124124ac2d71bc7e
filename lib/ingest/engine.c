/* engine.c — ingesting units: hash, skip what the target already holds,
 * parse through the target's sink, one transaction per unit; -j N runs N
 * workers, each with its own connection to the target (model/sink.h),
 * writing batches of units in one transaction where the target can. */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "engine_overlap.h"
#include "hash.h"
#include "ingest.h"

/* Sets u's error (or reason) printf-style; NULL when out of memory
 * (amd_unit_error says so). */
static void unit_error(struct amd_unit *u, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void unit_error(struct amd_unit *u, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	free(u->error);
	if (vasprintf(&u->error, fmt, ap) < 0)
		u->error = NULL;
	va_end(ap);
}

static int hash_unit(const struct amd_unit *u, char hex[65], uint64_t *size,
		     struct amd_err *err)
{
	if (u->fmt->hash)
		return u->fmt->hash(u->path, hex, size, err);
	return amd_sha256_file(u->path, hex, size, err);
}

/* A unit that holds nothing for the target: skipped, with why; an older
 * version of its path (a run deleted since it was ingested) is dropped. */
static int nothing_to_add(const struct amd_ingest_target *t, void *conn, struct amd_unit *u,
			  int state, struct amd_err *err)
{
	unit_error(u, "%s", err->msg);
	err->msg[0] = '\0';
	if (state == AMD_SOURCE_CHANGED && t->forget && t->forget(conn, u->path, err) < 0)
		return -1;
	u->result = AMD_UNIT_SKIPPED;
	return 0;
}

/* A unit not of its format after all (AMD_PARSE_FOREIGN): a file the
 * user named fails; one found by walking is refused, the ingest goes on
 * (an older version of its path is dropped, as for nothing_to_add). */
static int foreign(const struct amd_ingest_target *t, void *conn, struct amd_unit *u,
		   int state, struct amd_err *err)
{
	if (u->named)
		return -1;
	if (nothing_to_add(t, conn, u, state, err) < 0)
		return -1;
	u->result = AMD_UNIT_REFUSED;
	return 0;
}

static struct amd_input input_of(struct amd_unit *u, const struct amd_ingest_opts *o)
{
	struct amd_input in = {
		.path = u->path,
		.run_ext_hint = o->run ? NULL : u->run_ext_hint,
		.run_name_hint = o->run ? o->run : u->run_name_hint,
		.sweep_hint = o->sweep,
		.rank_hint = o->rank,
		.sample_rate = o->sample_rate,
		.sample_interval = o->sample_interval,
		.gpu_query = o->gpu_query,
		.config = o->config,
		.warnings = &u->warnings,
	};
	return in;
}

/* An unchanged unit: at most linked to --run. */
static int unchanged(const struct amd_ingest_target *t, void *conn, struct amd_unit *u,
		     const struct amd_ingest_opts *o, int state, struct amd_err *err)
{
	u->result = AMD_UNIT_UNCHANGED;
	if (state == AMD_SOURCE_SAME && o->run && t->link) {
		int linked = t->link(conn, u->path, o->run, o->sweep, o->config, err);
		if (linked < 0) {
			u->result = AMD_UNIT_FAILED;
			return -1;
		}
		if (linked)
			u->result = AMD_UNIT_LINKED;
	}
	return 0;
}

/* A unit hashed, checked and read, waiting for its write. */
struct pending {
	struct amd_unit *u;
	struct amd_input in;
	struct amd_overlap *early;
	char sha[65];
	uint64_t size;
	int state;
	int running; /* its parse still runs, its queue full: write it soon */
	int twin;    /* the earlier unit of its batch it duplicates, or -1 */
	int hashed;  /* sha and size set before unit_prepare (claimed) */
	int by_twin; /* reported unchanged because its twin was written */
};

/* Identity is place + content (issue 40; sink.h): a path the target
 * holds is SAME or CHANGED, one it does not hold is NEW unless the same
 * bytes are held for the same run at another path (a copied or moved
 * run: DUPLICATE). So the place, asked before the hash, tells a file
 * that is almost surely to be read: one of at least HASH_BESIDE_BYTES
 * at a place the target does not hold is parsed while it is hashed (a
 * second thread), its hash no longer before its parse (mlflow.db of
 * 256 MB: 23% of the ingest's CPU). A held path is hashed first, as
 * every smaller file: an unchanged unit is never parsed, and a changed
 * one in place is hashed and then parsed. A DUPLICATE found by the hash
 * stops the parse (readers that report as they read stop at their next
 * fact, traces poll in->stop); nothing of it reached the store. */
#define HASH_BESIDE_BYTES ((off_t)4 << 20)

/* u is a file large enough to be parsed while hashed, at a new place. */
static int large_file(const struct amd_unit *u)
{
	struct stat st;
	return !u->fmt->hash && amd_overlap_allowed() && stat(u->path, &st) == 0 &&
	       S_ISREG(st.st_mode) && st.st_size >= HASH_BESIDE_BYTES;
}

static int parse_while_hashed(const struct amd_ingest_target *t, void *conn,
			      const struct amd_unit *u)
{
	if (!large_file(u))
		return 0;
	struct amd_err e = {{0}};
	return t->state(conn, u->path, "", amd_same_run, &e) == AMD_SOURCE_NEW;
}

/* The unit of the batch b[0..n) that pu, NEW to the target, duplicates:
 * the same bytes at another path the ingest's rule puts in the same run
 * (what the target will say once the batch is written: sink.h); -1 for
 * none. A twin of a twin names the first. */
static int batch_twin(const struct pending *b, size_t n, const struct pending *pu)
{
	for (size_t i = 0; i < n; i++)
		if (b[i].twin < 0 && strcmp(b[i].sha, pu->sha) == 0 &&
		    strcmp(b[i].u->path, pu->u->path) != 0 && amd_same_run(b[i].u->path, pu->u->path))
			return (int)i;
	return -1;
}

/* The unit is hashed and the target asked about it; a unit it holds
 * already is never parsed, nor one that duplicates a unit waiting in
 * its batch (batch[0..nbatch), batch_twin): it waits unread for its
 * twin's write (write_batch). Otherwise its parse runs on a second thread
 * (engine_overlap.h), started before the hash for a large file at a new
 * place (parse_while_hashed), else after it, and is done, waiting for
 * the sink, or far ahead before the unit's writer begins, so that the
 * store's write lock is held for writing only. 1 when the unit waits for
 * its write in *pu, 0 when it is done (u->result), -1 with err. */
static int unit_prepare(const struct amd_ingest_target *t, void *conn, struct amd_unit *u,
			const struct amd_ingest_opts *o, const struct pending *batch, size_t nbatch,
			struct pending *pu, struct amd_err *err)
{
	u->result = AMD_UNIT_FAILED;
	amd_warnings_free(&u->warnings);
	pu->u = u;
	pu->twin = -1;
	pu->by_twin = 0;
	pu->running = 0;
	pu->in = input_of(u, o);
	pu->early = !pu->hashed && parse_while_hashed(t, conn, u)
		? amd_overlap_start(u->fmt, &pu->in, o->events) : NULL;
	int state = !pu->hashed && hash_unit(u, pu->sha, &pu->size, err) < 0
		? -1 : t->state(conn, u->path, pu->sha, amd_same_run, err);
	/* a copy of a unit staged ahead in this batch (parts_write), not yet
	 * committed, which the target already counts: a twin, reported with
	 * its twin's commit */
	if (state == AMD_SOURCE_DUPLICATE && batch_twin(batch, nbatch, pu) >= 0)
		state = AMD_SOURCE_NEW;
	if (state < 0 || state == AMD_SOURCE_SAME || state == AMD_SOURCE_DUPLICATE) {
		if (pu->early) { /* held after all, or unreadable: nothing of it kept */
			amd_overlap_cancel(pu->early);
			pu->early = NULL;
			amd_warnings_free(&u->warnings);
		}
		return state < 0 ? -1 : unchanged(t, conn, u, o, state, err);
	}
	pu->state = state;
	if (state == AMD_SOURCE_NEW && (pu->twin = batch_twin(batch, nbatch, pu)) >= 0) {
		amd_overlap_cancel(pu->early); /* read only if its twin is not written */
		pu->early = NULL;
		amd_warnings_free(&u->warnings);
		return 1;
	}
	if (!pu->early)
		pu->early = amd_overlap_start(u->fmt, &pu->in, o->events);
	/* parsed, or with other workers queued, before the store is taken */
	pu->running = amd_overlap_wait(pu->early, o->jobs > 1);
	return 1;
}

/* The unit's facts through one writer of the target (one transaction). */
static int unit_write(const struct amd_ingest_target *t, void *conn, struct pending *pu,
		      const struct amd_ingest_opts *o, struct amd_err *err)
{
	struct amd_unit *u = pu->u;
	struct amd_overlap *early = pu->early;
	pu->early = NULL;
	struct amd_unit_info info = {
		.path = u->path,
		.kind = u->fmt->name,
		.sha256 = pu->sha,
		.size = pu->size,
		.sweep_override = o->sweep,
		.config = o->config,
		.same_run = amd_same_run,
	};
	struct amd_unit_writer *w = t->begin(conn, &info, err);
	if (!w) {
		amd_overlap_cancel(early);
		return -1;
	}
	struct amd_sink sink = *t->sink(w); /* without --events: no event rows */
	if (!o->events)
		sink.trace_event = NULL;
	int parsed = early ? amd_overlap_finish(early, &sink, err) : u->fmt->parse(&pu->in, &sink, err);
	if (parsed != 0) {
		t->rollback(w);
		return parsed == AMD_PARSE_NOTHING ? nothing_to_add(t, conn, u, pu->state, err)
		     : parsed == AMD_PARSE_FOREIGN ? foreign(t, conn, u, pu->state, err) : -1;
	}
	enum amd_source_state final;
	if (t->finish(w, &final, err) < 0)
		return -1;
	u->result = final == AMD_SOURCE_CHANGED ? AMD_UNIT_REPLACED
		  : final == AMD_SOURCE_NEW     ? AMD_UNIT_ADDED
						: AMD_UNIT_UNCHANGED;
	return 0;
}

int amd_ingest_one(const struct amd_ingest_target *t, void *conn, struct amd_unit *u,
		   const struct amd_ingest_opts *o, struct amd_err *err)
{
	struct pending pu = {.hashed = 0};
	int rc = unit_prepare(t, conn, u, o, NULL, 0, &pu, err);
	return rc <= 0 ? rc : unit_write(t, conn, &pu, o, err);
}

struct pool {
	const struct amd_ingest_target *target;
	struct amd_unit_list *units;
	const struct amd_ingest_opts *o;
	pthread_mutex_t lock;
	size_t next, done;
	int failed;
	int open_failed;
	struct amd_err open_err;
	int stopped; /* a unit failed because the store did: take no more */
};

/* With several workers a batch of units is written in one transaction
 * (the target's batch_begin), each unit a savepoint in it: a unit's
 * commit wrote ~100 log frames under the write turn, most of them pages
 * its neighbours write again (their run's index leaves). A batch ends
 * at BATCH_UNITS units or at BATCH_BYTES of input. Parsed facts wait in
 * its units' queues (in memory until written): at BATCH_HELD bytes of
 * them, or at a unit whose parse filled its queue and waits, the batch
 * ends — or, for a target that stages its units (a ClickHouse unit's
 * rows wait in an in-memory store for the batch's commit), its units so
 * far are written into it and the batch goes on. A batch is written in
 * parts when the target holds STAGED_HELD bytes for it (target_full).
 * Unbounded by memory, 16 units of 50,000 points held 91 MB at -j 2.
 * A ClickHouse part is its INSERTs, one per table, each a new part of
 * the server's table (~70 files for run's 32 columns): a part a unit
 * (2 × 20 units of 50,000 points, bench/clickhouse_scale.sh) made the
 * server spend 0.73–1.36 CPU-s on 1 M points, 10 units a part
 * 0.59–0.63 (peak RSS 50 → 81 MB at -j 2).
 * Its units are reported when the batch's commit has ended. */
#define BATCH_UNITS 16
#define AMD_UNITS_MAX_BATCH BATCH_UNITS
#define BATCH_BYTES ((uint64_t)64 << 20)
#define BATCH_HELD ((size_t)4 << 20)
#define STAGED_HELD ((size_t)16 << 20)

/* The bytes of parsed facts b's n units hold in memory. */
static size_t batch_held(const struct pending *b, size_t n)
{
	size_t held = 0;
	for (size_t i = 0; i < n; i++)
		held += amd_overlap_held(b[i].early);
	return held;
}

/* The next unit to ingest, NULL when none is left. */
static struct amd_unit *take(struct pool *p)
{
	pthread_mutex_lock(&p->lock);
	struct amd_unit *u = !p->stopped && p->next < p->units->n ? &p->units->v[p->next++] : NULL;
	pthread_mutex_unlock(&p->lock);
	return u;
}

static void failed(struct amd_unit *u, const char *msg)
{
	u->result = AMD_UNIT_FAILED;
	unit_error(u, "%s", msg);
}

/* Marks u as not read because of the store's failure. */
static void not_written(struct amd_unit_list *l, struct amd_unit *u)
{
	u->result = AMD_UNIT_FAILED;
	unit_error(u, "%s: not read: the store failed before (%s)", u->path, l->stop_error);
	l->not_written++;
}

/* The store failed (msg): no more units are read; p->lock is held. */
static void store_stop(struct pool *p, const char *msg)
{
	p->stopped = 1;
	snprintf(p->units->stop_error, sizeof p->units->stop_error, "%s", msg);
}

/* A unit that failed because the store did stops the ingest; later
 * such failures (other workers' units in flight) are not reported. */
static void unit_done(struct pool *p, void *conn, struct amd_unit *u)
{
	pthread_mutex_lock(&p->lock);
	p->done++;
	int store = u->result == AMD_UNIT_FAILED && p->target->store_failed &&
		    p->target->store_failed(conn, amd_unit_error(u));
	if (store && p->stopped) {
		not_written(p->units, u);
		pthread_mutex_unlock(&p->lock);
		return;
	}
	if (store)
		store_stop(p, amd_unit_error(u));
	if (u->result == AMD_UNIT_FAILED)
		p->failed++;
	if (p->o->progress)
		p->o->progress(p->o->progress_ctx, p->done, p->units->n, u);
	pthread_mutex_unlock(&p->lock);
}

/* A unit written by its batch (so far: the batch's commit may fail). */
static int written(const struct amd_unit *u)
{
	return u->result == AMD_UNIT_ADDED || u->result == AMD_UNIT_REPLACED;
}

/* The batch's part is to end before its next unit: the target holds
 * STAGED_HELD bytes for it (a ClickHouse unit's staged rows). */
static int target_full(const struct amd_ingest_target *t, void *conn)
{
	return t->batch_held && t->batch_held(conn) >= STAGED_HELD;
}

/* The batch of b[from..to) was committed but its clean-up failed
 * (batch_end returned 1 with msg): its units stay written; the first
 * such failure is kept for the summary, and one that is the store's
 * stops the ingest as a unit's would (unit_done). */
static void uncleaned(struct pool *p, void *conn, const struct pending *b, size_t from,
		      size_t to, const char *msg)
{
	pthread_mutex_lock(&p->lock);
	struct amd_unit_list *l = p->units;
	if (!l->uncleaned_error[0])
		snprintf(l->uncleaned_error, sizeof l->uncleaned_error, "%s", msg);
	for (size_t k = from; k < to; k++)
		l->uncleaned += written(b[k].u);
	if (!p->stopped && p->target->store_failed && p->target->store_failed(conn, msg))
		store_stop(p, msg);
	pthread_mutex_unlock(&p->lock);
}

/* The batch being written: b[from..written) went into the part that is
 * open (a transaction of the target; open: its batch_begin succeeded,
 * else its units fail with err), b[..from) into parts that have ended;
 * lost marks the units a failed commit failed. */
struct batch_parts {
	size_t from, written;
	int in_part, open;
	struct amd_err err;
	char lost[AMD_UNITS_MAX_BATCH];
};

/* Writes b[i] into the open part. A twin (batch_twin) is unchanged when
 * its twin was written, else read and written itself. */
static void part_write(struct pool *p, void *conn, struct pending *b, size_t i,
		       struct batch_parts *bp)
{
	struct amd_err e = {{0}};
	if (!bp->open) {
		amd_overlap_cancel(b[i].early);
		failed(b[i].u, bp->err.msg);
	} else if (b[i].twin >= 0 && written(b[b[i].twin].u)) {
		b[i].u->result = AMD_UNIT_UNCHANGED;
		b[i].by_twin = (size_t)b[i].twin >= bp->from; /* else held already */
	} else if (unit_write(p->target, conn, &b[i], p->o, &e) < 0) {
		failed(b[i].u, e.msg);
	}
}

/* The open part has ended as the target's batch_end (or batch_landed)
 * said (ended, err): a failed commit fails every unit that had written
 * in it, and the twins it held, marked in lost (a commit whose clean-up
 * failed fails none: uncleaned). */
static void part_ended(struct pool *p, void *conn, struct pending *b, struct batch_parts *bp,
		       int ended, const struct amd_err *e)
{
	struct amd_err err = *e;
	if (ended > 0)
		uncleaned(p, conn, b, bp->from, bp->written, err.msg);
	for (size_t k = bp->from; ended < 0 && k < bp->written; k++) {
		struct amd_unit *u = b[k].u;
		if (u->result == AMD_UNIT_FAILED ||
		    (u->result == AMD_UNIT_UNCHANGED && !b[k].by_twin))
			continue;
		u->result = AMD_UNIT_FAILED;
		unit_error(u, "%s: %s", u->path, err.msg);
		bp->lost[k] = 1;
	}
	bp->in_part = bp->open = 0;
	bp->from = bp->written;
}

/* Ends the open part: the target commits it (part_ended). */
static void part_end(struct pool *p, void *conn, struct pending *b, struct batch_parts *bp)
{
	struct amd_err err = {{0}};
	int ended = bp->open ? p->target->batch_end(conn, 1, &err) : 0;
	part_ended(p, conn, b, bp, ended, &err);
}

/* Reports b's n units, the batch's parts all ended, and starts bp afresh. */
static void batch_report(struct pool *p, void *conn, struct pending *b, size_t n,
			 struct batch_parts *bp)
{
	/* a unit's own failure first: when the store failed, the first one
	 * reported names what failed (the rest are not read) */
	for (size_t i = 0; i < n; i++)
		if (!bp->lost[i])
			unit_done(p, conn, b[i].u);
	for (size_t i = 0; i < n; i++)
		if (bp->lost[i])
			unit_done(p, conn, b[i].u);
	memset(bp, 0, sizeof *bp);
}

/* A batch whose last part the target commits in the background
 * (sink.h batch_send) while the worker hashes, asks about and parses
 * the units of its next batch (work_batched keeps two arrays of
 * pending units: b is the other one). It lands — the target's answer
 * taken, its units reported — before the next part begins, so a unit
 * is written only onto what the units before it committed, as without
 * a flight; and before the worker ends. With one worker the bundled
 * sweeps' ingest into ClickHouse spent its time in turns: the client
 * parsing while the server waited, then the server inserting while the
 * client waited. */
struct flight {
	struct pending *b;
	size_t n;
	struct batch_parts bp;
	int active;
};

static void flight_land(struct pool *p, void *conn, struct flight *f)
{
	if (!f->active)
		return;
	struct amd_err err = {{0}};
	int ended = p->target->batch_landed(conn, &err);
	part_ended(p, conn, f->b, &f->bp, ended, &err);
	batch_report(p, conn, f->b, f->n, &f->bp);
	f->active = 0;
}

/* Writes b[written..n), in the open part or a new one (once the flight
 * has landed), ending a part when the target is full (target_full) and
 * the next unit in a new one. */
static void parts_write(struct pool *p, void *conn, struct pending *b, size_t n,
			struct batch_parts *bp, struct flight *f)
{
	while (bp->written < n) {
		if (!bp->in_part) {
			flight_land(p, conn, f);
			memset(&bp->err, 0, sizeof bp->err);
			bp->open = p->target->batch_begin(conn, &bp->err) == 0;
			bp->in_part = 1;
		}
		part_write(p, conn, b, bp->written++, bp);
		if (bp->open && target_full(p->target, conn))
			part_end(p, conn, b, bp);
	}
}

/* Writes what is left of b's n units, in the part open or (target_full)
 * a few, and ends the last: sent in the background when the target can
 * (the flight, f: 1, b is now f's), else at once, the units reported
 * (0). bp is started afresh. */
static int write_batch(struct pool *p, void *conn, struct pending *b, size_t n,
		       struct batch_parts *bp, struct flight *f)
{
	parts_write(p, conn, b, n, bp, f);
	if (bp->in_part && bp->open && p->target->batch_send) {
		p->target->batch_send(conn);
		*f = (struct flight){.b = b, .n = n, .bp = *bp, .active = 1};
		memset(bp, 0, sizeof *bp);
		return 1;
	}
	if (bp->in_part)
		part_end(p, conn, b, bp);
	batch_report(p, conn, b, n, bp);
	return 0;
}

/* The units a worker claimed (up to a batch's), hashed ahead where
 * parse_while_hashed would not parse them while hashed, and told to the
 * target (expect): a batch asks about its own units, not the store's. */
struct claim {
	struct amd_unit *u[BATCH_UNITS];
	char sha[BATCH_UNITS][65];
	uint64_t size[BATCH_UNITS];
	int hashed[BATCH_UNITS];
	size_t n, next;
};

/* Claims the worker's next units: a batch's, or its share of those left
 * when fewer (so -j N still spreads a few units over N workers); one at
 * a time for a target that takes no expect. */
static void claim_units(struct pool *p, void *conn, struct claim *c)
{
	pthread_mutex_lock(&p->lock);
	size_t left = p->units->n - p->next, jobs = p->o->jobs > 1 ? (size_t)p->o->jobs : 1;
	size_t want = !p->target->expect ? 1 : left / jobs > BATCH_UNITS ? BATCH_UNITS
						: left / jobs ? left / jobs : 1;
	c->n = c->next = 0;
	while (!p->stopped && p->next < p->units->n && c->n < want)
		c->u[c->n++] = &p->units->v[p->next++];
	pthread_mutex_unlock(&p->lock);
	if (!p->target->expect) {
		memset(c->hashed, 0, sizeof c->hashed);
		return;
	}
	const char *paths[BATCH_UNITS], *shas[BATCH_UNITS];
	for (size_t i = 0; i < c->n; i++) {
		struct amd_err e = {{0}};
		c->hashed[i] = !large_file(c->u[i]) &&
			       hash_unit(c->u[i], c->sha[i], &c->size[i], &e) == 0;
		paths[i] = c->u[i]->path;
		shas[i] = c->hashed[i] ? c->sha[i] : NULL;
	}
	if (c->n)
		p->target->expect(conn, paths, shas, c->n);
}

/* The next unit of c (claiming more when it is used up), NULL when none
 * is left; its hash, when made ahead, goes to pu. Claimed units left
 * when the store failed are not read (not_written). */
static struct amd_unit *take_claimed(struct pool *p, void *conn, struct claim *c,
				     struct pending *pu)
{
	if (c->next == c->n)
		claim_units(p, conn, c);
	pthread_mutex_lock(&p->lock);
	while (p->stopped && c->next < c->n)
		not_written(p->units, c->u[c->next++]);
	pthread_mutex_unlock(&p->lock);
	if (c->next == c->n)
		return NULL;
	size_t i = c->next++;
	pu->hashed = c->hashed[i];
	memcpy(pu->sha, c->sha[i], sizeof pu->sha);
	pu->size = c->size[i];
	return c->u[i];
}

static void work_batched(struct pool *p, void *conn)
{
	struct pending two[2][BATCH_UNITS], *b = two[0]; /* b and the flight's */
	struct claim c = {.n = 0};
	struct batch_parts bp = {0};
	struct flight f = {.active = 0};
	int stages = p->target->batch_held != NULL;
	size_t n = 0;
	uint64_t bytes = 0;
	struct amd_unit *u;
	do {
		u = take_claimed(p, conn, &c, &b[n]);
		if (u) {
			struct amd_err err = {{0}};
			int r = unit_prepare(p->target, conn, u, p->o, b, n, &b[n], &err);
			if (r < 0) { /* a flight's failure (the store's) is told first */
				flight_land(p, conn, &f);
				failed(u, err.msg);
			}
			if (r <= 0)
				unit_done(p, conn, u);
			else if (b[n++].twin < 0)
				bytes += b[n - 1].size;
		}
		/* a unit whose parse waits on its full queue, or queues
		 * holding BATCH_HELD, are written now: into a target that
		 * stages units (batch_held: its parts end at target_full) the
		 * batch goes on after them, else it ends with them */
		int write_now = n && (b[n - 1].running || batch_held(b, n) >= BATCH_HELD);
		if (write_now && stages)
			parts_write(p, conn, b, n, &bp, &f);
		if (n && (!u || n == BATCH_UNITS || bytes >= BATCH_BYTES || (write_now && !stages))) {
			if (write_batch(p, conn, b, n, &bp, &f))
				b = b == two[0] ? two[1] : two[0];
			n = 0;
			bytes = 0;
		}
	} while (u);
	flight_land(p, conn, &f);
}

static void work_one_by_one(struct pool *p, void *conn)
{
	struct amd_unit *u;
	while ((u = take(p))) {
		struct amd_err err = {{0}};
		if (amd_ingest_one(p->target, conn, u, p->o, &err) < 0)
			failed(u, err.msg);
		unit_done(p, conn, u);
	}
}

static void *worker(void *arg)
{
	struct pool *p = arg;
	struct amd_err err = {{0}};
	void *conn = p->target->connect(p->target->ctx, &err);
	if (!conn) {
		pthread_mutex_lock(&p->lock);
		p->open_failed = 1;
		p->open_err = err;
		pthread_mutex_unlock(&p->lock);
		return NULL;
	}
	if ((p->o->jobs > 1 || p->target->batch_always) && p->target->batch_begin &&
	    p->target->batch_end)
		work_batched(p, conn);
	else
		work_one_by_one(p, conn);
	p->target->disconnect(conn);
	return NULL;
}

/* jobs workers on threads of their own; one runs on the calling thread
 * (no clone, no thread stack, and the allocations of the caller's heap,
 * whose freed blocks it reuses). The number started, -1 out of memory. */
static int run_workers(struct pool *p, int jobs)
{
	if (jobs == 1) {
		worker(p);
		return 1;
	}
	pthread_t *t = calloc((size_t)jobs, sizeof *t);
	if (!t)
		return -1;
	int started = 0;
	for (int i = 0; i < jobs; i++)
		if (pthread_create(&t[i], NULL, worker, p) == 0)
			started++;
	for (int i = 0; i < started; i++)
		pthread_join(t[i], NULL);
	free(t);
	return started;
}

int amd_ingest_units(const struct amd_ingest_target *target, struct amd_unit_list *units,
		     const struct amd_ingest_opts *o, struct amd_err *err)
{
	/* create and migrate once, before workers race for it */
	if (target->prepare && target->prepare(target->ctx, err) < 0)
		return -1;

	struct pool p = {.target = target, .units = units, .o = o};
	pthread_mutex_init(&p.lock, NULL);
	int jobs = o->jobs > 0 ? o->jobs : 1;
	if ((size_t)jobs > units->n)
		jobs = units->n ? (int)units->n : 1;
	int started = run_workers(&p, jobs);
	pthread_mutex_destroy(&p.lock);
	for (size_t i = p.next; p.stopped && i < units->n; i++)
		not_written(units, &units->v[i]);
	if (target->release)
		target->release(target->ctx);
	if (started <= 0)
		return amd_fail(err, started < 0 ? "out of memory" : "cannot start an ingest worker");
	if (p.open_failed && p.done < units->n) {
		*err = p.open_err;
		return -1;
	}
	return p.failed + (int)units->not_written + (int)units->uncleaned;
}
