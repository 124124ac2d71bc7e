/* writer_memory.h — writing a trace's memory per device (writer_memory.c),
 * called by the trace writer (writer_profile.c). */
#ifndef AMD_WRITER_MEMORY_H
#define AMD_WRITER_MEMORY_H

#include <stdint.h>

#include "err.h"
#include "records.h"
#include "writer_sink.h"

int writer_trace_memory(struct amd_store_sink *ss, int64_t trace_id,
			const struct amd_trace_summary *t, struct amd_err *err);

#endif
