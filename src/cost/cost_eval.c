/* cost_eval.c — a trace against the cost models on a machine file, by
 * predict's rules (cost_eval.h). */
#include "cost/cost_eval.h"

#include "cost/cost_repeats.h"
#include "cost/cost_transfer.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

const cost_eval_model_info cost_eval_models[COST_EVAL_NMODELS] = {{COST_BSP, "BSP"},
                                                                  {COST_BSPSTAR, "BSP*"},
                                                                  {COST_EBSP, "EBSP"},
                                                                  {COST_DBSP, "D-BSP"},
                                                                  {COST_CCM, "CCM"}};
const char *const cost_fault_names[COST_NFAULTS] = {"kind", "fresh", "after-read", "none"};
/* Which of the machine file's costs (fault_touch: 0 fresh, 1 after read) each
 * charge puts on a fault on a page counted fresh [0] and on any other [1]. */
static const int fault_cost[COST_FAULTS_NONE][2] = {{0, 1}, {0, 0}, {1, 1}};

int cost_eval_declares(const cost_trace *t, int k, int positive)
{
    for (size_t i = 0; i < t->start[t->nprocs]; i++)
        if (positive ? t->recs[i].ops[k] > 0 : t->recs[i].ops[k] >= 0)
            return 1;
    return 0;
}

long long cost_eval_sync_faults(const cost_trace *t, long long *fresh)
{
    long long n = 0;
    *fresh = 0;
    for (size_t i = 0; i < t->start[t->nprocs]; i++) {
        const cost_rec *r = &t->recs[i];
        if (r->faults > 0) {
            n += r->faults;
            *fresh += r->fresh >= 0 && r->fresh < r->faults ? r->fresh : r->faults;
        }
    }
    return n;
}

long long cost_eval_work_faults(const cost_trace *t)
{
    long long n = 0;
    for (size_t i = 0; i < t->start[t->nprocs]; i++)
        if (cost_rec_declares(&t->recs[i]) && t->recs[i].w_faults > 0)
            n += t->recs[i].w_faults;
    return n;
}

int cost_eval_available(const cost_eval *r, int k) { return r->have[k] && !r->unavailable[k][0]; }

double cost_eval_real(const cost_eval *r, size_t c)
{
    return c == r->nsteps ? r->real_total : r->real[c];
}

double cost_eval_model(const cost_eval *r, int k, size_t c)
{
    return c == r->nsteps ? r->model_total[k] : r->model[k][c];
}

/* Step 1, the repeats: each read and scaled to the target as t was, then t
 * made their medians. */
static int median_of_repeats(const cost_eval_opts *o, cost_trace *t, const cost_machine *m,
                             char *err, size_t errlen)
{
    size_t n = o->nrepeats;
    cost_trace *reps = calloc(n, sizeof *reps);
    const char **names = malloc((n + 1) * sizeof *names);
    if (reps == NULL || names == NULL) {
        free(reps);
        free(names);
        return -2;
    }
    names[0] = o->trace;
    size_t read = 0;
    int rc = 0;
    for (; read < n && rc == 0; read++) {
        names[1 + read] = o->repeats[read];
        if (cost_trace_read(o->repeats[read], &reps[read], err, errlen) < 0) {
            rc = -1;
            break;
        }
        rc = cost_trace_transfer(&reps[read], o->repeats[read], m, o->machine, o->scale, err,
                                 errlen);
    }
    if (rc == 0)
        rc = cost_trace_median(t, reps, n, names, err, errlen);
    for (size_t k = 0; k < read; k++)
        cost_trace_free(&reps[k]);
    free(reps);
    free(names);
    return rc;
}

/* Step 1: a trace from another machine (or --against, which says the target
 * is another) has its work scaled to the target; --against's run must be of
 * the same program shape. */
static int from_elsewhere(const cost_eval_opts *o, cost_trace *t, const cost_machine *m,
                          cost_eval *r, char *err, size_t errlen)
{
    r->elsewhere = o->against != NULL || (!o->explain && cost_trace_elsewhere(t, m));
    if (!r->elsewhere && o->nrepeats > 0) {
        snprintf(err, errlen,
                 "%s describes the machine %s ran on: several traces are repeats to predict "
                 "another machine from, one explains its own run",
                 o->machine, o->trace);
        return -1;
    }
    if (!r->elsewhere)
        return 0;
    r->source_scale = cost_scale_source(t, o->scale);
    r->target_scale = cost_scale_target(m, o->scale);
    snprintf(r->source_host, sizeof r->source_host, "%s", t->host[0] ? t->host : "?");
    r->source_cores = t->cores;
    snprintf(r->source_engine, sizeof r->source_engine, "%s", t->engine);
    if (cost_trace_transfer(t, o->trace, m, o->machine, o->scale, err, errlen) < 0)
        return -1;
    if (o->nrepeats > 0) {
        int rc = median_of_repeats(o, t, m, err, errlen);
        if (rc < 0)
            return rc;
    }
    if (o->against == NULL)
        return 0;
    cost_trace *a = malloc(sizeof *a);
    if (a == NULL)
        return -2;
    if (cost_trace_read(o->against, a, err, errlen) < 0) {
        free(a);
        return -1;
    }
    r->against = a;
    const char *what = NULL;
    if (a->nprocs != t->nprocs)
        what = "P";
    else if (a->nsteps != t->nsteps)
        what = "number of supersteps";
    if (what == NULL)
        return 0;
    snprintf(err, errlen, "%s is not a run of the same program shape as %s: its %s is %lu, not %lu",
             o->against, o->trace, what, what[0] == 'P' ? (unsigned long)a->nprocs : a->nsteps,
             what[0] == 'P' ? (unsigned long)t->nprocs : t->nsteps);
    return -1;
}

/* A machine file with a BSP line per P (by_procs) gives a trace its own P's
 * line: an oversubscribed P, or one where more processes share the memory,
 * has another g and L. Older files have only the overall line. */
int cost_eval_line(cost_machine *m, int P, const char *trace_name, const char *machine_name,
                   int *fit_procs, char *err, size_t errlen)
{
    *fit_procs = 0;
    if (m->nbyprocs == 0 || P == 1)
        return 0;
    const cost_procs_fit *f = cost_machine_use_procs(m, P);
    if (f == NULL) {
        char list[COST_MAX_PROCS * 12] = "";
        size_t at = 0;
        for (size_t i = 0; i < m->nbyprocs && at < sizeof list; i++)
            at += (size_t)snprintf(list + at, sizeof list - at, "%s%d", i > 0 ? ", " : "",
                                   m->byprocs[i].procs);
        snprintf(err, errlen,
                 "%s has P = %d, but %s was calibrated for P = %s only (add %d to 'polybsp "
                 "probe --procs')",
                 trace_name, P, machine_name, list, P);
        return -1;
    }
    *fit_procs = f->procs;
    return 0;
}

/* Step 3: what the chosen models, --faults and --work ops need but the files
 * lack. */
static int check_inputs(const cost_eval_opts *o, const cost_trace *t, const cost_machine *m,
                        cost_eval *r, char *err, size_t errlen)
{
    for (int k = 0; k < COST_EVAL_NMODELS; k++) {
        r->have[k] = o->want[k] || o->all;
        if (!r->have[k] ||
            cost_model_check(cost_eval_models[k].kind, t, m, o->flags, o->trace, o->machine,
                             r->unavailable[k], sizeof r->unavailable[k]) == 0) {
            r->unavailable[k][0] = '\0';
            continue;
        }
        if (o->want[k]) {
            snprintf(err, errlen, "%s", r->unavailable[k]);
            return -1;
        }
        if (k == COST_EVAL_BSPSTAR)
            r->have[k] = 0;
    }
    for (int k = 0; o->faults_asked && o->faults != COST_FAULTS_NONE && k < 2; k++) {
        int cost = fault_cost[o->faults][k];
        if (!(m->fault_touch[cost] > 0)) {
            snprintf(err, errlen,
                     "%s: field 'page_fault.%s': missing (needed by --faults %s: probe again)",
                     o->machine, cost ? "after_read" : "fresh", cost_fault_names[o->faults]);
            return -1;
        }
    }
    if (!(o->flags & COST_USE_OPS))
        return 0;
    static const char *const rate_fields[CORE_OPS_KINDS] = {
        "rate.ops_per_second", "op_rates.compares_per_second", "op_rates.words_per_second"};
    int declares = 0;
    for (int k = 0; k < CORE_OPS_KINDS; k++) {
        declares |= cost_eval_declares(t, k, 0);
        if (cost_eval_declares(t, k, 1) && !(m->rate[k] > 0)) {
            snprintf(err, errlen,
                     "%s: field '%s': missing (needed by --work ops for the trace's '%s': probe "
                     "again)",
                     o->machine, rate_fields[k], core_ops_key(k));
            return -1;
        }
    }
    if (declares)
        return 0;
    snprintf(err, errlen,
             "%s: no record declares 'ops', 'compares' or 'words' (needed by --work ops)",
             o->trace);
    return -1;
}

/* Step 4: a line or levels fitted at a P beyond the machine's cores describe
 * time-slicing, not a run with a core per process (its header's cores). */
static void refuse_oversubscribed(const cost_eval_opts *o, const cost_trace *t,
                                  const cost_machine *m, cost_eval *r)
{
    if (o->oversubscribed_fits || t->cores <= 0 || t->nprocs > t->cores)
        return;
    const cost_procs_fit *line = r->fit_procs > 0 ? cost_machine_procs_fit(m, r->fit_procs) : NULL;
    int levels = cost_machine_levels_procs(m) > 0 && m->levels_oversubscribed;
    for (int k = 0; k < COST_EVAL_NMODELS; k++) {
        int dbsp = k == COST_EVAL_DBSP;
        if (!cost_eval_available(r, k) || !(dbsp ? levels : line != NULL && line->oversubscribed))
            continue;
        snprintf(r->unavailable[k], sizeof r->unavailable[k],
                 "%s: its %s of P = %d %s fitted beyond its %d cores (time-sliced), and %s ran "
                 "within its %d cores: not used (--oversubscribed-fits uses it)",
                 o->machine, dbsp ? "D-BSP levels" : "BSP line",
                 dbsp ? m->levels_procs : line->procs, dbsp ? "were" : "was", m->cores, o->trace,
                 t->cores);
    }
}

/* Step 5. Unasked, without both costs (an older or simulated probe's file)
 * the faults are reported only. */
static void charge_faults(const cost_eval_opts *o, cost_machine *m, cost_eval *r)
{
    r->faults = o->faults;
    if (!o->faults_asked && !(m->fault_touch[0] > 0 && m->fault_touch[1] > 0))
        r->faults = COST_FAULTS_NONE;
    for (int k = 0; k < 2; k++)
        m->fault[k] = r->faults == COST_FAULTS_NONE ? 0 : m->fault_touch[fault_cost[r->faults][k]];
}

/* Step 6. REAL: the run's own, or with --against the target's run's; a trace
 * from elsewhere without one has none (NaN), since the source's own time is no
 * measure of a prediction for another machine. */
static int evaluate(const cost_eval_opts *o, const cost_trace *t, const cost_machine *m,
                    cost_eval *r)
{
    size_t n = t->nsteps;
    r->real = malloc(n * sizeof *r->real);
    if (r->real == NULL)
        return -2;
    if (r->against != NULL)
        r->real_total = cost_predict(COST_REAL, r->against, m, o->flags, r->real);
    else if (r->elsewhere) {
        r->real_total = NAN;
        for (size_t c = 0; c < n; c++)
            r->real[c] = NAN;
    } else
        r->real_total = cost_predict(COST_REAL, t, m, o->flags, r->real);
    for (int k = 0; k < COST_EVAL_NMODELS; k++) {
        if (!cost_eval_available(r, k))
            continue;
        r->model[k] = malloc(n * sizeof *r->model[k]);
        if (r->model[k] == NULL)
            return -2;
        r->model_total[k] = cost_predict(cost_eval_models[k].kind, t, m, o->flags, r->model[k]);
    }
    return 0;
}

int cost_eval_run(const cost_eval_opts *o, cost_trace *t, cost_machine *m, cost_eval *r, char *err,
                  size_t errlen)
{
    *r = (cost_eval){.nsteps = t->nsteps, .faults = o->faults};
    int rc = from_elsewhere(o, t, m, r, err, errlen);
    if (rc == 0 && !(o->overall_line && cost_machine_procs_fit(m, t->nprocs) == NULL))
        rc = cost_eval_line(m, t->nprocs, o->trace, o->machine, &r->fit_procs, err, errlen);
    if (rc == 0)
        rc = check_inputs(o, t, m, r, err, errlen);
    if (rc == 0) {
        refuse_oversubscribed(o, t, m, r);
        charge_faults(o, m, r);
        rc = evaluate(o, t, m, r);
    }
    if (rc == -2)
        snprintf(err, errlen, "out of memory");
    return rc;
}

void cost_eval_free(cost_eval *r)
{
    free(r->real);
    for (int k = 0; k < COST_EVAL_NMODELS; k++)
        free(r->model[k]);
    if (r->against != NULL)
        cost_trace_free(r->against);
    free(r->against);
    *r = (cost_eval){0};
}
