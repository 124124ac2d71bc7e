/* pyspy_samples.h — the py-spy samples in the store, as plain rows:
 * naming a selection (a run, or one ingested py-spy file), the runs that
 * have samples, and the selection's stack nodes, samples and frames. The
 * store keeps stacks as a trie per source (stack_node) with samples on
 * leaves (stack_sample). What these rows add up to (top functions, the
 * merged call trie) is lib/analysis/pyspy.h.
 *
 *     struct amd_pyspy_sel sel;
 *     if (amd_pyspy_resolve(st, "run-or-id-or-path", &sel, &err) < 0) …
 *     struct amd_pyspy_node_row *nodes; size_t n;
 *     if (amd_pyspy_nodes(st, &sel, &nodes, &n, &err) < 0) …
 */
#ifndef AMD_PYSPY_SAMPLES_H
#define AMD_PYSPY_SAMPLES_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "store.h"

/* Which samples: those linked to a run, or those of one source file. */
struct amd_pyspy_sel {
	int64_t run_id;    /* > 0: every py-spy file linked to this run */
	int64_t source_id; /* > 0: one py-spy file */
	char label[512];   /* the run's name (and id) or the file's path */
};

/* WHAT is a py-spy file's path (as ingested, or one that resolves to
 * it), a run id, or a run name (which must name one run). Fails with a
 * message naming WHAT when nothing matches. */
int amd_pyspy_resolve(struct amd_store *st, const char *what, struct amd_pyspy_sel *sel,
		      struct amd_err *err);

/* Runs that have py-spy samples, newest first (for the report):
 * fills up to max selections (label "name (id)"), returns how many
 * there are, or -1. */
int amd_pyspy_runs(struct amd_store *st, struct amd_pyspy_sel *out, size_t max,
		   struct amd_err *err);

/* A node of a source's stack trie: a frame (name, file, line) under its
 * parent. Ids are the store's (dictionary ids for name and file). */
struct amd_pyspy_node_row {
	int64_t id;
	int64_t parent_id;          /* 0 for a root */
	int64_t frame_id, name_id;
	int64_t file_id;            /* 0 when unknown */
	int line;                   /* 0 when unknown */
};

/* Every node of the sources that hold samples of sel, by increasing id.
 * The caller frees *out. */
int amd_pyspy_nodes(struct amd_store *st, const struct amd_pyspy_sel *sel,
		    struct amd_pyspy_node_row **out, size_t *n, struct amd_err *err);

/* Samples of one stack (its leaf node) in one process and thread. */
struct amd_pyspy_sample_row {
	int64_t leaf_id;
	int64_t process_id, thread_id; /* dictionary ids, 0 when unknown */
	int64_t samples;
	double seconds;                /* the thread-seconds they stand for */
};

/* Every sample row of sel. The caller frees *out. */
int amd_pyspy_samples(struct amd_store *st, const struct amd_pyspy_sel *sel,
		      struct amd_pyspy_sample_row **out, size_t *n, struct amd_err *err);

/* How many py-spy files the samples of sel come from; of those, how many
 * are one snapshot (`py-spy dump`, text or --json). */
int amd_pyspy_count_sources(struct amd_store *st, const struct amd_pyspy_sel *sel,
			    size_t *n, struct amd_err *err);
int amd_pyspy_count_snapshots(struct amd_store *st, const struct amd_pyspy_sel *sel,
			      size_t *n, struct amd_err *err);

/* Frame frame_id's name and file (dictionary ids, file 0 when unknown)
 * and line; 0 and the ids, 1 when there is no such frame, or -1. */
int amd_pyspy_frame(struct amd_store *st, int64_t frame_id, int64_t *name_id,
		    int64_t *file_id, int *line, struct amd_err *err);

#endif
