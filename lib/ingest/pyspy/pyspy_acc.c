/* pyspy_acc.c — the stack accumulator of pyspy_stack.h: identical
 * stacks merged in memory as they come. Frames are interned once (a hash
 * index over their text), stacks are paths in a trie of (parent, frame)
 * nodes under one root per (process, thread), and a stack's samples add
 * up on its last node — so memory follows the distinct frames and stack
 * nodes, not the samples. The flush walks the trie depth first, children
 * in the byte order of their frames' keys, which sends the merged stacks
 * to the sink in the order of their keys "process \x1d thread \x1d frame
 * \x1e frame …" (frame = name \x1f file \x1f line; the separator bytes
 * in texts read as '?'), then the regions of their functions
 * (pyspy_funcs.c). Each frame sent carries its interned number + 1 as
 * its id (records.h), so the queue, the writer and the regions look a
 * frame's texts up once, not once per stack. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pyspy_stack.h"
#include "buf.h"
#include "hmap.h"
#include "str_prefix.h"

#define NONE UINT32_MAX
#define NO_TEXT SIZE_MAX

struct acc_frame {
	size_t name, file; /* offsets in text; file NO_TEXT when none */
	int line;
};

struct acc_ctx {
	size_t process, thread; /* offsets in text, or NO_TEXT */
	uint32_t root;          /* its root node */
};

struct acc_node {
	uint32_t parent, frame; /* a root: parent NONE, frame = its context */
	int has;                /* a stack ends here */
	int64_t counted;        /* samples whose seconds are samples / rate */
	int64_t timed_samples;  /* samples that came with their seconds */
	double timed_seconds;
	int64_t us;             /* time-weighted µs; samples = µs × rate */
};

struct amd_pyspy_acc {
	struct amd_buf text; /* the texts, NUL-terminated, separators as '?' */
	struct acc_frame *frames;
	size_t n_frames, cap_frames;
	struct acc_ctx *ctx;
	size_t n_ctx, cap_ctx;
	struct acc_node *nodes;
	size_t n_nodes, cap_nodes;
	struct amd_hmap frame_ix, ctx_ix, node_ix;
	uint32_t *path; /* the last stack's nodes: a stack sharing a prefix */
	size_t n_path, cap_path; /* with it takes them without hashing */
	size_t adds;
	int overflow; /* a sum left int64 */
};

struct amd_pyspy_acc *amd_pyspy_acc_new(void)
{
	return calloc(1, sizeof(struct amd_pyspy_acc));
}

static unsigned char key_byte(unsigned char c)
{
	return c >= 0x1d && c <= 0x1f ? '?' : c;
}

/* The word's bytes as key_byte makes them. */
static uint64_t key_word(uint64_t w)
{
	unsigned char b[8];
	memcpy(b, &w, 8);
	for (int i = 0; i < 8; i++)
		b[i] = key_byte(b[i]);
	memcpy(&w, b, 8);
	return w;
}

/* A word holds a byte below 0x20 (a separator may be one of them). */
static int low_byte(uint64_t w)
{
	const uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
	return ((w - 0x20 * ones) & ~w & highs) != 0;
}

/* A hash of s read with separators as '?' (texts equal by same_text hash
 * alike), eight bytes at a time: byte by byte (FNV) it was a tenth of
 * reading a directory of dumps. Only the hash indexes use it. */
static uint64_t hash_text(uint64_t h, const char *s)
{
	if (!s)
		return amd_hash_word(h, ~(uint64_t)0);
	size_t n = strlen(s);
	h = amd_hash_word(h, n);
	for (; n >= 8; n -= 8, s += 8) {
		uint64_t w;
		memcpy(&w, s, 8);
		if (low_byte(w))
			w = key_word(w);
		h = amd_hash_word(h, w);
	}
	if (n) {
		uint64_t w = 0;
		memcpy(&w, s, n);
		h = amd_hash_word(h, key_word(w));
	}
	return h;
}

/* The stored text at off equals s read with separators as '?'. The
 * stored texts hold no separators, so texts equal byte for byte are
 * equal read so (strcmp: the common case, a stack's frames checked
 * against the previous stack's, without a byte-by-byte loop); else s
 * is read byte by byte. */
static int same_text(const struct amd_pyspy_acc *a, size_t off, const char *s)
{
	if (off == NO_TEXT || !s)
		return off == NO_TEXT && !s;
	const unsigned char *t = (const unsigned char *)a->text.data + off;
	const unsigned char *p = (const unsigned char *)s;
	if (strcmp((const char *)t, s) == 0)
		return 1;
	for (; *p; p++, t++)
		if (*t != key_byte(*p))
			return 0;
	return *t == '\0';
}

static size_t add_text(struct amd_pyspy_acc *a, const char *s, int *oom)
{
	if (!s)
		return NO_TEXT;
	size_t off = a->text.len, n = strlen(s) + 1;
	if (amd_buf_append(&a->text, s, n) < 0) {
		*oom = 1;
		return NO_TEXT;
	}
	char *p = a->text.data + off;
	for (size_t i = 0; i < n - 1; i += 8) { /* words with no byte below 0x20 kept as they are */
		uint64_t w = 0;
		size_t k = n - 1 - i < 8 ? n - 1 - i : 8;
		memcpy(&w, p + i, k);
		if (!low_byte(w))
			continue;
		for (size_t j = i; j < i + k; j++)
			p[j] = (char)key_byte((unsigned char)p[j]);
	}
	return off;
}

struct frame_probe {
	const struct amd_pyspy_acc *a;
	const struct amd_stack_frame *f;
};

static int frame_eq(const void *ctx, uint32_t i)
{
	const struct frame_probe *p = ctx;
	const struct acc_frame *g = &p->a->frames[i];
	return g->line == p->f->line && same_text(p->a, g->name, p->f->name) &&
	       same_text(p->a, g->file, p->f->file);
}

/* The interned frame f; NONE when out of memory. */
static uint32_t frame_of(struct amd_pyspy_acc *a, const struct amd_stack_frame *f)
{
	uint64_t h = hash_text(hash_text(AMD_HASH_SEED, f->name), f->file);
	uint32_t h32 = (uint32_t)(h ^ (h >> 32) ^ (uint32_t)f->line * 0x9e3779b9u);
	struct frame_probe probe = {a, f};
	int64_t i = amd_hmap_find(&a->frame_ix, h32, frame_eq, &probe);
	if (i >= 0)
		return (uint32_t)i;
	int oom = 0;
	if (a->n_frames >= NONE ||
	    amd_grow(&a->frames, a->n_frames, &a->cap_frames, sizeof *a->frames, 256) < 0)
		return NONE;
	struct acc_frame g = {.name = add_text(a, f->name, &oom), .line = f->line};
	g.file = add_text(a, f->file, &oom);
	if (oom || amd_hmap_put(&a->frame_ix, h32, (uint32_t)a->n_frames) < 0)
		return NONE;
	a->frames[a->n_frames] = g;
	return (uint32_t)a->n_frames++;
}

struct node_probe {
	const struct amd_pyspy_acc *a;
	uint32_t parent, frame;
};

static int node_eq(const void *ctx, uint32_t i)
{
	const struct node_probe *p = ctx;
	return p->a->nodes[i].parent == p->parent && p->a->nodes[i].frame == p->frame;
}

/* The node under parent for frame, made when new; NONE out of memory. */
static uint32_t node_of(struct amd_pyspy_acc *a, uint32_t parent, uint32_t frame)
{
	uint32_t h = amd_hash_u64((uint64_t)parent << 32 | frame);
	struct node_probe probe = {a, parent, frame};
	int64_t i = amd_hmap_find(&a->node_ix, h, node_eq, &probe);
	if (i >= 0)
		return (uint32_t)i;
	if (a->n_nodes >= NONE ||
	    amd_grow(&a->nodes, a->n_nodes, &a->cap_nodes, sizeof *a->nodes, 256) < 0 ||
	    amd_hmap_put(&a->node_ix, h, (uint32_t)a->n_nodes) < 0)
		return NONE;
	a->nodes[a->n_nodes] = (struct acc_node){.parent = parent, .frame = frame};
	return (uint32_t)a->n_nodes++;
}

struct ctx_probe {
	const struct amd_pyspy_acc *a;
	const struct amd_pyspy_stack *st;
};

static int ctx_eq(const void *ctx, uint32_t i)
{
	const struct ctx_probe *p = ctx;
	const struct acc_ctx *c = &p->a->ctx[i];
	return same_text(p->a, c->process, p->st->process) &&
	       same_text(p->a, c->thread, p->st->thread);
}

/* The root node of st's process and thread; NONE out of memory. */
static uint32_t root_of(struct amd_pyspy_acc *a, const struct amd_pyspy_stack *st)
{
	uint64_t h = hash_text(hash_text(AMD_HASH_SEED, st->process), st->thread);
	uint32_t h32 = (uint32_t)(h ^ (h >> 32));
	struct ctx_probe probe = {a, st};
	int64_t i = amd_hmap_find(&a->ctx_ix, h32, ctx_eq, &probe);
	if (i >= 0)
		return a->ctx[i].root;
	int oom = 0;
	if (amd_grow(&a->ctx, a->n_ctx, &a->cap_ctx, sizeof *a->ctx, 16) < 0)
		return NONE;
	struct acc_ctx c = {.process = add_text(a, st->process, &oom)};
	c.thread = add_text(a, st->thread, &oom);
	c.root = oom ? NONE : node_of(a, NONE, (uint32_t)a->n_ctx);
	if (c.root == NONE || amd_hmap_put(&a->ctx_ix, h32, (uint32_t)a->n_ctx) < 0)
		return NONE;
	a->ctx[a->n_ctx++] = c;
	return c.root;
}

/* Frame f is the interned frame i. */
static int same_frame(const struct amd_pyspy_acc *a, uint32_t i, const struct amd_stack_frame *f)
{
	const struct acc_frame *g = &a->frames[i];
	return g->line == f->line && same_text(a, g->name, f->name) &&
	       same_text(a, g->file, f->file);
}

/* The node where st ends; NONE when out of memory. */
static uint32_t node_at(struct amd_pyspy_acc *a, const struct amd_pyspy_stack *st)
{
	uint32_t root = root_of(a, st), node = root;
	size_t i = 0;
	if (root != NONE && a->n_path && a->path[0] == root) /* path[k]: depth k's node */
		for (; i < st->depth && i + 1 < a->n_path &&
		       same_frame(a, a->nodes[a->path[i + 1]].frame, &st->frames[i]); i++)
			node = a->path[i + 1];
	a->n_path = 0;
	if (root == NONE ||
	    amd_grow_to(&a->path, st->depth + 1, &a->cap_path, sizeof *a->path, 64) < 0)
		return NONE;
	a->path[0] = root;
	for (; i < st->depth; i++) {
		uint32_t f = frame_of(a, &st->frames[i]);
		if (f == NONE || (node = node_of(a, node, f)) == NONE)
			return NONE;
		a->path[i + 1] = node;
	}
	a->n_path = st->depth + 1;
	return node;
}

/* The node where st ends, counted as added to; NULL when out of memory. */
static struct acc_node *leaf_of(struct amd_pyspy_acc *a, const struct amd_pyspy_stack *st)
{
	uint32_t node = node_at(a, st);
	if (node == NONE)
		return NULL;
	a->adds++;
	a->nodes[node].has = 1;
	return &a->nodes[node];
}

int64_t amd_pyspy_acc_place(struct amd_pyspy_acc *a, const struct amd_pyspy_stack *st)
{
	uint32_t node = node_at(a, st);
	return node == NONE ? -1 : (int64_t)node;
}

int amd_pyspy_acc_add_at(struct amd_pyspy_acc *a, int64_t place, int64_t samples,
			 double seconds)
{
	struct acc_node *e = &a->nodes[place];
	a->adds++;
	e->has = 1;
	if (seconds < 0) {
		a->overflow |= __builtin_add_overflow(e->counted, samples, &e->counted);
	} else {
		a->overflow |= __builtin_add_overflow(e->timed_samples, samples,
						      &e->timed_samples);
		e->timed_seconds += seconds;
	}
	return 0;
}

int amd_pyspy_acc_add(struct amd_pyspy_acc *a, const struct amd_pyspy_stack *st,
		      int64_t samples, double seconds)
{
	int64_t place = amd_pyspy_acc_place(a, st);
	return place < 0 ? -1 : amd_pyspy_acc_add_at(a, place, samples, seconds);
}

int amd_pyspy_acc_add_us(struct amd_pyspy_acc *a, const struct amd_pyspy_stack *st,
			 int64_t us)
{
	struct acc_node *e = leaf_of(a, st);
	if (!e)
		return -1;
	a->overflow |= __builtin_add_overflow(e->us, us, &e->us);
	return 0;
}

int64_t amd_pyspy_acc_root(struct amd_pyspy_acc *a, const struct amd_pyspy_stack *st)
{
	uint32_t node = root_of(a, st);
	return node == NONE ? -1 : (int64_t)node;
}

int64_t amd_pyspy_acc_child(struct amd_pyspy_acc *a, int64_t place,
			    const struct amd_stack_frame *f)
{
	uint32_t frame = frame_of(a, f);
	uint32_t node = frame == NONE ? NONE : node_of(a, (uint32_t)place, frame);
	return node == NONE ? -1 : (int64_t)node;
}

void amd_pyspy_acc_add_us_at(struct amd_pyspy_acc *a, int64_t place, int64_t us)
{
	struct acc_node *e = &a->nodes[place];
	a->adds++;
	e->has = 1;
	a->overflow |= __builtin_add_overflow(e->us, us, &e->us);
}

size_t amd_pyspy_acc_count(const struct amd_pyspy_acc *a)
{
	return a->adds;
}

/* ---- the flush: the trie depth first, in key order ---- */

static const char *text_at(const struct amd_pyspy_acc *a, size_t off)
{
	return off == NO_TEXT ? NULL : a->text.data + off;
}

static int put_opt(struct amd_buf *b, const struct amd_pyspy_acc *a, size_t off)
{
	const char *s = text_at(a, off);
	if (amd_buf_append(b, s ? "1" : "0", 1) < 0)
		return -1;
	return s ? amd_buf_append(b, s, strlen(s)) : 0;
}

/* Frame i's part of a stack key: name \x1f file \x1f line. */
static int frame_key(struct amd_buf *b, const struct amd_pyspy_acc *a, size_t i)
{
	const struct acc_frame *f = &a->frames[i];
	const char *name = text_at(a, f->name);
	return amd_buf_append(b, name, strlen(name)) < 0 || amd_buf_append(b, "\x1f", 1) < 0 ||
			       put_opt(b, a, f->file) < 0 ||
			       amd_buf_append(b, "\x1f", 1) < 0 || amd_buf_append_int(b, f->line) < 0
		       ? -1
		       : 0;
}

/* Context i's part: process \x1d thread \x1d. */
static int ctx_key(struct amd_buf *b, const struct amd_pyspy_acc *a, size_t i)
{
	return put_opt(b, a, a->ctx[i].process) < 0 || amd_buf_append(b, "\x1d", 1) < 0 ||
			       put_opt(b, a, a->ctx[i].thread) < 0 ||
			       amd_buf_append(b, "\x1d", 1) < 0
		       ? -1
		       : 0;
}

struct keyed {
	uint64_t prefix; /* amd_str_prefix(key) */
	const char *key;
	uint32_t idx;
};

static int cmp_keyed(const void *x, const void *y)
{
	const struct keyed *a = x, *b = y;
	if (a->prefix != b->prefix)
		return a->prefix < b->prefix ? -1 : 1;
	return strcmp(a->key, b->key);
}

/* The n elements' indexes in the byte order of their keys (NULL when out
 * of memory). */
static uint32_t *key_order(const struct amd_pyspy_acc *a, size_t n,
			   int (*key)(struct amd_buf *, const struct amd_pyspy_acc *, size_t))
{
	struct amd_buf b = {0};
	struct keyed *v = calloc(n ? n : 1, sizeof *v);
	size_t *off = calloc(n ? n : 1, sizeof *off);
	uint32_t *order = calloc(n ? n : 1, sizeof *order);
	int rc = v && off && order ? 0 : -1;
	for (size_t i = 0; i < n && rc == 0; i++) {
		off[i] = b.len;
		rc = key(&b, a, i) < 0 || amd_buf_append(&b, "", 1) < 0 ? -1 : 0;
	}
	if (rc == 0) {
		for (size_t i = 0; i < n; i++)
			v[i] = (struct keyed){amd_str_prefix(b.data + off[i]), b.data + off[i],
					      (uint32_t)i};
		qsort(v, n, sizeof *v, cmp_keyed);
		for (size_t i = 0; i < n; i++)
			order[i] = v[i].idx;
	}
	amd_buf_free(&b);
	free(v);
	free(off);
	if (rc < 0) {
		free(order);
		return NULL;
	}
	return order;
}

struct ranked {
	uint32_t rank, node;
};

static int cmp_ranked(const void *x, const void *y)
{
	uint32_t a = ((const struct ranked *)x)->rank, b = ((const struct ranked *)y)->rank;
	return a < b ? -1 : a > b;
}

/* Every node's children, in their frames' key order: node i's are
 * kids[start[i]] … kids[start[i + 1] - 1]. */
struct kids {
	struct ranked *kids;
	size_t *start;
};

static int children(const struct amd_pyspy_acc *a, struct kids *k)
{
	uint32_t *order = key_order(a, a->n_frames, frame_key);
	uint32_t *rank = calloc(a->n_frames ? a->n_frames : 1, sizeof *rank);
	k->start = calloc(a->n_nodes + 2, sizeof *k->start);
	k->kids = calloc(a->n_nodes ? a->n_nodes : 1, sizeof *k->kids);
	int rc = order && rank && k->start && k->kids ? 0 : -1;
	if (rc == 0) {
		for (size_t i = 0; i < a->n_frames; i++)
			rank[order[i]] = (uint32_t)i;
		for (size_t i = 0; i < a->n_nodes; i++)
			if (a->nodes[i].parent != NONE)
				k->start[a->nodes[i].parent + 2]++;
		for (size_t i = 2; i < a->n_nodes + 2; i++)
			k->start[i] += k->start[i - 1];
		for (size_t i = 0; i < a->n_nodes; i++) /* start[p + 1]: p's next free */
			if (a->nodes[i].parent != NONE)
				k->kids[k->start[a->nodes[i].parent + 1]++] =
					(struct ranked){rank[a->nodes[i].frame], (uint32_t)i};
		for (size_t i = 0; i < a->n_nodes; i++) /* most nodes have 0 or 1 */
			if (k->start[i + 1] - k->start[i] > 1)
				qsort(k->kids + k->start[i], k->start[i + 1] - k->start[i],
				      sizeof *k->kids, cmp_ranked);
	}
	free(order);
	free(rank);
	return rc;
}

struct first_names;

struct emit {
	struct amd_pyspy_acc *a;
	double rate;
	struct amd_sink *sink;
	const char *path;
	struct amd_err *err;
	struct amd_pyspy_funcs *funcs; /* the functions' regions (pyspy_funcs.c) */
	/* what the walk does at each node it reaches (st: the node's stack) */
	int (*visit)(const struct emit *x, uint32_t node, struct amd_pyspy_stack *st);
	struct first_names *names; /* visit_names's */
};

/* Sends node's merged stack (st holds its frames). */
static int emit(const struct emit *x, const struct acc_node *e, struct amd_pyspy_stack *st)
{
	double total = (double)e->counted + (double)e->timed_samples +
		       (double)e->us * x->rate / 1e6;
	if (total > AMD_PYSPY_MAX_SAMPLES)
		return amd_fail(x->err, "%s: more than %g samples in one stack", x->path,
				AMD_PYSPY_MAX_SAMPLES);
	int64_t from_us = llround((double)e->us * x->rate / 1e6);
	struct amd_stack_rec r = {
		.frames = st->frames,
		.depth = st->depth,
		.process = st->process,
		.thread = st->thread,
		.samples = e->counted + e->timed_samples + from_us,
		.seconds = (double)e->counted / x->rate + e->timed_seconds + (double)e->us / 1e6,
	};
	if (x->sink->stack && x->sink->stack(x->sink, &r, x->err) < 0)
		return -1;
	if (x->sink->region && amd_pyspy_funcs_count(x->funcs, &r) < 0)
		return amd_fail(x->err, "%s: out of memory", x->path);
	return 0;
}

/* visit for the flush: node's merged stack to the sink, if one ends there. */
static int visit_emit(const struct emit *x, uint32_t node, struct amd_pyspy_stack *st)
{
	return x->a->nodes[node].has ? emit(x, &x->a->nodes[node], st) : 0;
}

/* The texts the sink's stacks will name, in the order they first do: a
 * frame's name and file where the walk first reaches the frame, its
 * context's process and thread after the context's first stack (the
 * order the stack writer interns them, writer_stack.c). */
struct first_names {
	const char **v;
	size_t n, cap;
	unsigned char *seen; /* per interned frame */
	int ctx_named;       /* the context walked has its labels in v */
};

static int put_name(struct first_names *f, const char *s)
{
	if (!s)
		return 0;
	if (amd_grow(&f->v, f->n, &f->cap, sizeof *f->v, 1024) < 0)
		return -1;
	f->v[f->n++] = s;
	return 0;
}

/* visit for the names: node's frame when new, the labels at the first stack. */
static int visit_names(const struct emit *x, uint32_t node, struct amd_pyspy_stack *st)
{
	const struct acc_node *e = &x->a->nodes[node];
	struct first_names *f = x->names;
	int rc = 0;
	if (e->parent != NONE && !f->seen[e->frame]) {
		const struct acc_frame *g = &x->a->frames[e->frame];
		f->seen[e->frame] = 1;
		rc = put_name(f, text_at(x->a, g->name)) < 0 || put_name(f, text_at(x->a, g->file)) < 0;
	}
	if (rc == 0 && e->has && !f->ctx_named) {
		f->ctx_named = 1;
		rc = put_name(f, st->process) < 0 || put_name(f, st->thread) < 0;
	}
	return rc ? amd_fail(x->err, "%s: out of memory", x->path) : 0;
}

struct at {
	uint32_t node;
	size_t next; /* the next child's place in kids */
};

/* Every stack under context c's root, depth first. */
static int walk(const struct emit *x, const struct kids *k, const struct acc_ctx *c,
		struct amd_pyspy_stack *st, struct at **path, size_t *cap)
{
	struct amd_pyspy_acc *a = x->a;
	st->depth = 0;
	st->process = text_at(a, c->process);
	st->thread = text_at(a, c->thread);
	if (x->visit(x, c->root, st) < 0)
		return -1;
	if (amd_grow(path, 0, cap, sizeof **path, 64) < 0)
		return amd_fail(x->err, "%s: out of memory", x->path);
	(*path)[0] = (struct at){c->root, k->start[c->root]};
	size_t n = 1;
	while (n > 0) {
		struct at *top = &(*path)[n - 1];
		if (top->next == k->start[top->node + 1]) {
			n--;
			continue;
		}
		uint32_t child = k->kids[top->next++].node;
		const struct acc_frame *f = &a->frames[a->nodes[child].frame];
		struct amd_stack_frame sf = {.name = text_at(a, f->name),
					     .file = text_at(a, f->file), .line = f->line,
					     .id = a->nodes[child].frame + 1};
		st->depth = n - 1;
		if (amd_pyspy_push(st, &sf) < 0 || amd_grow(path, n, cap, sizeof **path, 64) < 0)
			return amd_fail(x->err, "%s: out of memory", x->path);
		if (x->visit(x, child, st) < 0)
			return -1;
		(*path)[n++] = (struct at){child, k->start[child]};
	}
	return 0;
}

/* Every context's stacks walked with x, in ctx_order. */
static int walk_all(const struct emit *x, const struct kids *k, const uint32_t *ctx_order)
{
	struct amd_pyspy_stack st = {0};
	struct at *stack = NULL;
	size_t cap = 0;
	int rc = 0;
	for (size_t i = 0; i < x->a->n_ctx && rc == 0; i++) {
		if (x->names)
			x->names->ctx_named = 0;
		rc = walk(x, k, &x->a->ctx[ctx_order[i]], &st, &stack, &cap);
	}
	free(stack);
	amd_pyspy_stack_free(&st);
	return rc;
}

/* The names the stacks will bring to the sink's names callback, in the
 * order they bring them (sink.h, in_order): the store adds them many to
 * a statement, not one by one as the stacks come. */
static int send_names(const struct emit *x, const struct kids *k, const uint32_t *ctx_order)
{
	struct first_names f = {.seen = calloc(x->a->n_frames + 1, 1)};
	struct emit y = *x;
	y.visit = visit_names;
	y.names = &f;
	int rc = f.seen ? walk_all(&y, k, ctx_order) : amd_fail(x->err, "%s: out of memory", x->path);
	if (rc == 0)
		rc = x->sink->names(x->sink, f.v, f.n, 1, x->err);
	free(f.v);
	free(f.seen);
	return rc;
}

int amd_pyspy_acc_flush(struct amd_pyspy_acc *a, double rate, struct amd_sink *sink,
			const char *path, struct amd_err *err)
{
	if (a->overflow)
		return amd_fail(err, "%s: sample counts too large to add up", path);
	if (!(rate > 0 && rate <= AMD_PYSPY_MAX_RATE))
		return amd_fail(err, "%s: sampling rate %g Hz is out of range (0, %g]", path, rate,
				AMD_PYSPY_MAX_RATE);
	struct kids k = {0};
	uint32_t *ctx_order = key_order(a, a->n_ctx, ctx_key);
	struct emit x = {a, rate, sink, path, err, amd_pyspy_funcs_new(), visit_emit, NULL};
	int rc = ctx_order && x.funcs && children(a, &k) == 0
			 ? 0
			 : amd_fail(err, "%s: out of memory", path);
	if (rc == 0 && sink->names && sink->stack)
		rc = send_names(&x, &k, ctx_order);
	if (rc == 0)
		rc = walk_all(&x, &k, ctx_order);
	if (rc == 0)
		rc = amd_pyspy_funcs_emit(x.funcs, sink, err);
	amd_pyspy_funcs_free(x.funcs);
	free(ctx_order);
	free(k.kids);
	free(k.start);
	return rc;
}

void amd_pyspy_acc_free(struct amd_pyspy_acc *a)
{
	if (!a)
		return;
	amd_buf_free(&a->text);
	free(a->frames);
	free(a->ctx);
	free(a->nodes);
	free(a->path);
	amd_hmap_free(&a->frame_ix);
	amd_hmap_free(&a->ctx_ix);
	amd_hmap_free(&a->node_ix);
	free(a);
}

int amd_pyspy_acc_finish(struct amd_pyspy_acc *a, int rc, const char *if_empty, double rate,
			 struct amd_sink *sink, const char *path, struct amd_err *err)
{
	if (rc == 0 && amd_pyspy_acc_count(a) == 0)
		rc = amd_fail(err, "%s: %s", path, if_empty);
	if (rc == 0)
		rc = amd_pyspy_acc_flush(a, rate, sink, path, err);
	return rc;
}
