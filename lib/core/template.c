/* template.c — the template engine of template.h: a value tree (names
 * to strings or lists of child trees) and a recursive renderer over the
 * template text. A tree remembers a set or add that failed for want of
 * memory, and rendering it fails then. */
#include "template.h"
#include "outfile.h"
#include "text_safe.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct entry {
	char *name;
	char *value;       /* a value, or */
	struct tpl **items; /* a list */
	size_t nitems, cap_items;
	int is_list;
};

struct tpl {
	struct entry *e;
	size_t n, cap;
	const struct tpl *parent; /* set while rendering */
	int failed;               /* a set or add ran out of memory */
};

struct tpl *tpl_new(void)
{
	return calloc(1, sizeof(struct tpl));
}

void tpl_free(struct tpl *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->n; i++) {
		free(t->e[i].name);
		free(t->e[i].value);
		for (size_t k = 0; k < t->e[i].nitems; k++)
			tpl_free(t->e[i].items[k]);
		free(t->e[i].items);
	}
	free(t->e);
	free(t);
}

/* The entry called name, added when new; NULL (t marked failed) when
 * out of memory. */
static struct entry *entry(struct tpl *t, const char *name)
{
	for (size_t i = 0; i < t->n; i++)
		if (strcmp(t->e[i].name, name) == 0)
			return &t->e[i];
	char *copy = strdup(name);
	if (!copy || amd_grow(&t->e, t->n, &t->cap, sizeof *t->e, 8) < 0) {
		free(copy);
		t->failed = 1;
		return NULL;
	}
	struct entry *e = &t->e[t->n++];
	memset(e, 0, sizeof *e);
	e->name = copy;
	return e;
}

void tpl_set(struct tpl *t, const char *name, const char *fmt, ...)
{
	struct entry *e = t ? entry(t, name) : NULL;
	if (!e)
		return;
	va_list ap;
	va_start(ap, fmt);
	char *v = NULL;
	if (vasprintf(&v, fmt, ap) < 0) {
		v = NULL;
		t->failed = 1;
	}
	va_end(ap);
	free(e->value);
	e->value = v;
}

struct tpl *tpl_add(struct tpl *t, const char *name)
{
	struct entry *e = t ? entry(t, name) : NULL;
	if (!e)
		return NULL;
	int room = amd_grow(&e->items, e->nitems, &e->cap_items, sizeof *e->items, 4) == 0;
	struct tpl *item = room ? tpl_new() : NULL;
	if (!item) {
		t->failed = 1;
		return NULL;
	}
	e->is_list = 1;
	return e->items[e->nitems++] = item;
}

/* Whether t or a tree under it lost a value for want of memory. */
static int tpl_failed(const struct tpl *t)
{
	if (!t || t->failed)
		return 1;
	for (size_t i = 0; i < t->n; i++)
		for (size_t k = 0; k < t->e[i].nitems; k++)
			if (tpl_failed(t->e[i].items[k]))
				return 1;
	return 0;
}

static const struct entry *lookup(const struct tpl *t, const char *name, size_t len)
{
	for (; t; t = t->parent)
		for (size_t i = 0; i < t->n; i++)
			if (strlen(t->e[i].name) == len && memcmp(t->e[i].name, name, len) == 0)
				return &t->e[i];
	return NULL;
}

static int put_escaped(struct amd_buf *out, const char *s, enum tpl_escape esc)
{
	if (esc == TPL_RAW)
		return amd_buf_append(out, s, strlen(s));
	if (esc == TPL_MD)
		return amd_md_escape(out, s);
	if (esc == TPL_LINE)
		return amd_visible_line(out, s);
	char *valid = amd_utf8_valid_dup(s);
	if (!valid)
		return -1;
	int rc = 0;
	for (s = valid; *s && rc == 0; s++) {
		switch (*s) {
		case '&': rc = amd_buf_append(out, "&amp;", 5); break;
		case '<': rc = amd_buf_append(out, "&lt;", 4); break;
		case '>': rc = amd_buf_append(out, "&gt;", 4); break;
		case '"': rc = amd_buf_append(out, "&quot;", 6); break;
		default: rc = amd_buf_append(out, s, 1);
		}
	}
	free(valid);
	return rc;
}

static int line_of(const char *start, const char *at)
{
	int line = 1;
	for (; start < at; start++)
		line += *start == '\n';
	return line;
}

struct ctx {
	const char *text, *path;
	enum tpl_escape esc;
	struct amd_err *err;
};

/* Finds the {{/name}} closing the section opened before p (nesting aware). */
static const char *section_end(const char *p, const char *name, size_t len, const char **after)
{
	int depth = 1;
	while ((p = strstr(p, "{{")) != NULL) {
		char k = p[2];
		const char *nm = p + 3, *close = strstr(p, "}}");
		if (!close)
			return NULL;
		if ((k == '#' || k == '^' || k == '/') && (size_t)(close - nm) == len &&
		    memcmp(nm, name, len) == 0) {
			depth += k == '/' ? -1 : 1;
			if (depth == 0) {
				*after = close + 2;
				return p;
			}
		}
		p = close + 2;
	}
	return NULL;
}

static int render(struct ctx *c, const char *p, const char *end, const struct tpl *t,
		  struct amd_buf *out);

static int oom(const struct ctx *c)
{
	return amd_fail(c->err, "%s: out of memory", c->path);
}

static int section(struct ctx *c, char kind, const char *name, size_t len, const char *body,
		   const char *body_end, const struct tpl *t, struct amd_buf *out)
{
	const struct entry *e = lookup(t, name, len);
	int empty = !e || (e->is_list ? e->nitems == 0 : !e->value || !*e->value);
	if (kind == '^')
		return empty ? render(c, body, body_end, t, out) : 0;
	if (empty)
		return 0;
	if (!e->is_list)
		return render(c, body, body_end, t, out);
	for (size_t i = 0; i < e->nitems; i++) {
		struct tpl *item = e->items[i];
		item->parent = t;
		int rc = render(c, body, body_end, item, out);
		item->parent = NULL;
		if (rc < 0)
			return -1;
	}
	return 0;
}

static int render(struct ctx *c, const char *p, const char *end, const struct tpl *t,
		  struct amd_buf *out)
{
	while (p < end) {
		const char *open = strstr(p, "{{");
		if (!open || open >= end)
			return amd_buf_append(out, p, (size_t)(end - p)) < 0 ? oom(c) : 0;
		if (amd_buf_append(out, p, (size_t)(open - p)) < 0)
			return oom(c);
		int triple = open[2] == '{';
		const char *close = strstr(open, triple ? "}}}" : "}}");
		if (!close || close >= end)
			return amd_fail(c->err, "%s: line %d: '{{' is not closed", c->path,
					line_of(c->text, open));
		const char *nm = open + 2 + triple;
		char kind = *nm;
		if (kind == '#' || kind == '^') {
			size_t len = (size_t)(close - nm - 1);
			const char *after, *body_end = section_end(close + 2, nm + 1, len, &after);
			if (!body_end || body_end > end)
				return amd_fail(c->err, "%s: line %d: section '%.*s' is not closed", c->path,
						line_of(c->text, open), (int)len, nm + 1);
			const char *body = close + 2;
			if (*body == '\n') /* a section tag alone on its line leaves no blank line */
				body++;
			if (section(c, kind, nm + 1, len, body, body_end, t, out) < 0)
				return -1;
			p = after;
			if (*p == '\n' && body != close + 2)
				p++;
			continue;
		}
		if (kind == '/')
			return amd_fail(c->err, "%s: line %d: '{{/%.*s}}' closes no section", c->path,
					line_of(c->text, open), (int)(close - nm - 1), nm + 1);
		const struct entry *e = lookup(t, nm, (size_t)(close - nm));
		if (e && !e->is_list && e->value &&
		    put_escaped(out, e->value, triple ? TPL_RAW : c->esc) < 0)
			return oom(c);
		p = close + (triple ? 3 : 2);
	}
	return 0;
}

int tpl_render(const char *text, const char *path, const struct tpl *t, enum tpl_escape esc,
	       struct amd_buf *out, struct amd_err *err)
{
	struct ctx c = {text, path, esc, err};
	if (tpl_failed(t))
		return oom(&c);
	return render(&c, text, text + strlen(text), t, out);
}

int tpl_render_file(const char *name, const struct tpl *t, enum tpl_escape esc,
		    const char *out_dir, const char *out_name, struct amd_err *err)
{
	char *path;
	if (amd_template_find(name, &path, err) < 0)
		return -1;
	struct amd_buf text = {0}, out = {0};
	int rc = amd_read_file(path, 1 << 20, &text, err);
	if (rc == 0)
		rc = tpl_render(text.data, path, t, esc, &out, err);
	if (rc == 0)
		rc = amd_out_write_all(out_dir, out_name, out.data ? out.data : "", out.len, err);
	free(path);
	amd_buf_free(&text);
	amd_buf_free(&out);
	return rc;
}
