/* test_template.c — the template engine: values, HTML escaping, raw
 * values, list and value sections, inverted sections, outer-scope
 * lookup, and one-line errors naming the template and line. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "template.h"

static char *render(const char *text, const struct tpl *t, enum tpl_escape esc, int *rc,
		    struct amd_err *err)
{
	struct amd_buf out = {0};
	*rc = tpl_render(text, "t.tmpl", t, esc, &out, err);
	amd_buf_append(&out, "", 1);
	return out.data;
}

static void values_and_escaping(void **state)
{
	(void)state;
	struct tpl *t = tpl_new();
	tpl_set(t, "name", "a<b & \"c\"");
	tpl_set(t, "n", "%d", 42);
	struct amd_err err = {{0}};
	int rc;
	char *s = render("x {{name}} {{{name}}} {{n}}{{missing}}.", t, TPL_HTML, &rc, &err);
	assert_int_equal(rc, 0);
	assert_string_equal(s, "x a&lt;b &amp; &quot;c&quot; a<b & \"c\" 42.");
	free(s);
	s = render("{{name}}", t, TPL_RAW, &rc, &err);
	assert_string_equal(s, "a<b & \"c\"");
	free(s);
	tpl_free(t);
}

static void lists_and_sections(void **state)
{
	(void)state;
	struct tpl *t = tpl_new();
	tpl_set(t, "sweep", "S");
	for (int i = 1; i <= 3; i++)
		tpl_set(tpl_add(t, "rows"), "v", "%d", i * 10);
	tpl_set(t, "flag", "1");
	tpl_set(t, "empty", "%s", "");
	struct amd_err err = {{0}};
	int rc;
	char *s = render("{{#rows}}\n- {{v}} of {{sweep}}\n{{/rows}}\nend", t, TPL_RAW, &rc, &err);
	assert_int_equal(rc, 0);
	assert_string_equal(s, "- 10 of S\n- 20 of S\n- 30 of S\nend");
	free(s);
	s = render("[{{#flag}}on{{/flag}}{{#empty}}no{{/empty}}{{^empty}}none{{/empty}}"
		   "{{^nolist}}-{{/nolist}}{{^rows}}x{{/rows}}]",
		   t, TPL_RAW, &rc, &err);
	assert_string_equal(s, "[onnone-]");
	free(s);
	tpl_free(t);
}

static void errors_name_the_line(void **state)
{
	(void)state;
	struct tpl *t = tpl_new();
	struct amd_err err = {{0}};
	int rc;
	char *s = render("a\nb {{#rows}}\nc", t, TPL_RAW, &rc, &err);
	assert_int_equal(rc, -1);
	assert_non_null(strstr(err.msg, "t.tmpl: line 2"));
	assert_non_null(strstr(err.msg, "rows"));
	free(s);
	s = render("a {{name", t, TPL_RAW, &rc, &err);
	assert_int_equal(rc, -1);
	assert_non_null(strstr(err.msg, "t.tmpl: line 1"));
	free(s);
	s = render("{{/x}}", t, TPL_RAW, &rc, &err);
	assert_int_equal(rc, -1);
	free(s);
	tpl_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(values_and_escaping),
		cmocka_unit_test(lists_and_sections),
		cmocka_unit_test(errors_name_the_line),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
