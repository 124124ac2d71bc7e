/* store_sink.h — the store's implementation of the parser sink: one
 * ingest unit (a source) becomes one transaction. */
#ifndef AMD_STORE_SINK_H
#define AMD_STORE_SINK_H

#include <stdint.h>

#include "config.h"
#include "ingest/sink.h"
#include "store.h"

enum amd_source_state {
	AMD_SOURCE_NEW,       /* path never ingested */
	AMD_SOURCE_SAME,      /* same path, same bytes: nothing to do */
	AMD_SOURCE_CHANGED,   /* same path, new bytes: replace its facts */
	AMD_SOURCE_DUPLICATE, /* same bytes ingested from another path */
};

/* Where a unit stands; for DUPLICATE, other (if given) gets the path. */
int amd_store_source_state(struct amd_store *st, const char *path, const char *sha,
			   char *other, size_t other_len, struct amd_err *err);

struct amd_store_sink;

struct amd_store_sink *amd_store_sink_new(struct amd_store *st, const char *path,
					  const char *kind, const char *sha,
					  uint64_t size, const char *sweep_override,
					  const struct amd_config *cfg);
struct amd_sink *amd_store_sink_iface(struct amd_store_sink *ss);
/* Derives run columns, commits; returns the unit's state as found when
 * the transaction started (NEW, CHANGED, or SAME/DUPLICATE when another
 * process got there first, in which case nothing was written). */
int amd_store_sink_finish(struct amd_store_sink *ss, enum amd_source_state *state,
			  struct amd_err *err);
/* Rolls back whatever the unit wrote and frees the sink. */
void amd_store_sink_abort(struct amd_store_sink *ss);
void amd_store_sink_free(struct amd_store_sink *ss);

#endif
