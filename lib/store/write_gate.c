/* write_gate.c — the in-process write gate of write_gate.h: a mutex
 * around each write transaction and a checkpoint after it. */
#include "write_gate.h"

#include "sqlite_int.h"

/* The log's frames (4 KB pages) past which a worker checkpoints: four
 * times SQLite's automatic point, so that fewer checkpoints (two
 * fsyncs each) run while another worker writes. */
#define GATE_CHECKPOINT_FRAMES 4000

/* The log's size after each commit, replacing SQLite's automatic
 * checkpoint inside COMMIT (amd_write_gate_leave does it). */
static int note_frames(void *arg, sqlite3 *db, const char *name, int frames)
{
	(void)db;
	(void)name;
	((struct amd_store *)arg)->gate.wal_frames = frames;
	return SQLITE_OK;
}

void amd_write_gate_attach(struct amd_store *st, pthread_mutex_t *lock)
{
	st->gate.lock = lock;
	sqlite3_wal_hook(st->db, note_frames, st);
}

void amd_write_gate_enter(struct amd_store *st)
{
	if (!st->gate.lock)
		return;
	pthread_mutex_lock(st->gate.lock);
	st->gate.held = 1;
}

void amd_write_gate_leave(struct amd_store *st)
{
	if (!st->gate.held)
		return;
	st->gate.held = 0;
	pthread_mutex_unlock(st->gate.lock);
	if (st->gate.wal_frames < st->gate.checkpoint_at + GATE_CHECKPOINT_FRAMES)
		return;
	/* PASSIVE: never waits. While another worker writes, it may copy
	 * only part of the log, which then cannot restart from its
	 * beginning: the next try waits until the log has grown as much
	 * again (SQLite's automatic checkpoint would try after each
	 * commit). A busy or failed one is retried likewise, as SQLite's is. */
	int log = 0, done = 0;
	sqlite3_wal_checkpoint_v2(st->db, NULL, SQLITE_CHECKPOINT_PASSIVE, &log, &done);
	st->gate.checkpoint_at = log > 0 && done < log ? log : 0;
	st->gate.wal_frames = 0;
}
