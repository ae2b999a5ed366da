/* portability_held.c — held-out programs of `polybsp portability`
 * (portability_held.h). */
#include "portability_held.h"

#include "cost/cost_json.h"
#include "cost/cost_model.h"
#include "cost/cost_trace.h"
#include "cost/cost_transfer.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { NMODELS = PORTABILITY_NMODELS, MAX_RUNS = PORTABILITY_MAX_REPEATS };

/* What one trace gave. */
typedef struct held_run {
    size_t program;
    int preempted;
    double real, model[NMODELS];
} held_run;

/* Takes bsp_trace_begin's file creation out of the trace: it is in the first w
 * of the process that made the file, and REAL waited for it. Returns the
 * largest set-up, which REAL loses. */
static double drop_setup(cost_trace *t)
{
    double most = 0;
    for (size_t k = 0; k < t->start[t->nprocs]; k++) {
        cost_rec *r = &t->recs[k];
        most = fmax(most, r->setup);
        r->w -= r->setup;
        r->setup = 0;
    }
    return most;
}

/* The program of trace t in h, added when new; -1 with err when its number of
 * supersteps differs from that of the program's other traces. */
static long program_of(held_set *h, const cost_trace *t, const char *path, char *err, size_t errlen)
{
    const char *slash = strrchr(t->program, '/'); /* the table shows the file's name */
    const char *name = slash ? slash + 1 : t->program;
    for (size_t i = 0; i < h->n; i++) {
        held_program *p = &h->programs[i];
        if (p->procs != t->nprocs || strcmp(p->name, name) != 0)
            continue;
        if (p->nsteps != t->nsteps) {
            snprintf(err, errlen,
                     "%s: %lu supersteps, but another trace of %s at P = %d has %lu: give "
                     "the traces of one size per program",
                     path, t->nsteps, t->program, t->nprocs, p->nsteps);
            return -1;
        }
        return (long)i;
    }
    held_program *p = &h->programs[h->n];
    *p = (held_program){.procs = t->nprocs, .nsteps = t->nsteps};
    snprintf(p->name, sizeof p->name, "%s", name);
    return (long)h->n++;
}

/* REAL and every model's time of the trace at path (m given its P). */
static int read_one(held_set *h, const char *path, cost_machine *m, const char *machine_name,
                    int flags, held_run *run, char *err, size_t errlen)
{
    cost_trace t;
    if (cost_trace_read(path, &t, err, errlen) != 0)
        return -1;
    int rc = -1;
    if (cost_trace_elsewhere(&t, m)) {
        snprintf(err, errlen,
                 "%s: a run on %s (engine %s), not on the machine of %s (%s, engine %s): held-out "
                 "traces are runs where the machine file was made",
                 path, t.host[0] ? t.host : "?", t.engine, machine_name, m->host, m->engine);
        goto out;
    }
    long p = program_of(h, &t, path, err, errlen);
    if (p < 0)
        goto out;
    run->program = (size_t)p;
    run->preempted = portability_preempted(&t);
    double setup = drop_setup(&t);
    if (portability_eval(&t, m, path, machine_name, flags, "", &run->real, run->model,
                         h->unavailable, err, errlen) != 0)
        goto out;
    run->real -= setup;
    rc = 0;
out:
    cost_trace_free(&t);
    return rc;
}

/* Program i's medians over its runs, preempted ones left out. */
static void summarise(held_set *h, size_t i, const held_run *runs, size_t nruns)
{
    static double real[MAX_RUNS], model[NMODELS][MAX_RUNS];
    int pre[MAX_RUNS], n = 0;
    for (size_t r = 0; r < nruns; r++) {
        if (runs[r].program != i)
            continue;
        real[n] = runs[r].real;
        pre[n] = runs[r].preempted;
        for (int k = 0; k < NMODELS; k++)
            model[k][n] = runs[r].model[k];
        n++;
    }
    held_program *p = &h->programs[i];
    p->runs = n;
    p->kept = portability_keep(real, pre, model, n);
    h->left_out += (size_t)(n - p->kept);
    p->real = portability_median(real, p->kept);
    for (int k = 0; k < NMODELS; k++)
        p->model[k] = portability_median(model[k], p->kept);
}

int held_read(held_set *h, const char *const *paths, size_t npaths, const cost_machine *m,
              const char *machine_name, int flags, char *err, size_t errlen)
{
    *h = (held_set){.runs = npaths};
    held_run *runs = malloc(npaths * sizeof *runs);
    cost_machine *at = malloc(sizeof *at);
    h->programs = malloc(npaths * sizeof *h->programs);
    if (!runs || !at || !h->programs) {
        snprintf(err, errlen, "out of memory");
        free(runs);
        free(at);
        return -1;
    }
    int rc = 0;
    for (size_t k = 0; k < npaths && rc == 0; k++) {
        *at = *m; /* each trace gets its own P's line */
        rc = read_one(h, paths[k], at, machine_name, flags, &runs[k], err, errlen);
    }
    if (rc == 0) {
        for (size_t i = 0; i < h->n; i++)
            summarise(h, i, runs, npaths);
        /* Each program is a family of one. */
        size_t *start = malloc((h->n + 1) * sizeof *start);
        double *model = malloc(h->n * sizeof *model), *real = malloc(h->n * sizeof *real);
        if (!start || !model || !real) {
            snprintf(err, errlen, "out of memory");
            rc = -1;
        }
        for (size_t i = 0; rc == 0 && i <= h->n; i++)
            start[i] = i;
        for (int k = 0; rc == 0 && k < NMODELS; k++) {
            for (size_t i = 0; i < h->n; i++) {
                real[i] = h->programs[i].real;
                model[i] = h->programs[i].model[k];
            }
            cost_portability_estimate(model, real, start, h->n, NULL, &h->est[k]);
        }
        free(start);
        free(model);
        free(real);
    }
    free(runs);
    free(at);
    return rc;
}

void held_free(held_set *h)
{
    free(h->programs);
    h->programs = NULL;
}

/* The programs a model predicts within pct percent of REAL. */
static size_t within(const held_set *h, int k, double pct)
{
    size_t n = 0;
    for (size_t i = 0; i < h->n; i++)
        n += fabs(cost_error_percent(h->programs[i].real, h->programs[i].model[k])) <= pct;
    return n;
}

void held_print_table(const held_set *h)
{
    printf("\nheld-out programs: %zu, from %zu trace%s (%zu left out: preempted and more than "
           "%.2fx their\nprogram's median); no model rule was chosen on them. Each is a family "
           "of its own:\neta (1) = delta. ERROR = 100 (REAL - MODEL) / REAL percent, of the "
           "medians\n\n",
           h->n, h->runs, h->runs == 1 ? "" : "s", h->left_out, PORTABILITY_PREEMPTED_SLOWER);
    printf("%-24s %4s %5s %11s", "program", "P", "runs", "REAL");
    for (int k = 0; k < NMODELS; k++)
        printf(" %8s", cost_eval_models[k].label);
    printf("\n");
    for (size_t i = 0; i < h->n; i++) {
        const held_program *p = &h->programs[i];
        printf("%-24s %4d %2d/%-2d %11.3e", p->name, p->procs, p->kept, p->runs, p->real);
        for (int k = 0; k < NMODELS; k++) {
            double e = cost_error_percent(p->real, p->model[k]);
            if (isnan(e))
                printf(" %8s", "n/a");
            else
                printf(" %+8.1f", e);
        }
        printf("\n");
    }
    for (int k = 0; k < NMODELS; k++)
        if (h->unavailable[k][0])
            printf("note: %s n/a: %s\n", cost_eval_models[k].label, h->unavailable[k]);
    printf("\n%-8s %9s %10s %10s %10s\n", "model", "programs", "within 10%", "within 25%", "delta");
    for (int k = 0; k < NMODELS; k++) {
        const cost_portability *e = &h->est[k];
        printf("%-8s %5zu/%-3zu %10zu %10zu", cost_eval_models[k].label, e->programs, h->n,
               within(h, k, 10), within(h, k, 25));
        if (isnan(e->delta))
            printf(" %10s\n", "n/a");
        else
            printf(" %10.3f\n", e->delta);
    }
    int trust = portability_trust(h->est);
    printf("trust on the held-out programs: %s\n",
           trust < 0 ? "none (no model predicts them all)" : cost_eval_models[trust].label);
}

void held_print_json(FILE *f, const held_set *h)
{
    fprintf(f, "\"held_out\": {\"traces\": %zu, \"left_out_preempted\": %zu, \"programs\": [",
            h->runs, h->left_out);
    for (size_t i = 0; i < h->n; i++) {
        const held_program *p = &h->programs[i];
        fprintf(f, "%s\n    {\"program\": ", i ? "," : "");
        cost_jput_str(f, p->name, sizeof p->name);
        fprintf(f, ", \"procs\": %d, \"supersteps\": %lu, \"runs\": %d, \"kept\": %d, \"real\": ",
                p->procs, p->nsteps, p->runs, p->kept);
        cost_jput_num(f, p->real);
        for (int k = 0; k < NMODELS; k++) {
            fprintf(f, ", \"%s\": ", cost_model_name(cost_eval_models[k].kind));
            cost_jput_num(f, p->model[k]);
        }
        fprintf(f, "}");
    }
    fprintf(f, "],\n   \"summary\": {");
    for (int k = 0; k < NMODELS; k++) {
        const cost_portability *e = &h->est[k];
        fprintf(f, "%s\n    \"%s\": {\"programs\": %zu, \"within_10\": %zu, \"within_25\": %zu, ",
                k ? "," : "", cost_model_name(cost_eval_models[k].kind), e->programs,
                within(h, k, 10), within(h, k, 25));
        fprintf(f, "\"eta\": ");
        cost_jput_num(f, e->eta);
        fprintf(f, ", \"delta\": ");
        cost_jput_num(f, e->delta);
        fprintf(f, "}");
    }
    fprintf(f, "},\n   \"trust\": ");
    portability_json_trust(f, h->est);
    fprintf(f, "}");
}
