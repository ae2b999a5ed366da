/* bench_util.c — see bench_util.h. */
#include "bench_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double bench_median(double *values, size_t n)
{
    if (n == 0)
        return 0.0;
    qsort(values, n, sizeof *values, cmp_double);
    return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

void bench_result(const char *key, double value, const char *unit)
{
    printf("result %s %.6g %s\n", key, value, unit);
    fflush(stdout);
}

int bench_reps(void)
{
    const char *s = getenv("BENCH_REPS");
    int r = s ? atoi(s) : 21;
    if (r < 3)
        r = 3;
    if (r > 1001)
        r = 1001;
    return r;
}
