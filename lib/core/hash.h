/* hash.h — SHA-256 (libcrypto) of files and of several pieces, as 64
 * lowercase hex digits: the identity of every ingested source. */
#ifndef AMD_HASH_H
#define AMD_HASH_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"

/* SHA-256 of a file's bytes as 64 lowercase hex digits (+ NUL). */
int amd_sha256_file(const char *path, char hex[65], uint64_t *size,
		    struct amd_err *err);

/* Incremental SHA-256 over several pieces (used for a directory unit). */
struct amd_sha;
struct amd_sha *amd_sha_new(void);
int amd_sha_update(struct amd_sha *s, const void *p, size_t n);
int amd_sha_update_file(struct amd_sha *s, const char *path, uint64_t *size,
			struct amd_err *err);
void amd_sha_final(struct amd_sha *s, char hex[65]); /* frees s */

#endif
