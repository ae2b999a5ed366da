/* bm_harness — see bm.h. */
#include "bm.h"

#include "bench_util.h"

#include <bsp.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

/* One call of fn from a common start: seconds on this rank. */
static double once(bm_fn fn, void *arg)
{
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = bench_now();
    fn(arg);
    return bench_now() - t0;
}

static double slowest(double t)
{
    double max;
    MPI_Allreduce(&t, &max, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return max;
}

void bm_compare(bm_fn ours, bm_fn anchor, void *arg, bm_result *r)
{
    /* First calls set up connections and touch the buffers; then a rough time
     * per call sizes the run. */
    double t = 0;
    for (int k = 0; k < 4; k++)
        t = once(ours, arg) + once(anchor, arg);
    long n = (long)(BM_SECONDS / slowest(t > 0 ? t : 1e-9));
    n = n < BM_MIN_SAMPLES ? BM_MIN_SAMPLES : n > BM_MAX_SAMPLES ? BM_MAX_SAMPLES : n;
    double *s = malloc(4 * (size_t)n * sizeof *s);
    if (!s)
        MPI_Abort(MPI_COMM_WORLD, 1);
    double *so = s, *sa = s + n, *mo = s + 2 * n, *ma = s + 3 * n;
    for (long i = 0; i < n; i++) {
        if (i % 2) {
            sa[i] = once(anchor, arg);
            so[i] = once(ours, arg);
        } else {
            so[i] = once(ours, arg);
            sa[i] = once(anchor, arg);
        }
    }
    MPI_Allreduce(s, mo, 2 * (int)n, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    for (long i = 0; i < n; i++)
        so[i] = mo[i] / ma[i]; /* paired ratios, before the sort below reorders */
    r->samples = n;
    r->ratio = bench_median(so, (size_t)n);
    r->ours = bench_median(mo, (size_t)n);
    r->anchor = bench_median(ma, (size_t)n);
    free(s);
}

void bm_report(const char *key, const char *what, const char *anchor, const bm_result *r,
               double scale, const char *unit, int throughput)
{
    if (bsp_pid() != 0)
        return;
    double ours = throughput ? scale / r->ours : r->ours * scale;
    double mpi = throughput ? scale / r->anchor : r->anchor * scale;
    /* For a throughput, ours / MPI's is the inverse of the time ratio. */
    double paired = throughput ? 1 / r->ratio : r->ratio;
    printf("%-26s ours %9.4g %-4s %-16s %9.4g %-4s ratio %5.2f (paired %5.2f, %ld pairs)\n", what,
           ours, unit, anchor, mpi, unit, ours / mpi, paired, r->samples);
    char k[96];
    snprintf(k, sizeof k, "mpi_P%d_%s", bsp_nprocs(), key);
    bench_result(k, ours, unit);
    snprintf(k, sizeof k, "mpi_P%d_%s_anchor", bsp_nprocs(), key);
    bench_result(k, mpi, unit);
    snprintf(k, sizeof k, "mpi_P%d_%s_ratio", bsp_nprocs(), key);
    bench_result(k, ours / mpi, "x");
    snprintf(k, sizeof k, "mpi_P%d_%s_paired", bsp_nprocs(), key);
    bench_result(k, paired, "x");
}
