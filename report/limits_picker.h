/* limits_picker.h — report.html's picker of any region of a strategy's
 * "What limits scaling" (issue 35): every region's measured means, model,
 * prediction band and predictions from the same amd_scaling the PDF's
 * chart draws, as JSON the page's script draws from, and a chart of the
 * largest region drawn by the engine on axes that hold them all (what
 * the page shows first, and all it shows without JavaScript). */
#ifndef AMD_REPORT_LIMITS_PICKER_H
#define AMD_REPORT_LIMITS_PICKER_H

#include "charts.h"
#include "scaling.h"

/* Samples of each region's model and band in the JSON. */
#define REPORT_PICK_POINTS 20

/* Sets rc->pick and rc->pick_json for strategy s; -1 out of memory. */
int report_limits_picker(struct report_chart *rc, const struct amd_scaling_strategy *s,
			 double level);

#endif
