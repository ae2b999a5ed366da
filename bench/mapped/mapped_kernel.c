/* mapped_kernel — the two loops bench_mapped times, compiled once into the
 * benchmark itself and once into a shared object: each calls into the C
 * libraries in its inner loop, as the validation programs do (stencil's
 * residual through fmax, samplesort's and spmv's qsort through their
 * comparators). */
#include "mapped_kernel.h"

#include <math.h>
#include <stdlib.h>

double mapped_fmax_chain(const double *a, const double *b, long n)
{
    double largest = 0.0;
    for (long i = 0; i < n; i++)
        largest = fmax(largest, fabs(a[i] - b[i]));
    return largest;
}

static int by_value(const void *x, const void *y)
{
    double u = *(const double *)x, v = *(const double *)y;
    return (u > v) - (u < v);
}

void mapped_sort(double *a, long n) { qsort(a, (size_t)n, sizeof *a, by_value); }
