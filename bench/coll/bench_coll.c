/* bench_coll.c — polybsp's collectives, timed at P processes and given sizes.
 *
 * Usage: bench_coll P n [n ...]     (n: bytes per process, a multiple of 8)
 *
 * For every collective of coll_ops.h, and for bsp_bcast with each algorithm,
 * prints the median and the minimum over BENCH_REPS batches of process 0's
 * time per call (the minimum: the cost without interference on a shared machine):
 *   result coll_<op>_p<P>_n<n>_us <median> us
 *   result coll_<op>_p<P>_n<n>_min_us <minimum> us
 * with <op> one of the names in coll_ops.h, or bcast_binomial, bcast_twophase,
 * bcast_rootp, bcast_direct (bcast is the default, AUTO). The anchors are mpi_coll's, run by
 * run.sh at the same P and sizes. bench_coll_mpi is the same on the MPI engine
 * (run.sh with COLL_BENCH_ENGINE=mpi starts it under mpirun).
 */
#include "bench_bsp.h"
#include "bench_util.h"
#include "coll_ops.h"

#include <polybsp.h>
#include <polybsp_coll.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct bench {
    int p;
    size_t n;
    bsp_bcast_alg alg;
    unsigned char *src, *dst;
    size_t *counts, *displs;
};

static void sum_u64(void *acc, const void *in, size_t nbytes)
{
    uint64_t *a = acc;
    const uint64_t *b = in;
    for (size_t i = 0; i < nbytes / 8; i++)
        a[i] += b[i];
}

static void op_bcast(void *arg)
{
    struct bench *b = arg;
    bsp_bcast_with(b->alg, 0, b->src, b->n);
}
static void op_reduce(void *arg)
{
    struct bench *b = arg;
    bsp_reduce(0, b->src, b->dst, b->n, sum_u64);
}
static void op_allreduce(void *arg)
{
    struct bench *b = arg;
    bsp_allreduce(b->src, b->dst, b->n, sum_u64);
}
static void op_scan(void *arg)
{
    struct bench *b = arg;
    bsp_scan(b->src, b->dst, b->n, sum_u64);
}
static void op_gather(void *arg)
{
    struct bench *b = arg;
    bsp_gather(0, b->src, b->dst, b->n);
}
static void op_allgather(void *arg)
{
    struct bench *b = arg;
    bsp_allgather(b->src, b->dst, b->n);
}
static void op_scatter(void *arg)
{
    struct bench *b = arg;
    bsp_scatter(0, b->src, b->dst, b->n);
}
static void op_alltoall(void *arg)
{
    struct bench *b = arg;
    bsp_alltoall(b->src, b->dst, b->n);
}
static void op_alltoallv(void *arg)
{
    struct bench *b = arg;
    bsp_alltoallv(b->src, b->counts, b->displs, b->dst, b->counts, b->displs);
}

static void measure(const char *name, bench_fn fn, struct bench *b, int reps)
{
    long calls = bench_bsp_calibrate(fn, b, COLL_TARGET_SECONDS);
    double *t = malloc((size_t)reps * sizeof *t);
    if (!t)
        bsp_abort("bench_coll: out of memory");
    for (int k = 0; k < reps; k++)
        t[k] = bench_bsp_batch(fn, b, calls);
    double med = bench_median(t, (size_t)reps), min = t[0]; /* sorted by bench_median */
    free(t);
    if (bsp_pid() == 0) {
        char key[96];
        snprintf(key, sizeof key, "coll_%s_p%d_n%zu_us", name, b->p, b->n);
        bench_result(key, med * 1e6, "us");
        snprintf(key, sizeof key, "coll_%s_p%d_n%zu_min_us", name, b->p, b->n);
        bench_result(key, min * 1e6, "us");
    }
}

static int nprocs_wanted;
static int nsizes;
static char **size_args;

static void spmd(void)
{
    bsp_begin(nprocs_wanted);
    int p = (int)bsp_nprocs(), reps = bench_reps();
    if (bsp_pid() == 0)
        printf("# bench_coll: P=%d, reps=%d\n", p, reps);
    for (int s = 0; s < nsizes; s++) {
        struct bench b = {
            p, (size_t)strtoul(size_args[s], NULL, 10), BSP_BCAST_AUTO, NULL, NULL, NULL, NULL};
        b.src = calloc((size_t)p, b.n ? b.n : 1);
        b.dst = calloc((size_t)p, b.n ? b.n : 1);
        b.counts = malloc((size_t)p * sizeof *b.counts);
        b.displs = malloc((size_t)p * sizeof *b.displs);
        if (!b.src || !b.dst || !b.counts || !b.displs)
            bsp_abort("bench_coll: out of memory for n = %zu", b.n);
        for (int j = 0; j < p; j++) {
            b.counts[j] = b.n;
            b.displs[j] = (size_t)j * b.n;
        }
        static const struct {
            const char *name;
            bsp_bcast_alg alg;
        } bcasts[] = {{"bcast", BSP_BCAST_AUTO},
                      {"bcast_binomial", BSP_BCAST_BINOMIAL},
                      {"bcast_twophase", BSP_BCAST_TWOPHASE},
                      {"bcast_rootp", BSP_BCAST_ROOTP},
                      {"bcast_direct", BSP_BCAST_DIRECT}};
        for (size_t a = 0; a < sizeof bcasts / sizeof bcasts[0]; a++) {
            b.alg = bcasts[a].alg;
            measure(bcasts[a].name, op_bcast, &b, reps);
        }
#define MEASURE(op)                                                                                \
    if (strcmp(#op, "bcast") != 0)                                                                 \
        measure(#op, op_##op, &b, reps);
        COLL_OPS(MEASURE)
#undef MEASURE
        free(b.src), free(b.dst), free(b.counts), free(b.displs);
    }
    bsp_end();
}

/* The arguments are read before bsp_init: on the MPI engine the other ranks stay
 * in bsp_init to serve the section, so only what they read first do they know. */
int main(int argc, char **argv)
{
    if (argc < 3 || atoi(argv[1]) < 1) {
        fprintf(stderr, "usage: bench_coll P n [n ...]\n");
        return 2;
    }
    nprocs_wanted = atoi(argv[1]);
    nsizes = argc - 2;
    size_args = argv + 2;
    for (int s = 0; s < nsizes; s++)
        if (strtoul(size_args[s], NULL, 10) % 8) {
            fprintf(stderr, "bench_coll: n = %s is not a multiple of 8\n", size_args[s]);
            return 2;
        }
    bsp_init(spmd, argc, argv);
    spmd();
    return 0;
}
