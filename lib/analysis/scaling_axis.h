/* scaling_axis.h — weak scaling for `amdahl scaling --axis PARAM`: the
 * region rows (region_times.h) placed on a size parameter's value (a
 * run's param, e.g. global_batch_size) instead of the world size n. The
 * time stays the per-rank time per profiled step: on a size axis each
 * rank's work is what grows, so the model reads how a region's time per
 * rank follows the size (time × n would fold the world size in, which a
 * size sweep holds fixed). */
#ifndef AMD_SCALING_AXIS_H
#define AMD_SCALING_AXIS_H

#include <stddef.h>

#include "err.h"
#include "region_times.h"
#include "store.h"

/* Sets every row's and trace's n to its run's value of param axis and
 * sorts both by strategy, axis value, repeat, run and trace. sweep: a sweep name or
 * a selector (NULL: every run). Fails naming the run when its value is
 * missing or not a whole number in 1..2^24. */
int amd_scaling_axis_rows(struct amd_store *st, const char *sweep, const char *axis,
			  struct amd_region_set *set, struct amd_err *err);

#endif
