/* tb_events.c — TensorBoard event files (events.out.tfevents.*), as
 * PyTorch's SummaryWriter, Keras' TensorBoard callback, Lightning's
 * default logger and TF2's tf.summary write them: TFRecords (tfrecord.c,
 * both CRCs checked) of Event protobufs (tb_event.proto, decoded by
 * protobuf-c). Scalars are Summary values with simple_value (PyTorch,
 * TF1) or a one-element numeric tensor (TF2/Keras: float_val,
 * double_val, int_val, int64_val or tensor_content); a tag whose first
 * value names another plugin (images, histograms, text, the Keras graph)
 * is skipped. The hparams plugin's session start gives the run's params.
 *
 * A run directory is a run (tb_run.c names it): each event file is one
 * unit that reports the run of its directory, so every file of a run —
 * Keras' train/ and validation/ writers, a restarted writer — feeds the
 * same run (a file in an MLflow run's artifacts joins that run instead:
 * tb_run.c). Scalars are metrics exactly like MLflow's: the tag, the
 * event's step, its wall time in ms and the value. A file cut inside its
 * last record keeps its complete records (tag tensorboard.incomplete, and
 * a warning of the unit: amd_input_warn). */
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "file.h"
#include "ingest.h"
#include "pb_arena.h"
#include "tb_event.pb-c.h"
#include "tb_run.h"
#include "tfrecord.h"

static int detect(const char *path, const unsigned char *head, size_t n)
{
	/* a record header with a matching length CRC, whose data starts
	 * with Event's wall_time (field 1, fixed64: tag byte 0x09) */
	return amd_tfrecord_head_ok(head, n) && n > 12 && head[12] == 0x09 ? 95 : 0;
}

/* Tags seen and whether their values are scalars (the plugin is named
 * only in a tag's first value). */
struct tags {
	char **name;
	int *scalar;
	size_t n, cap, cap2;
	size_t next; /* where the search starts: after the tag found last */
};

/* 1 scalar, 0 not, -1 out of memory: the tag's verdict, set by its
 * first value's metadata (no plugin named: judged by the value). The
 * search starts after the last tag found: writers log their tags in the
 * same order at every step, so it is mostly one comparison. */
static int tag_is_scalar(struct tags *t, const Amdtb__Summary__Value *v)
{
	for (size_t k = 0, i = t->next; k < t->n; k++, i = i + 1 < t->n ? i + 1 : 0)
		if (strcmp(t->name[i], v->tag) == 0) {
			t->next = i + 1 < t->n ? i + 1 : 0;
			return t->scalar[i];
		}
	const char *plugin = v->metadata && v->metadata->plugin_data
		? v->metadata->plugin_data->plugin_name : "";
	int scalar = !*plugin || strcmp(plugin, "scalars") == 0;
	if (amd_grow(&t->name, t->n, &t->cap, sizeof *t->name, 16) < 0 ||
	    amd_grow(&t->scalar, t->n, &t->cap2, sizeof *t->scalar, 16) < 0 ||
	    !(t->name[t->n] = strdup(v->tag)))
		return -1;
	t->scalar[t->n++] = scalar;
	return scalar;
}

static void tags_free(struct tags *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->name[i]);
	free(t->name);
	free(t->scalar);
}

/* The one number of a scalar tensor; 0 when it holds none (or several). */
static int tensor_number(const Amdtb__TensorProto *t, double *out)
{
	size_t total = t->n_float_val + t->n_double_val + t->n_int_val + t->n_int64_val;
	if (total == 1) {
		*out = t->n_float_val ? t->float_val[0] : t->n_double_val ? t->double_val[0]
		       : t->n_int_val ? t->int_val[0] : (double)t->int64_val[0];
		return 1;
	}
	if (total || !t->tensor_content.data)
		return 0;
	const unsigned char *p = t->tensor_content.data;
	size_t len = t->tensor_content.len;
	union { float f; double d; int32_t i; int64_t l; } u;
	switch (t->dtype) {
	case 1: if (len != 4) return 0; memcpy(&u.f, p, 4); *out = u.f; return 1;
	case 2: if (len != 8) return 0; memcpy(&u.d, p, 8); *out = u.d; return 1;
	case 3: if (len != 4) return 0; memcpy(&u.i, p, 4); *out = u.i; return 1;
	case 9: if (len != 8) return 0; memcpy(&u.l, p, 8); *out = (double)u.l; return 1;
	default: return 0;
	}
}

struct reader {
	const struct amd_input *in;
	struct amd_sink *sink;
	struct tb_run *run;
	struct tags tags;
	uint64_t record, offset; /* the record being read */
	char where[600];
	struct amd_pb_arena arena; /* the record's Event, dropped whole */
};

/* "PATH: record N (byte OFF)" for an error (made only when failing). */
static const char *at(struct reader *r)
{
	snprintf(r->where, sizeof r->where, "%s: record %llu (byte %llu)", r->in->path,
		 (unsigned long long)r->record, (unsigned long long)r->offset);
	return r->where;
}

/* The hparams plugin's session start: the run's params. */
static int hparams(struct reader *r, const ProtobufCBinaryData *content, struct amd_err *err)
{
	Amdtb__HParamsPluginData *h =
		amdtb__hparams_plugin_data__unpack(NULL, content->len, content->data);
	if (!h)
		return amd_fail(err, "%s: hparams plugin data is not an HParamsPluginData",
				at(r));
	int rc = 0;
	if (h->data_case == AMDTB__HPARAMS_PLUGIN_DATA__DATA_SESSION_START_INFO) {
		const Amdtb__SessionStartInfo *s = h->session_start_info;
		for (size_t i = 0; i < s->n_hparams && rc == 0; i++)
			rc = tb_run_hparam(r->run, r->sink, at(r), s->hparams[i]->key,
					   s->hparams[i]->value, err);
	}
	amdtb__hparams_plugin_data__free_unpacked(h, NULL);
	return rc;
}

static int value(struct reader *r, const Amdtb__Event *e, const Amdtb__Summary__Value *v,
		 struct amd_err *err)
{
	const char *plugin = v->metadata && v->metadata->plugin_data
		? v->metadata->plugin_data->plugin_name : "";
	if (strcmp(plugin, "hparams") == 0)
		return hparams(r, &v->metadata->plugin_data->content, err);
	double x;
	if (v->value_case == AMDTB__SUMMARY__VALUE__VALUE_SIMPLE_VALUE)
		x = v->simple_value;
	else if (v->value_case != AMDTB__SUMMARY__VALUE__VALUE_TENSOR ||
		 !tensor_number(v->tensor, &x))
		return 0;
	int scalar = tag_is_scalar(&r->tags, v);
	if (scalar < 0)
		return amd_fail(err, "%s: out of memory", at(r));
	return scalar ? tb_run_scalar(r->run, r->sink, v->tag, e->step, e->wall_time, x, err)
		      : 0;
}

static int event(struct reader *r, const unsigned char *data, size_t len, struct amd_err *err)
{
	Amdtb__Event *e = amdtb__event__unpack(&r->arena.pb, len, data);
	if (!e) {
		amd_pb_arena_reset(&r->arena);
		return amd_fail(err, "%s: not an Event protobuf", at(r));
	}
	int rc = isfinite(e->wall_time) ? tb_run_seen(r->run, e->wall_time)
		 : amd_fail(err, "%s: wall_time is not a number", at(r));
	if (rc == 0 && e->what_case == AMDTB__EVENT__WHAT_SUMMARY)
		for (size_t i = 0; i < e->summary->n_value && rc == 0; i++)
			rc = value(r, e, e->summary->value[i], err);
	amd_pb_arena_reset(&r->arena); /* e and all it holds */
	return rc;
}

/* A file that ends inside its last record (the job killed, or still
 * writing): its complete records are kept, the run's tag
 * tensorboard.incomplete says which file was cut where (a later ingest
 * of the grown file replaces this one, tag included), and the unit warns
 * with the same words (ingest.h, amd_input_warn). */
static int torn_tag(const struct amd_tfrecord *f, const struct amd_input *in,
		    struct amd_sink *sink, struct amd_err *err)
{
	uint64_t off;
	if (!amd_tfrecord_torn(f, &off))
		return 0;
	char what[300];
	snprintf(what, sizeof what, "record %llu (byte %llu) is cut short; the %llu complete"
		 " records before it were read",
		 (unsigned long long)amd_tfrecord_count(f) + 1, (unsigned long long)off,
		 (unsigned long long)amd_tfrecord_count(f));
	if (amd_input_warn(in, err, "%s: %s", in->path, what) < 0)
		return -1;
	if (!sink->tag)
		return 0;
	char v[1200];
	snprintf(v, sizeof v, "%.880s: %s", amd_basename(in->path), what);
	return sink->tag(sink, "tensorboard.incomplete", v, err);
}

static int parse(const struct amd_input *in, struct amd_sink *sink, struct amd_err *err)
{
	struct amd_tfrecord *f = amd_tfrecord_open(in->path, err);
	if (!f)
		return -1;
	struct reader r = {.in = in, .sink = sink};
	amd_pb_arena_init(&r.arena);
	int rc = (r.run = tb_run_new(in->path, in->run_ext_hint, in->sweep_hint, err)) ? 0 : -1, got = 0;
	const unsigned char *data;
	size_t len;
	uint64_t off;
	while (rc == 0 && (got = amd_tfrecord_next(f, &data, &len, &off, err)) == 1) {
		r.record = amd_tfrecord_count(f);
		r.offset = off;
		rc = event(&r, data, len, err);
	}
	uint64_t cut;
	if (rc == 0 && got == 0 && amd_tfrecord_count(f) == 0)
		rc = amd_tfrecord_torn(f, &cut)
			? amd_fail(err, "%s: record 1 (byte 0) is cut short: no complete record", in->path)
			: amd_fail(err, "%s: byte 0: an empty file (no record)", in->path);
	if (rc == 0 && got == 0)
		rc = tb_run_finish(r.run, sink, err);
	if (rc == 0 && got == 0)
		rc = torn_tag(f, in, sink, err);
	amd_tfrecord_close(f);
	tb_run_free(r.run);
	tags_free(&r.tags);
	amd_pb_arena_free(&r.arena);
	return rc < 0 || got < 0 ? -1 : 0;
}

const struct amd_format amd_fmt_tensorboard = {
	.name = "tensorboard",
	.variants = "TensorBoard event files (events.out.tfevents.*: PyTorch SummaryWriter, Lightning, Keras, tf.summary), simple_value and tensor scalars, hparams",
	.is_dir = 0,
	.detect = detect,
	.parse = parse,
	.is_run = 1,
};
