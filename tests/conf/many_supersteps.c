/* many_supersteps.c — 1000 supersteps.
 * Each superstep passes a counter around the ring by bsp_put and by bsp_send,
 * and every 100 supersteps a fresh registration is pushed and later popped, so
 * that state carried between supersteps (queues, registrations, the superstep
 * count of <polybsp.h>) is exercised over a long run.
 */
#include "check.h"
#include <polybsp.h>

enum { STEPS = 1000 };

int main(void)
{
    bsp_begin(bsp_nprocs());
    int p = bsp_pid(), n = bsp_nprocs();
    int next = (p + 1) % n, prev = (p + n - 1) % n;

    int *x = check_alloc(sizeof(int));
    *x = -1;
    bsp_push_reg(x, sizeof(int));
    bsp_sync();
    CHECK_EQ(bsp_superstep(), 1);

    int *extra = NULL;
    for (int s = 0; s < STEPS; s++) {
        int v = s * n + p;
        bsp_put(next, &v, x, 0, sizeof(int));
        bsp_send(next, &v, &v, sizeof v); /* tag size 0: the tag is not read */
        if (s % 100 == 10) {
            extra = check_alloc(sizeof(int));
            bsp_push_reg(extra, sizeof(int));
        } else if (s % 100 == 50) {
            bsp_put(next, &v, extra, 0, sizeof(int));
        } else if (s % 100 == 90) {
            bsp_pop_reg(extra);
        }
        bsp_sync();

        CHECK_EQ(bsp_superstep(), (unsigned long)s + 2);
        CHECK_EQ(*x, s * n + prev);
        if (s % 100 == 50)
            CHECK_EQ(*extra, s * n + prev);
        if (s % 100 == 91) {
            free(extra);
            extra = NULL;
        }
        int nmsg = -1, nbytes = -1, w = -1;
        bsp_qsize(&nmsg, &nbytes);
        CHECK_EQ(nmsg, 1);
        bsp_move(&w, sizeof w);
        CHECK_EQ(w, s * n + prev);
    }

    bsp_pop_reg(x);
    bsp_sync();
    free(x);
    bsp_end();
    return 0;
}
