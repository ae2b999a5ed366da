/* reg_next_superstep.c — bsp_push_reg and bsp_pop_reg take effect at the next sync.
 * A registration pushed in the middle of a run (others already active) is
 * usable from the next superstep; a popped registration is still usable for
 * the rest of the superstep in which it was popped, even after the pop call;
 * an address can be registered again after its pop, with a new size.
 */
#include "check.h"

int main(void)
{
    bsp_begin(bsp_nprocs());
    int p = bsp_pid(), n = bsp_nprocs();
    int next = (p + 1) % n, prev = (p + n - 1) % n;

    int *a = check_alloc(2 * sizeof(int));
    int *b = check_alloc(sizeof(int));
    a[0] = a[1] = *b = -1;
    bsp_push_reg(a, sizeof(int));
    bsp_sync();

    int v = 10 + p;
    bsp_put(next, &v, a, 0, sizeof(int));
    bsp_push_reg(b, sizeof(int));
    bsp_sync();
    CHECK_EQ(a[0], 10 + prev);

    int vb = 20 + p;
    bsp_put(next, &vb, b, 0, sizeof(int));
    bsp_pop_reg(a);
    v = 30 + p;
    bsp_put(next, &v, a, 0, sizeof(int)); /* after the pop, same superstep */
    bsp_sync();
    CHECK_EQ(*b, 20 + prev);
    CHECK_EQ(a[0], 30 + prev);

    bsp_push_reg(a, 2 * sizeof(int));
    vb = 40 + p;
    bsp_put(next, &vb, b, 0, sizeof(int));
    bsp_sync();
    CHECK_EQ(*b, 40 + prev);

    v = 50 + p;
    bsp_put(next, &v, a, sizeof(int), sizeof(int)); /* needs the new, larger size */
    bsp_sync();
    CHECK_EQ(a[1], 50 + prev);
    CHECK_EQ(a[0], 30 + prev);

    bsp_pop_reg(b);
    bsp_pop_reg(a);
    bsp_sync();
    free(b);
    free(a);
    bsp_end();
    return 0;
}
