/* trace_parse.c — bench harness: parses one trace with the torch-trace
 * reader into a sink that only keeps the summary (no store), and prints
 * "SECONDS EVENTS" so bench/run.sh can compute MB/s and events/s. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "ingest.h"

extern const struct amd_format amd_fmt_torch_trace;

static int64_t events;

static int keep(struct amd_sink *s, const struct amd_trace_summary *t, struct amd_err *err)
{
	(void)s;
	(void)err;
	events = t->events;
	return 0;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: trace_parse FILE\n");
		return 2;
	}
	struct amd_sink sink = {.trace = keep};
	struct amd_input in = {.path = argv[1], .rank_hint = -1};
	struct amd_err err = {{0}};
	struct timespec a, b;
	clock_gettime(CLOCK_MONOTONIC, &a);
	if (amd_fmt_torch_trace.parse(&in, &sink, &err) < 0) {
		fprintf(stderr, "%s\n", err.msg);
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	printf("%.3f %lld\n", (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9,
	       (long long)events);
	return 0;
}
