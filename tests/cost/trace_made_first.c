/* trace_made_first — the way `polybsp portability` keeps the making of the
 * trace file out of what it measures: a first bsp_trace_begin / bsp_trace_end
 * pair around no superstep makes the file and records nothing; the second
 * bsp_trace_begin makes none, so no record of the traced part has a "setup"
 * (tests/cost/CMakeLists.txt, cost_trace_made_first). */
#include <bsp.h>
#include <polybsp.h>

static void spmd(void)
{
    bsp_begin(bsp_nprocs());
    bsp_trace_begin();
    bsp_trace_end();
    bsp_sync();
    bsp_trace_begin();
    for (int i = 0; i < 3; i++)
        bsp_sync();
    bsp_trace_end();
    bsp_end();
}

int main(int argc, char **argv)
{
    bsp_init(spmd, argc, argv);
    spmd();
    return 0;
}
