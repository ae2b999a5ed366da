/* spin — supersteps with a little traffic for up to a minute: the job a test
 * kills a rank of. */
#include <bsp.h>

int main(void)
{
    bsp_begin(bsp_nprocs());
    int x = 0, in = 0;
    bsp_push_reg(&in, sizeof in);
    bsp_sync();
    double t0 = bsp_time();
    while (bsp_time() - t0 < 60) {
        bsp_put((bsp_pid() + 1) % bsp_nprocs(), &x, &in, 0, sizeof x);
        bsp_sync();
        x++;
    }
    bsp_end();
    return 0;
}
