/* err.h — error values. lib/ never prints or exits: a failing function
 * fills a struct amd_err with one line (file and place first) and returns
 * -1; cmd/ prints it. */
#ifndef AMD_ERR_H
#define AMD_ERR_H

struct amd_err {
	char msg[1024];
};

/* Sets the message (printf-style) and returns -1, so `return amd_fail(...)`. */
int amd_fail(struct amd_err *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Prefixes the existing message with "PREFIX: ", keeping it one line. */
int amd_fail_prefix(struct amd_err *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
