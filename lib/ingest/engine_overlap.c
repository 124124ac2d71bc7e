/* engine_overlap.c — the second thread of engine_overlap.h: it runs a
 * format's read step while the engine hashes the same file and asks the
 * target whether it holds it already; the engine then cancels the read
 * (unchanged file) or waits for it and lets the format emit.
 * A queued format (ingest.h) instead parses on queued_sink.h's thread,
 * and the engine drains the queue into the sink as it fills.
 * AMDAHL_OVERLAP=0 in the environment turns both off (one thread). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "engine_overlap.h"
#include "queued_sink.h"

struct amd_overlap {
	const struct amd_format *fmt;
	struct amd_input in;
	int events;
	atomic_int cancel;
	int queued; /* f->queued: the state is queued_sink.h's, no thread here */
	pthread_t thread;
	int joined;
	void *state; /* the format's, after a read that succeeded */
	int rc;
	struct amd_err err;
};

static void *run_read(void *arg)
{
	struct amd_overlap *o = arg;
	o->rc = o->fmt->read(&o->in, o->events, &o->cancel, &o->state, &o->err);
	return NULL;
}

int amd_overlap_allowed(void)
{
	const char *env = getenv("AMDAHL_OVERLAP"); /* "0": one thread, as before */
	return !(env && strcmp(env, "0") == 0);
}

struct amd_overlap *amd_overlap_start(const struct amd_format *f, const struct amd_input *in,
				      int events)
{
	if (!f->queued && (!f->read || !f->emit || !f->drop || f->is_dir))
		return NULL;
	if (!amd_overlap_allowed())
		return NULL;
	struct amd_overlap *o = calloc(1, sizeof *o);
	if (!o)
		return NULL;
	o->fmt = f;
	o->in = *in;
	o->events = events;
	atomic_init(&o->cancel, 0);
	if (f->queued) {
		o->queued = 1;
		if (amd_queued_read(f->parse, &o->in, &o->state, &o->err) == 0)
			return o;
		free(o);
		return NULL;
	}
	if (pthread_create(&o->thread, NULL, run_read, o) != 0) {
		free(o);
		return NULL;
	}
	return o;
}

static void overlap_free(struct amd_overlap *o)
{
	if (o->queued)
		amd_queued_drop(o->state);
	else if (o->state)
		o->fmt->drop(o->state);
	free(o);
}

void amd_overlap_cancel(struct amd_overlap *o)
{
	if (!o)
		return;
	atomic_store(&o->cancel, 1);
	if (!o->queued && !o->joined)
		pthread_join(o->thread, NULL);
	overlap_free(o);
}

void amd_overlap_wait(struct amd_overlap *o, int whole_queue)
{
	if (!o)
		return;
	if (o->queued) {
		if (whole_queue)
			amd_queued_wait(o->state);
	} else if (!o->joined) {
		pthread_join(o->thread, NULL);
		o->joined = 1;
	}
}

int amd_overlap_finish(struct amd_overlap *o, struct amd_sink *sink, struct amd_err *err)
{
	if (o->queued) {
		int rc = amd_queued_emit(o->state, &o->in, sink, err);
		overlap_free(o);
		return rc;
	}
	amd_overlap_wait(o, 0);
	int rc = o->rc;
	if (rc != 0)
		*err = o->err;
	else
		rc = o->fmt->emit(o->state, &o->in, sink, err);
	overlap_free(o);
	return rc;
}
