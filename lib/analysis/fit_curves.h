/* fit_curves.h — the scaling models of a strategy as curves to draw:
 * ideal speedup n/b, the Amdahl fit's speedup (or efficiency) and the
 * USL fit's rate as a speedup X(n)/X(b), each sampled at m points
 * spaced evenly in log n from the base b to nmax. */
#ifndef AMD_FIT_CURVES_H
#define AMD_FIT_CURVES_H

#include <stddef.h>

#include "analysis.h"

/* Points per curve the report draws. */
#define AMD_CURVE_POINTS 64

/* Ideal speedup S = n/base. */
void amd_ideal_curve(double base, double nmax, double *x, double *y, size_t m);

/* The Amdahl fit T(n) = A + B/n as speedup T(b)/T(n), or with
 * efficiency as E(n) = S(n)·b/n (a fraction). 0 (nothing written) when
 * the strategy has no fit, fewer than 2 points, or a serial fraction
 * outside [0, 1) (B < 0: slower with n). */
int amd_amdahl_curve(const struct amd_strategy_stats *st, double nmax, int efficiency,
		     double *x, double *y, size_t m);

/* The USL fit X(n) = γn / (1 + α(n−1) + βn(n−1)) of the rate 1/T as
 * X(n)/X(b); NAN where it is not positive. 0 (nothing written) without
 * a fit with finite α and β over 3 or more points. */
int amd_usl_curve(const struct amd_strategy_stats *st, double nmax, double *x, double *y,
		  size_t m);

#endif
