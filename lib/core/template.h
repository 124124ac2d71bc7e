/* template.h — a tiny text template engine for templates/: {{name}}
 * substitutes a value (HTML-escaped when rendering HTML), {{{name}}}
 * substitutes it raw, {{#name}}…{{/name}} repeats for each item of a
 * list or shows its body when a value is non-empty, {{^name}}…{{/name}}
 * shows it when the list or value is empty. Names resolve in the
 * innermost item first, then outwards. */
#ifndef AMD_TEMPLATE_H
#define AMD_TEMPLATE_H

#include "err.h"
#include "buf.h"
#include "file.h"

struct tpl;

/* Out of memory: tpl_new and tpl_add return NULL, tpl_set and tpl_add
 * on a NULL tree do nothing, and the tree remembers what it lost, so
 * rendering it fails with "out of memory"; callers need not check each
 * call. */
struct tpl *tpl_new(void);
void tpl_free(struct tpl *t);
/* Sets name to a printf-formatted value. */
void tpl_set(struct tpl *t, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Appends a new item to list name and returns it (owned by t). */
struct tpl *tpl_add(struct tpl *t, const char *name);

/* How {{name}} values are written: as they are, HTML-escaped (and made
 * valid UTF-8), Markdown-escaped, or as one visible line (control
 * characters and newlines as \xNN: plain text a name cannot add lines
 * to) (text_safe.h); {{{name}}} is always raw. */
enum tpl_escape { TPL_RAW, TPL_HTML, TPL_MD, TPL_LINE };

/* Renders text (named path for error messages) into out; fails when t
 * is NULL or lost a value for want of memory. */
int tpl_render(const char *text, const char *path, const struct tpl *t, enum tpl_escape esc,
	       struct amd_buf *out, struct amd_err *err);
/* Finds templates/<name> (amd_template_path), renders it and writes
 * out_dir/out_name atomically (outfile.h). */
int tpl_render_file(const char *name, const struct tpl *t, enum tpl_escape esc,
		    const char *out_dir, const char *out_name, struct amd_err *err);

#endif
