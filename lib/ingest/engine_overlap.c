/* engine_overlap.c — where a unit's parse runs (engine_overlap.h): on a
 * thread of its own into queued_sink.h's queue, for every format, once
 * the unit is known to be new or changed; on the engine's thread when
 * AMDAHL_OVERLAP=0 or no thread starts. */
#include <stdlib.h>
#include <string.h>

#include "engine_overlap.h"
#include "queued_sink.h"

struct amd_overlap {
	void *queued; /* queued_sink.h's state */
};

int amd_overlap_allowed(void)
{
	const char *env = getenv("AMDAHL_OVERLAP"); /* "0": one thread, as before */
	return !(env && strcmp(env, "0") == 0);
}

struct amd_overlap *amd_overlap_start(const struct amd_format *f, const struct amd_input *in,
				      int events)
{
	if (!amd_overlap_allowed())
		return NULL;
	struct amd_overlap *o = calloc(1, sizeof *o);
	if (!o)
		return NULL;
	if (amd_queued_start(f->parse, in, events, &o->queued) < 0) {
		free(o);
		return NULL;
	}
	return o;
}

void amd_overlap_cancel(struct amd_overlap *o)
{
	if (!o)
		return;
	amd_queued_drop(o->queued);
	free(o);
}

size_t amd_overlap_held(const struct amd_overlap *o)
{
	return o ? amd_queued_held(o->queued) : 0;
}

int amd_overlap_wait(struct amd_overlap *o, int whole_queue)
{
	return o ? amd_queued_wait(o->queued, whole_queue) : 0;
}

int amd_overlap_finish(struct amd_overlap *o, struct amd_sink *sink, struct amd_err *err)
{
	int rc = amd_queued_emit(o->queued, sink, err);
	amd_overlap_cancel(o);
	return rc;
}
