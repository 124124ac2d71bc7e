/* writer_regions.h — the unit writer's regions (lib/model/region.h):
 * the sink callbacks that write a reader's regions and caller edges.
 * Part of the unit writer (writer.h, writer_sink.h). */
#ifndef AMD_WRITER_REGIONS_H
#define AMD_WRITER_REGIONS_H

#include "sink.h"

struct amd_store_sink;

int writer_region(struct amd_sink *s, const struct amd_region_rec *r, struct amd_err *err);
/* Writes the unit's held regions as a region_pack row (none: nothing). */
int writer_regions_flush(struct amd_store_sink *ss, struct amd_err *err);
void writer_regions_free(struct amd_store_sink *ss);
/* writer_calls.c: a caller edge held (region_call_pack, call_pack.h);
 * writing the held edges as one pack (none: nothing); freeing them. */
int writer_region_call(struct amd_sink *s, const struct amd_region_call *c,
		       struct amd_err *err);
int writer_calls_flush(struct amd_store_sink *ss, struct amd_err *err);
void writer_calls_free(struct amd_store_sink *ss);

#endif
