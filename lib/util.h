/* util.h — small shared helpers: growable buffers, whole-file reads with
 * transparent gunzip, SHA-256 of files, number parsing that reports
 * failure, and path tests. */
#ifndef AMD_UTIL_H
#define AMD_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"

struct amd_buf {
	char *data;
	size_t len, cap;
};

int amd_buf_append(struct amd_buf *b, const void *p, size_t n);
int amd_buf_printf(struct amd_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void amd_buf_free(struct amd_buf *b);

/* Makes room for element n of the array *arrp (a T **) of *cap elements
 * of elem bytes: when full, doubles *cap (first when 0) and reallocates.
 * -1 when out of memory (the array is left as it was). */
int amd_grow(void *arrp, size_t n, size_t *cap, size_t elem, size_t first);

/* Reads a whole file (gunzipping it when it starts with the gzip magic)
 * into a NUL-terminated buffer; refuses files larger than max_bytes.
 * On failure out is freed. */
int amd_read_file(const char *path, size_t max_bytes, struct amd_buf *out,
		  struct amd_err *err);

/* Opens a regular file for reading (never blocks: a FIFO, socket or
 * device is refused with "PATH: not a regular file"); returns the fd. */
int amd_open_regular(const char *path, struct amd_err *err);

/* Line-by-line reading of a (possibly gzipped) file in bounded memory:
 * a line longer than max_line, or more than max_bytes decompressed, is
 * an error naming the file, the line and the limit. */
struct amd_lines;
struct amd_lines *amd_lines_open(const char *path, size_t max_line, uint64_t max_bytes,
				 struct amd_err *err);
/* 1: *line holds the next line (NUL-terminated, newline stripped, *len
 * its length; it may contain NUL bytes); 0: end of file; -1: error. */
int amd_lines_next(struct amd_lines *l, char **line, size_t *len, struct amd_err *err);
long amd_lines_number(const struct amd_lines *l); /* current line, from 1 */
void amd_lines_close(struct amd_lines *l);

/* Reads up to n bytes of the file's start, gunzipped when gzipped;
 * returns the number read or -1. */
long amd_read_head(const char *path, unsigned char *head, size_t n,
		   struct amd_err *err);

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

/* Strict number parsing: the whole of s (surrounding blanks allowed)
 * must be the number; "nan", "inf", "-inf" accepted for doubles. */
int amd_parse_double(const char *s, double *out);
int amd_parse_int64(const char *s, int64_t *out);

int amd_is_dir(const char *path);
int amd_is_file(const char *path);
/* Joins a and b with one '/'; returns malloc'd text. */
char *amd_path_join(const char *a, const char *b);
/* Last path component (no copy). */
const char *amd_basename(const char *path);

/* Finds a file shipped in templates/: $AMDAHL_TEMPLATES, then the
 * installed share dir, then ./templates. Returns malloc'd path or NULL. */
char *amd_template_path(const char *name);

#endif
