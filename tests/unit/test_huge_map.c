/* test_huge_map.c — regions in transparent huge pages (lib/core/huge_map.h):
 * aligned to 2 MB, zeroed and writable end to end, refused for a length
 * that is not a whole number of huge pages; whether the kernel gives huge
 * pages on request agrees with its setting read here. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "huge_map.h"

static void aligned_zeroed_writable(void **state)
{
	(void)state;
	size_t len = 2 * AMD_HUGE_PAGE;
	unsigned char *p = amd_huge_alloc(len);
	assert_non_null(p);
	assert_int_equal((uintptr_t)p % AMD_HUGE_PAGE, 0);
	for (size_t i = 0; i < len; i += 4096)
		assert_int_equal(p[i], 0);
	assert_int_equal(p[len - 1], 0);
	memset(p, 0xab, len); /* the whole length is ours */
	assert_int_equal(p[len - 1], 0xab);
	amd_huge_free(p, len);
	amd_huge_free(NULL, len);
}

static void only_whole_huge_pages(void **state)
{
	(void)state;
	assert_null(amd_huge_alloc(0));
	assert_null(amd_huge_alloc(AMD_HUGE_PAGE + 4096));
}

static void agrees_with_the_kernel_setting(void **state)
{
	(void)state;
	char line[128] = "";
	FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
	int want = 0;
	if (f) {
		if (fgets(line, sizeof line, f))
			want = strstr(line, "[never]") == NULL && strchr(line, '[') != NULL;
		fclose(f);
	}
	assert_int_equal(amd_huge_pages_on_request(), want);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(aligned_zeroed_writable),
		cmocka_unit_test(only_whole_huge_pages),
		cmocka_unit_test(agrees_with_the_kernel_setting),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
