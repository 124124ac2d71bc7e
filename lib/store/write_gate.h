/* write_gate.h — the ingest workers of one process take turns at the
 * store's one write lock in-process: a worker waiting for another's
 * write transaction blocks on a mutex and wakes the moment it commits,
 * instead of polling in SQLite's busy handler, which sleeps up to
 * 100 ms a try. Other processes still wait through the busy timeout.
 * The write-ahead log is checkpointed after the lock is given back (not
 * inside COMMIT while the others wait). Used by target.c's connections;
 * a store without a gate behaves as before. */
#ifndef AMD_WRITE_GATE_H
#define AMD_WRITE_GATE_H

#include <pthread.h>

struct amd_store;

struct amd_write_gate {
	pthread_mutex_t *lock; /* NULL: no gate (SQLite's own locking only) */
	int held;
	int wal_frames; /* the log's frames after the last commit */
	int checkpoint_at; /* its size at a checkpoint that left some */
};

/* st's write transactions take lock, shared by the process's workers on
 * the same store; st's log is checkpointed by amd_write_gate_leave. */
void amd_write_gate_attach(struct amd_store *st, pthread_mutex_t *lock);
/* Before BEGIN IMMEDIATE (amd_store_begin); nothing without a gate. */
void amd_write_gate_enter(struct amd_store *st);
/* After COMMIT or ROLLBACK: gives the lock back, then checkpoints when
 * the log has grown past SQLite's automatic point. Idempotent. */
void amd_write_gate_leave(struct amd_store *st);

#endif
