/* rate_spread_test — what the probe prints of its processes' rates (the
 * machine file's rate_spread), from a summary made by hand.
 *
 * Four processes measured 4e9, 5e9, 6e9 and 9e9 flop/s at once: r is their
 * mean, 6e9; the slowest and the fastest are printed, and since 9e9 / 4e9 =
 * 2.25 exceeds COST_UNEQUAL_CORES (1.5) a warning names the ratio, "2.2x"
 * (printed to one decimal, 2.25 rounds to even). With 5e9 and 6e9 (1.2x) the
 * two rates are printed and no warning; with none measured (a simulated
 * machine, one process) neither line.
 */
#include "probe/probe_analyse.h"

#include "unit.h"

#include <stdlib.h>
#include <string.h>

static char *summary(double least, double most)
{
    probe_data d = {0};
    probe_summary *s = calloc(1, sizeof *s);
    snprintf(s->m.engine, sizeof s->m.engine, "threads");
    s->m.rate[0] = 6e9;
    s->m.rate_least = least;
    s->m.rate_most = most;
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    probe_print_summary(f, &d, s);
    fclose(f);
    free(s);
    return text;
}

int main(void)
{
    char *unequal = summary(4e9, 9e9), *even = summary(5e9, 6e9), *none = summary(0, 0);
    CHECKF(strstr(unequal, "rate        r = 6.0000E+09 flop/s (DAXPY on 1024 doubles, mean over "
                           "the processes)\n"
                           "            the slowest process 4.0000E+09, the fastest 9.0000E+09 "
                           "flop/s\n"
                           "warning     the processes computed 2.2x apart at once: cores of "
                           "unequal speed (docs/probe.md, \"Cores of unequal speed\")\n") != NULL,
           "%s", unequal);
    CHECKF(strstr(even, "            the slowest process 5.0000E+09, the fastest 6.0000E+09 "
                        "flop/s\n") != NULL &&
               strstr(even, "warning") == NULL,
           "%s", even);
    CHECKF(strstr(none, "slowest") == NULL && strstr(none, "warning") == NULL, "%s", none);
    free(unequal);
    free(even);
    free(none);
    if (failures) {
        fprintf(stderr, "rate_spread_test: %d failures\n", failures);
        return 1;
    }
    printf("rate_spread_test: OK\n");
    return 0;
}
