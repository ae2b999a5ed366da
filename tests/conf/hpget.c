/* hpget.c — bsp_hpget (unbuffered get).
 * Checks: blocks of a few KB from every process (itself included) at offsets;
 * the value read is the one at the end of the superstep's computation (the owner
 * overwrites it after the hpget was issued) and before that superstep's puts land.
 */
#include "check.h"

enum { BLOCK = 1024 }; /* ints per destination */

static int value(int owner, int reader, int i) { return (owner * 131 + reader * 7 + i) % 999983; }

int main(void)
{
    bsp_begin(bsp_nprocs());
    int p = bsp_pid(), n = bsp_nprocs();

    int *src = check_alloc((size_t)n * BLOCK * sizeof(int));
    for (int i = 0; i < n * BLOCK; i++)
        src[i] = -2;
    int *x = check_alloc(sizeof(int));
    *x = p;
    bsp_push_reg(src, n * BLOCK * sizeof(int));
    bsp_push_reg(x, sizeof(int));
    bsp_sync();

    int *in = check_alloc((size_t)n * BLOCK * sizeof(int));
    for (int q = 0; q < n; q++)
        bsp_hpget(q, src, p * BLOCK * sizeof(int), in + q * BLOCK, BLOCK * sizeof(int));
    int next = (p + 1) % n, got = -1, v = 1000 + p;
    bsp_hpget(next, x, 0, &got, sizeof(int));
    bsp_put(next, &v, x, 0, sizeof(int));
    /* Written after the hpgets were issued: the end-of-computation values. */
    for (int r = 0; r < n; r++)
        for (int i = 0; i < BLOCK; i++)
            src[r * BLOCK + i] = value(p, r, i);
    *x = p + 500;
    bsp_sync();

    for (int q = 0; q < n; q++)
        for (int i = 0; i < BLOCK; i++)
            CHECK_EQ(in[q * BLOCK + i], value(q, p, i));
    CHECK_EQ(got, next + 500);
    CHECK_EQ(*x, 1000 + (p + n - 1) % n);

    bsp_pop_reg(x);
    bsp_pop_reg(src);
    bsp_sync();
    free(in);
    free(x);
    free(src);
    bsp_end();
    return 0;
}
