/* trace.c — `amdahl trace show RUN`: a run's profiler traces per rank:
 * window, phase split, ProfilerStep durations, top ops by self time and,
 * for traces recorded with profile_memory=True, the peak memory per
 * device. */
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cmd.h"

static void help(void)
{
	printf("usage: amdahl trace show RUN [--rank R] [-n N] [--json]\n"
	       "\n"
	       "Shows the PyTorch profiler traces stored for RUN (a run id, or a run\n"
	       "name: the newest launch of that name that has traces),\n"
	       "one block per rank: the profiler window, the phase split, the\n"
	       "ProfilerStep#N durations and the top N ops by self time (default 10).\n"
	       "\n"
	       "Phases: with GPU activity, wall time on the GPU streams is compute,\n"
	       "communication (nccl kernels), memory (memcpy/memset) or idle, and\n"
	       "overlap is communication running concurrently with compute. On\n"
	       "CPU-only traces compute and communication are thread-time of top-level\n"
	       "aten:: ops and collectives (record_param_comms, gloo:/nccl:), other the\n"
	       "rest of the window. The computation fraction is itwinai's: self device\n"
	       "time (CPU-only: self CPU time) of aten/at/c10/autograd ops over all ops.\n"
	       "Traces recorded with profile_memory=True also show the peak memory per\n"
	       "device: allocated and reserved (Total Allocated/Reserved; 2021-format\n"
	       "traces have allocation sizes only, summed from the trace's start).\n"
	       "\n"
	       "options:\n"
	       "  --rank R   this rank only\n"
	       "  -n N       top N ops (0: all)\n"
	       "  --json     machine-readable output (times in ns)\n");
}

/* A duration in ms as text: 3 decimals, or to the nanosecond below a
 * microsecond (a 0.4 µs window is not "0.000 ms" beside its share). */
static const char *ms_text(char *buf, size_t size, int64_t ns)
{
	snprintf(buf, size, ns > 0 && ns < 1000 ? "%.6f" : "%.3f", (double)ns / 1e6);
	return buf;
}

static void add_int(cJSON *o, const char *k, int64_t v)
{
	char b[32];
	snprintf(b, sizeof b, "%" PRId64, v);
	cJSON_AddRawToObject(o, k, b); /* exact: ns since the epoch exceed 2^53 */
}

/* The trace's rows of the run's memory rows m[0..n). */
static cJSON *memory_json(int64_t trace_id, const struct amd_mem_row *m, size_t n)
{
	cJSON *a = cJSON_CreateArray();
	for (size_t i = 0; i < n; i++) {
		if (m[i].trace_id != trace_id)
			continue;
		cJSON *d = cJSON_CreateObject();
		cJSON_AddStringToObject(d, "device_type", amd_device_type_name(m[i].device_type));
		cJSON_AddNumberToObject(d, "device_id", m[i].device_id);
		add_int(d, "peak_allocated", m[i].peak_allocated);
		if (m[i].peak_reserved >= 0)
			add_int(d, "peak_reserved", m[i].peak_reserved);
		else
			cJSON_AddNullToObject(d, "peak_reserved");
		cJSON_AddBoolToObject(d, "from_totals", m[i].from_totals);
		cJSON_AddItemToArray(a, d);
	}
	return a;
}

static cJSON *trace_json(const struct amd_trace_view *v, const struct amd_trace_step *st,
			 size_t ns, const struct amd_trace_op_view *ops, size_t no)
{
	cJSON *o = cJSON_CreateObject();
	if (v->rank >= 0)
		cJSON_AddNumberToObject(o, "rank", v->rank);
	else
		cJSON_AddNullToObject(o, "rank");
	if (v->world_size > 0)
		cJSON_AddNumberToObject(o, "world_size", v->world_size);
	else
		cJSON_AddNullToObject(o, "world_size");
	if (v->backend)
		cJSON_AddStringToObject(o, "backend", v->backend);
	else
		cJSON_AddNullToObject(o, "backend");
	if (v->device)
		cJSON_AddStringToObject(o, "device", v->device);
	else
		cJSON_AddNullToObject(o, "device");
	cJSON_AddStringToObject(o, "path", v->path ? v->path : "");
	add_int(o, "start_ns", v->start_ns);
	add_int(o, "end_ns", v->end_ns);
	add_int(o, "events", v->events);
	cJSON_AddBoolToObject(o, "has_gpu", v->has_gpu);
	if (isnan(v->comp_fraction))
		cJSON_AddNullToObject(o, "computation_fraction");
	else
		cJSON_AddNumberToObject(o, "computation_fraction", v->comp_fraction);
	cJSON *ph = cJSON_AddObjectToObject(o, "phases_ns");
	for (int p = 0; p < AMD_PHASE_COUNT; p++)
		add_int(ph, amd_phase_names[p], v->phase_ns[p]);
	cJSON *sa = cJSON_AddArrayToObject(o, "steps");
	for (size_t i = 0; i < ns; i++) {
		cJSON *s = cJSON_CreateObject();
		add_int(s, "step", st[i].step);
		add_int(s, "start_ns", st[i].start_ns);
		add_int(s, "dur_ns", st[i].dur_ns);
		cJSON_AddItemToArray(sa, s);
	}
	cJSON *oa = cJSON_AddArrayToObject(o, "top_ops");
	for (size_t i = 0; i < no; i++) {
		cJSON *x = cJSON_CreateObject();
		cJSON_AddStringToObject(x, "name", ops[i].name);
		cJSON_AddStringToObject(x, "cat", ops[i].cat ? ops[i].cat : "");
		add_int(x, "count", ops[i].count);
		add_int(x, "total_ns", ops[i].total_ns);
		add_int(x, "self_ns", ops[i].self_ns);
		add_int(x, "min_ns", ops[i].min_ns);
		add_int(x, "max_ns", ops[i].max_ns);
		cJSON_AddItemToArray(oa, x);
	}
	return o;
}

/* Bytes as B/KiB/MiB/GiB text. */
static const char *bytes_text(char *buf, size_t size, int64_t b)
{
	static const char *const unit[] = {"KiB", "MiB", "GiB"};
	double x = (double)b;
	int u = -1;
	while (u < 2 && x >= 1024) {
		x /= 1024;
		u++;
	}
	if (u < 0)
		snprintf(buf, size, "%" PRId64 " B", b);
	else
		snprintf(buf, size, "%.2f %s", x, unit[u]);
	return buf;
}

/* One line per device of the trace's rows of m[0..n). */
static void print_memory(int64_t trace_id, const struct amd_mem_row *m, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (m[i].trace_id != trace_id)
			continue;
		char a[32], r[48] = "";
		if (m[i].peak_reserved >= 0) {
			char b[32];
			snprintf(r, sizeof r, ", reserved %s", bytes_text(b, sizeof b,
									   m[i].peak_reserved));
		}
		char dev[32];
		snprintf(dev, sizeof dev, m[i].device_id >= 0 ? "%s:%d" : "%s",
			 amd_device_type_name(m[i].device_type), m[i].device_id);
		printf("peak memory %s: allocated %s%s%s\n", dev,
		       bytes_text(a, sizeof a, m[i].peak_allocated), r,
		       m[i].from_totals ? "" : " (sum of allocation sizes from the trace's start)");
	}
}

static int print_phases(const struct amd_trace_view *v)
{
	int64_t win = v->end_ns - v->start_ns;
	static const char *const h[] = {"phase", "ms", "of window"};
	struct amd_table *t = amd_table_new(3, h);
	if (!t)
		return -1;
	amd_table_right(t, 1);
	amd_table_right(t, 2);
	for (int p = 0; p < AMD_PHASE_COUNT; p++) {
		if (v->has_gpu ? p == AMD_PHASE_OTHER : (p == AMD_PHASE_IDLE || p == AMD_PHASE_MEMORY ||
							 p == AMD_PHASE_OVERLAP))
			continue;
		char a[32], b[32];
		ms_text(a, sizeof a, v->phase_ns[p]);
		snprintf(b, sizeof b, "%.1f%%", win > 0 ? 100.0 * (double)v->phase_ns[p] / (double)win : 0);
		const char *row[] = {amd_phase_names[p], a, b};
		amd_table_add(t, row);
	}
	int rc = table_print(t, stdout);
	amd_table_free(t);
	return rc;
}

static int print_ops(const struct amd_trace_op_view *ops, size_t n)
{
	static const char *const h[] = {"op", "cat", "calls", "self ms", "total ms", "max ms"};
	struct amd_table *t = amd_table_new(6, h);
	if (!t)
		return -1;
	for (size_t c = 2; c < 6; c++)
		amd_table_right(t, c);
	for (size_t i = 0; i < n; i++) {
		char name[72], calls[24], self[32], total[32], mx[32];
		snprintf(name, sizeof name, "%.*s%s", 64, ops[i].name, strlen(ops[i].name) > 64 ? "…" : "");
		snprintf(calls, sizeof calls, "%" PRId64, ops[i].count);
		ms_text(self, sizeof self, ops[i].self_ns);
		ms_text(total, sizeof total, ops[i].total_ns);
		ms_text(mx, sizeof mx, ops[i].max_ns);
		const char *row[] = {name, ops[i].cat ? ops[i].cat : "", calls, self, total, mx};
		amd_table_add(t, row);
	}
	int rc = table_print(t, stdout);
	amd_table_free(t);
	return rc;
}

/* The trace's summary and tables; -1 when out of memory. */
static int print_trace(const struct amd_trace_view *v, const struct amd_trace_step *st,
		       size_t ns, const struct amd_trace_op_view *ops, size_t no)
{
	char rank[32] = "rank ?", world[32] = "", win[32], dur[32];
	if (v->rank >= 0)
		snprintf(rank, sizeof rank, "rank %d", v->rank);
	if (v->world_size > 0)
		snprintf(world, sizeof world, " of %d", v->world_size);
	printf("\n%s%s: %s, %s, window %s ms, %" PRId64 " events\n", rank, world,
	       v->backend ? v->backend : "backend ?", v->device ? v->device : "device ?",
	       ms_text(win, sizeof win, v->end_ns - v->start_ns), v->events);
	printf("  %s\n", v->path);
	if (!isnan(v->comp_fraction))
		printf("computation fraction (itwinai's rule, %s): %.1f%%\n",
		       v->has_gpu ? "self device time" : "self CPU time", 100 * v->comp_fraction);
	if (print_phases(v) < 0)
		return -1;
	if (ns) {
		printf("steps:");
		for (size_t i = 0; i < ns; i++)
			printf(" #%" PRId64 " %s ms%s", st[i].step, ms_text(dur, sizeof dur, st[i].dur_ns),
			       i + 1 < ns ? "," : "");
		printf("\n");
	}
	return no ? print_ops(ops, no) : 0;
}

/* "no run named or with id 'x' in S; closest: 'a'": the run names
 * nearest to run. */
static int no_run(struct cmd_ctx *ctx, const char *run)
{
	char near[512];
	amd_run_names_closest(ctx->store, run, 0, near, sizeof near);
	return cmd_error("trace", "no run named or with id '%s' in %s%s", run, ctx->store_path, near);
}

static int show(struct cmd_ctx *ctx, const char *run, int rank, int top, int json)
{
	struct amd_err err = {{0}};
	struct amd_trace_view *v;
	size_t n;
	int64_t run_id;
	char *label;
	if (amd_trace_list(ctx->store, run, rank, &run_id, &label, &v, &n, &err) < 0)
		return cmd_error("trace", "%s", err.msg);
	if (run_id == 0)
		return no_run(ctx, run);
	struct amd_mem_row *mem = NULL;
	size_t nmem = 0;
	if (amd_store_run_memory(ctx->store, run_id, &mem, &nmem, &err) < 0) {
		free(label);
		amd_trace_views_free(v, n);
		return cmd_error("trace", "%s", err.msg);
	}
	cJSON *root = json ? cJSON_CreateObject() : NULL, *arr = NULL;
	if (json) {
		cJSON_AddStringToObject(root, "run", label ? label : run);
		arr = cJSON_AddArrayToObject(root, "traces");
	} else if (n == 0)
		printf("run %s has no profiler traces%s\n", label ? label : run,
		       rank >= 0 ? " of that rank" : "");
	else
		printf("run %s: %zu trace%s\n", label ? label : run, n, n == 1 ? "" : "s");
	int rc = EXIT_OK;
	for (size_t i = 0; i < n && rc == EXIT_OK; i++) {
		struct amd_trace_step *st = NULL;
		struct amd_trace_op_view *ops = NULL;
		size_t ns = 0, no = 0;
		if (amd_trace_steps(ctx->store, v[i].id, &st, &ns, &err) < 0 ||
		    amd_trace_top_ops(ctx->store, v[i].id, top, amd_trace_spanning_cats, &ops,
				      &no, &err) < 0)
			rc = cmd_error("trace", "%s", err.msg);
		else if (json) {
			cJSON *t = trace_json(&v[i], st, ns, ops, no);
			cJSON_AddItemToObject(t, "memory", memory_json(v[i].id, mem, nmem));
			cJSON_AddItemToArray(arr, t);
		} else if (print_trace(&v[i], st, ns, ops, no) < 0)
			rc = cmd_error("trace", "out of memory");
		else
			print_memory(v[i].id, mem, nmem);
		free(st);
		amd_trace_op_views_free(ops, no);
	}
	if (json && rc == EXIT_OK)
		rc = cmd_print_json("trace", root);
	else
		cJSON_Delete(root);
	free(label);
	free(mem);
	amd_trace_views_free(v, n);
	return rc;
}

int cmd_trace(int argc, char **argv, struct cmd_ctx *ctx)
{
	static const struct option opts[] = {
		{"rank", required_argument, NULL, 'r'},
		{"json", no_argument, NULL, 'J'},
		{"help", no_argument, NULL, 'h'},
		{0},
	};
	int rank = -1, top = 10, json = 0, c;
	char *end;
	optind = 0; /* full getopt reset: options may follow RUN */
	while ((c = cmd_getopt(argc, argv, "hn:", opts, NULL)) != -1) {
		switch (c) {
		case 'r':
			rank = (int)strtol(optarg, &end, 10);
			if (*end || rank < 0)
				return cmd_error("trace", "--rank wants a rank number, not '%s'", optarg);
			break;
		case 'n':
			top = (int)strtol(optarg, &end, 10);
			if (*end || top < 0)
				return cmd_error("trace", "-n wants a count, not '%s'", optarg);
			break;
		case 'J': json = 1; break;
		case 'h': help(); return EXIT_OK;
		default: return EXIT_USAGE;
		}
	}
	if (optind >= argc || strcmp(argv[optind], "show") != 0)
		return cmd_error("trace", "usage: amdahl trace show RUN [--rank R] [-n N] [--json]");
	if (optind + 2 != argc)
		return cmd_error("trace", "trace show wants one RUN (a run name or id)");
	const char *run = argv[optind + 1];
	if ((c = cmd_store_open(ctx, "trace", &run, 1)) != 0)
		return c;
	return show(ctx, argv[optind + 1], rank, top == 0 ? -1 : top, json);
}
