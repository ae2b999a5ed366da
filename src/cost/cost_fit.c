/* cost_fit — least squares and the error measures of paper 000 (see cost_fit.h).
 *
 * The fits work on deviations from the means: h-relation sizes reach millions of
 * bytes and times are microseconds, so the textbook normal equations (Σx², Σxy
 * on raw values) would lose most of the digits to cancellation.
 */
#include "cost/cost_fit.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static double mean(const double *v, size_t n)
{
    double s = 0;
    for (size_t i = 0; i < n; i++)
        s += v[i];
    return s / (double)n;
}

int cost_fit_line(const double *x, const double *y, size_t n, double *a, double *b)
{
    if (n < 2)
        return -1;
    double mx = mean(x, n), my = mean(y, n);
    double sxx = 0, sxy = 0;
    for (size_t i = 0; i < n; i++) {
        sxx += (x[i] - mx) * (x[i] - mx);
        sxy += (x[i] - mx) * (y[i] - my);
    }
    if (!(sxx > 0)) /* all x equal (or not numbers): no slope to find */
        return -1;
    *b = sxy / sxx;
    *a = my - *b * mx;
    return 0;
}

/* Least squares of y ≈ Σ coef[j]·X[i][j] over the columns in mask (the others
 * 0), by the normal equations on columns scaled to unit length; -1 when the
 * chosen columns are (nearly) dependent. *ssr: the sum of squared residuals. */
static int solve_subset(const double (*X)[COST_NNLS_MAXCOLS], const double *y, size_t n, int k,
                        unsigned mask, double *coef, double *ssr)
{
    int col[COST_NNLS_MAXCOLS], m = 0;
    double norm[COST_NNLS_MAXCOLS], A[COST_NNLS_MAXCOLS][COST_NNLS_MAXCOLS + 1];
    for (int j = 0; j < k; j++)
        if (mask & (1u << j))
            col[m++] = j;
    for (int a = 0; a < m; a++) {
        norm[a] = 0;
        for (size_t i = 0; i < n; i++)
            norm[a] += X[i][col[a]] * X[i][col[a]];
        norm[a] = sqrt(norm[a]);
        if (!(norm[a] > 0))
            return -1;
    }
    for (int a = 0; a < m; a++) {
        for (int b = 0; b <= m; b++) {
            double sum = 0;
            for (size_t i = 0; i < n; i++)
                sum += X[i][col[a]] * (b < m ? X[i][col[b]] / norm[b] : y[i]);
            A[a][b] = sum / norm[a];
        }
    }
    for (int p = 0; p < m; p++) { /* Gauss-Jordan with partial pivoting */
        int best = p;
        for (int a = p + 1; a < m; a++)
            if (fabs(A[a][p]) > fabs(A[best][p]))
                best = a;
        if (fabs(A[best][p]) < 1e-10)
            return -1;
        for (int b = 0; b <= m; b++) {
            double t = A[p][b];
            A[p][b] = A[best][b];
            A[best][b] = t;
        }
        for (int a = 0; a < m; a++) {
            if (a == p)
                continue;
            double factor = A[a][p] / A[p][p];
            for (int b = p; b <= m; b++)
                A[a][b] -= factor * A[p][b];
        }
    }
    for (int j = 0; j < k; j++)
        coef[j] = 0;
    for (int a = 0; a < m; a++)
        coef[col[a]] = A[a][m] / A[a][a] / norm[a];
    *ssr = 0;
    for (size_t i = 0; i < n; i++) {
        double r = y[i];
        for (int j = 0; j < k; j++)
            r -= coef[j] * X[i][j];
        *ssr += r * r;
    }
    return 0;
}

/* Non-negative least squares with k <= COST_NNLS_MAXCOLS columns, exactly: the optimum
 * is the unconstrained least squares on the set of its non-zero coefficients,
 * so the best of the subsets whose solution is >= 0 is it. Ties go to the
 * subset met first (fewer and earlier columns). Returns the residual. */
double cost_fit_nnls(const double (*X)[COST_NNLS_MAXCOLS], const double *y, size_t n, int k,
                     double *coef)
{
    double best = 0, trial[COST_NNLS_MAXCOLS], ssr;
    for (size_t i = 0; i < n; i++)
        best += y[i] * y[i];
    for (int j = 0; j < k; j++)
        coef[j] = 0;
    for (unsigned mask = 1; mask < 1u << k; mask++) {
        if (solve_subset(X, y, n, k, mask, trial, &ssr) != 0 ||
            !(ssr < best - COST_FIT_NEGLIGIBLE * (double)n))
            continue;
        int feasible = 1;
        for (int j = 0; j < k; j++)
            feasible &= trial[j] >= 0;
        if (feasible) {
            best = ssr;
            memcpy(coef, trial, (size_t)k * sizeof *coef);
        }
    }
    return best;
}

double cost_maxerr(const double *t, size_t n, double model)
{
    if (n == 0)
        return NAN;
    double worst = 0, least = t[0];
    for (size_t i = 0; i < n; i++) {
        worst = fmax(worst, fabs(t[i] - model));
        least = fmin(least, t[i]);
    }
    return 100 * worst / least;
}

double cost_averr(const double *t, size_t n, double model)
{
    if (n == 0)
        return NAN;
    double dev = 0, sum = 0;
    for (size_t i = 0; i < n; i++) {
        dev += fabs(t[i] - model);
        sum += t[i];
    }
    return 100 * (dev / (double)n) / (sum / (double)n);
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void cost_sort(double *v, size_t n) { qsort(v, n, sizeof *v, by_value); }

double cost_median(double *v, size_t n)
{
    if (n == 0)
        return NAN;
    cost_sort(v, n);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}
