/* portability_models — what `polybsp portability` shares between its built-in
 * suite (portability.c) and the held-out programs (portability_held.c): the
 * models it compares, how the repeats of one program become one figure, and
 * which model it names as the one to trust.
 *
 * Contract: model k is cost_eval_models[k] (as predict evaluates and prints
 * it), k < PORTABILITY_NMODELS. portability_median is the median of
 * v[0..n), NaN when one of them is NaN (a model that could not predict one run
 * has no median); it sorts v. portability_preempted says whether some process
 * of trace t lost its core in some superstep (the records' involuntary context
 * switches). portability_keep moves the repeats to keep to the front of real[]
 * and of each model's runs and returns how many: a repeat is left out when it
 * was preempted and took more than PORTABILITY_PREEMPTED_SLOWER times the
 * median of all repeats; when every repeat would go, all stay.
 * portability_eval gives REAL and every model's time of trace t (called
 * trace_name) on m (machine_name) by predict's rules and defaults
 * (cost_eval_run with every model: m's line of t's P, sync faults charged by
 * kind, fits beyond the cores refused; m changes as there), t taken as a run
 * on m's machine (--explain: portability measures the machine it runs on, and
 * held-out traces from elsewhere are refused before): a model that
 * cannot predict t is NaN, and its reason, after prefix, goes to
 * unavailable[k] when that is still ""; 0, or -1 with one line in err.
 * portability_trust is the model to trust by est: the smallest delta (ties:
 * the smaller eta (1), then the first), -1 when no model has a delta;
 * portability_json_trust writes its name as a JSON string, or null.
 */
#ifndef POLYBSP_PORTABILITY_MODELS_H
#define POLYBSP_PORTABILITY_MODELS_H

#include "cost/cost_eval.h"
#include "cost/cost_portability.h"
#include "cost/cost_trace.h"

#include <stdio.h>

enum {
    PORTABILITY_NMODELS = COST_EVAL_NMODELS,
    PORTABILITY_MAX_REPEATS = 1000,
    PORTABILITY_REASON_MAX = 1024
};

/* The time one preempted repeat lost to another job, which no model describes
 * (one such repeat, 14 ms against 0.2 ms, drove an eta to 94). */
#define PORTABILITY_PREEMPTED_SLOWER 1.25

double portability_median(double *v, int n);
int portability_preempted(const cost_trace *t);
int portability_keep(double *real, const int *was_preempted,
                     double model_runs[PORTABILITY_NMODELS][PORTABILITY_MAX_REPEATS], int n);
int portability_eval(cost_trace *t, cost_machine *m, const char *trace_name,
                     const char *machine_name, int flags, const char *prefix, double *real,
                     double model[PORTABILITY_NMODELS],
                     char unavailable[PORTABILITY_NMODELS][PORTABILITY_REASON_MAX], char *err,
                     size_t errlen);
int portability_trust(const cost_portability est[PORTABILITY_NMODELS]);
void portability_json_trust(FILE *f, const cost_portability est[PORTABILITY_NMODELS]);

#endif
