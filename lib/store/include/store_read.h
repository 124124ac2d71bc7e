/* store_read.h — one read transaction over many queries. Each query
 * outside a transaction takes and drops SQLite's shared lock and looks
 * at the WAL again (fcntl, fstat, the WAL index): in a report of 1,000
 * runs that was a sixth of its time (tens of thousands of small
 * queries). Between amd_store_read_begin and amd_store_read_end every
 * read shares one snapshot and one lock. They nest (SAVEPOINT); a
 * writer's BEGIN IMMEDIATE inside one fails, so wrap only reads. */
#ifndef AMD_STORE_READ_H
#define AMD_STORE_READ_H

#include "err.h"
#include "store.h"

int amd_store_read_begin(struct amd_store *st, struct amd_err *err);
/* Ends the innermost read_begin (nothing was written: it only lets go). */
void amd_store_read_end(struct amd_store *st);

#endif
