/* scale_bsp.c — the supersteps of bench/smpi/scale.sh, on polybsp: simulated
 * time per superstep of each kind, for the simulator's clock (the smpi engine).
 *
 *   scale_bsp [NSPARSE [NEMPTY [NDENSE [BYTES [put|hpput]]]]]
 *                                          (defaults 10 100 0 1024 put)
 *
 * Phases, each after a sync that lines the processes up:
 *   sparse: NSPARSE supersteps, each process s puts BYTES to (s + 1) mod P and
 *           BYTES to perm(s), a random permutation of the pids drawn anew in
 *           every superstep from a seed all processes share (scale_mpi.c sends
 *           the same traffic with Isend/Irecv/Waitall + MPI_Barrier);
 *   empty:  NEMPTY supersteps without communication;
 *   dense:  NDENSE supersteps, each process puts BYTES to every other (a total
 *           exchange; scale_mpi.c: MPI_Alltoall), by bsp_put or, when the
 *           fifth argument says so, bsp_hpput (whose data the MPI engine
 *           moves apart from the records from 16 KiB).
 * Process 0 prints, for each phase run,
 *   result bsp_<phase>_us <simulated us per superstep>
 * and the data each phase left is checked (CONFORMANCE FAILURE otherwise).
 */
#include <bsp.h>

#include "scale_perm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    bsp_begin(bsp_nprocs());
    int P = bsp_nprocs(), s = bsp_pid();
    long nsparse = argc > 1 ? atol(argv[1]) : 10, nempty = argc > 2 ? atol(argv[2]) : 100;
    long ndense = argc > 3 ? atol(argv[3]) : 0, m = argc > 4 ? atol(argv[4]) : 1024;
    int hp = argc > 5 && strcmp(argv[5], "hpput") == 0;
    if (nsparse < 0 || nempty < 0 || ndense < 0 || m < 8 ||
        (argc > 5 && !hp && strcmp(argv[5], "put") != 0))
        bsp_abort("scale_bsp: bad arguments (NSPARSE NEMPTY NDENSE >= 0, BYTES >= 8, put|hpput)");
    int *perm = malloc((size_t)P * sizeof *perm);
    char *src = malloc((size_t)m), *ring = calloc(2, (size_t)m);
    char *dense = ndense ? calloc((size_t)P, (size_t)m) : NULL;
    if (!perm || !src || !ring || (ndense && !dense))
        bsp_abort("scale_bsp: out of memory");
    memset(src, s & 0x7f, (size_t)m);
    memcpy(src, &s, sizeof s);
    bsp_push_reg(ring, (int)(2 * m));
    if (dense)
        bsp_push_reg(dense, (int)(P * m));
    bsp_sync();

    double t0 = bsp_time();
    for (long k = 0; k < nsparse; k++) {
        perm_of(P, (unsigned)k, perm);
        bsp_put((s + 1) % P, src, ring, 0, (int)m);
        bsp_put(perm[s], src, ring, (int)m, (int)m);
        bsp_sync();
    }
    double t1 = bsp_time();
    for (long k = 0; k < nempty; k++)
        bsp_sync();
    double t2 = bsp_time();
    for (long k = 0; k < ndense; k++) {
        for (int d = 0; d < P; d++)
            if (d != s && hp)
                bsp_hpput(d, src, dense, (int)(s * m), (int)m);
            else if (d != s)
                bsp_put(d, src, dense, (int)(s * m), (int)m);
        bsp_sync();
    }
    double t3 = bsp_time();

    int bad = 0, from;
    if (nsparse) {
        memcpy(&from, ring, sizeof from);
        bad |= from != (s + P - 1) % P;
        perm_of(P, (unsigned)(nsparse - 1), perm);
        memcpy(&from, ring + m, sizeof from);
        bad |= perm[from] != s;
    }
    for (int q = 0; dense && q < P; q++) {
        if (q == s)
            continue;
        memcpy(&from, dense + (size_t)q * (size_t)m, sizeof from);
        bad |= from != q;
    }
    if (bad)
        printf("CONFORMANCE FAILURE: scale_bsp: process %d has wrong data\n", s);
    if (s == 0) {
        if (nsparse)
            printf("result bsp_sparse_us %.4g\n", (t1 - t0) / (double)nsparse * 1e6);
        if (nempty)
            printf("result bsp_empty_us %.4g\n", (t2 - t1) / (double)nempty * 1e6);
        if (ndense)
            printf("result bsp_dense_us %.4g\n", (t3 - t2) / (double)ndense * 1e6);
    }
    bsp_end();
    return 0;
}
