/* itwinai_csv.c — itwinai's profiler summary
 * artifacts/torch_profiling_averages/torch_profiling_averages.csv: one row
 * per op and rank (name,node_id,self_cuda_time_total,cuda_time_total,
 * cuda_time_total_str,calls,strategy,num_gpus,global_rank; times in µs;
 * op names are quoted when they hold commas). It lives under an MLflow
 * run's artifacts, so the walker's run hint says which run it belongs to
 * (--run otherwise). The rows are read whole before any is reported, so
 * that the store gets the op names at once (sink names). Each row is
 * reported as an operator average and as a region of its device time
 * (kind op_device, profiler torch-averages, ns). The reader says what
 * each op is (op_role): PyTorch's compute ops, the profiler's step
 * ranges that enclose them, the rest. */
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "csv.h"
#include "ingest.h"
#include "num.h"
#include "trace_strtab.h"

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

/* One op's row, kept until the file is read: its name is an id in the
 * reader's string table. */
struct op_row {
	uint32_t name;
	int rank;
	double self, total;
	int64_t calls;
};

struct rows {
	struct amd_strtab names;
	struct op_row *v;
	size_t n, cap;
};

static int row(const struct amd_csv *c, const struct cols *k, int rank_hint, struct rows *rs,
	       struct amd_err *err)
{
	struct op_row r = {.rank = rank_hint};
	int64_t rank = rank_hint;
	const char *f;
	if (amd_parse_double((f = c->field[k->self]), &r.self) < 0 ||
	    amd_parse_double((f = c->field[k->total]), &r.total) < 0)
		return amd_fail(err, "%s: line %d: time '%s' is not a number", c->path, c->line, f);
	if (parse_count(c->field[k->calls], &r.calls) < 0)
		return amd_fail(err, "%s: line %d: column 'calls': '%s' is not an integer", c->path,
				c->line, c->field[k->calls]);
	if (k->rank >= 0 && (amd_parse_int64(c->field[k->rank], &rank) < 0 || rank < -1 ||
			     rank > 1 << 24))
		return amd_fail(err, "%s: line %d: column 'global_rank': '%s' is not a rank",
				c->path, c->line, c->field[k->rank]);
	const char *name = c->field[k->name];
	if (!name[0])
		return amd_fail(err, "%s: line %d: an op without a name", c->path, c->line);
	r.rank = (int)rank;
	if (!(r.name = amd_strtab_intern(&rs->names, name, strlen(name))) ||
	    amd_grow(&rs->v, rs->n, &rs->cap, sizeof *rs->v, 1024) < 0)
		return amd_fail(err, "%s: line %d: out of memory", c->path, c->line);
	rs->v[rs->n++] = r;
	return 0;
}

/* µs in ns as SQLite's CAST(round(us * 1000) AS INTEGER) makes them
 * (half away from zero, clamped to int64); -1 for NaN or a negative. */
static int64_t us_to_ns(double us)
{
	double ns = us * 1000;
	if (isnan(ns) || ns < 0)
		return -1;
	if (ns >= 4503599627370496.0) /* 2^52: already a whole number */
		return ns >= 9223372036854775807.0 ? INT64_MAX : (int64_t)ns;
	return (int64_t)(ns + 0.5);
}

/* A row as a region: the op's device time (its kernels), per rank. */
/* What PyTorch op name is (enum amd_op_role): a profiler step
 * (ProfilerStep#N) encloses the ops of its step; the compute ops are
 * ATen's, c10's and autograd's, and names holding " at::" (a space or
 * another ASCII white space before it: a C++ signature). */
static int op_role(const char *name)
{
	if (strncmp(name, "ProfilerStep", 12) == 0)
		return AMD_OP_ENCLOSING;
	if (strstr(name, "aten::") || strstr(name, "c10::") || strstr(name, "autograd::"))
		return AMD_OP_COMPUTE;
	for (const char *at = strstr(name, "at::"); at; at = strstr(at + 1, "at::"))
		if (at > name && strchr(" \t\n\v\f\r", at[-1]))
			return AMD_OP_COMPUTE;
	return AMD_OP_OTHER;
}

static int op_region(struct amd_sink *sink, const char *name, const struct op_row *r,
		     struct amd_err *err)
{
	struct amd_region_rec rec = {
		.name = name, .kind = AMD_REGION_OP_DEVICE, .profiler = "torch-averages",
		.rank = r->rank, .device = -1, .calls = r->calls, .prim_calls = r->calls,
		.self_ns = us_to_ns(r->self), .total_ns = us_to_ns(r->total), .bytes = -1,
	};
	return sink->region(sink, &rec, err);
}

/* Every row read first, so that the sink gets the op names at once (it
 * stores them sorted), then the rows in file order: each an operator
 * average and a region. */
static int emit(const struct rows *rs, struct amd_sink *sink, struct amd_err *err)
{
	if (!sink->op_average && !sink->region)
		return 0;
	if (sink->names && rs->names.n > 1 &&
	    sink->names(sink, (const char *const *)rs->names.s + 1, rs->names.n - 1, 0, err) < 0)
		return -1;
	for (size_t i = 0; i < rs->n; i++) {
		const struct op_row *r = &rs->v[i];
		const char *name = rs->names.s[r->name];
		if ((sink->op_average && sink->op_average(sink, name, op_role(name), r->rank,
							  r->self, r->total, r->calls, err) < 0) ||
		    (sink->region && op_region(sink, name, r, err) < 0))
			return -1;
	}
	return 0;
}

static int parse(const struct amd_input *in, struct amd_sink *sink, struct amd_err *err)
{
	struct amd_csv c;
	if (amd_csv_open(&c, in->path, 0, err) < 0)
		return -1;
	struct cols k;
	struct rows rs = {0};
	int rc = amd_csv_next(&c, err);
	if (rc == 0)
		rc = amd_fail(err, "%s: line 1: an empty file (no CSV header)", in->path);
	if (rc > 0)
		rc = find_cols(&c, &k, err);
	size_t width = c.n;
	if (rc >= 0 && sink->link)
		rc = sink->link(sink, in->run_ext_hint, in->run_name_hint, in->sweep_hint, err);
	while (rc >= 0 && (rc = amd_csv_next(&c, err)) == 1) {
		if (c.unended) /* pandas ends every row: a cut file */
			rc = amd_fail(err, "%s: line %d: the last line has no end (truncated file?)",
				      in->path, c.line);
		else if (c.n != width)
			rc = amd_fail(err, "%s: line %d: %zu fields, the header has %zu (truncated file?)",
				      in->path, c.line, c.n, width);
		else
			rc = row(&c, &k, in->rank_hint, &rs, err);
	}
	if (rc >= 0)
		rc = emit(&rs, sink, err);
	amd_csv_free(&c);
	amd_strtab_free(&rs.names);
	free(rs.v);
	return rc < 0 ? amd_err_one_line(err) : 0;
}

const struct amd_format amd_fmt_itwinai_csv = {
	.name = "itwinai-op-averages",
	.variants = "itwinai torch_profiling_averages.csv (profiler key_averages per rank)",
	.detect = detect,
	.parse = parse,
};
