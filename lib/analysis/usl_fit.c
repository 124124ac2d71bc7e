/* usl_fit.c — the Universal Scalability Law fit X(n) = γn / (1 + α(n−1)
 * + βn(n−1)) under α, β ≥ 0 (see stats.h): the unconstrained least
 * squares first; when its α or β is negative (not physical: a negative
 * contention or coherency cost), the best fit on the faces α = 0, β = 0
 * and α = β = 0, each solved with the held parameter fixed at 0, and the
 * reason no peak is predicted in words. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_multifit_nlinear.h>

#include "stats.h"

/* The data and which of (α, β, γ) are held at 0 (held[k]); np free. */
struct usl_data {
	const double *n, *x;
	size_t m;
	int held[3];
	size_t np;
};

/* One face's solution: the three parameters, its sum of squares, its
 * iterations; status 0, -1 did not converge, -2 out of memory. */
struct usl_sol {
	double p[3], sse;
	size_t iterations;
	int status;
	int gsl_status;
};

static void expand(const struct usl_data *d, const gsl_vector *v, double full[3])
{
	for (size_t k = 0, j = 0; k < 3; k++)
		full[k] = d->held[k] ? 0 : gsl_vector_get(v, j++);
}

static double den_at(const double q[3], double n)
{
	return 1 + q[0] * (n - 1) + q[1] * n * (n - 1);
}

static int usl_f(const gsl_vector *p, void *data, gsl_vector *f)
{
	const struct usl_data *d = data;
	double q[3];
	expand(d, p, q);
	for (size_t i = 0; i < d->m; i++)
		gsl_vector_set(f, i, q[2] * d->n[i] / den_at(q, d->n[i]) - d->x[i]);
	return GSL_SUCCESS;
}

static int usl_df(const gsl_vector *p, void *data, gsl_matrix *J)
{
	const struct usl_data *d = data;
	double q[3];
	expand(d, p, q);
	for (size_t i = 0; i < d->m; i++) {
		double n = d->n[i], den = den_at(q, n);
		double col[3] = {-q[2] * n * (n - 1) / (den * den), -q[2] * n * n * (n - 1) / (den * den),
				 n / den};
		for (size_t k = 0, j = 0; k < 3; k++)
			if (!d->held[k])
				gsl_matrix_set(J, i, j++, col[k]);
	}
	return GSL_SUCCESS;
}

/* Starting point: γ from the smallest n, then the free ones of α and β by
 * linear least squares of nγ/X − 1 = α(n−1) + βn(n−1); on a face a
 * negative start is set to 0. Written to v (free parameters only). */
static void usl_start(const struct usl_data *d, gsl_vector *v)
{
	size_t i0 = 0;
	for (size_t i = 1; i < d->m; i++)
		if (d->n[i] < d->n[i0])
			i0 = i;
	double ga = d->x[i0] / d->n[i0];
	double suu = 0, suv = 0, svv = 0, suy = 0, svy = 0;
	for (size_t i = 0; i < d->m; i++) {
		double n = d->n[i], u = n - 1, w = n * (n - 1), y = n * ga / d->x[i] - 1;
		suu += u * u;
		suv += u * w;
		svv += w * w;
		suy += u * y;
		svy += w * y;
	}
	double det = suu * svv - suv * suv, q[3] = {0, 0, ga};
	if (!d->held[0] && !d->held[1]) {
		q[0] = det != 0 ? (suy * svv - svy * suv) / det : 0;
		q[1] = det != 0 ? (svy * suu - suy * suv) / det : 0;
	} else if (!d->held[0])
		q[0] = suu > 0 && suy > 0 ? suy / suu : 0;
	else if (!d->held[1])
		q[1] = svv > 0 && svy > 0 ? svy / svv : 0;
	for (size_t k = 0, j = 0; k < 3; k++)
		if (!d->held[k])
			gsl_vector_set(v, j++, q[k]);
}

static double sumsq(const gsl_vector *f)
{
	double s;
	gsl_blas_ddot(f, f, &s);
	return s;
}

/* Gauss–Newton steps (QR least squares of J dx = -f) from the trust-region
 * solution until the step is at rounding level: the driver stops on the
 * step size, which leaves the parameters accurate to about the square
 * root of the tolerance only. A step that raises the sum of squares
 * beyond rounding (1e-12 relative) is refused. -1 when out of memory
 * (GSL's error handler is off here: amd_usl_fit). */
static int usl_polish(struct usl_data *d, gsl_vector *p)
{
	size_t np = d->np;
	gsl_matrix *J = gsl_matrix_alloc(d->m, np);
	gsl_vector *f = gsl_vector_alloc(d->m), *f2 = gsl_vector_alloc(d->m);
	gsl_vector *tau = gsl_vector_alloc(np), *dx = gsl_vector_alloc(np);
	gsl_vector *res = gsl_vector_alloc(d->m), *q = gsl_vector_alloc(np);
	int rc = J && f && f2 && tau && dx && res && q ? 0 : -1;
	for (int it = 0; rc == 0 && it < 50; it++) {
		usl_f(p, d, f);
		usl_df(p, d, J);
		if (gsl_linalg_QR_decomp(J, tau) || gsl_linalg_QR_lssolve(J, tau, f, dx, res))
			break;
		gsl_vector_memcpy(q, p);
		gsl_vector_sub(q, dx);
		usl_f(q, d, f2);
		if (!(sumsq(f2) <= sumsq(f) * (1 + 1e-12)))
			break;
		gsl_vector_memcpy(p, q);
		double big = 0;
		for (size_t i = 0; i < np; i++) {
			double r = fabs(gsl_vector_get(dx, i)) / (fabs(gsl_vector_get(p, i)) + 1e-300);
			big = r > big ? r : big;
		}
		if (big < 1e-15)
			break;
	}
	gsl_matrix_free(J);
	gsl_vector_free(f);
	gsl_vector_free(f2);
	gsl_vector_free(tau);
	gsl_vector_free(dx);
	gsl_vector_free(res);
	gsl_vector_free(q);
	return rc;
}

/* The sum of squared residuals of the full parameters q. */
static double usl_sse(const struct usl_data *d, const double q[3])
{
	double s = 0;
	for (size_t i = 0; i < d->m; i++) {
		double r = q[2] * d->n[i] / den_at(q, d->n[i]) - d->x[i];
		s += r * r;
	}
	return s;
}

/* Whether p fits the data to rounding (residuals below 1e-10 of the
 * data's size): data on an exact USL curve, a perfectly scaling sweep
 * (X = γn: α = β = 0) or a flat one (α = 1, β = 0), leave the driver
 * taking ever smaller steps towards a zero sum of squares until it runs
 * out of iterations; the point it stopped at is the fit. */
static int exact_fit(struct usl_data *d, const gsl_vector *p)
{
	double q[3], scale = 0;
	expand(d, p, q);
	for (size_t i = 0; i < d->m; i++)
		scale += d->x[i] * d->x[i];
	double sse = usl_sse(d, q);
	return isfinite(sse) && scale > 0 && sse <= 1e-20 * scale;
}

/* α or β within rounding of 0 (|v| below 1e-12) is 0: an exact fit at
 * the bound lands a rounding error either side of it. */
static void snap_zero(double q[3])
{
	for (int k = 0; k < 2; k++)
		if (fabs(q[k]) < 1e-12)
			q[k] = 0;
}

/* Solves one face (d->held set); the result in *out. */
static void usl_solve(struct usl_data *d, struct usl_sol *out)
{
	memset(out, 0, sizeof *out);
	d->np = 3 - (size_t)(d->held[0] + d->held[1] + d->held[2]);
	gsl_multifit_nlinear_parameters fp = gsl_multifit_nlinear_default_parameters();
	gsl_multifit_nlinear_workspace *w =
		gsl_multifit_nlinear_alloc(gsl_multifit_nlinear_trust, &fp, d->m, d->np);
	gsl_vector *x0 = gsl_vector_alloc(d->np);
	if (!w || !x0) {
		gsl_multifit_nlinear_free(w);
		gsl_vector_free(x0);
		out->status = -2;
		return;
	}
	gsl_multifit_nlinear_fdf fdf = {.f = usl_f, .df = usl_df, .n = d->m, .p = d->np, .params = d};
	usl_start(d, x0);
	gsl_multifit_nlinear_init(x0, &fdf, w);
	int info, st = gsl_multifit_nlinear_driver(500, 1e-14, 1e-14, 0, NULL, NULL, &info, w);
	gsl_vector *p = gsl_multifit_nlinear_position(w);
	if (st != GSL_SUCCESS && exact_fit(d, p))
		st = GSL_SUCCESS;
	if (st == GSL_SUCCESS && usl_polish(d, p) < 0)
		out->status = -2;
	expand(d, p, out->p);
	snap_zero(out->p);
	out->iterations = gsl_multifit_nlinear_niter(w);
	out->gsl_status = st;
	gsl_multifit_nlinear_free(w);
	gsl_vector_free(x0);
	if (out->status == 0 && (st != GSL_SUCCESS || !isfinite(out->p[0] + out->p[1] + out->p[2])))
		out->status = -1;
	out->sse = out->status == 0 ? usl_sse(d, out->p) : INFINITY;
}

static int feasible(const struct usl_sol *s)
{
	return s->status == 0 && s->p[0] >= 0 && s->p[1] >= 0 && s->p[2] > 0;
}

/* The best feasible fit on the faces α = 0, β = 0 and α = β = 0 into
 * *best (status -1 when none is feasible, -2 out of memory). */
static void usl_on_bounds(struct usl_data *d, struct usl_sol *best)
{
	static const int faces[3][3] = {{1, 0, 0}, {0, 1, 0}, {1, 1, 0}};
	best->status = -1;
	best->sse = INFINITY;
	for (int f = 0; f < 3; f++) {
		memcpy(d->held, faces[f], sizeof d->held);
		struct usl_sol s;
		usl_solve(d, &s);
		if (s.status == -2) {
			best->status = -2;
			return;
		}
		if (feasible(&s) && s.sse < best->sse)
			*best = s;
	}
}

/* n_peak, or why there is none. */
static void usl_peak(struct amd_usl *out)
{
	double al = out->alpha, be = out->beta;
	if (out->bounded && (out->free_alpha < 0 || out->free_beta < 0))
		snprintf(out->peak_why, sizeof out->peak_why,
			 "not physical unconstrained (%s = %.3g < 0): no peak predicted",
			 out->free_alpha < 0 ? "α" : "β",
			 out->free_alpha < 0 ? out->free_alpha : out->free_beta);
	else if (out->bounded && isfinite(out->free_alpha))
		snprintf(out->peak_why, sizeof out->peak_why,
			 "not physical unconstrained (γ ≤ 0): no peak predicted");
	else if (out->bounded)
		snprintf(out->peak_why, sizeof out->peak_why,
			 "the unconstrained fit did not converge: no peak predicted");
	else if (fabs(al - 1) < 1e-9 && !(be > 0))
		snprintf(out->peak_why, sizeof out->peak_why,
			 "no peak: α = 1, β = 0, throughput is the same at every n");
	else if (al >= 1)
		snprintf(out->peak_why, sizeof out->peak_why,
			 "no peak: α = %.3g ≥ 1, throughput falls with n from n = 1 on", al);
	else if (!(be > 0))
		snprintf(out->peak_why, sizeof out->peak_why,
			 "no peak (β = 0: throughput rises with n throughout)");
	else
		out->n_peak = sqrt((1 - al) / be);
}

/* Fits the k points (n, x) into *out; -1 when no fit. */
static int usl_fit_points(const double *n, const double *x, size_t k, struct amd_usl *out)
{
	struct usl_data d = {n, x, k, {0, 0, 0}, 3};
	struct usl_sol s;
	usl_solve(&d, &s);
	out->free_alpha = s.status == 0 ? s.p[0] : NAN;
	out->free_beta = s.status == 0 ? s.p[1] : NAN;
	if (s.status != -2 && !feasible(&s)) {
		int first = s.gsl_status;
		usl_on_bounds(&d, &s);
		out->bounded = 1;
		if (s.status == -1)
			snprintf(out->why, sizeof out->why, "did not converge: %s", gsl_strerror(first));
	} else if (s.status == -1)
		snprintf(out->why, sizeof out->why, "did not converge: %s", gsl_strerror(s.gsl_status));
	if (s.status == -2) {
		snprintf(out->why, sizeof out->why, "out of memory");
		out->oom = 1;
	}
	out->alpha = s.p[0];
	out->beta = s.p[1];
	out->gamma = s.p[2];
	out->iterations = s.iterations;
	return s.status == 0 ? 0 : -1;
}

int amd_usl_fit(const double *n, const double *x, size_t m, struct amd_usl *out)
{
	memset(out, 0, sizeof *out);
	out->alpha = out->beta = out->gamma = out->n_peak = NAN;
	out->free_alpha = out->free_beta = NAN;
	double *nv = malloc((m ? m : 1) * sizeof *nv), *xv = malloc((m ? m : 1) * sizeof *xv);
	size_t k = 0;
	for (size_t i = 0; nv && xv && i < m; i++)
		if (isfinite(x[i]) && x[i] > 0 && n[i] > 0) {
			nv[k] = n[i];
			xv[k++] = x[i];
		}
	int rc = -1;
	size_t dn = nv ? amd_distinct_count(nv, k) : 0;
	if (!nv || !xv) {
		snprintf(out->why, sizeof out->why, "out of memory");
		out->oom = 1;
	} else if (dn < 4)
		snprintf(out->why, sizeof out->why,
			 "USL needs at least 4 distinct n (3 parameters), have %zu", dn);
	else {
		gsl_error_handler_t *old = gsl_set_error_handler_off();
		rc = usl_fit_points(nv, xv, k, out);
		gsl_set_error_handler(old);
	}
	if (rc == 0) {
		out->ok = 1;
		usl_peak(out);
	} else
		out->alpha = out->beta = out->gamma = NAN;
	free(nv);
	free(xv);
	return rc;
}
