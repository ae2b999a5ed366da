/* gather.c — bsp_gather, bsp_scatter (every root), bsp_allgather, bsp_alltoall
 * and bsp_alltoallv against the obvious sequential reference, sizes from 0 up:
 * every block where it belongs, guard bytes and gaps untouched, buffers that
 * only the root uses passed as NULL elsewhere, one superstep each (alltoallv:
 * two, one when P = 1).
 */
#include "coll_test.h"

#include <stdio.h>

enum { GUARD = 16 };

static const size_t sizes[] = {0, 1, 5, 64, 1000, 70001};

/* Bytes process i sends to process j in alltoallv round r (some are 0). */
static size_t vcount(int i, int j, int r, size_t unit)
{
    return (size_t)((i * 5 + j * 3 + r) % 4) * unit;
}

static void check_steps(unsigned long before, long want, const char *what)
{
    if ((long)(bsp_superstep() - before) != want)
        bsp_abort("CONFORMANCE FAILURE %s:%d: %s took %lu supersteps, expected %ld", __FILE__,
                  __LINE__, what, bsp_superstep() - before, want);
}

static void alltoallv_round(int p, int me, int r, size_t unit)
{
    size_t sc[64], sd[64], rc[64], rd[64], stotal = 0, rtotal = 0;
    /* Send blocks in pid order with 3-byte gaps; receive blocks in reverse pid
     * order with 5-byte gaps, so displacements matter on both sides. */
    for (int j = 0; j < p; j++) {
        sc[j] = vcount(me, j, r, unit);
        sd[j] = stotal + 3;
        stotal = sd[j] + sc[j];
    }
    for (int i = p - 1; i >= 0; i--) {
        rc[i] = vcount(i, me, r, unit);
        rd[i] = rtotal + 5;
        rtotal = rd[i] + rc[i];
    }
    unsigned char *src = check_alloc(stotal), *dst = check_alloc(rtotal + GUARD);
    memset(src, COLL_JUNK, stotal);
    for (int j = 0; j < p; j++)
        coll_fill(src + sd[j], sc[j], me, (size_t)j << 20, r);
    memset(dst, COLL_JUNK, rtotal + GUARD);
    unsigned long before = bsp_superstep();
    bsp_alltoallv(src, sc, sd, dst, rc, rd);
    check_steps(before, p == 1 ? 1 : 2, "alltoallv");
    char what[64];
    size_t at = 0;
    for (int i = p - 1; i >= 0; i--) {
        snprintf(what, sizeof what, "alltoallv round %d gap before %d", r, i);
        COLL_CHECK_BYTES(dst + at, rd[i] - at, COLL_JUNK, what);
        snprintf(what, sizeof what, "alltoallv round %d block from %d", r, i);
        COLL_CHECK_PATTERN(dst + rd[i], rc[i], i, (size_t)me << 20, r, what);
        at = rd[i] + rc[i];
    }
    COLL_CHECK_BYTES(dst + at, GUARD, COLL_JUNK, "alltoallv guard");
    free(src);
    free(dst);
}

int main(void)
{
    bsp_begin(bsp_nprocs());
    int p = bsp_nprocs(), me = bsp_pid();
    size_t max = sizes[sizeof sizes / sizeof sizes[0] - 1], all = max * (size_t)p;
    unsigned char *src = check_alloc(all + GUARD), *dst = check_alloc(all + GUARD);
    char what[96];
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        size_t n = sizes[s], pn = n * (size_t)p;
        long salt = (long)s;
        for (int root = 0; root < p; root++) {
            /* gather: dst only on the root (NULL elsewhere) */
            coll_fill(src, n, me, 0, salt);
            memset(dst, COLL_JUNK, pn + GUARD);
            unsigned long before = bsp_superstep();
            bsp_gather(root, src, me == root ? dst : NULL, n);
            check_steps(before, 1, "gather");
            if (me == root)
                for (int q = 0; q < p; q++) {
                    snprintf(what, sizeof what, "gather root %d n %zu block %d", root, n, q);
                    COLL_CHECK_PATTERN(dst + (size_t)q * n, n, q, 0, salt, what);
                }
            COLL_CHECK_BYTES(dst + (me == root ? pn : 0), GUARD, COLL_JUNK, "gather guard");
            COLL_CHECK_PATTERN(src, n, me, 0, salt, "gather changed src");

            /* scatter: src only on the root */
            if (me == root)
                for (int q = 0; q < p; q++)
                    coll_fill(src + (size_t)q * n, n, q, 0, salt + 1000);
            memset(dst, COLL_JUNK, n + GUARD);
            before = bsp_superstep();
            bsp_scatter(root, me == root ? src : NULL, dst, n);
            check_steps(before, 1, "scatter");
            snprintf(what, sizeof what, "scatter root %d n %zu", root, n);
            COLL_CHECK_PATTERN(dst, n, me, 0, salt + 1000, what);
            COLL_CHECK_BYTES(dst + n, GUARD, COLL_JUNK, "scatter guard");
        }

        coll_fill(src, n, me, 0, salt + 2000);
        memset(dst, COLL_JUNK, pn + GUARD);
        unsigned long before = bsp_superstep();
        bsp_allgather(src, dst, n);
        check_steps(before, 1, "allgather");
        for (int q = 0; q < p; q++) {
            snprintf(what, sizeof what, "allgather n %zu block %d", n, q);
            COLL_CHECK_PATTERN(dst + (size_t)q * n, n, q, 0, salt + 2000, what);
        }
        COLL_CHECK_BYTES(dst + pn, GUARD, COLL_JUNK, "allgather guard");

        /* alltoall: block j of process i carries pattern (i, j*n) */
        for (int j = 0; j < p; j++)
            coll_fill(src + (size_t)j * n, n, me, (size_t)j * n, salt + 3000);
        memset(dst, COLL_JUNK, pn + GUARD);
        before = bsp_superstep();
        bsp_alltoall(src, dst, n);
        check_steps(before, 1, "alltoall");
        for (int i = 0; i < p; i++) {
            snprintf(what, sizeof what, "alltoall n %zu block from %d", n, i);
            COLL_CHECK_PATTERN(dst + (size_t)i * n, n, i, (size_t)me * n, salt + 3000, what);
        }
        COLL_CHECK_BYTES(dst + pn, GUARD, COLL_JUNK, "alltoall guard");
    }
    CHECK(p <= 64);
    for (int r = 0; r < 4; r++)
        alltoallv_round(p, me, r, r == 0 ? 0 : r == 1 ? 1 : r == 2 ? 7 : 5000);
    free(src);
    free(dst);
    bsp_end();
    return 0;
}
