/* tb_run.c — which run a TensorBoard event file reports, and its facts
 * (see tb_run.h). The run directory is the file's directory, except
 * where writers put a run's files in subfolders of it:
 *   train/, validation/, eval/, test/  Keras' TensorBoard callback: the
 *        run is the parent, and the folder prefixes the tags
 *        ("validation/epoch_loss"), so both writers' epoch_loss stay apart;
 *   <seconds since the epoch>/  PyTorch's add_hparams: the run is the
 *        parent (the hparams and their metrics belong to it).
 * The run's id is "tensorboard:" and the directory's real path (every
 * file of a run directory names the same run; a linked file belongs to
 * the directory that lists it), its name the directory's
 * name and its sweep the name of the directory above (--sweep replaces
 * it); no status (TensorBoard records none, so the run counts); start
 * and end from the first and last wall times, which the store widens
 * over the run's files (min of starts, max of ends, in any order).
 * A file in an MLflow run's artifacts (mlruns/<exp>/<run>/artifacts/…,
 * as mlflow.log_artifacts(logdir) or a TensorBoard logger under the run's
 * artifact directory leaves it) joins that run instead: its scalars and
 * hparams are facts of the MLflow run, linked by the run's id (sink
 * link; a placeholder until the run's own unit comes), and neither its
 * name, sweep, status nor span change. */
#include "tb_run.h"

#include <stdio.h>
#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "ingest.h"
#include "num.h"

struct tb_run {
	char *id, *name, *sweep, *prefix;
	char *join, *join_sweep; /* the MLflow run the file joins, or NULL */
	double first, last; /* wall times, NAN before any */
	int reported;
	struct amd_buf key;
};

static int is_writer_folder(const char *name)
{
	static const char *const keras[] = {"train", "validation", "eval", "test"};
	for (size_t i = 0; i < sizeof keras / sizeof keras[0]; i++)
		if (strcmp(name, keras[i]) == 0)
			return 1;
	return 0;
}

/* A folder named by seconds since the epoch ("1708473985.123"). */
static int is_timestamp_folder(const char *name)
{
	size_t digits = 0;
	for (const char *p = name; *p; p++) {
		if (isdigit((unsigned char)*p))
			digits++;
		else if (*p != '.')
			return 0;
	}
	return digits >= 9;
}

/* The last component of dir (which has no trailing '/'). */
static const char *last(const char *dir)
{
	const char *s = strrchr(dir, '/');
	return s ? s + 1 : dir;
}

/* Cuts dir's last component off; 0 when there is none to cut. */
static int up(char *dir)
{
	char *s = strrchr(dir, '/');
	if (!s || s == dir)
		return 0;
	*s = '\0';
	return 1;
}

struct tb_run *tb_run_new(const char *path, const char *run_ext_id, const char *sweep,
			  struct amd_err *err)
{
	struct tb_run *r = calloc(1, sizeof *r);
	char *dir = strdup(path), *real = NULL;
	if (!r || !dir || (run_ext_id && !(r->join = strdup(run_ext_id))) ||
	    (run_ext_id && sweep && !(r->join_sweep = strdup(sweep))))
		goto oom;
	r->first = r->last = NAN;
	if (!up(dir)) {
		free(dir);
		if (!(dir = strdup(".")))
			goto oom;
	}
	/* the directory's real path (the file itself may be a link) */
	if ((real = realpath(dir, NULL))) {
		free(dir);
		dir = real;
	}
	if (is_writer_folder(last(dir))) {
		if (!(r->prefix = strdup(last(dir))))
			goto oom;
		up(dir);
	} else if (is_timestamp_folder(last(dir))) {
		up(dir);
	}
	struct amd_buf id = {0};
	if (amd_buf_printf(&id, "tensorboard:%s", dir) < 0 || !(r->name = strdup(last(dir))))
		goto oom;
	r->id = id.data;
	if (up(dir) && !(r->sweep = strdup(last(dir))))
		goto oom;
	free(dir);
	return r;
oom:
	free(dir);
	tb_run_free(r);
	amd_fail(err, "%s: out of memory", path);
	return NULL;
}

int tb_run_seen(struct tb_run *r, double wall_time)
{
	if (isnan(r->first) || wall_time < r->first)
		r->first = wall_time;
	if (isnan(r->last) || wall_time > r->last)
		r->last = wall_time;
	return 0;
}

static int64_t ms(double secs)
{
	return isfinite(secs) && fabs(secs) < 9e12 ? (int64_t)llround(secs * 1000.0) : 0;
}

/* The run, reported before its first fact and again at the end; the
 * MLflow run a file joins, linked once before its first fact. */
static int report(struct tb_run *r, struct amd_sink *sink, struct amd_err *err)
{
	if (r->join) {
		int first = !r->reported;
		r->reported = 1;
		return first && sink->link ? sink->link(sink, r->join, NULL, r->join_sweep, err) : 0;
	}
	struct amd_run_rec rec = {
		.ext_id = r->id,
		.name = r->name,
		.sweep = r->sweep,
		.status = AMD_STATUS_UNKNOWN,
		.start_ms = ms(r->first),
		.end_ms = ms(r->last),
		.span_part = 1, /* the directory's other files hold the rest */
	};
	r->reported = 1;
	return sink->run ? sink->run(sink, &rec, err) : 0;
}

int tb_run_scalar(struct tb_run *r, struct amd_sink *sink, const char *tag, int64_t step,
		  double wall_time, double value, struct amd_err *err)
{
	if (!r->reported && report(r, sink, err) < 0)
		return -1;
	const char *key = tag; /* the sink copies it */
	if (r->prefix) {
		r->key.len = 0;
		if (amd_buf_append(&r->key, r->prefix, strlen(r->prefix)) < 0 ||
		    amd_buf_append(&r->key, "/", 1) < 0 ||
		    amd_buf_append(&r->key, tag, strlen(tag)) < 0)
			return amd_fail(err, "%s: out of memory", r->id);
		key = r->key.data;
	}
	return sink->metric ? sink->metric(sink, key, step, ms(wall_time), value, err) : 0;
}

int tb_run_hparam(struct tb_run *r, struct amd_sink *sink, const char *where, const char *key,
		  const Amdtb__HParamValue *v, struct amd_err *err)
{
	char num[64];
	const char *text = NULL;
	if (!v)
		return 0;
	if (v->kind_case == AMDTB__HPARAM_VALUE__KIND_NUMBER_VALUE) {
		amd_num_text(v->number_value, num, sizeof num);
		text = num;
	} else if (v->kind_case == AMDTB__HPARAM_VALUE__KIND_STRING_VALUE) {
		text = v->string_value;
	} else if (v->kind_case == AMDTB__HPARAM_VALUE__KIND_BOOL_VALUE) {
		text = v->bool_value ? "true" : "false";
	}
	if (!text)
		return 0;
	if (!r->reported && report(r, sink, err) < 0)
		return -1;
	return amd_sink_key_value(sink, 0, where, key, text, strlen(text), err);
}

int tb_run_finish(struct tb_run *r, struct amd_sink *sink, struct amd_err *err)
{
	return report(r, sink, err);
}

void tb_run_free(struct tb_run *r)
{
	if (!r)
		return;
	free(r->id);
	free(r->name);
	free(r->sweep);
	free(r->prefix);
	free(r->join);
	free(r->join_sweep);
	amd_buf_free(&r->key);
	free(r);
}
