/* mpi_coll.c — Open MPI's collectives: the anchors for bench_coll.
 *
 * Usage: mpirun --allow-run-as-root --oversubscribe -np P mpi_coll n [n ...]
 *
 * The same operations as bench_coll (coll_ops.h) with MPI's equivalents:
 * MPI_Bcast, MPI_Reduce / MPI_Allreduce / MPI_Scan (MPI_SUM on MPI_UINT64_T),
 * MPI_Gather, MPI_Allgather, MPI_Scatter, MPI_Alltoall, MPI_Alltoallv, root 0.
 * Timing mirrors bench_bsp: a barrier lines the ranks up, rank 0 times a batch of
 * calls, the batch is the smallest power of two reaching the same target. MPI
 * collectives need not synchronise, so a barrier closes every batch (inside the
 * timing) to count each call's work in full, as a BSP superstep does.
 *   result mpi_<op>_p<P>_n<n>_us <median> us
 */
#include "bench_mpi_timing.h"
#include "bench_util.h"
#include "coll_ops.h"

#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct bench {
    int p, n;
    unsigned char *src, *dst;
    int *counts, *displs;
};

static void op_bcast(const void *arg)
{
    const struct bench *b = arg;
    MPI_Bcast(b->src, b->n, MPI_BYTE, 0, MPI_COMM_WORLD);
}
static void op_reduce(const void *arg)
{
    const struct bench *b = arg;
    MPI_Reduce(b->src, b->dst, b->n / 8, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
}
static void op_allreduce(const void *arg)
{
    const struct bench *b = arg;
    MPI_Allreduce(b->src, b->dst, b->n / 8, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
}
static void op_scan(const void *arg)
{
    const struct bench *b = arg;
    MPI_Scan(b->src, b->dst, b->n / 8, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
}
static void op_gather(const void *arg)
{
    const struct bench *b = arg;
    MPI_Gather(b->src, b->n, MPI_BYTE, b->dst, b->n, MPI_BYTE, 0, MPI_COMM_WORLD);
}
static void op_allgather(const void *arg)
{
    const struct bench *b = arg;
    MPI_Allgather(b->src, b->n, MPI_BYTE, b->dst, b->n, MPI_BYTE, MPI_COMM_WORLD);
}
static void op_scatter(const void *arg)
{
    const struct bench *b = arg;
    MPI_Scatter(b->src, b->n, MPI_BYTE, b->dst, b->n, MPI_BYTE, 0, MPI_COMM_WORLD);
}
static void op_alltoall(const void *arg)
{
    const struct bench *b = arg;
    MPI_Alltoall(b->src, b->n, MPI_BYTE, b->dst, b->n, MPI_BYTE, MPI_COMM_WORLD);
}
static void op_alltoallv(const void *arg)
{
    const struct bench *b = arg;
    MPI_Alltoallv(b->src, b->counts, b->displs, MPI_BYTE, b->dst, b->counts, b->displs, MPI_BYTE,
                  MPI_COMM_WORLD);
}

static void measure(const char *name, bench_mpi_fn fn, const struct bench *b, int reps, int rank)
{
    double med = bench_mpi_median(fn, b, 1, reps, COLL_TARGET_SECONDS);
    if (rank == 0) {
        char key[96];
        snprintf(key, sizeof key, "mpi_%s_p%d_n%d_us", name, b->p, b->n);
        bench_result(key, med * 1e6, "us");
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int reps = bench_reps();
    if (argc < 2) {
        if (rank == 0)
            fprintf(stderr, "usage: mpirun -np P mpi_coll n [n ...]\n");
        MPI_Finalize();
        return 2;
    }
    if (rank == 0)
        printf("# mpi_coll: %d ranks, reps=%d\n", size, reps);
    for (int s = 1; s < argc; s++) {
        long n = atol(argv[s]);
        if (n < 0 || n % 8 || n > (1L << 30) / size) {
            if (rank == 0)
                fprintf(stderr, "mpi_coll: n = %s is not a multiple of 8 in [0, 2^30/P]\n",
                        argv[s]);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
        struct bench b = {size,
                          (int)n,
                          calloc((size_t)size, n ? (size_t)n : 1),
                          calloc((size_t)size, n ? (size_t)n : 1),
                          malloc((size_t)size * sizeof(int)),
                          malloc((size_t)size * sizeof(int))};
        if (!b.src || !b.dst || !b.counts || !b.displs)
            MPI_Abort(MPI_COMM_WORLD, 1);
        for (int j = 0; j < size; j++) {
            b.counts[j] = (int)n;
            b.displs[j] = j * (int)n;
        }
#define MEASURE(op) measure(#op, op_##op, &b, reps, rank);
        COLL_OPS(MEASURE)
#undef MEASURE
        free(b.src), free(b.dst), free(b.counts), free(b.displs);
    }
    MPI_Finalize();
    return 0;
}
