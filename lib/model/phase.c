/* phase.c — the phases' names as stored and shown. */
#include "phase.h"

const char *const amd_phase_names[AMD_PHASE_COUNT] = {
	"compute", "communication", "memory", "idle", "other", "overlap",
};
