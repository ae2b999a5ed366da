/* fft_util.c — see fft_util.h. */
#include "fft_util.h"

#include <bsp.h>

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static pthread_mutex_t planner = PTHREAD_MUTEX_INITIALIZER;

void fft_plan_lock(void) { pthread_mutex_lock(&planner); }

void fft_plan_unlock(void) { pthread_mutex_unlock(&planner); }

fftw_complex *fft_alloc(size_t count, const char *what, int in_spmd)
{
    /* fftw_malloc gives the alignment FFTW's SIMD codelets want. */
    fftw_complex *p = fftw_malloc((count ? count : 1) * sizeof *p);
    if (p)
        return p;
    if (in_spmd)
        bsp_abort("fft: out of memory for %zu elements (%s)", count, what);
    fprintf(stderr, "fft: out of memory for %zu elements (%s)\n", count, what);
    exit(1);
}

int fft_is_pow2(long n) { return n > 0 && (n & (n - 1)) == 0; }

int fft_log2(long n)
{
    int k = 0;
    while ((1L << k) < n)
        k++;
    return k;
}

/* splitmix64's finaliser: consecutive counters give independent-looking words. */
static unsigned long long mix(unsigned long long z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static double uniform(unsigned long long z)
{
    return (double)(mix(z) >> 11) * 0x1.0p-52 - 1.0; /* 53 bits -> [-1, 1) */
}

void fft_input(unsigned long seed, long j, fftw_complex out)
{
    unsigned long long base = (unsigned long long)seed * 0x9e3779b97f4a7c15ULL;
    out[0] = uniform(base + 2 * (unsigned long long)j);
    out[1] = uniform(base + 2 * (unsigned long long)j + 1);
}

double fft_rel_error(fftw_complex *a, fftw_complex *b, long n)
{
    double diff = 0.0, norm = 0.0;
    for (long k = 0; k < n; k++) {
        double dr = a[k][0] - b[k][0], di = a[k][1] - b[k][1];
        diff += dr * dr + di * di;
        norm += b[k][0] * b[k][0] + b[k][1] * b[k][1];
    }
    return norm > 0 ? sqrt(diff / norm) : sqrt(diff);
}

void fft_root(long n, int sign, unsigned long long e, double scale, fftw_complex out)
{
    const double two_pi = 6.283185307179586476925286766559;
    double angle = sign * two_pi * (double)(e % (unsigned long long)n) / (double)n;
    out[0] = scale * cos(angle);
    out[1] = scale * sin(angle);
}

static int ascending(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void fft_sort(double *v, size_t n) { qsort(v, n, sizeof *v, ascending); }

double fft_flops(long m) { return m > 1 ? 5.0 * (double)m * fft_log2(m) : 0.0; }
