/* chunks.h — a file's bytes in chunks, gunzipped by a second thread when
 * gzipped: how the trace parser streams files of hundreds of MB. */
#ifndef AMD_CHUNKS_H
#define AMD_CHUNKS_H

#include <stddef.h>

#include "err.h"

/* A file's bytes, gunzipped when gzipped, in chunks inflated by a second
 * thread. next() returns the chunk's length (the chunk stays valid until
 * the following call), 0 at the end of the data or on a read error;
 * status() then gives zlib's code (Z_OK: clean end), its message and the
 * offset reached in the compressed file. UTF-16 data (text16.h) ends at
 * once, status() Z_ERRNO with a message saying so. */
struct amd_chunk_reader;
int amd_chunks_open(const char *path, struct amd_chunk_reader **out, struct amd_err *err);
long amd_chunks_next(struct amd_chunk_reader *r, const unsigned char **data);
/* How many bytes of a UTF-8 byte-order mark amd_chunks_next dropped
 * before the first chunk (0 or 3): a reader adds them to its offsets so
 * an error names the file's own byte. */
size_t amd_chunks_skipped(const struct amd_chunk_reader *r);
int amd_chunks_status(struct amd_chunk_reader *r, const char **msg, long long *raw_offset);
void amd_chunks_close(struct amd_chunk_reader *r);

#endif
