/* core_rate — DAXPY, and this machine's rate measured with it. */
#include "core/core_rate.h"

#include "core/core_cpuclock.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef POLYBSP_SMPI
#include <simgrid/host.h>
#endif

void core_daxpy(double *y, const double *x, long passes)
{
    for (long it = 0; it < passes; it++) {
        double a = it % 2 ? -1.0 / 3.0 : 1.0 / 3.0;
        for (int i = 0; i < CORE_DAXPY_N; i++)
            y[i] += a * x[i];
    }
    __asm__ volatile("" : : "r"(y) : "memory"); /* the passes are kept */
}

#ifndef POLYBSP_SMPI
enum { TIMINGS = 5 };

/* The median of TIMINGS values, sorted in place (insertion sort: five). */
static double median_of(double *r)
{
    for (int i = 1; i < TIMINGS; i++)
        for (int j = i; j > 0 && r[j] < r[j - 1]; j--) {
            double v = r[j];
            r[j] = r[j - 1];
            r[j - 1] = v;
        }
    return r[TIMINGS / 2];
}

/* kernel(n) timed on the thread's CPU clock: n doubled from first until one
 * timing takes a millisecond (the clock's resolution is then far below it), at
 * most most; then the median of TIMINGS timings of units * n / seconds. */
static double per_second(void (*kernel)(long), long first, long most, double units)
{
    long n = first;
    double t = 0;
    while (n < most) {
        double t0 = core_thread_cpu();
        kernel(n);
        t = core_thread_cpu() - t0;
        if (t >= 1e-3)
            break;
        n *= 2;
    }
    if (!(t > 0))
        return 0;
    double r[TIMINGS];
    for (int k = 0; k < TIMINGS; k++) {
        double t0 = core_thread_cpu();
        kernel(n);
        double s = core_thread_cpu() - t0;
        r[k] = s > 0 ? units * (double)n / s : 0;
    }
    return median_of(r);
}

static void daxpy_passes(long passes)
{
    static double x[CORE_DAXPY_N], y[CORE_DAXPY_N];
    if (x[0] == 0) /* the first call, on the one thread that measures */
        for (int i = 0; i < CORE_DAXPY_N; i++)
            x[i] = 1.0 + i;
    core_daxpy(y, x, passes);
}

/* POLYBSP_RATE, when it is a number > 0 (flop/s): a rate measured once, so
 * that runs to be compared scale alike; anything else is said once and the
 * rate measured. */
static double given_rate(void)
{
    const char *v = getenv("POLYBSP_RATE");
    if (v == NULL || *v == '\0')
        return 0;
    char *end;
    double r = strtod(v, &end);
    /* Decimal only: strtod would take hex, "inf" and blanks too. */
    if (*end == '\0' && r > 0 && r < 1e18 && strspn(v, "0123456789.eE+-") == strlen(v))
        return r;
    fprintf(stderr, "polybsp: POLYBSP_RATE '%s' is not a number of flop/s > 0: measured instead\n",
            v);
    return 0;
}
#endif

#ifdef POLYBSP_SMPI
double core_clock_measure(void) { return 0; }
#else
/* Two operations a link, each waiting for the last: a latency-bound chain.
 * The asm keeps the compiler from folding or reordering the chain. */
static void chain(long links)
{
    double a = 1.0;
    for (long i = 0; i < links; i++) {
        a = a * 0.9999999 + 1e-7;
        __asm__ volatile("" : "+x"(a));
    }
}

double core_clock_measure(void) { return per_second(chain, 1024, 1L << 30, 2.0); }
#endif

double core_clock_here(void)
{
    static double clock = -1;
    if (clock < 0)
        clock = core_clock_measure();
    return clock;
}

double core_rate_measure(void)
{
#ifdef POLYBSP_SMPI
    return 0;
#else
    return per_second(daxpy_passes, 1, 1L << 20, 2.0 * CORE_DAXPY_N);
#endif
}

double core_rate_here(void)
{
#ifdef POLYBSP_SMPI
    return sg_host_get_speed(sg_host_self());
#else
    static double rate = -1;
    if (rate < 0) {
        double given = given_rate();
        rate = given > 0 ? given : core_rate_measure();
    }
    return rate;
#endif
}
