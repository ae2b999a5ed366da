/* mpi_anchor.c — Open MPI anchors for the BSP benchmarks (run with 2 ranks).
 *
 * Usage: mpirun -np 2 mpi_anchor barrier
 *        mpirun -np 2 mpi_anchor sendrecv m [m ...]
 *
 * barrier:  median ns per MPI_Barrier           -> result mpi_barrier_ns
 * sendrecv: pairs of ranks (r, r^1) swap m bytes with one MPI_Sendrecv; median
 *           throughput m / time in GB/s          -> result exch_mpi_<m>_gbs
 * Timing mirrors bench_bsp: a barrier lines the ranks up, a batch of calls is timed
 * on rank 0, the batch length is the smallest power of two reaching 10 ms on rank 0.
 */
#include "bench_mpi_timing.h"
#include "bench_util.h"

#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TARGET_SECONDS 0.01

struct op {
    int partner;
    long m;
    unsigned char *src, *dst;
};

static void do_barrier(const void *arg)
{
    (void)arg;
    MPI_Barrier(MPI_COMM_WORLD);
}

static void do_sendrecv(const void *arg)
{
    const struct op *o = arg;
    MPI_Sendrecv(o->src, (int)o->m, MPI_BYTE, o->partner, 0, o->dst, (int)o->m, MPI_BYTE,
                 o->partner, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int reps = bench_reps();
    int barrier = argc == 2 && strcmp(argv[1], "barrier") == 0;
    int sendrecv = argc >= 3 && strcmp(argv[1], "sendrecv") == 0;
    if ((!barrier && !sendrecv) || size % 2) {
        if (rank == 0)
            fprintf(stderr, "usage: mpirun -np <even> mpi_anchor barrier | sendrecv m [m ...]\n");
        MPI_Finalize();
        return 2;
    }
    if (rank == 0)
        printf("# mpi_anchor: %d ranks, reps=%d\n", size, reps);

    if (barrier) {
        double t = bench_mpi_median(do_barrier, NULL, 0, reps, TARGET_SECONDS);
        if (rank == 0)
            bench_result("mpi_barrier_ns", t * 1e9, "ns");
    }
    for (int i = 2; sendrecv && i < argc; i++) {
        struct op o = {rank ^ 1, atol(argv[i]), NULL, NULL};
        if (o.m < 1 || o.m > (1L << 30)) {
            if (rank == 0)
                fprintf(stderr, "mpi_anchor: size %s out of range [1, 2^30]\n", argv[i]);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
        o.src = malloc((size_t)o.m);
        o.dst = calloc((size_t)o.m, 1);
        if (!o.src || !o.dst)
            MPI_Abort(MPI_COMM_WORLD, 1);
        memset(o.src, rank + 1, (size_t)o.m);
        double t = bench_mpi_median(do_sendrecv, &o, 0, reps, TARGET_SECONDS);
        if (o.dst[o.m - 1] != (unsigned char)(o.partner + 1))
            MPI_Abort(MPI_COMM_WORLD, 1);
        if (rank == 0) {
            char key[80];
            snprintf(key, sizeof key, "exch_mpi_%ld_gbs", o.m);
            bench_result(key, (double)o.m / t / 1e9, "GB/s");
        }
        free(o.src);
        free(o.dst);
    }
    MPI_Finalize();
    return 0;
}
