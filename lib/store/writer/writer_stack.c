/* writer_stack.c — the unit writer's py-spy stacks (writer_profile.h):
 * each stack a path in the source's trie of nodes, its samples one
 * sample record on the leaf; the unit's nodes and samples are written
 * packed (stack_pack.h) when the unit finishes: one stack_node_pack
 * row, one stack_sample_pack row per run the samples were of. The
 * unit's frames and trie nodes are kept in memory (hash indexes), its
 * strings in the connection's intern cache (amd_store_intern_kept: one
 * copy, hashed once), so SQLite sees only rows to add: a dict string the
 * unit meets the first time, a frame new to the unit
 * (looked up in the store unless its name is newer than the unit's
 * first stack: then no row can hold it yet) and the two pack rows. New
 * frames and nodes take the ids SQLite would give them (one above the
 * largest, counted from the first stack: the unit is the store's only
 * writer), so frame rows can wait in a row batch (row_batch.h); they are
 * all written before the unit commits. A stack sharing a prefix with
 * the previous one (the accumulator sends them in key order) reuses its
 * nodes without a lookup; a frame the reader numbered (records.h) is
 * found by its number once met. (The functions' regions are the reader's:
 * lib/ingest/pyspy/pyspy_funcs.c.) */
#include "writer_profile.h"
#include "writer_sink.h"

#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "hmap.h"
#include "row_batch.h"
#include "stack_pack.h"

struct wframe {
	int64_t name, file; /* dict ids, file 0 when none */
	int line;
	int64_t id;
};

struct wnode {
	int64_t parent, frame, id;
};

/* A frame of the last stack written, at its trie node. */
struct wprev {
	const char *name, *file; /* an unnumbered frame's texts (the intern
				  * cache's copies; file NULL: none) */
	int line;
	uint32_t id;       /* the reader's number for it (records.h), 0: none */
	int64_t node;
};

/* What a numbered frame (records.h) became: its frame row. */
struct wknown {
	int64_t frame; /* 0: not met yet */
};

struct writer_stacks {
	struct wframe *frames;
	size_t n_frames, cap_frames;
	struct wnode *nodes;
	size_t n_nodes, cap_nodes;
	struct amd_hmap frame_ix, node_ix;
	struct wprev *prev;
	size_t n_prev, cap_prev;
	struct wknown *known; /* known[id - 1]: the reader's frame id */
	size_t cap_known;
	int64_t dict_top;   /* dict's largest id at the first stack */
	int64_t next_frame, next_node; /* the ids the next new rows take */
	struct row_batch frame_rows;
	struct amd_packed_sample *samples;
	int64_t *sample_runs; /* each sample's run, 0: none */
	size_t n_samples, cap_samples;
};

/* The tables the unit's stack rows go to (row_batch.h). */
static struct row_table frame_table = ROW_TABLE("frame(id, name_id, file_id, line)", 4);

struct frame_probe {
	const struct writer_stacks *w;
	struct wframe key;
};

static int frame_eq(const void *ctx, uint32_t i)
{
	const struct frame_probe *p = ctx;
	const struct wframe *f = &p->w->frames[i];
	return f->name == p->key.name && f->file == p->key.file && f->line == p->key.line;
}

/* The id of frame (name, file, line) in the store, 0 when it has none
 * (a name newer than the unit's first stack has none yet). */
static int64_t stored_frame(struct amd_store_sink *ss, int64_t name, int64_t file, int line,
			    struct amd_err *err)
{
	if (name > ss->stacks->dict_top)
		return 0;
	sqlite3_stmt *q = writer_cached(ss, &ss->sel_frame,
		"SELECT id FROM frame WHERE name_id=?1 AND file_id=?2 AND line=?3", err);
	if (!q)
		return -1;
	sqlite3_bind_int64(q, 1, name);
	sqlite3_bind_int64(q, 2, file);
	sqlite3_bind_int(q, 3, line);
	int rc = sqlite3_step(q);
	int64_t id = rc == SQLITE_ROW ? sqlite3_column_int64(q, 0) : rc == SQLITE_DONE ? 0 : -1;
	sqlite3_reset(q);
	return id < 0 ? writer_sql_fail(ss, err) : id;
}

/* The frame row of (name, file, line): from memory, else looked up in
 * the store or queued as a new row. */
static int64_t frame_id(struct amd_store_sink *ss, int64_t name, int64_t file, int line,
			struct amd_err *err)
{
	struct writer_stacks *w = ss->stacks;
	uint32_t h = amd_hash_u64((uint64_t)name * 0x9e3779b97f4a7c15ULL ^ (uint64_t)file << 20 ^
				  (uint32_t)line);
	struct frame_probe probe = {w, {name, file, line, 0}};
	int64_t i = amd_hmap_find(&w->frame_ix, h, frame_eq, &probe);
	if (i >= 0)
		return w->frames[i].id;
	int64_t id = stored_frame(ss, name, file, line, err);
	if (id < 0)
		return -1;
	if (id == 0) {
		id = w->next_frame++;
		struct row_cell row[] = {row_int(id), row_int(name), row_int(file), row_int(line)};
		if (row_batch_add(ss->st, &w->frame_rows, row, err) < 0)
			return -1;
	}
	if (w->n_frames >= UINT32_MAX ||
	    amd_grow(&w->frames, w->n_frames, &w->cap_frames, sizeof *w->frames, 256) < 0 ||
	    amd_hmap_put(&w->frame_ix, h, (uint32_t)w->n_frames) < 0)
		return amd_fail(err, "%s: out of memory", ss->path);
	probe.key.id = id;
	w->frames[w->n_frames++] = probe.key;
	return id;
}

struct node_probe {
	const struct writer_stacks *w;
	int64_t parent, frame;
};

static int node_eq(const void *ctx, uint32_t i)
{
	const struct node_probe *p = ctx;
	return p->w->nodes[i].parent == p->parent && p->w->nodes[i].frame == p->frame;
}

/* The trie node under parent (0: a root) for frame, added when new. */
static int64_t stack_node(struct amd_store_sink *ss, int64_t parent, int64_t frame,
			  struct amd_err *err)
{
	struct writer_stacks *w = ss->stacks;
	uint32_t h = amd_hash_u64((uint64_t)parent * 0x9e3779b97f4a7c15ULL ^ (uint64_t)frame);
	struct node_probe probe = {w, parent, frame};
	int64_t i = amd_hmap_find(&w->node_ix, h, node_eq, &probe);
	if (i >= 0)
		return w->nodes[i].id;
	int64_t id = w->next_node++;
	if (w->n_nodes >= UINT32_MAX ||
	    amd_grow(&w->nodes, w->n_nodes, &w->cap_nodes, sizeof *w->nodes, 256) < 0 ||
	    amd_hmap_put(&w->node_ix, h, (uint32_t)w->n_nodes) < 0)
		return amd_fail(err, "%s: out of memory", ss->path);
	w->nodes[w->n_nodes++] = (struct wnode){parent, frame, id};
	return id;
}

static int same_frame(const struct wprev *p, const struct amd_stack_frame *f)
{
	if (p->id || f->id) /* a numbered frame is the same as the same number */
		return p->id == f->id;
	if (p->line != f->line || strcmp(p->name, f->name) != 0)
		return 0;
	if (!p->file || !f->file)
		return !p->file && !f->file;
	return strcmp(p->file, f->file) == 0;
}

/* The frame row of f (an unnumbered one's texts, the intern cache's, in
 * *p): a numbered frame's (records.h) found by its id once met, its
 * texts not read again. */
static int64_t frame_of(struct amd_store_sink *ss, const struct amd_stack_frame *f,
			struct wprev *p, struct amd_err *err)
{
	struct writer_stacks *w = ss->stacks;
	struct wknown *k = f->id && f->id <= w->cap_known ? &w->known[f->id - 1] : NULL;
	if (k && k->frame)
		return k->frame;
	int64_t name = amd_store_intern_kept(ss->st, f->name, &p->name, err);
	int64_t file = f->file && name >= 0 ? amd_store_intern_kept(ss->st, f->file, &p->file, err)
					    : 0;
	int64_t frame = name < 0 || file < 0 ? -1 : frame_id(ss, name, file, f->line, err);
	if (frame < 0 || !f->id)
		return frame;
	if (amd_grow_zeroed(&w->known, f->id, &w->cap_known, sizeof *w->known, 256) < 0)
		return amd_fail(err, "%s: out of memory", ss->path);
	w->known[f->id - 1] = (struct wknown){frame};
	return frame;
}

/* Frame f of a stack, under parent: its trie node, remembered as the
 * path's next frame. */
static int64_t path_frame(struct amd_store_sink *ss, int64_t parent,
			  const struct amd_stack_frame *f, struct amd_err *err)
{
	struct writer_stacks *w = ss->stacks;
	struct wprev p = {.line = f->line, .id = f->id};
	int64_t frame = frame_of(ss, f, &p, err);
	if (frame < 0 || (p.node = stack_node(ss, parent, frame, err)) < 0)
		return -1;
	if (amd_grow(&w->prev, w->n_prev, &w->cap_prev, sizeof *w->prev, 64) < 0)
		return amd_fail(err, "%s: out of memory", ss->path);
	w->prev[w->n_prev++] = p;
	return p.node;
}

void writer_forget_stack(struct amd_store_sink *ss)
{
	struct writer_stacks *w = ss->stacks;
	if (!w)
		return;
	free(w->frames);
	free(w->nodes);
	free(w->prev);
	free(w->known);
	amd_hmap_free(&w->frame_ix);
	amd_hmap_free(&w->node_ix);
	row_batch_free(&w->frame_rows);
	free(w->samples);
	free(w->sample_runs);
	free(w);
	ss->stacks = NULL;
}

/* The process or thread label's dict id (0 when none). */
static int64_t label_id(struct amd_store_sink *ss, const char *s, struct amd_err *err)
{
	return s ? amd_store_intern(ss->st, s, err) : 0;
}

/* The largest id in table (sql: its SELECT max(id)), 0 when empty. */
static int64_t max_id(struct amd_store_sink *ss, const char *sql, struct amd_err *err)
{
	sqlite3_stmt *q = amd_store_prepare(ss->st, sql, err);
	if (!q)
		return -1;
	int rc = sqlite3_step(q);
	int64_t id = rc == SQLITE_ROW ? sqlite3_column_int64(q, 0) : -1;
	sqlite3_finalize(q);
	if (id < 0 || id == INT64_MAX) /* SQLite would pick a random rowid */
		return amd_fail(err, "%s: cannot number new py-spy rows", ss->path);
	return id;
}

/* The unit's stacks in memory, at its first stack or before the names
 * its stacks bring (writer_names.c): dict's largest id and the ids of
 * the first new frame and node (the unit holds the store's write
 * transaction, so nobody else adds rows to them meanwhile). */
int writer_stacks_begin(struct amd_store_sink *ss, struct amd_err *err)
{
	if (ss->stacks)
		return 0;
	struct writer_stacks *w = calloc(1, sizeof *w);
	if (!w)
		return amd_fail(err, "%s: out of memory", ss->path);
	ss->stacks = w;
	w->frame_rows = (struct row_batch){.table = &frame_table, .path = ss->path};
	if ((w->dict_top = max_id(ss, "SELECT COALESCE(max(id), 0) FROM dict", err)) < 0 ||
	    (w->next_frame = max_id(ss, "SELECT COALESCE(max(id), 0) FROM frame", err)) < 0 ||
	    (w->next_node = max_id(ss, "SELECT COALESCE(max(id_hi), 0) FROM stack_node_pack", err)) < 0)
		return -1;
	w->next_frame++;
	w->next_node++;
	return 0;
}

/* Inserts one pack row: sql's ?1 the source, ?2 the blob, ?3... the
 * values of v (0: NULL, a sample pack's run none). */
static int insert_pack(struct amd_store_sink *ss, const char *sql, unsigned char *blob,
		       size_t len, const int64_t *v, int nv, struct amd_err *err)
{
	sqlite3_stmt *q = amd_store_prepare(ss->st, sql, err);
	if (!q)
		return -1;
	sqlite3_bind_int64(q, 1, ss->source_id);
	sqlite3_bind_blob64(q, 2, blob, len, SQLITE_STATIC);
	for (int i = 0; i < nv; i++)
		if (v[i])
			sqlite3_bind_int64(q, 3 + i, v[i]);
	int rc = sqlite3_step(q);
	sqlite3_finalize(q);
	return rc == SQLITE_DONE ? 0 : writer_sql_fail(ss, err);
}

/* The unit's nodes as one stack_node_pack row (ids consecutive). */
static int flush_nodes(struct amd_store_sink *ss, struct amd_err *err)
{
	struct writer_stacks *w = ss->stacks;
	struct amd_packed_node *v = malloc((w->n_nodes + 1) * sizeof *v);
	unsigned char *blob = malloc(w->n_nodes * AMD_STACK_NODE_BYTES + 1);
	int rc = v && blob ? 0 : amd_fail(err, "%s: out of memory", ss->path);
	for (size_t i = 0; rc == 0 && i < w->n_nodes; i++)
		v[i] = (struct amd_packed_node){w->nodes[i].id, w->nodes[i].parent,
						w->nodes[i].frame};
	if (rc == 0) {
		amd_stack_nodes_pack(v, w->n_nodes, blob);
		int64_t b[] = {(int64_t)w->n_nodes, v[0].id, v[w->n_nodes - 1].id};
		rc = insert_pack(ss, "INSERT INTO stack_node_pack(source_id, nodes, n, id_lo, id_hi)"
				 " VALUES(?1, ?2, ?3, ?4, ?5)", blob,
				 w->n_nodes * AMD_STACK_NODE_BYTES, b, 3, err);
	}
	free(v);
	free(blob);
	return rc;
}

/* The unit's samples as stack_sample_pack rows, one per stretch of
 * samples of the same run. */
static int flush_samples(struct amd_store_sink *ss, struct amd_err *err)
{
	struct writer_stacks *w = ss->stacks;
	unsigned char *blob = malloc(w->n_samples * AMD_STACK_SAMPLE_BYTES + 1);
	if (!blob)
		return amd_fail(err, "%s: out of memory", ss->path);
	int rc = 0;
	for (size_t i = 0, j; rc == 0 && i < w->n_samples; i = j) {
		for (j = i + 1; j < w->n_samples && w->sample_runs[j] == w->sample_runs[i]; j++)
			;
		amd_stack_samples_pack(w->samples + i, j - i, blob);
		int64_t b[] = {w->sample_runs[i], (int64_t)(j - i)};
		rc = insert_pack(ss, "INSERT INTO stack_sample_pack(source_id, samples, run_id, n)"
				 " VALUES(?1, ?2, ?3, ?4)", blob, (j - i) * AMD_STACK_SAMPLE_BYTES, b,
				 2, err);
	}
	free(blob);
	return rc;
}

int writer_stacks_flush(struct amd_store_sink *ss, struct amd_err *err)
{
	struct writer_stacks *w = ss->stacks;
	if (!w)
		return 0;
	if (row_batch_flush(ss->st, &w->frame_rows, err) < 0 ||
	    (w->n_nodes && flush_nodes(ss, err) < 0) || flush_samples(ss, err) < 0)
		return -1;
	return 0;
}

int writer_stack(struct amd_sink *s, const struct amd_stack_rec *r, struct amd_err *err)
{
	struct amd_store_sink *ss = s->ctx;
	WRITER_ENTER(ss, err);
	if (r->depth == 0)
		return amd_fail(err, "%s: an empty stack", ss->path);
	if (writer_stacks_begin(ss, err) < 0)
		return -1;
	struct writer_stacks *w = ss->stacks;
	int64_t node = 0;
	size_t i = 0;
	for (; i < r->depth && i < w->n_prev && same_frame(&w->prev[i], &r->frames[i]); i++)
		node = w->prev[i].node;
	w->n_prev = i;
	for (; i < r->depth; i++)
		if ((node = path_frame(ss, node, &r->frames[i], err)) < 0)
			return -1;
	int64_t pid = label_id(ss, r->process, err);
	int64_t tid = pid < 0 ? -1 : label_id(ss, r->thread, err);
	if (pid < 0 || tid < 0)
		return -1;
	size_t cap = w->cap_samples;
	if (amd_grow(&w->samples, w->n_samples, &w->cap_samples, sizeof *w->samples, 1024) < 0)
		return amd_fail(err, "%s: out of memory", ss->path);
	if (cap != w->cap_samples) { /* sample_runs grows with samples */
		int64_t *runs = realloc(w->sample_runs, w->cap_samples * sizeof *runs);
		if (!runs)
			return amd_fail(err, "%s: out of memory", ss->path);
		w->sample_runs = runs;
	}
	w->sample_runs[w->n_samples] = ss->run_id > 0 ? ss->run_id : 0;
	w->samples[w->n_samples++] = (struct amd_packed_sample){node, pid, tid, r->samples,
								 r->seconds};
	return 0;
}
