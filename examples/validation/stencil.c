/* stencil — validation suite (docs/validation.md): a 1-D heat equation solved by
 * Jacobi iteration on a block-distributed array.
 *
 * usage: stencil [SIZE [ITERS]]   (default 2097152 points, 96 iterations)
 * u holds SIZE points, fixed at 0 beyond both ends, initially pseudo-random in
 * [0, 1) (a fixed hash of the index). Each iteration is one superstep: every
 * process computes u'[i] = (u[i-1] + 2 u[i] + u[i+1]) / 4 on its block, then
 * sends its first and last new values to its neighbours' halo cells with
 * bsp_hpput. Every 8th iteration the same superstep also all-reduces the
 * residual max |u' - u|: every process bsp_puts its local maximum to every
 * process, which all take the maximum of the P values.
 * Check: the value after ITERS iterations at 8 points of each block (its two
 * ends among them) depends only on the initial values within ITERS of it, so
 * each process recomputes them sequentially from that window and compares
 * bit for bit (the update is the same expression, exact whether or not the
 * compiler fuses its multiply and add); and all processes must have reduced the
 * same residuals. P from bsp_nprocs(); any P >= 1, also P > SIZE.
 * Prints "stencil: P = p, n = SIZE, ITERS iterations, OK" on process 0 and exits
 * 0; a wrong value stops the run with bsp_abort("stencil: WRONG ...") (status
 * 1); bad arguments print one line and exit 2.
 *
 * As in BSPlib, only process 0 is guaranteed to run main before bsp_begin, so
 * the arguments reach the other processes by bsp_put.
 */
#include <bsp.h>

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { SAMPLES = 8, REDUCE_EVERY = 8 };

static int args[2] = {1 << 21, 96}; /* SIZE, ITERS: process 0's, set by main */

static long block_start(int s, int p, long n) { return (long)((int64_t)s * n / p); }

/* The process whose block holds index i: the largest s with block_start(s) <= i. */
static int owner(long i, int p, long n) { return (int)(((int64_t)i * p + p - 1) / n); }

static uint64_t mix(uint64_t z)
{
    z += 0x9e3779b97f4a7c15u;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

static double initial(long i) { return (double)(mix((uint64_t)i) >> 11) * 0x1p-53; }

/* 2 u[i] is exact, so a fused multiply-add gives the same sum as two roundings. */
static double update(double left, double mid, double right)
{
    return 0.25 * (left + 2.0 * mid + right);
}

/* u at point i after t iterations, from the initial values within t of i (the
 * domain of dependence), in place in win (2t+1 values): step k updates the
 * points still within t-k of i. Points outside [0, n) stay 0. */
static double sequential_point(long i, int t, long n, double *win)
{
    long lo = i - t, hi = i + t;
    for (long k = lo; k <= hi; k++)
        win[k - lo] = k >= 0 && k < n ? initial(k) : 0.0;
    for (int step = 1; step <= t; step++) {
        double left = win[step - 1]; /* the previous step's value at k-1 */
        for (long k = lo + step; k <= hi - step; k++) {
            double mid = win[k - lo];
            if (k >= 0 && k < n)
                win[k - lo] = update(left, mid, win[k - lo + 1]);
            left = mid;
        }
    }
    return win[i - lo];
}

/* What each process reports to process 0 at the end. */
struct verdict {
    long wrong, first_wrong; /* sampled points that differ, the first one's index */
    double residuals;        /* the sum of the reduced residuals, the same everywhere */
};

static void spmd(void)
{
    bsp_begin(bsp_nprocs());
    int p = bsp_nprocs(), s = bsp_pid();
    int par[2];
    bsp_push_reg(par, sizeof par);
    bsp_sync();
    if (s == 0)
        for (int t = 0; t < p; t++)
            bsp_put(t, args, par, 0, sizeof args);
    bsp_sync();
    bsp_pop_reg(par);
    long n = par[0];
    int iters = par[1];

    /* Block [lo, lo + nloc) with halo cells at 0 and nloc + 1. With P > SIZE some
     * blocks are empty: the neighbours are the owners of lo - 1 and lo + nloc. */
    long lo = block_start(s, p, n), nloc = block_start(s + 1, p, n) - lo;
    int left = nloc > 0 && lo > 0 ? owner(lo - 1, p, n) : -1;
    int right = nloc > 0 && lo + nloc < n ? owner(lo + nloc, p, n) : -1;
    long left_nloc = left >= 0 ? block_start(left + 1, p, n) - block_start(left, p, n) : 0;
    double *u = malloc((size_t)(nloc + 2) * sizeof *u), *v = calloc((size_t)nloc + 2, sizeof *v);
    double *resid = calloc((size_t)p, sizeof *resid);
    double *win = malloc((size_t)(2 * iters + 1) * sizeof *win);
    struct verdict *verdicts = calloc((size_t)p, sizeof *verdicts); /* process 0's */
    if (!u || !v || !resid || !win || !verdicts)
        bsp_abort("stencil: out of memory for %ld points", nloc);
    /* The initial halos come from the closed form, so the first superstep computes. */
    for (long i = 0; i < nloc + 2; i++)
        u[i] = lo - 1 + i >= 0 && lo - 1 + i < n ? initial(lo - 1 + i) : 0.0;
    /* u and v swap roles each iteration on every process alike, so the
     * registration of v names the same buffer everywhere. */
    bsp_push_reg(u, (int)((nloc + 2) * (long)sizeof *u));
    bsp_push_reg(v, (int)((nloc + 2) * (long)sizeof *v));
    bsp_push_reg(resid, p * (int)sizeof *resid);
    bsp_push_reg(verdicts, p * (int)sizeof *verdicts);
    bsp_sync();

    double residuals = 0.0;
    for (int k = 1; k <= iters; k++) {
        for (long i = 1; i <= nloc; i++)
            v[i] = update(u[i - 1], u[i], u[i + 1]);
        /* bsp_hpput reads v[1] and v[nloc] during the sync: nothing writes them
         * then, and nobody reads the halo cells of v in this superstep. */
        if (left >= 0)
            bsp_hpput(left, &v[1], v, (int)((left_nloc + 1) * (long)sizeof *v), sizeof *v);
        if (right >= 0)
            bsp_hpput(right, &v[nloc], v, 0, sizeof *v);
        int reduce = k % REDUCE_EVERY == 0;
        if (reduce) {
            double change = 0.0;
            for (long i = 1; i <= nloc; i++)
                change = fmax(change, fabs(v[i] - u[i]));
            for (int t = 0; t < p; t++)
                bsp_put(t, &change, resid, s * (int)sizeof change, sizeof change);
        }
        bsp_sync();
        if (reduce) {
            double global = 0.0;
            for (int t = 0; t < p; t++)
                global = fmax(global, resid[t]);
            residuals += global;
        }
        double *swap = u;
        u = v;
        v = swap;
    }

    struct verdict mine = {0, -1, residuals};
    for (int j = 0; j < SAMPLES && nloc > 0; j++) {
        long i = j == 0 ? 0 : j == SAMPLES - 1 ? nloc - 1 : j * nloc / (SAMPLES - 1);
        if (u[i + 1] != sequential_point(lo + i, iters, n, win) && mine.wrong++ == 0)
            mine.first_wrong = lo + i;
    }
    bsp_put(0, &mine, verdicts, s * (int)sizeof mine, sizeof mine);
    bsp_sync();
    if (s == 0) {
        for (int t = 0; t < p; t++) {
            if (verdicts[t].wrong > 0)
                bsp_abort("stencil: WRONG, process %d: %ld of its sampled points differ from the "
                          "sequential computation, the first at index %ld",
                          t, verdicts[t].wrong, verdicts[t].first_wrong);
            if (memcmp(&verdicts[t].residuals, &verdicts[0].residuals, sizeof residuals) != 0)
                bsp_abort(
                    "stencil: WRONG, process %d reduced other residuals than process 0 (their "
                    "sum %.17g, not %.17g)",
                    t, verdicts[t].residuals, verdicts[0].residuals);
        }
        printf("stencil: P = %d, n = %ld, %d iterations, OK\n", p, n, iters);
    }
    bsp_pop_reg(verdicts);
    bsp_pop_reg(resid);
    bsp_pop_reg(v);
    bsp_pop_reg(u);
    bsp_sync();
    free(verdicts);
    free(win);
    free(resid);
    free(v);
    free(u);
    bsp_end();
}

/* An integer argument from least to most; -1 if it is not one. */
static int parse(const char *text, long least, long most, int *out)
{
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (end == text || *end != '\0' || errno != 0 || v < least || v > most)
        return -1;
    *out = (int)v;
    return 0;
}

int main(int argc, char **argv)
{
    bsp_init(spmd, argc, argv);
    if (argc > 3) {
        fprintf(stderr, "usage: stencil [SIZE [ITERS]]\n");
        return 2;
    }
    /* A block with its halos is registered with an int byte count. */
    if (argc > 1 && parse(argv[1], 1, INT_MAX / 8 - 2, &args[0]) != 0) {
        fprintf(stderr, "stencil: SIZE must be an integer from 1 to %d, got '%s'\n",
                INT_MAX / 8 - 2, argv[1]);
        return 2;
    }
    if (argc > 2 && parse(argv[2], 1, 100000, &args[1]) != 0) {
        fprintf(stderr, "stencil: ITERS must be an integer from 1 to 100000, got '%s'\n", argv[2]);
        return 2;
    }
    spmd();
    return 0;
}
