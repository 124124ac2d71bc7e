/* stats_pooled.c — `stats`' note on a configuration that pools runs of
 * several configurations (the points amd_analyse marks: runs of one
 * strategy and world size but different run names, which differ in a
 * param constant within each name — global_batch_size on a batch-size
 * sweep), so its median, CV and interval mix unlike runs. The note names
 * the param and the two ways to split it (--by param.X, --axis X). */
#include <stdio.h>

#include "cmd.h"
#include "stats_pooled.h"

void stats_pooled_notes(const struct amd_sweep_stats *s, FILE *out)
{
	for (size_t i = 0; i < s->nstrategies; i++)
		for (size_t k = 0; k < s->strategies[i].npoints; k++) {
			const struct amd_point_stats *p = &s->strategies[i].points[k];
			if (!p->pooled_param[0])
				continue;
			fprintf(out, "note: strategy %s n=%g pools %zu runs of %zu configurations that "
				     "differ in param %s (%s); its numbers mix them: split them with "
				     "--by param.%s, or scale over them with --axis %s\n",
				p->strategy && *p->strategy ? cmd_shown(p->strategy) : "(none logged)", p->n,
				p->nruns, p->pooled_names, cmd_shown(p->pooled_param),
				cmd_shown(p->pooled_values), cmd_shown(p->pooled_param),
				cmd_shown(p->pooled_param));
		}
}
