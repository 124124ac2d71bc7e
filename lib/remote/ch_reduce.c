/* ch_reduce.c — reductions computed by the ClickHouse server for a read
 * (ch_reduce.h): the key-set condition of `runs`, the per-run region
 * sums of `regions SWEEP`. */
#include "ch_reduce.h"

#include <stdio.h>
#include <stdlib.h>

#include "buf.h"

int amd_ch_key_sets_cond(const char *in, char **out, struct amd_err *err)
{
	struct amd_buf b = {0};
	*out = NULL;
	if (amd_buf_printf(&b, "(src, run_id, key_id, step) IN (SELECT src, run_id, key_id,"
			   " min(step) FROM metric_point WHERE src IN (%s)"
			   " GROUP BY src, run_id, key_id)", in) < 0) {
		amd_buf_free(&b);
		return amd_fail(err, "out of memory");
	}
	*out = b.data;
	return 0;
}

/* sum(x) of the group, NULL when every x is (a Nullable column's
 * sum would be 0 there) */
#define SUM_OR_NULL(x) "if(count(" x ") = 0, NULL, sum(" x "))"

int amd_ch_region_sums_sql(struct amd_buf *b, const char *in, const char *cond,
			   int64_t kind_chid, int64_t prof_chid)
{
	int bad = amd_buf_printf(b, "SELECT run_id, profiler_id, kind_id, name_id, file_id, line, "
				 SUM_OR_NULL("calls") ", " SUM_OR_NULL("prim_calls") ", "
				 SUM_OR_NULL("self_ns") ", " SUM_OR_NULL("total_ns") ", "
				 SUM_OR_NULL("bytes") " FROM region WHERE src IN (%s)"
				 " AND isNotNull(run_id)", in) < 0;
	if (!bad && cond && *cond)
		bad = amd_buf_printf(b, " AND (%s)", cond) < 0;
	if (!bad && kind_chid)
		bad = amd_buf_printf(b, " AND kind_id = %lld", (long long)kind_chid) < 0;
	if (!bad && prof_chid)
		bad = amd_buf_printf(b, " AND profiler_id = %lld", (long long)prof_chid) < 0;
	return bad || amd_buf_printf(b, " GROUP BY run_id, profiler_id, kind_id, name_id, file_id,"
				     " line FORMAT JSONCompact") < 0 ? -1 : 0;
}

int amd_ch_left_keys_cond(const char *in, const char *kept, const char *left, char **out,
			  struct amd_err *err)
{
	struct amd_buf b = {0};
	*out = NULL;
	if (amd_buf_printf(&b, "(%s OR (%s AND (src, run_id, key_id, step) IN (SELECT src,"
			   " run_id, key_id, min(step) FROM metric_point WHERE src IN (%s) AND %s"
			   " GROUP BY src, run_id, key_id)))", kept, left, in, left) < 0) {
		amd_buf_free(&b);
		return amd_fail(err, "out of memory");
	}
	*out = b.data;
	return 0;
}

/* metric_point's rows of key k of the part (in, scope), NaN for NULL */
static int key_rows(struct amd_buf *b, const char *in, const char *scope, int64_t k,
		    const char *cols)
{
	return amd_buf_printf(b, "(SELECT run_id, step, %s FROM metric_point WHERE src IN (%s)%s%s%s"
			      " AND key_id = %lld)", cols, in, scope && *scope ? " AND (" : "",
			      scope && *scope ? scope : "", scope && *scope ? ")" : "",
			      (long long)k);
}

int amd_ch_run_series_sql(struct amd_buf *b, const char *in, const char *scope,
			  const int64_t keys[3])
{
	int bad = amd_buf_printf(b, "SELECT run_id, key_id, count(), uniqExact(step),"
				 " uniqExact((step, ifNull(ts_ms, 0))) FROM"
				 " metric_point WHERE src IN (%s)%s%s%s AND key_id IN (%lld, %lld,"
				 " %lld) GROUP BY run_id, key_id FORMAT JSONCompact", in,
				 scope && *scope ? " AND (" : "", scope && *scope ? scope : "",
				 scope && *scope ? ")" : "", (long long)keys[0],
				 (long long)keys[1], (long long)keys[2]) < 0;
	return bad ? -1 : 0;
}

/* stats.c amd_median_sorted of the sorted array v of n values, all of
 * one sign (so its midpoint is a + (b - a) / 2) */
#define MEDIAN(v, n) "if(" n " = 0, nan, if(intDiv(" n " - 1, 2) = intDiv(" n ", 2), " \
	v "[intDiv(" n " - 1, 2) + 1], " v "[intDiv(" n " - 1, 2) + 1] + (" v "[intDiv(" n \
	", 2) + 1] - " v "[intDiv(" n " - 1, 2) + 1]) / 2))"
/* a point (step, value, has t, t, has rate, rate) kept by choose_epochs */
#define KEPT "(x.1 != 0 OR %d) AND isFinite(x.2) AND x.2 > 0"
/* run_throughput's valid pair with a logged rate, and its impossible one */
#define VALID_T "x.3 = 1 AND x.5 = 1 AND isFinite(x.4) AND isFinite(x.6 * x.4) AND x.4 > 0" \
	" AND x.6 > 0 AND x.6 * x.4 > 0"
#define PAIR_T "x.3 = 1 AND x.5 = 1 AND NOT isNaN(x.4) AND NOT isNaN(x.6) AND (x.4 <= 0 OR" \
	" x.6 <= 0 OR isInfinite(x.4) OR isInfinite(x.6))"
/* ... and with a rate of 1 (samples from the batch size) */
#define VALID_B "x.3 = 1 AND isFinite(x.4) AND x.4 > 0"
#define PAIR_B "x.3 = 1 AND NOT isNaN(x.4) AND (x.4 <= 0 OR isInfinite(x.4))"
#define STEPS(a) "arrayMap(x -> x.1, " a ")"
#define TEXT(a, i) "arrayMap(x -> toString(x." i "), " a ")"
/* a list of kept points (values finite and > 0: no NaN or -0 for
 * arrayDistinct to merge) as the differences of its steps (the first
 * from 0), each value's number in the list's distinct values, and those
 * distinct values (text): a run of a million epochs logging a few
 * distinct epoch times flags a third of them, each listed in the output */
#define STEP_DIFFS(a) "arrayPopFront(arrayDifference(arrayPushFront(" STEPS(a) ", toInt64(0))))"
#define VALUE_NOS(a, i) "arrayEnumerateDense(arrayMap(x -> x." i ", " a "))"
#define DISTINCT(a, i) "arrayMap(x -> toString(x), arrayDistinct(arrayMap(x -> x." i ", " a ")))"

/* The columns of the metric's rows: the value, the time, and the epoch
 * time or the rate at the point's step when keys[1] or keys[2] is the
 * metric itself (no join with itself). */
static int metric_rows(struct amd_buf *b, const char *in, const char *scope,
		       const int64_t keys[3])
{
	char cols[160];
	snprintf(cols, sizeof cols, "ifNull(value, nan) AS mv, ifNull(ts_ms, 0) AS mts%s%s",
		 keys[1] == keys[0] ? ", 1 AS eh, ifNull(value, nan) AS ev" : "",
		 keys[2] == keys[0] ? ", 1 AS th, ifNull(value, nan) AS tv" : "");
	return key_rows(b, in, scope, keys[0], cols);
}

int amd_ch_run_values_sql(struct amd_buf *b, const char *in, const char *scope,
			  const int64_t keys[3], int keep_first, double far)
{
	int bad = amd_buf_printf(b,
		"SELECT run_id, length(a), " STEPS("lft") ", " TEXT("lft", "2") ", nk,"
		" toString(med), toString(mad), " STEP_DIFFS("fr") ", " VALUE_NOS("fr", "2") ", "
		DISTINCT("fr", "2") ","
		" toString(arraySum(arrayMap(x -> x.6 * x.4, vt))),"
		" toString(arraySum(arrayMap(x -> x.4, vt))), " STEPS("pt") ", " TEXT("pt", "4") ", "
		TEXT("pt", "6") ", toString(arraySum(arrayMap(x -> x.4, vb))), length(vb), "
		STEPS("pb") ", " TEXT("pb", "4") " FROM"
		" (SELECT run_id, a, lft, nk, med, mad, arrayFilter(x -> mad > 0 AND"
		" abs(x.2 - med) > mad * %.17g, kp) AS fr, arrayFilter(x -> " VALID_T ", kp) AS vt,"
		" arrayFilter(x -> " PAIR_T ", kp) AS pt, arrayFilter(x -> " VALID_B ", kp) AS vb,"
		" arrayFilter(x -> " PAIR_B ", kp) AS pb FROM"
		" (SELECT run_id, a, kp, lft, nk, med, " MEDIAN("dv", "nk") " AS mad FROM"
		" (SELECT run_id, a, kp, lft, nk, med, arraySort(arrayMap(x -> abs(x - med), kv))"
		" AS dv FROM (SELECT run_id, a, kp, lft, kv, nk, " MEDIAN("kv", "nk") " AS med FROM"
		" (SELECT run_id, a, kp, lft, kv, toInt64(length(kv)) AS nk FROM"
		" (SELECT run_id, a, kp, lft, arraySort(arrayMap(x -> x.2, kp)) AS kv FROM"
		" (SELECT run_id, a, arrayFilter(x -> " KEPT ", a) AS kp,"
		" arrayFilter(x -> NOT (" KEPT "), a) AS lft FROM"
		" (SELECT run_id, arraySort(x -> (x.1, x.7), groupArray((step, mv, eh, ev, th, tv,"
		" mts))) AS a FROM"
		" (SELECT run_id, step, mv, eh, ev, th, tv, mts FROM (SELECT run_id, step, mv, mts,"
		" eh, ev%s FROM ",
		far, keep_first, keep_first, keys[2] == keys[0] ? ", th, tv" : "") < 0;
	bad = bad || metric_rows(b, in, scope, keys) < 0;
	if (!bad && keys[1] != keys[0])
		bad = amd_buf_printf(b, " ANY LEFT JOIN ") < 0 ||
		      key_rows(b, in, scope, keys[1], "1 AS eh, ifNull(value, nan) AS ev") < 0 ||
		      amd_buf_printf(b, " USING (run_id, step)") < 0;
	bad = bad || amd_buf_printf(b, ")") < 0;
	if (!bad && keys[2] != keys[0])
		bad = amd_buf_printf(b, " ANY LEFT JOIN ") < 0 ||
		      key_rows(b, in, scope, keys[2], "1 AS th, ifNull(value, nan) AS tv") < 0 ||
		      amd_buf_printf(b, " USING (run_id, step)") < 0;
	bad = bad || amd_buf_printf(b, ") GROUP BY run_id))))))))"
				    " FORMAT JSONCompact") < 0;
	return bad ? -1 : 0;
}
