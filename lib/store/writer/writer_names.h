/* writer_names.h — the unit writer's names callback (struct amd_sink's
 * names): a unit's distinct names added to the dictionary before its
 * facts, in byte order or in the order given. */
#ifndef AMD_WRITER_NAMES_H
#define AMD_WRITER_NAMES_H

#include <stddef.h>
#include <stdint.h>

#include "sink.h"

int writer_names(struct amd_sink *s, const char *const *names, size_t n, int in_order,
		 struct amd_err *err);

struct amd_store_sink;

/* The dict id of name when it is one of the pointers the unit's names
 * callback was given (sink.h), else 0. */
int64_t writer_name_id(const struct amd_store_sink *ss, const char *name);

/* Frees the unit's table of those pointers. */
void writer_names_free(struct amd_store_sink *ss);

#endif
