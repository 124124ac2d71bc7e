/* test_trace_memory.c — memory per device from [memory] instant events
 * (trace_memory.c, through the aggregator) on small streams whose
 * answers are worked out by hand: totals preferred to Bytes, the 2021
 * running sum, devices apart and sorted, reserved unknown, the timeline
 * bounded with the peak kept, times shifted by the base, other instant
 * events ignored. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "trace_agg.h"
#include "trace_memory.h"

/* One instant event; alloc/res INT64_MIN when absent (2021 format). */
static void mem(struct amd_trace_agg *a, const char *name, int64_t ts, int type, int id,
		int64_t bytes, int64_t alloc, int64_t res)
{
	struct amd_trace_event e = {0};
	e.name = name;
	e.name_len = strlen(name);
	e.ph = 'i';
	e.has_ts = 1;
	e.ts = ts;
	e.mem_device_type = type;
	e.mem_device_id = id;
	e.mem_bytes = bytes;
	e.mem_allocated = alloc;
	e.mem_reserved = res;
	assert_int_equal(amd_trace_agg_event(a, &e), 0);
}

static const struct amd_trace_memdev *finish(struct amd_trace_agg *a, int64_t base,
					     size_t want)
{
	static struct amd_trace_summary s;
	assert_int_equal(amd_trace_agg_finish(a, base, &s), 0);
	assert_int_equal(s.n_memory, want);
	return s.memory;
}

static void totals_and_running_sum(void **state)
{
	(void)state;
	struct amd_trace_agg *a = amd_trace_agg_new();
	/* CUDA 0 with totals: peaks 300 allocated, 512 reserved */
	mem(a, "[memory]", 10, 1, 0, 100, 200, 512);
	mem(a, "[memory]", 20, 1, 0, 100, 300, 512);
	mem(a, "[memory]", 30, 1, 0, -250, 50, 256);
	/* CPU with Bytes only: 4, 4+8=12, 12-8=4 → peak 12, reserved unknown */
	mem(a, "[memory]", 11, 0, -1, 4, INT64_MIN, INT64_MIN);
	mem(a, "[memory]", 12, 0, -1, 8, INT64_MIN, INT64_MIN);
	mem(a, "[memory]", 13, 0, -1, -8, INT64_MIN, INT64_MIN);
	mem(a, "not memory", 14, 0, -1, 1 << 30, INT64_MIN, INT64_MIN);
	const struct amd_trace_memdev *d = finish(a, 1000, 2);
	assert_int_equal(d[0].device_type, 0);      /* sorted: CPU first */
	assert_int_equal(d[0].device_id, -1);
	assert_int_equal(d[0].from_totals, 0);
	assert_int_equal(d[0].peak_allocated, 12);
	assert_int_equal(d[0].peak_reserved, -1);
	assert_int_equal(d[0].events, 3);
	assert_int_equal(d[1].device_type, 1);
	assert_int_equal(d[1].from_totals, 1);
	assert_int_equal(d[1].peak_allocated, 300);
	assert_int_equal(d[1].peak_reserved, 512);
	assert_int_equal(d[1].n_samples, 3);
	assert_int_equal(d[1].samples[2].ts_ns, 1030); /* shifted by the base */
	assert_int_equal(d[1].samples[2].allocated, 50);
	assert_int_equal(d[1].samples[2].reserved, 256);
	amd_trace_agg_free(a);
}

static void bounded_timeline_keeps_the_peak(void **state)
{
	(void)state;
	struct amd_trace_agg *a = amd_trace_agg_new();
	int64_t n = 10 * AMD_MEM_SAMPLES_MAX, peak_at = 7 * AMD_MEM_SAMPLES_MAX + 3;
	for (int64_t i = 0; i < n; i++)
		mem(a, "[memory]", i, 1, 3, 0, i == peak_at ? 1 << 20 : i % 100, INT64_MIN);
	const struct amd_trace_memdev *d = finish(a, 0, 1);
	assert_int_equal(d[0].device_id, 3);
	assert_int_equal(d[0].events, n);
	assert_int_equal(d[0].peak_allocated, 1 << 20);
	assert_true(d[0].n_samples <= AMD_MEM_SAMPLES_MAX);
	assert_true(d[0].n_samples >= AMD_MEM_SAMPLES_MAX / 2);
	int found = 0;
	for (size_t i = 0; i < d[0].n_samples; i++) {
		found |= d[0].samples[i].allocated == 1 << 20 && d[0].samples[i].ts_ns == peak_at;
		if (i)
			assert_true(d[0].samples[i].ts_ns > d[0].samples[i - 1].ts_ns);
	}
	assert_true(found);
	amd_trace_agg_free(a);
}

static void no_memory_events(void **state)
{
	(void)state;
	struct amd_trace_agg *a = amd_trace_agg_new();
	mem(a, "[memory]", 5, 1, 0, 1, 1, 1);
	amd_trace_agg_free(a); /* freed before finishing: no leak */
	a = amd_trace_agg_new();
	const struct amd_trace_memdev *d = finish(a, 0, 0);
	assert_null(d);
	amd_trace_agg_free(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(totals_and_running_sum),
		cmocka_unit_test(bounded_timeline_keeps_the_peak),
		cmocka_unit_test(no_memory_events),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
