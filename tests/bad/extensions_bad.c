/* extensions_bad — misuse of <polybsp.h> extensions, one case per run (argv[1]),
 * committed by process 1 of 2 in superstep 1: the calibrated parameters without
 * a machine file or with a bad one, the rate from a file without one, a
 * negative operation count, a NaN count of a kind and an unknown kind. */
#include <bsp.h>
#include <polybsp.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *which;

static void spmd(void)
{
    bsp_begin(2);
    bsp_sync();
    if (bsp_pid() == 1) {
        if (strcmp(which, "machine") == 0)
            printf("%g\n", bsp_g());
        else if (strcmp(which, "rate") == 0)
            printf("%g\n", bsp_r());
        else if (strcmp(which, "trace_ops") == 0)
            bsp_trace_ops(-5);
        else if (strcmp(which, "trace_ops_nan") == 0)
            bsp_trace_ops_of(POLYBSP_OPS_WORD, NAN);
        else if (strcmp(which, "trace_ops_kind") == 0)
            bsp_trace_ops_of((polybsp_ops_kind)7, 1);
    }
    bsp_sync();
    bsp_end();
}

int main(int argc, char **argv)
{
    bsp_init(spmd, argc, argv);
    which = argc > 1 ? argv[1] : "";
    spmd();
    return 0;
}
