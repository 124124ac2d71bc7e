/* name_cap.h — the one cap on the length of a stored name (an op, kernel,
 * function, frame, file, region, metric/param/tag key, phase, process,
 * thread, sweep or run name). A name of at most AMD_NAME_MAX bytes is
 * kept as it is; a longer one becomes its first bytes (cut on a UTF-8
 * character boundary), "…" and the first 16 hex digits of the SHA-256 of
 * the whole name, AMD_NAME_MAX bytes at most: distinct long names stay
 * distinct, equal ones stay equal. The store applies it wherever a name
 * is written or looked up (docs/design.md, "The store"). */
#ifndef AMD_NAME_CAP_H
#define AMD_NAME_CAP_H

#include <stddef.h>

#define AMD_NAME_MAX 4096
#define AMD_NAME_HASH_HEX 16

/* s itself when it is short enough, else the capped form written into
 * out (AMD_NAME_MAX + 1 bytes); NULL only when out of memory. */
const char *amd_name_cap(const char *s, char out[AMD_NAME_MAX + 1]);

#endif
