/* run.c — run statuses: their names and which count in statistics. */
#include "run.h"

#include <string.h>

#include "num.h"

const char *amd_status_name(int status)
{
	static const char *const names[] = {"UNKNOWN", "RUNNING", "SCHEDULED",
					    "FINISHED", "FAILED", "KILLED", "OTHER"};
	return status >= 0 && status <= AMD_STATUS_OTHER ? names[status] : "UNKNOWN";
}

int amd_status_parse(const char *name)
{
	for (int i = 1; name && i <= AMD_STATUS_OTHER; i++)
		if (strcmp(name, amd_status_name(i)) == 0)
			return i;
	return 0;
}

int amd_status_of_text(const char *text)
{
	if (!text || !*text)
		return AMD_STATUS_UNKNOWN;
	int s = amd_status_parse(text);
	return s ? s : AMD_STATUS_OTHER;
}

int amd_status_of_number(const char *text)
{
	if (!text || !*text)
		return AMD_STATUS_UNKNOWN;
	int64_t v;
	if (amd_parse_int64(text, &v) == 0 && v >= AMD_STATUS_RUNNING && v <= AMD_STATUS_KILLED)
		return (int)v;
	return AMD_STATUS_OTHER;
}

int amd_status_ok(int status)
{
	return status == 3 || status == 0; /* unknown: the source did not say */
}
