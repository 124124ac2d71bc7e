/* pyspy_svg.c — py-spy's default output, `py-spy record -o profile.svg`:
 * an inferno flame graph SVG. Its frames are <g><title>TEXT (N samples,
 * P%)</title><rect y=… fg:x=… fg:w=…/></g>, positions and widths in
 * samples (fg:x/fg:w; older inferno gives only x/width in percent of the
 * <svg id="frames" total_samples=…>), one row per stack depth (its y), the
 * root "all" frame on the first row (the top when inverted). A frame's
 * parent is the frame on the row before whose span holds it; its self
 * samples are its width minus its children's, and each frame with self
 * samples is one stack (py-spy's -s/-t root frames become the stack's
 * process and thread); the root's own samples (a width larger than its
 * children's: samples py-spy took of no Python frame) are the one frame
 * "<idle>", as the speedscope reader counts them. Samples / the rate are
 * the seconds: --rate, else the `--rate N`/`-r N` of the command line in
 * the title, else py-spy's 100 Hz. The title line names the tool: a flame
 * graph SVG whose title's program is not py-spy (run by any path:
 * "py-spy …", "/…/bin/py-spy …", "py-spy.exe …") is another tool's and is
 * refused. Read with expat. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <expat.h>

#include "ingest.h"
#include "pyspy_stack.h"
#include "buf.h"
#include "csv.h"
#include "file.h"
#include "num.h"

#define SVG_MAX ((size_t)256 << 20)

static int detect(const char *path, const unsigned char *head, size_t n)
{
	(void)path;
	const char *h = (const char *)head;
	if (!memmem(h, n, "<svg", 4))
		return 0;
	return memmem(h, n, "jonhoo/inferno", 14) || memmem(h, n, "FlameGraph", 10) ? 90 : 0;
}

struct svg_frame {
	char *text;         /* the title without " (N samples, P%)", in texts */
	size_t text_at;     /* where in texts, until they are all read */
	double y;
	int64_t x, w;       /* in samples */
	long parent;        /* index, -1 for a root */
	int64_t child_w;
};

struct svg_reader {
	const char *path;
	XML_Parser xp;
	struct svg_frame *v;
	size_t n, cap;
	int64_t total;       /* total_samples, -1 when absent */
	struct amd_buf title; /* the text being collected */
	int in_title, in_group, in_caption, group_has_rect;
	struct amd_buf caption; /* <text id="title"> */
	struct amd_buf texts;   /* the frames' titles, one after another */
	struct svg_frame cur;
	char why[256];
};

static void stop(struct svg_reader *r, const char *fmt, const char *what)
{
	if (!r->why[0])
		snprintf(r->why, sizeof r->why, fmt, what);
	XML_StopParser(r->xp, XML_FALSE);
}

/* The attributes a frame's rect and the frames' svg are read by, found
 * in one pass over an element's attributes (a rect has six). */
struct svg_attrs {
	const char *id, *total, *x, *width, *y, *fg_x, *fg_w;
};

static void read_attrs(const char **a, struct svg_attrs *s)
{
	*s = (struct svg_attrs){0};
	for (; a[0]; a += 2) {
		const char *n = a[0];
		const char **slot = strcmp(n, "id") == 0              ? &s->id
				    : strcmp(n, "total_samples") == 0 ? &s->total
				    : strcmp(n, "x") == 0             ? &s->x
				    : strcmp(n, "width") == 0         ? &s->width
				    : strcmp(n, "y") == 0             ? &s->y
				    : strcmp(n, "fg:x") == 0          ? &s->fg_x
				    : strcmp(n, "fg:w") == 0          ? &s->fg_w
								      : NULL;
		if (slot && !*slot) /* the first one, as a search from the start finds */
			*slot = a[1];
	}
}

/* A number attribute's text ("12", "0.6993%"); NAN when absent or not
 * one. Plain decimals are read exactly without strtod (num.h), the
 * same double. */
static double num_attr(const char *s)
{
	const char *end;
	char *send;
	double v;
	if (!s || !*s)
		return NAN;
	if (!amd_exact_decimal(s, &v, &end)) {
		v = strtod(s, &send);
		end = send;
	}
	if (*end == '%')
		end++;
	return *end || !isfinite(v) ? NAN : v;
}

/* A frame's rect: its row (y) and span (fg:x/fg:w, else x/width in
 * percent of total_samples). */
static void on_rect(struct svg_reader *r, const struct svg_attrs *at)
{
	double fx = num_attr(at->fg_x), fw = num_attr(at->fg_w), y = num_attr(at->y);
	if (isnan(fx) && r->total > 0) { /* percent only */
		double px = num_attr(at->x), pw = num_attr(at->width);
		if (!isnan(px) && !isnan(pw)) {
			fx = round(px / 100 * (double)r->total);
			fw = round(pw / 100 * (double)r->total);
		}
	}
	if (isnan(fx) || isnan(fw) || isnan(y) || fx < 0 || fw < 0 || fx + fw > 1e15)
		return stop(r, "a frame's rect has no usable %s", "y/fg:x/fg:w");
	r->cur = (struct svg_frame){.y = y, .x = (int64_t)fx, .w = (int64_t)fw};
	r->group_has_rect = 1;
}

static void on_start(void *ctx, const char *el, const char **a)
{
	struct svg_reader *r = ctx;
	struct svg_attrs at;
	if (strcmp(el, "g") == 0) {
		r->in_group = 1;
		r->group_has_rect = 0;
		r->title.len = 0; /* the buffer is kept for the next title */
	} else if (strcmp(el, "title") == 0) {
		r->in_title = r->in_group ? 1 : r->in_title;
	} else if (strcmp(el, "rect") == 0) {
		if (r->in_group && !r->group_has_rect)
			read_attrs(a, &at), on_rect(r, &at);
	} else if (strcmp(el, "svg") == 0 || strcmp(el, "text") == 0) {
		read_attrs(a, &at);
		if (el[0] == 's' && at.id && strcmp(at.id, "frames") == 0) {
			double t = num_attr(at.total);
			r->total = t >= 0 && t < 1e15 ? (int64_t)t : -1;
		} else if (el[0] == 't' && at.id && strcmp(at.id, "title") == 0) {
			r->in_caption = 1;
		}
	}
}

static void on_text(void *ctx, const char *s, int len)
{
	struct svg_reader *r = ctx;
	struct amd_buf *b = r->in_title ? &r->title : r->in_caption ? &r->caption : NULL;
	if (b && amd_buf_append(b, s, (size_t)len) < 0)
		stop(r, "%s", "out of memory");
}

/* "name (file:line) (1,234 samples, 5.6%)" → "name (file:line)" in place;
 * -1 when the suffix is missing. */
static int strip_count(char *t)
{
	char *o = strrchr(t, '(');
	if (!o || o == t || o[-1] != ' ' || !strstr(o, " sample") || t[strlen(t) - 1] != ')')
		return -1;
	o[-1] = '\0';
	return 0;
}

static void end_group(struct svg_reader *r)
{
	r->in_group = 0;
	if (!r->group_has_rect)
		return; /* the background or the controls: not a frame */
	if (r->title.len == 0 || amd_buf_append(&r->title, "", 1) < 0)
		return stop(r, "%s", r->title.len ? "out of memory" : "a frame without a title");
	if (strip_count(r->title.data) < 0)
		return stop(r, "a frame title without \"(N samples, P%%)\": %.120s", r->title.data);
	r->cur.text_at = r->texts.len; /* one buffer for all, not a malloc each */
	if (amd_grow(&r->v, r->n, &r->cap, sizeof *r->v, 256) < 0 ||
	    amd_buf_append(&r->texts, r->title.data, strlen(r->title.data) + 1) < 0)
		return stop(r, "%s", "out of memory");
	r->cur.parent = -1;
	r->v[r->n++] = r->cur;
}

/* The frames' texts, read whole: where they stay. */
static void place_texts(struct svg_reader *r)
{
	for (size_t i = 0; i < r->n; i++)
		r->v[i].text = r->texts.data + r->v[i].text_at;
}

static void on_end(void *ctx, const char *el)
{
	struct svg_reader *r = ctx;
	if (strcmp(el, "title") == 0)
		r->in_title = 0;
	else if (strcmp(el, "text") == 0)
		r->in_caption = 0;
	else if (strcmp(el, "g") == 0 && r->in_group)
		end_group(r);
}

/* Rows in order from the root row, by x within a row. */
static int by_row_x(const void *a, const void *b)
{
	const struct svg_frame *p = a, *q = b;
	if (p->y != q->y)
		return p->y < q->y ? -1 : 1;
	return p->x < q->x ? -1 : p->x > q->x;
}

/* The frame of row [from, to) (sorted by x) whose span holds f, or -1. */
static long holder(const struct svg_reader *r, size_t from, size_t to, const struct svg_frame *f)
{
	size_t lo = from, hi = to; /* the last frame with x <= f->x */
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (r->v[mid].x <= f->x)
			lo = mid;
		else
			hi = mid;
	}
	const struct svg_frame *p = &r->v[lo];
	return p->x <= f->x && f->x + f->w <= p->x + p->w ? (long)lo : -1;
}

/* Row by row from the root row (the top one when inverted), each frame's
 * parent is the frame of the row before whose span holds it; -1 with why
 * when one has none. */
static int link_rows(struct svg_reader *r, int inverted)
{
	if (!inverted)
		for (size_t i = 0; i < r->n; i++)
			r->v[i].y = -r->v[i].y; /* the root row is the lowest: order from it */
	qsort(r->v, r->n, sizeof *r->v, by_row_x);
	size_t prev = 0, start = 0;
	while (start < r->n) {
		size_t end = start;
		while (end < r->n && r->v[end].y == r->v[start].y)
			end++;
		for (size_t i = start; start > 0 && i < end; i++) {
			long k = holder(r, prev, start, &r->v[i]);
			if (k < 0) {
				snprintf(r->why, sizeof r->why, "frame '%.120s' lies under no frame"
					 " of the row above", r->v[i].text);
				return -1;
			}
			r->v[i].parent = k;
			r->v[k].child_w += r->v[i].w;
		}
		prev = start;
		start = end;
	}
	return 0;
}

/* A frame's text parsed once: a py-spy -s/-t root frame names the
 * process or thread, any other is "name (file:line)". */
struct frame_info {
	struct amd_stack_frame f;
	char kind; /* 'p' process, 't' thread, 'f' a frame */
};

static int read_frames(struct svg_reader *r, struct frame_info *fi)
{
	for (size_t i = 0; i < r->n; i++) {
		char *t = r->v[i].text;
		const char *why = NULL;
		fi[i].kind = amd_pyspy_process_frame(t) ? 'p' : amd_pyspy_thread_frame(t) ? 't' : 'f';
		if (fi[i].kind != 'f')
			fi[i].f.name = t;
		else if (amd_pyspy_parse_frame(t, &fi[i].f, &why) < 0) {
			snprintf(r->why, sizeof r->why, "frame '%.120s': %s", r->v[i].text, why);
			return -1;
		}
	}
	return 0;
}

static const struct amd_stack_frame idle_frame = {.name = "<idle>"};

/* Frame k's stack: its ancestors up to, not including, the "all" root,
 * the deepest -s/-t root frames its process and thread, into st. */
static int whole_stack(const struct svg_reader *r, const struct frame_info *fi, long root,
		       long k, long *chain, struct amd_pyspy_stack *st)
{
	size_t depth = 0;
	for (; k >= 0 && k != root; k = r->v[k].parent)
		chain[depth++] = k;
	st->depth = 0;
	st->process = st->thread = NULL;
	while (depth--) {
		const struct frame_info *f = &fi[chain[depth]];
		if (f->kind == 'p')
			st->process = f->f.name;
		else if (f->kind == 't')
			st->thread = f->f.name;
		else if (amd_pyspy_push(st, &f->f) < 0)
			return -1;
	}
	return 0;
}

/* A frame's stack as the accumulator holds it: the process and thread
 * of its chain, whether a code frame is in it and, once a stack needed
 * it, its place. Places are made as placing each stack whole made them
 * (its root, then its frames from the top, only when a stack needs
 * them), so the frames' numbers stay those. */
struct svg_place {
	const char *process, *thread;
	int64_t place; /* -1 until known */
	char has_code;
};

/* Every frame's process, thread and has_code, from its parent's (rows
 * are in order from the root row: a parent comes before its children). */
static void chain_states(const struct svg_reader *r, const struct frame_info *fi, long root,
			 struct svg_place *sp)
{
	for (size_t k = 0; k < r->n; k++) {
		long p = r->v[k].parent;
		struct svg_place *c = &sp[k];
		*c = p >= 0 && p != root ? sp[p] : (struct svg_place){0};
		c->place = -1;
		if (fi[k].kind == 'p')
			c->process = fi[k].f.name;
		else if (fi[k].kind == 't')
			c->thread = fi[k].f.name;
		else
			c->has_code = 1;
	}
}

/* Frame k's place, its parent's known when it needs it: a code frame
 * under code is its parent's child; a first code frame, or a -s/-t frame
 * under code (a new root: the whole stack again), is placed whole. */
static int64_t place_frame(const struct svg_reader *r, const struct frame_info *fi, long root,
			   long k, struct svg_place *sp, long *walk, struct amd_pyspy_stack *st,
			   struct amd_pyspy_acc *acc)
{
	long p = r->v[k].parent;
	if (fi[k].kind == 'f' && p >= 0 && p != root && sp[p].has_code)
		return amd_pyspy_acc_child(acc, sp[p].place, &fi[k].f);
	if (whole_stack(r, fi, root, k, walk, st) < 0)
		return -1;
	return amd_pyspy_acc_place(acc, st);
}

/* Frame i's place (it has code), its ancestors' first where it needs
 * them and they are not known yet. */
static int64_t place_chain(const struct svg_reader *r, const struct frame_info *fi, long root,
			   long i, struct svg_place *sp, long *chain, long *walk,
			   struct amd_pyspy_stack *st, struct amd_pyspy_acc *acc)
{
	size_t depth = 0;
	for (long k = i; sp[k].place < 0; k = r->v[k].parent) {
		chain[depth++] = k;
		long p = r->v[k].parent;
		if (fi[k].kind != 'f' || p < 0 || p == root || !sp[p].has_code)
			break; /* placed whole */
	}
	while (depth--) {
		long k = chain[depth];
		if ((sp[k].place = place_frame(r, fi, root, k, sp, walk, st, acc)) < 0)
			return -1;
	}
	return sp[i].place;
}

/* Each frame with self samples (width minus its children's) is a stack:
 * its ancestors up to, not including, the "all" root; the root's own
 * samples are the stack "<idle>". A stack is placed from its parent's
 * place, not frame by frame from the root (the sum of the stacks' depths
 * was a third of a deep flame graph's reading). */
static int add_stacks(struct svg_reader *r, const struct frame_info *fi, long root,
		      struct amd_pyspy_acc *acc, int64_t *sum)
{
	struct amd_pyspy_stack st = {0};
	long *chain = malloc(2 * r->n * sizeof *chain);
	struct svg_place *sp = malloc(r->n * sizeof *sp);
	int rc = chain && sp ? 0 : -1;
	if (rc == 0)
		chain_states(r, fi, root, sp);
	for (size_t i = 0; rc == 0 && i < r->n; i++) {
		int64_t self = r->v[i].w - r->v[i].child_w, place;
		if (self <= 0)
			continue;
		*sum += self;
		if ((long)i == root) { /* the stack "<idle>" alone */
			st.depth = 0;
			st.process = st.thread = NULL;
			place = amd_pyspy_push(&st, &idle_frame) < 0 ? -1 : amd_pyspy_acc_place(acc, &st);
		} else if (!sp[i].has_code) {
			continue; /* only -s/-t root frames: no stack */
		} else {
			place = place_chain(r, fi, root, (long)i, sp, chain, chain + r->n, &st, acc);
		}
		if (place < 0 || amd_pyspy_acc_add_at(acc, place, self, -1) < 0)
			rc = -1;
	}
	free(chain);
	free(sp);
	amd_pyspy_stack_free(&st);
	return rc;
}

/* The root: the one frame of the first row when it is "all", else -1. */
static long root_frame(const struct svg_reader *r)
{
	return r->n > 1 && r->v[1].y != r->v[0].y && strcmp(r->v[0].text, "all") == 0 ? 0 : -1;
}

/* Whether the root row is the top one: the row of the "all" frame (else
 * of the widest frame) is the topmost row. */
static int is_inverted(const struct svg_reader *r)
{
	size_t root = 0;
	double top = r->v[0].y;
	for (size_t i = 1; i < r->n; i++) {
		int all = strcmp(r->v[i].text, "all") == 0, root_all = strcmp(r->v[root].text, "all") == 0;
		if ((all && !root_all) || (all == root_all && r->v[i].w > r->v[root].w))
			root = i;
		if (r->v[i].y < top)
			top = r->v[i].y;
	}
	return r->v[root].y == top;
}

/* Whether the title's first word, the program, is py-spy by any path
 * ("py-spy", "/…/bin/py-spy", "C:\…\py-spy.exe"). */
static int titled_pyspy(const char *cap)
{
	size_t n = strcspn(cap, " \t");
	size_t b = n;
	while (b > 0 && cap[b - 1] != '/' && cap[b - 1] != '\\')
		b--;
	const char *prog = cap + b;
	size_t len = n - b;
	return (len == 6 && strncmp(prog, "py-spy", 6) == 0) ||
	       (len == 10 && strncmp(prog, "py-spy.exe", 10) == 0);
}

/* The next word of *p (spaces skipped) in w[0..*n); 0 at the end. */
static int next_word(const char **p, const char **w, size_t *n)
{
	while (**p == ' ' || **p == '\t')
		++*p;
	*w = *p;
	*n = strcspn(*p, " \t");
	*p += *n;
	return *n > 0;
}

static int word_is(const char *w, size_t n, const char *s)
{
	return n == strlen(s) && strncmp(w, s, n) == 0;
}

/* py-spy record's options that take a value as the next word. */
static int takes_value(const char *w, size_t n)
{
	static const char *const opts[] = {"-p", "--pid", "-o", "--output", "-f", "--format",
					   "-d", "--duration", "-r", "--rate"};
	for (size_t i = 0; i < sizeof opts / sizeof opts[0]; i++)
		if (word_is(w, n, opts[i]))
			return 1;
	return 0;
}

/* A rate's text (up to n bytes): > 0, else 0. */
static double rate_value(const char *v, size_t n)
{
	char buf[32], *end;
	if (n == 0 || n >= sizeof buf)
		return 0;
	memcpy(buf, v, n);
	buf[n] = '\0';
	double r = strtod(buf, &end);
	return *end == '\0' && isfinite(r) && r > 0 && r <= 1e6 ? r : 0;
}

/* The sampling rate of the title's command line (`--rate N`,
 * `--rate=N`, `-r N`, `-rN`): py-spy's options come before "--" or the
 * profiled program (the first word that is no option nor an option's
 * value), whose own arguments are not py-spy's; 0 when none is given. */
static double title_rate(const char *cap)
{
	const char *p = cap, *w;
	size_t n;
	double rate = 0;
	next_word(&p, &w, &n); /* the program, py-spy */
	while (next_word(&p, &w, &n) && !word_is(w, n, "--")) {
		if (w[0] != '-' && !word_is(w, n, "record"))
			break;
		if (takes_value(w, n)) {
			const char *opt = w;
			size_t on = n;
			if (!next_word(&p, &w, &n))
				break;
			if (word_is(opt, on, "-r") || word_is(opt, on, "--rate"))
				rate = rate_value(w, n);
		} else if (n > 7 && strncmp(w, "--rate=", 7) == 0) {
			rate = rate_value(w + 7, n - 7);
		} else if (n > 2 && strncmp(w, "-r", 2) == 0 && isdigit((unsigned char)w[2])) {
			rate = rate_value(w + 2, n - 2);
		}
	}
	return rate;
}

/* The frames read: checks, links and sends them; -1 with why. */
static int frames_to_stacks(struct svg_reader *r, const struct amd_input *in,
			    struct amd_sink *sink, struct amd_err *err)
{
	const char *cap = r->caption.data ? r->caption.data : "";
	if (!titled_pyspy(cap))
		return amd_fail(err, "%s: a flame graph SVG from another tool (titled '%.80s'),"
				" not py-spy's", in->path, cap);
	if (r->n == 0)
		return amd_fail(err, "%s: a flame graph with no frames", in->path);
	place_texts(r);
	if (link_rows(r, is_inverted(r)) < 0)
		return amd_fail(err, "%s: %s", in->path, r->why);
	struct frame_info *fi = calloc(r->n, sizeof *fi);
	struct amd_pyspy_acc *acc = amd_pyspy_acc_new();
	int rc = fi && acc ? read_frames(r, fi) : (snprintf(r->why, sizeof r->why, "out of memory"), -1);
	long root = root_frame(r);
	int64_t sum = 0, all = root >= 0 ? r->v[root].w : -1;
	if (rc == 0 && add_stacks(r, fi, root, acc, &sum) < 0)
		rc = (snprintf(r->why, sizeof r->why, "out of memory"), -1);
	if (rc == 0 && (all >= 0 && sum != all))
		rc = (snprintf(r->why, sizeof r->why, "the frames' self samples add up to %lld, "
			       "the root holds %lld", (long long)sum, (long long)all), -1);
	if (rc == 0 && r->total >= 0 && sum != r->total)
		rc = (snprintf(r->why, sizeof r->why, "the frames' self samples add up to %lld, "
			       "total_samples says %lld", (long long)sum, (long long)r->total), -1);
	if (rc < 0)
		rc = amd_fail(err, "%s: %s", in->path, r->why);
	if (rc == 0)
		rc = amd_input_link(in, sink, err);
	rc = amd_pyspy_acc_finish(acc, rc, "no stack with samples", amd_pyspy_rate(in, title_rate(cap)), sink,
				  in->path, err);
	amd_pyspy_acc_free(acc);
	free(fi);
	return rc;
}

static void reader_free(struct svg_reader *r)
{
	free(r->v);
	amd_buf_free(&r->texts);
	amd_buf_free(&r->title);
	amd_buf_free(&r->caption);
	if (r->xp)
		XML_ParserFree(r->xp);
}

/* The file to expat a slice at a time, as it is read: expat copies what
 * it is given into a buffer of its own, which then stays a slice long
 * (the file read whole and given at once was two copies of it: 32 MB of
 * fresh pages for a 16 MB SVG). What reading refuses (amd_read_file's
 * errors) is said before what expat does, as when the file was read
 * before it was parsed: after an XML error the rest is read, not parsed.
 * 0, 1 on an XML error (expat's state says which), -1 with err. */
#define SVG_SLICE ((size_t)1 << 20)

static int feed(XML_Parser xp, const char *path, struct amd_err *err)
{
	struct amd_stream *in = amd_stream_open(path, SVG_MAX, err);
	char *slice = in ? malloc(SVG_SLICE) : NULL;
	int rc = in && !slice ? amd_fail(err, "%s: out of memory", path) : in ? 0 : -1;
	long n = 1;
	while (rc >= 0 && (n = amd_stream_read(in, slice, SVG_SLICE, err)) > 0)
		if (rc == 0 && XML_Parse(xp, slice, (int)n, XML_FALSE) != XML_STATUS_OK)
			rc = 1;
	if (n < 0)
		rc = -1;
	else if (rc == 0 && XML_Parse(xp, "", 0, XML_TRUE) != XML_STATUS_OK)
		rc = 1;
	free(slice);
	amd_stream_close(in);
	return rc;
}

static int parse(const struct amd_input *in, struct amd_sink *sink, struct amd_err *err)
{
	struct svg_reader r = {.path = in->path, .total = -1};
	int rc = 0;
	if (!(r.xp = XML_ParserCreate("UTF-8"))) {
		rc = amd_fail(err, "%s: out of memory", in->path);
	} else {
		XML_SetUserData(r.xp, &r);
		XML_SetElementHandler(r.xp, on_start, on_end);
		XML_SetCharacterDataHandler(r.xp, on_text);
		int fed = feed(r.xp, in->path, err);
		if (fed < 0) {
			reader_free(&r);
			return -1; /* as amd_read_file's errors were */
		}
		if (fed > 0)
			rc = amd_fail(err, "%s: line %lu: %s", in->path,
				      (unsigned long)XML_GetCurrentLineNumber(r.xp),
				      r.why[0] ? r.why : XML_ErrorString(XML_GetErrorCode(r.xp)));
		else if (r.caption.data && amd_buf_append(&r.caption, "", 1) < 0)
			rc = amd_fail(err, "%s: out of memory", in->path);
	}
	if (rc == 0)
		rc = frames_to_stacks(&r, in, sink, err);
	reader_free(&r);
	return rc < 0 ? amd_err_one_line(err) : 0;
}

const struct amd_format amd_fmt_pyspy_svg = {
	.name = "pyspy-svg",
	.variants = "py-spy record -o profile.svg (the default: an inferno flame graph, py-spy 0.3/0.4)",
	.detect = detect,
	.parse = parse,
};
