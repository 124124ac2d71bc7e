/* speedscope_doc.h — a speedscope file as the streaming scan keeps it
 * (speedscope_scan.c) for the reader to replay (pyspy_speedscope.c):
 * frames with their texts, each profile's type/unit/name, its samples as
 * leaves of one trie of frame indices and its weights. Keys may come in
 * any order (py-spy writes profiles before shared.frames), so nothing is
 * checked while scanning: the replay checks, in the order the reader
 * always did. A repeated key counts once (its first value). Memory
 * follows the distinct stack paths plus at most 8 bytes per sample
 * (runs of equal samples and of equal weights). */
#ifndef AMD_SPEEDSCOPE_DOC_H
#define AMD_SPEEDSCOPE_DOC_H

#include <stddef.h>
#include <stdint.h>

#include "hmap.h"
#include "records.h"
#include "err.h"

/* A sample that is not an array; a frame index that is not one (not a
 * number, negative, fractional, or past 2^32). */
#define SS_NOT_ARRAY UINT32_MAX
#define SS_BAD_INDEX UINT32_MAX

/* A trie node: the path root..node is a sample's frame indices; node 0
 * is the root (an empty sample). */
struct ss_node {
	uint32_t parent, frame;
};

/* n weights in a row with the same bits (py-spy writes 1/rate for
 * every sample: one run instead of 8 bytes a sample). */
struct ss_weight_run {
	double w;                    /* NaN: not a number */
	size_t n;
};

/* n samples in a row ending at the same trie leaf (py-spy writes an
 * idle thread's stack again at every sample): 8 bytes a run instead of
 * 4 a sample. */
struct ss_sample_run {
	uint32_t leaf;               /* a leaf node, or SS_NOT_ARRAY */
	uint32_t n;
};

struct ss_profile {
	char *type, *unit, *name;    /* NULL when absent or not a string */
	int samples_array, weights_array;
	struct ss_sample_run *samples; /* the samples in order */
	size_t n_sample_runs, cap_samples;
	size_t n_samples;            /* the runs' n summed */
	struct ss_weight_run *runs;  /* the weights in order */
	size_t n_runs, cap_runs;
	size_t n_weights;            /* the runs' n summed */
	unsigned seen;               /* keys met (first value counts) */
};

struct ss_doc {
	char *schema;                /* NULL when absent or not a string */
	int profiles_array, frames_array;
	struct amd_stack_frame *frames; /* name NULL: none; texts owned */
	size_t n_frames, cap_frames;
	struct ss_profile *profiles;
	size_t n_profiles, cap_profiles;
	struct ss_node *nodes;
	size_t n_nodes, cap_nodes;
	struct amd_hmap node_ix;
};

/* Streams the (possibly gzipped) file into d (zeroed by the caller);
 * 0, or -1 with err filled (invalid JSON at byte N, out of memory). */
int ss_doc_scan(const char *path, struct ss_doc *d, struct amd_err *err);
void ss_doc_free(struct ss_doc *d);

#endif
