/* fuzz_layout.c — the report's layout loops on hostile text: the input's
 * lines are a table's rows (cells split at tabs, the first line the
 * headers) drawn by the PDF table renderer, and a chart whose legend,
 * title and bar labels are those cells. Every loop that fits text
 * (column widths, font shrinking, ellipsis) must end, whatever the
 * names: a hang is a libFuzzer timeout. */
#include "fuzz.h"
#include "pdf.h"

#include <cairo.h>

#define MAX_COLS 12
#define MAX_ROWS 40

/* Splits line (modified) at tabs into at most MAX_COLS cells. */
static size_t split(char *line, const char **cells)
{
	size_t n = 0;
	for (char *p = line; n < MAX_COLS;) {
		cells[n++] = p;
		char *tab = strchr(p, '\t');
		if (!tab)
			break;
		*tab = '\0';
		p = tab + 1;
	}
	return n;
}

static void draw(struct amd_table *t, struct chart *c)
{
	struct pdf d;
	struct amd_err err = {{0}};
	if (pdf_open(&d, fuzz_scratch(), "layout.pdf", "fuzz", "fuzz", &err) < 0)
		return;
	pdf_table_draw(&d, t, 8.5);
	pdf_chart(&d, c, 495, 260, "caption");
	pdf_close(&d, &err);
}

/* Pango's fonts go at exit, so LeakSanitizer sees only what the layout
 * code leaks (fontconfig's configuration: tests/lsan.supp). */
static void release_fonts(void)
{
	chart_text_release();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int registered;
	if (!registered++)
		atexit(release_fonts);
	char *text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	char *save = NULL, *line = strtok_r(text, "\n", &save);
	const char *head[MAX_COLS], *cells[MAX_COLS];
	size_t ncols = line ? split(line, head) : 0;
	struct amd_table *t = ncols ? amd_table_new(ncols, head) : NULL;
	struct chart *c = chart_new(CHART_BARS, ncols ? head[0] : "", "x", "y");
	chart_group(c, "1", NULL);
	double v = 1;
	for (int r = 0; t && r < MAX_ROWS && (line = strtok_r(NULL, "\n", &save)); r++) {
		size_t n = split(line, cells);
		for (size_t k = n; k < ncols; k++)
			cells[k] = "";
		amd_table_add(t, cells);
		if (r % 2)
			amd_table_right(t, (size_t)r % ncols);
		chart_bars(c, cells[0], r, 0, &v, NULL, NULL);
	}
	if (t)
		draw(t, c);
	amd_table_free(t);
	chart_free(c);
	free(text);
	return 0;
}
