/* gunzip.h — a file's bytes, gunzipped when they start with the gzip
 * magic: Intel ISA-L's igzip (several times zlib's speed) by default,
 * zlib when AMDAHL_GUNZIP=zlib is set (the fallback, and the reference
 * `make bench` measures against). Concatenated members are read one after
 * the other; bytes after the last member that are not another member are
 * ignored, as zlib's gzread does. Used by chunks.c's inflater thread. */
#ifndef AMD_GUNZIP_H
#define AMD_GUNZIP_H

#include <stddef.h>

struct amd_gunzip;

/* Takes fd (closed by amd_gunzip_close, also on failure); 0, or -1 with
 * errno set (ENOMEM). */
int amd_gunzip_open(int fd, struct amd_gunzip **out);
/* Fills buf with up to cap bytes; the count, 0 at the end of the data or
 * on an error (then amd_gunzip_status says which). */
long amd_gunzip_read(struct amd_gunzip *g, unsigned char *buf, size_t cap);
/* zlib's code for how reading ended (Z_OK: a clean end, Z_BUF_ERROR: the
 * data ends inside a member, Z_DATA_ERROR: corrupt, Z_ERRNO: a read
 * error), its message and the offset reached in the file. */
int amd_gunzip_status(const struct amd_gunzip *g, const char **msg, long long *raw_offset);
void amd_gunzip_close(struct amd_gunzip *g);

#endif
