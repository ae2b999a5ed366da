/* matmul — validation suite (docs/validation.md): dense matrix multiplication
 * C = A B by Cannon's algorithm on a sqrt(P) x sqrt(P) grid of processes.
 *
 * usage: matmul [SIZE [ITERS]]   (default order 576, 4 multiplications)
 * P must be a perfect square q^2 (1, 4, 9, 16, ..., 64, ...): any other P is
 * refused with one line and status 2. The matrices, of order SIZE, are padded
 * with zeros to order q b, b = ceil(SIZE/q), and process (i, j) = (s / q, s % q)
 * holds block (i, j) of each. Multiplication r (r = 0 .. ITERS-1) takes
 * a_kl = (3k + 7l + r) mod 17 - 8 and b_kl = (5k + 11l + 2r) mod 13 - 6: small
 * integers, so every sum below is an exact integer in a double. Supersteps of one
 * multiplication: the skew (block A(i,j) to (i, j-i), B(i,j) to (i-j, j), by
 * bsp_put), then q-1 of: C += A B on the local blocks, A to the left and B
 * upwards (bsp_put of b^2 doubles each: an h of 2 b^2 doubles in and out
 * everywhere); the last C += A B opens the next multiplication's superstep.
 * Check: on each process 4 sampled entries of C (two block corners among them)
 * against sum_l a_kl b_lm computed directly, and on process 0 the sum of all of
 * C (each process sends its block's) against sum_l (sum_k a_kl)(sum_m b_lm).
 * Prints "matmul: P = p, n = SIZE, ITERS iterations, OK" on process 0 and exits
 * 0; a wrong result stops the run with bsp_abort("matmul: WRONG ...") (status 1);
 * bad arguments print one line and exit 2.
 *
 * As in BSPlib, only process 0 is guaranteed to run main before bsp_begin, so
 * the arguments reach the other processes by bsp_put.
 */
#include <bsp.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { SAMPLES = 4, MAX_SIZE = 4096 };

static int args[2] = {576, 4}; /* SIZE, ITERS: process 0's, set by main */

static double a_entry(long k, long l, int r) { return (double)((3 * k + 7 * l + r) % 17 - 8); }
static double b_entry(long k, long l, int r) { return (double)((5 * k + 11 * l + 2 * r) % 13 - 6); }

/* sqrt(p) if p is a perfect square, else 0. */
static int grid_side(int p)
{
    int q = 1;
    while ((long)q * q < p)
        q++;
    return (long)q * q == p ? q : 0;
}

/* Block (bi, bj) of order b of multiplication r's A (or B), zero beyond order n. */
static void fill_block(double *m, int b, int bi, int bj, long n, int r, int is_a)
{
    for (int k = 0; k < b; k++)
        for (int l = 0; l < b; l++) {
            long gk = (long)bi * b + k, gl = (long)bj * b + l;
            m[(long)k * b + l] =
                gk < n && gl < n ? (is_a ? a_entry(gk, gl, r) : b_entry(gk, gl, r)) : 0.0;
        }
}

/* c += a b for blocks of order b, in the i-k-j order that walks rows. */
static void multiply_add(double *c, const double *a, const double *bm, int b)
{
    for (int i = 0; i < b; i++)
        for (int k = 0; k < b; k++) {
            double aik = a[(long)i * b + k];
            const double *brow = bm + (long)k * b;
            double *crow = c + (long)i * b;
            for (int j = 0; j < b; j++)
                crow[j] += aik * brow[j];
        }
}

/* What each process reports to process 0 at the end. */
struct verdict {
    long wrong;                             /* sampled entries that differ */
    long wrong_row, wrong_col, wrong_round; /* the first of them */
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
    int rounds = par[1];

    int q = grid_side(p), bi = s / q, bj = s % q;
    int b = (int)((n + q - 1) / q);
    long bb = (long)b * b;
    double *a = malloc((size_t)bb * sizeof *a), *bm = malloc((size_t)bb * sizeof *bm);
    double *c = malloc((size_t)bb * sizeof *c);
    double *block_sums = calloc((size_t)rounds, sizeof *block_sums);
    double *all_sums = calloc((size_t)p * (size_t)rounds, sizeof *all_sums); /* process 0's */
    struct verdict *verdicts = calloc((size_t)p, sizeof *verdicts);          /* process 0's */
    if (!a || !bm || !c || !block_sums || !all_sums || !verdicts)
        bsp_abort("matmul: out of memory for blocks of order %d", b);
    bsp_push_reg(a, (int)(bb * (long)sizeof *a));
    bsp_push_reg(bm, (int)(bb * (long)sizeof *bm));
    bsp_push_reg(all_sums, p * rounds * (int)sizeof *all_sums);
    bsp_push_reg(verdicts, p * (int)sizeof *verdicts);
    bsp_sync();

    struct verdict mine = {0, -1, -1, -1};
    for (int r = 0; r < rounds; r++) {
        /* The skew: A(i,j) to (i, j-i), B(i,j) to (i-j, j). bsp_put copies its
         * source at the call and writes at the sync, so the blocks are sent from
         * and received into the same registered arrays. */
        fill_block(a, b, bi, bj, n, r, 1);
        fill_block(bm, b, bi, bj, n, r, 0);
        int bytes = (int)(bb * (long)sizeof *a);
        bsp_put(bi * q + (bj - bi + q) % q, a, a, 0, bytes);
        bsp_put(((bi - bj + q) % q) * q + bj, bm, bm, 0, bytes);
        memset(c, 0, (size_t)bb * sizeof *c);
        bsp_sync();
        /* Now A holds block (i, i+j+step) and B block (i+j+step, j). */
        for (int step = 0; step < q; step++) {
            multiply_add(c, a, bm, b);
            if (step == q - 1)
                break;
            bsp_put(bi * q + (bj - 1 + q) % q, a, a, 0, bytes);
            bsp_put(((bi - 1 + q) % q) * q + bj, bm, bm, 0, bytes);
            bsp_sync();
        }

        double sum = 0.0;
        for (long k = 0; k < bb; k++)
            sum += c[k];
        block_sums[r] = sum;
        for (int j = 0; j < SAMPLES; j++) {
            /* Corners (0,0) and (b-1,b-1), then two entries spread over the block. */
            long k = j == 0 ? 0 : j == 1 ? b - 1 : (long)(j * 37 + r * 11) % b;
            long l = j == 0 ? 0 : j == 1 ? b - 1 : (long)(j * 53 + r * 7) % b;
            long gk = (long)bi * b + k, gl = (long)bj * b + l;
            if (gk >= n || gl >= n)
                continue;
            double exact = 0.0;
            for (long m = 0; m < n; m++)
                exact += a_entry(gk, m, r) * b_entry(m, gl, r);
            if (c[k * b + l] != exact && mine.wrong++ == 0) {
                mine.wrong_row = gk;
                mine.wrong_col = gl;
                mine.wrong_round = r;
            }
        }
    }
    bsp_put(0, block_sums, all_sums, s * rounds * (int)sizeof *block_sums,
            rounds * (int)sizeof *block_sums);
    bsp_put(0, &mine, verdicts, s * (int)sizeof mine, sizeof mine);
    bsp_sync();
    if (s == 0) {
        for (int t = 0; t < p; t++)
            if (verdicts[t].wrong > 0)
                bsp_abort("matmul: WRONG, process %d: %ld sampled entries differ, the first "
                          "C[%ld][%ld] of multiplication %ld",
                          t, verdicts[t].wrong, verdicts[t].wrong_row, verdicts[t].wrong_col,
                          verdicts[t].wrong_round);
        for (int r = 0; r < rounds; r++) {
            /* sum_km c_km = sum_l (sum_k a_kl) (sum_m b_lm) */
            double exact = 0.0, got = 0.0;
            for (long l = 0; l < n; l++) {
                double column = 0.0, row = 0.0;
                for (long k = 0; k < n; k++) {
                    column += a_entry(k, l, r);
                    row += b_entry(l, k, r);
                }
                exact += column * row;
            }
            for (int t = 0; t < p; t++)
                got += all_sums[t * rounds + r];
            if (got != exact)
                bsp_abort("matmul: WRONG, multiplication %d: the entries of C sum to %.17g, not "
                          "%.17g",
                          r, got, exact);
        }
        printf("matmul: P = %d, n = %ld, %d iterations, OK\n", p, n, rounds);
    }
    bsp_pop_reg(verdicts);
    bsp_pop_reg(all_sums);
    bsp_pop_reg(bm);
    bsp_pop_reg(a);
    bsp_sync();
    free(verdicts);
    free(all_sums);
    free(block_sums);
    free(c);
    free(bm);
    free(a);
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
        fprintf(stderr, "usage: matmul [SIZE [ITERS]]\n");
        return 2;
    }
    /* Up to order 4096 every entry and sum of C is an integer below 2^53, and a
     * block at P = 1 (128 MiB) still fits in an int byte count. */
    if (argc > 1 && parse(argv[1], 1, MAX_SIZE, &args[0]) != 0) {
        fprintf(stderr, "matmul: SIZE must be an integer from 1 to %d, got '%s'\n", MAX_SIZE,
                argv[1]);
        return 2;
    }
    if (argc > 2 && parse(argv[2], 1, 100000, &args[1]) != 0) {
        fprintf(stderr, "matmul: ITERS must be an integer from 1 to 100000, got '%s'\n", argv[2]);
        return 2;
    }
    /* Before bsp_begin, bsp_nprocs() is the P the run will have. */
    int p = bsp_nprocs();
    if (grid_side(p) == 0) {
        fprintf(stderr, "matmul: P must be a perfect square (1, 4, 9, 16, ...), got %d\n", p);
        return 2;
    }
    spmd();
    return 0;
}
