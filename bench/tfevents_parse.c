/* tfevents_parse.c — bench harness: reads one TensorBoard event file with
 * the tensorboard reader (framing, CRCs, protobuf-c) into a sink that
 * only counts scalars (no store), and prints the count. */
#include <stdio.h>

#include "ingest.h"

extern const struct amd_format amd_fmt_tensorboard;

static long long scalars;

static int count(struct amd_sink *s, const char *key, int64_t step, int64_t ts_ms,
		 double value, struct amd_err *err)
{
	scalars++;
	return 0;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: tfevents_parse FILE\n");
		return 2;
	}
	struct amd_sink sink = {.metric = count};
	struct amd_input in = {.path = argv[1], .rank_hint = -1};
	struct amd_err err = {{0}};
	if (amd_fmt_tensorboard.parse(&in, &sink, &err) < 0) {
		fprintf(stderr, "%s\n", err.msg);
		return 2;
	}
	printf("%lld\n", scalars);
	return 0;
}
