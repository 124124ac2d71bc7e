/* mail_report.c — what a mail says about a report directory: the sweep,
 * the findings and the gate verdict from report.json (cJSON), else the
 * first section of summary.md; the PDF to attach; and the body rendered
 * from templates/mail.txt and templates/mail.html ({{name}} fields). */
#include "mail.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "util.h"

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
	memset(r, 0, sizeof *r);
}

static int add_finding(struct amd_mail_report *r, const char *text, size_t n)
{
	while (n && (text[n - 1] == ' ' || text[n - 1] == '\t' || text[n - 1] == '\r'))
		n--;
	if (n == 0)
		return 0;
	char **f = realloc(r->findings, (r->nfindings + 1) * sizeof *f);
	if (!f)
		return -1;
	r->findings = f;
	if (!(f[r->nfindings] = strndup(text, n)))
		return -1;
	r->nfindings++;
	return 0;
}

/* A string field, or the named string inside an object field
 * ({"gate": {"verdict": "pass"}}, {"sweep": {"name": "rc"}}). */
static char *json_text(const cJSON *root, const char *key, const char *inner)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, key);
	if (cJSON_IsObject(v))
		v = cJSON_GetObjectItemCaseSensitive(v, inner);
	return cJSON_IsString(v) && *v->valuestring ? strdup(v->valuestring) : NULL;
}

static int load_json(const char *path, struct amd_mail_report *r, struct amd_err *err)
{
	struct amd_buf text = {0};
	if (amd_read_file(path, MAX_REPORT_BYTES, &text, err) < 0)
		return -1;
	cJSON *root = cJSON_ParseWithLength(text.data, text.len);
	if (!root || !cJSON_IsObject(root)) {
		const char *at = cJSON_GetErrorPtr();
		size_t off = at && at >= text.data && at <= text.data + text.len
				     ? (size_t)(at - text.data) : 0;
		int line = 1;
		for (size_t i = 0; i < off; i++)
			line += text.data[i] == '\n';
		cJSON_Delete(root);
		amd_buf_free(&text);
		return amd_fail(err, "%s: line %d (byte %zu): not a JSON object", path, line, off);
	}
	amd_buf_free(&text);
	r->sweep = json_text(root, "sweep", "name");
	r->gate = json_text(root, "gate", "verdict");
	const cJSON *f, *list = cJSON_GetObjectItemCaseSensitive(root, "findings");
	const cJSON *items = cJSON_IsArray(list) ? list : NULL;
	int rc = 0;
	cJSON_ArrayForEach(f, items) {
		if (cJSON_IsObject(f))
			f = cJSON_GetObjectItemCaseSensitive(f, "text");
		if (cJSON_IsString(f) && add_finding(r, f->valuestring, strlen(f->valuestring)) < 0)
			rc = amd_fail(err, "out of memory");
	}
	cJSON_Delete(root);
	if (rc == 0 && cJSON_IsArray(list) && !(r->source = strdup("report.json")))
		rc = amd_fail(err, "out of memory");
	return rc;
}

/* The first section of summary.md: what follows the title up to the next
 * heading; its bullet items are the findings, else its paragraphs. */
static int load_summary(const char *path, struct amd_mail_report *r, struct amd_err *err)
{
	struct amd_buf text = {0}, para = {0};
	if (amd_read_file(path, MAX_REPORT_BYTES, &text, err) < 0)
		return -1;
	int headings = 0, rc = 0;
	for (char *line = text.data, *end; line && *line && rc == 0; line = end ? end + 1 : NULL) {
		end = strchr(line, '\n');
		size_t n = end ? (size_t)(end - line) : strlen(line);
		if (line[0] == '#') {
			if (headings++ && (r->nfindings || para.len))
				break;
			continue;
		}
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
	int rc = find_pdf(dir, r, err);
	if (rc == 0 && amd_is_file(json))
		rc = load_json(json, r, err);
	if (rc == 0 && !r->source && amd_is_file(md))
		rc = load_summary(md, r, err);
	free(json);
	free(md);
	if (rc < 0)
		amd_mail_report_free(r);
	return rc;
}

/* ---- templates ---- */

static int put_html(struct amd_buf *out, const char *s)
{
	int rc = 0;
	for (; *s && rc == 0; s++) {
		switch (*s) {
		case '&': rc = amd_buf_printf(out, "&amp;"); break;
		case '<': rc = amd_buf_printf(out, "&lt;"); break;
		case '>': rc = amd_buf_printf(out, "&gt;"); break;
		case '"': rc = amd_buf_printf(out, "&quot;"); break;
		default: rc = amd_buf_append(out, s, 1);
		}
	}
	return rc;
}

static int put_value(struct amd_buf *out, const char *s, int html)
{
	return html ? put_html(out, s) : amd_buf_append(out, s, strlen(s));
}

static int put_findings(struct amd_buf *out, const struct amd_mail_report *r, int html)
{
	int rc = 0;
	if (r->nfindings == 0)
		return put_value(out, r->source ? "(the report states no findings)"
						: "(no report.json or summary.md with findings)", html);
	for (size_t i = 0; i < r->nfindings && rc == 0; i++) {
		const char *sep = i ? "\n" : "";
		rc = amd_buf_printf(out, "%s%s", sep, html ? "<li>" : "- ");
		rc = rc ? rc : put_value(out, r->findings[i], html);
		rc = rc ? rc : (html ? amd_buf_printf(out, "</li>") : 0);
	}
	return rc;
}

static int put_field(struct amd_buf *out, const char *key, const struct amd_mail_report *r,
		     const char *subject, int html)
{
	if (strcmp(key, "findings") == 0)
		return put_findings(out, r, html);
	const char *v = strcmp(key, "subject") == 0 ? subject
		      : strcmp(key, "sweep") == 0   ? (r->sweep ? r->sweep : "(not named in the report)")
		      : strcmp(key, "gate") == 0    ? (r->gate ? r->gate : "not run")
		      : strcmp(key, "pdf") == 0     ? amd_basename(r->pdf_path)
		      : strcmp(key, "source") == 0  ? (r->source ? r->source : "nothing")
						    : NULL;
	return v ? put_value(out, v, html) : 1;
}

static int render_text(const char *path, const char *tpl, const struct amd_mail_report *r,
		       const char *subject, int html, struct amd_buf *out, struct amd_err *err)
{
	const char *p = tpl, *open;
	while ((open = strstr(p, "{{")) != NULL) {
		const char *close = strstr(open + 2, "}}");
		int line = 1;
		for (const char *q = tpl; q < open; q++)
			line += *q == '\n';
		if (!close)
			return amd_fail(err, "%s: line %d: '{{' without '}}'", path, line);
		char key[32];
		const char *k = open + 2 + strspn(open + 2, " ");
		size_t kn = (size_t)(close - k);
		while (kn && k[kn - 1] == ' ')
			kn--;
		snprintf(key, sizeof key, "%.*s", (int)kn, k);
		if (amd_buf_append(out, p, (size_t)(open - p)) < 0)
			return amd_fail(err, "out of memory");
		int rc = put_field(out, key, r, subject, html);
		if (rc > 0)
			return amd_fail(err, "%s: line %d: unknown field {{%s}}", path, line, key);
		if (rc < 0)
			return amd_fail(err, "out of memory");
		p = close + 2;
	}
	return amd_buf_append(out, p, strlen(p)) < 0 ? amd_fail(err, "out of memory") : 0;
}

char *amd_mail_render(const char *name, const struct amd_mail_report *r,
		      const char *subject, struct amd_err *err)
{
	char *path = amd_template_path(name);
	struct amd_buf tpl = {0}, out = {0};
	if (!path) {
		amd_fail(err, "templates/%s: not found (set AMDAHL_TEMPLATES to the templates folder)",
			 name);
		return NULL;
	}
	int html = strstr(name, ".html") != NULL;
	int rc = amd_read_file(path, 1u << 20, &tpl, err);
	if (rc == 0)
		rc = render_text(path, tpl.data, r, subject, html, &out, err);
	if (rc == 0 && !out.data)
		rc = amd_buf_append(&out, "", 1) < 0 ? amd_fail(err, "out of memory") : 0;
	amd_buf_free(&tpl);
	free(path);
	if (rc < 0) {
		amd_buf_free(&out);
		return NULL;
	}
	return out.data;
}
