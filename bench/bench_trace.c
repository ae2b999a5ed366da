/* bench_trace — what tracing costs a superstep: the same empty superstep and the
 * same superstep with 64 eight-byte puts, with tracing off and on, in alternating
 * batches of one run (so both see the same machine), at P = 2 (or argv[1]).
 * Prints the medians, the difference per superstep and the ratio. */
#include "bench_bsp.h"
#include "bench_util.h"

#include <bsp.h>
#include <polybsp.h>

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static int nprocs = 2;
static double target[64];

static void empty(void *arg)
{
    (void)arg;
    bsp_sync();
}

static void puts64(void *arg)
{
    double *v = arg;
    int next = (bsp_pid() + 1) % bsp_nprocs();
    for (int i = 0; i < 64; i++)
        bsp_put(next, &v[i], target, i * (int)sizeof(double), sizeof(double));
    bsp_sync();
}

static void measure(const char *name, bench_fn fn, void *arg)
{
    long n = bench_bsp_calibrate(fn, arg, 0.02);
    int reps = bench_reps();
    double *off = malloc((size_t)reps * sizeof *off), *on = malloc((size_t)reps * sizeof *on);
    for (int r = 0; r < reps; r++) {
        off[r] = bench_bsp_batch(fn, arg, n);
        bsp_trace_begin();
        on[r] = bench_bsp_batch(fn, arg, n);
        bsp_trace_end();
    }
    if (bsp_pid() == 0) {
        double a = bench_median(off, (size_t)reps), b = bench_median(on, (size_t)reps);
        printf("%-22s untraced %9.1f ns   traced %9.1f ns   overhead %7.1f ns (%.2fx)\n", name,
               a * 1e9, b * 1e9, (b - a) * 1e9, b / a);
        char key[64];
        snprintf(key, sizeof key, "trace_overhead_%s", name);
        bench_result(key, (b - a) * 1e9, "ns");
    }
    free(off);
    free(on);
}

static void spmd(void)
{
    bsp_begin(nprocs);
    double v[64] = {0};
    bsp_push_reg(target, sizeof target);
    bsp_sync();
    if (bsp_pid() == 0)
        printf("bench_trace: P = %d, medians of %d batches, tracing off and on alternately\n",
               bsp_nprocs(), bench_reps());
    measure("empty_superstep", empty, NULL);
    measure("64_puts_superstep", puts64, v);
    bsp_end();
}

int main(int argc, char **argv)
{
    if (argc > 1)
        nprocs = atoi(argv[1]);
    /* Tracing is switched on by bsp_trace_begin only; the records, written at
     * bsp_end into the working directory, go to a scratch directory. */
    unsetenv("POLYBSP_TRACE");
    char dir[] = "/tmp/bench_trace.XXXXXX";
    if (!mkdtemp(dir) || chdir(dir) != 0) {
        perror("bench_trace: scratch directory");
        return 1;
    }
    bsp_init(spmd, argc, argv);
    spmd();
    remove("polybsp-trace.jsonl");
    if (chdir("/") != 0 || rmdir(dir) != 0)
        perror("bench_trace: removing the scratch directory");
    return 0;
}
