/* cost_eval — one trace against the cost models on a machine file: the rules
 * of `polybsp predict`, which report, portability and the demo share, so that
 * each charges the same line, faults and fits.
 *
 * Contract: cost_eval_run(o, t, m, r, err, errlen) evaluates trace t (called
 * o->trace in messages) on machine file m (o->machine), in this order:
 *  1. elsewhere: when o->against names a run on m, or t comes from another
 *     machine (cost_trace_elsewhere) and o->explain is not set, t's work is
 *     scaled to m (cost_trace_transfer; t changes) and REAL is the --against
 *     run's, which must have t's P and number of supersteps, or none (NaN);
 *     o->repeats, each read and scaled alike, then give t their medians
 *     (cost_trace_median); repeats of a t that is not from elsewhere are bad
 *     input (they cannot explain one run);
 *  2. the line: cost_eval_line for t's P (m changes);
 *  3. the models: o->want[k] asks for cost_eval_models[k] by name (one that
 *     cannot be evaluated is refused), o->all for every one (one that cannot is
 *     n/a, r->unavailable[k] says why; BSP* without its parameters is left
 *     out: r->have[k] = 0); the costs --faults asked for and, with
 *     COST_USE_OPS, the rates of the operations t declares must be in m;
 *  4. fits beyond the cores: unless o->oversubscribed_fits, a model whose
 *     BSP line or D-BSP levels were fitted beyond m's cores is n/a for a t
 *     that ran within its own (models.md, "Calibration that knows its limits");
 *  5. faults: m->fault gets o->faults' charges (COST_FAULTS_KIND unasked, or
 *     COST_FAULTS_NONE then when m lacks either cost); r->faults is the one used;
 *  6. REAL and every available model, per superstep and in total (cost_predict).
 * Returns 0; -1 with one line in err for bad input (naming the file and what
 * it lacks, without the command's name); -2 when out of memory (err says so).
 * cost_eval_free
 * frees what r holds, after a failure too. cost_eval_real and cost_eval_model
 * give column c, c = t->nsteps being the total.
 * cost_eval_line makes m's BSP line and D-BSP levels those of P's by_procs and
 * sets *fit_procs to it (0: m has none, or P = 1, which has no h-relation, and
 * keeps the line over all P); -1 with err when m has lines but none for P.
 */
#ifndef POLYBSP_COST_EVAL_H
#define POLYBSP_COST_EVAL_H

#include "cost/cost_machine.h"
#include "cost/cost_model.h"
#include "cost/cost_trace.h"
#include "cost/cost_transfer.h"

#include <stddef.h>

enum { COST_EVAL_BSP, COST_EVAL_BSPSTAR, COST_EVAL_EBSP, COST_EVAL_DBSP, COST_EVAL_CCM };
enum { COST_EVAL_NMODELS = 5 };

typedef struct cost_eval_model_info {
    cost_model_kind kind;
    const char *label; /* as predict prints it: "BSP*", "D-BSP" */
} cost_eval_model_info;
extern const cost_eval_model_info cost_eval_models[COST_EVAL_NMODELS];

/* --faults: how a page fault inside a sync is charged (cost_machine's fault). */
typedef enum {
    COST_FAULTS_KIND, /* a fresh page's at a first write's cost, any other at a read page's */
    COST_FAULTS_FRESH,
    COST_FAULTS_AFTER_READ,
    COST_FAULTS_NONE, /* reported only */
    COST_NFAULTS
} cost_fault_charge;
extern const char *const cost_fault_names[COST_NFAULTS]; /* "kind", "fresh", ... */

typedef struct cost_eval_opts {
    const char *trace, *machine; /* the files' names, for messages */
    const char *against;         /* a run of t's program on m, or NULL */
    /* More runs of t's program where t ran (repeats): t is predicted from the
     * medians of all (cost_repeats.h); only for another machine than t's. */
    const char *const *repeats;
    size_t nrepeats;
    int want[COST_EVAL_NMODELS];
    int all;
    int flags; /* cost_model.h */
    cost_fault_charge faults;
    int faults_asked;        /* then its costs must be in m */
    int explain;             /* t ran on m, whatever its host says */
    int oversubscribed_fits; /* use a line or levels fitted beyond m's cores */
    cost_scale scale;        /* what a trace from elsewhere is scaled by */
    /* A P that m has no line of its own for takes m's overall line instead of
     * an error (the demo: its probe leaves out a P whose fit is noise). */
    int overall_line;
} cost_eval_opts;

typedef struct cost_eval {
    size_t nsteps;
    int fit_procs;         /* the P of m's by_procs line used; 0: its overall line */
    int elsewhere;         /* t came from another machine (step 1) */
    double source_scale;   /* then the figure o->scale names there */
    double target_scale;   /* and on m (work_scale = source / target), */
    char source_host[128]; /* its host, cores (0: not said) and engine */
    int source_cores;
    char source_engine[32];
    cost_fault_charge faults; /* the charge used */
    int have[COST_EVAL_NMODELS];
    char unavailable[COST_EVAL_NMODELS][4096 + 512];
    double *real, *model[COST_EVAL_NMODELS]; /* nsteps each */
    double real_total, model_total[COST_EVAL_NMODELS];
    cost_trace *against; /* the --against run, or NULL */
} cost_eval;

int cost_eval_run(const cost_eval_opts *o, cost_trace *t, cost_machine *m, cost_eval *r, char *err,
                  size_t errlen);
void cost_eval_free(cost_eval *r);
int cost_eval_line(cost_machine *m, int P, const char *trace_name, const char *machine_name,
                   int *fit_procs, char *err, size_t errlen);
/* Model k was asked for and evaluated. */
int cost_eval_available(const cost_eval *r, int k);
double cost_eval_real(const cost_eval *r, size_t c);
double cost_eval_model(const cost_eval *r, int k, size_t c);

/* What the trace counted, for those who say what was charged: whether some
 * record declares operations of kind k (more than 0 of them with positive);
 * the page faults inside syncs, *fresh those on pages counted fresh (as
 * cost_work takes them); and those in the work of the records that declare
 * operations, which COST_USE_OPS charges. */
int cost_eval_declares(const cost_trace *t, int k, int positive);
long long cost_eval_sync_faults(const cost_trace *t, long long *fresh);
long long cost_eval_work_faults(const cost_trace *t);

#endif
