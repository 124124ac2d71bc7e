/* trace_split.h — where a JSON array's content may be cut so that its
 * pieces parse apart (trace_par.h parses traceEvents on every core): the
 * boundary scan, the one piece of JSON reading written by hand. It only
 * follows strings, their escapes and the nesting depth; it never reads a
 * value. A cut is a comma at depth 0 outside strings: the pieces between
 * cuts, each wrapped in [ ], are all valid JSON exactly when the whole
 * content wrapped in [ ] is, provided no piece is blank (yajl's white
 * space only) when there is more than one (tests/fuzz/fuzz_split.c checks
 * this on every input). */
#ifndef AMD_TRACE_SPLIT_H
#define AMD_TRACE_SPLIT_H

#include <stddef.h>

/* The scan's state between buffers; zero it before the array's first
 * byte (the one after its '['). */
struct amd_json_split {
	long long depth;
	unsigned char in_str, esc;
};

#define AMD_SPLIT_NONE ((size_t)-1)

/* Scans p[0..n) on from s. Returns where the array ends (the offset of
 * the bracket that closes it) or n when it goes on; *comma is the offset
 * of the last comma before that at which the content may be cut, or
 * AMD_SPLIT_NONE. */
size_t amd_json_split_scan(struct amd_json_split *s, const unsigned char *p, size_t n,
			   size_t *comma);
/* The same scan a byte at a time: the reference amd_json_split_scan's
 * blocks of 64 bytes are held to (tests/fuzz/fuzz_split.c). */
size_t amd_json_split_scan_bytes(struct amd_json_split *s, const unsigned char *p, size_t n,
				 size_t *comma);

/* 1 when p[0..n) holds only what yajl skips as white space (a piece that
 * must not stand alone). */
int amd_json_split_blank(const unsigned char *p, size_t n);

#endif
