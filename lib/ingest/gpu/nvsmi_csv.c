/* nvsmi_csv.c — nvidia-smi's GPU logs, `nvidia-smi --query-gpu=…
 * --format=csv[,nounits] -l N`: a header of query names with units in
 * brackets ("power.draw [W]"), values with units ("75.29 W", "0 %") or
 * without (nounits, the header's unit applies), "[N/A]" for no value.
 * Values are stored in %, W, MiB and °C: kW, mW, GiB, KiB, … are
 * converted, a unit that is not the column's is refused. Columns are
 * found by name, in any order, any subset; index (else the order of first
 * appearance of uuid / pci.bus_id) numbers the GPUs. Variants users have:
 * a header repeated before every sample (a shell loop appending
 * `nvidia-smi --query-gpu=… --format=csv`) is skipped; a log without a
 * timestamp column is read with --interval (sample k at k × interval, a
 * sample ending when a GPU comes again); a last line without its end
 * (a cut log, "…, 3" of "…, 37") is refused, never read; one written with
 * --format=csv,noheader with --query (the --query-gpu list is the
 * header). nvidia-smi prints local time without a zone ("2026/11/22 11:39:49.177"): it is
 * read as UTC, so times compare with each other, and with MLflow's epoch
 * times only when the logging machine ran on UTC. Samples belong to the
 * run given with --run, else to no run. */
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "csv.h"
#include "ingest.h"
#include "num.h"

#define MAX_GPUS 1024

/* Header names without their " [unit]" suffix. */
static int name_is(const char *field, const char *name)
{
	size_t n = strlen(name);
	return strncmp(field, name, n) == 0 && (field[n] == '\0' || field[n] == ' ');
}

/* The last date read and its midnight in seconds: a log's samples come
 * day by day, so timegm runs once a day, not once a row. */
struct day_cache {
	int year, mon, mday;
	int64_t midnight;
};

/* The value of n digits at s, or -1 when one is not a digit. */
static int digits(const char *s, int n)
{
	int v = 0;
	for (int i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v;
}

/* nvidia-smi's own layout, "YYYY/MM/DD HH:MM:SS": the fields into tm and
 * 19 (the bytes read), else 0 (read it with sscanf). */
static int fixed_ts(const char *s, struct tm *tm, char *d1, char *d2)
{
	int f[6], at[6] = {0, 5, 8, 11, 14, 17}, len[6] = {4, 2, 2, 2, 2, 2};
	if (strnlen(s, 19) < 19)
		return 0; /* shorter: the fields below would be read past its end */
	for (int i = 0; i < 6; i++)
		if ((f[i] = digits(s + at[i], len[i])) < 0)
			return 0;
	if (s[10] != ' ' || s[13] != ':' || s[16] != ':')
		return 0;
	*d1 = s[4];
	*d2 = s[7];
	tm->tm_year = f[0];
	tm->tm_mon = f[1];
	tm->tm_mday = f[2];
	tm->tm_hour = f[3];
	tm->tm_min = f[4];
	tm->tm_sec = f[5];
	return 19;
}

/* "2026/11/22 11:39:49.177" (also with '-' between date parts). */
static int parse_ts(const char *s, struct day_cache *day, int64_t *out)
{
	struct tm tm = {0};
	char d1, d2;
	int consumed = fixed_ts(s, &tm, &d1, &d2);
	if (!consumed &&
	    sscanf(s, "%4d%c%2d%c%2d %2d:%2d:%2d%n", &tm.tm_year, &d1, &tm.tm_mon, &d2,
		   &tm.tm_mday, &tm.tm_hour, &tm.tm_min, &tm.tm_sec, &consumed) != 8)
		return -1;
	if (d1 != d2 || (d1 != '/' && d1 != '-'))
		return -1;
	int64_t ms;
	const char *p = amd_parse_frac_ms(s + consumed, &ms);
	while (*p == ' ')
		p++;
	if (*p || tm.tm_mon < 1 || tm.tm_mon > 12 || tm.tm_mday < 1 || tm.tm_mday > 31)
		return -1;
	if (tm.tm_year != day->year || tm.tm_mon != day->mon || tm.tm_mday != day->mday) {
		struct tm d = {.tm_year = tm.tm_year - 1900, .tm_mon = tm.tm_mon - 1,
			       .tm_mday = tm.tm_mday};
		day->midnight = (int64_t)timegm(&d);
		day->year = tm.tm_year;
		day->mon = tm.tm_mon;
		day->mday = tm.tm_mday;
	}
	int64_t sec = day->midnight + tm.tm_hour * 3600 + tm.tm_min * 60 + tm.tm_sec;
	*out = sec * 1000 + ms;
	return 0;
}

/* A first line that is a sample, not a header (--format=csv,noheader):
 * it starts with nvidia-smi's time and holds a value with its unit. */
static int headless_sample(char *line)
{
	char *comma = strchr(line, ',');
	int64_t ms;
	if (!comma)
		return 0;
	*comma = '\0';
	struct day_cache day = {0};
	int ts = parse_ts(line, &day, &ms) == 0;
	*comma = ',';
	return ts && (strstr(comma, " W,") || strstr(comma, " MiB") || strstr(comma, " %"));
}

static int detect(const char *path, const unsigned char *head, size_t n)
{
	const char *h = (const char *)head;
	const char *nl = memchr(h, '\n', n);
	size_t len = nl ? (size_t)(nl - h) : n;
	char line[AMD_HEAD_BYTES + 1];
	memcpy(line, h, len);
	line[len] = '\0';
	static const char *const known[] = {"utilization.gpu", "power.draw", "memory.used",
					    "temperature.gpu", "utilization.memory"};
	for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
		if (strstr(line, known[i]))
			return 85;
	return headless_sample(line) ? 60 : 0;
}

enum { C_TS, C_INDEX, C_ID, C_UTIL, C_MEMUTIL, C_POWER, C_MEMUSED, C_TEMP, C_N };

static void find_cols(char *const *field, size_t n, int *col)
{
	static const char *const names[C_N][3] = {
		{"timestamp"}, {"index"}, {"uuid", "pci.bus_id", "gpu_uuid"},
		{"utilization.gpu"}, {"utilization.memory"},
		{"power.draw", "power.draw.instant", "power.draw.average"},
		{"memory.used"}, {"temperature.gpu"},
	};
	for (int k = 0; k < C_N; k++) {
		col[k] = -1;
		for (int j = 0; j < 3 && names[k][j] && col[k] < 0; j++)
			for (size_t i = 0; i < n && col[k] < 0; i++)
				if (name_is(field[i], names[k][j]))
					col[k] = (int)i;
	}
}

struct gpu_ids {
	char *id[MAX_GPUS];
	int n;
	/* a log without times: sample k is at k × interval_ms; a sample ends
	 * when a GPU it already holds comes again */
	double interval_ms;
	int64_t k;
	unsigned char seen[MAX_GPUS];
	struct day_cache day; /* of the timestamps */
};

static int gpu_number(struct gpu_ids *ids, const char *id)
{
	for (int i = 0; i < ids->n; i++)
		if (strcmp(ids->id[i], id) == 0)
			return i;
	if (ids->n == MAX_GPUS || !(ids->id[ids->n] = strdup(id)))
		return -1;
	return ids->n++;
}

/* A unit and what one of it is in the stored unit (%, W, MiB, °C). */
struct unit_scale {
	const char *unit;
	double factor;
};

static const struct unit_scale pct_units[] = {{"", 1}, {"%", 1}, {NULL, 0}};
static const struct unit_scale power_units[] = {
	{"", 1}, {"W", 1}, {"kW", 1e3}, {"mW", 1e-3}, {NULL, 0}};
static const struct unit_scale mem_units[] = {
	{"", 1}, {"MiB", 1}, {"GiB", 1024}, {"KiB", 1.0 / 1024}, {"TiB", 1024 * 1024},
	{"B", 1.0 / (1024 * 1024)}, {"MB", 1e6 / (1024 * 1024)}, {"GB", 1e9 / (1024 * 1024)},
	{NULL, 0}};
static const struct unit_scale temp_units[] = {{"", 1}, {"C", 1}, {NULL, 0}};

static const struct unit_scale *const col_units[C_N] = {
	[C_UTIL] = pct_units, [C_MEMUTIL] = pct_units, [C_POWER] = power_units,
	[C_MEMUSED] = mem_units, [C_TEMP] = temp_units};

/* The unit a header names in brackets ("power.draw [kW]"), else "". */
static void header_unit(const char *hdr, char *unit, size_t size)
{
	const char *o = strrchr(hdr, '['), *e = o ? strchr(o, ']') : NULL;
	size_t n = e ? (size_t)(e - o - 1) : 0;
	n = n < size ? n : size - 1;
	memcpy(unit, e ? o + 1 : "", n);
	unit[n] = '\0';
}

/* Column k's value in the stored unit: the value's own unit, else the
 * header's; 1 when the unit is not one of the column's. */
static int value(const struct amd_csv *c, const int *col, char *const *hdr, int k,
		 double *out, struct amd_err *err)
{
	*out = NAN;
	if (col[k] < 0)
		return 0;
	char unit[16];
	if (amd_parse_value_unit(c->field[col[k]], out, unit, sizeof unit) < 0)
		return amd_fail(err, "%s: line %d: column '%s': '%s' is not a number", c->path,
				c->line, hdr[col[k]], c->field[col[k]]);
	if (!unit[0] && !isnan(*out))
		header_unit(hdr[col[k]], unit, sizeof unit);
	for (const struct unit_scale *u = col_units[k]; u->unit; u++)
		if (strcmp(u->unit, unit) == 0) {
			*out *= u->factor;
			return 0;
		}
	return amd_fail(err, "%s: line %d: column '%s': unknown unit '%s' in '%s'", c->path,
			c->line, hdr[col[k]], unit, c->field[col[k]]);
}

static int row(const struct amd_csv *c, const int *col, char *const *hdr, struct gpu_ids *ids,
	       struct amd_sink *sink, struct amd_err *err)
{
	struct amd_gpu_sample g = {0};
	if (col[C_TS] >= 0 && parse_ts(c->field[col[C_TS]], &ids->day, &g.ts_ms) < 0)
		return amd_fail(err, "%s: line %d: column 'timestamp': '%s' is not a time",
				c->path, c->line, c->field[col[C_TS]]);
	int64_t idx = 0;
	if (col[C_INDEX] >= 0) {
		if (amd_parse_int64(c->field[col[C_INDEX]], &idx) < 0 || idx < 0 || idx >= MAX_GPUS)
			return amd_fail(err, "%s: line %d: column 'index': '%s' is not a GPU index",
					c->path, c->line, c->field[col[C_INDEX]]);
	} else if (col[C_ID] >= 0 && (idx = gpu_number(ids, c->field[col[C_ID]])) < 0) {
		return amd_fail(err, "%s: line %d: more than %d GPUs", c->path, c->line, MAX_GPUS);
	}
	g.gpu = (int)idx;
	if (col[C_TS] < 0) {
		if (ids->seen[idx]) {
			memset(ids->seen, 0, sizeof ids->seen);
			ids->k++;
		}
		ids->seen[idx] = 1;
		g.ts_ms = llround((double)ids->k * ids->interval_ms);
	}
	double *dst[] = {[C_UTIL] = &g.util_pct, [C_MEMUTIL] = &g.mem_util_pct,
			 [C_POWER] = &g.power_w, [C_MEMUSED] = &g.mem_used_mib,
			 [C_TEMP] = &g.temp_c};
	for (int k = C_UTIL; k < C_N; k++)
		if (value(c, col, hdr, k, dst[k], err) < 0)
			return -1;
	return sink->gpu_sample ? sink->gpu_sample(sink, &g, err) : 0;
}

static int is_header(const struct amd_csv *c, char *const *hdr, size_t width)
{
	if (c->n != width)
		return 0;
	for (size_t i = 0; i < width; i++)
		if (strcmp(c->field[i], hdr[i]) != 0)
			return 0;
	return 1;
}

/* The header: the file's first record, or --query's list (a log written
 * with --format=csv,noheader; its first record is then a sample). */
static int header(struct amd_csv *c, const struct amd_input *in, char ***hdr, size_t *width,
		  struct amd_err *err)
{
	struct amd_csv q;
	if (in->gpu_query) {
		amd_csv_init(&q, "--query", in->gpu_query, strlen(in->gpu_query), 1);
		if (amd_csv_next(&q, err) != 1) {
			amd_csv_free(&q);
			return amd_fail(err, "%s: --query '%s' names no column", c->path, in->gpu_query);
		}
	}
	const struct amd_csv *h = in->gpu_query ? &q : c;
	*width = h->n;
	*hdr = calloc(h->n, sizeof **hdr);
	int rc = *hdr ? 0 : -1;
	for (size_t i = 0; rc == 0 && i < h->n; i++)
		if (!((*hdr)[i] = strdup(h->field[i])))
			rc = -1;
	if (in->gpu_query)
		amd_csv_free(&q);
	return rc < 0 ? amd_fail(err, "%s: out of memory", c->path) : 0;
}

static int body(struct amd_csv *c, const struct amd_input *in, struct amd_sink *sink,
		struct amd_err *err)
{
	char **hdr = NULL;
	size_t width = 0;
	struct gpu_ids ids = {.n = 0, .interval_ms = in->sample_interval * 1000};
	int col[C_N];
	int rc = header(c, in, &hdr, &width, err);
	if (rc == 0)
		find_cols(hdr, width, col);
	int64_t ms;
	if (rc == 0 && !in->gpu_query && width && parse_ts(hdr[0], &(struct day_cache){0}, &ms) == 0)
		rc = amd_fail(err, "%s: line 1: a sample, not a header (a log written with"
			      " --format=csv,noheader): give its --query-gpu list with --query",
			      c->path);
	if (rc == 0 && col[C_TS] < 0 && !(in->sample_interval > 0))
		rc = amd_fail(err, "%s: line 1: no column 'timestamp' in the header (for a log"
			      " without times give --interval SECONDS)", c->path);
	if (rc == 0 && sink->link)
		rc = sink->link(sink, in->run_ext_hint, in->run_name_hint, in->sweep_hint, err);
	int first = in->gpu_query != NULL; /* the record in hand is a sample */
	while (rc >= 0 && (first || (rc = amd_csv_next(c, err)) == 1)) {
		first = 0;
		if (is_header(c, hdr, width))
			continue; /* a shell loop of `nvidia-smi --format=csv` repeats it */
		if (c->unended) /* nvidia-smi ends every line: a cut log, its last value may have lost digits */
			rc = amd_fail(err, "%s: line %d: the last line has no end (truncated file?)",
				      c->path, c->line);
		else if (c->n != width)
			rc = amd_fail(err, "%s: line %d: %zu fields, the header has %zu (truncated file?)",
				      c->path, c->line, c->n, width);
		else
			rc = row(c, col, hdr, &ids, sink, err);
	}
	for (size_t i = 0; hdr && i < width; i++)
		free(hdr[i]);
	free(hdr);
	for (int i = 0; i < ids.n; i++)
		free(ids.id[i]);
	return rc < 0 ? -1 : 0;
}

static int parse(const struct amd_input *in, struct amd_sink *sink, struct amd_err *err)
{
	struct amd_csv c;
	if (amd_csv_open(&c, in->path, 1, err) < 0)
		return -1;
	int rc = amd_csv_next(&c, err);
	if (rc == 0)
		rc = amd_fail(err, "%s: line 1: an empty file (no CSV header)", in->path);
	if (rc > 0)
		rc = body(&c, in, sink, err);
	amd_csv_free(&c);
	return rc < 0 ? amd_err_one_line(err) : 0;
}

const struct amd_format amd_fmt_nvsmi_csv = {
	.name = "nvidia-smi-csv",
	.variants = "nvidia-smi --query-gpu=… --format=csv[,nounits] [-l N]; the header repeated (a shell loop); no timestamp column (--interval); csv,noheader (--query); a UTF-8 BOM; kW/mW, GiB/KiB converted",
	.detect = detect,
	.parse = parse,
};
