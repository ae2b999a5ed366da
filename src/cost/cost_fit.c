/* cost_fit — least squares and the error measures of paper 000 (see cost_fit.h).
 *
 * The fits work on deviations from the means: h-relation sizes reach millions of
 * bytes and times are microseconds, so the textbook normal equations (Σx², Σxy
 * on raw values) would lose most of the digits to cancellation.
 */
#include "cost/cost_fit.h"

#include <math.h>
#include <stdlib.h>

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

int cost_fit_plane(const double *x1, const double *x2, const double *y, size_t n, double *a,
                   double *b, double *c)
{
    if (n < 3)
        return -1;
    double m1 = mean(x1, n), m2 = mean(x2, n), my = mean(y, n);
    double s11 = 0, s12 = 0, s22 = 0, s1y = 0, s2y = 0;
    for (size_t i = 0; i < n; i++) {
        double d1 = x1[i] - m1, d2 = x2[i] - m2, dy = y[i] - my;
        s11 += d1 * d1;
        s12 += d1 * d2;
        s22 += d2 * d2;
        s1y += d1 * dy;
        s2y += d2 * dy;
    }
    double det = s11 * s22 - s12 * s12;
    /* Relative test: the columns are collinear when det is zero up to rounding
     * of s11·s22 (Cauchy–Schwarz makes det >= 0, equal only for collinear data). */
    if (!(det > 1e-12 * s11 * s22))
        return -1;
    *b = (s1y * s22 - s2y * s12) / det;
    *c = (s2y * s11 - s1y * s12) / det;
    *a = my - *b * m1 - *c * m2;
    return 0;
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

double cost_median(double *v, size_t n)
{
    if (n == 0)
        return NAN;
    qsort(v, n, sizeof *v, by_value);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}
