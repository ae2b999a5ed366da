/* second_begin.c — a program without bsp_init that starts a second SPMD section
 * after bsp_end: bsp_begin must refuse it (only bsp_init's SPMD function can be
 * started again by the other processes). */
#include <bsp.h>

int main(void)
{
    bsp_begin(bsp_nprocs());
    bsp_sync();
    bsp_end();
    bsp_begin(bsp_nprocs());
    bsp_end();
    return 0;
}
