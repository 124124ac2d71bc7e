/* itwinai_csv.c — itwinai's profiler summary
 * artifacts/torch_profiling_averages/torch_profiling_averages.csv: one row
 * per op and rank (name,node_id,self_cuda_time_total,cuda_time_total,
 * cuda_time_total_str,calls,strategy,num_gpus,global_rank; times in µs;
 * op names are quoted when they hold commas). It lives under an MLflow
 * run's artifacts, so the walker's run hint says which run it belongs to
 * (--run otherwise). */
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "ingest.h"
#include "num.h"

static int detect(const char *path, const unsigned char *head, size_t n)
{
	const char *h = (const char *)head;
	const char *nl = memchr(h, '\n', n);
	size_t len = nl ? (size_t)(nl - h) : n;
	if (len < 5 || strncmp(h, "name,", 5) != 0)
		return 0;
	char line[AMD_HEAD_BYTES + 1];
	memcpy(line, h, len);
	line[len] = '\0';
	return strstr(line, "self_cuda_time_total") && strstr(line, "cuda_time_total") ? 90 : 0;
}

/* Calls are integers, sometimes written "12.0" by pandas. */
static int parse_count(const char *s, int64_t *out)
{
	double d;
	if (amd_parse_int64(s, out) == 0)
		return 0;
	if (amd_parse_double(s, &d) < 0 || d != floor(d) || fabs(d) > 9e15)
		return -1;
	*out = (int64_t)d;
	return 0;
}

struct cols {
	int name, self, total, calls, rank;
};

static int find_cols(const struct amd_csv *c, struct cols *k, struct amd_err *err)
{
	static const char *const need[] = {"name", "self_cuda_time_total", "cuda_time_total",
					   "calls"};
	int *slot[] = {&k->name, &k->self, &k->total, &k->calls};
	for (int i = 0; i < 4; i++)
		if ((*slot[i] = amd_csv_find(c, need[i])) < 0)
			return amd_fail(err, "%s: line 1: no column '%s' in the header", c->path,
					need[i]);
	k->rank = amd_csv_find(c, "global_rank");
	return 0;
}

static int row(const struct amd_csv *c, const struct cols *k, int rank_hint,
	       struct amd_sink *sink, struct amd_err *err)
{
	double self, total;
	int64_t calls, rank = rank_hint;
	const char *f;
	if (amd_parse_double((f = c->field[k->self]), &self) < 0 ||
	    amd_parse_double((f = c->field[k->total]), &total) < 0)
		return amd_fail(err, "%s: line %d: time '%s' is not a number", c->path, c->line, f);
	if (parse_count(c->field[k->calls], &calls) < 0)
		return amd_fail(err, "%s: line %d: column 'calls': '%s' is not an integer", c->path,
				c->line, c->field[k->calls]);
	if (k->rank >= 0 && (amd_parse_int64(c->field[k->rank], &rank) < 0 || rank < -1 ||
			     rank > 1 << 24))
		return amd_fail(err, "%s: line %d: column 'global_rank': '%s' is not a rank",
				c->path, c->line, c->field[k->rank]);
	if (!c->field[k->name][0])
		return amd_fail(err, "%s: line %d: an op without a name", c->path, c->line);
	return sink->op_average ? sink->op_average(sink, c->field[k->name], (int)rank, self,
						   total, calls, err)
				: 0;
}

static int parse(const struct amd_input *in, struct amd_sink *sink, struct amd_err *err)
{
	struct amd_csv c;
	if (amd_csv_open(&c, in->path, 0, err) < 0)
		return -1;
	struct cols k;
	int rc = amd_csv_next(&c, err);
	if (rc == 0)
		rc = amd_fail(err, "%s: line 1: an empty file (no CSV header)", in->path);
	if (rc > 0)
		rc = find_cols(&c, &k, err);
	size_t width = c.n;
	if (rc >= 0 && sink->link)
		rc = sink->link(sink, in->run_ext_hint, in->run_name_hint, in->sweep_hint, err);
	while (rc >= 0 && (rc = amd_csv_next(&c, err)) == 1) {
		if (c.n != width)
			rc = amd_fail(err, "%s: line %d: %zu fields, the header has %zu (truncated file?)",
				      in->path, c.line, c.n, width);
		else
			rc = row(&c, &k, in->rank_hint, sink, err);
	}
	amd_csv_free(&c);
	return rc < 0 ? amd_err_one_line(err) : 0;
}

const struct amd_format amd_fmt_itwinai_csv = {
	.name = "itwinai-op-averages",
	.variants = "itwinai torch_profiling_averages.csv (profiler key_averages per rank)",
	.detect = detect,
	.parse = parse,
};
