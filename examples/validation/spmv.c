/* spmv — validation suite (docs/validation.md): power iteration with a random
 * sparse matrix, its rows block-distributed, remote vector entries fetched with
 * bsp_get.
 *
 * usage: spmv [SIZE [ITERS]]   (default order 131072, 40 iterations)
 * Row i of the SIZE x SIZE matrix A has 8 entries, each a fixed hash of (i, k),
 * values in [0.5, 1.5): in the band |j - i| <= 256 (wrapping around), but for a
 * quarter of the rows the eighth entry is far, shifted m/8 of the way round
 * (m = 1..7). The vector x is distributed like the rows. Each iteration takes two
 * supersteps:
 *   1. one bsp_get per run of consecutive remote entries of y that this
 *      process's rows use (the band's spill into the neighbours' blocks, and
 *      single entries in about seven far blocks: an irregular, sparse h), while
 *      process 0 puts the total ||y||^2 of the previous iteration to everyone;
 *   2. x = y / ||y|| (x = 1 at first), y = A x on the local rows, and each
 *      process's partial ||y||^2 to process 0 (bsp_put): the all-reduce of the
 *      norm is a gather to process 0 and its broadcast in the next superstep.
 * Check: process 0 gathers x and compares it, entry by entry, and ||y|| with a
 * sequential power iteration on the same matrix (to 1e-9 of their size: the
 * sums of squares are added in another order). P from bsp_nprocs(); any P >= 1,
 * also P > SIZE. Prints "spmv: P = p, n = SIZE, ITERS iterations, OK" on process
 * 0 and exits 0; a wrong result stops the run with bsp_abort("spmv: WRONG ...")
 * (status 1); bad arguments print one line and exit 2.
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

enum { ROW_ENTRIES = 8, BAND = 256 };
static const double TOLERANCE = 1e-9;

static int args[2] = {1 << 17, 40}; /* SIZE, ITERS: process 0's, set by main */

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

/* Entry k of row i: its column, and its value in *value. */
static long entry(long i, int k, long n, double *value)
{
    uint64_t h = mix((uint64_t)i * ROW_ENTRIES + (uint64_t)k);
    *value = 0.5 + (double)(h >> 11) * 0x1p-53;
    long offset = (long)(h % (2 * BAND + 1)) - BAND;
    if (k == ROW_ENTRIES - 1 && (h >> 62) == 0) /* far: m/8 of the way round, m = 1..7 */
        offset += (long)((int64_t)(1 + (h >> 32) % 7) * n / 8);
    return ((i + offset) % n + n) % n;
}

/* Process 0's sequential power iteration: x (n values) ends as the run's x; the
 * last ||y|| is returned. */
static double sequential(long n, int iters, double *x, double *y)
{
    double norm = 0.0;
    for (long i = 0; i < n; i++)
        x[i] = 1.0;
    for (int it = 0; it < iters; it++) {
        double squares = 0.0;
        for (long i = 0; i < n; i++) {
            double sum = 0.0, value;
            for (int k = 0; k < ROW_ENTRIES; k++) {
                long col = entry(i, k, n, &value);
                sum += value * x[col];
            }
            y[i] = sum;
            squares += sum * sum;
        }
        norm = sqrt(squares);
        for (long i = 0; i < n; i++)
            x[i] = y[i] / norm;
    }
    return norm;
}

static int compare_long(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

/* A bsp_get of consecutive remote entries of x from one owner. */
struct run {
    int owner, offset; /* the first entry's index in the owner's block */
    int ghost, len;    /* where they go among the ghosts, and how many */
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

    /* The local rows, with each column as an index into xall: the local block of
     * x first, then the ghosts (remote entries, in increasing column order). */
    long lo = block_start(s, p, n), nloc = block_start(s + 1, p, n) - lo;
    long nentries = nloc * ROW_ENTRIES;
    long *where = malloc((size_t)(nentries > 0 ? nentries : 1) * sizeof *where);
    double *values = malloc((size_t)(nentries > 0 ? nentries : 1) * sizeof *values);
    long *ghost_cols = malloc((size_t)(nentries > 0 ? nentries : 1) * sizeof *ghost_cols);
    if (!where || !values || !ghost_cols)
        bsp_abort("spmv: out of memory for %ld rows", nloc);
    long nghosts = 0;
    for (long i = 0; i < nloc; i++)
        for (int k = 0; k < ROW_ENTRIES; k++) {
            long col = entry(lo + i, k, n, &values[i * ROW_ENTRIES + k]);
            where[i * ROW_ENTRIES + k] = col;
            if (col < lo || col >= lo + nloc)
                ghost_cols[nghosts++] = col;
        }
    qsort(ghost_cols, (size_t)nghosts, sizeof *ghost_cols, compare_long);
    long unique = 0;
    for (long g = 0; g < nghosts; g++)
        if (unique == 0 || ghost_cols[g] != ghost_cols[unique - 1])
            ghost_cols[unique++] = ghost_cols[g];
    nghosts = unique;
    for (long e = 0; e < nentries; e++) {
        long col = where[e];
        if (col >= lo && col < lo + nloc) {
            where[e] = col - lo;
            continue;
        }
        long a = 0, b = nghosts; /* binary search: col is among the ghosts */
        while (b - a > 1) {
            long mid = (a + b) / 2;
            if (ghost_cols[mid] <= col)
                a = mid;
            else
                b = mid;
        }
        where[e] = nloc + a;
    }
    /* Runs: consecutive columns of one owner travel in one bsp_get. */
    struct run *runs = malloc((size_t)(nghosts > 0 ? nghosts : 1) * sizeof *runs);
    if (!runs)
        bsp_abort("spmv: out of memory for %ld ghosts", nghosts);
    long nruns = 0;
    for (long g = 0; g < nghosts; g++) {
        int t = owner(ghost_cols[g], p, n);
        struct run *last = nruns > 0 ? &runs[nruns - 1] : NULL;
        if (last && last->owner == t && ghost_cols[g] == ghost_cols[g - 1] + 1)
            last->len++;
        else
            runs[nruns++] = (struct run){t, (int)(ghost_cols[g] - block_start(t, p, n)), (int)g, 1};
    }
    /* y, local entries then ghosts, is what the gets read; x = y / ||y||. */
    size_t all = (size_t)(nloc + nghosts > 0 ? nloc + nghosts : 1);
    double *yall = malloc(all * sizeof *yall), *xall = malloc(all * sizeof *xall);
    double *squares = calloc((size_t)p, sizeof *squares);              /* process 0's */
    double *whole = s == 0 ? malloc((size_t)n * sizeof *whole) : NULL; /* process 0's */
    if (!yall || !xall || !squares || (s == 0 && !whole))
        bsp_abort("spmv: out of memory for %ld rows", nloc);
    double total = 0.0; /* ||y||^2, as process 0 announces it */
    bsp_push_reg(yall, (int)(nloc * (long)sizeof *yall));
    bsp_push_reg(squares, p * (int)sizeof *squares);
    bsp_push_reg(&total, sizeof total);
    bsp_push_reg(whole, s == 0 ? (int)(n * (long)sizeof *whole) : 0);
    bsp_sync();

    /* x starts as 1: as if y were 1 with a norm of 1. */
    for (long i = 0; i < nloc; i++)
        yall[i] = 1.0;
    double norm = 1.0;
    for (int it = 0; it <= iters; it++) {
        /* Superstep 1: process 0 announces the sum of the partial ||y||^2 of the
         * previous multiplication, and the ghost entries of y travel. */
        if (s == 0 && it > 0) {
            double sum = 0.0;
            for (int t = 0; t < p; t++)
                sum += squares[t];
            for (int t = 0; t < p; t++)
                bsp_put(t, &sum, &total, 0, sizeof sum);
        }
        if (it < iters)
            for (long r = 0; r < nruns; r++)
                bsp_get(runs[r].owner, yall, runs[r].offset * (int)sizeof *yall,
                        yall + nloc + runs[r].ghost, runs[r].len * (int)sizeof *yall);
        bsp_sync();
        if (it > 0)
            norm = sqrt(total);
        if (it == iters)
            break;

        /* Superstep 2: x = y / ||y|| on local and ghost entries alike (the same
         * division the owner would do), y = A x, and the partial ||y||^2 to
         * process 0. */
        for (long j = 0; j < nloc + nghosts; j++)
            xall[j] = yall[j] / norm;
        double mine = 0.0;
        for (long i = 0; i < nloc; i++) {
            double sum = 0.0;
            for (int k = 0; k < ROW_ENTRIES; k++)
                sum += values[i * ROW_ENTRIES + k] * xall[where[i * ROW_ENTRIES + k]];
            yall[i] = sum;
            mine += sum * sum;
        }
        bsp_put(0, &mine, squares, s * (int)sizeof mine, sizeof mine);
        bsp_sync();
    }
    for (long i = 0; i < nloc; i++)
        xall[i] = yall[i] / norm;
    if (nloc > 0)
        bsp_put(0, xall, whole, (int)(lo * (long)sizeof *xall), (int)(nloc * (long)sizeof *xall));
    bsp_sync();
    if (s == 0) {
        double *x = malloc((size_t)n * sizeof *x), *yseq = malloc((size_t)n * sizeof *yseq);
        if (!x || !yseq)
            bsp_abort("spmv: out of memory for the sequential iteration of order %ld", n);
        double seq_norm = sequential(n, iters, x, yseq), largest = 0.0;
        for (long i = 0; i < n; i++)
            largest = fmax(largest, fabs(x[i]));
        for (long i = 0; i < n; i++)
            if (!(fabs(whole[i] - x[i]) <= TOLERANCE * largest))
                bsp_abort("spmv: WRONG, x[%ld] = %.17g, the sequential iteration gives %.17g", i,
                          whole[i], x[i]);
        if (!(fabs(norm - seq_norm) <= TOLERANCE * seq_norm))
            bsp_abort("spmv: WRONG, ||y|| = %.17g, the sequential iteration gives %.17g", norm,
                      seq_norm);
        free(yseq);
        free(x);
        printf("spmv: P = %d, n = %ld, %d iterations, OK\n", p, n, iters);
    }
    bsp_pop_reg(whole);
    bsp_pop_reg(&total);
    bsp_pop_reg(squares);
    bsp_pop_reg(yall);
    bsp_sync();
    free(whole);
    free(squares);
    free(xall);
    free(yall);
    free(runs);
    free(ghost_cols);
    free(values);
    free(where);
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
        fprintf(stderr, "usage: spmv [SIZE [ITERS]]\n");
        return 2;
    }
    /* Process 0 gathers x, registered with an int byte count. */
    if (argc > 1 && parse(argv[1], 1, INT_MAX / 8, &args[0]) != 0) {
        fprintf(stderr, "spmv: SIZE must be an integer from 1 to %d, got '%s'\n", INT_MAX / 8,
                argv[1]);
        return 2;
    }
    if (argc > 2 && parse(argv[2], 1, 100000, &args[1]) != 0) {
        fprintf(stderr, "spmv: ITERS must be an integer from 1 to 100000, got '%s'\n", argv[2]);
        return 2;
    }
    spmd();
    return 0;
}
