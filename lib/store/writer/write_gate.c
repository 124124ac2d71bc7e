/* write_gate.c — the shared connection of write_gate.h: one gate per
 * store path (a list under one mutex), a recursive mutex for the turns,
 * and a second connection, opened at the first checkpoint, that
 * checkpoints the log outside them. */
#include "write_gate.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "sqlite_int.h"

/* The log's frames (4 KB pages) past which a turn's end checkpoints:
 * four times SQLite's automatic point (two fsyncs each). */
#define GATE_CHECKPOINT_FRAMES 4000
/* The log's frames past which the checkpoint runs inside the turn: the
 * ones outside it race the next turn's writes, never copy the whole log,
 * so it never restarts from its beginning and grows for the whole
 * ingest (5.3 GB on 1,000 x 64 traces). Inside the turn nobody writes:
 * the checkpoint copies what the last ones left and the next turn's
 * first write restarts the log. It runs there sooner, at the first
 * commit past GATE_CHECKPOINT_FRAMES after one outside the turn copied
 * part of the log: what is left is only what the turns wrote since. */
#define GATE_RESTART_FRAMES (4 * GATE_CHECKPOINT_FRAMES)

struct amd_write_gate {
	struct amd_write_gate *next;
	char *path;
	int holders;
	pthread_mutex_t turn; /* recursive */
	int depth;            /* the turn's nesting, under turn */
	struct amd_store *st; /* the workers' connection */
	pthread_mutex_t checkpointing;
	sqlite3 *ckpt;          /* checkpoints only, under checkpointing;
				 * NULL until the first */
	int wal_frames;         /* the log's size after the last commit */
	int checkpoint_at;      /* its size at a checkpoint that left some */
	atomic_int copied;      /* the log's frames the last checkpoint outside
				 * a turn copied; 0 once the log restarted */
};

static pthread_mutex_t gates_lock = PTHREAD_MUTEX_INITIALIZER;
static struct amd_write_gate *gates;

/* The log's size after each commit; SQLite's automatic checkpoint
 * inside COMMIT is replaced by amd_write_gate_leave's. */
static int note_frames(void *arg, sqlite3 *db, const char *name, int frames)
{
	(void)db;
	(void)name;
	((struct amd_write_gate *)arg)->wal_frames = frames;
	return SQLITE_OK;
}

/* The store's turns (sqlite_int.h's amd_store_turns) on the gate. */
static void gate_enter(void *g)
{
	amd_write_gate_enter(g);
}

static void gate_leave(void *g)
{
	amd_write_gate_leave(g);
}

static void gate_free(struct amd_write_gate *g)
{
	amd_store_close(g->st);
	sqlite3_close_v2(g->ckpt);
	pthread_mutex_destroy(&g->turn);
	pthread_mutex_destroy(&g->checkpointing);
	free(g->path);
	free(g);
}

/* A new gate with its shared connection open, or NULL with err. The
 * checkpoints' connection waits for the first checkpoint: an ingest of
 * a few small files never needs it (its open read the schema, and its
 * handle on the log synced the log and its directory once more when
 * the last connection checkpointed at close). */
static struct amd_write_gate *gate_new(const char *path, struct amd_err *err)
{
	struct amd_write_gate *g = calloc(1, sizeof *g);
	if (!g || !(g->path = strdup(path))) {
		free(g);
		amd_fail(err, "%s: out of memory", path);
		return NULL;
	}
	pthread_mutexattr_t a;
	pthread_mutexattr_init(&a);
	pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
	pthread_mutex_init(&g->turn, &a);
	pthread_mutexattr_destroy(&a);
	pthread_mutex_init(&g->checkpointing, NULL);
	if (amd_store_open(path, AMD_STORE_WRITE, &g->st, err) < 0 ||
	    amd_store_exec(g->st, "PRAGMA temp_store=MEMORY", err) < 0) {
		gate_free(g);
		return NULL;
	}
	sqlite3_wal_hook(g->st->db, note_frames, g);
	g->st->turns = (struct amd_store_turns){ gate_enter, gate_leave, g };
	return g;
}

struct amd_write_gate *amd_write_gate_open(const char *path, struct amd_err *err)
{
	pthread_mutex_lock(&gates_lock);
	struct amd_write_gate *g = gates;
	while (g && strcmp(g->path, path) != 0)
		g = g->next;
	if (!g && (g = gate_new(path, err))) {
		g->next = gates;
		gates = g;
	}
	if (g)
		g->holders++;
	pthread_mutex_unlock(&gates_lock);
	return g;
}

int amd_write_gate_pin(const char *path, struct amd_err *err)
{
	return amd_write_gate_open(path, err) ? 0 : -1;
}

void amd_write_gate_unpin(const char *path)
{
	pthread_mutex_lock(&gates_lock);
	struct amd_write_gate *g = gates;
	while (g && strcmp(g->path, path) != 0)
		g = g->next;
	pthread_mutex_unlock(&gates_lock);
	if (g)
		amd_write_gate_close(g);
}

void amd_write_gate_close(struct amd_write_gate *g)
{
	pthread_mutex_lock(&gates_lock);
	int last = --g->holders == 0;
	if (last) {
		struct amd_write_gate **p = &gates;
		while (*p != g)
			p = &(*p)->next;
		*p = g->next;
	}
	pthread_mutex_unlock(&gates_lock);
	if (last)
		gate_free(g);
}

struct amd_store *amd_write_gate_store(struct amd_write_gate *g)
{
	return g->st;
}

void amd_write_gate_enter(struct amd_write_gate *g)
{
	pthread_mutex_lock(&g->turn);
	g->depth++;
}

int amd_write_gate_try_enter(struct amd_write_gate *g)
{
	if (pthread_mutex_trylock(&g->turn) != 0)
		return 0;
	g->depth++;
	return 1;
}

/* The checkpoints' connection, opened at the first checkpoint (under
 * checkpointing) on the store the shared connection has opened and
 * migrated: a plain connection, which takes no lock to open, then one
 * read, which ends at once: a connection learns that the file is in WAL
 * mode at its first read, and until then SQLite's checkpoint on it does
 * nothing and says so only by a log of -1 frames (every checkpoint of
 * an ingest was such a no-op: the store file stayed at its first 216 KB
 * and the log took every page, 1.57 GB on a big sweep). 0, or -1 when
 * it cannot open: the log then waits for the next try, or for the
 * shared connection's close. */
static int ckpt_ready(struct amd_write_gate *g)
{
	if (g->ckpt)
		return 0;
	if (sqlite3_open_v2(g->path, &g->ckpt, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX,
			    NULL) != SQLITE_OK ||
	    sqlite3_busy_timeout(g->ckpt, 60000) != SQLITE_OK ||
	    sqlite3_wal_autocheckpoint(g->ckpt, 0) != SQLITE_OK ||
	    sqlite3_exec(g->ckpt, "SELECT count(*) FROM sqlite_master", NULL, NULL, NULL) !=
		    SQLITE_OK) {
		sqlite3_close_v2(g->ckpt);
		g->ckpt = NULL;
		return -1;
	}
	return 0;
}

/* PASSIVE: never waits. While the next turn writes it may copy only
 * part of the log, which then cannot restart from its beginning: the
 * next try waits until the log has grown as much again. */
static void checkpoint(struct amd_write_gate *g, int frames)
{
	if (pthread_mutex_trylock(&g->checkpointing) != 0)
		return; /* another worker's checkpoint runs */
	if (frames >= g->checkpoint_at + GATE_CHECKPOINT_FRAMES && /* read under the lock */
	    ckpt_ready(g) == 0) {
		int log = 0, done = 0;
		sqlite3_wal_checkpoint_v2(g->ckpt, NULL, SQLITE_CHECKPOINT_PASSIVE, &log, &done);
		g->checkpoint_at = log > 0 && done < log ? log : 0;
		atomic_store(&g->copied, done > 0 ? done : 0);
	}
	pthread_mutex_unlock(&g->checkpointing);
}

/* Under the turn: waits for a checkpoint running outside it. */
static void checkpoint_whole(struct amd_write_gate *g)
{
	pthread_mutex_lock(&g->checkpointing);
	if (ckpt_ready(g) == 0) {
		sqlite3_wal_checkpoint_v2(g->ckpt, NULL, SQLITE_CHECKPOINT_PASSIVE, NULL,
					  NULL);
		g->checkpoint_at = 0;
	}
	atomic_store(&g->copied, 0);
	pthread_mutex_unlock(&g->checkpointing);
}

/* Under the turn, after commits that left the log at frames: 1 when the
 * log is to be checkpointed whole inside the turn (GATE_RESTART_FRAMES). */
static int whole_now(struct amd_write_gate *g, int frames)
{
	int copied = atomic_load(&g->copied);
	if (copied > frames) /* the log restarted since that checkpoint */
		atomic_store(&g->copied, copied = 0);
	return frames >= GATE_RESTART_FRAMES || (frames >= GATE_CHECKPOINT_FRAMES && copied > 0);
}

void amd_write_gate_leave(struct amd_write_gate *g)
{
	int outermost = --g->depth == 0;
	int frames = g->wal_frames;
	int whole = outermost && frames > 0 && whole_now(g, frames);
	if (outermost)
		g->wal_frames = 0;
	if (whole)
		checkpoint_whole(g);
	pthread_mutex_unlock(&g->turn);
	if (outermost && frames > 0 && !whole)
		checkpoint(g, frames);
}
