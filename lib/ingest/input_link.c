/* input_link.c — linking a unit's profiler facts to the run its input
 * names (ingest.h): the py-spy readers and the profile readers (cProfile,
 * Nsight Systems, key_averages tables) share it. */
#include "ingest.h"

int amd_input_link(const struct amd_input *in, struct amd_sink *sink, struct amd_err *err)
{
	if (!sink->link)
		return 0;
	return sink->link(sink, in->run_ext_hint, in->run_name_hint, in->sweep_hint, err);
}
