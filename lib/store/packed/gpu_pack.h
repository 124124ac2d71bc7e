/* gpu_pack.h — the packed layout of nvidia-smi samples (issue 19, round
 * nine): the samples of one (source, run, GPU) series, in the order the
 * log gave them, stored in table gpu_series as chunks of at most
 * AMD_GPU_CHUNK samples, each chunk one BLOB `samples`:
 *
 *   n little-endian int64 times (ms), then five arrays of n
 *   little-endian IEEE-754 float64: util_pct, mem_util_pct, power_w,
 *   mem_used_mib, temp_c (NaN: no value); n = length / 48.
 *
 * The row also holds n and the chunk's least and greatest time (t0_ms,
 * t1_ms), so a window skips chunks without reading them. The ONE pair
 * of functions that writes and reads that layout: the writer, the
 * migration from row-per-sample stores, the ClickHouse load, the
 * `gpu_sample` virtual table and gpu_samples.c all go through them. */
#ifndef AMD_GPU_PACK_H
#define AMD_GPU_PACK_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "records.h"

/* Samples per chunk row: a writer buffers at most this many per GPU. */
#define AMD_GPU_CHUNK 4096
#define AMD_GPU_CHUNK_SQL "4096" /* AMD_GPU_CHUNK, spelled for SQL */
/* Bytes one sample takes in a blob. */
#define AMD_GPU_SAMPLE_BYTES 48

/* Writes n samples of v (their gpu is the row's, not stored) into out,
 * which holds n * AMD_GPU_SAMPLE_BYTES bytes. A value of 0 is stored as
 * +0 (SQLite gave -0.0 back as 0). */
void amd_gpu_pack(const struct amd_gpu_sample *v, size_t n, unsigned char *out);

/* The samples of a blob of len bytes into out[0..n), n = len / 48, each
 * with GPU gpu; what names the blob in a message (a length not a
 * multiple of AMD_GPU_SAMPLE_BYTES). out holds n samples. */
int amd_gpu_unpack(const void *blob, size_t len, int gpu, const char *what,
		   struct amd_gpu_sample *out, struct amd_err *err);

/* The time of sample i of a blob holding n samples. */
int64_t amd_gpu_blob_ts(const void *blob, size_t i);

#endif
