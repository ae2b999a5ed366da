/* bench_mpi_timing.c — see bench_mpi_timing.h. */
#include "bench_mpi_timing.h"

#include "bench_util.h"

#include <mpi.h>

#include <stdlib.h>

static double batch(bench_mpi_fn fn, const void *arg, int close, long n)
{
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = bench_now();
    for (long i = 0; i < n; i++)
        fn(arg);
    if (close)
        MPI_Barrier(MPI_COMM_WORLD);
    return (bench_now() - t0) / (double)n;
}

/* A warm-up batch first, so that buffer set-up and page faults are not timed;
 * rank 0's total decides for everyone. */
static long calibrate(bench_mpi_fn fn, const void *arg, int close, double target)
{
    batch(fn, arg, close, 1);
    for (long n = 1;; n *= 2) {
        double total = batch(fn, arg, close, n) * (double)n;
        MPI_Bcast(&total, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
        if (total >= target || n >= (1L << 30))
            return n;
    }
}

double bench_mpi_median(bench_mpi_fn fn, const void *arg, int close, int reps, double target)
{
    long n = calibrate(fn, arg, close, target);
    double *t = malloc((size_t)reps * sizeof *t);
    if (!t)
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (int k = 0; k < reps; k++)
        t[k] = batch(fn, arg, close, n);
    double med = bench_median(t, (size_t)reps);
    free(t);
    return med;
}
