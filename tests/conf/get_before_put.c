/* get_before_put.c — a get reads the remote value at the end of the computation,
 * before the puts of the same superstep land.
 * Each process gets x from its successor while its predecessor puts into x; the
 * owner also overwrites x locally after the get was issued. The get must return
 * the locally written value (end of computation), and x must end with the put's
 * value (puts land after the computation's own writes). Run twice: the second
 * time with the put issued before the get on each process.
 */
#include "check.h"

static void round_trip(int *x, int p, int n, int put_first)
{
    int next = (p + 1) % n, prev = (p + n - 1) % n;
    int got = -1, v = 1000 + p;
    *x = p;
    bsp_sync();
    if (put_first) {
        bsp_put(next, &v, x, 0, sizeof(int));
        bsp_get(next, x, 0, &got, sizeof(int));
    } else {
        bsp_get(next, x, 0, &got, sizeof(int));
        bsp_put(next, &v, x, 0, sizeof(int));
    }
    *x = p + 500;
    bsp_sync();
    CHECK_EQ(got, next + 500);
    CHECK_EQ(*x, 1000 + prev);
}

int main(void)
{
    bsp_begin(bsp_nprocs());
    int p = bsp_pid(), n = bsp_nprocs();
    int *x = check_alloc(sizeof(int));
    bsp_push_reg(x, sizeof(int));
    round_trip(x, p, n, 0);
    round_trip(x, p, n, 1);
    bsp_pop_reg(x);
    bsp_sync();
    free(x);
    bsp_end();
    return 0;
}
