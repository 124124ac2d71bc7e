/* test_gpu.c — GPU statistics (lib/analysis/gpu_energy.h) on the real nvidia-smi log in
 * testdata/gpu-batch-sweep, and on a log with missing power values,
 * checked against tests/fixtures/nvsmi_energy.py (numpy's trapezoid). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis_energy.h"
#include "gpu_energy.h"
#include "ingest.h"
#include "writer.h"
#include "runs.h"

#define REAL_LOG "testdata/gpu-batch-sweep/nvidia-smi.csv"

struct oracle {
	int gpu;
	long samples;
	double energy, power, util;
};

/* Starts the oracle on csv for windows ("T0 T1 T0 T1 ...", or "" for the
 * whole log): one process answers every window, numpy loaded once. */
static FILE *oracle_start(const char *csv, const char *windows)
{
	char *cmd = NULL;
	assert_true(asprintf(&cmd, "/usr/bin/python3 tests/fixtures/nvsmi_energy.py '%s' %s", csv,
			     windows) > 0);
	FILE *p = popen(cmd, "r");
	free(cmd);
	assert_non_null(p);
	return p;
}

/* The oracle's next window: its per-GPU lines up to its "end" line. */
static int oracle_next(FILE *p, struct oracle *o, int max)
{
	char line[512], e[64], pw[64], u[64];
	int n = 0;
	while (fgets(line, sizeof line, p) && strcmp(line, "end\n") != 0) {
		assert_true(n < max);
		assert_int_equal(sscanf(line, "%d %ld %63s %63s %63s", &o[n].gpu, &o[n].samples,
					e, pw, u), 5);
		o[n].energy = strtod(e, NULL);
		o[n].power = strtod(pw, NULL);
		o[n].util = strtod(u, NULL);
		n++;
	}
	return n;
}

static int run_oracle(const char *csv, struct oracle *o, int max)
{
	FILE *p = oracle_start(csv, "");
	int n = oracle_next(p, o, max);
	assert_int_equal(pclose(p), 0);
	return n;
}

static void ingest(const char *store, const char *path, const char *run)
{
	struct amd_ingest_opts o = {.rank = -1, .jobs = 1, .run = run};
	struct amd_unit_list units = {0};
	struct amd_err err = {{0}};
	const char *paths[] = {path};
	assert_int_equal(amd_walk(paths, 1, &o, &units, &err), 0);
	struct amd_ingest_target target = amd_store_target(store);
	assert_int_equal(amd_ingest_units(&target, &units, &o, &err), 0);
	amd_unit_list_free(&units);
}

static void near(double want, double got, double rel)
{
	if (isnan(want)) {
		assert_true(isnan(got));
		return;
	}
	if (fabs(want - got) > rel * fabs(want) + 1e-9) {
		fail_msg("expected %.12g, got %.12g", want, got);
	}
}

static void check(const struct oracle *o, int n, const struct amd_gpu_stats *s, size_t ns)
{
	assert_int_equal(ns, (size_t)n);
	for (int i = 0; i < n; i++) {
		assert_int_equal(s[i].gpu, o[i].gpu);
		assert_int_equal(s[i].samples, o[i].samples);
		near(o[i].energy, s[i].energy_j, 1e-9);
		near(o[i].power, s[i].mean_power_w, 1e-12);
		near(o[i].util, s[i].mean_util_pct, 1e-12);
	}
}

static char *temp_store(void)
{
	char *path = strdup("/tmp/amdahl-test-gpu-XXXXXX");
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	unlink(path);
	return path;
}

static void remove_store(char *path)
{
	char side[512];
	unlink(path);
	snprintf(side, sizeof side, "%s-wal", path);
	unlink(side);
	snprintf(side, sizeof side, "%s-shm", path);
	unlink(side);
	free(path);
}

static void real_log_window(void **state)
{
	(void)state;
	struct oracle o[8];
	int n = run_oracle(REAL_LOG, o, 8);
	assert_true(n >= 1);
	char *path = temp_store();
	ingest(path, REAL_LOG, NULL);
	struct amd_store *st;
	struct amd_err err = {{0}};
	assert_int_equal(amd_store_open(path, AMD_STORE_READ, &st, &err), 0);
	struct amd_gpu_stats *s;
	size_t ns;
	assert_int_equal(amd_gpu_stats_window(st, INT64_MIN, INT64_MAX, &s, &ns, &err), 0);
	check(o, n, s, ns);
	assert_true(s[0].energy_j > 0 && s[0].t1_ms > s[0].t0_ms);
	free(s);
	/* a window before the log holds nothing */
	assert_int_equal(amd_gpu_stats_window(st, 0, 1000, &s, &ns, &err), 0);
	assert_int_equal(ns, 0);
	free(s);
	amd_store_close(st);
	remove_store(path);
}

static void real_log_linked_to_run(void **state)
{
	(void)state;
	struct oracle o[8];
	int n = run_oracle(REAL_LOG, o, 8);
	char *path = temp_store();
	ingest(path, "testdata/gpu-batch-sweep/mlruns", NULL);
	ingest(path, REAL_LOG, "bf16-b8");
	struct amd_store *st;
	struct amd_err err = {{0}};
	assert_int_equal(amd_store_open(path, AMD_STORE_READ, &st, &err), 0);
	struct amd_run_view *runs;
	size_t nr;
	assert_int_equal(amd_runs_list(st, NULL, &runs, &nr, &err), 0);
	int with = 0;
	for (size_t i = 0; i < nr; i++) {
		struct amd_gpu_stats *s;
		size_t ns;
		assert_int_equal(amd_gpu_stats_run(st, runs[i].id, &s, &ns, &err), 0);
		if (ns) {
			with++;
			assert_string_equal(runs[i].name, "bf16-b8");
			check(o, n, s, ns);
		}
		free(s);
	}
	assert_int_equal(with, 1); /* the newest run of that name */
	/* each run's own time window of the (UTC-read) log */
	char *bounds = NULL;
	size_t blen = 0;
	FILE *b = open_memstream(&bounds, &blen);
	assert_non_null(b);
	for (size_t i = 0; i < nr; i++)
		fprintf(b, " %lld %lld", (long long)runs[i].start_ms, (long long)runs[i].end_ms);
	assert_int_equal(fclose(b), 0);
	FILE *p = oracle_start(REAL_LOG, bounds);
	free(bounds);
	int windows = 0;
	for (size_t i = 0; i < nr; i++) {
		struct oracle ow[8];
		int now = oracle_next(p, ow, 8);
		struct amd_gpu_stats *s;
		size_t ns;
		assert_int_equal(amd_gpu_stats_window(st, runs[i].start_ms, runs[i].end_ms, &s, &ns,
						      &err), 0);
		check(ow, now, s, ns);
		windows += ns > 0;
		free(s);
	}
	assert_int_equal(pclose(p), 0);
	assert_int_equal(windows, (int)nr); /* the log covers the whole sweep */
	amd_runs_free(runs, nr);
	amd_store_close(st);
	remove_store(path);
}

static void missing_power_splits_the_integral(void **state)
{
	(void)state;
	char csv[] = "/tmp/amdahl-test-nvsmi-XXXXXX";
	int fd = mkstemp(csv);
	assert_true(fd >= 0);
	const char *log =
		"timestamp, index, utilization.gpu [%], power.draw [W]\n"
		"2026/11/22 11:39:49.000, 0, 10 %, 100.00 W\n"
		"2026/11/22 11:39:49.000, 1, 50 %, [N/A]\n"
		"2026/11/22 11:39:50.000, 0, 20 %, 200.00 W\n"
		"2026/11/22 11:39:50.500, 1, [N/A], 80.00 W\n"
		"2026/11/22 11:39:51.000, 0, [N/A], [N/A]\n"
		"2026/11/22 11:39:51.000, 1, 70 %, 90.00 W\n"
		"2026/11/22 11:39:53.000, 0, 40 %, 50.00 W\n"
		"2026/11/22 11:39:54.000, 0, 40 %, 70.00 W\n";
	assert_int_equal(write(fd, log, strlen(log)), (ssize_t)strlen(log));
	close(fd);
	struct oracle o[4];
	int n = run_oracle(csv, o, 4);
	assert_int_equal(n, 2);
	near(150.0 + 60.0, o[0].energy, 1e-12); /* the oracle itself: 1 s at 150 W + 1 s at 60 W */
	char *path = temp_store();
	ingest(path, csv, NULL);
	struct amd_store *st;
	struct amd_err err = {{0}};
	assert_int_equal(amd_store_open(path, AMD_STORE_READ, &st, &err), 0);
	struct amd_gpu_stats *s;
	size_t ns;
	assert_int_equal(amd_gpu_stats_window(st, INT64_MIN, INT64_MAX, &s, &ns, &err), 0);
	check(o, n, s, ns);
	free(s);
	amd_store_close(st);
	remove_store(path);
	unlink(csv);
}

/* A run's figures, its GPUs together: the samples linked to it, else
 * those of its time window; energy the sum of the GPUs' integrals. */
static void run_figures_linked_else_window(void **state)
{
	(void)state;
	char *path = temp_store();
	ingest(path, "testdata/gpu-batch-sweep/mlruns", NULL);
	ingest(path, REAL_LOG, "bf16-b8");
	struct amd_store *st;
	struct amd_err err = {{0}};
	assert_int_equal(amd_store_open(path, AMD_STORE_READ, &st, &err), 0);
	struct amd_run_view *runs;
	size_t nr;
	assert_int_equal(amd_runs_list(st, NULL, &runs, &nr, &err), 0);
	int linked = 0;
	for (size_t i = 0; i < nr; i++) {
		struct amd_gpu_run_figures f;
		assert_int_equal(amd_gpu_run_figures(st, runs[i].id, runs[i].start_ms,
						     runs[i].end_ms, &f, &err), 0);
		struct amd_gpu_stats *s;
		size_t ns;
		if (f.linked)
			assert_int_equal(amd_gpu_stats_run(st, runs[i].id, &s, &ns, &err), 0);
		else
			assert_int_equal(amd_gpu_stats_window(st, runs[i].start_ms, runs[i].end_ms,
							      &s, &ns, &err), 0);
		linked += f.linked;
		assert_int_equal(f.gpus, ns);
		assert_true(ns > 0);
		double e = 0;
		for (size_t k = 0; k < ns; k++)
			e += s[k].energy_j;
		near(e, f.energy_j, 1e-12);
		assert_true(f.power_w > 0 && f.util_pct >= 0 && f.util_pct <= 100);
		free(s);
	}
	assert_int_equal(linked, 1);
	/* a run with no samples and no window has no figures */
	struct amd_gpu_run_figures none;
	assert_int_equal(amd_gpu_run_figures(st, -1, 0, 0, &none, &err), 0);
	assert_int_equal(none.gpus, 0);
	assert_true(isnan(none.energy_j) && isnan(none.power_w) && isnan(none.util_pct));
	amd_runs_free(runs, nr);
	amd_store_close(st);
	remove_store(path);
}

/* The seam for issue 13: a run's missing energy, power and utilisation
 * come from its nvidia-smi figures; values it logged are kept. */
static void nvsmi_seam_fills_only_missing(void **state)
{
	(void)state;
	char *path = temp_store();
	ingest(path, "testdata/gpu-batch-sweep/mlruns", NULL);
	ingest(path, REAL_LOG, "bf16-b8");
	struct amd_store *st;
	struct amd_err err = {{0}};
	assert_int_equal(amd_store_open(path, AMD_STORE_READ, &st, &err), 0);
	struct amd_run_view *runs;
	size_t nr;
	assert_int_equal(amd_runs_list(st, NULL, &runs, &nr, &err), 0);
	for (size_t i = 0; i < nr; i++) {
		struct amd_gpu_run_figures f;
		assert_int_equal(amd_gpu_run_figures(st, runs[i].id, runs[i].start_ms,
						     runs[i].end_ms, &f, &err), 0);
		struct amd_run_value v = {.energy_run_j = NAN, .power_w = 123, .util_pct = NAN};
		assert_int_equal(analysis_run_energy_nvsmi(st, &runs[i], &v, &err), 1);
		near(f.energy_j, v.energy_run_j, 1e-12);
		near(f.util_pct, v.util_pct, 1e-12);
		assert_true(v.power_w == 123);
		assert_int_equal(analysis_run_energy_nvsmi(st, &runs[i], &v, &err), 0);
	}
	amd_runs_free(runs, nr);
	amd_store_close(st);
	remove_store(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(real_log_window),
		cmocka_unit_test(real_log_linked_to_run),
		cmocka_unit_test(missing_power_splits_the_integral),
		cmocka_unit_test(run_figures_linked_else_window),
		cmocka_unit_test(nvsmi_seam_fills_only_missing),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
