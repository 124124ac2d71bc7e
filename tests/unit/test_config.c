/* test_config.c — core/config: amdahl.yaml lookups by dotted path,
 * numbers, lists, defaults, and the errors for missing, broken,
 * non-map, too deep and aliased documents. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "file.h"

static char dir[64];

static char *write_yaml(const char *text)
{
	char *path = amd_path_join(dir, "amdahl.yaml");
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	return path;
}

static void lookups(void **state)
{
	char *path = write_yaml("gate:\n  threshold: 0.07\n  alpha: 5e-2\n"
				"  metrics: [epoch_time_s, throughput]\n"
				"metrics:\n  epoch_time_s:\n    direction: lower\n"
				"smtp: {host: smtp.example.org, port: 587}\n"
				"title: 'a: quoted, string'\n");
	struct amd_config cfg;
	struct amd_err err = {{0}};
	assert_int_equal(amd_config_load(path, 1, &cfg, &err), 0);
	assert_true(amd_config_num(&cfg, "gate.threshold", 1) == 0.07);
	assert_true(amd_config_num(&cfg, "gate.alpha", 1) == 0.05);
	assert_string_equal(amd_config_str(&cfg, "metrics.epoch_time_s.direction", NULL), "lower");
	assert_string_equal(amd_config_str(&cfg, "smtp.host", NULL), "smtp.example.org");
	assert_true(amd_config_num(&cfg, "smtp.port", 0) == 587);
	assert_string_equal(amd_config_str(&cfg, "title", NULL), "a: quoted, string");
	/* defaults: missing keys, a map asked for as a string, text as a number */
	assert_string_equal(amd_config_str(&cfg, "gate.nothing", "dflt"), "dflt");
	assert_string_equal(amd_config_str(&cfg, "metrics", "dflt"), "dflt");
	assert_true(amd_config_num(&cfg, "smtp.host", 3.5) == 3.5);
	assert_null(amd_config_get(&cfg, "gate.threshold.deeper"));
	const struct amd_node *n = amd_node_first(amd_config_get(&cfg, "gate.metrics"));
	assert_non_null(n);
	assert_string_equal(n->value, "epoch_time_s");
	assert_non_null(n->next);
	assert_string_equal(n->next->value, "throughput");
	assert_null(n->next->next);
	assert_string_equal(cfg.path, path);
	amd_config_free(&cfg);
	free(path);
}

static void missing_file(void **state)
{
	struct amd_config cfg;
	struct amd_err err = {{0}};
	char *path = amd_path_join(dir, "none.yaml");
	assert_int_equal(amd_config_load(path, 0, &cfg, &err), 0); /* optional */
	assert_null(cfg.root);
	assert_string_equal(amd_config_str(&cfg, "gate.threshold", "x"), "x");
	assert_true(amd_config_num(NULL, "gate.threshold", 2) == 2);
	assert_int_equal(amd_config_load(path, 1, &cfg, &err), -1); /* named: required */
	assert_non_null(strstr(err.msg, path));
	free(path);
}

static void expect_error(const char *text, const char *needle)
{
	char *path = write_yaml(text);
	struct amd_config cfg;
	struct amd_err err = {{0}};
	assert_int_equal(amd_config_load(path, 1, &cfg, &err), -1);
	assert_null(cfg.root);
	if (!strstr(err.msg, path) || !strstr(err.msg, needle))
		fail_msg("error '%s' lacks '%s'", err.msg, needle);
	assert_null(strchr(err.msg, '\n'));
	free(path);
}

static void errors(void **state)
{
	expect_error("gate:\n  threshold: [0.05\nsmtp: x\n", "line 3 column");
	expect_error("- a\n- b\n", "line 1: expected a map of settings");
	expect_error("just text\n", "expected a map of settings");
	expect_error("a: &x 1\nb: *x\n", "line 2: aliases are not supported");
	expect_error("? [a, b]\n: c\n", "line 1: map keys must be plain text");
	char deep[400] = "a: ";
	for (int i = 0; i < 80; i++)
		strcat(deep, "[");
	expect_error(deep, "line 1: nested too deeply");
}

static void empty_file(void **state)
{
	char *path = write_yaml("# only a comment\n");
	struct amd_config cfg;
	struct amd_err err = {{0}};
	assert_int_equal(amd_config_load(path, 1, &cfg, &err), 0);
	assert_null(cfg.root);
	assert_string_equal(amd_config_str(&cfg, "gate.threshold", "d"), "d");
	amd_config_free(&cfg);
	free(path);
}

int main(void)
{
	snprintf(dir, sizeof dir, "/tmp/amdahl-test-config-XXXXXX");
	if (!mkdtemp(dir))
		return 1;
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(lookups),
		cmocka_unit_test(missing_file),
		cmocka_unit_test(errors),
		cmocka_unit_test(empty_file),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		return 1;
	return rc;
}
