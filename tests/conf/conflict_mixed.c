/* conflict_mixed.c — the conflicting-writes rule when bsp_hpput, bsp_put,
 * bsp_get and bsp_hpget meet: hpputs are puts (ordered by source pid, then by
 * issue order within a source) and hpgets are gets (landing before every put).
 */
#include "check.h"

int main(void)
{
    bsp_begin(bsp_nprocs());
    int p = bsp_pid(), n = bsp_nprocs();
    int next = (p + 1) % n, prev = (p + n - 1) % n;

    int *slot = check_alloc(2 * sizeof(int));
    int *y = check_alloc(sizeof(int));
    int *w = check_alloc(sizeof(int));
    slot[0] = slot[1] = -1;
    *y = -1;
    *w = 9000 + p;
    bsp_push_reg(slot, 2 * sizeof(int));
    bsp_push_reg(y, sizeof(int));
    bsp_push_reg(w, sizeof(int));
    bsp_sync();

    /* slot[0]: put, hpput, put; slot[1]: put, then hpput. The last issued wins. */
    int v1 = 10 + p, v2 = 20 + p, v3 = 30 + p, v4 = 40 + p, v5 = 50 + p;
    bsp_put(next, &v1, slot, 0, sizeof(int));
    bsp_hpput(next, &v2, slot, 0, sizeof(int));
    bsp_put(next, &v3, slot, 0, sizeof(int));
    bsp_put(next, &v5, slot, sizeof(int), sizeof(int));
    bsp_hpput(next, &v4, slot, sizeof(int), sizeof(int));
    /* y: an hpput from the predecessor and an hpget into it; the hpput wins. */
    int hp = 600 + p;
    bsp_hpput(next, &hp, y, 0, sizeof(int));
    bsp_hpget(next, w, 0, y, sizeof(int));
    bsp_sync();

    CHECK_EQ(slot[0], 30 + prev);
    CHECK_EQ(slot[1], 40 + prev);
    CHECK_EQ(*y, 600 + prev);

    bsp_pop_reg(w);
    bsp_pop_reg(y);
    bsp_pop_reg(slot);
    bsp_sync();
    free(w);
    free(y);
    free(slot);
    bsp_end();
    return 0;
}
