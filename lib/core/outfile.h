/* outfile.h — writing an output file atomically inside a directory:
 * every report, chart, summary, JUnit or Markdown file amdahl writes is
 * written to a temporary file beside its final name and renamed into
 * place, so a reader never sees a half-written file, and no symbolic
 * link inside the output directory is ever followed. */
#ifndef AMD_OUTFILE_H
#define AMD_OUTFILE_H

#include <stddef.h>
#include <stdio.h>

#include "err.h"

struct amd_out {
	FILE *f;     /* the temporary file, written by the caller */
	int dirfd;   /* the directory holding the final name */
	char *shown; /* dir/rel, for messages */
	char *name;  /* the final name inside dirfd */
	char *tmp;   /* the temporary name inside dirfd */
	int slot;    /* its entry among the pending temporaries, or -1 */
	int write_errno; /* errno of a write a stream callback saw fail, or 0 */
};

/* Removes every temporary file now open (unlinkat only: safe in a signal
 * handler), so that a command stopped by SIGINT or SIGTERM leaves its
 * output directory without hidden .NAME.tmpXXXXXXXX files. */
void amd_out_remove_pending(void);

/* Opens a temporary file for dir/rel. dir is taken as the user named it;
 * every component of rel (such as "charts/speedup.png") is opened
 * without following symbolic links, and a final name that is a link or
 * a directory is refused. */
int amd_out_open(struct amd_out *o, const char *dir, const char *rel, struct amd_err *err);
/* The same for a path the user named (its directory, then its name). */
int amd_out_open_path(struct amd_out *o, const char *path, struct amd_err *err);
/* Flushes, syncs and renames the file into place; on failure the
 * temporary file goes and the final name is left as it was. Always
 * releases o. */
int amd_out_commit(struct amd_out *o, struct amd_err *err);
/* Drops the temporary file; the final name is left as it was. */
void amd_out_discard(struct amd_out *o);
/* Writes n bytes as dir/rel in one go (open, write, commit). */
int amd_out_write_all(const char *dir, const char *rel, const void *data, size_t n,
		      struct amd_err *err);

/* Creates directory dir/rel (rel's components are made as needed and
 * must not be symbolic links). */
int amd_out_mkdir(const char *dir, const char *rel, struct amd_err *err);
/* Removes file dir/rel if present, never through a link in rel. */
int amd_out_unlink(const char *dir, const char *rel, struct amd_err *err);
/* Removes the temporary files a killed writer (SIGKILL: no handler ran)
 * left in directory dir/rel (rel "" for dir itself): regular files named
 * as amd_out_open names them, ".NAME.tmpXXXXXXXX" (8 hex digits), and
 * nothing else. It first takes an exclusive flock on the directory,
 * held until the process ends; when another process holds it (a build
 * writing there now), it removes nothing. The number removed, or -1. */
int amd_out_sweep_tmp(const char *dir, const char *rel, struct amd_err *err);

#endif
