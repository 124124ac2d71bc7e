/* fuzz_split.c — the boundary scan of the parallel trace parse
 * (lib/ingest/trace/trace_split.h) on any bytes, taken as the content of
 * traceEvents. The input is scanned in buffers and cut the way
 * trace_par.c cuts it, into pieces of a few bytes (the first byte picks
 * the buffer and piece sizes: buffers of 1-7 bytes, or of 60-129 so that
 * the scan's 64-byte blocks run). On every input: the scan in blocks
 * agrees with the byte-by-byte reference after every buffer (end, comma
 * and state); the pieces joined by commas are the input up to where the
 * scan says the array ends; yajl accepts every piece in [ ] (none blank
 * when there are several) exactly when it accepts the whole in [ ]; and
 * the scan ends early only at a closing bracket or brace. */
#include "fuzz.h"
#include "trace_split.h"

#include <yajl/yajl_parse.h>

#define MAX_PIECES 4096

static int yajl_accepts(const uint8_t *p, size_t n)
{
	yajl_handle h = yajl_alloc(NULL, NULL, NULL);
	if (!h)
		abort();
	yajl_config(h, yajl_dont_validate_strings, 1); /* as torch_trace.c */
	int ok = yajl_parse(h, (const unsigned char *)"[", 1) == yajl_status_ok &&
		 yajl_parse(h, p, n) == yajl_status_ok &&
		 yajl_parse(h, (const unsigned char *)"]", 1) == yajl_status_ok &&
		 yajl_complete_parse(h) == yajl_status_ok;
	yajl_free(h);
	return ok;
}

/* Scans data in buffers of buf bytes both ways; aborts where they differ. */
static void same_as_bytes(const uint8_t *data, size_t size, size_t buf)
{
	struct amd_json_split a = {0}, b = {0};
	for (size_t at = 0; at < size;) {
		size_t n = size - at < buf ? size - at : buf, ca, cb;
		size_t ea = amd_json_split_scan(&a, data + at, n, &ca);
		size_t eb = amd_json_split_scan_bytes(&b, data + at, n, &cb);
		if (ea != eb || ca != cb || a.depth != b.depth || a.in_str != b.in_str ||
		    a.esc != b.esc)
			abort();
		if (ea < n)
			return;
		at += n;
	}
}

struct piece {
	size_t at, len;
};

/* Scans data in buffers of buf bytes, cutting at the last comma once a
 * piece holds unit bytes; returns the number of pieces, *end where the
 * array ended (or size). */
static size_t cut(const uint8_t *data, size_t size, size_t buf, size_t unit,
		  struct piece *pc, size_t *end)
{
	struct amd_json_split s = {0};
	size_t start = 0, np = 0, at = 0;
	*end = size;
	while (at < size) {
		size_t n = size - at < buf ? size - at : buf, comma;
		size_t stop = amd_json_split_scan(&s, data + at, n, &comma);
		if (comma != AMD_SPLIT_NONE && at + comma - start >= unit && np < MAX_PIECES - 1) {
			pc[np++] = (struct piece){start, at + comma - start};
			start = at + comma + 1;
		}
		if (stop < n) {
			*end = at + stop;
			break;
		}
		at += n;
	}
	pc[np++] = (struct piece){start, *end - start};
	return np;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct piece pc[MAX_PIECES];
	size_t buf = !size ? 1 : data[0] < 128 ? 1 + data[0] % 7 : 60 + data[0] % 70;
	size_t unit = size ? data[0] / 7 % 5 : 0, end;
	same_as_bytes(data, size, buf);
	same_as_bytes(data, size, size ? size : 1);
	size_t np = cut(data, size, buf, unit, pc, &end);
	/* the pieces joined by commas are the input up to the end */
	size_t at = 0;
	for (size_t i = 0; i < np; i++) {
		if (pc[i].at != at || pc[i].at + pc[i].len > end)
			abort();
		at = pc[i].at + pc[i].len;
		if (i + 1 < np && data[at++] != ',')
			abort();
	}
	if (at != end)
		abort();
	/* yajl accepts every piece exactly when it accepts the whole */
	int pieces_ok = 1;
	for (size_t i = 0; i < np && pieces_ok; i++)
		pieces_ok = yajl_accepts(data + pc[i].at, pc[i].len) &&
			    (np == 1 || !amd_json_split_blank(data + pc[i].at, pc[i].len));
	if (pieces_ok != yajl_accepts(data, end))
		abort();
	/* an early end is at a bracket or brace (the one that closes the
	 * array); whether the content past it is garbage is not asked of
	 * yajl, which accepts [{"a":1}]"}] (an unterminated string after a
	 * complete value, at the end of the text) */
	if (end < size && data[end] != ']' && data[end] != '}')
		abort();
	return 0;
}
