/* pyspy_sweep.h — py-spy data as a sweep's report shows it: which of
 * the runs with py-spy samples belong to the sweep, and the library a
 * frame's file belongs to (the package under site-packages or
 * dist-packages, else the file itself), by which the icicle colours
 * its frames. The samples themselves come from amd_pyspy_top_query and
 * amd_pyspy_trie_query. */
#ifndef AMD_PYSPY_SWEEP_H
#define AMD_PYSPY_SWEEP_H

#include <stddef.h>

#include "err.h"
#include "pyspy.h"
#include "store.h"

/* How many of the newest runs with py-spy samples are looked at. */
#define AMD_PYSPY_SWEEP_SCAN 64

/* The selections (newest first) of the runs of sweep among the
 * AMD_PYSPY_SWEEP_SCAN newest runs with py-spy samples: up to max in
 * out, their count in *n. -1 with err on a store error. */
int amd_pyspy_sweep_runs(struct amd_store *st, const char *sweep, struct amd_pyspy_sel *out,
			 size_t max, size_t *n, struct amd_err *err);

/* The library of a frame's file into buf: the directory under
 * site-packages/ or dist-packages/, else the file's base name. */
void amd_pyspy_library(const char *file, char *buf, size_t n);

#endif
