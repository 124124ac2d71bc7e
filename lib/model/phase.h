/* phase.h — the phases a rank's time is split into (compute,
 * communication, memory, idle, other; overlap apart), shared by the trace
 * parser, the store, the analysis and the report. */
#ifndef AMD_MODEL_PHASE_H
#define AMD_MODEL_PHASE_H

/* Phases of a rank's time (see docs/design.md). OVERLAP is communication time
 * that ran concurrently with compute; it is not part of the sum. */
enum amd_phase {
	AMD_PHASE_COMPUTE,
	AMD_PHASE_COMM,
	AMD_PHASE_MEMORY,
	AMD_PHASE_IDLE,
	AMD_PHASE_OTHER,
	AMD_PHASE_OVERLAP,
	AMD_PHASE_COUNT
};
extern const char *const amd_phase_names[AMD_PHASE_COUNT];
/* The phase named name (as stored), or -1 for NULL or any other text. */
int amd_phase_index(const char *name);

#endif
