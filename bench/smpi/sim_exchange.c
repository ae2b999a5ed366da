/* sim_exchange.c — the Exchange pattern on a simulated cluster, against the
 * empty superstep of the same run (the smpi engine's clock is the simulated one).
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
 * P must be even. Not a test; docs/performance.md ("MPI engine") has figures.
 */
#include <bsp.h>

#include <stdio.h>
#include <stdlib.h>

enum { ROUNDS = 200 };

int main(int argc, char **argv)
{
    bsp_begin(bsp_nprocs());
    int P = bsp_nprocs(), s = bsp_pid();
    long m = argc > 1 ? atol(argv[1]) : 6720;
    if (P % 2 || m < 1)
        bsp_abort("sim_exchange: needs an even P and m >= 1 (got P = %d, m = %ld)", P, m);
    char *src = calloc((size_t)m, 1), *dst = calloc((size_t)m, 1);
    if (!src || !dst)
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
    if (s == 0) {
        double exch = (t1 - t0) / ROUNDS * 1e6, empty = (t2 - t1) / ROUNDS * 1e6;
        printf("result sim_exchange_p%d_%ld_us %.4g us\n", P, m, exch);
        printf("result sim_empty_p%d_us %.4g us\n", P, empty);
        printf("result sim_exchange_p%d_%ld_ratio %.4g x\n", P, m, exch / empty);
    }
    bsp_pop_reg(dst);
    bsp_sync();
    free(src);
    free(dst);
    bsp_end();
    return 0;
}
