/* chart_style.c — the palette (Okabe–Ito) as colours and as a Cairo
 * source; see chart_style.h (text is chart_text.c). */
#include "chart_style.h"

#include <string.h>

#include "chart.h"

static const double palette[CHART_PALETTE_SIZE][3] = {
	{0x00 / 255.0, 0x72 / 255.0, 0xB2 / 255.0}, /* blue */
	{0xE6 / 255.0, 0x9F / 255.0, 0x00 / 255.0}, /* orange */
	{0x00 / 255.0, 0x9E / 255.0, 0x73 / 255.0}, /* bluish green */
	{0xD5 / 255.0, 0x5E / 255.0, 0x00 / 255.0}, /* vermillion */
	{0x56 / 255.0, 0xB4 / 255.0, 0xE9 / 255.0}, /* sky blue */
	{0xCC / 255.0, 0x79 / 255.0, 0xA7 / 255.0}, /* reddish purple */
	{0xF0 / 255.0, 0xE4 / 255.0, 0x42 / 255.0}, /* yellow */
};

void chart_color(int i, double rgb[3])
{
	if (i < 0) {
		rgb[0] = rgb[1] = rgb[2] = 0.45;
		return;
	}
	memcpy(rgb, palette[i % CHART_PALETTE_SIZE], sizeof palette[0]);
}

void chart_set_color(cairo_t *cr, int i, double alpha)
{
	double rgb[3];
	chart_color(i, rgb);
	cairo_set_source_rgba(cr, rgb[0], rgb[1], rgb[2], alpha);
}
