/* mixed_mc.c — the MulticoreBSP-dialect half of the mixed-dialect test (see mixed_classic.c). */
#include <bsp.h>

void mixed_mc_put_and_send(int *x);

void mixed_mc_put_and_send(int *x)
{
    unsigned int p = bsp_pid(), n = bsp_nprocs();
    int v = 300 + (int)p, w = 400 + (int)p;
    bsp_put((p + 1) % n, &v, x, 0, sizeof v);
    bsp_send((p + 1) % n, NULL, &w, sizeof w);
}
