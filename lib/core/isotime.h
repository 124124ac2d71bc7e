/* isotime.h — the one reader of ISO 8601 times amdahl takes from users
 * and files (selectors' since/until, MLflow CSV exports' start and end
 * times): a date, an optional time and an optional zone offset. */
#ifndef AMD_ISOTIME_H
#define AMD_ISOTIME_H

#include <stdint.h>

/* Epoch milliseconds of s, the whole of it:
 *   YYYY-MM-DD                      midnight, UTC
 *   YYYY-MM-DD[T or ' ']HH:MM[:SS[.fraction]]
 * then optionally a zone: Z, +HH:MM, +HHMM or +HH (or '-'); no zone is
 * UTC. The fraction's first three digits are kept. 0, or -1 when s is
 * not such a time (or a field is out of range). */
int amd_parse_iso_time_ms(const char *s, int64_t *out);

#endif
