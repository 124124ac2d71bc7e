/* speedscope_scan.c — the streaming scan of speedscope_doc.h: yajl
 * callbacks that keep a speedscope file's frames, profiles, samples (as
 * trie leaves) and weights, whatever the order of the keys; every other
 * value is skipped without being kept. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "speedscope_doc.h"
#include "pyspy_stack.h"
#include "json_stream.h"
#include "buf.h"

/* Where the scan is: the container each depth is in. */
enum where { W_TOP, W_DOC, W_SHARED, W_FRAMES, W_FRAME, W_PROFILES, W_PROFILE,
	     W_SAMPLES, W_SAMPLE, W_WEIGHTS };
/* The key whose value comes next (K_NONE: a key not kept, or repeated). */
enum key { K_NONE, K_SCHEMA, K_PROFILES, K_SHARED, K_FRAMES, K_NAME, K_FILE, K_LINE,
	   K_TYPE, K_UNIT, K_SAMPLES, K_WEIGHTS };
/* What a value is. */
enum kind { V_STRING, V_NUMBER, V_OTHER, V_MAP, V_ARRAY };

#define MAX_NEST 8

struct scan {
	struct ss_doc *d;
	const char *path;
	struct amd_err *err;
	int failed;
	enum where at[MAX_NEST];
	int depth;             /* at[depth - 1] is the open container */
	long skip;             /* open containers being skipped */
	enum key key;
	unsigned seen_doc, seen_shared, seen_frame; /* keys met, per container */
	/* the sample being read: its node, length, and whether it still
	 * follows the last sample's path (kept in trail) */
	uint32_t cur, *trail;
	size_t len, n_trail, cap_trail;
	int on_path;
	/* the last weight's text and value: py-spy writes the same weight
	 * (1/rate) for every sample */
	char last_text[32];
	size_t last_len;
	double last_weight;
};

static int oom(struct scan *s)
{
	amd_fail(s->err, "%s: out of memory", s->path);
	s->failed = 1;
	return 0;
}

/* A copy of the text, cut at a NUL byte as a C string is. */
static char *copy_text(const unsigned char *p, size_t len)
{
	const void *nul = memchr(p, 0, len);
	if (nul)
		len = (size_t)((const unsigned char *)nul - p);
	char *t = malloc(len + 1);
	if (t) {
		memcpy(t, p, len);
		t[len] = 0;
	}
	return t;
}

static double number(const unsigned char *p, size_t len)
{
	char tmp[64];
	if (len >= sizeof tmp)
		len = sizeof tmp - 1;
	memcpy(tmp, p, len);
	tmp[len] = 0;
	return strtod(tmp, NULL);
}

static uint32_t frame_index(const unsigned char *p, size_t len)
{
	if (len > 0 && len <= 9) {
		uint32_t v = 0;
		size_t i = 0;
		while (i < len && p[i] >= '0' && p[i] <= '9')
			v = v * 10 + (uint32_t)(p[i++] - '0');
		if (i == len)
			return v;
	}
	double v = number(p, len);
	return v >= 0 && v < (double)SS_BAD_INDEX && v == floor(v) ? (uint32_t)v : SS_BAD_INDEX;
}

/* ---- the sample trie ---- */

struct node_key {
	const struct ss_doc *d;
	uint32_t parent, frame;
};

static int node_eq(const void *ctx, uint32_t i)
{
	const struct node_key *k = ctx;
	return k->d->nodes[i].parent == k->parent && k->d->nodes[i].frame == k->frame;
}

/* The child of parent for frame index f, made when new; SS_BAD_INDEX
 * when out of memory. */
static uint32_t child_of(struct ss_doc *d, uint32_t parent, uint32_t f)
{
	struct node_key k = {d, parent, f};
	uint32_t h = amd_hash_u64((uint64_t)parent << 32 | f);
	int64_t i = amd_hmap_find(&d->node_ix, h, node_eq, &k);
	if (i >= 0)
		return (uint32_t)i;
	if (d->n_nodes >= SS_BAD_INDEX - 1 ||
	    amd_grow(&d->nodes, d->n_nodes, &d->cap_nodes, sizeof *d->nodes, 1024) < 0 ||
	    amd_hmap_put(&d->node_ix, h, (uint32_t)d->n_nodes) < 0)
		return SS_BAD_INDEX;
	d->nodes[d->n_nodes] = (struct ss_node){parent, f};
	return (uint32_t)d->n_nodes++;
}

/* One more frame index of the sample being read. Past the deepest stack
 * read (+1, so the replay still refuses it) the rest is not kept. */
static int sample_frame(struct scan *s, uint32_t f)
{
	if (s->len > AMD_PYSPY_MAX_DEPTH)
		return 1;
	if (s->on_path && s->len < s->n_trail && s->d->nodes[s->trail[s->len]].frame == f) {
		s->cur = s->trail[s->len++];
		return 1;
	}
	s->on_path = 0;
	s->cur = child_of(s->d, s->cur, f);
	if (s->cur == SS_BAD_INDEX ||
	    amd_grow(&s->trail, s->len, &s->cap_trail, sizeof *s->trail, 64) < 0)
		return oom(s);
	s->trail[s->len++] = s->cur;
	return 1;
}

/* ---- values, by where they are ---- */

static struct ss_profile *profile(struct scan *s)
{
	return &s->d->profiles[s->d->n_profiles - 1];
}

static int add_sample(struct scan *s, uint32_t leaf)
{
	struct ss_profile *p = profile(s);
	struct ss_sample_run *last = p->n_sample_runs ? &p->samples[p->n_sample_runs - 1] : NULL;
	if (last && last->leaf == leaf && last->n < UINT32_MAX) {
		last->n++;
	} else {
		if (amd_grow(&p->samples, p->n_sample_runs, &p->cap_samples, sizeof *p->samples,
			     256) < 0)
			return oom(s);
		p->samples[p->n_sample_runs++] = (struct ss_sample_run){leaf, 1};
	}
	p->n_samples++;
	return 1;
}

/* A weight's value; the last one's again when the text is the same. */
static double weight(struct scan *s, const unsigned char *p, size_t len)
{
	if (len == s->last_len && memcmp(p, s->last_text, len) == 0)
		return s->last_weight;
	double w = number(p, len);
	if (len < sizeof s->last_text) {
		memcpy(s->last_text, p, len);
		s->last_len = len;
		s->last_weight = w;
	}
	return w;
}

static int add_weight(struct scan *s, double w)
{
	struct ss_profile *p = profile(s);
	if (p->n_runs && memcmp(&p->runs[p->n_runs - 1].w, &w, sizeof w) == 0) {
		p->runs[p->n_runs - 1].n++;
	} else {
		if (amd_grow(&p->runs, p->n_runs, &p->cap_runs, sizeof *p->runs, 16) < 0)
			return oom(s);
		p->runs[p->n_runs++] = (struct ss_weight_run){w, 1};
	}
	p->n_weights++;
	return 1;
}

static int set_text(struct scan *s, char **dst, const unsigned char *p, size_t len)
{
	if (!(*dst = copy_text(p, len)))
		return oom(s);
	return 1;
}

/* A new element of the frames or profiles array. */
static int new_entry(struct scan *s, enum where w)
{
	struct ss_doc *d = s->d;
	if (w == W_FRAMES) {
		if (amd_grow(&d->frames, d->n_frames, &d->cap_frames, sizeof *d->frames, 256) < 0)
			return oom(s);
		d->frames[d->n_frames++] = (struct amd_stack_frame){0};
		s->seen_frame = 0;
	} else {
		if (amd_grow(&d->profiles, d->n_profiles, &d->cap_profiles, sizeof *d->profiles,
			     8) < 0)
			return oom(s);
		d->profiles[d->n_profiles++] = (struct ss_profile){0};
	}
	return 1;
}

static int frame_value(struct scan *s, enum kind k, const unsigned char *p, size_t len)
{
	struct amd_stack_frame *f = &s->d->frames[s->d->n_frames - 1];
	char *t = NULL;
	if (k == V_STRING && s->key == K_NAME) {
		int ok = set_text(s, &t, p, len);
		f->name = t;
		return ok;
	}
	if (k == V_STRING && s->key == K_FILE && len > 0 && p[0]) { /* "" is no file */
		int ok = set_text(s, &t, p, len);
		f->file = t;
		return ok;
	}
	if (k == V_NUMBER && s->key == K_LINE) {
		double v = number(p, len);
		f->line = v > 0 && v < 1e9 ? (int)v : 0;
	}
	return 1;
}

static int profile_value(struct scan *s, enum kind k, const unsigned char *p, size_t len)
{
	struct ss_profile *pr = profile(s);
	if (k != V_STRING)
		return 1;
	if (s->key == K_TYPE)
		return set_text(s, &pr->type, p, len);
	if (s->key == K_UNIT)
		return set_text(s, &pr->unit, p, len);
	if (s->key == K_NAME)
		return set_text(s, &pr->name, p, len);
	return 1;
}

/* A scalar value (a container's contents go through open/close). */
static int scalar(struct scan *s, enum kind k, const unsigned char *p, size_t len)
{
	if (s->skip || s->depth == 0)
		return 1;
	switch (s->at[s->depth - 1]) {
	case W_DOC:
		if (k == V_STRING && s->key == K_SCHEMA)
			return set_text(s, &s->d->schema, p, len);
		return 1;
	case W_FRAMES:
		return new_entry(s, W_FRAMES);
	case W_FRAME:
		return frame_value(s, k, p, len);
	case W_PROFILES:
		return new_entry(s, W_PROFILES);
	case W_PROFILE:
		return profile_value(s, k, p, len);
	case W_SAMPLES:
		return add_sample(s, SS_NOT_ARRAY);
	case W_SAMPLE:
		return sample_frame(s, k == V_NUMBER ? frame_index(p, len) : SS_BAD_INDEX);
	case W_WEIGHTS:
		return add_weight(s, k == V_NUMBER ? weight(s, p, len) : NAN);
	default:
		return 1;
	}
}

/* What a container opened at the current place is: the place it makes,
 * or -1 to skip it. Elements of arrays of entries are counted here. */
static int opened(struct scan *s, enum kind k)
{
	if (s->depth == 0)
		return k == V_MAP ? W_DOC : -1;
	enum key key = s->key;
	switch (s->at[s->depth - 1]) {
	case W_DOC:
		if (key == K_PROFILES && k == V_ARRAY)
			return s->d->profiles_array = 1, W_PROFILES;
		return key == K_SHARED && k == V_MAP ? W_SHARED : -1;
	case W_SHARED:
		if (key == K_FRAMES && k == V_ARRAY)
			return s->d->frames_array = 1, W_FRAMES;
		return -1;
	case W_FRAMES:
		if (!new_entry(s, W_FRAMES))
			return -2;
		return k == V_MAP ? W_FRAME : -1;
	case W_PROFILES:
		if (!new_entry(s, W_PROFILES))
			return -2;
		return k == V_MAP ? W_PROFILE : -1;
	case W_PROFILE:
		if (key == K_SAMPLES && k == V_ARRAY)
			return profile(s)->samples_array = 1, W_SAMPLES;
		if (key == K_WEIGHTS && k == V_ARRAY)
			return profile(s)->weights_array = 1, W_WEIGHTS;
		return -1;
	case W_SAMPLES:
		if (k != V_ARRAY)
			return add_sample(s, SS_NOT_ARRAY) ? -1 : -2;
		s->cur = 0;
		s->len = 0;
		s->on_path = 1;
		return W_SAMPLE;
	case W_SAMPLE:
		return sample_frame(s, SS_BAD_INDEX) ? -1 : -2;
	case W_WEIGHTS:
		return add_weight(s, NAN) ? -1 : -2;
	default:
		return -1;
	}
}

static int open_container(struct scan *s, enum kind k)
{
	if (s->skip) {
		s->skip++;
		return 1;
	}
	int w = opened(s, k);
	if (w == -2)
		return 0;
	if (w < 0 || s->depth == MAX_NEST) {
		s->skip = 1;
		return 1;
	}
	s->at[s->depth++] = (enum where)w;
	return 1;
}

static int close_container(void *ctx)
{
	struct scan *s = ctx;
	if (s->skip) {
		s->skip--;
		return 1;
	}
	if (s->at[--s->depth] != W_SAMPLE)
		return 1;
	s->n_trail = s->len < s->n_trail && s->on_path ? s->n_trail : s->len;
	return add_sample(s, s->cur);
}

/* Keys: the first of each kept key of a container; the rest K_NONE. */
static enum key key_of(const unsigned char *p, size_t len, const char *const *names,
		       const enum key *keys, unsigned *seen)
{
	for (unsigned i = 0; names[i]; i++) {
		if (strlen(names[i]) != len || memcmp(p, names[i], len) != 0)
			continue;
		if (*seen & 1u << i)
			return K_NONE;
		*seen |= 1u << i;
		return keys[i];
	}
	return K_NONE;
}

static int on_key(void *ctx, const unsigned char *p, size_t len)
{
	static const char *const doc[] = {"$schema", "profiles", "shared", NULL};
	static const enum key doc_k[] = {K_SCHEMA, K_PROFILES, K_SHARED};
	static const char *const shared[] = {"frames", NULL};
	static const enum key shared_k[] = {K_FRAMES};
	static const char *const frame[] = {"name", "file", "line", NULL};
	static const enum key frame_k[] = {K_NAME, K_FILE, K_LINE};
	static const char *const prof[] = {"type", "unit", "name", "samples", "weights", NULL};
	static const enum key prof_k[] = {K_TYPE, K_UNIT, K_NAME, K_SAMPLES, K_WEIGHTS};
	struct scan *s = ctx;
	if (s->skip)
		return 1;
	switch (s->at[s->depth - 1]) {
	case W_DOC:
		s->key = key_of(p, len, doc, doc_k, &s->seen_doc);
		break;
	case W_SHARED:
		s->key = key_of(p, len, shared, shared_k, &s->seen_shared);
		break;
	case W_FRAME:
		s->key = key_of(p, len, frame, frame_k, &s->seen_frame);
		break;
	default:
		s->key = key_of(p, len, prof, prof_k, &profile(s)->seen);
	}
	return 1;
}

static int on_string(void *ctx, const unsigned char *p, size_t len)
{
	return scalar(ctx, V_STRING, p, len);
}

static int on_number(void *ctx, const char *p, size_t len)
{
	return scalar(ctx, V_NUMBER, (const unsigned char *)p, len);
}

static int on_null(void *ctx)
{
	return scalar(ctx, V_OTHER, NULL, 0);
}

static int on_bool(void *ctx, int b)
{
	(void)b;
	return scalar(ctx, V_OTHER, NULL, 0);
}

static int on_start_map(void *ctx)
{
	return open_container(ctx, V_MAP);
}

static int on_start_array(void *ctx)
{
	return open_container(ctx, V_ARRAY);
}

static const yajl_callbacks callbacks = {
	.yajl_null = on_null,
	.yajl_boolean = on_bool,
	.yajl_number = on_number,
	.yajl_string = on_string,
	.yajl_start_map = on_start_map,
	.yajl_map_key = on_key,
	.yajl_end_map = close_container,
	.yajl_start_array = on_start_array,
	.yajl_end_array = close_container,
};

int ss_doc_scan(const char *path, struct ss_doc *d, struct amd_err *err)
{
	struct scan s = {.d = d, .path = path, .err = err};
	int rc = 0;
	if (amd_grow(&d->nodes, 0, &d->cap_nodes, sizeof *d->nodes, 1024) < 0)
		rc = amd_fail(err, "%s: out of memory", path);
	else
		d->nodes[d->n_nodes++] = (struct ss_node){SS_BAD_INDEX, SS_BAD_INDEX};
	/* cJSON read these files before: bytes after the document and
	 * strings that are not UTF-8 are still accepted. The samples arrays
	 * are megabytes of numbers without a string: the exact guard. */
	if (rc == 0)
		rc = amd_json_stream(path, &callbacks, &s, &s.failed,
				     AMD_JSON_TRAILING | AMD_JSON_RAW_UTF8 |
				     AMD_JSON_EXACT_GUARD, err);
	free(s.trail);
	return rc;
}

void ss_doc_free(struct ss_doc *d)
{
	for (size_t i = 0; i < d->n_frames; i++) {
		free((char *)d->frames[i].name);
		free((char *)d->frames[i].file);
	}
	free(d->frames);
	for (size_t i = 0; i < d->n_profiles; i++) {
		struct ss_profile *p = &d->profiles[i];
		free(p->type);
		free(p->unit);
		free(p->name);
		free(p->samples);
		free(p->runs);
	}
	free(d->profiles);
	free(d->nodes);
	amd_hmap_free(&d->node_ix);
	free(d->schema);
	memset(d, 0, sizeof *d);
}
