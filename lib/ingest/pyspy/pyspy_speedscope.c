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
 * as the one frame "<idle>". cJSON: these files are small, and capped. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "ingest.h"
#include "pyspy_stack.h"
#include "buf.h"
#include "file.h"

#define SPEEDSCOPE_MAX ((size_t)256 << 20)

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

struct frame_tab {
	struct amd_stack_frame *v;
	size_t n;
};

static int read_frames(const cJSON *root, struct frame_tab *t, const char *path,
		       struct amd_err *err)
{
	const cJSON *frames = cJSON_GetObjectItemCaseSensitive(
		cJSON_GetObjectItemCaseSensitive(root, "shared"), "frames");
	if (!cJSON_IsArray(frames))
		return amd_fail(err, "%s: no shared.frames array", path);
	t->n = (size_t)cJSON_GetArraySize(frames);
	t->v = calloc(t->n ? t->n : 1, sizeof *t->v);
	if (!t->v)
		return amd_fail(err, "%s: out of memory", path);
	size_t i = 0;
	const cJSON *f;
	cJSON_ArrayForEach(f, frames) {
		const cJSON *name = cJSON_GetObjectItemCaseSensitive(f, "name");
		const cJSON *file = cJSON_GetObjectItemCaseSensitive(f, "file");
		const cJSON *line = cJSON_GetObjectItemCaseSensitive(f, "line");
		if (!cJSON_IsString(name))
			return amd_fail(err, "%s: shared.frames[%zu]: no name", path, i);
		t->v[i].name = name->valuestring;
		t->v[i].file = cJSON_IsString(file) && *file->valuestring ? file->valuestring : NULL;
		t->v[i].line = cJSON_IsNumber(line) && line->valuedouble > 0 &&
				       line->valuedouble < 1e9 ? (int)line->valuedouble : 0;
		i++;
	}
	return 0;
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

/* The smallest positive weight over all sampled profiles (py-spy's
 * 1/rate), in seconds; 0 when none. */
static double min_weight(const cJSON *profiles, double *unit_out)
{
	double m = 0;
	const cJSON *p;
	cJSON_ArrayForEach(p, profiles) {
		const cJSON *type = cJSON_GetObjectItemCaseSensitive(p, "type");
		const cJSON *unit = cJSON_GetObjectItemCaseSensitive(p, "unit");
		double u = unit_seconds(cJSON_IsString(unit) ? unit->valuestring : NULL);
		if (!cJSON_IsString(type) || strcmp(type->valuestring, "sampled") != 0 || u <= 0)
			continue;
		const cJSON *w;
		cJSON_ArrayForEach(w, cJSON_GetObjectItemCaseSensitive(p, "weights"))
			if (cJSON_IsNumber(w) && w->valuedouble > 0 && (m == 0 || w->valuedouble * u < m))
				m = w->valuedouble * u;
		*unit_out = u;
	}
	return m;
}

/* What an empty sample is stored as. */
static const struct amd_stack_frame idle_frame = {.name = "<idle>"};

static int one_sample(const cJSON *sample, const struct frame_tab *t,
		      struct amd_pyspy_stack *st, const char *where, const char *path,
		      struct amd_err *err)
{
	st->depth = 0;
	if (!cJSON_IsArray(sample))
		return amd_fail(err, "%s: %s: not an array of frame indices", path, where);
	const cJSON *ix;
	cJSON_ArrayForEach(ix, sample) {
		if (!cJSON_IsNumber(ix) || ix->valuedouble < 0 || ix->valuedouble >= (double)t->n ||
		    ix->valuedouble != floor(ix->valuedouble))
			return amd_fail(err, "%s: %s: frame index out of shared.frames", path, where);
		const char *why = amd_pyspy_push_why(st, &t->v[(size_t)ix->valuedouble]);
		if (why)
			return amd_fail(err, "%s: %s: %s", path, where, why);
	}
	if (st->depth == 0 && amd_pyspy_push(st, &idle_frame) < 0)
		return amd_fail(err, "%s: out of memory", path);
	return 0;
}

static int one_profile(const cJSON *p, size_t pi, const struct frame_tab *t, double rate,
		       struct amd_pyspy_acc *acc, const char *path, struct amd_err *err)
{
	const cJSON *unit = cJSON_GetObjectItemCaseSensitive(p, "unit");
	const cJSON *name = cJSON_GetObjectItemCaseSensitive(p, "name");
	const cJSON *samples = cJSON_GetObjectItemCaseSensitive(p, "samples");
	const cJSON *weights = cJSON_GetObjectItemCaseSensitive(p, "weights");
	double u = unit_seconds(cJSON_IsString(unit) ? unit->valuestring : NULL);
	if (u < 0)
		return amd_fail(err, "%s: profiles[%zu]: unit '%s' is not time", path, pi,
				unit->valuestring);
	if (!cJSON_IsArray(samples) || !cJSON_IsArray(weights) ||
	    cJSON_GetArraySize(samples) != cJSON_GetArraySize(weights))
		return amd_fail(err, "%s: profiles[%zu]: samples and weights must be arrays of"
				" the same length", path, pi);
	char proc[256], thr[1024];
	struct amd_pyspy_stack st = {0};
	name_labels(cJSON_IsString(name) ? name->valuestring : "", proc, sizeof proc, thr,
		    sizeof thr, &st.process, &st.thread);
	const cJSON *s = samples->child, *w = weights->child;
	int rc = 0;
	for (size_t i = 0; s && w && rc == 0; i++, s = s->next, w = w->next) {
		char where[64];
		snprintf(where, sizeof where, "profiles[%zu].samples[%zu]", pi, i);
		if (!cJSON_IsNumber(w) || w->valuedouble < 0 || !isfinite(w->valuedouble) ||
		    w->valuedouble * (u ? u : 1.0 / rate) > AMD_PYSPY_MAX_SECONDS) {
			rc = amd_fail(err, "%s: profiles[%zu].weights[%zu]: not a weight", path, pi, i);
			break;
		}
		if ((rc = one_sample(s, t, &st, where, path, err)) < 0)
			break;
		if (u == 0)
			rc = amd_pyspy_acc_add(acc, &st, llround(w->valuedouble), -1);
		else
			rc = amd_pyspy_acc_add(acc, &st, llround(w->valuedouble * u * rate),
					       w->valuedouble * u);
		if (rc < 0)
			amd_fail(err, "%s: out of memory", path);
	}
	amd_pyspy_stack_free(&st);
	return rc;
}

static int parse_doc(const cJSON *root, const struct amd_input *in, struct amd_sink *sink,
		     struct amd_err *err)
{
	const cJSON *schema = cJSON_GetObjectItemCaseSensitive(root, "$schema");
	if (!cJSON_IsString(schema) || !strstr(schema->valuestring, "speedscope"))
		return amd_fail(err, "%s: not a speedscope file (no speedscope $schema)", in->path);
	const cJSON *profiles = cJSON_GetObjectItemCaseSensitive(root, "profiles");
	if (!cJSON_IsArray(profiles))
		return amd_fail(err, "%s: no profiles array", in->path);
	struct frame_tab t = {0};
	struct amd_pyspy_acc *acc = amd_pyspy_acc_new();
	int rc = acc ? read_frames(root, &t, in->path, err) : amd_fail(err, "out of memory");
	double unit = 0, mw = rc == 0 ? min_weight(profiles, &unit) : 0;
	double rate = amd_pyspy_rate(in, mw > 0 ? 1.0 / mw : 0);
	if (rc == 0 && rate > AMD_PYSPY_MAX_RATE)
		rc = amd_fail(err, "%s: weights of %g s mean a sampling rate above %g Hz; give"
			      " --rate", in->path, mw, AMD_PYSPY_MAX_RATE);
	if (rc == 0)
		rc = amd_input_link(in, sink, err);
	size_t pi = 0;
	const cJSON *p;
	cJSON_ArrayForEach(p, profiles) {
		const cJSON *type = cJSON_GetObjectItemCaseSensitive(p, "type");
		if (rc == 0 && cJSON_IsString(type) && strcmp(type->valuestring, "sampled") == 0)
			rc = one_profile(p, pi, &t, rate, acc, in->path, err);
		pi++;
	}
	rc = amd_pyspy_acc_finish(acc, rc, "no sampled profile with samples", rate, sink,
				  in->path, err);
	amd_pyspy_acc_free(acc);
	free(t.v);
	return rc;
}

static int parse(const struct amd_input *in, struct amd_sink *sink, struct amd_err *err)
{
	struct amd_buf b = {0};
	if (amd_read_file(in->path, SPEEDSCOPE_MAX, &b, err) < 0) {
		amd_buf_free(&b);
		return -1;
	}
	const char *end = NULL;
	cJSON *root = cJSON_ParseWithLengthOpts(b.data, b.len, &end, 0);
	int rc;
	if (!root)
		rc = amd_fail(err, "%s: byte %ld: invalid JSON", in->path,
			      end ? (long)(end - b.data) : 0L);
	else
		rc = parse_doc(root, in, sink, err);
	cJSON_Delete(root);
	amd_buf_free(&b);
	return rc;
}

const struct amd_format amd_fmt_pyspy_speedscope = {
	.name = "pyspy-speedscope",
	.variants = "py-spy record -f speedscope (0.3.x, 0.4.x; empty samples as <idle>), other sampled speedscope files",
	.detect = detect,
	.parse = parse,
};
