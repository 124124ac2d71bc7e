/* test_selector.c — the run selector without a store: parsing (keys,
 * operators, numbers, dates, statuses, the errors and the closest key
 * they name), which values satisfy a term, and the strategy a selector
 * names. Dates' milliseconds were computed independently with
 *   /usr/bin/python3 -c "import datetime as d; print(d.datetime(2026,1,31,
 *     12,30,tzinfo=d.timezone.utc).timestamp())"   -> 1769862600.0 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "selector.h"
#include "sweep_keys.h"

static struct amd_selector *parse_ok(const char *text)
{
	struct amd_err err = {{0}};
	struct amd_selector *s = NULL;
	int rc = amd_selector_parse(text, &s, &err);
	if (rc != 0)
		fail_msg("'%s': %s", text, err.msg);
	return s;
}

static void parse_fails(const char *text, const char *needle)
{
	struct amd_err err = {{0}};
	struct amd_selector *s = NULL;
	assert_int_equal(amd_selector_parse(text, &s, &err), -1);
	assert_null(s);
	if (!strstr(err.msg, needle))
		fail_msg("'%s': '%s' lacks '%s'", text, err.msg, needle);
}

static void test_terms(void **state)
{
	(void)state;
	struct amd_selector *s = parse_ok(" sweep=nightly , param.lr>=0.01,tag.git_commit~ab*,n!=4");
	assert_int_equal(s->nterms, 4);
	assert_int_equal(s->terms[0].key, AMD_SEL_SWEEP);
	assert_int_equal(s->terms[0].op, AMD_SEL_EQ);
	assert_string_equal(s->terms[0].value, "nightly");
	assert_int_equal(s->terms[1].key, AMD_SEL_PARAM);
	assert_string_equal(s->terms[1].name, "lr");
	assert_int_equal(s->terms[1].op, AMD_SEL_GE);
	assert_true(s->terms[1].numeric);
	assert_true(s->terms[1].num == 0.01);
	assert_int_equal(s->terms[2].key, AMD_SEL_TAG);
	assert_string_equal(s->terms[2].name, "git_commit");
	assert_int_equal(s->terms[2].op, AMD_SEL_GLOB);
	assert_int_equal(s->terms[3].op, AMD_SEL_NE);
	assert_string_equal(amd_selector_eq(s, "sweep"), "nightly");
	assert_null(amd_selector_eq(s, "strategy"));
	amd_selector_free(s);
}

static void test_dates_and_status(void **state)
{
	(void)state;
	struct amd_selector *s = parse_ok("since=2026-01-31T12:30,until=2026-01-31,status=failed");
	assert_true(s->terms[0].num == 1769862600.0 * 1000);
	assert_true(s->terms[1].num == 1769817600.0 * 1000);
	assert_string_equal(s->terms[2].value, "FAILED");
	assert_true(amd_sel_term_holds(&s->terms[0], "1769862600000"));
	assert_false(amd_sel_term_holds(&s->terms[0], "1769862599999"));
	assert_true(amd_sel_term_holds(&s->terms[1], "1769817599999"));
	assert_false(amd_sel_term_holds(&s->terms[1], "1769817600000"));
	assert_true(amd_sel_term_holds(&s->terms[2], "FAILED"));
	amd_selector_free(s);
}

static void test_holds(void **state)
{
	(void)state;
	struct amd_selector *s = parse_ok("n=8,param.x<2.5,tag.b~rel-*,strategy!=ddp,param.y=abc");
	assert_true(amd_sel_term_holds(&s->terms[0], "8"));
	assert_true(amd_sel_term_holds(&s->terms[0], "8.0")); /* numbers as numbers */
	assert_false(amd_sel_term_holds(&s->terms[0], "80"));
	assert_false(amd_sel_term_holds(&s->terms[0], NULL)); /* no value: no match */
	assert_true(amd_sel_term_holds(&s->terms[1], "2.4"));
	assert_false(amd_sel_term_holds(&s->terms[1], "2.5"));
	assert_false(amd_sel_term_holds(&s->terms[1], "two")); /* not a number */
	assert_true(amd_sel_term_holds(&s->terms[2], "rel-2026"));
	assert_false(amd_sel_term_holds(&s->terms[2], "main"));
	assert_true(amd_sel_term_holds(&s->terms[3], "fsdp"));
	assert_false(amd_sel_term_holds(&s->terms[3], "ddp"));
	assert_false(amd_sel_term_holds(&s->terms[3], NULL));
	assert_true(amd_sel_term_holds(&s->terms[4], "abc"));
	assert_false(amd_sel_term_holds(&s->terms[4], "ABC"));
	amd_selector_free(s);
}

static void test_errors(void **state)
{
	(void)state;
	parse_fails("stratgey=ddp", "closest: 'strategy'");
	parse_fails("swep=a", "closest: 'sweep'");
	parse_fails("n>four", "'four' is not a number");
	parse_fails("param.lr>", "has no value");
	parse_fails("=3", "is not KEY OP VALUE");
	parse_fails("nodes", "is not KEY OP VALUE");
	parse_fails("n=1,", "empty term");
	parse_fails("since>2026-01-01", "since and until take '='");
	parse_fails("since=yesterday", "is not a date");
	parse_fails("status=DONE", "no status 'DONE'");
	parse_fails("param.=3", "unknown key 'param.'");
	assert_true(amd_selector_is("param.x=1"));
	assert_true(amd_selector_is("n>4"));
	assert_false(amd_selector_is("cpu-strong-scaling"));
	assert_false(amd_selector_is(NULL));
}

/* The closest-name rule: within a third of the word's length plus two
 * edits, and some letter kept in place; nearest first, at most three. */
static void closest_is(const char *word, const char *const *cand, size_t n, const char *want)
{
	char near[256];
	amd_names_closest(word, cand, n, near, sizeof near);
	assert_string_equal(near, want);
}

static void test_closest(void **state)
{
	(void)state;
	const char *const options[] = {"run", "sweep", "help", "rank", "rate"};
	closest_is("zzz", options, 5, "");
	closest_is("rnu", options, 5, "; closest: 'run', 'rank', 'rate'");
	closest_is("rn", options, 5, "; closest: 'run', 'rank'");
	const char *const strategies[] = {"ddp", "fsdp"};
	closest_is("dpp", strategies, 2, "; closest: 'ddp', 'fsdp'");
	closest_is("xyz", strategies, 2, "");
	const char *const commands[] = {"stats", "gate", "runs", "keys"};
	closest_is("statz", commands, 4, "; closest: 'stats', 'gate'");
	closest_is("xyzzy", commands, 4, "");
	size_t pick[3];
	assert_int_equal(amd_names_nearest("gaet", commands, 4, pick, 3), 1);
	assert_int_equal(pick[0], 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_terms),
		cmocka_unit_test(test_dates_and_status),
		cmocka_unit_test(test_holds),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_closest),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
