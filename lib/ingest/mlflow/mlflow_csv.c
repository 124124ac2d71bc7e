/* mlflow_csv.c — MLflow runs as CSV, in two shapes:
 *  - `mlflow experiments csv` (pandas' search_runs table): one row per
 *    run, columns run_id, experiment_id, status, start_time, end_time
 *    (epoch ms or pandas datetimes "2026-11-22 11:39:49.177000+00:00"),
 *    metrics.<key>, params.<key>, tags.<key>. Metrics hold only their last
 *    value, stored as one point at step 0 timestamped with the run's
 *    end_time; empty cells were not logged (or were NaN: pandas writes
 *    both as empty). The sweep is --sweep, else "default": the export
 *    holds experiment ids, not names.
 *  - itwinai's download-mlflow-data: run_id,metric_name,value,step,timestamp,
 *    one row per metric point (pandas to_csv: NaN is an empty value); its
 *    runs are linked by id (placeholders until their own source is
 *    ingested).
 * Columns are found by name in any order; a missing one is an error on
 * line 1 naming it. */
#include <ctype.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "csv.h"
#include "ingest.h"
#include "isotime.h"
#include "mlflow_tags.h"
#include "run.h"
#include "num.h"

/* First line of head, NUL-terminated in buf. */
static void first_line(const unsigned char *head, size_t n, char *buf, size_t cap)
{
	size_t i = 0;
	while (i < n && i + 1 < cap && head[i] != '\n' && head[i] != '\r')
		buf[i] = (char)head[i], i++;
	buf[i] = '\0';
}

static int is_runs_table(const char *line)
{
	return strstr(line, "metrics.") || strstr(line, "params.") || strstr(line, "tags.") ||
	       strstr(line, "experiment_id");
}

static int detect(const char *path, const unsigned char *head, size_t n)
{
	char line[AMD_HEAD_BYTES + 1];
	first_line(head, n, line, sizeof line);
	if (strncmp(line, "run_id,", 7) != 0 && strstr(line, ",run_id,") == NULL &&
	    strncmp(line, "\"run_id\",", 9) != 0)
		return 0;
	return is_runs_table(line) || strstr(line, "metric_name") ? 85 : 60;
}

static int column(const struct amd_csv *c, const char *name, struct amd_err *err)
{
	int i = amd_csv_find(c, name);
	if (i < 0)
		amd_fail(err, "%s: line 1: no column '%s' in the header", c->path, name);
	return i;
}

/* Epoch ms from "1795347736731" or an ISO 8601 datetime
 * "YYYY-MM-DD HH:MM:SS[.f]" (or T for the blank) with an optional zone:
 * Z, +HH:MM, +HHMM or +HH (isotime.h, the selectors' reader too). */
static int parse_time_ms(const char *s, int64_t *out)
{
	if (!*s) {
		*out = 0;
		return 0;
	}
	if (amd_parse_int64(s, out) == 0)
		return 0;
	return amd_parse_iso_time_ms(s, out);
}

static int check_width(const struct amd_csv *c, size_t want, struct amd_err *err)
{
	if (c->unended) /* pandas ends every row: a cut export, its last value may have lost digits */
		return amd_fail(err, "%s: line %d: the last line has no end (truncated file?)",
				c->path, c->line);
	if (c->n == want)
		return 0;
	return amd_fail(err, "%s: line %d: %zu field%s, the header has %zu (truncated file?)",
			c->path, c->line, c->n, c->n == 1 ? "" : "s", want);
}

/* A table that ends after its header: a file cut short (an export of
 * no run, or of no point, is not one amdahl reads). */
static int no_rows(const struct amd_csv *c, struct amd_err *err)
{
	return amd_fail(err, "%s: line %d: a header and no rows (truncated file?)", c->path,
			c->line + 1);
}

static const char *cell(const struct amd_csv *c, int i)
{
	return i >= 0 ? c->field[i] : "";
}

/* One row of `mlflow experiments csv`: a run with its last values. */
static int runs_row(struct amd_csv *c, const char *const *hdr, size_t nh, const int *col,
		    struct amd_sink *sink, struct amd_err *err)
{
	int64_t start, end;
	if (parse_time_ms(cell(c, col[3]), &start) < 0 || parse_time_ms(cell(c, col[4]), &end) < 0)
		return amd_fail(err, "%s: line %d: start_time/end_time '%s'/'%s' is not a time",
				c->path, c->line, cell(c, col[3]), cell(c, col[4]));
	/* a run fact's tag (mlflow_tags.h): the last column of that name,
	 * when not empty (an empty cell is a tag not logged) */
	const char *facts[AMD_MLFLOW_FACTS] = {0};
	for (size_t i = 0; i < nh; i++)
		for (int f = 0; f < AMD_MLFLOW_FACTS; f++)
			if (strncmp(hdr[i], "tags.", 5) == 0 &&
			    strcmp(hdr[i] + 5, amd_mlflow_tag_key[f]) == 0)
				facts[f] = *c->field[i] ? c->field[i] : NULL;
	if (!*cell(c, col[0]))
		return amd_fail(err, "%s: line %d: an empty run_id", c->path, c->line);
	struct amd_run_rec r = {
		.ext_id = cell(c, col[0]),
		.sweep_ext_id = *cell(c, col[1]) ? cell(c, col[1]) : NULL,
		.status = amd_status_of_text(cell(c, col[2])),
		.start_ms = start,
		.end_ms = end,
	};
	amd_mlflow_run_facts(&r, facts);
	if (sink->run && sink->run(sink, &r, err) < 0)
		return -1;
	for (size_t i = 0; i < nh; i++) {
		const char *v = c->field[i];
		if (!*v)
			continue; /* not logged for this run */
		int ret = 0;
		int tag = strncmp(hdr[i], "tags.", 5) == 0;
		if (tag || strncmp(hdr[i], "params.", 7) == 0) {
			char where[600];
			snprintf(where, sizeof where, "%s: line %d", c->path, c->line);
			ret = amd_sink_key_value(sink, tag, where, hdr[i] + (tag ? 5 : 7), v, strlen(v),
						 err);
		} else if (strncmp(hdr[i], "metrics.", 8) == 0) {
			double x;
			if (amd_parse_double(v, &x) < 0)
				return amd_fail(err, "%s: line %d: column '%s': '%s' is not a number",
						c->path, c->line, hdr[i], v);
			if (sink->metric)
				ret = sink->metric(sink, hdr[i] + 8, 0, end, x, err);
		}
		if (ret < 0)
			return -1;
	}
	return 0;
}

static void free_header(char **h, size_t n)
{
	for (size_t i = 0; h && i < n; i++)
		free(h[i]);
	free(h);
}

/* Copies the header's names (the reader reuses its storage per record);
 * NULL out of memory. */
static char **copy_header(const struct amd_csv *c)
{
	char **h = calloc(c->n + 1, sizeof *h);
	for (size_t i = 0; h && i < c->n; i++)
		if (!(h[i] = strdup(c->field[i]))) {
			free_header(h, i);
			return NULL;
		}
	return h;
}

static int parse_runs_table(struct amd_csv *c, struct amd_sink *sink, struct amd_err *err)
{
	static const char *const need[] = {"run_id", "experiment_id", "status", "start_time",
					   "end_time"};
	int col[5];
	for (int i = 0; i < 5; i++)
		if ((col[i] = column(c, need[i], err)) < 0)
			return -1;
	size_t nh = c->n;
	char **hdr = copy_header(c);
	if (!hdr)
		return amd_fail(err, "%s: out of memory", c->path);
	int rc, ret = 0, rows = 0;
	while (ret == 0 && (rc = amd_csv_next(c, err)) == 1) {
		ret = check_width(c, nh, err);
		if (ret == 0)
			ret = runs_row(c, (const char *const *)hdr, nh, col, sink, err);
		rows++;
	}
	if (ret == 0 && rc == 0 && rows == 0)
		ret = no_rows(c, err);
	free_header(hdr, nh);
	return ret < 0 || rc < 0 ? -1 : 0;
}

static int points_row(struct amd_csv *c, const int *col, char **current,
		      struct amd_sink *sink, struct amd_err *err)
{
	const char *run = c->field[col[0]], *key = c->field[col[1]];
	double v;
	int64_t step, ts;
	if (!*run || !*key)
		return amd_fail(err, "%s: line %d: an empty %s", c->path, c->line,
				*run ? "metric_name" : "run_id");
	if (!c->field[col[2]][0])
		v = NAN; /* pandas writes NaN as an empty cell */
	else if (amd_parse_double(c->field[col[2]], &v) < 0)
		return amd_fail(err, "%s: line %d: column 'value': '%s' is not a number",
				c->path, c->line, c->field[col[2]]);
	if (amd_parse_int64(c->field[col[3]], &step) < 0)
		return amd_fail(err, "%s: line %d: column 'step': '%s' is not an integer",
				c->path, c->line, c->field[col[3]]);
	if (parse_time_ms(c->field[col[4]], &ts) < 0)
		return amd_fail(err, "%s: line %d: column 'timestamp': '%s' is not a time",
				c->path, c->line, c->field[col[4]]);
	if (!*current || strcmp(*current, run) != 0) {
		free(*current);
		if (!(*current = strdup(run)))
			return amd_fail(err, "%s: out of memory", c->path);
		if (sink->link && sink->link(sink, run, NULL, NULL, err) < 0)
			return -1;
	}
	return sink->metric ? sink->metric(sink, key, step, ts, v, err) : 0;
}

static int parse_points(struct amd_csv *c, struct amd_sink *sink, struct amd_err *err)
{
	static const char *const need[] = {"run_id", "metric_name", "value", "step", "timestamp"};
	int col[5];
	for (int i = 0; i < 5; i++)
		if ((col[i] = column(c, need[i], err)) < 0)
			return -1;
	size_t nh = c->n;
	char *current = NULL;
	int rc, ret = 0, rows = 0;
	while (ret == 0 && (rc = amd_csv_next(c, err)) == 1) {
		ret = check_width(c, nh, err);
		if (ret == 0)
			ret = points_row(c, col, &current, sink, err);
		rows++;
	}
	if (ret == 0 && rc == 0 && rows == 0)
		ret = no_rows(c, err);
	free(current);
	return ret < 0 || rc < 0 ? -1 : 0;
}

static int parse(const struct amd_input *in, struct amd_sink *sink, struct amd_err *err)
{
	struct amd_csv c;
	if (amd_csv_open(&c, in->path, 0, err) < 0)
		return -1;
	int rc = amd_csv_next(&c, err);
	if (rc == 0)
		rc = amd_fail(err, "%s: line 1: an empty file (no CSV header)", in->path);
	if (rc > 0) {
		int runs = 0;
		for (size_t i = 0; i < c.n; i++)
			if (is_runs_table(c.field[i]))
				runs = 1;
		rc = runs ? parse_runs_table(&c, sink, err) : parse_points(&c, sink, err);
	}
	amd_csv_free(&c);
	return rc < 0 ? amd_err_one_line(err) : 0;
}

const struct amd_format amd_fmt_mlflow_csv = {
	.name = "mlflow-csv",
	.variants = "MLflow CSV exports: mlflow experiments csv, itwinai download-mlflow-data",
	.detect = detect,
	.parse = parse,
};
