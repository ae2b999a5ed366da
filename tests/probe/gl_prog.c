/* gl_prog — prints bsp_g() and bsp_L() as process 0 sees them, for a test of
 * which line of the machine file a run of P processes gets. */
#include <bsp.h>
#include <polybsp.h>

#include <stdio.h>

static void spmd(void)
{
    bsp_begin(bsp_nprocs());
    if (bsp_pid() == 0)
        printf("P = %d: g = %g, L = %g\n", (int)bsp_nprocs(), bsp_g(), bsp_L());
    bsp_end();
}

int main(int argc, char **argv)
{
    bsp_init(spmd, argc, argv);
    spmd();
    return 0;
}
