/* yajl_floor.c — bench reference: yajl over one JSON file with no
 * callbacks, configured as the trace reader configures it, read in
 * 1 MiB chunks. What yajl alone costs on one thread is the floor of any
 * reader built on it: bench/trace.sh prints it next to the trace
 * reader and the whole ingest. Prints the bytes read; exit 1 on a parse
 * error. */
#include <stdio.h>

#include <yajl/yajl_parse.h>

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: yajl_floor FILE.json\n");
		return 2;
	}
	FILE *f = fopen(argv[1], "rb");
	if (!f) {
		perror(argv[1]);
		return 2;
	}
	static unsigned char buf[1 << 20];
	static const yajl_callbacks none;
	yajl_handle h = yajl_alloc(&none, NULL, NULL);
	yajl_config(h, yajl_dont_validate_strings, 1);
	size_t n, bytes = 0;
	int bad = 0;
	while (!bad && (n = fread(buf, 1, sizeof buf, f)) > 0) {
		bad = yajl_parse(h, buf, n) != yajl_status_ok;
		bytes += n;
	}
	bad = bad || ferror(f) || yajl_complete_parse(h) != yajl_status_ok;
	if (bad)
		fprintf(stderr, "%s: not JSON yajl accepts\n", argv[1]);
	yajl_free(h);
	fclose(f);
	printf("%zu\n", bytes);
	return bad;
}
