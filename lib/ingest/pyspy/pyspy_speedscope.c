/* pyspy_speedscope.c — speedscope JSON (`py-spy record -f speedscope`,
 * and other exporters' sampled profiles): shared.frames, one "sampled"
 * profile per thread (py-spy names it `Thread TID "name"`, with -s
 * `Process PID Thread TID "name"`), samples root first with weights.
 * Weights in a time unit (py-spy ≥ 0.3.9: seconds, 1/rate each) are the
 * seconds, and samples = weight × rate, the rate being --rate or
 * 1/smallest weight; unit "none" (older py-spy: 1 per sample) counts
 * samples, seconds = samples / rate (--rate, else 100 Hz). A sample with
 * an empty stack (py-spy writes one for a thread sampled outside any
 * Python frame) is a sample of nothing: it counts in the thread's time
 * as the one frame "<idle>". The file is streamed (speedscope_scan.c:
 * keys in any order, memory following the distinct stacks plus 12 bytes
 * a sample), then replayed here: checks, rate, stacks to the
 * accumulator. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ingest.h"
#include "pyspy_stack.h"
#include "speedscope_doc.h"
#include "buf.h"

static int detect(const char *path, const unsigned char *head, size_t n)
{
	const char *s = (const char *)head;
	while (n && (*s == ' ' || *s == '\n' || *s == '\r' || *s == '\t')) {
		s++;
		n--;
	}
	if (n == 0 || *s != '{')
		return 0;
	return strstr(s, "speedscope.app/file-format-schema") ? 95 : 0;
}

/* Seconds per unit of weight; 0 for "none"; -1 for a unit that is not
 * time (bytes) or unknown. */
static double unit_seconds(const char *unit)
{
	if (!unit || strcmp(unit, "none") == 0)
		return 0;
	if (strcmp(unit, "seconds") == 0)
		return 1;
	if (strcmp(unit, "milliseconds") == 0)
		return 1e-3;
	if (strcmp(unit, "microseconds") == 0)
		return 1e-6;
	if (strcmp(unit, "nanoseconds") == 0)
		return 1e-9;
	return -1;
}

/* Splits py-spy's profile name into process and thread labels (in the
 * buffers given); other names become the thread label as they are. */
static void name_labels(const char *name, char *proc, size_t plen, char *thr, size_t tlen,
			const char **process, const char **thread)
{
	*process = NULL;
	*thread = name;
	const char *p = name;
	if (strncmp(p, "Process ", 8) == 0) {
		const char *sp = strstr(p + 8, " Thread ");
		if (!sp)
			return;
		snprintf(proc, plen, "%.*s", (int)(sp - (p + 8)), p + 8);
		*process = proc;
		p = sp + 1;
	}
	if (strncmp(p, "Thread ", 7) != 0)
		return;
	const char *id = p + 7;
	size_t idl = strcspn(id, " ");
	const char *q = id + idl;
	if (*q == ' ' && q[1] == '"' && strlen(q) >= 3 && q[strlen(q) - 1] == '"') {
		const char *nm = q + 2;
		int nl = (int)(strlen(nm) - 1);
		if (nl > 0)
			snprintf(thr, tlen, "%.*s %.*s", (int)idl, id, nl, nm);
		else
			snprintf(thr, tlen, "%.*s", (int)idl, id);
	} else {
		snprintf(thr, tlen, "%s", id);
	}
	*thread = thr;
}

static int is_sampled(const struct ss_profile *p)
{
	return p->type && strcmp(p->type, "sampled") == 0;
}

/* The smallest positive weight over all sampled profiles in a time unit
 * (py-spy's 1/rate), in seconds; 0 when none. */
static double min_weight(const struct ss_doc *d)
{
	double m = 0;
	for (size_t i = 0; i < d->n_profiles; i++) {
		const struct ss_profile *p = &d->profiles[i];
		double u = unit_seconds(p->unit);
		if (!is_sampled(p) || u <= 0)
			continue;
		for (size_t k = 0; k < p->n_runs; k++)
			if (p->runs[k].w > 0 && (m == 0 || p->runs[k].w * u < m))
				m = p->runs[k].w * u;
	}
	return m;
}

/* What an empty sample is stored as. */
static const struct amd_stack_frame idle_frame = {.name = "<idle>"};

/* The replay of the samples: each trie leaf is read and checked once
 * per profile, then its place in the accumulator is kept (place, with
 * the profile it was found for in stamp) and later samples of the same
 * stack add to it directly, in the same order, so the sums are the
 * same. */
struct replay {
	const struct ss_doc *d;
	uint32_t *ix; /* a sample's frame indices, leaf first */
	size_t cap_ix;
	int64_t *place;
	uint32_t *stamp; /* profile index + 1 whose place it is; 0: none */
	const char *path;
	struct amd_err *err;
};

static int sample_fail(struct replay *r, size_t pi, size_t i, const char *why)
{
	return amd_fail(r->err, "%s: profiles[%zu].samples[%zu]: %s", r->path, pi, i, why);
}

/* The sample ending at leaf into st, root first. */
static int one_sample(struct replay *r, uint32_t leaf, struct amd_pyspy_stack *st,
		      size_t pi, size_t i)
{
	st->depth = 0;
	if (leaf == SS_NOT_ARRAY)
		return sample_fail(r, pi, i, "not an array of frame indices");
	size_t n = 0;
	for (uint32_t v = leaf; v != 0; v = r->d->nodes[v].parent) {
		if (amd_grow(&r->ix, n, &r->cap_ix, sizeof *r->ix, 64) < 0)
			return amd_fail(r->err, "%s: out of memory", r->path);
		r->ix[n++] = r->d->nodes[v].frame;
	}
	while (n--) {
		if (r->ix[n] >= r->d->n_frames)
			return sample_fail(r, pi, i, "frame index out of shared.frames");
		const char *why = amd_pyspy_push_why(st, &r->d->frames[r->ix[n]]);
		if (why)
			return sample_fail(r, pi, i, why);
	}
	if (st->depth == 0 && amd_pyspy_push(st, &idle_frame) < 0)
		return amd_fail(r->err, "%s: out of memory", r->path);
	return 0;
}

/* The accumulator's place of sample i of profile pi; -1 with err. */
static int64_t place_of(struct replay *r, struct amd_pyspy_stack *st, struct amd_pyspy_acc *acc,
			uint32_t leaf, size_t pi, size_t i)
{
	if (leaf != SS_NOT_ARRAY && r->stamp[leaf] == pi + 1)
		return r->place[leaf];
	if (one_sample(r, leaf, st, pi, i) < 0)
		return -1;
	int64_t place = amd_pyspy_acc_place(acc, st);
	if (place < 0)
		return amd_fail(r->err, "%s: out of memory", r->path);
	r->stamp[leaf] = (uint32_t)(pi + 1);
	r->place[leaf] = place;
	return place;
}

static int one_profile(struct replay *r, size_t pi, double rate, struct amd_pyspy_acc *acc)
{
	const struct ss_profile *p = &r->d->profiles[pi];
	const char *path = r->path;
	double u = unit_seconds(p->unit);
	if (u < 0)
		return amd_fail(r->err, "%s: profiles[%zu]: unit '%s' is not time", path, pi,
				p->unit);
	if (!p->samples_array || !p->weights_array || p->n_samples != p->n_weights)
		return amd_fail(r->err, "%s: profiles[%zu]: samples and weights must be arrays"
				" of the same length", path, pi);
	char proc[256], thr[1024];
	struct amd_pyspy_stack st = {0};
	name_labels(p->name ? p->name : "", proc, sizeof proc, thr, sizeof thr, &st.process,
		    &st.thread);
	int rc = 0;
	size_t run = 0, left = p->n_runs ? p->runs[0].n : 0; /* weights left in run */
	size_t srun = 0, sleft = p->n_sample_runs ? p->samples[0].n : 0; /* samples left */
	for (size_t i = 0; i < p->n_samples; i++) {
		if (left == 0)
			left = p->runs[++run].n;
		left--;
		if (sleft == 0)
			sleft = p->samples[++srun].n;
		sleft--;
		double w = p->runs[run].w;
		if (!(w >= 0) || !isfinite(w) || w * (u ? u : 1.0 / rate) > AMD_PYSPY_MAX_SECONDS) {
			rc = amd_fail(r->err, "%s: profiles[%zu].weights[%zu]: not a weight", path,
				      pi, i);
			break;
		}
		int64_t place = place_of(r, &st, acc, p->samples[srun].leaf, pi, i);
		if (place < 0) {
			rc = -1;
			break;
		}
		if (u == 0)
			amd_pyspy_acc_add_at(acc, place, llround(w), -1);
		else
			amd_pyspy_acc_add_at(acc, place, llround(w * u * rate), w * u);
	}
	amd_pyspy_stack_free(&st);
	return rc;
}

/* The checks in the order the reader always made them: $schema,
 * profiles, shared.frames, the rate; then the sampled profiles. */
static int check_doc(const struct ss_doc *d, const char *path, struct amd_err *err)
{
	if (!d->schema || !strstr(d->schema, "speedscope"))
		return amd_fail(err, "%s: not a speedscope file (no speedscope $schema)", path);
	if (!d->profiles_array)
		return amd_fail(err, "%s: no profiles array", path);
	if (!d->frames_array)
		return amd_fail(err, "%s: no shared.frames array", path);
	for (size_t i = 0; i < d->n_frames; i++)
		if (!d->frames[i].name)
			return amd_fail(err, "%s: shared.frames[%zu]: no name", path, i);
	return 0;
}

static int replay_doc(const struct ss_doc *d, const struct amd_input *in,
		      struct amd_sink *sink, struct amd_err *err)
{
	if (check_doc(d, in->path, err) < 0)
		return -1;
	struct replay r = {.d = d, .path = in->path, .err = err};
	struct amd_pyspy_acc *acc = amd_pyspy_acc_new();
	r.place = malloc(d->n_nodes * sizeof *r.place);
	r.stamp = calloc(d->n_nodes, sizeof *r.stamp);
	int rc = acc && r.place && r.stamp ? 0 : amd_fail(err, "%s: out of memory", in->path);
	double mw = min_weight(d);
	double rate = amd_pyspy_rate(in, mw > 0 ? 1.0 / mw : 0);
	if (rc == 0 && rate > AMD_PYSPY_MAX_RATE)
		rc = amd_fail(err, "%s: weights of %g s mean a sampling rate above %g Hz; give"
			      " --rate", in->path, mw, AMD_PYSPY_MAX_RATE);
	if (rc == 0)
		rc = amd_input_link(in, sink, err);
	for (size_t pi = 0; pi < d->n_profiles && rc == 0; pi++)
		if (is_sampled(&d->profiles[pi]))
			rc = one_profile(&r, pi, rate, acc);
	rc = amd_pyspy_acc_finish(acc, rc, "no sampled profile with samples", rate, sink,
				  in->path, err);
	amd_pyspy_acc_free(acc);
	free(r.ix);
	free(r.place);
	free(r.stamp);
	return rc;
}

static int parse(const struct amd_input *in, struct amd_sink *sink, struct amd_err *err)
{
	struct ss_doc d = {0};
	int rc = ss_doc_scan(in->path, &d, err);
	if (rc == 0)
		rc = replay_doc(&d, in, sink, err);
	ss_doc_free(&d);
	return rc;
}

const struct amd_format amd_fmt_pyspy_speedscope = {
	.name = "pyspy-speedscope",
	.variants = "py-spy record -f speedscope (0.3.x, 0.4.x; empty samples as <idle>), other sampled speedscope files",
	.detect = detect,
	.parse = parse,
};
