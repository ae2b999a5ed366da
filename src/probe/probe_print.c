/* probe_print — the paper's tables on a terminal (contract in probe_analyse.h).
 *
 * The paper's tables have one column group per architecture; here the groups are
 * the two ways of putting data, bsp_put (buffered) and bsp_hpput (unbuffered), on
 * this one machine. Numbers are printed as the paper does (MaxErr to 2 decimals,
 * L and g in E notation), times in E notation since they reach microseconds.
 */
#include "probe/probe_analyse.h"

#include <stdio.h>

static const char *const long_name[COST_NPATTERNS] = {"Exchange", "PingPong", "OneToAll",
                                                      "AllToOne", "AllToAll"};
static const char *const short_name[COST_NPATTERNS] = {"E", "PP", "OA", "AO", "AA"};
static const char *const prim_name[PROBE_NPRIMS] = {"bsp_put", "bsp_hpput"};

static void print_procs(FILE *f, const probe_data *d)
{
    for (size_t p = 0; p < d->nprocs; p++)
        fprintf(f, "%s%d", p ? ", " : "", d->procs[p]);
}

static void pattern_tables(FILE *f, const probe_data *d, const probe_summary *s, int pat)
{
    const cost_pattern_fit *fit[PROBE_NPRIMS] = {&s->m.put[pat], &s->m.hpput[pat]};
    fprintf(f, "Table %s.1  The %s pattern\n", short_name[pat], long_name[pat]);
    fprintf(f, "  Time: median seconds at P = %d; MaxErr: percent, over P in {",
            d->procs[d->nprocs - 1]);
    print_procs(f, d);
    fprintf(f, "}; Spread: interquartile range / median at P = %d, percent\n\n",
            d->procs[d->nprocs - 1]);
    fprintf(f, "%-12s", long_name[pat]);
    for (int prim = 0; prim < PROBE_NPRIMS; prim++)
        fprintf(f, "  %-31s", prim_name[prim]);
    fprintf(f, "\n%-12s", "h-relation");
    for (int prim = 0; prim < PROBE_NPRIMS; prim++)
        fprintf(f, "  %-11s %8s %8s   ", "Time", "MaxErr", "Spread");
    fprintf(f, "\n");
    for (size_t k = 0; k < d->nsizes; k++) {
        fprintf(f, "%-12.0f", fit[0]->h[k]);
        for (int prim = 0; prim < PROBE_NPRIMS; prim++)
            fprintf(f, "  %-11.3E %8.2f %8.2f   ", fit[prim]->time[k], fit[prim]->maxerr[k],
                    s->spread[prim][pat][k]);
        fprintf(f, "\n");
    }
    fprintf(f, "\nTable %s.2  Values of g_%s and L_%s (seconds per byte, seconds)\n\n",
            short_name[pat], short_name[pat], short_name[pat]);
    fprintf(f, "%-12s", "");
    for (int prim = 0; prim < PROBE_NPRIMS; prim++)
        fprintf(f, "  %-14s", prim_name[prim]);
    fprintf(f, "\nL_%-10s", short_name[pat]);
    for (int prim = 0; prim < PROBE_NPRIMS; prim++)
        fprintf(f, "  %-14.4E", fit[prim]->L);
    fprintf(f, "\ng_%-10s", short_name[pat]);
    for (int prim = 0; prim < PROBE_NPRIMS; prim++)
        fprintf(f, "  %-14.4E", fit[prim]->g);
    fprintf(f, "\n\n");
}

static void overall_tables(FILE *f, const probe_data *d, const probe_summary *s)
{
    const char *op = s->m.h_sum ? "sum" : "max";
    fprintf(f, "Table 11  AvErr and MaxErr across the five patterns, percent (against table 12)\n");
    if (!s->m.h_sum)
        fprintf(f, "  rows give h with @ = sum; each pattern is compared at its h with @ = max\n");
    fprintf(f, "\n%-12s", "");
    for (int prim = 0; prim < PROBE_NPRIMS; prim++)
        fprintf(f, "  %-19s", prim_name[prim]);
    fprintf(f, "\n%-12s", "h-relation");
    for (int prim = 0; prim < PROBE_NPRIMS; prim++)
        fprintf(f, "  %8s %8s   ", "AvErr", "MaxErr");
    fprintf(f, "\n");
    for (size_t k = 0; k < d->nsizes; k++) {
        fprintf(f, "%-12ld", d->sizes[k]);
        for (int prim = 0; prim < PROBE_NPRIMS; prim++)
            fprintf(f, "  %8.2f %8.2f   ", s->overall[prim].averr[k], s->overall[prim].maxerr[k]);
        fprintf(f, "\n");
    }
    fprintf(f, "\nTable 12  The values of g and L (least squares of T_average(h), @ = %s)\n\n", op);
    fprintf(f, "%-26s", "");
    for (int prim = 0; prim < PROBE_NPRIMS; prim++)
        fprintf(f, "  %-14s", prim_name[prim]);
    fprintf(f, "\n%-26s", "L");
    for (int prim = 0; prim < PROBE_NPRIMS; prim++)
        fprintf(f, "  %-14.4E", s->overall[prim].L);
    fprintf(f, "\n%-26s", "g");
    for (int prim = 0; prim < PROBE_NPRIMS; prim++)
        fprintf(f, "  %-14.4E", s->overall[prim].g);
    static const char *const label[2] = {"residual, @ = max (%)", "residual, @ = sum (%)"};
    for (int o = 1; o >= 0; o--) {
        fprintf(f, "\n%-26s", label[o]);
        for (int prim = 0; prim < PROBE_NPRIMS; prim++)
            fprintf(f, "  %-14.2f", s->overall[prim].residual[o]);
    }
    fprintf(f, "\n\n");
}

void probe_print(FILE *f, const probe_data *d, const probe_summary *s)
{
    for (int pat = 0; pat < COST_NPATTERNS; pat++)
        pattern_tables(f, d, s, pat);
    overall_tables(f, d, s);
    const cost_machine *m = &s->m;
    fprintf(f, "h operator  @ = %s (the lower bsp_put residual of table 12); the machine file\n"
               "            keeps bsp_put's g and L, and both primitives' patterns\n",
            m->h_sum ? "sum" : "max");
    if (s->bspstar_fitted)
        fprintf(f, "BSP*        g* = %.4E s/byte, B = %.0f bytes (plane over %zu cells of 1 to many "
                   "messages per pair)\n",
                m->gstar, m->B, s->bspstar_cells);
    else
        fprintf(f, "BSP*        no usable plane over %zu cells (timings too noisy); g* = g, B = 0\n",
                s->bspstar_cells);
    fprintf(f, "rate        r = %.4E flop/s (DAXPY on 1024 doubles, mean over the processes)\n",
            m->rate);
    fprintf(f, "noise       median spread %.2f %% (interquartile range / median per cell)\n",
            m->spread);
}
