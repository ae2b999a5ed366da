/* net_only — a program of communication alone, for the simulated clock's
 * determinism (tests/smpi/CMakeLists.txt, smpi.deterministic): 20 supersteps
 * that each put 1 KiB to the next process and to one chosen by the step, then
 * 10 empty ones. Between its BSPlib calls it computes nothing that the
 * simulator charges (each stretch is under smpi/cpu-threshold), so two runs
 * must give the same simulated times to the nanosecond. */
#include <bsp.h>

#include <stdio.h>

enum { BYTES = 1024, STEPS = 20, EMPTY = 10 };

static char out[BYTES], in[2][BYTES];

static void spmd(void)
{
    bsp_begin(bsp_nprocs());
    int p = bsp_nprocs(), s = bsp_pid();
    bsp_push_reg(in, sizeof in);
    bsp_sync();
    for (int t = 0; t < STEPS; t++) {
        bsp_put((s + 1) % p, out, in, 0, BYTES);
        bsp_put((s * 7 + t) % p, out, in, BYTES, BYTES);
        bsp_sync();
    }
    for (int t = 0; t < EMPTY; t++)
        bsp_sync();
    double end = bsp_time();
    if (s == 0)
        printf("net_only: P = %d, simulated %.9f s\n", p, end);
    bsp_pop_reg(in);
    bsp_end();
}

int main(int argc, char **argv)
{
    bsp_init(spmd, argc, argv);
    spmd();
    return 0;
}
