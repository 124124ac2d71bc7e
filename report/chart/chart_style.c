/* chart_style.c — the palette (Okabe–Ito) as colours and as a Cairo
 * source; see chart_style.h (text is chart_text.c). */
#include "chart_style.h"

#include <math.h>
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

/* WCAG 2 relative luminance of an sRGB colour. */
static double luminance(const double rgb[3])
{
	double l[3];
	for (int k = 0; k < 3; k++)
		l[k] = rgb[k] <= 0.03928 ? rgb[k] / 12.92 : pow((rgb[k] + 0.055) / 1.055, 2.4);
	return 0.2126 * l[0] + 0.7152 * l[1] + 0.0722 * l[2];
}

double chart_contrast(const double a[3], const double b[3])
{
	double la = luminance(a), lb = luminance(b);
	return (fmax(la, lb) + 0.05) / (fmin(la, lb) + 0.05);
}

void chart_text_color_on(int i, double rgb[3])
{
	static const double white[3] = {1, 1, 1}, black[3] = {0, 0, 0};
	double bg[3];
	chart_color(i, bg);
	memcpy(rgb, chart_contrast(white, bg) >= chart_contrast(black, bg) ? white : black,
	       sizeof white);
}

void chart_set_color(cairo_t *cr, int i, double alpha)
{
	double rgb[3];
	chart_color(i, rgb);
	cairo_set_source_rgba(cr, rgb[0], rgb[1], rgb[2], alpha);
}
