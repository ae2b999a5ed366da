/* fuzz_trace — libFuzzer target for the trace reader (cost_trace_read_stream).
 *
 * Any input must give either a trace whose records are all reachable or one
 * error line; AddressSanitizer and UBSan catch the rest. Built only with
 * -DPOLYBSP_FUZZ=ON and clang (see fuzz/README.md).
 */
#include "cost/cost_model.h"
#include "cost/cost_trace.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* fmemopen refuses a zero-length buffer; the empty file is a unit test. */
    if (size == 0)
        return 0;
    FILE *f = fmemopen((void *)data, size, "r");
    if (f == NULL)
        return 0;
    char err[512];
    cost_trace t;
    if (cost_trace_read_stream(f, "fuzz", &t, err, sizeof err) == 0) {
        /* Touch every record and run the models, so that an inconsistent trace
         * (a from pid out of range, a wrong count) shows up as a memory error. */
        cost_machine m;
        memset(&m, 0, sizeof m);
        m.g = 1e-9;
        m.L = 1e-5;
        m.gstar = 2e-9;
        m.B = 64;
        m.rate[0] = 1e9; /* flops; the other kinds unmeasured */
        m.h_sum = (int)(size & 1);
        /* D-BSP: one level for clusters of any size > 1 (dividing too), one for clusters of one. */
        m.levels[0] = (cost_level){0, 2147483647, 1e-9, 1e-5, 2e-5, 1e-5};
        m.levels[1] = (cost_level){1, 1, 0, 1e-6, 0, 0};
        m.nlevels = 2;
        double *steps = malloc(t.nsteps * sizeof *steps);
        if (steps != NULL) {
            for (int k = COST_REAL; k <= COST_CCM; k++)
                cost_predict((cost_model_kind)k, &t, &m, (k & 1) | (int)(size & COST_DBSP_TRAFFIC),
                             steps);
        }
        free(steps);
        cost_trace_free(&t);
    } else if (err[0] == '\0' || strchr(err, '\n') != NULL) {
        abort(); /* the contract: one non-empty line */
    }
    fclose(f);
    return 0;
}
