/* bcast.c — bsp_bcast and every bsp_bcast_with algorithm, for every root and
 * several sizes (0 included): every process ends with the root's bytes, the
 * bytes after the buffer are untouched, and the algorithm takes the documented
 * number of supersteps.
 */
#include "coll_test.h"

#include <stdio.h>

enum { GUARD = 16 };

static const size_t sizes[] = {0, 1, 3, 8, 100, 4097, 65549, 300007};

static int ceil_log2(int n)
{
    int d = 0;
    while ((1 << d) < n)
        d++;
    return d;
}

/* Root(p) supersteps, from its definition: Root(m) on the m cluster leaders' side,
 * one superstep to the leaders, Root(k) inside clusters of k = 2^ceil(log2(p)/2). */
static int rootp_steps(int p)
{
    if (p <= 2)
        return p - 1;
    int k = 1 << (ceil_log2(p) + 1) / 2, m = (p + k - 1) / k;
    return rootp_steps(m) + 1 + rootp_steps(k);
}

static int steps_of(bsp_bcast_alg alg, int p, size_t n)
{
    if (p == 1 || n == 0)
        return 1;
    switch (alg) {
    case BSP_BCAST_BINOMIAL: return ceil_log2(p);
    case BSP_BCAST_TWOPHASE: return 2;
    case BSP_BCAST_ROOTP: return rootp_steps(p);
    case BSP_BCAST_DIRECT: return 1;
    default: return -1;
    }
}

int main(void)
{
    bsp_begin(bsp_nprocs());
    int p = bsp_nprocs(), me = bsp_pid();
    size_t max = sizes[sizeof sizes / sizeof sizes[0] - 1];
    unsigned char *buf = check_alloc(max + GUARD);
    static const bsp_bcast_alg algs[] = {BSP_BCAST_AUTO, BSP_BCAST_BINOMIAL, BSP_BCAST_TWOPHASE,
                                         BSP_BCAST_ROOTP, BSP_BCAST_DIRECT};
    for (size_t a = 0; a < sizeof algs / sizeof algs[0]; a++)
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
            for (int root = 0; root < p; root++) {
                size_t n = sizes[s];
                long salt = (long)(a * 100 + s);
                if (me == root)
                    coll_fill(buf, n, root, 0, salt);
                else
                    memset(buf, COLL_JUNK, n);
                memset(buf + n, COLL_JUNK, GUARD);
                unsigned long before = bsp_superstep();
                if (algs[a] == BSP_BCAST_AUTO)
                    bsp_bcast(root, buf, n);
                else
                    bsp_bcast_with(algs[a], root, buf, n);
                long steps = (long)(bsp_superstep() - before);
                char what[96];
                snprintf(what, sizeof what, "alg %d, root %d, n %zu", (int)algs[a], root, n);
                COLL_CHECK_PATTERN(buf, n, root, 0, salt, what);
                COLL_CHECK_BYTES(buf + n, GUARD, COLL_JUNK, what);
                if (algs[a] == BSP_BCAST_AUTO)
                    CHECK(steps == steps_of(BSP_BCAST_BINOMIAL, p, n) ||
                          steps == steps_of(BSP_BCAST_TWOPHASE, p, n) || steps == 1);
                else
                    CHECK_EQ(steps, steps_of(algs[a], p, n));
            }
    free(buf);
    bsp_end();
    return 0;
}
