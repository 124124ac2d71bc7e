/* fuzz_format.c — any file format by name: AMD_FUZZ_FORMAT names a row
 * of lib/ingest/formats.c; the input becomes one file that is detected,
 * hashed and parsed into a counting sink. tests/fuzz/formats.txt lists
 * the formats run.sh drives this way (one line each, with its seeds). */
#include "fuzz.h"

static const struct amd_format *fmt;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *name = getenv("AMD_FUZZ_FORMAT");
	fmt = name ? amd_format_by_name(name) : NULL;
	if (!fmt || fmt->is_dir) {
		fprintf(stderr, "fuzz_format: set AMD_FUZZ_FORMAT to a file format of"
				" 'amdahl ingest --formats' (got %s)\n", name ? name : "nothing");
		exit(2);
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *path = fuzz_write(fuzz_scratch(), "input", data, size);
	fuzz_parse_unit(fmt, path);
	free(path);
	return 0;
}
