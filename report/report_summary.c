/* report_summary.c — summary.md and summary.html rendered from
 * templates/ with the report's findings, gaps, charts and configuration
 * rows (summary.html a short preview of report.html: findings, the
 * verdict, one lead chart), and report.json with the same content as
 * data. */
#include "report_summary.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "comparison.h"
#include "history_page.h"
#include "analysis_json.h"
#include "run.h"
#include "text_safe.h"
#include "num.h"
#include "table.h"
#include "template.h"
#include "file.h"

struct tpl *report_tpl_item(struct tpl *t, const char *list, int *failed)
{
	struct tpl *r = tpl_add(t, list);
	*failed |= !r;
	return r;
}

void report_tpl_texts(struct tpl *t, const char *list, const struct report_text *x, int *failed)
{
	for (size_t i = 0; i < x->n; i++) {
		struct tpl *r = report_tpl_item(t, list, failed);
		if (r)
			tpl_set(r, "text", "%s", x->v[i]);
	}
}

static void point_row(struct tpl *r, const struct amd_point_stats *p)
{
	char b[96];
	tpl_set(r, "strategy", "%s", p->strategy);
	tpl_set(r, "n", "%g", p->n);
	tpl_set(r, "runs", "%zu", p->nruns);
	amd_cell_sig(b, sizeof b, p->median);
	tpl_set(r, "median", "%s", b);
	report_ci(&p->ci, 1, "", b, sizeof b);
	tpl_set(r, "ci", "%s", b);
	tpl_set(r, "cv", amd_num_ok(p->cv) ? "%.1f%%" : "–", p->cv * 100);
	tpl_set(r, "speedup", amd_num_ok(p->speedup) ? "%.2f×" : "–", p->speedup);
	report_ci(&p->ci_speedup, 1, "", b, sizeof b);
	tpl_set(r, "speedup_ci", "%s", b);
	tpl_set(r, "efficiency", amd_num_ok(p->efficiency) ? "%.0f%%" : "–", p->efficiency * 100);
	amd_cell_sig(b, sizeof b, p->throughput);
	tpl_set(r, "throughput", "%s", b);
	amd_cell_sig(b, sizeof b, p->energy_per_sample_j);
	tpl_set(r, "energy_sample", "%s", b);
}

/* The template model of the summaries; NULL when out of memory. */
/* summary.html's one chart ("lead": speedup when drawn, else the first)
 * and how many more report.html holds ("more_charts"). */
static void lead_chart(struct tpl *t, struct report_ctx *c, int *failed)
{
	size_t k = 0;
	for (size_t i = 0; i < c->charts.n; i++)
		if (strcmp(c->charts.v[i].name, "speedup") == 0)
			k = i;
	tpl_set(t, "more_charts", "%zu", c->charts.n ? c->charts.n - 1 : 0);
	struct tpl *ch = c->charts.n ? report_tpl_item(t, "lead", failed) : NULL;
	if (!ch)
		return;
	tpl_set(ch, "name", "%s", c->charts.v[k].name);
	tpl_set(ch, "title", "%s", c->charts.v[k].title);
	tpl_set(ch, "caption", "%s", c->charts.v[k].caption);
}

static struct tpl *model(struct report_ctx *c)
{
	const struct amd_sweep_stats *s = c->s;
	struct tpl *t = tpl_new();
	int failed = 0;
	if (!t)
		return NULL;
	tpl_set(t, "sweep", "%s", s->sweep);
	tpl_set(t, "metric", "%s", s->metric);
	tpl_set(t, "axis", "%s", report_axis_name(s));
	tpl_set(t, "axis_label", "%s", report_axis_label(s));
	tpl_set(t, "runs", "%zu", s->nruns_total - s->nruns_excluded);
	tpl_set(t, "runs_left_out", "%zu", s->nruns_excluded);
	tpl_set(t, "generated", "%s", c->generated);
	tpl_set(t, "version", "%s", c->o->version);
	tpl_set(t, "rules", "%s", s->rules);
	if (s->scaling)
		tpl_set(t, "scaling", "1");
	report_tpl_texts(t, "findings", &c->findings, &failed);
	report_tpl_texts(t, "gaps", &c->gaps, &failed);
	report_comparison_model(t, c);
	report_history_model(t, c);
	if (c->gaps.n)
		tpl_set(t, "has_gaps", "1");
	lead_chart(t, c, &failed);
	for (size_t i = 0; i < c->charts.n; i++) {
		struct tpl *ch = report_tpl_item(t, "charts", &failed);
		if (!ch)
			break;
		tpl_set(ch, "name", "%s", c->charts.v[i].name);
		tpl_set(ch, "title", "%s", c->charts.v[i].title);
		tpl_set(ch, "caption", "%s", c->charts.v[i].caption);
	}
	for (size_t i = 0; i < s->nstrategies; i++)
		for (size_t k = 0; k < s->strategies[i].npoints; k++) {
			struct tpl *r = report_tpl_item(t, "rows", &failed);
			if (r)
				point_row(r, &s->strategies[i].points[k]);
			tpl_set(t, "has_rows", "1");
		}
	if (failed) {
		tpl_free(t);
		return NULL;
	}
	return t;
}

int report_write_summaries(struct report_ctx *c, struct amd_err *err)
{
	struct tpl *t = model(c);
	int rc = 0;
	if (!t)
		rc = amd_fail(err, "summaries: out of memory");
	if (rc == 0)
		rc = tpl_render_file("summary.md", t, TPL_MD, c->o->outdir, "summary.md", err);
	if (rc == 0)
		rc = tpl_render_file("summary.html", t, TPL_HTML, c->o->outdir, "summary.html",
				     err);
	tpl_free(t);
	return rc;
}

/* ---- report.json ---- */

/* The sweep's statistics as `amdahl stats --json` prints them, each
 * strategy also with its base point flat (base_n, base_value) and the axis
 * in the report's words. */
static cJSON *stats_json(const struct amd_sweep_stats *s)
{
	cJSON *o = amd_sweep_stats_json(s);
	cJSON_DeleteItemFromObject(o, "axis");
	cJSON_AddStringToObject(o, "axis", report_axis_name(s));
	cJSON *st = cJSON_GetObjectItem(o, "strategies");
	for (size_t i = 0; i < s->nstrategies; i++) {
		cJSON *so = cJSON_GetArrayItem(st, (int)i);
		amd_json_num(so, "base_n", s->strategies[i].base_n);
		amd_json_num(so, "base_value", s->strategies[i].base_value);
	}
	return o;
}

static cJSON *strings_json(const struct report_text *t)
{
	cJSON *a = cJSON_CreateArray();
	for (size_t i = 0; i < t->n; i++)
		cJSON_AddItemToArray(a, cJSON_CreateString(t->v[i]));
	return a;
}

/* Member key of o: string s as a reference (no copy: c->src outlives
 * the tree), the key a constant; nothing when s is NULL, as
 * cJSON_AddStringToObject adds nothing then. */
static void add_ref(cJSON *o, const char *key, const char *s)
{
	cJSON_AddItemToObjectCS(o, key, s ? cJSON_CreateStringReference(s) : cJSON_CreateNull());
}

/* One source's object: 65,000 of them in a sweep of 1,000 runs × 64
 * ranks, so no copy of its strings or keys (4 allocations fewer each). */
static cJSON *source_json(const struct amd_source_row *r)
{
	cJSON *o = cJSON_CreateObject();
	if (!o)
		return NULL;
	add_ref(o, "path", r->path);
	add_ref(o, "kind", r->kind);
	cJSON_AddItemToObjectCS(o, "size", cJSON_CreateNumber((double)r->size));
	add_ref(o, "sha256", r->sha256);
	return o;
}

static cJSON *report_json(struct report_ctx *c)
{
	const struct amd_sweep_stats *s = c->s;
	cJSON *o = stats_json(s);
	amd_json_versioned(o);
	cJSON_AddStringToObject(o, "generated", c->generated);
	cJSON_AddNumberToObject(o, "runs", (double)(s->nruns_total - s->nruns_excluded));
	cJSON_AddNumberToObject(o, "runs_left_out", (double)s->nruns_excluded);
	cJSON_AddItemToObject(o, "findings", strings_json(&c->findings));
	cJSON_AddItemToObject(o, "gaps", strings_json(&c->gaps));
	cJSON_AddItemToObject(o, "gate", c->cmp ? report_gate_json(c) : cJSON_CreateNull());
	cJSON_AddItemToObject(o, "history", c->hist ? report_history_json(c) : cJSON_CreateNull());
	cJSON *charts = cJSON_AddArrayToObject(o, "charts");
	for (size_t i = 0; i < c->charts.n; i++) {
		cJSON *ch = cJSON_CreateObject();
		char b[300];
		cJSON_AddStringToObject(ch, "name", c->charts.v[i].name);
		snprintf(b, sizeof b, "charts/%s.png", c->charts.v[i].name);
		cJSON_AddStringToObject(ch, "png", b);
		snprintf(b, sizeof b, "charts/%s.svg", c->charts.v[i].name);
		cJSON_AddStringToObject(ch, "svg", b);
		cJSON_AddStringToObject(ch, "caption", c->charts.v[i].caption);
		cJSON_AddItemToArray(charts, ch);
	}
	cJSON *ex = cJSON_AddArrayToObject(o, "left_out");
	for (size_t i = 0; i < s->nexcluded; i++) {
		cJSON *r = cJSON_CreateObject();
		cJSON_AddStringToObject(r, "id", s->excluded[i].ext_id ? s->excluded[i].ext_id : "");
		cJSON_AddStringToObject(r, "name", s->excluded[i].name ? s->excluded[i].name : "");
		cJSON_AddStringToObject(r, "status", amd_status_name(s->excluded[i].status));
		cJSON_AddStringToObject(r, "why", s->excluded[i].excluded ? s->excluded[i].excluded : "");
		cJSON_AddItemToArray(ex, r);
	}
	cJSON *src = cJSON_AddArrayToObject(o, "sources");
	for (size_t i = 0; i < c->nsrc; i++)
		cJSON_AddItemToArray(src, source_json(&c->src[i]));
	return o;
}

int report_json_text(struct report_ctx *c, struct amd_buf *out)
{
	cJSON *o = report_json(c);
	/* NULL when a part of o could not be built: never a shorter document */
	char *text = o ? cJSON_Print(o) : NULL;
	cJSON_Delete(o);
	int rc = text && amd_utf8_valid(out, text, strlen(text)) == 0
		&& amd_buf_append(out, "\n", 1) == 0 ? 0 : -1;
	free(text);
	return rc;
}

int report_write_json_text(struct report_ctx *c, const char *name, const struct amd_buf *text,
			   struct amd_err *err)
{
	return text ? amd_out_write_all(c->o->outdir, name, text->data, text->len, err)
		    : amd_fail(err, "%s/%s: out of memory", c->o->outdir, name);
}

