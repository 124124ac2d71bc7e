/* fuzz.h — what every libFuzzer target shares: a scratch directory,
 * writing the input into files there, and a counting sink that also
 * checks the sink contract (every string a parser passes is non-NULL
 * where sink.h says so). A target is one small tests/fuzz/fuzz_*.c file
 * that includes this header; the Makefile finds it. */
#ifndef AMD_FUZZ_H
#define AMD_FUZZ_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ingest.h"
#include "file.h"
#include "hash.h"

/* A scratch directory of this fuzzer process, removed at exit. */
static char fuzz_dir[64];

static inline void fuzz_cleanup(void)
{
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", fuzz_dir);
	if (system(cmd) != 0)
		fprintf(stderr, "fuzz: cannot remove %s\n", fuzz_dir);
}

static inline const char *fuzz_scratch(void)
{
	if (!fuzz_dir[0]) {
		snprintf(fuzz_dir, sizeof fuzz_dir, "/tmp/amdahl-fuzz-XXXXXX");
		if (!mkdtemp(fuzz_dir))
			abort();
		atexit(fuzz_cleanup);
	}
	return fuzz_dir;
}

/* Writes n bytes to dir/name (creating dir); returns the malloc'd path. */
static inline char *fuzz_write(const char *dir, const char *name, const void *p, size_t n)
{
	mkdir(dir, 0700);
	char *path = amd_path_join(dir, name);
	FILE *f = path ? fopen(path, "wb") : NULL;
	if (!f || (n && fwrite(p, 1, n, f) != n) || fclose(f) != 0)
		abort();
	return path;
}

struct fuzz_counts {
	size_t runs, params, tags, metrics, links, traces, ops, gpus, stacks, regions;
};

#define FUZZ_REQUIRE(c)                                                     \
	do {                                                                \
		if (!(c)) {                                                 \
			fprintf(stderr, "sink contract broken: %s\n", #c);  \
			abort();                                            \
		}                                                           \
	} while (0)

static inline int count_run(struct amd_sink *s, const struct amd_run_rec *r, struct amd_err *e)
{
	FUZZ_REQUIRE(r && r->ext_id);
	((struct fuzz_counts *)s->ctx)->runs++;
	return 0;
}
static inline int count_param(struct amd_sink *s, const char *k, const char *v, struct amd_err *e)
{
	FUZZ_REQUIRE(k && v);
	((struct fuzz_counts *)s->ctx)->params++;
	return 0;
}
static inline int count_tag(struct amd_sink *s, const char *k, const char *v, struct amd_err *e)
{
	FUZZ_REQUIRE(k && v);
	((struct fuzz_counts *)s->ctx)->tags++;
	return 0;
}
static inline int count_metric(struct amd_sink *s, const char *k, int64_t step, int64_t ts, double v,
			struct amd_err *e)
{
	FUZZ_REQUIRE(k);
	((struct fuzz_counts *)s->ctx)->metrics++;
	return 0;
}
static inline int count_link(struct amd_sink *s, const char *id, const char *name, const char *sweep,
		      struct amd_err *e)
{
	((struct fuzz_counts *)s->ctx)->links++;
	return 0;
}
static inline int count_trace(struct amd_sink *s, const struct amd_trace_summary *t, struct amd_err *e)
{
	FUZZ_REQUIRE(t && (t->n_ops == 0 || t->ops) && (t->n_steps == 0 || t->steps) &&
		     (t->n_colls == 0 || t->colls));
	for (size_t i = 0; i < t->n_ops; i++)
		FUZZ_REQUIRE(t->ops[i].name);
	for (size_t i = 0; i < t->n_colls; i++)
		FUZZ_REQUIRE(t->colls[i].name);
	((struct fuzz_counts *)s->ctx)->traces++;
	return 0;
}
static inline int count_op(struct amd_sink *s, const char *name, int role, int rank,
			   double self_us, double total_us, int64_t calls, struct amd_err *e)
{
	FUZZ_REQUIRE(name);
	((struct fuzz_counts *)s->ctx)->ops++;
	return 0;
}
static inline int count_gpu(struct amd_sink *s, const struct amd_gpu_sample *g, struct amd_err *e)
{
	FUZZ_REQUIRE(g);
	((struct fuzz_counts *)s->ctx)->gpus++;
	return 0;
}
static inline int count_stack(struct amd_sink *s, const struct amd_stack_rec *r, struct amd_err *e)
{
	FUZZ_REQUIRE(r && (r->depth == 0 || r->frames));
	for (size_t i = 0; i < r->depth; i++)
		FUZZ_REQUIRE(r->frames[i].name);
	((struct fuzz_counts *)s->ctx)->stacks++;
	return 0;
}

/* A region as every reader must report it: named, of a kind, by a
 * profiler; a detail's category may be missing. */
static inline int count_region(struct amd_sink *s, const struct amd_region_rec *r,
			       struct amd_err *e)
{
	FUZZ_REQUIRE(r && r->name && r->kind && r->profiler);
	((struct fuzz_counts *)s->ctx)->regions++;
	return 0;
}

static inline struct amd_sink fuzz_counting_sink(struct fuzz_counts *c)
{
	memset(c, 0, sizeof *c);
	return (struct amd_sink){
		.ctx = c, .run = count_run, .param = count_param, .tag = count_tag,
		.metric = count_metric, .link = count_link, .trace = count_trace,
		.op_average = count_op, .gpu_sample = count_gpu, .stack = count_stack,
		.region = count_region,
	};
}

/* A failing parse must say why, in one line that names the file. A
 * unit with nothing to add (AMD_PARSE_NOTHING: an empty mlflow.db, a
 * deleted run) says why in one line that ingest prints after the unit's
 * path, so the reason alone is enough. */
static inline void fuzz_check_error(int rc, const struct amd_err *err, const char *path)
{
	if (rc == 0)
		return;
	FUZZ_REQUIRE(rc == -1 || rc == AMD_PARSE_FOREIGN || rc == AMD_PARSE_NOTHING);
	FUZZ_REQUIRE(err->msg[0] != '\0');
	FUZZ_REQUIRE(strchr(err->msg, '\n') == NULL);
	if (rc == AMD_PARSE_NOTHING)
		return;
	FUZZ_REQUIRE(strstr(err->msg, path) != NULL || strstr(err->msg, fuzz_dir) != NULL);
}

/* Parses the unit at path (a file, or a directory for is_dir formats)
 * the way the engine does: detect, hash, parse into a counting sink. */
static inline void fuzz_parse_unit(const struct amd_format *f, const char *path)
{
	struct amd_config cfg = {0};
	struct amd_input in = {.path = path, .rank_hint = -1, .config = &cfg};
	struct amd_err err = {{0}};
	if (!f->is_dir) {
		unsigned char head[AMD_HEAD_BYTES + 1];
		long n = amd_read_head(path, head, AMD_HEAD_BYTES, &err);
		if (n >= 0) {
			head[n] = '\0';
			f->detect(path, head, (size_t)n);
		}
	} else {
		f->detect(path, NULL, 0);
	}
	char hex[65];
	uint64_t size = 0;
	err.msg[0] = '\0';
	fuzz_check_error(f->hash ? f->hash(path, hex, &size, &err)
				 : amd_sha256_file(path, hex, &size, &err), &err, path);
	struct fuzz_counts c;
	struct amd_sink sink = fuzz_counting_sink(&c);
	err.msg[0] = '\0';
	fuzz_check_error(f->parse(&in, &sink, &err), &err, path);
}

/* A counted pack row (the *_blob targets of column arrays): *n from
 * the input's first two bytes (0..65535), the blob the rest; 0 when
 * the input is shorter than two bytes. */
static inline int fuzz_counted_blob(const uint8_t *data, size_t size, int64_t *n,
				    const uint8_t **blob, size_t *len)
{
	if (size < 2)
		return 0;
	*n = data[0] | data[1] << 8;
	*blob = data + 2;
	*len = size - 2;
	return 1;
}

/* A blob refused: one line naming it ("fuzz: "), else abort. */
static inline void fuzz_refused(const struct amd_err *err)
{
	if (strchr(err->msg, '\n') || !strstr(err->msg, "fuzz: "))
		abort();
}

/* v[0..n) (rows of size bytes), each as its layout stores it (stored:
 * a NULL value as 0, in place), equal to w[0..n), the rows read back
 * from their pack; else abort. */
static inline void fuzz_rows_same(void *v, const void *w, size_t n, size_t size,
				  void (*stored)(void *row))
{
	for (size_t i = 0; i < n; i++) {
		stored((char *)v + i * size);
		if (memcmp((char *)v + i * size, (const char *)w + i * size, size) != 0)
			abort();
	}
}

/* A packed blob's round trip (the *_blob targets): back, what the
 * accepted records of data packed into, holds the same size bytes as
 * data, but for an 8-byte word that is_double(at, ctx) says is a double
 * and that data holds as -0: it packs as +0, as SQLite gives -0.0 back. */
static inline void fuzz_repacked_same(const uint8_t *data, const uint8_t *back, size_t size,
				      int (*is_double)(size_t at, size_t ctx), size_t ctx)
{
	static const unsigned char neg_zero[8] = {0, 0, 0, 0, 0, 0, 0, 0x80}, zero[8] = {0};
	for (size_t at = 0; at + 8 <= size; at += 8) {
		int was_neg_zero = is_double(at, ctx) && memcmp(data + at, neg_zero, 8) == 0;
		if (memcmp(back + at, was_neg_zero ? zero : data + at, 8) != 0)
			abort();
	}
}

#endif
