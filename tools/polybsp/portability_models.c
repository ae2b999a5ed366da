/* portability_models.c — the models of `polybsp portability` and how repeats
 * are judged (portability_models.h). */
#include "portability_models.h"

#include "cost/cost_fit.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

double portability_median(double *v, int n)
{
    for (int i = 0; i < n; i++)
        if (isnan(v[i]))
            return NAN;
    return cost_median(v, (size_t)n);
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

int portability_eval(cost_trace *t, cost_machine *m, const char *trace_name,
                     const char *machine_name, int flags, const char *prefix, double *real,
                     double model[PORTABILITY_NMODELS],
                     char unavailable[PORTABILITY_NMODELS][PORTABILITY_REASON_MAX], char *err,
                     size_t errlen)
{
    cost_eval_opts o = {.trace = trace_name,
                        .machine = machine_name,
                        .all = 1,
                        .flags = flags,
                        .faults = COST_FAULTS_KIND,
                        .explain = 1};
    cost_eval r;
    int rc = cost_eval_run(&o, t, m, &r, err, errlen);
    for (int k = 0; rc == 0 && k < PORTABILITY_NMODELS; k++) {
        if (cost_eval_available(&r, k)) {
            model[k] = r.model_total[k];
            continue;
        }
        model[k] = NAN;
        if (!unavailable[k][0])
            snprintf(unavailable[k], PORTABILITY_REASON_MAX, "%s%s", prefix, r.unavailable[k]);
    }
    *real = r.real_total;
    cost_eval_free(&r);
    return rc == 0 ? 0 : -1;
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
        fprintf(f, "\"%s\"", cost_model_name(cost_eval_models[trust].kind));
}
