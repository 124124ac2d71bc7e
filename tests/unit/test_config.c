/* test_config.c — core/config: the typed configuration (every setting
 * the code reads, as written: numbers that are and are not, directions,
 * lists, mail addresses), amdahl.yaml lookups by dotted path, numbers,
 * lists, defaults, and the errors for missing, broken, non-map, too deep
 * and aliased documents. */
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

static void typed(void **state)
{
	char *path = write_yaml("gate:\n  alpha: 0.01\n  threshold: lots\n"
				"  metrics:\n"
				"    gpu_energy_J: {direction: lower, threshold: 0.10}\n"
				"    step_ms: {direction: sideways, alpha: [1]}\n"
				"    loss: higher\n"
				"mail:\n  to: [a@x.org, b@x.org]\n  from: ci@x.org\n"
				"  timeout: 30\n  ssl_reqd: yes\n"
				"run:\n  n_params: [gpus, {x: 1}]\n  rank_params: none\n"
				"  per_node_params: [ranks_per_host]\n"
				"unknown: {kept: out}\n");
	struct amd_config cfg;
	struct amd_err err = {{0}};
	assert_int_equal(amd_config_load(path, 1, &cfg, &err), 0);
	const struct amd_cfg_gate *g = &cfg.gate;
	assert_true(g->alpha.set && g->alpha.ok && g->alpha.value == 0.01);
	assert_true(g->threshold.set && !g->threshold.ok); /* judged by its reader */
	assert_string_equal(g->threshold.text, "lots");
	assert_true(amd_cfg_num_or(&g->threshold, 0.05) == 0.05);
	assert_int_equal(g->nmetrics, 3);
	const struct amd_cfg_metric *m = amd_cfg_gate_metric(&cfg, "gpu_energy_J");
	assert_ptr_equal(m, &g->metrics[0]);
	assert_int_equal(m->direction, AMD_CFG_DIR_LOWER);
	assert_true(m->threshold.ok && m->threshold.value == 0.10 && !m->alpha.set);
	m = amd_cfg_gate_metric(&cfg, "step_ms");
	assert_int_equal(m->direction, AMD_CFG_DIR_BAD);
	assert_string_equal(m->direction_text, "sideways");
	assert_true(m->alpha.set && !m->alpha.ok && !m->alpha.text); /* not a scalar */
	m = amd_cfg_gate_metric(&cfg, "loss"); /* not a map: named, nothing set */
	assert_int_equal(m->direction, AMD_CFG_DIR_UNSET);
	assert_false(m->alpha.set || m->threshold.set);
	assert_null(amd_cfg_gate_metric(&cfg, "throughput"));
	assert_string_equal(cfg.mail.to, "a@x.org,b@x.org");
	assert_string_equal(cfg.mail.from, "ci@x.org");
	assert_null(cfg.mail.smtp);
	assert_true(amd_cfg_num_or(&cfg.mail.timeout, 300) == 30);
	assert_int_equal(cfg.mail.ssl_reqd, 1);
	assert_true(cfg.run.n_params.set && cfg.run.n_params.n == 2);
	assert_string_equal(cfg.run.n_params.items[0], "gpus");
	assert_string_equal(cfg.run.n_params.items[1], ""); /* not a name */
	assert_true(cfg.run.rank_params.set && cfg.run.rank_params.n == 0);
	assert_false(cfg.run.strategy_params.set);
	assert_true(cfg.run.per_node_params.set && cfg.run.per_node_params.n == 1);
	assert_string_equal(cfg.run.per_node_params.items[0], "ranks_per_host");
	assert_int_equal(cfg.nunknown, 1); /* per_node_params is a known key */
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
	assert_false(cfg.gate.alpha.set || cfg.mail.timeout.set || cfg.run.n_params.set);
	assert_true(cfg.gate.nmetrics == 0 && !cfg.mail.to && !cfg.path);
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
		cmocka_unit_test(typed),
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
