/* init_style.c — the BSPedupack structure: main calls bsp_init(spmd, argc, argv),
 * reads P, then calls spmd(), which starts with bsp_begin(P) and ends with
 * bsp_end(). Process 0 is the caller of main: after spmd() returns, main sees
 * what process 0 left in a file-scope variable (written only by process 0).
 */
#include "check.h"

static int P;          /* set by main before spmd(), then only read, as in BSPedupack */
static long p0_result; /* written only by process 0 */

static void spmd(void)
{
    bsp_begin(P);
    int p = bsp_pid(), n = bsp_nprocs();
    CHECK_EQ(n, P);
    long *sum = check_alloc(sizeof(long));
    *sum = 0;
    bsp_push_reg(sum, sizeof(long));
    bsp_sync();
    /* Everyone sends p+1 to process 0; the sum proves that all P processes ran spmd.
       The tag size is 0, so the tag pointer may be NULL. */
    long mine = p + 1;
    bsp_send(0, NULL, &mine, sizeof mine);
    bsp_sync();
    if (p == 0) {
        long v;
        for (int i = 0; i < n; i++) {
            bsp_move(&v, sizeof v);
            *sum += v;
        }
        p0_result = *sum;
    }
    bsp_pop_reg(sum);
    bsp_sync();
    free(sum);
    bsp_end();
}

int main(int argc, char **argv)
{
    bsp_init(spmd, argc, argv);
    P = bsp_nprocs();
    spmd();
    CHECK_MAIN(p0_result == (long)P * (P + 1) / 2);
    return 0;
}
