/* pyspy.c — top functions by self and total samples (with the library
 * attribution) and the merged call trie of pyspy.h, added up in C over
 * the selection's stack nodes and samples as the store returns them
 * (pyspy_samples.h). */
#include "pyspy.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"

/* ---- a small hash map from a few int64 to an index ---- */

#define KW 5 /* key width */

struct hmap {
	int64_t *keys;
	size_t *vals;
	size_t cap, n;
};

static uint64_t hash_key(const int64_t *k)
{
	uint64_t h = 1469598103934665603ULL;
	for (int i = 0; i < KW; i++) {
		h ^= (uint64_t)k[i];
		h *= 1099511628211ULL;
		h ^= h >> 29;
	}
	return h;
}

static int hmap_grow(struct hmap *m)
{
	size_t cap = m->cap ? 2 * m->cap : 1024;
	int64_t *keys = malloc(cap * KW * sizeof *keys);
	size_t *vals = malloc(cap * sizeof *vals);
	if (!keys || !vals) {
		free(keys);
		free(vals);
		return -1;
	}
	for (size_t i = 0; i < cap; i++)
		vals[i] = SIZE_MAX;
	for (size_t i = 0; i < m->cap; i++) {
		if (m->vals[i] == SIZE_MAX)
			continue;
		size_t j = hash_key(&m->keys[i * KW]) & (cap - 1);
		while (vals[j] != SIZE_MAX)
			j = (j + 1) & (cap - 1);
		memcpy(&keys[j * KW], &m->keys[i * KW], KW * sizeof *keys);
		vals[j] = m->vals[i];
	}
	free(m->keys);
	free(m->vals);
	m->keys = keys;
	m->vals = vals;
	m->cap = cap;
	return 0;
}

/* The index stored under k; when absent, stores fresh and returns it
 * (*added = 1). SIZE_MAX on out of memory. */
static size_t hmap_get(struct hmap *m, const int64_t *k, size_t fresh, int *added)
{
	*added = 0;
	if ((m->n + 1) * 2 > m->cap && hmap_grow(m) < 0)
		return SIZE_MAX;
	size_t j = hash_key(k) & (m->cap - 1);
	while (m->vals[j] != SIZE_MAX) {
		if (memcmp(&m->keys[j * KW], k, KW * sizeof *k) == 0)
			return m->vals[j];
		j = (j + 1) & (m->cap - 1);
	}
	memcpy(&m->keys[j * KW], k, KW * sizeof *k);
	m->vals[j] = fresh;
	m->n++;
	*added = 1;
	return fresh;
}

static void hmap_free(struct hmap *m)
{
	free(m->keys);
	free(m->vals);
	memset(m, 0, sizeof *m);
}

static int oom(struct amd_store *st, struct amd_err *err)
{
	return amd_fail(err, "%s: out of memory", amd_store_path(st));
}

/* ---- the selection, loaded ---- */

struct loaded {
	struct amd_pyspy_node_row *nodes; /* by increasing id */
	size_t *parent;                   /* of node i, SIZE_MAX for a root */
	size_t n_nodes;
	struct amd_pyspy_sample_row *samples;
	size_t *leaf;                     /* the leaf node of sample i */
	size_t n_samples;
};

static int cmp_node_id(const void *key, const void *elem)
{
	int64_t k = *(const int64_t *)key, e = ((const struct amd_pyspy_node_row *)elem)->id;
	return k < e ? -1 : k > e;
}

static size_t node_index(const struct loaded *l, int64_t id)
{
	const struct amd_pyspy_node_row *n =
		bsearch(&id, l->nodes, l->n_nodes, sizeof *l->nodes, cmp_node_id);
	return n ? (size_t)(n - l->nodes) : SIZE_MAX;
}

/* The store's rows of sel, with each node's parent and each sample's
 * leaf as indexes into nodes. */
static int load(struct amd_store *st, const struct amd_pyspy_sel *sel, struct loaded *l,
		struct amd_err *err)
{
	memset(l, 0, sizeof *l);
	if (amd_pyspy_nodes(st, sel, &l->nodes, &l->n_nodes, err) < 0 ||
	    amd_pyspy_samples(st, sel, &l->samples, &l->n_samples, err) < 0)
		return -1;
	l->parent = malloc((l->n_nodes ? l->n_nodes : 1) * sizeof *l->parent);
	l->leaf = malloc((l->n_samples ? l->n_samples : 1) * sizeof *l->leaf);
	if (!l->parent || !l->leaf)
		return oom(st, err);
	for (size_t i = 0; i < l->n_nodes; i++) {
		int64_t p = l->nodes[i].parent_id;
		l->parent[i] = p ? node_index(l, p) : SIZE_MAX;
	}
	for (size_t i = 0; i < l->n_samples; i++)
		if ((l->leaf[i] = node_index(l, l->samples[i].leaf_id)) == SIZE_MAX)
			return amd_fail(err, "%s: a py-spy sample whose stack is missing",
					amd_store_path(st));
	return 0;
}

static void loaded_free(struct loaded *l)
{
	free(l->nodes);
	free(l->parent);
	free(l->samples);
	free(l->leaf);
}

/* ---- strings ---- */

/* Dictionary texts fetched once each; the texts are owned by *v. */
struct strtab {
	struct amd_store *st;
	char ***v;
	size_t *n;
	size_t cap;
	struct hmap ids; /* dict id → index in *v */
};

/* The text of dictionary id in *out: NULL for id <= 0 or an id the
 * dictionary lacks. */
static int text_of(struct strtab *t, int64_t id, const char **out, struct amd_err *err)
{
	*out = NULL;
	if (id <= 0)
		return 0;
	int64_t key[KW] = {id};
	int added;
	size_t ix = hmap_get(&t->ids, key, *t->n, &added);
	if (ix == SIZE_MAX)
		return oom(t->st, err);
	if (!added) {
		*out = (*t->v)[ix];
		return 0;
	}
	char *s;
	if (amd_grow(t->v, *t->n, &t->cap, sizeof **t->v, 64) < 0)
		return oom(t->st, err);
	if (amd_store_text(t->st, id, &s, err) < 0)
		return -1;
	(*t->v)[(*t->n)++] = s;
	*out = s;
	return 0;
}

/* ---- top functions ---- */

struct row {
	int64_t key[KW]; /* process, thread, name, file, library frame */
	const char *name, *file; /* the texts of key[2], key[3], for sorting */
	int64_t self_samples, total_samples;
	double self_seconds, total_seconds;
};

struct rows {
	struct row *v;
	size_t n, cap;
	struct hmap map;
};

static struct row *row_of(struct rows *r, const int64_t *key)
{
	int added;
	size_t ix = hmap_get(&r->map, key, r->n, &added);
	if (ix == SIZE_MAX)
		return NULL;
	if (!added)
		return &r->v[ix];
	if (amd_grow(&r->v, r->n, &r->cap, sizeof *r->v, 256) < 0)
		return NULL;
	struct row *w = &r->v[r->n++];
	memset(w, 0, sizeof *w);
	memcpy(w->key, key, sizeof w->key);
	return w;
}

/* What a query adds up, besides the rows. */
struct top_ctx {
	struct amd_store *st;
	const struct amd_pyspy_top_opts *o;
	const struct loaded *l;
	struct strtab t;
	struct hmap libcache; /* file id → 1 when in the library, else 0 */
	struct rows r;
	size_t *seen, seen_cap;
};

/* Whether a file's path contains the library text (cached per id). */
static int in_library(struct top_ctx *c, int64_t file_id, int *yes, struct amd_err *err)
{
	*yes = 0;
	if (file_id <= 0)
		return 0;
	int64_t key[KW] = {file_id};
	int added;
	const char *path;
	if (text_of(&c->t, file_id, &path, err) < 0)
		return -1;
	size_t v = hmap_get(&c->libcache, key, path && strstr(path, c->o->library) ? 1 : 0,
			    &added);
	if (v == SIZE_MAX)
		return oom(c->st, err);
	*yes = v == 1;
	return 0;
}

/* The deepest frame of the library in sample s's stack, 0 if none. */
static int library_frame(struct top_ctx *c, size_t s, int64_t *lib, struct amd_err *err)
{
	*lib = 0;
	for (size_t i = c->l->leaf[s]; i != SIZE_MAX && !*lib; i = c->l->parent[i]) {
		int yes;
		if (in_library(c, c->l->nodes[i].file_id, &yes, err) < 0)
			return -1;
		if (yes)
			*lib = c->l->nodes[i].frame_id;
	}
	return 0;
}

/* Adds sample s to the total of every function of its stack, once each. */
static int add_total(struct top_ctx *c, size_t s, const int64_t *group)
{
	const struct loaded *l = c->l;
	size_t n_seen = 0;
	for (size_t i = l->leaf[s]; i != SIZE_MAX; i = l->parent[i]) {
		const struct amd_pyspy_node_row *nd = &l->nodes[i];
		int dup = 0;
		for (size_t k = 0; k < n_seen && !dup; k++) {
			const struct amd_pyspy_node_row *o = &l->nodes[c->seen[k]];
			dup = o->name_id == nd->name_id && o->file_id == nd->file_id;
		}
		if (dup)
			continue; /* recursion: once per stack */
		if (amd_grow(&c->seen, n_seen, &c->seen_cap, sizeof *c->seen, 64) < 0)
			return -1;
		c->seen[n_seen++] = i;
		int64_t key[KW] = {group[0], group[1], nd->name_id, nd->file_id, 0};
		struct row *w = row_of(&c->r, key);
		if (!w)
			return -1;
		w->total_samples += l->samples[s].samples;
		w->total_seconds += l->samples[s].seconds;
	}
	return 0;
}

static int add_sample(struct top_ctx *c, size_t s, struct amd_err *err)
{
	const struct amd_pyspy_sample_row *sm = &c->l->samples[s];
	int per = c->o->per_thread;
	int64_t group[2] = {per ? sm->process_id : 0, per ? sm->thread_id : 0};
	const struct amd_pyspy_node_row *leaf = &c->l->nodes[c->l->leaf[s]];
	int64_t lib = 0;
	if (c->o->library && library_frame(c, s, &lib, err) < 0)
		return -1;
	int64_t key[KW] = {group[0], group[1], leaf->name_id, leaf->file_id, lib};
	struct row *w = row_of(&c->r, key);
	if (!w)
		return oom(c->st, err);
	w->self_samples += sm->samples;
	w->self_seconds += sm->seconds;
	if (c->o->library)
		return 0;
	return add_total(c, s, group) < 0 ? oom(c->st, err) : 0;
}

/* Largest first (self or total by *order), then by process, thread,
 * function name, file (alphabetical) and library frame. */
static int cmp_row(const void *a, const void *b, void *order)
{
	const struct row *x = a, *y = b;
	int total = *(const enum amd_pyspy_order *)order == AMD_PYSPY_TOTAL;
	int64_t vx = total ? x->total_samples : x->self_samples;
	int64_t vy = total ? y->total_samples : y->self_samples;
	if (vx != vy)
		return vx > vy ? -1 : 1;
	for (int i = 0; i < KW; i++) {
		if (x->key[i] == y->key[i])
			continue;
		if (i == 2 || i == 3) { /* function name, file: alphabetical */
			const char *sx = i == 2 ? x->name : x->file;
			const char *sy = i == 2 ? y->name : y->file;
			int c = strcmp(sx ? sx : "", sy ? sy : "");
			if (c)
				return c;
		}
		return x->key[i] < y->key[i] ? -1 : 1;
	}
	return 0;
}

static int sort_rows(struct top_ctx *c, struct amd_err *err)
{
	for (size_t i = 0; i < c->r.n; i++) {
		struct row *w = &c->r.v[i];
		if (text_of(&c->t, w->key[2], &w->name, err) < 0 ||
		    text_of(&c->t, w->key[3], &w->file, err) < 0)
			return -1;
	}
	enum amd_pyspy_order order = c->o->order;
	if (c->r.n)
		qsort_r(c->r.v, c->r.n, sizeof *c->r.v, cmp_row, &order);
	return 0;
}

static int lib_frame(struct top_ctx *c, int64_t frame_id, struct amd_pyspy_fn *f,
		     struct amd_err *err)
{
	int64_t name_id, file_id;
	int found = amd_pyspy_frame(c->st, frame_id, &name_id, &file_id, &f->lib_line, err);
	if (found < 0)
		return -1;
	if (found == 1)
		return 0;
	return text_of(&c->t, name_id, &f->lib_name, err) < 0 ||
	       text_of(&c->t, file_id, &f->lib_file, err) < 0 ? -1 : 0;
}

static int fill_rows(struct top_ctx *c, struct amd_pyspy_top *out, struct amd_err *err)
{
	if (sort_rows(c, err) < 0)
		return -1;
	const struct amd_pyspy_top_opts *o = c->o;
	out->n_all = c->r.n;
	out->n = o->limit && o->limit < c->r.n ? o->limit : c->r.n;
	out->v = calloc(out->n ? out->n : 1, sizeof *out->v);
	if (!out->v)
		return oom(c->st, err);
	for (size_t i = 0; i < out->n; i++) {
		const struct row *w = &c->r.v[i];
		struct amd_pyspy_fn *f = &out->v[i];
		f->name = w->name;
		f->file = w->file;
		if (text_of(&c->t, w->key[0], &f->process, err) < 0 ||
		    text_of(&c->t, w->key[1], &f->thread, err) < 0 ||
		    (w->key[4] && lib_frame(c, w->key[4], f, err) < 0))
			return -1;
		f->self_samples = w->self_samples;
		f->self_seconds = w->self_seconds;
		f->total_samples = w->total_samples;
		f->total_seconds = w->total_seconds;
		if (!f->name)
			return amd_fail(err, "%s: a frame name missing from the dictionary",
					amd_store_path(c->st));
	}
	return 0;
}

/* Samples, thread-seconds and distinct (process, thread) pairs. */
static int count_threads(struct top_ctx *c, struct amd_pyspy_top *out, struct amd_err *err)
{
	struct hmap m = {0};
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < c->l->n_samples; i++) {
		const struct amd_pyspy_sample_row *s = &c->l->samples[i];
		int64_t key[KW] = {s->process_id, s->thread_id};
		int added;
		if (hmap_get(&m, key, 0, &added) == SIZE_MAX)
			rc = oom(c->st, err);
		out->samples += s->samples;
		out->seconds += s->seconds;
	}
	out->threads = m.n;
	hmap_free(&m);
	return rc;
}

int amd_pyspy_top_query(struct amd_store *st, const struct amd_pyspy_sel *sel,
			const struct amd_pyspy_top_opts *o, struct amd_pyspy_top *out,
			struct amd_err *err)
{
	memset(out, 0, sizeof *out);
	struct loaded l;
	struct top_ctx c = {.st = st, .o = o, .l = &l,
			    .t = {.st = st, .v = &out->strings, .n = &out->n_strings}};
	int rc = load(st, sel, &l, err);
	for (size_t i = 0; rc == 0 && i < l.n_samples; i++)
		rc = add_sample(&c, i, err);
	if (rc == 0)
		rc = count_threads(&c, out, err);
	if (rc == 0)
		rc = amd_pyspy_count_sources(st, sel, &out->sources, err);
	if (rc == 0)
		rc = amd_pyspy_count_snapshots(st, sel, &out->snapshots, err);
	if (rc == 0)
		rc = fill_rows(&c, out, err);
	free(c.seen);
	free(c.r.v);
	hmap_free(&c.r.map);
	hmap_free(&c.libcache);
	hmap_free(&c.t.ids);
	loaded_free(&l);
	if (rc < 0)
		amd_pyspy_top_free(out);
	return rc;
}

void amd_pyspy_top_free(struct amd_pyspy_top *t)
{
	for (size_t i = 0; i < t->n_strings; i++)
		free(t->strings[i]);
	free(t->strings);
	free(t->v);
	memset(t, 0, sizeof *t);
}

/* ---- the merged trie ---- */

struct mnode {
	size_t parent; /* SIZE_MAX: root */
	int64_t frame_id, name_id, file_id;
	int line;
	int64_t total, self;
	double total_s, self_s;
	size_t first_child, next_sibling; /* SIZE_MAX: none */
};

/* Larger total first, then by frame id. */
static int cmp_child(const void *a, const void *b, void *nodes)
{
	const struct mnode *v = nodes;
	const struct mnode *x = &v[*(const size_t *)a], *y = &v[*(const size_t *)b];
	if (x->total != y->total)
		return x->total > y->total ? -1 : 1;
	return x->frame_id < y->frame_id ? -1 : x->frame_id > y->frame_id;
}

/* Merges the sources' tries by path; map[i] = merged index of node i. */
static int merge_nodes(const struct loaded *l, struct mnode **out, size_t *n, size_t *map)
{
	struct hmap m = {0};
	*out = calloc(l->n_nodes ? l->n_nodes : 1, sizeof **out);
	if (!*out)
		return -1;
	*n = 0;
	for (size_t i = 0; i < l->n_nodes; i++) {
		const struct amd_pyspy_node_row *nd = &l->nodes[i];
		size_t parent = l->parent[i] == SIZE_MAX ? SIZE_MAX : map[l->parent[i]];
		int64_t key[KW] = {(int64_t)parent, nd->frame_id};
		int added;
		size_t ix = hmap_get(&m, key, *n, &added);
		if (ix == SIZE_MAX) {
			hmap_free(&m);
			return -1;
		}
		if (added) {
			struct mnode *w = &(*out)[(*n)++];
			w->parent = parent;
			w->frame_id = nd->frame_id;
			w->name_id = nd->name_id;
			w->file_id = nd->file_id;
			w->line = nd->line;
			w->first_child = w->next_sibling = SIZE_MAX;
		}
		map[i] = ix;
	}
	hmap_free(&m);
	return 0;
}

/* Self samples on each leaf, total on it and every node above. */
static void add_samples(const struct loaded *l, const size_t *map, struct mnode *v)
{
	for (size_t i = 0; i < l->n_samples; i++) {
		const struct amd_pyspy_sample_row *s = &l->samples[i];
		size_t m = map[l->leaf[i]];
		v[m].self += s->samples;
		v[m].self_s += s->seconds;
		for (; m != SIZE_MAX; m = v[m].parent) {
			v[m].total += s->samples;
			v[m].total_s += s->seconds;
		}
	}
}

/* Sorts kids[0..nk) and pushes them in reverse so the largest pops first. */
static void push_sorted(struct mnode *v, size_t *kids, size_t nk, size_t *stack, size_t *top)
{
	qsort_r(kids, nk, sizeof *kids, cmp_child, v);
	for (size_t i = nk; i-- > 0;)
		stack[(*top)++] = kids[i];
}

/* Preorder with children by decreasing total: order[k] = merged index. */
static int preorder(struct mnode *v, size_t n, size_t *order)
{
	size_t *kids = malloc((n ? n : 1) * sizeof *kids);
	size_t *stack = malloc((n ? n : 1) * sizeof *stack);
	if (!kids || !stack) {
		free(kids);
		free(stack);
		return -1;
	}
	size_t nk = 0, top = 0, k = 0;
	for (size_t i = 0; i < n; i++)
		if (v[i].parent == SIZE_MAX)
			kids[nk++] = i;
	push_sorted(v, kids, nk, stack, &top);
	/* child lists: link each node to its parent */
	for (size_t i = n; i-- > 0;)
		if (v[i].parent != SIZE_MAX) {
			v[i].next_sibling = v[v[i].parent].first_child;
			v[v[i].parent].first_child = i;
		}
	while (top) {
		size_t cur = stack[--top];
		order[k++] = cur;
		nk = 0;
		for (size_t c = v[cur].first_child; c != SIZE_MAX; c = v[c].next_sibling)
			kids[nk++] = c;
		push_sorted(v, kids, nk, stack, &top);
	}
	free(kids);
	free(stack);
	return 0;
}

static int trie_out(struct amd_store *st, struct mnode *v, size_t n, const size_t *order,
		    struct amd_pyspy_trie *out, struct amd_err *err)
{
	struct strtab t = {.st = st, .v = &out->strings, .n = &out->n_strings};
	size_t *pos = malloc((n ? n : 1) * sizeof *pos);
	out->v = calloc(n ? n : 1, sizeof *out->v);
	int rc = pos && out->v ? 0 : oom(st, err);
	for (size_t k = 0; rc == 0 && k < n; k++)
		pos[order[k]] = k;
	for (size_t k = 0; rc == 0 && k < n; k++) {
		const struct mnode *m = &v[order[k]];
		struct amd_pyspy_node *o = &out->v[k];
		o->parent = m->parent == SIZE_MAX ? -1 : (int64_t)pos[m->parent];
		o->depth = o->parent < 0 ? 0 : out->v[o->parent].depth + 1;
		if (text_of(&t, m->name_id, &o->name, err) < 0 ||
		    text_of(&t, m->file_id, &o->file, err) < 0)
			rc = -1;
		o->line = m->line;
		o->total_samples = m->total;
		o->self_samples = m->self;
		o->total_seconds = m->total_s;
		o->self_seconds = m->self_s;
		if (o->parent < 0) {
			out->samples += m->total;
			out->seconds += m->total_s;
		}
	}
	out->n = n;
	free(pos);
	hmap_free(&t.ids);
	return rc;
}

int amd_pyspy_trie_query(struct amd_store *st, const struct amd_pyspy_sel *sel,
			 struct amd_pyspy_trie *out, struct amd_err *err)
{
	memset(out, 0, sizeof *out);
	struct loaded l;
	struct mnode *v = NULL;
	size_t n = 0, *map = NULL, *order = NULL;
	int rc = load(st, sel, &l, err);
	if (rc == 0) {
		map = malloc((l.n_nodes ? l.n_nodes : 1) * sizeof *map);
		if (!map || merge_nodes(&l, &v, &n, map) < 0)
			rc = oom(st, err);
	}
	if (rc == 0) {
		add_samples(&l, map, v);
		order = malloc((n ? n : 1) * sizeof *order);
		if (!order || preorder(v, n, order) < 0)
			rc = oom(st, err);
	}
	if (rc == 0)
		rc = trie_out(st, v, n, order, out, err);
	free(order);
	free(map);
	free(v);
	loaded_free(&l);
	if (rc < 0)
		amd_pyspy_trie_free(out);
	return rc;
}

void amd_pyspy_trie_free(struct amd_pyspy_trie *t)
{
	for (size_t i = 0; i < t->n_strings; i++)
		free(t->strings[i]);
	free(t->strings);
	free(t->v);
	memset(t, 0, sizeof *t);
}
