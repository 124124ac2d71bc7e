/* write_gate.h — the ingest workers of one process share one connection
 * to a store file and take turns at it. SQLite has one write lock per
 * store: a worker with a connection of its own that found it taken
 * polled in SQLite's busy handler (sleeps of up to 100 ms), and every
 * transaction after another connection's commit began with an empty
 * page cache (SQLite drops a connection's cache when the file changed
 * under it) and read back the pages it writes. Here a worker waits on a
 * mutex and wakes the moment the other commits, on a cache that stays
 * warm. Other processes still wait through the busy timeout. The
 * write-ahead log is checkpointed after the turn, on a connection of
 * its own, while the next worker writes, and inside a turn when it has
 * grown large, so that it restarts. Used by target.c only. */
#ifndef AMD_WRITE_GATE_H
#define AMD_WRITE_GATE_H

#include "err.h"

struct amd_store;
struct amd_write_gate;

/* The gate of store file path, opened (created and migrated) at its
 * first holder; NULL with err. One per path in the process. */
struct amd_write_gate *amd_write_gate_open(const char *path, struct amd_err *err);
/* A hold on path's gate with no pointer kept (target.c's prepare, until
 * every worker is done): the connection it opens stays for the
 * workers, and the store is opened and migrated once. unpin drops it. */
int amd_write_gate_pin(const char *path, struct amd_err *err);
void amd_write_gate_unpin(const char *path);
/* The holder is done; the last closes the connections. */
void amd_write_gate_close(struct amd_write_gate *g);
/* The shared connection: used only between enter and leave. */
struct amd_store *amd_write_gate_store(struct amd_write_gate *g);
/* A turn: nests within one thread (amd_store_begin takes one too). */
void amd_write_gate_enter(struct amd_write_gate *g);
/* A turn when nobody holds one, without waiting: 1 when taken (end it
 * with leave), 0. */
int amd_write_gate_try_enter(struct amd_write_gate *g);
/* Ends the turn begun by the matching enter; after the outermost, a
 * checkpoint when the log has grown past GATE_CHECKPOINT_FRAMES (inside
 * the turn past GATE_RESTART_FRAMES, or when one outside a turn has
 * copied part of it already). */
void amd_write_gate_leave(struct amd_write_gate *g);

#endif
