/* sweep — the synthetic of bench/footprint/footprint.sh: a Jacobi sweep of N
 * doubles per process, one superstep per sweep and no communication but the
 * sync, so that each superstep's work is one pass over the process's own data
 * and nothing else. It stands for no program of either suite: the walk of
 * POLYBSP_SOLO=smpi is sized on it (docs/validation.md, "the simulator's
 * footprint"), never on the held-out programs.
 *
 * Usage: sweep N SWEEPS (N >= 3 doubles per process, SWEEPS >= 1); prints
 * `sweep: P = <p>, N = <n>, <sweeps> sweeps, sum <s>` on process 0. */
#include <bsp.h>
#include <stdio.h>
#include <stdlib.h>

static long arg(const char *s, long least)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (*s == '\0' || *end != '\0' || v < least) {
        fprintf(stderr, "sweep: '%s' is not a whole number >= %ld\n", s, least);
        exit(2);
    }
    return v;
}

static long args[2]; /* N, SWEEPS: process 0's, set by main */

static void spmd(void)
{
    bsp_begin(bsp_nprocs());
    /* Only process 0 is sure to have run main (BSPlib): the others get its
     * arguments by a put. */
    long par[2];
    bsp_push_reg(par, sizeof par);
    bsp_sync();
    if (bsp_pid() == 0)
        for (int t = 0; t < (int)bsp_nprocs(); t++)
            bsp_put(t, args, par, 0, sizeof args);
    bsp_sync();
    bsp_pop_reg(par);
    long n = par[0], sweeps = par[1];
    double *u = malloc((size_t)n * sizeof *u), *v = malloc((size_t)n * sizeof *v);
    if (!u || !v)
        bsp_abort("sweep: out of memory for %ld doubles", 2 * n);
    for (long i = 0; i < n; i++)
        u[i] = v[i] = (double)((i * 7 + bsp_pid()) % 13);
    bsp_sync();
    for (long s = 0; s < sweeps; s++) {
        for (long i = 1; i < n - 1; i++)
            v[i] = 0.25 * (u[i - 1] + 2 * u[i] + u[i + 1]);
        double *t = u;
        u = v;
        v = t;
        bsp_sync();
    }
    double sum = 0;
    for (long i = 0; i < n; i++)
        sum += u[i];
    if (bsp_pid() == 0)
        printf("sweep: P = %d, N = %ld, %ld sweeps, sum %.6g\n", bsp_nprocs(), n, sweeps, sum);
    free(u);
    free(v);
    bsp_end();
}

int main(int argc, char **argv)
{
    bsp_init(spmd, argc, argv);
    if (argc != 3) {
        fprintf(stderr, "usage: sweep N SWEEPS\n");
        return 2;
    }
    args[0] = arg(argv[1], 3);
    args[1] = arg(argv[2], 1);
    spmd();
    return 0;
}
