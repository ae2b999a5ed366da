/* reg_stack.c — registrations of the same address stack.
 * A second bsp_push_reg of an address (with a larger size) is the one in force
 * from the next superstep; bsp_pop_reg removes it and the first one is in force
 * again from the superstep after. The out-of-range side (a put beyond the
 * smaller size after the pop) is the bad-input case size_after_pop.
 */
#include "check.h"

enum { BIG = 16 }; /* ints */

int main(void)
{
    bsp_begin(bsp_nprocs());
    int p = bsp_pid(), n = bsp_nprocs();
    int next = (p + 1) % n, prev = (p + n - 1) % n;

    int *a = check_alloc(BIG * sizeof(int));
    for (int i = 0; i < BIG; i++)
        a[i] = -1;
    bsp_push_reg(a, sizeof(int));
    bsp_sync();

    int v = 100 + p;
    bsp_put(next, &v, a, 0, sizeof(int));
    bsp_push_reg(a, BIG * sizeof(int));
    bsp_sync();
    CHECK_EQ(a[0], 100 + prev);

    /* Only the second registration allows the last int. */
    v = 200 + p;
    bsp_put(next, &v, a, (BIG - 1) * sizeof(int), sizeof(int));
    bsp_sync();
    CHECK_EQ(a[BIG - 1], 200 + prev);

    /* The pop takes effect at the next sync: the large registration still holds now. */
    bsp_pop_reg(a);
    v = 300 + p;
    bsp_put(next, &v, a, (BIG - 2) * sizeof(int), sizeof(int));
    bsp_sync();
    CHECK_EQ(a[BIG - 2], 300 + prev);

    /* The first registration is back: a one-int put at offset 0 still works. */
    v = 400 + p;
    bsp_put(next, &v, a, 0, sizeof(int));
    bsp_sync();
    CHECK_EQ(a[0], 400 + prev);
    for (int i = 1; i < BIG - 2; i++)
        CHECK_EQ(a[i], -1);

    bsp_pop_reg(a);
    bsp_sync();
    free(a);
    bsp_end();
    return 0;
}
