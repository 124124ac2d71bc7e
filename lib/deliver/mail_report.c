/* mail_report.c — what a mail says about a report directory: the sweep
 * and the findings from report.json (cJSON), else the findings section of
 * summary.md; the gate's verdict as decided when the comparison was
 * written (lib/compare/verdict.h), read with the one reader of a
 * comparison's JSON (compare_json.h) from gate.json or report.json; the
 * PDF to attach; and the body rendered from templates/mail.txt and
 * templates/mail.html with core/template.h (the engine summary.md uses:
 * {{name}}, {{#list}}..{{/list}}). */
#include "mail_report.h"
#include "text_safe.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "buf.h"
#include "compare_json.h"
#include "verdict.h"
#include "file.h"
#include "template.h" /* the one template engine */

#define MAX_REPORT_BYTES (16u << 20)

void amd_mail_report_free(struct amd_mail_report *r)
{
	for (size_t i = 0; i < r->nfindings; i++)
		free(r->findings[i]);
	free(r->findings);
	free(r->dir);
	free(r->pdf_path);
	free(r->sweep);
	free(r->gate);
	free(r->source);
	free(r->html_path);
	memset(r, 0, sizeof *r);
}

static int add_finding(struct amd_mail_report *r, const char *text, size_t n)
{
	while (n && (text[n - 1] == ' ' || text[n - 1] == '\t' || text[n - 1] == '\r'))
		n--;
	if (n == 0)
		return 0;
	if (amd_grow(&r->findings, r->nfindings, &r->findings_cap, sizeof *r->findings, 8) < 0 ||
	    !(r->findings[r->nfindings] = strndup(text, n)))
		return -1;
	r->nfindings++;
	return 0;
}

/* A copy of s into *out (NULL stays NULL); -1 when out of memory. */
static int copy(const char *s, char **out)
{
	*out = s ? strdup(s) : NULL;
	return s && !*out ? -1 : 0;
}

/* The sweep's name: "sweep": "rc" or {"name": "rc"}; NULL when absent. */
static const char *sweep_name(const cJSON *root)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, "sweep");
	if (cJSON_IsObject(v))
		v = cJSON_GetObjectItemCaseSensitive(v, "name");
	return cJSON_IsString(v) && *v->valuestring ? v->valuestring : NULL;
}

/* Parses a JSON object file; errors name the line and byte. */
static cJSON *parse_json(const char *path, struct amd_err *err)
{
	struct amd_buf text = {0};
	if (amd_read_file(path, MAX_REPORT_BYTES, &text, err) < 0)
		return NULL;
	cJSON *root = cJSON_ParseWithLength(text.data, text.len);
	if (!root || !cJSON_IsObject(root)) {
		const char *at = cJSON_GetErrorPtr();
		size_t off = at && at >= text.data && at <= text.data + text.len
				     ? (size_t)(at - text.data) : 0;
		int line = 1;
		for (size_t i = 0; i < off; i++)
			line += text.data[i] == '\n';
		cJSON_Delete(root);
		root = NULL;
		amd_fail(err, "%s: line %d (byte %zu): not a JSON object", path, line, off);
	}
	amd_buf_free(&text);
	return root;
}

/* The verdict v of document root as the mail shows it: a document of
 * schema_version 1 or later says it in the JSON words, shown as the gate
 * (terminal) or report.json (not terminal) said it before; an older one
 * as it says. */
static const char *shown(const cJSON *root, const char *v, int terminal)
{
	const cJSON *version = cJSON_GetObjectItemCaseSensitive(root, "schema_version");
	return cJSON_IsNumber(version) ? amd_gate_result_shown(v, terminal) : v;
}

int amd_mail_report_gate(struct amd_mail_report *r, const char *path, struct amd_err *err)
{
	cJSON *root = parse_json(path, err);
	if (!root)
		return -1;
	char *v;
	int rc = copy(shown(root, amd_comparison_json_result(root), 1), &v);
	cJSON_Delete(root);
	if (rc < 0)
		return amd_fail(err, "out of memory");
	if (!v)
		return amd_fail(err, "%s: no gate verdict (want the output of 'amdahl gate --json')",
				path);
	free(r->gate);
	r->gate = v;
	return 0;
}

/* report.json: the sweep, the findings and the verdict in "gate" (the
 * comparison written by report build --baseline). */
static int load_json(const char *path, struct amd_mail_report *r, struct amd_err *err)
{
	cJSON *root = parse_json(path, err);
	if (!root)
		return -1;
	const cJSON *gate = cJSON_GetObjectItemCaseSensitive(root, "gate");
	int rc = copy(sweep_name(root), &r->sweep);
	if (rc == 0)
		rc = copy(shown(root, amd_comparison_json_result(gate), 0), &r->gate);
	if (rc < 0) {
		cJSON_Delete(root);
		return amd_fail(err, "out of memory");
	}
	const cJSON *f, *list = cJSON_GetObjectItemCaseSensitive(root, "findings");
	const cJSON *items = cJSON_IsArray(list) ? list : NULL;
	cJSON_ArrayForEach(f, items) { /* "text" or {"text": "text"} */
		const cJSON *t = cJSON_IsObject(f) ? cJSON_GetObjectItemCaseSensitive(f, "text") : f;
		if (rc == 0 && cJSON_IsString(t) &&
		    add_finding(r, t->valuestring, strlen(t->valuestring)) < 0)
			rc = amd_fail(err, "out of memory");
	}
	cJSON_Delete(root);
	if (rc == 0 && cJSON_IsArray(list) && !(r->source = strdup("report.json")))
		rc = amd_fail(err, "out of memory");
	return rc;
}

/* Where the findings start in summary.md: after a "## Findings" heading
 * when there is one, else after the title (the first heading). */
static char *findings_start(char *text)
{
	char *first = NULL;
	for (char *line = text; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		if (line[0] != '#')
			continue;
		char *next = strchr(line, '\n');
		const char *title = line + strspn(line, "#");
		title += strspn(title, " \t");
		if (strncasecmp(title, "findings", 8) == 0)
			return next ? next + 1 : line + strlen(line);
		if (!first)
			first = next ? next + 1 : line + strlen(line);
	}
	return first ? first : text;
}

/* The findings section of summary.md, up to the next heading: its bullet
 * items are the findings, else its paragraphs. */
static int load_summary(const char *path, struct amd_mail_report *r, struct amd_err *err)
{
	struct amd_buf text = {0}, para = {0};
	if (amd_read_file(path, MAX_REPORT_BYTES, &text, err) < 0)
		return -1;
	int rc = 0;
	for (char *line = findings_start(text.data), *end; line && *line && rc == 0;
	     line = end ? end + 1 : NULL) {
		end = strchr(line, '\n');
		size_t n = end ? (size_t)(end - line) : strlen(line);
		if (line[0] == '#')
			break;
		int bullet = n >= 2 && (line[0] == '-' || line[0] == '*') && line[1] == ' ';
		int blank = strspn(line, " \t\r") >= n;
		if ((bullet || blank) && para.len) {
			rc = add_finding(r, para.data, para.len);
			para.len = 0;
		}
		if (bullet)
			rc = rc ? rc : add_finding(r, line + 2, n - 2);
		else if (!blank)
			rc = amd_buf_printf(&para, "%s%.*s", para.len ? " " : "", (int)n, line);
	}
	if (rc == 0 && para.len)
		rc = add_finding(r, para.data, para.len);
	for (size_t i = 0; rc == 0 && i < r->nfindings; i++)
		amd_md_unescape(r->findings[i]); /* summary.md escapes Markdown (text_safe.h) */
	amd_buf_free(&para);
	amd_buf_free(&text);
	if (rc == 0 && !(r->source = strdup("summary.md")))
		rc = -1;
	return rc < 0 ? amd_fail(err, "out of memory") : 0;
}

static int is_pdf_name(const char *name)
{
	size_t n = strlen(name);
	return n > 4 && strcasecmp(name + n - 4, ".pdf") == 0;
}

/* DIR/report.pdf, else the only *.pdf in DIR. */
static int find_pdf(const char *dir, struct amd_mail_report *r, struct amd_err *err)
{
	char *path = amd_path_join(dir, "report.pdf");
	if (path && amd_is_file(path)) {
		r->pdf_path = path;
		return 0;
	}
	free(path);
	DIR *d = opendir(dir);
	struct dirent *e;
	int count = 0;
	if (!d)
		return amd_fail(err, "%s: cannot list the directory", dir);
	while ((e = readdir(d)) != NULL) {
		char *p = is_pdf_name(e->d_name) ? amd_path_join(dir, e->d_name) : NULL;
		if (p && amd_is_file(p) && count++ == 0)
			r->pdf_path = p;
		else
			free(p);
	}
	closedir(d);
	if (count == 1)
		return 0;
	free(r->pdf_path);
	r->pdf_path = NULL;
	if (count == 0)
		return amd_fail(err, "%s: no PDF to attach (no report.pdf); "
			       "'amdahl report build -o %s' writes one", dir, dir);
	return amd_fail(err, "%s: %d PDF files and no report.pdf: cannot tell which to attach",
			dir, count);
}

int amd_mail_report_load(const char *dir, struct amd_mail_report *r, struct amd_err *err)
{
	memset(r, 0, sizeof *r);
	if (!amd_is_dir(dir))
		return amd_fail(err, "%s: not a report directory", dir);
	if (!(r->dir = strdup(dir)))
		return amd_fail(err, "out of memory");
	char *json = amd_path_join(dir, "report.json");
	char *md = amd_path_join(dir, "summary.md");
	char *gate = amd_path_join(dir, "gate.json");
	int rc = json && md && gate ? find_pdf(dir, r, err) : amd_fail(err, "out of memory");
	if (rc == 0 && amd_is_file(json))
		rc = load_json(json, r, err);
	if (rc == 0 && !r->source && amd_is_file(md))
		rc = load_summary(md, r, err);
	if (rc == 0 && amd_is_file(gate)) /* the gate's own verdict, as --gate's default */
		rc = amd_mail_report_gate(r, gate, err);
	if (rc == 0 && !(r->html_path = amd_path_join(dir, "report.html")))
		rc = amd_fail(err, "out of memory");
	if (rc == 0 && !amd_is_file(r->html_path)) {
		free(r->html_path);
		r->html_path = NULL;
	}
	free(json);
	free(md);
	free(gate);
	if (rc < 0)
		amd_mail_report_free(r);
	return rc;
}

/* ---- templates: core/template.h, the engine summary.md uses ---- */

static struct tpl *fields(const struct amd_mail_report *r, const char *subject)
{
	struct tpl *t = tpl_new();
	if (!t)
		return NULL;
	tpl_set(t, "subject", "%s", subject);
	tpl_set(t, "pdf", "%s", amd_basename(r->pdf_path));
	if (r->html_path)
		tpl_set(t, "html", "%s", amd_basename(r->html_path));
	if (r->html_path && r->attach_html)
		tpl_set(t, "html_attached", "1");
	if (r->sweep)
		tpl_set(t, "sweep", "%s", r->sweep);
	if (r->gate)
		tpl_set(t, "gate", "%s", r->gate);
	if (r->source)
		tpl_set(t, "source", "%s", r->source);
	for (size_t i = 0; i < r->nfindings; i++) {
		struct tpl *item = tpl_add(t, "findings");
		if (item)
			tpl_set(item, "text", "%s", r->findings[i]);
	}
	return t;
}

char *amd_mail_render(const char *name, const struct amd_mail_report *r,
		      const char *subject, struct amd_err *err)
{
	char *path = amd_template_path(name);
	struct amd_buf text = {0}, out = {0};
	if (!path) {
		amd_fail(err, "templates/%s: not found (set AMDAHL_TEMPLATES to the templates folder)",
			 name);
		return NULL;
	}
	struct tpl *t = fields(r, subject);
	/* a name's newline cannot forge a line of the plain-text body */
	enum tpl_escape esc = strstr(name, ".html") ? TPL_HTML : TPL_LINE;
	int rc = t ? amd_read_file(path, 1u << 20, &text, err) : amd_fail(err, "out of memory");
	if (rc == 0)
		rc = tpl_render(text.data, path, t, esc, &out, err);
	if (rc == 0 && amd_buf_append(&out, "", 0) < 0)
		rc = amd_fail(err, "out of memory");
	tpl_free(t);
	amd_buf_free(&text);
	free(path);
	if (rc < 0) {
		amd_buf_free(&out);
		return NULL;
	}
	return out.data;
}
