/* writer_profile.h — the sink callbacks (model/sink.h) that write what
 * profilers leave: PyTorch trace summaries, operator averages, nvidia-smi
 * samples and py-spy stacks (each stack a path in the source's trie of
 * stack_node rows, its samples on the leaf). Part of the unit writer
 * (writer.h, writer_sink.h). */
#ifndef AMD_WRITER_PROFILE_H
#define AMD_WRITER_PROFILE_H

#include "sink.h"

struct amd_store_sink;

int writer_trace(struct amd_sink *s, const struct amd_trace_summary *t, struct amd_err *err);
int writer_op_average(struct amd_sink *s, const char *name, int role, int rank,
		      double self_cuda_us, double cuda_total_us, int64_t calls,
		      struct amd_err *err);
int writer_gpu_sample(struct amd_sink *s, const struct amd_gpu_sample *g, struct amd_err *err);
int writer_stack(struct amd_sink *s, const struct amd_stack_rec *r, struct amd_err *err);
/* ingest --events: one event of the last trace written (writer_events.c). */
int writer_trace_event(struct amd_sink *s, const struct amd_trace_event_rec *e,
		       struct amd_err *err);

/* The unit's stacks in memory from here (else from its first stack): a
 * name the unit adds to dict later is newer than every frame the store
 * holds, so a frame naming it is not looked up. */
int writer_stacks_begin(struct amd_store_sink *ss, struct amd_err *err);
/* Frees the unit's stacks in memory (at the end of the unit). */
void writer_forget_stack(struct amd_store_sink *ss);
/* Writes the unit's stack rows still held: frames, nodes, samples. */
int writer_stacks_flush(struct amd_store_sink *ss, struct amd_err *err);

#endif
