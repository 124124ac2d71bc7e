/* writer_names.h — the unit writer's names callback (struct amd_sink's
 * names): a unit's distinct names added to the dictionary in byte order
 * before its facts. */
#ifndef AMD_WRITER_NAMES_H
#define AMD_WRITER_NAMES_H

#include <stddef.h>

#include "sink.h"

int writer_names(struct amd_sink *s, const char *const *names, size_t n,
		 struct amd_err *err);

#endif
