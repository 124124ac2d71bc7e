/* run.c — run statuses: their names and which count in statistics. */
#include "run.h"

#include <string.h>

const char *amd_status_name(int status)
{
	static const char *const names[] = {"UNKNOWN", "RUNNING", "SCHEDULED",
					    "FINISHED", "FAILED", "KILLED"};
	return status >= 0 && status <= 5 ? names[status] : "UNKNOWN";
}

int amd_status_parse(const char *name)
{
	for (int i = 1; name && i <= 5; i++)
		if (strcmp(name, amd_status_name(i)) == 0)
			return i;
	return 0;
}

int amd_status_ok(int status)
{
	return status == 3 || status == 0; /* unknown: the source did not say */
}
