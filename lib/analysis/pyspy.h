/* pyspy.h — where Python time goes, from the py-spy samples in the
 * store: top functions by self (leaf) and total (inclusive) samples
 * and thread-seconds, per process and thread or merged; with a library
 * name, the deepest frame of that library under each leaf (as itwinai's
 * py-spy report does); and the call trie for icicle charts. The rows
 * come from the store (pyspy_samples.h); this is what they add up to.
 *
 * A function is a frame's (name, file): samples at different lines of
 * one function add up. Total counts a sample once per function even
 * when the function recurses. Seconds are thread-seconds: the samples of
 * a stack divided by the sampling rate at ingest (or, for chrometrace,
 * the time the stack was open).
 *
 * Typical use (the report's charts):
 *
 *     struct amd_pyspy_sel sel;
 *     if (amd_pyspy_resolve(st, "run-or-id-or-path", &sel, &err) < 0) …
 *     struct amd_pyspy_top_opts o = {.order = AMD_PYSPY_SELF, .limit = 15};
 *     struct amd_pyspy_top top;
 *     if (amd_pyspy_top_query(st, &sel, &o, &top, &err) < 0) …
 *     … top.v[i].name, top.v[i].self_seconds … top.samples …
 *     amd_pyspy_top_free(&top);
 *
 *     struct amd_pyspy_trie trie;
 *     amd_pyspy_trie_query(st, &sel, &trie, &err);
 *     … trie.v[i]: parent index (-1 for a root), name, total/self …
 *     amd_pyspy_trie_free(&trie);
 */
#ifndef AMD_PYSPY_H
#define AMD_PYSPY_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "pyspy_samples.h"
#include "store.h"

enum amd_pyspy_order { AMD_PYSPY_SELF, AMD_PYSPY_TOTAL };

struct amd_pyspy_top_opts {
	enum amd_pyspy_order order;
	size_t limit;        /* rows kept after sorting; 0 = all */
	int per_thread;      /* one row per (process, thread, function) */
	const char *library; /* non-NULL: rows are (leaf, deepest frame whose
			      * file path contains this text), by self time */
};

struct amd_pyspy_fn {
	const char *process, *thread; /* per_thread only; NULL when unknown */
	const char *name, *file;      /* file NULL when unknown */
	/* library mode: the deepest library frame above the leaf (lib_name
	 * NULL when the stack holds none) */
	const char *lib_name, *lib_file;
	int lib_line;
	int64_t self_samples, total_samples;
	double self_seconds, total_seconds;
};

struct amd_pyspy_top {
	struct amd_pyspy_fn *v; /* sorted: largest first, then by name */
	size_t n;
	size_t n_all;           /* rows before the limit */
	int64_t samples;        /* all samples of the selection */
	double seconds;         /* all thread-seconds of the selection */
	size_t threads, sources;
	size_t snapshots;       /* of the sources, `py-spy dump`s (1 sample a thread) */
	char **strings;         /* owned texts the rows point into */
	size_t n_strings;
};

int amd_pyspy_top_query(struct amd_store *st, const struct amd_pyspy_sel *sel,
			const struct amd_pyspy_top_opts *o, struct amd_pyspy_top *out,
			struct amd_err *err);
void amd_pyspy_top_free(struct amd_pyspy_top *t);

/* The call trie, stacks of every file and thread of the selection
 * merged by path from the root (one node per distinct path of frames;
 * frames are (name, file, line)). Nodes come parents before children;
 * children of a node in order of decreasing total. total = samples
 * through the node, self = samples ending there; an icicle chart draws
 * a node's width ∝ total under its parent. */
struct amd_pyspy_node {
	int64_t parent;         /* index into v, -1 for a root */
	int depth;              /* 0 for roots */
	const char *name, *file;
	int line;
	int64_t total_samples, self_samples;
	double total_seconds, self_seconds;
};

struct amd_pyspy_trie {
	struct amd_pyspy_node *v;
	size_t n;
	int64_t samples; /* sum of root totals */
	double seconds;
	char **strings;
	size_t n_strings;
};

int amd_pyspy_trie_query(struct amd_store *st, const struct amd_pyspy_sel *sel,
			 struct amd_pyspy_trie *out, struct amd_err *err);
void amd_pyspy_trie_free(struct amd_pyspy_trie *t);

#endif
