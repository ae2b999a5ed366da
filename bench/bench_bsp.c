/* bench_bsp.c — see bench_bsp.h. */
#include "bench_bsp.h"

#include "bench_util.h"

#include <bsp.h>

double bench_bsp_batch(bench_fn fn, void *arg, long n)
{
    bsp_sync();
    double t0 = bench_now();
    for (long i = 0; i < n; i++)
        fn(arg);
    return (bench_now() - t0) / (double)n;
}

double bench_bsp_from_root(double v)
{
    /* On the threads engine globals are shared by all processes, so the landing
     * slot must live on each process's own stack. */
    double slot = v;
    bsp_push_reg(&slot, sizeof slot);
    bsp_sync();
    if (bsp_pid() == 0)
        for (bsp_pid_t q = 1; q < bsp_nprocs(); q++)
            bsp_put(q, &v, &slot, 0, sizeof v);
    bsp_sync();
    bsp_pop_reg(&slot);
    bsp_sync();
    return slot;
}

long bench_bsp_calibrate(bench_fn fn, void *arg, double target)
{
    /* A warm-up batch first, so buffer growth and page faults are not timed. */
    bench_bsp_batch(fn, arg, 1);
    for (long n = 1;; n *= 2) {
        double per_call = bench_bsp_batch(fn, arg, n);
        if (bench_bsp_from_root(per_call * (double)n) >= target || n >= (1L << 30))
            return n;
    }
}
