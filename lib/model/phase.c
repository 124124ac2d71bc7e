/* phase.c — the phases' names as stored and shown. */
#include "phase.h"

#include <string.h>

const char *const amd_phase_names[AMD_PHASE_COUNT] = {
	"compute", "communication", "memory", "idle", "other", "overlap",
};

int amd_phase_index(const char *name)
{
	for (int p = 0; name && p < AMD_PHASE_COUNT; p++)
		if (strcmp(name, amd_phase_names[p]) == 0)
			return p;
	return -1;
}
