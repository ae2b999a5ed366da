/* hello.c — the smallest BSP program: every process says hello, in one superstep.
 *
 * Build and run: bspcc -o hello hello.c && polybsp run -p 4 ./hello
 * The lines come in any order: processes run concurrently. Compiles unchanged in
 * both dialects (the pid is printed through a long, whatever its type).
 */
#include <bsp.h>
#include <polybsp.h>

#include <stdio.h>

int main(void)
{
    bsp_begin(bsp_nprocs());
    printf("Hello from process %ld of %ld\n", (long)bsp_pid(), (long)bsp_nprocs());
    /* The superstep ends with a sync, so that a trace of hello has a record
     * (bsp_end ends the program, not a superstep). Printing is not counted as
     * work: `polybsp predict --work ops` charges this superstep L alone. */
    bsp_trace_ops(0);
    bsp_sync();
    bsp_end();
    return 0;
}
