/* pop_reg.c — bsp_pop_reg.
 * Removing a registration from the middle of several keeps the others matched
 * to the right remote addresses; popping in a different order from the pushes is
 * fine as long as all processes pop in the same order; a popped address can be
 * registered again; many push/pop rounds of distinct addresses work.
 */
#include "check.h"

int main(void)
{
    bsp_begin(bsp_nprocs());
    int p = bsp_pid(), n = bsp_nprocs();
    int next = (p + 1) % n, prev = (p + n - 1) % n;

    int *a = check_alloc(sizeof(int));
    int *b = check_alloc(2 * sizeof(int));
    int *c = check_alloc(3 * sizeof(int));
    *a = b[0] = b[1] = c[0] = c[1] = c[2] = -1;
    bsp_push_reg(a, sizeof(int));
    bsp_push_reg(b, 2 * sizeof(int));
    bsp_push_reg(c, 3 * sizeof(int));
    bsp_sync();

    bsp_pop_reg(b);
    bsp_sync();

    int va = 10 + p, vc = 30 + p;
    bsp_put(next, &va, a, 0, sizeof(int));
    bsp_put(next, &vc, c, 2 * sizeof(int), sizeof(int));
    bsp_push_reg(b, 2 * sizeof(int));
    bsp_sync();
    CHECK_EQ(*a, 10 + prev);
    CHECK_EQ(c[2], 30 + prev);
    CHECK_EQ(b[0], -1);
    CHECK_EQ(b[1], -1);

    int vb = 20 + p;
    bsp_put(next, &vb, b, sizeof(int), sizeof(int));
    bsp_pop_reg(c);
    bsp_pop_reg(a);
    bsp_sync();
    CHECK_EQ(b[1], 20 + prev);

    /* Rounds of fresh allocations: each registration is matched to the remote one of the same
     * round. */
    for (int round = 0; round < 20; round++) {
        int *t = check_alloc((round + 1) * sizeof(int));
        t[round] = -1;
        bsp_push_reg(t, (round + 1) * sizeof(int));
        bsp_sync();
        int v = round * 100 + p;
        bsp_put(next, &v, t, round * sizeof(int), sizeof(int));
        bsp_sync();
        CHECK_EQ(t[round], round * 100 + prev);
        bsp_pop_reg(t);
        bsp_sync();
        free(t);
    }

    bsp_pop_reg(b);
    bsp_sync();
    free(c);
    free(b);
    free(a);
    bsp_end();
    return 0;
}
