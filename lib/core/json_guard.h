/* json_guard.h — a bound on the length of one JSON token for streaming
 * readers. yajl keeps a string or number that spans input chunks in a
 * buffer that grows without limit, so a trace claiming a 10 GB string
 * would take 10 GB. The guard sees each chunk before yajl does and reports
 * the byte where the distance between two unescaped quotes passes the
 * limit: no real trace has a string, or a stretch without any string,
 * that long. It reads a chunk whole only when the chunk could pass the
 * limit; otherwise only back from its end to its last quote.
 * The limit is 1 MiB: yajl's buffer for a token doubles as it grows, so
 * a token just under the limit costs a few MiB, and an absurd one (a
 * 50 MB op name) is refused at its first MiB instead of being buffered
 * whole. The longest distance between quotes in the public traces
 * (../shared/data/public) is 2.2 KB; the store caps a name at 4 KiB
 * anyway (name_cap.h). */
#ifndef AMD_JSON_GUARD_H
#define AMD_JSON_GUARD_H

#include <stddef.h>
#include <stdint.h>

#define AMD_JSON_TOKEN_MAX (1u << 20)

struct amd_json_guard {
	uint64_t limit;
	uint64_t run;       /* bytes since the last unescaped quote */
	size_t backslashes; /* trailing backslashes of the last chunk */
	int exact;          /* follows strings: see amd_json_guard_init_exact */
	int in_string, escape;
};

void amd_json_guard_init(struct amd_json_guard *g, uint64_t limit);
/* A guard that reads every byte and follows strings, so it bounds each
 * token (string, number, literal) itself: for documents with long
 * stretches of numbers and no string (speedscope's samples arrays),
 * which the quote-distance bound would refuse. A chunk no longer than
 * the limit is read by its quotes (memchr): only the token carried into
 * it can pass the limit, and the state at its end is found from its last
 * string and its last separator; a longer chunk, or one whose carried
 * token passes, byte by byte (about 1 ns a byte). */
void amd_json_guard_init_exact(struct amd_json_guard *g, uint64_t limit);
/* 0 when the chunk is within the limit; -1 with *at = the offset in the
 * chunk where the current token passed it. */
int amd_json_guard_scan(struct amd_json_guard *g, const unsigned char *p, size_t n,
			size_t *at);
/* After a scan of chunk p failed at *at: what passed the limit, for the
 * message "… longer than 1 MiB": "a JSON string", "whitespace" (the
 * chunk's last KiB before at is all blanks, as in a gzip of nothing but
 * spaces) or "a JSON number or a stretch without strings". */
const char *amd_json_guard_what(const struct amd_json_guard *g, const unsigned char *p,
				size_t at);

#endif
