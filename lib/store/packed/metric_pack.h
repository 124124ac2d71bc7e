/* metric_pack.h — the packed layout of a metric series (issue 19): the
 * points of one (source, run, metric key) series, in the order they were
 * logged, stored in table metric_series as chunks of at most
 * AMD_METRIC_CHUNK points, each chunk one BLOB `points`:
 *
 *   n little-endian int64 steps, then n little-endian int64 times (ms,
 *   0 when unknown), then n little-endian IEEE-754 float64 values (NaN
 *   when logged as NaN; inf as logged); n = length / 24.
 *
 * The ONE pair of functions that writes and reads that layout: the
 * writer, the migration from row-per-point stores, the ClickHouse load
 * and the `metric_point` virtual table all go through them. */
#ifndef AMD_METRIC_PACK_H
#define AMD_METRIC_PACK_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"

/* Points per chunk row: a writer buffers at most this many per series. */
#define AMD_METRIC_CHUNK 4096
/* Bytes one point takes in a blob. */
#define AMD_METRIC_POINT_BYTES 24

/* A series' points as three arrays (struct of arrays, like the blob). */
struct amd_metric_cols {
	int64_t *step, *ts_ms;
	double *value;
	size_t n;
};

/* Writes n points of c into out, which holds n * AMD_METRIC_POINT_BYTES
 * bytes. */
void amd_metric_pack(const struct amd_metric_cols *c, unsigned char *out);

/* Reads the blob (len bytes; what names it in a message, e.g. the store
 * and row) into c, whose arrays the caller frees with
 * amd_metric_cols_free. A length not a multiple of
 * AMD_METRIC_POINT_BYTES is an error; an empty blob is an empty series. */
int amd_metric_unpack(const void *blob, size_t len, const char *what,
		      struct amd_metric_cols *c, struct amd_err *err);

void amd_metric_cols_free(struct amd_metric_cols *c);

#endif
