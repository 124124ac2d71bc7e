/* test_trace_workers.c — how many threads parse a trace
 * (amd_trace_par_workers, lib/ingest/trace/trace_par.c): one below
 * AMD_TRACE_PAR_MIN_BYTES of JSON, judged from the file's size or a gzip
 * file's trailer (ISIZE) without reading it, the CPUs above; an explicit
 * AMDAHL_TRACE_WORKERS wins either way. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "trace_par.h"

static char dir[] = "/tmp/amdahl-test-workers-XXXXXX";
static char small[64], sparse[64], gz_big[64], gz_small[64];

static int cpus(void)
{
	cpu_set_t set;
	assert_int_equal(sched_getaffinity(0, sizeof set, &set), 0);
	int n = CPU_COUNT(&set);
	return n > 16 ? 16 : n;
}

/* A gzip member's header, some bytes, and a trailer recording isize. */
static void write_gz(const char *path, uint32_t isize)
{
	unsigned char b[40] = {0x1f, 0x8b, 8, 0};
	memcpy(b + 36, (unsigned char[]){isize, isize >> 8, isize >> 16, isize >> 24}, 4);
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(b, 1, sizeof b, f), sizeof b);
	fclose(f);
}

static void sizes(void **state)
{
	(void)state;
	assert_int_equal(amd_trace_json_bytes(small), 18);
	assert_int_equal(amd_trace_json_bytes(sparse), AMD_TRACE_PAR_MIN_BYTES);
	assert_int_equal(amd_trace_json_bytes(gz_big), (uint64_t)100 << 20);
	assert_int_equal(amd_trace_json_bytes(gz_small), 40); /* ISIZE below the file's size */
	assert_int_equal(amd_trace_json_bytes("/nonexistent/trace.json"), 0);
}

static void workers(void **state)
{
	(void)state;
	unsetenv("AMDAHL_TRACE_WORKERS");
	assert_int_equal(amd_trace_par_workers(small), 1);
	assert_int_equal(amd_trace_par_workers(gz_small), 1);
	assert_int_equal(amd_trace_par_workers(sparse), cpus());
	assert_int_equal(amd_trace_par_workers(gz_big), cpus());
	setenv("AMDAHL_TRACE_WORKERS", "3", 1);
	assert_int_equal(amd_trace_par_workers(small), 3);
	setenv("AMDAHL_TRACE_WORKERS", "1", 1);
	assert_int_equal(amd_trace_par_workers(gz_big), 1);
	unsetenv("AMDAHL_TRACE_WORKERS");
}

static int setup(void **state)
{
	(void)state;
	if (!mkdtemp(dir))
		return -1;
	snprintf(small, sizeof small, "%s/small.json", dir);
	snprintf(sparse, sizeof sparse, "%s/sparse.json", dir);
	snprintf(gz_big, sizeof gz_big, "%s/big.json.gz", dir);
	snprintf(gz_small, sizeof gz_small, "%s/small.json.gz", dir);
	FILE *f = fopen(small, "w");
	fputs("{\"traceEvents\":[]}", f);
	fclose(f);
	int fd = open(sparse, O_CREAT | O_WRONLY, 0644);
	if (fd < 0 || ftruncate(fd, (off_t)AMD_TRACE_PAR_MIN_BYTES) != 0)
		return -1;
	close(fd);
	write_gz(gz_big, 100u << 20);
	write_gz(gz_small, 12);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	unlink(small);
	unlink(sparse);
	unlink(gz_big);
	unlink(gz_small);
	return rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sizes),
		cmocka_unit_test(workers),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
