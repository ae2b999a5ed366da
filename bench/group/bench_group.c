/* bench_group.c — a superstep inside a part of P/2 processes against a superstep
 * of the whole machine (P processes), measured in the same run.
 *
 * Usage: bench_group P        (P >= 2 and even; threads engine)
 *        mpirun -np P bench_group_mpi P   (the MPI engine)
 *
 * Each repetition times a batch of whole-machine supersteps, then splits the
 * machine in halves (bsp_partition(2, NULL)), times the same kind of superstep in
 * both halves at once (each half synchronises only its own processes), and
 * rejoins; partition and rejoin are outside the timed batches. Two kinds:
 *   empty     bsp_sync with nothing to send;
 *   exchange  each process bsp_puts 64 bytes to its right neighbour in its group,
 *             then bsp_sync.
 * And the division superstep itself: bsp_partition(2, NULL) then bsp_rejoin() with
 * nothing between, timed on the whole machine against its empty superstep.
 * The figures are process 0's (in part 0), medians over BENCH_REPS batches, and
 * minima (the cost without interference on a shared machine):
 *   result group_whole_<kind>_p<P>_ns <ns per superstep, P processes> ns
 *   result group_part_<kind>_p<P>_ns  <ns per superstep, P/2 processes> ns
 *   result group_{whole,part}_<kind>_p<P>_min_ns  the minima
 *   result group_ratio_<kind>_p<P>    <part / whole, medians> x
 *   result group_division_p<P>_ns     <ns per partition + rejoin, P processes> ns
 *   result group_division_p<P>_min_ns the minimum
 *   result group_division_ratio_p<P>  <division / whole empty superstep, medians> x
 */
#include "bench_bsp.h"
#include "bench_util.h"

#include <bsp.h>
#include <polybsp.h>

#include <stdio.h>
#include <stdlib.h>

#define TARGET_SECONDS 0.01
#define EXCHANGE_BYTES 64

enum { EMPTY, EXCHANGE, NKINDS };
static const char *const kind_name[NKINDS] = {"empty", "exchange"};

static int nprocs_wanted;

struct exchange {
    char src[EXCHANGE_BYTES], dst[EXCHANGE_BYTES];
};

static void empty_superstep(void *unused)
{
    (void)unused;
    bsp_sync();
}

static void exchange_superstep(void *arg)
{
    struct exchange *x = arg;
    bsp_put((bsp_pid() + 1) % bsp_nprocs(), x->src, x->dst, 0, EXCHANGE_BYTES);
    bsp_sync();
}

static const bench_fn kind_fn[NKINDS] = {empty_superstep, exchange_superstep};

static void division(void *unused)
{
    (void)unused;
    bsp_partition(2, NULL);
    bsp_rejoin();
}

/* "result group_<what>_<kind>_p<P><suffix> <value> <unit>" */
static void result(const char *kind, const char *what, int P, const char *suffix, double value,
                   const char *unit)
{
    char key[80];
    snprintf(key, sizeof key, "group_%s_%s_p%d%s", what, kind, P, suffix);
    bench_result(key, value, unit);
}

static void spmd(void)
{
    bsp_begin(nprocs_wanted);
    int P = (int)bsp_nprocs(), reps = bench_reps();
    /* On the stack: on the threads engine every process needs its own. */
    struct exchange x = {{0}, {0}};
    double *t[2][NKINDS]; /* [whole, part][kind] */
    long n[2][NKINDS] = {{0}};
    for (int w = 0; w < 2; w++)
        for (int k = 0; k < NKINDS; k++)
            if (!(t[w][k] = calloc((size_t)reps, sizeof(double))))
                bsp_abort("bench_group: out of memory");
    double *t_div = calloc((size_t)reps, sizeof(double));
    if (!t_div)
        bsp_abort("bench_group: out of memory");

    bsp_push_reg(x.dst, EXCHANGE_BYTES);
    bsp_sync();
    for (int k = 0; k < NKINDS; k++)
        n[0][k] = bench_bsp_calibrate(kind_fn[k], &x, TARGET_SECONDS);
    long n_div = bench_bsp_calibrate(division, NULL, TARGET_SECONDS);
    for (int r = -1; r < reps; r++) {
        if (r >= 0) {
            for (int k = 0; k < NKINDS; k++)
                t[0][k][r] = bench_bsp_batch(kind_fn[k], &x, n[0][k]);
            t_div[r] = bench_bsp_batch(division, NULL, n_div);
        }
        bsp_partition(2, NULL);
        bsp_push_reg(x.dst, EXCHANGE_BYTES); /* the part's own registration */
        bsp_sync();
        for (int k = 0; k < NKINDS; k++) {
            /* Calibrated once, in the first (untimed) round; each part uses its
             * own process 0's count. */
            if (r < 0)
                n[1][k] = bench_bsp_calibrate(kind_fn[k], &x, TARGET_SECONDS);
            else
                t[1][k][r] = bench_bsp_batch(kind_fn[k], &x, n[1][k]);
        }
        bsp_pop_reg(x.dst);
        bsp_rejoin();
    }

    if (bsp_pid() == 0) {
        printf("# bench_group: P=%d engine=%s reps=%d; parts: 2 halves of %d processes each\n", P,
               bsp_engine_name(), reps, P / 2);
        for (int k = 0; k < NKINDS; k++) {
            /* bench_median sorts, so the minimum is element 0 afterwards. */
            double whole = 1e9 * bench_median(t[0][k], (size_t)reps), whole_min = 1e9 * t[0][k][0];
            double part = 1e9 * bench_median(t[1][k], (size_t)reps), part_min = 1e9 * t[1][k][0];
            printf("# %s superstep: whole machine (P=%d) %.0f ns, part (P=%d) %.0f ns, "
                   "part/whole %.2f (minima %.0f ns, %.0f ns)\n",
                   kind_name[k], P, whole, P / 2, part, part / whole, whole_min, part_min);
            result(kind_name[k], "whole", P, "_ns", whole, "ns");
            result(kind_name[k], "whole", P, "_min_ns", whole_min, "ns");
            result(kind_name[k], "part", P, "_ns", part, "ns");
            result(kind_name[k], "part", P, "_min_ns", part_min, "ns");
            result(kind_name[k], "ratio", P, "", part / whole, "x");
        }
        /* t[0][EMPTY] is sorted by now: its median is still its median. */
        double empty = 1e9 * bench_median(t[0][EMPTY], (size_t)reps);
        double div = 1e9 * bench_median(t_div, (size_t)reps), div_min = 1e9 * t_div[0];
        printf("# division superstep (partition + rejoin, P=%d): %.0f ns, %.1f empty supersteps "
               "(minimum %.0f ns)\n",
               P, div, div / empty, div_min);
        char key[80];
        snprintf(key, sizeof key, "group_division_p%d_ns", P);
        bench_result(key, div, "ns");
        snprintf(key, sizeof key, "group_division_p%d_min_ns", P);
        bench_result(key, div_min, "ns");
        snprintf(key, sizeof key, "group_division_ratio_p%d", P);
        bench_result(key, div / empty, "x");
    }
    bsp_pop_reg(x.dst);
    bsp_sync();
    for (int w = 0; w < 2; w++)
        for (int k = 0; k < NKINDS; k++)
            free(t[w][k]);
    free(t_div);
    bsp_end();
}

int main(int argc, char **argv)
{
    bsp_init(spmd, argc, argv);
    nprocs_wanted = argc > 1 ? atoi(argv[1]) : 0;
    if (nprocs_wanted < 2 || nprocs_wanted % 2) {
        fprintf(stderr, "usage: bench_group P   (P >= 2 and even)\n");
        return 2;
    }
    spmd();
    return 0;
}
