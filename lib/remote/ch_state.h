/* ch_state.h — where a unit stands against the committed sources of a
 * ClickHouse store (enum amd_source_state, sink.h): asked of the server
 * for one unit, or answered from one list of the store's sources that
 * the units of an ingest batch share (ch_target.c). */
#ifndef AMD_CH_STATE_H
#define AMD_CH_STATE_H

#include <stddef.h>

#include "err.h"
#include "sink.h"

struct amd_ch;
struct ch_source_row;

/* The committed version (sha256 of the latest commit) of each path the
 * store held when listed, sorted by path and by sha256. */
struct amd_ch_sources {
	/* the units expected (amd_ch_sources_expect): when set, the list
	 * holds only their paths and the paths holding their bytes */
	char **exp_paths, **exp_shas; /* sorted; shas of the hashed ones */
	size_t nexp_paths, nexp_shas;
	char *text;            /* the server's answer (the rows' sha256) */
	unsigned char *paths;  /* the rows' paths, decoded */
	int listed;
	int too_many; /* the store held more paths than a list takes */
	unsigned asked; /* questions it answered */
	struct ch_source_row *rows;
	struct ch_source_row **by_sha;
	size_t n;
};

/* Where a unit stands (enum amd_source_state, or -1): one query for
 * path and sha; same (NULL: amd_same_run_folder) tells whether another
 * path holding its bytes puts them in the unit's run. */
int amd_ch_source_state(struct amd_ch *ch, const char *path, const char *sha,
			amd_same_run_fn *same, struct amd_err *err);

/* The same answer from the list l, made from the server at its first
 * use (one query for every path, or for the expected units'; its answer
 * is the store at that moment) and again after AMD_CH_SOURCES_ASKS
 * answers (a batch's 16 units ask at most 3 times each; units the store
 * holds already end no batch, which would drop it: ch_target.c). A list
 * of more than AMD_CH_SOURCES_MAX paths is not kept: l->too_many is set
 * and the unit is asked of the server alone; so is a unit not expected. */
#define AMD_CH_SOURCES_MAX 20000
#define AMD_CH_SOURCES_ASKS 48
int amd_ch_listed_state(struct amd_ch *ch, struct amd_ch_sources *l, const char *path,
			const char *sha, amd_same_run_fn *same, struct amd_err *err);

/* Frees and forgets the list (listed again at its next use; too_many
 * and the expected units stay). */
void amd_ch_sources_free(struct amd_ch_sources *l);

/* The list is to hold only the n units' paths (and the paths holding
 * their bytes, shas[i] or NULL when not hashed yet), from its next use:
 * one bounded query for a batch in a store of any size (a list of every
 * path was ~3 MB at 19,000 paths, made per batch). A question about a
 * path or bytes not among them is asked alone (amd_ch_source_state).
 * n = 0 lists every path again. -1 out of memory (nothing expected). */
int amd_ch_sources_expect(struct amd_ch_sources *l, const char *const *paths,
			  const char *const *shas, size_t n);

/* Frees everything l holds. */
void amd_ch_sources_release(struct amd_ch_sources *l);

#endif
