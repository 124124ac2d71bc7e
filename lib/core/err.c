/* err.c — filling struct amd_err; see err.h. */
#include "err.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static void one_line(char *s)
{
	for (; *s; s++)
		if (*s == '\n' || *s == '\r')
			*s = ' ';
}

int amd_fail(struct amd_err *err, const char *fmt, ...)
{
	va_list ap;
	if (!err)
		return -1;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof err->msg, fmt, ap);
	va_end(ap);
	one_line(err->msg);
	return -1;
}

int amd_fail_prefix(struct amd_err *err, const char *fmt, ...)
{
	char prefix[512], old[sizeof err->msg];
	va_list ap;
	if (!err)
		return -1;
	va_start(ap, fmt);
	vsnprintf(prefix, sizeof prefix, fmt, ap);
	va_end(ap);
	memcpy(old, err->msg, sizeof old);
	snprintf(err->msg, sizeof err->msg, "%s: %s", prefix, old);
	one_line(err->msg);
	return -1;
}
