/* cprofile.c — cProfile / pstats dumps (`python -m cProfile -o out.prof`,
 * `Stats.dump_stats`, any file name): a marshal dict {(file, line, func):
 * (primitive calls, calls, tottime, cumtime, {caller: (calls, primitive
 * calls, tottime, cumtime)})} read with marshal.c, for every marshal
 * version Python 3 writes. Each function becomes a region (kind
 * function, profiler cprofile; built-ins, keyed ('~', 0, name), have no
 * file), its tottime the self and cumtime the total time in ns, and each
 * caller an edge. A Python 2 dump is refused by name (marshal.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ingest.h"
#include "marshal.h"
#include "buf.h"
#include "file.h"
#include "hmap.h"

#define CPROFILE_MAX ((size_t)2 << 30)

static int detect(const char *path, const unsigned char *head, size_t n)
{
	return amd_marshal_looks_like_stats(head, n) ? 90 : 0;
}

/* A function's key: (file, line, name) and its place in the dict. */
struct fn {
	const struct amd_mv *file, *name;
	int64_t line;
	int64_t key; /* region key: its order in the dict, from 1 */
};

struct reader {
	const char *path;
	struct fn *fns;
	size_t n;
	struct amd_hmap index;  /* fns by key, for caller look-ups */
	struct amd_hmap by_ptr; /* fns by their key's string objects (same_objects) */
	struct amd_buf name, file;
	struct amd_sink *sink;
};

static int bad(const struct reader *r, const struct amd_mv *v, const char *what,
	       struct amd_err *err)
{
	return amd_fail(err, "%s: byte %zu: %s", r->path, (size_t)v->offset, what);
}

static int str_eq(const struct amd_mv *a, const struct amd_mv *b)
{
	return a == b || /* one string object, referred to again (marshal's refs) */
	       (a->u.s.len == b->u.s.len && memcmp(a->u.s.p, b->u.s.p, a->u.s.len) == 0);
}

/* Keys are found by hash: with a sorted array and bsearch, comparing
 * (file, line, name) keys that share long file prefixes was a sixth of
 * the reader's time. The hash reads the name, the line and the file's
 * length and last FILE_TAIL bytes (where paths differ; equal keys still
 * hash alike, and fn_eq compares whole paths): hashing whole paths
 * (~95 bytes) byte by byte was 7% of a cProfile ingest's CPU; those
 * bytes are taken a word at a time (amd_hash_words). */
#define FILE_TAIL 32
static uint32_t fn_hash(const struct fn *f)
{
	size_t n = f->file->u.s.len, tail = n < FILE_TAIL ? n : FILE_TAIL;
	uint64_t h = amd_hash_words(AMD_HASH_SEED, f->file->u.s.p + (n - tail), tail);
	h = (h ^ (uint64_t)n) * AMD_HASH_GOLDEN;
	h = (h ^ (uint64_t)f->line) * AMD_HASH_GOLDEN;
	return amd_hash_u64(amd_hash_words(h, f->name->u.s.p, f->name->u.s.len));
}

struct probe {
	const struct reader *r;
	const struct fn *want;
};

static int fn_eq(const void *ctx, uint32_t idx)
{
	const struct probe *p = ctx;
	const struct fn *a = p->want, *b = &p->r->fns[idx];
	return a->line == b->line && str_eq(a->name, b->name) && str_eq(a->file, b->file);
}

static const struct fn *find_fn(const struct reader *r, const struct fn *want, uint32_t h)
{
	struct probe p = {r, want};
	int64_t i = amd_hmap_find(&r->index, h, fn_eq, &p);
	return i < 0 ? NULL : &r->fns[i];
}

/* A caller's key names the file and function by the very string objects
 * its own entry's key does (a marshal reference: pstats builds both from
 * one code object's co_filename and co_name), so a caller is first looked
 * up by those objects' addresses and its line, hashing three words, not
 * some 50 bytes of text: that hashing and the texts' comparison were
 * most of the callers' time, a tenth of a cProfile ingest's CPU. A key
 * whose strings are copies (marshal version 2 and older writes no
 * references) misses here and is found by its text (find_fn). */
static uint32_t ptr_hash(const struct fn *f)
{
	uint64_t k = (uint64_t)(uintptr_t)f->file * AMD_HASH_GOLDEN;
	k ^= (uint64_t)(uintptr_t)f->name + 0x632be59bd9b4e019ULL + (k << 6) + (k >> 2);
	return amd_hash_u64(k ^ (uint64_t)f->line * 0xff51afd7ed558ccdULL);
}

static int same_objects(const void *ctx, uint32_t idx)
{
	const struct probe *p = ctx;
	const struct fn *a = p->want, *b = &p->r->fns[idx];
	return a->file == b->file && a->name == b->name && a->line == b->line;
}

static const struct fn *find_caller(const struct reader *r, const struct fn *want)
{
	struct probe p = {r, want};
	int64_t i = amd_hmap_find(&r->by_ptr, ptr_hash(want), same_objects, &p);
	return i >= 0 ? &r->fns[i] : find_fn(r, want, fn_hash(want));
}

/* A (file, line, func) key tuple into f. */
static int key_of(const struct reader *r, const struct amd_mv *k, struct fn *f,
		  struct amd_err *err)
{
	if (k->type != AMD_MV_TUPLE || k->u.seq.n != 3 || k->u.seq.v[0]->type != AMD_MV_STR ||
	    k->u.seq.v[1]->type != AMD_MV_INT || k->u.seq.v[2]->type != AMD_MV_STR)
		return bad(r, k, "a function key that is not (file, line, name)", err);
	f->file = k->u.seq.v[0];
	f->line = k->u.seq.v[1]->u.i;
	f->name = k->u.seq.v[2];
	return 0;
}

static int number(const struct reader *r, const struct amd_mv *v, double *out,
		  struct amd_err *err)
{
	if (v->type == AMD_MV_INT)
		*out = (double)v->u.i;
	else if (v->type == AMD_MV_FLOAT && isfinite(v->u.f))
		*out = v->u.f;
	else
		return bad(r, v, "a time that is not a finite number", err);
	return 0;
}

static int count(const struct reader *r, const struct amd_mv *v, int64_t *out,
		 struct amd_err *err)
{
	if (v->type != AMD_MV_INT || v->u.i < 0)
		return bad(r, v, "a call count that is not a count", err);
	*out = v->u.i;
	return 0;
}

/* (calls a, calls b, time, time) into the four numbers. */
static int four(const struct reader *r, const struct amd_mv *t, int64_t *a, int64_t *b,
		int64_t *tt_ns, int64_t *ct_ns, struct amd_err *err)
{
	double tt = 0, ct = 0;
	if (count(r, t->u.seq.v[0], a, err) < 0 || count(r, t->u.seq.v[1], b, err) < 0 ||
	    number(r, t->u.seq.v[2], &tt, err) < 0 || number(r, t->u.seq.v[3], &ct, err) < 0)
		return -1;
	*tt_ns = llround(tt * 1e9);
	*ct_ns = llround(ct * 1e9);
	return 0;
}

static const char *text(struct amd_buf *b, const struct amd_mv *s)
{
	b->len = 0;
	if (amd_buf_append(b, s->u.s.p, s->u.s.len) < 0 || amd_buf_append(b, "", 1) < 0)
		return NULL;
	return b->data;
}

static int emit_region(struct reader *r, const struct fn *f, const struct amd_mv *val,
		       struct amd_err *err)
{
	if (val->type != AMD_MV_TUPLE || val->u.seq.n != 5 || val->u.seq.v[4]->type != AMD_MV_DICT)
		return bad(r, val, "a function's entry that is not (cc, nc, tt, ct, callers)", err);
	struct amd_region_rec rec = {.kind = AMD_REGION_FUNCTION, .profiler = "cprofile",
				     .rank = -1, .device = -1, .key = f->key, .bytes = -1};
	if (four(r, val, &rec.prim_calls, &rec.calls, &rec.self_ns, &rec.total_ns, err) < 0)
		return -1;
	int builtin = f->line == 0 && f->file->u.s.len == 1 && f->file->u.s.p[0] == '~';
	rec.name = text(&r->name, f->name);
	rec.file = builtin ? NULL : text(&r->file, f->file);
	rec.line = f->line > 0 && f->line <= 0x7fffffff ? (int)f->line : 0;
	if (!rec.name || (!builtin && !rec.file))
		return amd_fail(err, "%s: out of memory", r->path);
	return r->sink->region ? r->sink->region(r->sink, &rec, err) : 0;
}

static int emit_callers(struct reader *r, const struct fn *callee, const struct amd_mv *callers,
			struct amd_err *err)
{
	for (size_t i = 0; i + 1 < callers->u.seq.n; i += 2) {
		struct fn want;
		if (key_of(r, callers->u.seq.v[i], &want, err) < 0)
			return -1;
		const struct fn *caller = find_caller(r, &want);
		if (!caller)
			return bad(r, callers->u.seq.v[i], "a caller that has no entry of its own",
				   err);
		const struct amd_mv *v = callers->u.seq.v[i + 1];
		struct amd_region_call c = {.caller_key = caller->key, .callee_key = callee->key,
					    .prim_calls = -1, .self_ns = -1, .total_ns = -1};
		if (v->type == AMD_MV_INT) { /* old pstats: the call count alone */
			if (count(r, v, &c.calls, err) < 0)
				return -1;
		} else if (v->type != AMD_MV_TUPLE || v->u.seq.n != 4) {
			return bad(r, v, "a caller's entry that is not (nc, cc, tt, ct)", err);
		} else if (four(r, v, &c.calls, &c.prim_calls, &c.self_ns, &c.total_ns, err) < 0) {
			return -1;
		}
		if (r->sink->region_call && r->sink->region_call(r->sink, &c, err) < 0)
			return -1;
	}
	return 0;
}

/* Every key into fns (dict order) and the index (for caller look-ups). */
static int index_keys(struct reader *r, const struct amd_mv *root, struct amd_err *err)
{
	r->n = root->u.seq.n / 2;
	if (r->n >= UINT32_MAX)
		return bad(r, root, "more functions than this reader holds", err);
	r->fns = calloc(r->n ? r->n : 1, sizeof *r->fns);
	if (!r->fns)
		return amd_fail(err, "%s: out of memory", r->path);
	for (size_t i = 0; i < r->n; i++) {
		struct fn *f = &r->fns[i];
		if (key_of(r, root->u.seq.v[2 * i], f, err) < 0)
			return -1;
		f->key = (int64_t)i + 1;
		uint32_t h = fn_hash(f);
		if (find_fn(r, f, h))
			return bad(r, root->u.seq.v[2 * i], "a function listed twice", err);
		if (amd_hmap_put(&r->index, h, (uint32_t)i) < 0 ||
		    amd_hmap_put(&r->by_ptr, ptr_hash(f), (uint32_t)i) < 0)
			return amd_fail(err, "%s: out of memory", r->path);
	}
	return 0;
}

static int read_stats(struct reader *r, const struct amd_input *in, const struct amd_mv *root,
		      struct amd_err *err)
{
	if (root->type != AMD_MV_DICT)
		return bad(r, root, "not a pstats dump (the top value is not a dict)", err);
	if (index_keys(r, root, err) < 0 || amd_input_link(in, r->sink, err) < 0)
		return -1;
	for (size_t i = 0; i < r->n; i++)
		if (emit_region(r, &r->fns[i], root->u.seq.v[2 * i + 1], err) < 0)
			return -1;
	for (size_t i = 0; i < r->n; i++)
		if (emit_callers(r, &r->fns[i], root->u.seq.v[2 * i + 1]->u.seq.v[4], err) < 0)
			return -1;
	return 0;
}

static int parse(const struct amd_input *in, struct amd_sink *sink, struct amd_err *err)
{
	struct amd_buf buf = {0};
	if (amd_read_file(in->path, CPROFILE_MAX, &buf, err) < 0)
		return -1;
	struct amd_mv *root;
	struct amd_marshal *m = amd_marshal_read(in->path, (const unsigned char *)buf.data,
						 buf.len, &root, err);
	int rc = -1;
	struct reader r = {.path = in->path, .sink = sink};
	if (m)
		rc = read_stats(&r, in, root, err);
	free(r.fns);
	amd_hmap_free(&r.index);
	amd_hmap_free(&r.by_ptr);
	amd_buf_free(&r.name);
	amd_buf_free(&r.file);
	amd_marshal_free(m);
	amd_buf_free(&buf);
	return rc;
}

const struct amd_format amd_fmt_cprofile = {
	.name = "cprofile",
	.variants = "cProfile/pstats dumps (python -m cProfile -o, .prof, .pstats), marshal versions 0-4",
	.detect = detect,
	.parse = parse,
};
