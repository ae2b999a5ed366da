/* time.c — bsp_time.
 * It is the elapsed wall-clock time in seconds since bsp_begin on this process:
 * never negative, never decreasing (across calls and across syncs), and it
 * advances by at least the length of a sleep. There is deliberately no upper
 * bound: tests never assert speed.
 */
#include "check.h"
#include <time.h>

int main(void)
{
    bsp_begin(bsp_nprocs());
    double t0 = bsp_time();
    CHECK(t0 >= 0.0);
    double last = t0;
    for (int i = 0; i < 1000; i++) {
        double t = bsp_time();
        CHECK(t >= last);
        last = t;
    }
    bsp_sync();
    double t1 = bsp_time();
    CHECK(t1 >= last);
    struct timespec ts = {0, 20000000L}; /* 20 ms */
    nanosleep(&ts, NULL);
    double t2 = bsp_time();
    /* 1 ms of slack for clock granularity; the sleep lasts at least 20 ms. */
    CHECK(t2 - t1 >= 0.019);
    bsp_sync();
    CHECK(bsp_time() >= t2);
    bsp_end();
    return 0;
}
