/* prefix — validation suite (docs/validation.md): parallel prefix sums of a long
 * array, repeated.
 *
 * usage: prefix [SIZE [ITERS]]   (default 2097152 elements, 24 rounds)
 * The array x of SIZE 64-bit integers is block-distributed. In round r,
 * x[i] = i + r; each process scans its block, the P block totals are combined
 * by recursive doubling (ceil(log2 P) supersteps of one bsp_put each: process s
 * sends its running sum to s + 2^k), and each process adds the sum of the
 * blocks before its own. Every element is then compared with the closed form
 * i(i+1)/2 + r(i+1) (mod 2^64). P from bsp_nprocs(); any P >= 1, also P > SIZE.
 * Prints "prefix: P = p, n = SIZE, ITERS iterations, OK" on process 0 and exits
 * 0; a wrong sum stops the run with bsp_abort("prefix: WRONG ...") (status 1);
 * bad arguments print one line and exit 2.
 *
 * As in BSPlib, only process 0 is guaranteed to run main before bsp_begin, so
 * the arguments reach the other processes by bsp_put.
 */
#include <bsp.h>

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static int args[2] = {1 << 21, 24}; /* SIZE, ITERS: process 0's, set by main */

/* First element of process s's block: blocks differ in size by at most one. */
static long block_start(int s, int p, long n) { return (long)((int64_t)s * n / p); }

/* sum_{j=0}^{i} (j + r) mod 2^64; i(i+1)/2 halves the even factor first so that
 * nothing is lost before the wrap-around. */
static uint64_t closed_form(uint64_t i, uint64_t r)
{
    uint64_t tri = i % 2 == 0 ? (i / 2) * (i + 1) : i * ((i + 1) / 2);
    return tri + r * (i + 1);
}

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

    long lo = block_start(s, p, n), nloc = block_start(s + 1, p, n) - lo;
    uint64_t *x = malloc((size_t)(nloc > 0 ? nloc : 1) * sizeof *x);
    long *verdicts = calloc((size_t)p * 2, sizeof *verdicts); /* process 0's: per process */
    if (!x || !verdicts)
        bsp_abort("prefix: out of memory for %ld elements", nloc);
    uint64_t incoming = 0;
    bsp_push_reg(&incoming, sizeof incoming);
    bsp_push_reg(verdicts, p * 2 * (int)sizeof *verdicts);
    bsp_sync();

    long mismatches = 0, first_bad = -1;
    for (int r = 0; r < rounds; r++) {
        uint64_t run = 0;
        for (long i = 0; i < nloc; i++) {
            run += (uint64_t)(lo + i) + (uint64_t)r;
            x[i] = run;
        }
        /* Recursive doubling over the block totals: after the step of distance d,
         * sum holds the total of blocks s-2d+1 .. s. bsp_put copies sum at the
         * call, so it can grow before the put lands. */
        uint64_t total = run, sum = run;
        for (int d = 1; d < p; d *= 2) {
            if (s + d < p)
                bsp_put(s + d, &sum, &incoming, 0, sizeof sum);
            bsp_sync();
            if (s >= d)
                sum += incoming;
        }
        uint64_t before = sum - total;
        for (long i = 0; i < nloc; i++) {
            x[i] += before;
            if (x[i] != closed_form((uint64_t)(lo + i), (uint64_t)r) && mismatches++ == 0)
                first_bad = lo + i;
        }
    }

    long mine[2] = {mismatches, first_bad};
    bsp_put(0, mine, verdicts, s * 2 * (int)sizeof *verdicts, sizeof mine);
    bsp_sync();
    if (s == 0) {
        for (int t = 0; t < p; t++)
            if (verdicts[2 * t] > 0)
                bsp_abort("prefix: WRONG, process %d: %ld sums differ from the closed form, "
                          "the first at index %ld",
                          t, verdicts[2 * t], verdicts[2 * t + 1]);
        printf("prefix: P = %d, n = %ld, %d iterations, OK\n", p, n, rounds);
    }
    bsp_pop_reg(verdicts);
    bsp_pop_reg(&incoming);
    bsp_sync();
    free(verdicts);
    free(x);
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
        fprintf(stderr, "usage: prefix [SIZE [ITERS]]\n");
        return 2;
    }
    if (argc > 1 && parse(argv[1], 1, INT_MAX, &args[0]) != 0) {
        fprintf(stderr, "prefix: SIZE must be an integer from 1 to %d, got '%s'\n", INT_MAX,
                argv[1]);
        return 2;
    }
    if (argc > 2 && parse(argv[2], 1, 100000, &args[1]) != 0) {
        fprintf(stderr, "prefix: ITERS must be an integer from 1 to 100000, got '%s'\n", argv[2]);
        return 2;
    }
    spmd();
    return 0;
}
