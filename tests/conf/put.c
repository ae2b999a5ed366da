/* put.c — bsp_put.
 * Checks: the data is at the destination after the sync, at the given offset and
 * nowhere else; the source is copied at the call (a variable reused for every put
 * in a loop delivers each value); the destination is named by the caller's own
 * address of a registration whose address and size differ between processes;
 * a put that exactly fills the end of a smaller remote registration is valid; a
 * zero-size put changes nothing; puts to oneself work.
 */
#include "check.h"

int main(void)
{
    bsp_begin(bsp_nprocs());
    int p = bsp_pid(), n = bsp_nprocs();

    /* slots[1..n] is registered; slots[0] and slots[n+1] are guards that no put may touch. */
    int *slots = check_alloc((n + 2) * sizeof(int));
    for (int i = 0; i < n + 2; i++)
        slots[i] = -1;
    /* tail has p+1 ints on process p: sizes differ between processes. */
    int *tail = check_alloc((p + 1) * sizeof(int));
    for (int i = 0; i <= p; i++)
        tail[i] = -1;
    bsp_push_reg(slots + 1, n * sizeof(int));
    bsp_push_reg(tail, (p + 1) * sizeof(int));
    bsp_sync();

    int v;
    for (int q = 0; q < n; q++) {
        v = p * 1000 + q;
        bsp_put(q, &v, slots + 1, p * sizeof(int), sizeof(int));
    }
    v = -7; /* too late: each put above has already copied its value */
    int next = (p + 1) % n;
    int block[2] = {p + 10, p + 20};
    if (next >= 1) /* the last two ints of next's tail, when it has two */
        bsp_put(next, block, tail, (next - 1) * sizeof(int), 2 * sizeof(int));
    else
        bsp_put(next, block, tail, 0, sizeof(int));
    block[0] = block[1] = -7;
    bsp_put(next, &v, slots + 1, 0, 0);
    bsp_sync();

    CHECK_EQ(slots[0], -1);
    CHECK_EQ(slots[n + 1], -1);
    for (int q = 0; q < n; q++)
        CHECK_EQ(slots[1 + q], q * 1000 + p);
    int prev = (p + n - 1) % n;
    if (p >= 1) {
        for (int i = 0; i < p - 1; i++)
            CHECK_EQ(tail[i], -1);
        CHECK_EQ(tail[p - 1], prev + 10);
        CHECK_EQ(tail[p], prev + 20);
    } else {
        CHECK_EQ(tail[0], prev + 10);
    }

    /* Values stay put across a superstep without communication. */
    bsp_sync();
    for (int q = 0; q < n; q++)
        CHECK_EQ(slots[1 + q], q * 1000 + p);

    bsp_pop_reg(tail);
    bsp_pop_reg(slots + 1);
    bsp_sync();
    free(tail);
    free(slots);
    bsp_end();
    return 0;
}
