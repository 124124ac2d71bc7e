/* file.h — reading input files: whole (gunzipped when gzipped), a
 * slice at a time, by their first bytes, line by line in bounded
 * memory; never blocking on a FIFO or device; and path helpers. */
#ifndef AMD_FILE_H
#define AMD_FILE_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "err.h"

/* Reads a whole file (gunzipping it when it starts with the gzip magic)
 * into a NUL-terminated buffer; refuses files larger than max_bytes.
 * On failure out is freed. */
int amd_read_file(const char *path, size_t max_bytes, struct amd_buf *out,
		  struct amd_err *err);

/* A file read as amd_read_file reads it, a slice at a time into the
 * caller's buffer (a parser that copies what it is given, expat, then
 * needs no copy of the whole file): amd_stream_read gives > 0 bytes, 0
 * at the end, -1 with err on what amd_read_file refuses (more than
 * max_bytes, a read error, a gzip stream cut short, invalid UTF-16).
 * A slice is at least AMD_STREAM_SLICE_MIN bytes (twice zlib's buffer:
 * zlib 1.2.13's gzread, asked for less, loses the end of a cut gzip
 * stream and its error). amd_stream_close is given the stream however
 * it ended. */
#define AMD_STREAM_SLICE_MIN ((size_t)1 << 18)
struct amd_stream;
struct amd_stream *amd_stream_open(const char *path, size_t max_bytes, struct amd_err *err);
long amd_stream_read(struct amd_stream *s, char *buf, size_t n, struct amd_err *err);
void amd_stream_close(struct amd_stream *s);

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
/* 1 when the line last returned ended the file without a newline (a
 * file cut short, for a format whose writer ends every line). */
int amd_lines_unended(const struct amd_lines *l);
void amd_lines_close(struct amd_lines *l);

/* Reads up to n bytes of the file's start, gunzipped when gzipped;
 * returns the number read or -1. */
long amd_read_head(const char *path, unsigned char *head, size_t n,
		   struct amd_err *err);

int amd_is_dir(const char *path);
int amd_is_file(const char *path);
/* The run a path puts a file in by its folders alone, in *name (n bytes,
 * not NUL-ended; 0 when none): the folder above the last "/artifacts/"
 * (MLflow names a run's folder after its run id), else the one above
 * "/torch-traces/" (itwinai's run name). */
void amd_path_run_folder(const char *path, const char **name, size_t *n);
/* amd_same_run_fn (model/sink.h) by the folders alone: held and path
 * name the same run folder, or neither names one. */
int amd_same_run_folder(const char *held, const char *path);
/* Joins a and b with one '/'; returns malloc'd text, NULL out of memory. */
char *amd_path_join(const char *a, const char *b);
/* The names in dir but . files, sorted (strcmp), in *names (the caller
 * frees them with amd_names_free); -1 when dir cannot be read or out
 * of memory. */
int amd_list_dir(const char *dir, char ***names, size_t *n, struct amd_err *err);
void amd_names_free(char **names, size_t n);
/* Last path component (no copy). */
const char *amd_basename(const char *path);

/* Finds a file shipped in templates/: $AMDAHL_TEMPLATES, then the
 * installed share dir, then the source tree's, then ./templates. *out
 * gets the malloc'd path; -1 with "not found" or "out of memory". */
int amd_template_find(const char *name, char **out, struct amd_err *err);
/* The same, NULL when not found or out of memory. */
char *amd_template_path(const char *name);

#endif
