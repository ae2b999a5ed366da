/* get.c — bsp_get.
 * Checks: the value arrives in the (unregistered) local destination after the
 * sync; it is the remote value as it stands at the end of the superstep's
 * computation (the owner changes it after the get was issued); offsets and
 * multi-int blocks; a source registration whose size differs between processes;
 * a zero-size get changes nothing; gets from oneself work.
 */
#include "check.h"

int main(void)
{
    bsp_begin(bsp_nprocs());
    int p = bsp_pid(), n = bsp_nprocs();

    int *src = check_alloc(n * sizeof(int));
    for (int i = 0; i < n; i++)
        src[i] = p * 1000 + i;
    /* small has p+2 ints on process p. */
    int *small = check_alloc((p + 2) * sizeof(int));
    for (int i = 0; i < p + 2; i++)
        small[i] = p * 100 + i;
    bsp_push_reg(src, n * sizeof(int));
    bsp_push_reg(small, (p + 2) * sizeof(int));
    bsp_sync();

    int *got = check_alloc((n + 2) * sizeof(int));
    for (int i = 0; i < n + 2; i++)
        got[i] = -1;
    for (int q = 0; q < n; q++)
        bsp_get(q, src, p * sizeof(int), got + 1 + q, sizeof(int));
    int next = (p + 1) % n;
    int block[3] = {-1, -1, -1};
    /* the last two ints of next's small registration */
    bsp_get(next, small, next * sizeof(int), block, 2 * sizeof(int));
    int untouched = -5;
    bsp_get(next, small, 0, &untouched, 0);
    /* Changed after the gets were issued: the gets must still see these values. */
    for (int i = 0; i < n; i++)
        src[i] += 500000;
    bsp_sync();

    CHECK_EQ(got[0], -1);
    CHECK_EQ(got[n + 1], -1);
    for (int q = 0; q < n; q++)
        CHECK_EQ(got[1 + q], q * 1000 + p + 500000);
    CHECK_EQ(block[0], next * 100 + next);
    CHECK_EQ(block[1], next * 100 + next + 1);
    CHECK_EQ(block[2], -1);
    CHECK_EQ(untouched, -5);

    bsp_pop_reg(src);
    bsp_pop_reg(small);
    bsp_sync();
    free(got);
    free(small);
    free(src);
    bsp_end();
    return 0;
}
