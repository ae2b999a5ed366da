/* sim_exchange.c — the Exchange pattern on a simulated cluster, against the
 * empty superstep and against what an MPI programmer writes for the same
 * guarantee (memcpy of the source, then MPI_Sendrecv), all in the same run
 * (the smpi engine's clock is the simulated one).
 *
 * Build and run (docs/smpi.md):
 *   bspcc --engine smpi -O2 bench/smpi/sim_exchange.c -o sim_exchange
 *   polybsp run --engine smpi --platform fattree-64 -p 8 ./sim_exchange [m]
 * Every process s swaps m bytes (default 6720) with s^1 by one bsp_put per
 * superstep; ROUNDS such supersteps and ROUNDS empty ones are timed with
 * bsp_time on process 0, which prints
 *   result sim_exchange_p<P>_<m>_us   <simulated us per Exchange superstep>
 *   result sim_empty_p<P>_us          <simulated us per empty superstep>
 *   result sim_exchange_p<P>_<m>_ratio <the two's ratio>
 *   result sim_sendrecv_p<P>_<m>_us   <simulated us per memcpy + MPI_Sendrecv>
 *   result sim_put_vs_sendrecv_p<P>_<m> <speed of bsp_put / speed of the MPI anchor>
 *   result sim_sendrecv_barrier_p<P>_<m>_us, sim_put_vs_sendrecv_barrier_p<P>_<m>
 *                                     the same with an MPI_Barrier after each
 * The anchor copies first because bsp_put promises the source may change as
 * soon as the call returns; MPI_Sendrecv alone promises that only on return.
 * The second anchor adds what a superstep also promises: every process has
 * passed the same point (here the partner knows when its data came; a BSP
 * process does not know who sends to it until the sync says so).
 * P must be even. Not a test; docs/performance.md ("MPI engine") has figures.
 */
#include <bsp.h>
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { ROUNDS = 200 };

/* Simulated µs per round of the MPI anchor: copy the source, swap it with the
 * partner by MPI_Sendrecv (into dst), and with fenced an MPI_Barrier after. */
static double anchor_us(const char *src, char *copy, char *dst, long m, int partner, int fenced)
{
    double t0 = MPI_Wtime();
    for (int i = 0; i < ROUNDS; i++) {
        memcpy(copy, src, (size_t)m);
        MPI_Sendrecv(copy, (int)m, MPI_BYTE, partner, 0, dst, (int)m, MPI_BYTE, partner, 0,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (fenced)
            MPI_Barrier(MPI_COMM_WORLD);
    }
    return (MPI_Wtime() - t0) / ROUNDS * 1e6;
}

int main(int argc, char **argv)
{
    bsp_begin(bsp_nprocs());
    int P = bsp_nprocs(), s = bsp_pid();
    long m = argc > 1 ? atol(argv[1]) : 6720;
    if (P % 2 || m < 1)
        bsp_abort("sim_exchange: needs an even P and m >= 1 (got P = %d, m = %ld)", P, m);
    char *src = calloc((size_t)m, 1), *dst = calloc((size_t)m, 1), *copy = calloc((size_t)m, 1);
    if (!src || !dst || !copy)
        bsp_abort("sim_exchange: out of memory");
    bsp_push_reg(dst, (int)m);
    bsp_sync();
    double t0 = bsp_time();
    for (int i = 0; i < ROUNDS; i++) {
        bsp_put(s ^ 1, src, dst, 0, (int)m);
        bsp_sync();
    }
    double t1 = bsp_time();
    for (int i = 0; i < ROUNDS; i++)
        bsp_sync();
    double t2 = bsp_time();
    /* The engine talks on communicators split off MPI_COMM_WORLD, so these
     * messages cannot meet its own. */
    MPI_Barrier(MPI_COMM_WORLD);
    double anchor = anchor_us(src, copy, dst, m, s ^ 1, 0);
    double fenced = anchor_us(src, copy, dst, m, s ^ 1, 1);
    if (s == 0) {
        double exch = (t1 - t0) / ROUNDS * 1e6, empty = (t2 - t1) / ROUNDS * 1e6;
        printf("result sim_exchange_p%d_%ld_us %.4g us\n", P, m, exch);
        printf("result sim_empty_p%d_us %.4g us\n", P, empty);
        printf("result sim_exchange_p%d_%ld_ratio %.4g x\n", P, m, exch / empty);
        printf("result sim_sendrecv_p%d_%ld_us %.4g us\n", P, m, anchor);
        printf("result sim_put_vs_sendrecv_p%d_%ld %.4g x\n", P, m, anchor / exch);
        printf("result sim_sendrecv_barrier_p%d_%ld_us %.4g us\n", P, m, fenced);
        printf("result sim_put_vs_sendrecv_barrier_p%d_%ld %.4g x\n", P, m, fenced / exch);
    }
    bsp_pop_reg(dst);
    bsp_sync();
    free(src);
    free(dst);
    free(copy);
    bsp_end();
    return 0;
}
