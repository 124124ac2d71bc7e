/* ch_seed.h — the run a unit links to, copied from the ClickHouse store
 * into the unit's staging store (ch_target.c), so the unit's facts ship
 * under that run's id instead of a placeholder's. */
#ifndef AMD_CH_SEED_H
#define AMD_CH_SEED_H

#include "err.h"
#include "store.h"

#include <stddef.h>
#include <stdint.h>

struct amd_ch;

/* The ids (chid of ext_id) of the runs the server held when listed. */
struct amd_ch_held {
	int listed;
	int large; /* a batch's: the store holds too many runs to list */
	int64_t *ids; /* sorted */
	size_t n;
};

/* A unit's lookups of runs on the server: its connection, and the
 * server's run ids once listed (a unit of many runs), or the batch's
 * list (shared). */
struct amd_ch_seed {
	struct amd_ch *ch;
	/* the staging stores of the units that wait, finished, to be
	 * committed with this one (a batch, ch_target.c): a run one of them
	 * holds is taken from there, as from the server once committed */
	struct amd_store *const *(*waiting)(void *ctx, size_t *n);
	void *waiting_ctx;
	struct amd_ch_held own;
	/* the list of the batch the unit is in (ch_target.c: asked at its
	 * first lookup, dropped as the batch begins): every run id of a
	 * store of few runs, consulted for every run the unit reports; of a
	 * larger store only `large` (then as with NULL: by key, or own past
	 * a few runs) */
	struct amd_ch_held *shared;
};

/* An amd_seed_run_fn (writer.h); ctx is the unit's struct amd_ch_seed. */
int amd_ch_seed_run(void *ctx, struct amd_store *staging, const char *ext_id,
		    const char *name, const char *sweep, struct amd_err *err);

/* Frees what seed listed (not its connection or shared list). */
void amd_ch_seed_free(struct amd_ch_seed *seed);
/* Frees and forgets the list h (asked again at its next use). */
void amd_ch_held_free(struct amd_ch_held *h);

#endif
