/* mixed_classic.c — both dialects in one program (with mixed_mc.c).
 * This file is classic; mixed_mc.c is compiled with POLYBSP_MCBSP. The two
 * share one SPMD section: a registration made in one dialect serves puts from
 * the other, and messages sent in one are read in the other.
 */
#include "check.h"

void mixed_mc_put_and_send(int *x); /* in mixed_mc.c */

int main(void)
{
    bsp_begin(bsp_nprocs());
    int p = bsp_pid(), n = bsp_nprocs();
    int *x = check_alloc(sizeof(int));
    *x = -1;
    bsp_push_reg(x, sizeof(int));
    bsp_sync();

    mixed_mc_put_and_send(x);
    bsp_sync();

    int prev = (p + n - 1) % n;
    CHECK_EQ(*x, 300 + prev);
    int status = -2, no_tag = 0;
    bsp_get_tag(&status, &no_tag);
    CHECK_EQ(status, sizeof(int));
    int v = -1;
    bsp_move(&v, sizeof v);
    CHECK_EQ(v, 400 + prev);

    bsp_pop_reg(x);
    bsp_sync();
    free(x);
    bsp_end();
    return 0;
}
