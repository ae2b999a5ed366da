/* hpput.c — bsp_hpput (unbuffered put).
 * The source is left unchanged until the sync, as the standard requires. Checks:
 * each process writes a distinct block into every process (itself included) at
 * its own offset, blocks of a few KB and a one-int block, nothing outside the
 * target range changes, and the values survive later supersteps.
 */
#include "check.h"

enum { BLOCK = 1024 }; /* ints per source */

static int value(int src, int dst, int i) { return (src * 7919 + dst * 31 + i) % 1000003; }

int main(void)
{
    bsp_begin(bsp_nprocs());
    int p = bsp_pid(), n = bsp_nprocs();

    int *area = check_alloc((size_t)(n * BLOCK + 2) * sizeof(int));
    for (int i = 0; i < n * BLOCK + 2; i++)
        area[i] = -1;
    int *one = check_alloc(sizeof(int));
    *one = -1;
    bsp_push_reg(area + 1, n * BLOCK * sizeof(int));
    bsp_push_reg(one, sizeof(int));
    bsp_sync();

    int *out = check_alloc((size_t)n * BLOCK * sizeof(int));
    for (int q = 0; q < n; q++) {
        for (int i = 0; i < BLOCK; i++)
            out[q * BLOCK + i] = value(p, q, i);
        bsp_hpput(q, out + q * BLOCK, area + 1, p * BLOCK * sizeof(int), BLOCK * sizeof(int));
    }
    int mine = 4242 + p;
    bsp_hpput((p + 1) % n, &mine, one, 0, sizeof(int));
    bsp_sync();
    free(out);

    CHECK_EQ(area[0], -1);
    CHECK_EQ(area[n * BLOCK + 1], -1);
    for (int q = 0; q < n; q++)
        for (int i = 0; i < BLOCK; i++)
            CHECK_EQ(area[1 + q * BLOCK + i], value(q, p, i));
    CHECK_EQ(*one, 4242 + (p + n - 1) % n);

    bsp_sync();
    CHECK_EQ(area[1 + BLOCK - 1], value(0, p, BLOCK - 1));

    bsp_pop_reg(one);
    bsp_pop_reg(area + 1);
    bsp_sync();
    free(one);
    free(area);
    bsp_end();
    return 0;
}
