/* scale_mpi.c — scale_bsp.c's supersteps written as a plain MPI program: what
 * a programmer who knows every superstep's sources writes (bench/smpi/scale.sh).
 *
 *   scale_mpi [NSPARSE [NEMPTY [NDENSE [BYTES [ANCHORS]]]]]   (defaults 10 100 0 1024 0)
 *
 * sparse: Irecv from (s - 1) mod P and from perm^-1(s), Isend to (s + 1) mod P
 *         and perm(s), Waitall, MPI_Barrier (BSP's superstep promises that
 *         every process has passed it; the same permutations as scale_bsp);
 * empty:  MPI_Barrier;
 * dense:  MPI_Alltoall of BYTES per pair;
 *         also (NDENSE times) sizes by MPI_Alltoall, data by MPI_Alltoallv;
 * and with ANCHORS = 1, NEMPTY times each, what a superstep's agreement could
 * cost: MPI_Allreduce of a word, MPI_Reduce_scatter_block of an int and of a
 * 64-bit word per process.
 * Rank 0 prints result mpi_<phase>_us <simulated us per superstep>.
 */
#include <mpi.h>

#include "scale_perm.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int P, s;
    MPI_Comm_size(MPI_COMM_WORLD, &P);
    MPI_Comm_rank(MPI_COMM_WORLD, &s);
    long nsparse = argc > 1 ? atol(argv[1]) : 10, nempty = argc > 2 ? atol(argv[2]) : 100;
    long ndense = argc > 3 ? atol(argv[3]) : 0, m = argc > 4 ? atol(argv[4]) : 1024;
    int anchors = argc > 5 && atoi(argv[5]) == 1;
    int *perm = malloc((size_t)P * sizeof *perm);
    char *src = calloc(1, (size_t)m), *ring = calloc(2, (size_t)m);
    char *dsrc = ndense ? calloc((size_t)P, (size_t)m) : NULL;
    char *ddst = ndense ? calloc((size_t)P, (size_t)m) : NULL;
    if (!perm || !src || !ring || (ndense && (!dsrc || !ddst)))
        MPI_Abort(MPI_COMM_WORLD, 1);
    MPI_Barrier(MPI_COMM_WORLD);

    double t0 = MPI_Wtime();
    for (long k = 0; k < nsparse; k++) {
        perm_of(P, (unsigned)k, perm);
        int back = 0;
        while (perm[back] != s)
            back++;
        MPI_Request r[4];
        MPI_Irecv(ring, (int)m, MPI_BYTE, (s + P - 1) % P, 0, MPI_COMM_WORLD, &r[0]);
        MPI_Irecv(ring + m, (int)m, MPI_BYTE, back, 1, MPI_COMM_WORLD, &r[1]);
        MPI_Isend(src, (int)m, MPI_BYTE, (s + 1) % P, 0, MPI_COMM_WORLD, &r[2]);
        MPI_Isend(src, (int)m, MPI_BYTE, perm[s], 1, MPI_COMM_WORLD, &r[3]);
        MPI_Waitall(4, r, MPI_STATUSES_IGNORE);
        MPI_Barrier(MPI_COMM_WORLD);
    }
    double t1 = MPI_Wtime();
    for (long k = 0; k < nempty; k++)
        MPI_Barrier(MPI_COMM_WORLD);
    double t2 = MPI_Wtime();
    for (long k = 0; k < ndense; k++)
        MPI_Alltoall(dsrc, (int)m, MPI_BYTE, ddst, (int)m, MPI_BYTE, MPI_COMM_WORLD);
    double t3 = MPI_Wtime();
    /* The same as a BSP library on MPI's collectives moves it (BSPonMPI):
     * sizes by MPI_Alltoall, data by MPI_Alltoallv. */
    int *cnt = malloc(4 * (size_t)P * sizeof *cnt);
    if (!cnt)
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (int q = 0; q < P; q++) {
        cnt[q] = q == s ? 0 : (int)m;
        cnt[P + q] = q * (int)m;
    }
    for (long k = 0; k < ndense; k++) {
        MPI_Alltoall(cnt, 1, MPI_INT, cnt + 2 * P, 1, MPI_INT, MPI_COMM_WORLD);
        for (int q = 0, at = 0; q < P; at += cnt[2 * P + q], q++)
            cnt[3 * P + q] = at;
        MPI_Alltoallv(dsrc, cnt, cnt + P, MPI_BYTE, ddst, cnt + 2 * P, cnt + 3 * P, MPI_BYTE,
                      MPI_COMM_WORLD);
    }
    double t3v = MPI_Wtime();
    /* What a BSP superstep's agreement could cost: an allreduce of a word, and
     * a reduce-scatter of one int per process (the count of heads). */
    long nanchor = anchors ? nempty : 0;
    unsigned bits = 1, all;
    int *flags = calloc((size_t)P, sizeof *flags), expect;
    if (!flags)
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (long k = 0; k < nanchor; k++)
        MPI_Allreduce(&bits, &all, 1, MPI_UNSIGNED, MPI_BOR, MPI_COMM_WORLD);
    double t4 = MPI_Wtime();
    for (long k = 0; k < nanchor; k++)
        MPI_Reduce_scatter_block(flags, &expect, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    double t5 = MPI_Wtime();
    uint64_t *words = calloc((size_t)P, sizeof *words), word;
    if (!words)
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (long k = 0; k < nanchor; k++)
        MPI_Reduce_scatter_block(words, &word, 1, MPI_UINT64_T, MPI_BOR, MPI_COMM_WORLD);
    double t6 = MPI_Wtime();
    if (s == 0) {
        if (nanchor) {
            printf("result mpi_allreduce_us %.4g\n", (t4 - t3v) / (double)nanchor * 1e6);
            printf("result mpi_reduce_scatter_us %.4g\n", (t5 - t4) / (double)nanchor * 1e6);
            printf("result mpi_reduce_scatter64_us %.4g\n", (t6 - t5) / (double)nanchor * 1e6);
        }
        if (nsparse)
            printf("result mpi_sparse_us %.4g\n", (t1 - t0) / (double)nsparse * 1e6);
        if (nempty)
            printf("result mpi_empty_us %.4g\n", (t2 - t1) / (double)nempty * 1e6);
        if (ndense) {
            printf("result mpi_dense_us %.4g\n", (t3 - t2) / (double)ndense * 1e6);
            printf("result mpi_densev_us %.4g\n", (t3v - t3) / (double)ndense * 1e6);
        }
    }
    MPI_Finalize();
    return 0;
}
