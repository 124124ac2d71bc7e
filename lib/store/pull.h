/* pull.h — `amdahl pull`: a ClickHouse store, or the sources of one of
 * its sweeps, copied into a SQLite file (the counterpart of ch_push.h). */
#ifndef AMD_PULL_H
#define AMD_PULL_H

#include <stddef.h>

#include "err.h"

/* Reads the committed rows of the ClickHouse store at url (only the
 * sources holding sweep's runs when sweep is not NULL; no such sweep is
 * an error) as every reading command does, and writes them as the
 * SQLite store to, replacing it atomically (a temporary file beside it,
 * renamed; a symbolic link at to is refused, and so is a to that a
 * process has open with a write-ahead log). *nsources: sources copied.
 * The event-level table trace_event (ingest --events) is not copied;
 * the schema versions are dated by the newest source copied, so an
 * unchanged store pulled again gives the same bytes. */
int amd_store_pull(const char *url, const char *sweep, const char *to, size_t *nsources,
		   struct amd_err *err);

#endif
