/* portability_models.c — the models of `polybsp portability` and how repeats
 * are judged (portability_models.h). */
#include "portability_models.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const portability_model portability_models[PORTABILITY_NMODELS] = {{COST_BSP, "BSP"},
                                                                   {COST_BSPSTAR, "BSP*"},
                                                                   {COST_EBSP, "EBSP"},
                                                                   {COST_DBSP, "D-BSP"},
                                                                   {COST_CCM, "CCM"}};

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double portability_median(double *v, int n)
{
    for (int i = 0; i < n; i++)
        if (isnan(v[i]))
            return NAN;
    qsort(v, (size_t)n, sizeof *v, compare_doubles);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int portability_preempted(const cost_trace *t)
{
    for (size_t r = 0; r < t->start[t->nprocs]; r++)
        if (t->recs[r].preempt > 0)
            return 1;
    return 0;
}

int portability_keep(double *real, const int *was_preempted,
                     double model_runs[PORTABILITY_NMODELS][PORTABILITY_MAX_REPEATS], int n)
{
    double all[PORTABILITY_MAX_REPEATS];
    memcpy(all, real, (size_t)n * sizeof *all);
    double med = portability_median(all, n);
    int kept = 0;
    for (int r = 0; r < n; r++) {
        if (was_preempted[r] && real[r] > PORTABILITY_PREEMPTED_SLOWER * med)
            continue;
        real[kept] = real[r];
        for (int k = 0; k < PORTABILITY_NMODELS; k++)
            model_runs[k][kept] = model_runs[k][r];
        kept++;
    }
    return kept > 0 ? kept : n;
}

int portability_trust(const cost_portability est[PORTABILITY_NMODELS])
{
    int best = -1;
    for (int k = 0; k < PORTABILITY_NMODELS; k++) {
        if (isnan(est[k].delta))
            continue;
        if (best < 0 || est[k].delta < est[best].delta ||
            (est[k].delta == est[best].delta && est[k].eta < est[best].eta))
            best = k;
    }
    return best;
}

void portability_json_trust(FILE *f, const cost_portability est[PORTABILITY_NMODELS])
{
    int trust = portability_trust(est);
    if (trust < 0)
        fprintf(f, "null");
    else
        fprintf(f, "\"%s\"", cost_model_name(portability_models[trust].kind));
}
