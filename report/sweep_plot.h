/* sweep_plot.h — a sweep's statistics laid out on charts, shared by the
 * chart builders: the XY chart over the sweep's axis (log2 when it
 * spans a factor of four), one line per strategy, bars per axis value
 * or per configuration, the marker of a strategy and the subtitle's
 * words on intervals. Out of memory marks the chart failed
 * (report_chart_add then refuses it). */
#ifndef AMD_REPORT_SWEEP_PLOT_H
#define AMD_REPORT_SWEEP_PLOT_H

#include <stddef.h>

#include "analysis.h"
#include "chart.h"
#include "sweep_facts.h"

/* 1 when the axis starts above 0 and spans 3.9× or more: a log2 axis. */
int plot_log2(const struct amd_sweep_stats *s);
/* An XY chart over the sweep's axis. */
struct chart *plot_xy(const struct amd_sweep_stats *s, const char *title, const char *ylabel);
/* The marker of strategy i. */
enum chart_marker plot_marker(size_t i);

/* One line per strategy through its points' v × scale (points without
 * a finite v left out), with its interval (× scale) as lo/hi when
 * with_ci; style adds to CS_LINE | CS_POINTS. Returns the lines drawn. */
int plot_strategy_lines(struct chart *c, const struct amd_sweep_stats *s,
			enum amd_point_value v, double scale, int with_ci, unsigned style);
/* The subtitle's words on the intervals of v ("bars: 95% bootstrap CI",
 * or their exact coverage when they have their own: "bars: 75% CI (its
 * coverage at these runs)"; what naming how they are drawn). */
void plot_ci_note(const struct amd_sweep_stats *s, enum amd_point_value v, const char *what,
		  char *buf, size_t n);
/* A caption's words on the intervals of v, of the statistic what ("the
 * 95% bootstrap interval of the median", or its exact coverage). */
void plot_ci_caption(const struct amd_sweep_stats *s, enum amd_point_value v, const char *what,
		     char *buf, size_t n);

/* Bars: a group per axis value, a bar per strategy of v × scale. */
struct chart *plot_grouped(const struct amd_sweep_stats *s, const char *title,
			   const char *ylabel, enum amd_point_value v, double scale);
/* Stacked bars from 0 to 100: a group per configuration (axis value,
 * strategy below); *ngroups their number. */
struct chart *plot_per_config(const struct amd_sweep_stats *s, const char *title,
			      const char *ylabel, size_t *ngroups);

#endif
