/* samplesort — validation suite (docs/validation.md): BSP sample sort by regular
 * sampling, repeated on fresh keys.
 *
 * usage: samplesort [SIZE [ITERS]]   (default 524288 keys, 4 rounds)
 * Round r sorts SIZE distinct 64-bit keys, key i being a fixed bijective hash of
 * r * SIZE + i, block-distributed. Six supersteps a round:
 *   1. local sort (qsort); P-1 regular samples to process 0 (bsp_put);
 *   2. process 0 sorts the P(P-1) samples and puts P-1 splitters to everyone;
 *   3. each process cuts its sorted keys at the splitters and puts the size of
 *      each bucket to its destination (an all-to-all of counts);
 *   4. each destination computes where each source's bucket goes in its receive
 *      buffer, registers that buffer and puts the offsets back;
 *   5. the buckets travel (bsp_put, a variable number of keys per destination:
 *      an irregular h);
 *   6. each process sorts what it received and reports its count, first and
 *      last keys, and the sum and sum of squares (mod 2^64) of its keys to
 *      process 0.
 * Check: every block is sorted, the blocks are in order, and the counts, sums
 * and sums of squares add up to those of the input, which process 0 computes
 * sequentially from the hash. P from bsp_nprocs(); any P >= 1, also P > SIZE.
 * Prints "samplesort: P = p, n = SIZE, ITERS iterations, OK" on process 0 and
 * exits 0; a wrong result stops the run with bsp_abort("samplesort: WRONG ...")
 * (status 1); bad arguments print one line and exit 2.
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

static int args[2] = {1 << 19, 4}; /* SIZE, ITERS: process 0's, set by main */

static long block_start(int s, int p, long n) { return (long)((int64_t)s * n / p); }

/* splitmix64's finaliser: a bijection, so distinct inputs give distinct keys. */
static uint64_t mix(uint64_t z)
{
    z += 0x9e3779b97f4a7c15u;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

static uint64_t key(long i, int round, long n)
{
    return mix((uint64_t)round * (uint64_t)n + (uint64_t)i);
}

static int compare(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* The first of the sorted keys[0..len) that is >= bound. */
static long lower_bound(const uint64_t *keys, long len, uint64_t bound)
{
    long lo = 0, hi = len;
    while (lo < hi) {
        long mid = lo + (hi - lo) / 2;
        if (keys[mid] < bound)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* What each process reports to process 0 after a round. */
struct summary {
    long count, unsorted;  /* keys held; adjacent pairs out of order */
    uint64_t first, last;  /* the smallest and largest key, when count > 0 */
    uint64_t sum, squares; /* mod 2^64 */
};

/* Process 0's check of round r against the input, computed from the hash. */
static void check_round(const struct summary *sums, int p, long n, int r)
{
    uint64_t sum = 0, squares = 0;
    for (long i = 0; i < n; i++) {
        uint64_t k = key(i, r, n);
        sum += k;
        squares += k * k;
    }
    long count = 0, prev = -1; /* the last process with keys so far */
    uint64_t got_sum = 0, got_squares = 0;
    for (int t = 0; t < p; t++) {
        const struct summary *m = &sums[t];
        if (m->unsorted > 0)
            bsp_abort("samplesort: WRONG, round %d: process %d holds %ld keys out of order", r, t,
                      m->unsorted);
        if (m->count > 0 && prev >= 0 && sums[prev].last > m->first)
            bsp_abort("samplesort: WRONG, round %d: process %d's last key exceeds process %d's "
                      "first",
                      r, (int)prev, t);
        if (m->count > 0)
            prev = t;
        count += m->count;
        got_sum += m->sum;
        got_squares += m->squares;
    }
    if (count != n || got_sum != sum || got_squares != squares)
        bsp_abort("samplesort: WRONG, round %d: %ld keys out of %ld, or their sums differ from the "
                  "input's",
                  r, count, n);
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
    uint64_t *keys = malloc((size_t)(nloc > 0 ? nloc : 1) * sizeof *keys);
    /* Process 0's samples (P-1 from each process), everyone's splitters. */
    uint64_t *samples = malloc(((size_t)(s == 0 ? p * (p - 1) : 0) + 1) * sizeof *samples);
    uint64_t *splitters = malloc((size_t)p * sizeof *splitters);
    /* Bucket t is keys[cut[t] .. cut[t+1]) and goes to offset to_offset[t] of
     * process t's receive buffer; from[t] keys arrive from process t. */
    long *cut = malloc((size_t)(p + 1) * sizeof *cut);
    int *from = calloc((size_t)p, sizeof *from), *to_offset = calloc((size_t)p, sizeof *to_offset);
    struct summary *sums = calloc((size_t)p, sizeof *sums); /* process 0's */
    if (!keys || !samples || !splitters || !cut || !from || !to_offset || !sums)
        bsp_abort("samplesort: out of memory for %ld keys", nloc);
    bsp_push_reg(samples, s == 0 ? p * (p - 1) * (int)sizeof *samples : 0);
    bsp_push_reg(splitters, p * (int)sizeof *splitters);
    bsp_push_reg(from, p * (int)sizeof *from);
    bsp_push_reg(to_offset, p * (int)sizeof *to_offset);
    bsp_push_reg(sums, p * (int)sizeof *sums);
    bsp_sync();

    for (int r = 0; r < rounds; r++) {
        /* 1: local sort, samples at the P-1 inner regular positions (an empty
         * block sends the largest key, which only makes the last bucket bigger). */
        for (long i = 0; i < nloc; i++)
            keys[i] = key(lo + i, r, n);
        qsort(keys, (size_t)nloc, sizeof *keys, compare);
        for (int k = 0; k < p - 1; k++) {
            uint64_t sample = nloc > 0 ? keys[(k + 1) * nloc / p] : UINT64_MAX;
            bsp_put(0, &sample, samples, (s * (p - 1) + k) * (int)sizeof sample, sizeof sample);
        }
        if (r > 0 && s == 0)
            check_round(sums, p, n, r - 1);
        bsp_sync();

        /* 2: splitter k (1 <= k < P) is the middle of the k-th group of P
         * samples: the samples of all processes at quantile k/P sort together. */
        if (s == 0) {
            splitters[0] = 0; /* bucket 0 starts at the smallest key */
            qsort(samples, (size_t)p * (size_t)(p - 1), sizeof *samples, compare);
            for (int k = 1; k < p; k++)
                splitters[k] = samples[(k - 1) * p + p / 2];
            for (int t = 0; t < p; t++)
                bsp_put(t, splitters, splitters, 0, p * (int)sizeof *splitters);
        }
        bsp_sync();

        /* 3: bucket t holds the keys in [splitters[t], splitters[t+1]). */
        cut[0] = 0;
        cut[p] = nloc;
        for (int t = 1; t < p; t++)
            cut[t] = lower_bound(keys, nloc, splitters[t]);
        for (int t = 0; t < p; t++) {
            int size = (int)(cut[t + 1] - cut[t]);
            bsp_put(t, &size, from, s * (int)sizeof size, sizeof size);
        }
        bsp_sync();

        /* 4: the receive buffer, in source order, and each source's offset in it. */
        long received = 0;
        for (int t = 0; t < p; t++) {
            int at = (int)received;
            received += from[t];
            bsp_put(t, &at, to_offset, s * (int)sizeof at, sizeof at);
        }
        uint64_t *bucket = malloc((size_t)(received > 0 ? received : 1) * sizeof *bucket);
        if (!bucket)
            bsp_abort("samplesort: out of memory for %ld keys", received);
        bsp_push_reg(bucket, (int)(received * (long)sizeof *bucket));
        bsp_sync();

        /* 5: the buckets travel. */
        for (int t = 0; t < p; t++)
            if (cut[t + 1] > cut[t])
                bsp_put(t, keys + cut[t], bucket, to_offset[t] * (int)sizeof *keys,
                        (int)((cut[t + 1] - cut[t]) * (long)sizeof *keys));
        bsp_sync();

        /* 6: sort what arrived and report it. */
        qsort(bucket, (size_t)received, sizeof *bucket, compare);
        struct summary mine = {received, 0, 0, 0, 0, 0};
        for (long i = 0; i < received; i++) {
            mine.unsorted += i > 0 && bucket[i - 1] > bucket[i];
            mine.sum += bucket[i];
            mine.squares += bucket[i] * bucket[i];
        }
        if (received > 0) {
            mine.first = bucket[0];
            mine.last = bucket[received - 1];
        }
        bsp_put(0, &mine, sums, s * (int)sizeof mine, sizeof mine);
        bsp_pop_reg(bucket);
        bsp_sync();
        free(bucket);
    }
    if (s == 0) {
        check_round(sums, p, n, rounds - 1);
        printf("samplesort: P = %d, n = %ld, %d iterations, OK\n", p, n, rounds);
    }
    bsp_pop_reg(sums);
    bsp_pop_reg(to_offset);
    bsp_pop_reg(from);
    bsp_pop_reg(splitters);
    bsp_pop_reg(samples);
    bsp_sync();
    free(sums);
    free(to_offset);
    free(from);
    free(cut);
    free(splitters);
    free(samples);
    free(keys);
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
        fprintf(stderr, "usage: samplesort [SIZE [ITERS]]\n");
        return 2;
    }
    /* A process's keys are registered with an int byte count. */
    if (argc > 1 && parse(argv[1], 1, INT_MAX / 8, &args[0]) != 0) {
        fprintf(stderr, "samplesort: SIZE must be an integer from 1 to %d, got '%s'\n", INT_MAX / 8,
                argv[1]);
        return 2;
    }
    if (argc > 2 && parse(argv[2], 1, 100000, &args[1]) != 0) {
        fprintf(stderr, "samplesort: ITERS must be an integer from 1 to 100000, got '%s'\n",
                argv[2]);
        return 2;
    }
    spmd();
    return 0;
}
