/* keyavg.c — torch.profiler `key_averages().table()` text (what oumi's
 * profiler saves as prof_*_cpu_time_total.txt, and what people paste
 * from print(prof.key_averages().table(...))): a fixed-width table
 * between lines of dashes, cells parted by two or more blanks and named by
 * the header ("Name", "Self CPU", "CPU total", "Self CUDA", "CUDA total",
 * "CPU Mem", "CUDA Mem", "# of Calls"; others ignored), times in
 * us/ms/s and memory in b/Kb/Mb/Gb (1024) as torch formats them. A table
 * of key_averages(group_by_stack_n=N) ends in "Source Location": a row's
 * further frames follow it on lines of that cell alone, then a blank
 * line; a row of each stack (an operator's name can repeat). Each
 * row is an operator region (CPU self and total, CPU memory) and, when
 * the table has CUDA columns and the row CUDA time, an op_device region
 * (CUDA self and total, CUDA memory). Profiler "torch-averages". A
 * negative size (an operator that freed more than it allocated) is kept
 * as "not measured": a region's bytes are what it allocated. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ingest.h"
#include "buf.h"
#include "file.h"
#include "num.h"

#define KEYAVG_MAX ((size_t)256 << 20)
#define KEYAVG_LINE_MAX ((size_t)1 << 20) /* and the read buffer */
#define MAX_COLS 32

enum col { C_NAME, C_SELF_CPU, C_CPU_TOTAL, C_SELF_CUDA, C_CUDA_TOTAL, C_CPU_MEM, C_CUDA_MEM,
	   C_CALLS, C_COUNT };
static const char *const col_names[C_COUNT] = {
	"Name", "Self CPU", "CPU total", "Self CUDA", "CUDA total", "CPU Mem", "CUDA Mem",
	"# of Calls",
};

struct table {
	size_t n;          /* columns */
	int col[C_COUNT];  /* index of each known column, -1 */
	int stack;         /* the last column is "Source Location" (group_by_stack_n) */
};

/* A rule: dashes in runs separated by two spaces ("----  ----  "). */
static int is_rule(const char *s, size_t n)
{
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\r'))
		n--;
	if (n < 4 || s[0] != '-')
		return 0;
	for (size_t i = 0; i < n; i++)
		if (s[i] != '-' && s[i] != ' ')
			return 0;
	return 1;
}

static size_t line_len(const char *p, const char *end)
{
	const char *nl = memchr(p, '\n', (size_t)(end - p));
	return (size_t)((nl ? nl : end) - p);
}

static int detect(const char *path, const unsigned char *head, size_t n)
{
	const char *p = (const char *)head, *end = p + n;
	for (int i = 0; i < 8 && p < end; i++) {
		const char *line = p;
		size_t len = line_len(p, end);
		p += len + (p + len < end);
		if (!is_rule(line, len) || p >= end)
			continue;
		const char *h = p;
		len = line_len(p, end);
		char hdr[2048];
		snprintf(hdr, sizeof hdr, "%.*s", (int)(len < sizeof hdr ? len : sizeof hdr - 1), h);
		return strstr(hdr, "Name") && strstr(hdr, "# of Calls") &&
		       (strstr(hdr, "Self CPU") || strstr(hdr, "Self CUDA")) ? 90 : 0;
	}
	return 0;
}

/* Splits line (modified in place) into at most max fields separated by
 * two or more blanks, from the right: the last max-1 fields are the
 * numbers, whatever is left (single blanks kept) the first. Returns the
 * count. torch pads every cell to its column and joins them with two
 * blanks; a header longer than its column shifts the ones after it, so
 * columns are found by these gaps, not by position. */
/* Where the field after the last run of two or more blanks in
 * line[0..end) starts (0: no such run): a blank found from the right
 * (memrchr), not every byte looked at (a cell's padding is most of a
 * row). */
static size_t after_gap(const char *line, size_t end)
{
	for (size_t lim = end; lim > 1;) {
		const char *sp = memrchr(line, ' ', lim);
		if (!sp)
			return 0;
		size_t j = (size_t)(sp - line);
		if (j >= 1 && line[j - 1] == ' ')
			return j + 1;
		lim = j; /* line[j - 1] is no blank: a pair ends before it */
	}
	return 0;
}

static size_t split(char *line, size_t len, char **field, size_t max)
{
	while (len && (line[len - 1] == ' ' || line[len - 1] == '\r'))
		len--;
	line[len] = '\0';
	size_t k = 0, end = len;
	while (end > 0 && k + 1 < max) {
		size_t i = after_gap(line, end);
		if (i == 0)
			break;
		field[max - 1 - k++] = line + i;
		size_t gap = i;
		while (gap > 0 && line[gap - 1] == ' ')
			gap--;
		line[gap] = '\0';
		end = gap;
	}
	char *first = line;
	while (*first == ' ')
		first++;
	if (*first || k == 0) /* leading padding alone is no field */
		field[max - 1 - k++] = first;
	memmove(field, field + (max - k), k * sizeof *field);
	return k;
}

static int header(struct table *t, const char *path, char *line, size_t len,
		  struct amd_err *err)
{
	char *h[MAX_COLS];
	t->n = split(line, len, h, MAX_COLS);
	for (int c = 0; c < C_COUNT; c++)
		t->col[c] = -1;
	for (size_t k = 0; k < t->n; k++)
		for (int c = 0; c < C_COUNT; c++)
			if (strcmp(h[k], col_names[c]) == 0)
				t->col[c] = (int)k;
	t->stack = t->n > 1 && strcmp(h[t->n - 1], "Source Location") == 0;
	if (t->col[C_NAME] != 0 || t->col[C_CALLS] < 0 ||
	    (t->col[C_SELF_CPU] < 0 && t->col[C_SELF_CUDA] < 0))
		return amd_fail(err, "%s: a key_averages header without Name first, # of Calls"
				" and Self CPU or Self CUDA", path);
	return 0;
}

/* "12.345ms" → ns, "8.10 Mb" → bytes: the number, then a unit of units. */
static int with_unit(const char *s, const char *const *units, const double *scale,
		     int64_t *out)
{
	size_t n = strlen(s), u = n;
	while (u > 0 && ((s[u - 1] >= 'a' && s[u - 1] <= 'z') || (s[u - 1] >= 'A' && s[u - 1] <= 'Z')))
		u--;
	char num[64];
	if (u == 0 || u >= sizeof num)
		return -1;
	memcpy(num, s, u);
	num[u] = '\0';
	double v;
	if (amd_parse_double(num, &v) < 0 || !amd_num_ok(v))
		return -1;
	for (int i = 0; units[i]; i++)
		if (strcmp(s + u, units[i]) == 0) {
			*out = llround(v * scale[i]);
			return 0;
		}
	return -1;
}

static const char *const time_units[] = {"us", "ms", "s", NULL};
static const double time_scale[] = {1e3, 1e6, 1e9};
static const char *const mem_units[] = {"b", "Kb", "Mb", "Gb", NULL};
static const double mem_scale[] = {1, 1024, 1048576, 1073741824};

struct row_ctx {
	const char *path;
	long line_no;
	const struct table *t;
	char **field;
};

/* Column c of the row: -1 into *out when the table lacks it. */
static int value(const struct row_ctx *r, enum col c, int mem, int64_t *out,
		 struct amd_err *err)
{
	*out = -1;
	if (r->t->col[c] < 0)
		return 0;
	const char *s = r->field[r->t->col[c]];
	int rc = mem ? with_unit(s, mem_units, mem_scale, out)
		     : with_unit(s, time_units, time_scale, out);
	if (rc < 0)
		return amd_fail(err, "%s: line %ld: %s '%s' is not %s", r->path, r->line_no,
				col_names[c], s, mem ? "a size in b, Kb, Mb or Gb"
				: "a time in us, ms or s");
	return 0;
}

/* A row read, its regions waiting for the rest of its batch: the
 * name's offset in the batch's text (the line is read over). */
struct pending {
	size_t name;
	struct amd_region_rec cpu, dev;
	int send_cpu, send_dev;
};

/* Rows read ahead, so that the sink gets their names BATCH_ROWS rows at
 * a time, in the order the regions name them (sink.h, in_order): the
 * store then adds a batch's new names many to a statement, not one
 * INSERT a name (a quarter of a 16 MB table's ingest). */
#define BATCH_ROWS 1024
#define NAMES_A_ROW 6 /* name, kind, profiler: the CPU region's and the device's */
struct batch {
	struct pending v[BATCH_ROWS];
	const char *names[BATCH_ROWS * NAMES_A_ROW];
	size_t n;
	struct amd_buf text;
	const char *fixed[3]; /* the kinds and profiler listed so far (the store */
	size_t n_fixed;       /* keeps a name's first place: repeats need not be listed) */
};

/* Lists s, a kind or the profiler, unless listed before. */
static void list_fixed(struct batch *b, const char *s, size_t *k)
{
	for (size_t i = 0; i < b->n_fixed; i++)
		if (strcmp(b->fixed[i], s) == 0)
			return;
	if (b->n_fixed < sizeof b->fixed / sizeof *b->fixed)
		b->fixed[b->n_fixed++] = s;
	b->names[(*k)++] = s;
}

/* The row's regions into p (not yet sent). */
static int read_row(const struct row_ctx *r, struct pending *p, struct amd_err *err)
{
	const char *name = r->field[0], *calls_s = r->field[r->t->col[C_CALLS]];
	int64_t calls;
	if (!*name)
		return amd_fail(err, "%s: line %ld: a row without a name", r->path, r->line_no);
	if (amd_parse_int64(calls_s, &calls) < 0 || calls < 0)
		return amd_fail(err, "%s: line %ld: # of Calls '%s' is not a count", r->path,
				r->line_no, calls_s);
	p->cpu = (struct amd_region_rec){.kind = AMD_REGION_OP, .profiler = "torch-averages",
					 .rank = -1, .device = -1, .calls = calls,
					 .prim_calls = calls};
	p->dev = p->cpu;
	p->dev.kind = AMD_REGION_OP_DEVICE;
	if (value(r, C_SELF_CPU, 0, &p->cpu.self_ns, err) < 0 ||
	    value(r, C_CPU_TOTAL, 0, &p->cpu.total_ns, err) < 0 ||
	    value(r, C_CPU_MEM, 1, &p->cpu.bytes, err) < 0 ||
	    value(r, C_SELF_CUDA, 0, &p->dev.self_ns, err) < 0 ||
	    value(r, C_CUDA_TOTAL, 0, &p->dev.total_ns, err) < 0 ||
	    value(r, C_CUDA_MEM, 1, &p->dev.bytes, err) < 0)
		return -1;
	p->send_cpu = r->t->col[C_SELF_CPU] >= 0;
	p->send_dev = p->dev.self_ns > 0 || p->dev.total_ns > 0;
	return 0;
}

/* The row read into the batch, its name copied. */
static int batch_row(struct batch *b, const struct row_ctx *r, struct amd_err *err)
{
	struct pending *p = &b->v[b->n];
	if (read_row(r, p, err) < 0)
		return -1;
	p->name = b->text.len;
	if (amd_buf_append(&b->text, r->field[0], strlen(r->field[0]) + 1) < 0)
		return amd_fail(err, "%s: out of memory", r->path);
	b->n++;
	return 0;
}

/* The batch's names (each region's name, kind and profiler, the order
 * the store interns them in; a row's name once, a kind or the profiler
 * the first time only) to the sink, then its regions; the batch left
 * empty. */
static int send_batch(struct batch *b, struct amd_sink *sink, struct amd_err *err)
{
	size_t n = b->n, k = 0;
	b->n = 0;
	b->text.len = 0;
	if (!sink->region)
		return 0;
	for (size_t i = 0; i < n; i++) {
		struct pending *p = &b->v[i];
		p->cpu.name = p->dev.name = b->text.data + p->name;
		if (p->send_cpu || p->send_dev)
			b->names[k++] = p->cpu.name;
		if (p->send_cpu) {
			list_fixed(b, p->cpu.kind, &k);
			list_fixed(b, p->cpu.profiler, &k);
		}
		if (p->send_dev) {
			list_fixed(b, p->dev.kind, &k);
			list_fixed(b, p->dev.profiler, &k);
		}
	}
	if (k && sink->names && sink->names(sink, b->names, k, 1, err) < 0)
		return -1;
	for (size_t i = 0; i < n; i++)
		if ((b->v[i].send_cpu && sink->region(sink, &b->v[i].cpu, err) < 0) ||
		    (b->v[i].send_dev && sink->region(sink, &b->v[i].dev, err) < 0))
			return -1;
	return 0;
}

/* The file's lines, read a block at a time into one buffer (not the
 * whole file into fresh memory), each refused when it holds a NUL byte;
 * no counts them as the table's reader consumes them. */
struct src {
	struct amd_lines *l;
	const char *path;
	long no;
	char empty[1]; /* the line "read" at the end */
};

/* The next line (1), or at the end an empty one (0); -1 on an error. */
static int next(struct src *s, char **line, size_t *len, struct amd_err *err)
{
	int rc = amd_lines_next(s->l, line, len, err);
	if (rc == 1 && memchr(*line, '\0', *len))
		return amd_fail(err, "%s: line %ld: a NUL byte: not a text table", s->path,
				amd_lines_number(s->l));
	if (rc == 0) {
		*line = s->empty;
		s->empty[0] = '\0';
		*len = 0;
	}
	return rc;
}

/* Rule, header, rule; the header's columns into t. */
static int read_head(struct src *s, struct table *t, struct amd_err *err)
{
	char *line;
	size_t len;
	int rc;
	do {
		if ((rc = next(s, &line, &len, err)) <= 0)
			return rc < 0 ? -1 : amd_fail(err, "%s: no key_averages table", s->path);
		s->no++;
	} while (!is_rule(line, len));
	if (next(s, &line, &len, err) < 0 || header(t, s->path, line, len, err) < 0 ||
	    next(s, &line, &len, err) < 0)
		return -1;
	s->no += 2;
	if (!is_rule(line, len))
		return amd_fail(err, "%s: line %ld: no rule under the header", s->path, s->no);
	return 0;
}

/* The table: rule, header, rule, rows up to the closing rule, sent a
 * batch at a time (b: the caller's, empty). */
static int read_table(const struct amd_input *in, struct src *s, struct batch *b,
		      struct amd_sink *sink, struct amd_err *err)
{
	struct table t;
	char *line, *field[MAX_COLS];
	size_t len;
	if (read_head(s, &t, err) < 0 || amd_input_link(in, sink, err) < 0)
		return -1;
	for (;;) {
		int rc = next(s, &line, &len, err);
		if (rc <= 0)
			return rc < 0 ? -1 : amd_fail(err, "%s: line %ld: truncated: no closing rule",
						     in->path, s->no);
		s->no++;
		if (is_rule(line, len))
			return send_batch(b, sink, err);
		size_t cells = split(line, len, field, t.n);
		if (t.stack && cells == 1)
			continue; /* a row's further stack frames, or the blank line after them */
		if (cells != t.n && !(t.stack && cells == t.n - 1)) /* a row with no source */
			return amd_fail(err, "%s: line %ld: fewer cells than the header's %zu columns",
					in->path, s->no, t.n);
		struct row_ctx r = {in->path, s->no, &t, field};
		if (batch_row(b, &r, err) < 0 || (b->n == BATCH_ROWS && send_batch(b, sink, err) < 0))
			return -1;
	}
}

static int parse(const struct amd_input *in, struct amd_sink *sink, struct amd_err *err)
{
	struct src s = {amd_lines_open(in->path, KEYAVG_LINE_MAX, KEYAVG_MAX, err), in->path, 0, ""};
	if (!s.l)
		return -1;
	char *line;
	size_t len;
	struct batch *b = calloc(1, sizeof *b);
	int rc = b ? read_table(in, &s, b, sink, err) : amd_fail(err, "%s: out of memory", in->path);
	if (b)
		amd_buf_free(&b->text);
	free(b);
	while (rc == 0 && (rc = next(&s, &line, &len, err)) == 1) /* a NUL byte after the table */
		rc = 0;
	amd_lines_close(s.l);
	return rc < 0 ? -1 : 0;
}

const struct amd_format amd_fmt_keyavg = {
	.name = "torch-key-averages",
	.variants = "torch key_averages().table() text (oumi prof_*_cpu_time_total.txt), us/ms/s and Kb/Mb/Gb",
	.detect = detect,
	.parse = parse,
};
