/* growth_cpu — the trace keeps the out buffers' growth out of the program's cpu.
 *
 * Process 1 puts BYTES to process 0 in superstep 1, when its out buffer for
 * process 0 (of odd supersteps) is empty: the buffer grows, and the record of
 * that superstep must say so ("grow" above 0). Superstep 2 moves nothing; in
 * superstep 3 process 1 puts the same BYTES into the buffer that already holds
 * them, which does not grow: its "grow" must be exactly 0. Process 0 never
 * puts: its "grow" is 0 throughout. The record's cpu is the thread's CPU time
 * less grow (formats.md): what travels to another machine is the program's
 * own work, as the simulator charges it. Prints one line; exits 1 on a failed
 * check. Threads engine.
 */
#include <bsp.h>

#include "trace_member.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { BYTES = 8 << 20 };

int main(void)
{
    const char *trace = getenv("POLYBSP_TRACE");
    if (!trace) {
        fprintf(stderr, "growth_cpu: set POLYBSP_TRACE\n");
        return 2;
    }
    bsp_begin(2);
    char *from = malloc(BYTES), *to = malloc(BYTES);
    if (!from || !to)
        bsp_abort("growth_cpu: out of memory");
    memset(from, 7, BYTES);
    bsp_push_reg(to, BYTES);
    bsp_sync(); /* superstep 0 */
    if (bsp_pid() == 1)
        bsp_put(0, from, to, 0, BYTES);
    bsp_sync(); /* superstep 1: the out buffer grows */
    bsp_sync(); /* superstep 2: nothing moves */
    if (bsp_pid() == 1)
        bsp_put(0, from, to, 0, BYTES);
    bsp_sync(); /* superstep 3: the same buffer, grown already */
    int landed = bsp_pid() == 1 || (to[0] == 7 && to[BYTES - 1] == 7);
    bsp_pop_reg(to);
    bsp_sync();
    free(from);
    free(to);
    bsp_end();
    double grew = trace_member(trace, 1, 1, "\"grow\":"),
           again = trace_member(trace, 3, 1, "\"grow\":");
    double never = trace_member(trace, 1, 0, "\"grow\":");
    if (!landed || !(grew > 0) || again != 0 || never != 0) {
        printf("growth_cpu: FAIL: landed %d, grow %g s in superstep 1 of process 1 (want > 0), "
               "%g s in its superstep 3 (want 0), %g s in process 0's superstep 1 (want 0)\n",
               landed, grew, again, never);
        return 1;
    }
    printf("growth_cpu: the out buffer's growth took %g s of CPU time, left out of cpu\n", grew);
    return 0;
}
