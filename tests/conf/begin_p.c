/* begin_p.c — bsp_begin with a count other than bsp_nprocs().
 * argv[1] = "fewer": (N+1)/2 processes; "more": 2N+1 processes (oversubscribed),
 * where N is bsp_nprocs() before bsp_begin. Inside, bsp_nprocs is the count
 * asked for and a ring of puts reaches every process.
 */
#include "check.h"
#include <string.h>

static int want; /* set by main before spmd(), then only read */

static void spmd(void)
{
    bsp_begin(want);
    int p = bsp_pid(), n = bsp_nprocs();
    CHECK_EQ(n, want);
    int *x = check_alloc(sizeof(int));
    *x = -1;
    bsp_push_reg(x, sizeof(int));
    bsp_sync();
    bsp_put((p + 1) % n, &p, x, 0, sizeof(int));
    bsp_sync();
    CHECK_EQ(*x, (p + n - 1) % n);
    bsp_pop_reg(x);
    bsp_sync();
    free(x);
    bsp_end();
}

int main(int argc, char **argv)
{
    bsp_init(spmd, argc, argv);
    CHECK_MAIN(argc == 2 && (!strcmp(argv[1], "fewer") || !strcmp(argv[1], "more")));
    int avail = bsp_nprocs();
    want = !strcmp(argv[1], "fewer") ? (avail + 1) / 2 : 2 * avail + 1;
    spmd();
    return 0;
}
