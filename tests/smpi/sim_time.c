/* sim_time.c — bsp_time() is the simulator's clock (run on slow.xml, P = 2).
 * Process 0 puts 1 MiB to process 1 over links of 10 MB/s: the superstep takes
 * at least 1048576 B / 1e7 B/s = 0.105 s of simulated time, plus a few link
 * latencies of 1 ms; SMPI's bandwidth factor for large messages (below 1) only
 * lengthens it. The same put takes about a millisecond of wall time, so a
 * superstep between 0.105 s and 0.2 s can only be simulated time.
 */
#include "../conf/check.h"

#include <string.h>

enum { NBYTES = 1 << 20 };

int main(void)
{
    bsp_begin(2);
    char *buf = check_alloc(NBYTES);
    memset(buf, bsp_pid() + 1, NBYTES);
    bsp_push_reg(buf, NBYTES);
    bsp_sync();
    double t0 = bsp_time();
    if (bsp_pid() == 0)
        bsp_put(1, buf, buf, 0, NBYTES);
    bsp_sync();
    double t = bsp_time() - t0;
    CHECK(buf[NBYTES - 1] == 1);
    if (bsp_pid() == 1)
        printf("sim_time: superstep of 1 MiB took %.6f s simulated\n", t);
    CHECK(t >= 0.105 && t <= 0.2);
    bsp_end();
    return 0;
}
