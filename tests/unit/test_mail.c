/* test_mail.c — the mail's checks (header injection, addresses, URLs),
 * reading a report directory (report.json, the summary.md fallback, which
 * PDF) and the {{field}} templates. Sending is tested in tests/e2e/mail.sh
 * against a real SMTP server. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "mail.h"
#include "mail_report.h"
#include "file.h"

static char dir[64];

static void put(const char *name, const char *text)
{
	char *p = amd_path_join(dir, name);
	FILE *f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	free(p);
}

static void unlink_in_dir(const char *name)
{
	char *p = amd_path_join(dir, name);
	unlink(p);
	free(p);
}

static int setup(void **state)
{
	snprintf(dir, sizeof dir, "/tmp/amdahl-test-mail-XXXXXX");
	assert_non_null(mkdtemp(dir));
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	return system(cmd);
}

static void test_header_text(void **state)
{
	struct amd_err err = {{0}};
	assert_int_equal(amd_mail_check_text("subject", "Nightly\treport: 8 GPUs", &err), 0);
	assert_int_equal(amd_mail_check_text("subject", "a\r\nBcc: x@y.org", &err), -1);
	assert_non_null(strstr(err.msg, "line break"));
	assert_non_null(strstr(err.msg, "byte 1"));
	assert_int_equal(amd_mail_check_text("subject", "a\nb", &err), -1);
	assert_int_equal(amd_mail_check_text("subject", "a\rb", &err), -1);
	assert_int_equal(amd_mail_check_text("subject", "bell\a", &err), -1);
	assert_int_equal(amd_mail_check_text("subject", "del\x7f", &err), -1);
	char big[1000];
	memset(big, 'x', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	assert_int_equal(amd_mail_check_text("subject", big, &err), -1);
}

static void test_addresses(void **state)
{
	struct amd_err err = {{0}};
	assert_int_equal(amd_mail_check_address("team+ci@lab.example.org", &err), 0);
	const char *bad[] = {"", "lab.org", "@lab.org", "team@", "a@b@c", "a b@c.org",
			     "<a@b.org>", "a@b.org,c@d.org", "a@b.org\nBcc: e@x.org",
			     "\"a\"@b.org", "a@b.org;"};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		assert_int_equal(amd_mail_check_address(bad[i], &err), -1);
}

static void test_urls(void **state)
{
	struct amd_err err = {{0}};
	assert_int_equal(amd_mail_check_url("smtp://mail.lab.org:587", &err), 0);
	assert_int_equal(amd_mail_check_url("smtps://ci@mail.lab.org", &err), 0);
	assert_int_equal(amd_mail_check_url("smtp://ci;AUTH=LOGIN@mail.lab.org", &err), 0);
	assert_int_equal(amd_mail_check_url("http://mail.lab.org", &err), -1);
	assert_non_null(strstr(err.msg, "http"));
	assert_int_equal(amd_mail_check_url("smtp://ci:hunter2@mail.lab.org", &err), -1);
	assert_null(strstr(err.msg, "hunter2"));
	assert_int_equal(amd_mail_check_url("not a url", &err), -1);
	char *s = amd_mail_url_scrub("smtp://ci:hunter2@mail.lab.org:25");
	assert_null(strstr(s, "hunter2"));
	assert_non_null(strstr(s, "ci@mail.lab.org:25"));
	free(s);
}

static void test_summary_fallback(void **state)
{
	struct amd_mail_report r;
	struct amd_err err = {{0}};
	put("report.pdf", "%PDF-1.5\n");
	put("summary.md", "# Sweep rc\n\n## Findings\n\n- Speedup 6.1 at n=8.\n"
			  "* Efficiency falls below 0.7 past n=16.\n\n## Runs\n\n- not a finding\n");
	assert_int_equal(amd_mail_report_load(dir, &r, &err), 0);
	assert_string_equal(r.source, "summary.md");
	assert_int_equal(r.nfindings, 2);
	assert_string_equal(r.findings[0], "Speedup 6.1 at n=8.");
	assert_string_equal(r.findings[1], "Efficiency falls below 0.7 past n=16.");
	assert_null(r.sweep);
	assert_non_null(strstr(r.pdf_path, "report.pdf"));
	amd_mail_report_free(&r);

	/* the layout 'report build' writes: a line under the title, then ## Findings */
	put("summary.md", "# Scaling report: rc\n\nepoch_time_s by world size, 24 runs\n\n"
			  "## Findings\n\n- ddp: best speedup 5.17x at n = 8.\n\n## Data gaps\n\n- none\n");
	assert_int_equal(amd_mail_report_load(dir, &r, &err), 0);
	assert_int_equal(r.nfindings, 1);
	assert_string_equal(r.findings[0], "ddp: best speedup 5.17x at n = 8.");
	amd_mail_report_free(&r);

	put("summary.md", "# Title\n\nOne paragraph\nover two lines.\n\nAnother.\n\n# Next\ntext\n");
	assert_int_equal(amd_mail_report_load(dir, &r, &err), 0);
	assert_int_equal(r.nfindings, 2);
	assert_string_equal(r.findings[0], "One paragraph over two lines.");
	assert_string_equal(r.findings[1], "Another.");
	amd_mail_report_free(&r);
}

static void test_report_json(void **state)
{
	struct amd_mail_report r;
	struct amd_err err = {{0}};
	put("report.pdf", "%PDF-1.5\n");
	put("summary.md", "# T\n- from the summary\n");
	put("report.json", "{\"sweep\": {\"name\": \"rc-1\"},"
			   " \"gate\": {\"result\": \"regression\", \"rows\": []},"
			   " \"findings\": [\"first\", {\"text\": \"second\"}, 3]}");
	assert_int_equal(amd_mail_report_load(dir, &r, &err), 0);
	assert_string_equal(r.source, "report.json");
	assert_string_equal(r.sweep, "rc-1");
	assert_string_equal(r.gate, "regression");
	assert_int_equal(r.nfindings, 2);
	assert_string_equal(r.findings[1], "second");
	amd_mail_report_free(&r);

	/* no "findings" in report.json: the summary's */
	put("report.json", "{\"sweep\": \"rc-2\", \"gate\": {\"result\": \"pass\", \"rows\": []}}");
	assert_int_equal(amd_mail_report_load(dir, &r, &err), 0);
	assert_string_equal(r.sweep, "rc-2");
	assert_string_equal(r.gate, "pass");
	assert_string_equal(r.source, "summary.md");
	assert_string_equal(r.findings[0], "from the summary");
	amd_mail_report_free(&r);

	/* the verdict from gate.json ('amdahl gate --json') when report.json has none */
	put("report.json", "{\"sweep\": \"rc-3\", \"findings\": []}");
	put("gate.json", "{\"rows\": [], \"result\": \"insufficient data\", \"exit\": 3}");
	assert_int_equal(amd_mail_report_load(dir, &r, &err), 0);
	assert_string_equal(r.gate, "insufficient data");
	assert_int_equal(r.nfindings, 0);
	assert_string_equal(r.source, "report.json");
	put("gate.json", "{\"rows\": []}");
	char *g = amd_path_join(dir, "gate.json");
	assert_int_equal(amd_mail_report_gate(&r, g, &err), -1);
	assert_non_null(strstr(err.msg, "no gate verdict"));
	free(g);
	amd_mail_report_free(&r);
	unlink_in_dir("gate.json");

	/* the gate's own verdict (gate.json) comes before report.json's, which
	 * report build decided without --require-all */
	put("report.json", "{\"sweep\": \"rc-4\", \"findings\": [],"
			   " \"gate\": {\"result\": \"insufficient\", \"rows\": [], \"summary\": {}}}");
	put("gate.json", "{\"rows\": [], \"summary\": {\"missing\": 2}, \"result\": \"FAIL\", \"exit\": 1}");
	assert_int_equal(amd_mail_report_load(dir, &r, &err), 0);
	assert_string_equal(r.gate, "FAIL");
	amd_mail_report_free(&r);
	unlink_in_dir("gate.json");
	assert_int_equal(amd_mail_report_load(dir, &r, &err), 0);
	assert_string_equal(r.gate, "insufficient");
	amd_mail_report_free(&r);

	/* schema_version 1 words are shown as the files before it said them:
	 * gate.json as the gate prints it, report.json in its old names */
	put("report.json", "{\"schema_version\": 1, \"sweep\": \"rc-6\", \"findings\": [],"
			   " \"gate\": {\"result\": \"insufficient_data\", \"rows\": [], \"summary\": {}}}");
	assert_int_equal(amd_mail_report_load(dir, &r, &err), 0);
	assert_string_equal(r.gate, "insufficient");
	amd_mail_report_free(&r);
	put("gate.json", "{\"schema_version\": 1, \"rows\": [], \"result\": \"regression\", \"exit\": 1}");
	assert_int_equal(amd_mail_report_load(dir, &r, &err), 0);
	assert_string_equal(r.gate, "FAIL");
	amd_mail_report_free(&r);
	put("gate.json", "{\"schema_version\": 1, \"rows\": [], \"result\": \"insufficient_data\", \"exit\": 3}");
	assert_int_equal(amd_mail_report_load(dir, &r, &err), 0);
	assert_string_equal(r.gate, "INSUFFICIENT DATA");
	amd_mail_report_free(&r);
	unlink_in_dir("gate.json");

	/* shapes no amdahl command writes carry no verdict: a plain string, an
	 * object without the comparison's rows */
	put("report.json", "{\"sweep\": \"rc-5\", \"findings\": [], \"gate\": \"pass\"}");
	assert_int_equal(amd_mail_report_load(dir, &r, &err), 0);
	assert_null(r.gate);
	amd_mail_report_free(&r);
	put("report.json", "{\"sweep\": \"rc-6\", \"findings\": [], \"gate\": {\"verdict\": \"pass\"}}");
	assert_int_equal(amd_mail_report_load(dir, &r, &err), 0);
	assert_null(r.gate);
	amd_mail_report_free(&r);

	/* an object finding does not end the list */
	put("report.json", "{\"findings\": [{\"text\": \"a\"}, \"b\", {\"text\": \"c\"}]}");
	assert_int_equal(amd_mail_report_load(dir, &r, &err), 0);
	assert_int_equal(r.nfindings, 3);
	assert_string_equal(r.findings[2], "c");
	amd_mail_report_free(&r);

	put("report.json", "{\"sweep\": \"rc\",\n \"findings\": [oops]}");
	assert_int_equal(amd_mail_report_load(dir, &r, &err), -1);
	assert_non_null(strstr(err.msg, "report.json: line 2 (byte 30)"));
}

static void test_which_pdf(void **state)
{
	struct amd_mail_report r;
	struct amd_err err = {{0}};
	assert_int_equal(amd_mail_report_load(dir, &r, &err), -1);
	assert_non_null(strstr(err.msg, "no PDF to attach"));
	put("scaling.PDF", "%PDF-1.5\n");
	assert_int_equal(amd_mail_report_load(dir, &r, &err), 0);
	assert_non_null(strstr(r.pdf_path, "scaling.PDF"));
	amd_mail_report_free(&r);
	put("energy.pdf", "%PDF-1.5\n");
	assert_int_equal(amd_mail_report_load(dir, &r, &err), -1);
	assert_non_null(strstr(err.msg, "2 PDF files"));
	put("report.pdf", "%PDF-1.5\n");
	assert_int_equal(amd_mail_report_load(dir, &r, &err), 0);
	assert_non_null(strstr(r.pdf_path, "/report.pdf"));
	amd_mail_report_free(&r);
	assert_int_equal(amd_mail_report_load("/nonexistent/amdahl", &r, &err), -1);
}

static void test_templates(void **state)
{
	struct amd_mail_report r;
	struct amd_err err = {{0}};
	put("report.pdf", "%PDF-1.5\n");
	put("report.json", "{\"sweep\": \"a<b\", \"findings\": [\"x & y\", \"\\\"q\\\"\"]}");
	assert_int_equal(amd_mail_report_load(dir, &r, &err), 0);
	setenv("AMDAHL_TEMPLATES", dir, 1);
	put("mail.txt", "{{subject}}|{{sweep}}|{{gate}}{{^gate}}none{{/gate}}|{{pdf}}\n"
			"{{#findings}}\n- {{text}}\n{{/findings}}\n");
	put("mail.html", "<p>{{sweep}}</p><ul>{{#findings}}<li>{{text}}</li>{{/findings}}</ul>");
	char *t = amd_mail_render("mail.txt", &r, "S", &err);
	assert_non_null(t);
	assert_string_equal(t, "S|a<b|none|report.pdf\n- x & y\n- \"q\"\n");
	free(t);
	char *h = amd_mail_render("mail.html", &r, "S", &err);
	assert_non_null(h);
	assert_string_equal(h, "<p>a&lt;b</p><ul><li>x &amp; y</li><li>&quot;q&quot;</li></ul>");
	free(h);
	put("mail.txt", "ok\n\n{{#findings}} {{text}}\n");
	assert_null(amd_mail_render("mail.txt", &r, "S", &err));
	assert_non_null(strstr(err.msg, "mail.txt: line 3: section 'findings' is not closed"));
	amd_mail_report_free(&r);
	unsetenv("AMDAHL_TEMPLATES");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_header_text),
		cmocka_unit_test(test_addresses),
		cmocka_unit_test(test_urls),
		cmocka_unit_test_setup_teardown(test_summary_fallback, setup, teardown),
		cmocka_unit_test_setup_teardown(test_report_json, setup, teardown),
		cmocka_unit_test_setup_teardown(test_which_pdf, setup, teardown),
		cmocka_unit_test_setup_teardown(test_templates, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
