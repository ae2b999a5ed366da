/* groups.c — collectives inside the parts of bsp_partition: halves, nested
 * quarters and unequal weights. Pids, roots and results are the part's own; the
 * parts run different collectives' sizes at the same time; after bsp_rejoin the
 * collectives span the whole group again. The reduction operator concatenates
 * digits (associative, not commutative), so the order of the operands shows.
 */
#include "coll_test.h"

#include <stdio.h>

/* (value, 16^digits): a (+) b appends b's digits to a's. */
typedef struct digits {
    uint64_t value, scale;
} digits;

static void concat(void *acc, const void *in, size_t nbytes)
{
    digits *a = acc;
    const digits *b = in;
    for (size_t i = 0; i < nbytes / sizeof *a; i++) {
        a[i].value = a[i].value * b[i].scale + b[i].value;
        a[i].scale *= b[i].scale;
    }
}

static void sum_u64(void *acc, const void *in, size_t nbytes)
{
    uint64_t *a = acc;
    const uint64_t *b = in;
    for (size_t i = 0; i < nbytes / 8; i++)
        a[i] += b[i];
}

/* The digits of global pids first .. last, one hex digit each (pids mod 16). */
static uint64_t digits_of(int first, int last)
{
    uint64_t v = 0;
    for (int q = first; q <= last; q++)
        v = v * 16 + (uint64_t)(q % 16);
    return v;
}

/* Collectives in the current group, whose members are global pids first .. first+p-1. */
static void in_group(int first, long salt)
{
    int p = bsp_nprocs(), me = bsp_pid(), g = first + me;
    size_t n = 100 + 1000 * (size_t)salt;
    unsigned char *buf = check_alloc(n * (size_t)p);
    char what[96];

    static const bsp_bcast_alg algs[] = {BSP_BCAST_AUTO, BSP_BCAST_BINOMIAL, BSP_BCAST_TWOPHASE,
                                         BSP_BCAST_ROOTP, BSP_BCAST_DIRECT};
    for (size_t a = 0; a < sizeof algs / sizeof algs[0]; a++) {
        int root = p - 1;
        if (me == root)
            coll_fill(buf, n, first + root, 0, salt);
        else
            memset(buf, COLL_JUNK, n);
        bsp_bcast_with(algs[a], root, buf, n);
        snprintf(what, sizeof what, "bcast alg %d in group from %d", (int)algs[a], first);
        COLL_CHECK_PATTERN(buf, n, first + root, 0, salt, what);
    }

    /* Sizes that take the direct and the tree algorithms. */
    for (size_t k = 1; k <= 4096; k *= 64) {
        digits *d = check_alloc(k * sizeof *d), *r = check_alloc(k * sizeof *r);
        for (size_t i = 0; i < k; i++)
            d[i] = (digits){(uint64_t)(g % 16), 16};
        int root = p / 2;
        bsp_reduce(root, d, r, k * sizeof *d, concat);
        if (me == root)
            for (size_t i = 0; i < k; i++)
                CHECK_EQ(r[i].value, digits_of(first, first + p - 1));
        bsp_allreduce(d, r, k * sizeof *d, concat);
        for (size_t i = 0; i < k; i++)
            CHECK_EQ(r[i].value, digits_of(first, first + p - 1));
        bsp_scan(d, r, k * sizeof *d, concat);
        for (size_t i = 0; i < k; i++)
            CHECK_EQ(r[i].value, digits_of(first, g));
        free(d);
        free(r);
    }

    uint64_t one = (uint64_t)g + 1, total;
    bsp_allreduce(&one, &total, sizeof one, sum_u64);
    CHECK_EQ(total, (uint64_t)(first + 1 + first + p) * (uint64_t)p / 2);

    coll_fill(buf, n, g, 0, salt);
    unsigned char *all = check_alloc(n * (size_t)p);
    bsp_allgather(buf, all, n);
    for (int q = 0; q < p; q++) {
        snprintf(what, sizeof what, "allgather block %d in group from %d", q, first);
        COLL_CHECK_PATTERN(all + (size_t)q * n, n, first + q, 0, salt, what);
    }
    free(all);
    free(buf);
}

int main(void)
{
    bsp_begin(bsp_nprocs());
    int P = bsp_nprocs(), gme = bsp_pid();

    /* Halves, then quarters inside them. */
    int part = bsp_partition(P >= 2 ? 2 : 1, NULL);
    int first = gme - bsp_pid();
    in_group(first, part);
    if (bsp_nprocs() >= 2) {
        int sub = bsp_partition(2, NULL);
        in_group(gme - bsp_pid(), 10 + part * 2 + sub);
        bsp_rejoin();
    }
    in_group(first, 20 + part);
    bsp_rejoin();

    /* Unequal parts: one process, and the rest. */
    if (P >= 2) {
        double w[2] = {1, (double)(P - 1)};
        part = bsp_partition(2, w);
        CHECK_EQ(bsp_nprocs(), part == 0 ? 1 : P - 1);
        in_group(gme - bsp_pid(), 30 + part);
        bsp_rejoin();
    }

    in_group(0, 40);
    bsp_end();
    return 0;
}
