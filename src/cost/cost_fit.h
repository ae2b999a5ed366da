/* cost_fit — least squares and the error measures of paper 000.
 *
 * Contract: pure functions on arrays; no I/O. The line needs at least two
 * distinct x values and returns -1 otherwise. The error measures and the
 * median return NaN for n == 0.
 */
#ifndef POLYBSP_COST_FIT_H
#define POLYBSP_COST_FIT_H

#include <stddef.h>

/* y ≈ a + b·x. */
int cost_fit_line(const double *x, const double *y, size_t n, double *a, double *b);
/* Non-negative least squares: coef[0..k) >= 0 minimising
 * Σ_i (y_i − Σ_j coef_j·X[i][j])², for k <= COST_NNLS_MAXCOLS columns, exactly (the
 * optimum is the unconstrained fit on the set of its non-zero coefficients, so
 * every subset is tried). Returns the sum of squared residuals. */
enum { COST_NNLS_MAXCOLS = 4 };
/* A squared relative error per point below which a smaller residual is rounding,
 * not a better fit (relative errors of 1e-6, far below any timing noise). */
#define COST_FIT_NEGLIGIBLE 1e-12
double cost_fit_nnls(const double (*X)[COST_NNLS_MAXCOLS], const double *y, size_t n, int k,
                     double *coef);
/* MaxErr = 100 · max_i |t_i − model| / min_i t_i. */
double cost_maxerr(const double *t, size_t n, double model);
/* AvErr = 100 · (Σ|t_i − model| / n) / (Σ t_i / n). */
double cost_averr(const double *t, size_t n, double model);
double cost_median(double *v, size_t n); /* sorts v */
/* Sorts v[0..n) in ascending order (NaNs anywhere: qsort's order is then unspecified). */
void cost_sort(double *v, size_t n);

#endif
