/* main_style.c — bsp_begin as the first statement of main, without bsp_init.
 * Every process runs the section; after bsp_end only process 0 continues in
 * main, with its local variables intact.
 */
#include "check.h"

int main(void)
{
    bsp_begin(bsp_nprocs());
    int p = bsp_pid(), n = bsp_nprocs();
    int *x = check_alloc(sizeof(int));
    *x = -1;
    bsp_push_reg(x, sizeof(int));
    bsp_sync();
    int mine = 10 * p + 3;
    bsp_put((p + 1) % n, &mine, x, 0, sizeof(int));
    bsp_sync();
    int got = *x;
    CHECK_EQ(got, 10 * ((p + n - 1) % n) + 3);
    bsp_pop_reg(x);
    bsp_sync();
    free(x);
    bsp_end();

    CHECK_MAIN(p == 0);
    CHECK_MAIN(got == 10 * (n - 1) + 3);
    return 0;
}
