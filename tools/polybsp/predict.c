/* predict.c — `polybsp predict --machine FILE TRACE`: a traced run's real time
 * against what the cost models predict for it on a calibrated machine.
 *
 * Contract: reads the machine file and the trace (docs/formats.md), evaluates
 * the chosen models (docs/models.md) and prints REAL, each MODEL and its ERROR =
 * 100·(REAL − MODEL)/REAL, as the total or per superstep, as a table laid out
 * like table 14 of paper 000, as CSV or as JSON. Status 0; bad usage or a bad
 * input file: one line on stderr (via tool_usage_error) and status 2.
 */
#include "predict.h"
#include "report_html.h"
#include "tool.h"

#include "cost/cost_groups.h"
#include "cost/cost_json.h"
#include "cost/cost_model.h"
#include "cost/cost_transfer.h"
#include "cost/cost_tree.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char cmd_predict_help[] =
    "usage: polybsp predict --machine FILE [--model MODEL]... [--per-step]\n"
    "                       [--format table|csv|json|html] [-o FILE]\n"
    "                       [--work measured|whole|ops] [--dbsp-label traffic|group]\n"
    "                       [--faults kind|fresh|after-read|none]\n"
    "                       [--ccm-plain bsp|patterns] [--against TRACE2 | --explain]\n"
    "                       TRACE\n"
    "\n"
    "Compares the running time recorded in TRACE with the time the cost models\n"
    "predict from its supersteps and the machine parameters in FILE (written by\n"
    "`polybsp probe`). For each model it prints MODEL and ERROR = 100*(REAL-MODEL)/REAL\n"
    "percent, as in table 14 of Rodriguez et al., \"h-relation models\".\n"
    "TRACE is a trace file written by a traced run; '-' reads standard input.\n"
    "\n"
    "A TRACE from another host, platform or engine than FILE's is predicted for\n"
    "FILE's machine: W is each superstep's CPU time x r(TRACE) / r(FILE), and\n"
    "there is no REAL or ERROR unless --against gives a run on the target.\n"
    "\n"
    "options:\n"
    "  --machine FILE     the machine file (required); BSP's g and L are its line\n"
    "                     for the trace's P (by_procs): a P it lacks is refused\n"
    "  --model MODEL      bsp      W + g*h + L per superstep\n"
    "                     bspstar  W + g*(s + h*B) + L (BSP*, critical block size B)\n"
    "                     ebsp     no barrier: each process waits for its in-partners\n"
    "                     dbsp     D-BSP: W + g_i*h + L_i for a superstep labelled i,\n"
    "                              the smallest cluster that holds its traffic; the\n"
    "                              parts of a partition run in lockstep\n"
    "                     ccm      Collective Computing Model: W + T_f(P,h) per\n"
    "                              collective, T_partition + slowest part + T_rejoin\n"
    "                              per partition, a plain superstep its\n"
    "                              pattern's T (see --ccm-plain)\n"
    "                     all      every model (the default; repeat --model to choose\n"
    "                              several); D-BSP and CCM say n/a when the machine\n"
    "                              file lacks their parameters\n"
    "  --per-step         one column per superstep, then the total\n"
    "  --format FORMAT    table (default), csv, json, or html: the page of\n"
    "                     `polybsp report` (docs/report.md)\n"
    "  -o, --output FILE  write to FILE instead of standard output\n"
    "  --work WORK        measured: W is w less the put and send calls' copying,\n"
    "                     which g*h charges (default); whole: all of w; ops: the\n"
    "                     declared operations / the machine's rates, plus the\n"
    "                     page faults counted in the work at a fresh page's cost\n"
    "  --dbsp-label LABEL traffic: a superstep's D-BSP cluster holds its traffic\n"
    "                     (default); group: it also holds the group that syncs\n"
    "  --faults CHARGE    page faults counted inside syncs (no term of the papers),\n"
    "                     charged to the process that took them: kind (default\n"
    "                     when FILE has both costs) a fresh page's at the cost of a\n"
    "                     first write, any other at that of a page read before;\n"
    "                     fresh or after-read: all at that one cost; none: report\n"
    "  --ccm-plain PLAIN  CCM's superstep that is no collective: patterns (default,\n"
    "                     paper 001) its pattern's own T, else BSP's; bsp: BSP's\n"
    "  --against TRACE2   a run of the same program (same P and supersteps) on\n"
    "                     FILE's machine: its time is REAL, and TRACE is\n"
    "                     predicted as from elsewhere\n"
    "  --explain          TRACE ran on FILE's machine even if the host names\n"
    "                     differ (nodes of one cluster): explain it\n"
    "  --oversubscribed-fits  use a line or levels fitted beyond FILE's cores\n"
    "                     for a TRACE that ran within its cores (n/a otherwise)\n"
    "  -h, --help         show this help\n"
    "\n"
    "Times are in seconds. docs/models.md explains the formulas and the tables;\n"
    "docs/formats.md the files. Bad usage or input exits with status 2.\n";

enum { MODEL_BSP, MODEL_BSPSTAR, MODEL_EBSP, MODEL_DBSP, MODEL_CCM, NMODELS };
/* --faults, in the order of fault_names. */
enum { FAULTS_KIND, FAULTS_FRESH, FAULTS_AFTER_READ, FAULTS_NONE, NFAULTS };
static const char *const fault_names[NFAULTS] = {"kind", "fresh", "after-read", "none"};
/* Which of the machine file's costs (fault_touch: 0 fresh, 1 after read) each
 * charge puts on a fault on a page counted fresh [0] and on any other [1]. */
static const int fault_cost[FAULTS_NONE][2] = {{0, 1}, {0, 0}, {1, 1}};
enum { COLUMNS_PER_BLOCK = 6 };
static const cost_model_kind model_kinds[NMODELS] = {COST_BSP, COST_BSPSTAR, COST_EBSP, COST_DBSP,
                                                     COST_CCM};
static const char *const model_labels[NMODELS] = {"BSP", "BSP*", "EBSP", "D-BSP", "CCM"};

typedef enum { FORMAT_TABLE, FORMAT_CSV, FORMAT_JSON, FORMAT_HTML } out_format;

/* "predict", or "report" when report.c runs this code (predict.h): its name
 * starts every message. */
static const char *command = "predict";
/* Where the tables, CSV, JSON or page go: standard output, or -o FILE. */
static FILE *out;

typedef struct options {
    const char *machine, *trace;
    int fit_procs;       /* the P of the machine's by_procs line used; 0 for its overall line */
    int want[NMODELS];   /* explicitly asked for */
    int all;             /* --model all, or no --model */
    int per_step, flags; /* COST_USE_OPS, COST_DBSP_GROUP */
    int faults;          /* --faults: FAULTS_... */
    int faults_asked;    /* --faults given: its cost must be in the machine file */
    out_format format;
    const char *output;      /* -o FILE, or NULL: standard output */
    const char *portability; /* report --portability FILE */
    const char *probe;       /* report --probe FILE: the probe's raw samples */
    const char *against;     /* --against TRACE2: a run of the program on the target */
    int explain;             /* --explain: TRACE ran on FILE's machine, whatever its host */
    int oversubscribed_fits; /* --oversubscribed-fits: use them for a run within its cores */
    int elsewhere;           /* the trace comes from another machine (cost_transfer.h) */
    double source_rate;      /* then the rate of the machine it ran on */
    char source_host[128], source_engine[32];
} options;

/* REAL and every evaluated model, per superstep and in total. A model that
 * `all` asked for but cannot be evaluated has a column that says n/a, and
 * unavailable[k] says why. */
typedef struct results {
    int have[NMODELS];
    char unavailable[NMODELS][4096 + 512];
    double *real, *model[NMODELS]; /* nsteps each */
    double real_total, model_total[NMODELS];
} results;

static const char *const model_choices[] = {"bsp", "bspstar", "ebsp", "dbsp", "ccm", "all"};
static const char *const format_names[] = {"table", "csv", "json", "html"};
static const char *const work_names[] = {"measured", "whole", "ops"};
static const char *const label_names[] = {"traffic", "group"};

/* The options of predict, then report's own: the first NCOMMON are both's. */
enum {
    OPT_OUTPUT,
    OPT_PER_STEP,
    OPT_MACHINE,
    OPT_MODEL,
    OPT_WORK,
    OPT_FAULTS,
    OPT_DBSP_LABEL,
    OPT_CCM_PLAIN,
    OPT_AGAINST,
    OPT_EXPLAIN,
    OPT_OVERSUBSCRIBED_FITS,
    NCOMMON,
    OPT_FORMAT = NCOMMON, /* predict */
    OPT_PORTABILITY = NCOMMON,
    OPT_PROBE /* report */
};
static const tool_opt predict_opts[] = {{"-o|--output", true},
                                        {"--per-step", false},
                                        {"--machine", true},
                                        {"--model", true},
                                        {"--work", true},
                                        {"--faults", true},
                                        {"--dbsp-label", true},
                                        {"--ccm-plain", true},
                                        {"--against", true},
                                        {"--explain", false},
                                        {"--oversubscribed-fits", false},
                                        {"--format", true}};
static const tool_opt report_opts[] = {{"-o|--output", true},
                                       {"--per-step", false},
                                       {"--machine", true},
                                       {"--model", true},
                                       {"--work", true},
                                       {"--faults", true},
                                       {"--dbsp-label", true},
                                       {"--ccm-plain", true},
                                       {"--against", true},
                                       {"--explain", false},
                                       {"--oversubscribed-fits", false},
                                       {"--portability", true},
                                       {"--probe", true}};

typedef struct parsing {
    options *o;
    int chose; /* a --model was given */
    int report;
} parsing;

static int on_option(void *ctx, int opt, const char *v)
{
    parsing *ps = ctx;
    options *o = ps->o;
    int k;
    if (opt == TOOL_ARG) {
        if (o->trace != NULL)
            return tool_usage_error("%s: unexpected argument '%s' (expected one TRACE)", command,
                                    v);
        o->trace = v;
        return 0;
    }
    if (opt >= NCOMMON && ps->report) {
        if (opt == OPT_PORTABILITY)
            o->portability = v;
        else
            o->probe = v;
        return 0;
    }
    switch (opt) {
    case OPT_OUTPUT: o->output = v; return 0;
    case OPT_PER_STEP: o->per_step = 1; return 0;
    case OPT_MACHINE: o->machine = v; return 0;
    case OPT_MODEL:
        if ((k = tool_choice(command, "model", v, model_choices, NMODELS + 1)) < 0)
            return TOOL_EXIT_USAGE;
        ps->chose = 1;
        if (k == NMODELS)
            o->all = 1;
        else
            o->want[k] = 1;
        return 0;
    case OPT_WORK:
        if ((k = tool_choice(command, "work", v, work_names, 3)) < 0)
            return TOOL_EXIT_USAGE;
        o->flags &= ~(COST_USE_OPS | COST_WORK_WHOLE);
        o->flags |= k == 2 ? COST_USE_OPS : k == 1 ? COST_WORK_WHOLE : 0;
        return 0;
    case OPT_FAULTS:
        if ((o->faults = tool_choice(command, "faults", v, fault_names, NFAULTS)) < 0)
            return TOOL_EXIT_USAGE;
        o->faults_asked = 1;
        return 0;
    case OPT_DBSP_LABEL:
        if ((k = tool_choice(command, "D-BSP label", v, label_names, 2)) < 0)
            return TOOL_EXIT_USAGE;
        if (k == 1)
            o->flags |= COST_DBSP_GROUP;
        return 0;
    case OPT_CCM_PLAIN: return tool_ccm_plain(command, v, &o->flags);
    case OPT_AGAINST: o->against = v; return 0;
    case OPT_EXPLAIN: o->explain = 1; return 0;
    case OPT_OVERSUBSCRIBED_FITS: o->oversubscribed_fits = 1; return 0;
    default: /* OPT_FORMAT */
        if ((k = tool_choice(command, "format", v, format_names, 4)) < 0)
            return TOOL_EXIT_USAGE;
        o->format = (out_format)k;
        return 0;
    }
}

/* Returns -1 after printing help (status 0), 0 to go on, or 2 for bad usage. */
static int parse_args(int argc, char **argv, options *o)
{
    parsing ps = {.o = o, .report = strcmp(command, "report") == 0};
    int rc = ps.report ? tool_parse_args(command, cmd_report_help, argc, argv, report_opts,
                                         (int)(sizeof report_opts / sizeof *report_opts), on_option,
                                         &ps, NULL)
                       : tool_parse_args(command, cmd_predict_help, argc, argv, predict_opts,
                                         (int)(sizeof predict_opts / sizeof *predict_opts),
                                         on_option, &ps, NULL);
    if (rc != 0)
        return rc;
    if (!ps.chose)
        o->all = 1;
    if (o->machine == NULL)
        return tool_usage_error("%s: missing --machine FILE (try 'polybsp %s --help')", command,
                                command);
    if (o->trace == NULL)
        return tool_usage_error("%s: missing TRACE (try 'polybsp %s --help')", command, command);
    return 0;
}

/* Whether some record declares operations of kind k (more than 0 of them
 * with positive). */
static int declares_kind(const cost_trace *t, int k, int positive)
{
    for (size_t i = 0; i < t->start[t->nprocs]; i++)
        if (positive ? t->recs[i].ops[k] > 0 : t->recs[i].ops[k] >= 0)
            return 1;
    return 0;
}

/* The first collective whose caller named an algorithm the machine file has
 * no T for (CCM charges it its kind's T), or NULL. */
static const cost_rec *unmatched_alg(const cost_trace *t, const cost_machine *m)
{
    char name[COST_CCM_NAME_MAX];
    for (size_t i = 0; i < t->start[t->nprocs]; i++)
        if (t->recs[i].alg[0] && !cost_machine_collective(m, cost_ccm_name(&t->recs[i], name)))
            return &t->recs[i];
    return NULL;
}

/* Refuses what the chosen models and --work need but the files lack. `all`
 * quietly skips BSP* on a machine without its parameters, and shows D-BSP and
 * CCM as n/a with the reason; asking for one of them by name is an error. */
static int check_inputs(const options *o, const cost_trace *t, const cost_machine *m, results *r)
{
    for (int k = 0; k < NMODELS; k++) {
        r->have[k] = o->want[k] || o->all;
        if (!r->have[k] || cost_model_check(model_kinds[k], t, m, o->flags, o->trace, o->machine,
                                            r->unavailable[k], sizeof r->unavailable[k]) == 0) {
            r->unavailable[k][0] = '\0';
            continue;
        }
        if (o->want[k])
            return tool_usage_error("%s: %s", command, r->unavailable[k]);
        if (k == MODEL_BSPSTAR)
            r->have[k] = 0;
    }
    int missing = -1; /* the first cost the charge needs that the file lacks */
    for (int k = 0; o->faults != FAULTS_NONE && k < 2 && missing < 0; k++)
        if (!(m->fault_touch[fault_cost[o->faults][k]] > 0))
            missing = fault_cost[o->faults][k];
    if (missing >= 0 && o->faults_asked)
        return tool_usage_error("%s: %s: field 'page_fault.%s': missing (needed by --faults %s: "
                                "probe again)",
                                command, o->machine, missing ? "after_read" : "fresh",
                                fault_names[o->faults]);
    if (!(o->flags & COST_USE_OPS))
        return 0;
    static const char *const rate_fields[CORE_OPS_KINDS] = {
        "rate.ops_per_second", "op_rates.compares_per_second", "op_rates.words_per_second"};
    int declares = 0;
    for (int k = 0; k < CORE_OPS_KINDS; k++) {
        declares |= declares_kind(t, k, 0);
        if (declares_kind(t, k, 1) && !(m->rate[k] > 0))
            return tool_usage_error("%s: %s: field '%s': missing (needed by --work ops for the "
                                    "trace's '%s': probe again)",
                                    command, o->machine, rate_fields[k], core_ops_key(k));
    }
    if (declares)
        return 0;
    return tool_usage_error("%s: %s: no record declares 'ops', 'compares' or 'words' (needed by "
                            "--work ops)",
                            command, o->trace);
}

static int available(const results *r, int k) { return r->have[k] && !r->unavailable[k][0]; }

/* A line or levels fitted at a P beyond the machine's cores describe
 * time-slicing, not a run with a core per process: for a trace that ran within
 * its cores (its header's cores), the models that would take them are n/a
 * unless --oversubscribed-fits (models.md, "Calibration that knows its
 * limits"). Called after choose_procs, which made them the trace's P's. */
static void refuse_oversubscribed(const options *o, const cost_trace *t, const cost_machine *m,
                                  results *r)
{
    if (o->oversubscribed_fits || t->cores <= 0 || t->nprocs > t->cores)
        return;
    const cost_procs_fit *line = o->fit_procs > 0 ? cost_machine_procs_fit(m, o->fit_procs) : NULL;
    int levels = cost_machine_levels_procs(m) > 0 && m->levels_oversubscribed;
    for (int k = 0; k < NMODELS; k++) {
        int dbsp = k == MODEL_DBSP;
        if (!available(r, k) || !(dbsp ? levels : line != NULL && line->oversubscribed))
            continue;
        snprintf(r->unavailable[k], sizeof r->unavailable[k],
                 "%s: its %s of P = %d %s fitted beyond its %d cores (time-sliced), and %s ran "
                 "within its %d cores: not used (--oversubscribed-fits uses it)",
                 o->machine, dbsp ? "D-BSP levels" : "BSP line",
                 dbsp ? m->levels_procs : line->procs, dbsp ? "were" : "was", m->cores, o->trace,
                 t->cores);
    }
}

/* A machine file with a BSP line per P (by_procs) gives the trace its own P's
 * line: an oversubscribed P, or one where more processes share the memory, has
 * another g and L. A trace of one process has no h-relation and keeps the overall
 * line; older files have only that. */
static int choose_procs(options *o, const cost_trace *t, cost_machine *m)
{
    if (m->nbyprocs == 0 || t->nprocs == 1)
        return 0;
    const cost_procs_fit *f = cost_machine_use_procs(m, t->nprocs);
    if (f == NULL) {
        char list[COST_MAX_PROCS * 12] = "";
        size_t at = 0;
        for (size_t i = 0; i < m->nbyprocs && at < sizeof list; i++)
            at += (size_t)snprintf(list + at, sizeof list - at, "%s%d", i > 0 ? ", " : "",
                                   m->byprocs[i].procs);
        return tool_usage_error("%s: %s has P = %d, but %s was calibrated for P = %s only "
                                "(add %d to 'polybsp probe --procs')",
                                command, o->trace, t->nprocs, o->machine, list, t->nprocs);
    }
    o->fit_procs = f->procs;
    return 0;
}

/* REAL: the run's own, or with --against the target's run's; a trace from
 * elsewhere without one has none (NaN), since the source's own time is no
 * measure of a prediction for another machine. */
static int evaluate(const options *o, const cost_trace *t, const cost_trace *against,
                    const cost_machine *m, results *r)
{
    size_t n = t->nsteps;
    r->real = malloc(n * sizeof *r->real);
    if (r->real == NULL)
        return -1;
    if (against != NULL)
        r->real_total = cost_predict(COST_REAL, against, m, o->flags, r->real);
    else if (o->elsewhere) {
        r->real_total = NAN;
        for (size_t c = 0; c < n; c++)
            r->real[c] = NAN;
    } else
        r->real_total = cost_predict(COST_REAL, t, m, o->flags, r->real);
    for (int k = 0; k < NMODELS; k++) {
        if (!available(r, k))
            continue;
        r->model[k] = malloc(n * sizeof *r->model[k]);
        if (r->model[k] == NULL)
            return -1;
        r->model_total[k] = cost_predict(model_kinds[k], t, m, o->flags, r->model[k]);
    }
    return 0;
}

/* ---- table ---- */

/* The divisions of the trace and the deepest level their parts reach. */
static void count_divisions(const cost_group *g, int depth, unsigned long *n, int *deepest)
{
    for (size_t i = 0; i < g->nitems; i++) {
        const cost_item *it = &g->items[i];
        *n += it->nparts > 0;
        if (it->nparts > 0 && depth + 1 > *deepest)
            *deepest = depth + 1;
        for (size_t k = 0; k < it->nparts; k++)
            count_divisions(&it->parts[k], depth + 1, n, deepest);
    }
}

static void describe_run(const cost_trace *t)
{
    fprintf(out, "program     %s\n", t->program);
    fprintf(out, "processes   %d (engine %s)\n", t->nprocs, t->engine);
    fprintf(out, "supersteps  %lu (steps %lu to %lu)", t->nsteps, t->first_step,
            t->first_step + t->nsteps - 1);
    if (t->complete)
        fprintf(out, ", run complete\n");
    else if (t->reason[0] != '\0')
        fprintf(out, ", run aborted: %s\n", t->reason);
    else
        fprintf(out, ", no end line: the run did not finish normally\n");
    if (t->dropped > 0)
        fprintf(out, "dropped     %lu later step%s that only some processes recorded\n", t->dropped,
                t->dropped == 1 ? "" : "s");
    unsigned long ndiv = 0;
    int deepest = 0;
    count_divisions(t->root, 0, &ndiv, &deepest);
    if (ndiv > 0)
        fprintf(out, "divisions   %lu (parts down to level %d)\n", ndiv, deepest);
    if (!t->same_start)
        fprintf(out, "note        the processes started tracing at different supersteps: column k "
                     "is each one's k-th traced superstep\n");
}

/* A trace from elsewhere: what was predicted from what, and how W was made. */
static void describe_source(const options *o, const cost_machine *m)
{
    if (!o->elsewhere)
        return;
    fprintf(out, "predicted   for %s (%s, engine %s) from a run on %s (engine %s)\n", o->machine,
            m->host, m->engine, o->source_host, o->source_engine);
    fprintf(out,
            "work        each superstep's CPU time there x r(source) / r(target) = x %.4g "
            "(r = %.4e and %.4e flop/s, DAXPY)\n",
            o->source_rate / cost_machine_trace_rate(m), o->source_rate,
            cost_machine_trace_rate(m));
    if (o->against)
        fprintf(out, "against     %s\n", o->against);
}

/* D-BSP's levels were measured on clusters of given sizes: say which labels of
 * the trace use the parameters of larger clusters (cost_dbsp_level), once
 * each; noted has a bit per label. */
static void note_dbsp_clusters(const options *o, const cost_machine *m, const cost_trace *t,
                               const cost_group *g, unsigned long *noted)
{
    for (size_t i = 0; i < g->nitems; i++) {
        const cost_item *it = &g->items[i];
        for (size_t k = 0; k < it->nparts; k++)
            note_dbsp_clusters(o, m, t, &it->parts[k], noted);
        if (it->cols == NULL)
            continue;
        int label = cost_dbsp_label(t, g, it, o->flags);
        int cluster = cost_dbsp_cluster(t->nprocs, label);
        const cost_level *l = cost_dbsp_level(m, t->nprocs, label);
        if (l == NULL || l->cluster == cluster || (*noted >> label & 1))
            continue;
        *noted |= 1UL << label;
        fprintf(out,
                "note        D-BSP level %d has clusters of up to %d process%s here: the machine's "
                "level %d (clusters of %d) stands in\n",
                label, cluster, cluster == 1 ? "" : "es", l->level, l->cluster);
    }
}

/* The page faults the trace counted inside syncs, over every kept record, and
 * in *fresh those on pages it counted as fresh (as cost_work takes them). */
static long long sync_faults(const cost_trace *t, long long *fresh)
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

/* The page faults the trace counted during the work of the records that
 * declare operations: what --work ops charges besides them (cost_work). */
static long long work_faults(const cost_trace *t)
{
    long long n = 0;
    for (size_t i = 0; i < t->start[t->nprocs]; i++)
        if (cost_rec_declares(&t->recs[i]) && t->recs[i].w_faults > 0)
            n += t->recs[i].w_faults;
    return n;
}

/* CCM's weight of an hpput byte in each pattern superstep (cost_machine_hp_ratio),
 * said when the trace has such bytes. */
static void describe_hp_ratios(const cost_machine *m, const cost_trace *t)
{
    uint64_t hp = 0;
    for (size_t i = 0; i < t->start[t->nprocs]; i++)
        hp += t->recs[i].hp_out;
    if (hp == 0)
        return;
    fprintf(out,
            "            there a byte moved by bsp_hpput counts its pattern's g_hpput / g_put:");
    for (int p = 0; p < COST_NPATTERNS; p++)
        fprintf(out, "%s %s %.3g", p > 0 ? "," : "", cost_pattern_name((cost_pattern)p),
                cost_machine_hp_ratio(m, (cost_pattern)p));
    fprintf(out, "\n");
}

static void describe_machine(const options *o, const cost_machine *m, const cost_trace *t,
                             const results *r)
{
    fprintf(out, "machine     %s: host %s, engine %s, %s, calibrated for P =", o->machine, m->host,
            m->engine, m->date);
    int known_p = 0;
    for (size_t i = 0; i < m->nprocs; i++) {
        fprintf(out, "%s %d", i > 0 ? "," : "", m->procs[i]);
        known_p |= m->procs[i] == t->nprocs;
    }
    fprintf(out, "\n");
    fprintf(out, "BSP         g = %.4g s/byte, L = %.4g s, h = %s", m->g, m->L,
            m->h_sum ? "in + out" : "max(in, out)");
    const cost_procs_fit *f = cost_machine_procs_fit(m, o->fit_procs);
    if (f != NULL)
        fprintf(out, " (the line of P = %d%s)\n", f->procs,
                f->oversubscribed ? ", oversubscribed" : "");
    else
        fprintf(out, " (the line over all P calibrated)\n");
    uint64_t once = 0;
    for (size_t i = 0; i < t->start[t->nprocs]; i++)
        once += t->recs[i].once_out;
    if (once > 0)
        fprintf(
            out,
            "            %llu bytes moved by bsp_hpput or bsp_send count %.3g bytes each (%s)\n",
            (unsigned long long)once, m->hp_ratio,
            m->g_hpput > 0 ? "bsp_hpput's g over bsp_put's, bsp_hpput in the machine file"
                           : "no bsp_hpput g in the machine file: probe again");
    if (m->gstar > 0)
        fprintf(out, "BSP*        g* = %.4g s/byte, B = %.4g bytes\n", m->gstar, m->B);
    for (size_t i = 0; i < m->nlevels; i++)
        fprintf(out, "%-12slevel %d, clusters of %d: g = %.4g s/byte, L = %.4g s\n",
                i == 0 ? "D-BSP" : "", m->levels[i].level, m->levels[i].cluster, m->levels[i].g,
                m->levels[i].L);
    if (cost_machine_levels_procs(m) > 0)
        fprintf(out, "            (the levels measured at P = %d%s)\n", m->levels_procs,
                m->levels_oversubscribed ? ", oversubscribed" : "");
    double L[COST_MAX_LEVELS];
    for (size_t i = 0; i < m->nlevels; i++)
        L[i] = m->levels[i].L;
    int bad = cost_levels_inverted(L, m->nlevels);
    if (bad > 0)
        fprintf(out,
                "warning     D-BSP levels contradict their hierarchy: level %d's L = %.3g s is "
                "%.1fx level 0's (smaller clusters synchronise no slower): probe again\n",
                bad, L[bad], L[bad] / L[0]);
    if (m->has_ccm) {
        fprintf(out, "CCM         T(P,h) = a + b*ceil(log2 P) + c*h, linear by pieces in h, for");
        for (size_t i = 0; i < m->ncoll; i++)
            fprintf(out, " %s,", m->coll[i].name);
        fprintf(out, " partition, rejoin\n");
        for (size_t k = 0; k < m->nccm_procs; k++)
            fprintf(out, "%s%d%s", k == 0 ? "            and for a group of P = " : ", ",
                    m->ccm_procs[k].procs,
                    m->ccm_procs[k].oversubscribed ? " (oversubscribed)" : "");
        if (m->nccm_procs > 0)
            fprintf(out, " the fit of that P alone (ccm.by_procs)\n");
        int patterns = 0;
        for (size_t i = 0; i < m->ncoll; i++)
            patterns |= cost_is_hrel(m->coll[i].name);
        if (o->flags & COST_CCM_PLAIN_BSP)
            fprintf(out, "            plain supersteps cost BSP's g*h + L (--ccm-plain bsp)\n");
        else if (patterns) {
            fprintf(
                out,
                "            a plain superstep in one of paper 000's patterns costs its "
                "hrel function (a dense relation the all-to-all's at its mean h), any other BSP's "
                "g*h + L (--ccm-plain patterns)\n");
            describe_hp_ratios(m, t);
        } else
            fprintf(out, "            plain supersteps cost BSP's g*h + L: no hrel.* functions in "
                         "the machine file (probe again to fit them)\n");
        const cost_rec *r = unmatched_alg(t, m);
        char name[COST_CCM_NAME_MAX];
        if (r)
            fprintf(out,
                    "            %s (line %zu): not in the machine file, charged as %s (probe "
                    "again to fit it apart)\n",
                    cost_ccm_name(r, name), r->line, r->kind);
    }
    if (o->flags & COST_USE_OPS) {
        static const char *const units[CORE_OPS_KINDS] = {"flop/s", "compares/s", "words/s"};
        fprintf(out, "work        declared operations at");
        const char *sep = " ";
        for (int k = 0; k < CORE_OPS_KINDS; k++)
            if (m->rate[k] > 0 && (k == 0 || declares_kind(t, k, 0))) {
                fprintf(out, "%s%.4g %s", sep, m->rate[k], units[k]);
                sep = ", ";
            }
        fprintf(out, " (w where none are declared)\n");
        long long wf = work_faults(t);
        if (wf > 0 && m->fault[0] > 0)
            fprintf(out, "            and %lld page faults in the work at %.4g s each (w_faults)\n",
                    wf, m->fault[0]);
        else if (wf > 0)
            fprintf(out, "            and %lld page faults in the work, not charged (--faults)\n",
                    wf);
    } else if (o->elsewhere)
        fprintf(out,
                "            (the source's CPU time stands for w; the put calls' copying "
                "%s)\n",
                o->flags & COST_WORK_WHOLE ? "kept" : "left out, scaled alike");
    else if (o->flags & COST_WORK_WHOLE)
        fprintf(out, "work        measured local time w, with the put calls' copying\n");
    else
        fprintf(out, "work        measured local time w less the put calls' copying (copy)\n");
    for (size_t i = 0; i < t->start[t->nprocs]; i++)
        if (t->recs[i].setup > 0)
            fprintf(out,
                    "tracer      %.3g s of process %d's w in superstep %lu made the trace file "
                    "(bsp_trace_begin): REAL and every model's W hold it\n",
                    t->recs[i].setup, t->recs[i].pid, t->recs[i].step);
    const cost_rec *latest = NULL;
    for (int i = 0; i < t->nprocs; i++) {
        const cost_rec *r = cost_trace_rec(t, 0, i);
        if (r != NULL && r->late > 0 && (latest == NULL || r->late > latest->late))
            latest = r;
    }
    if (latest != NULL)
        fprintf(out,
                "start       process %d began its first superstep %.3g s after the earliest "
                "(late): REAL and every model's first W hold it\n",
                latest->pid, latest->late);
    long long fresh, faults = sync_faults(t, &fresh);
    if (faults > 0 && m->fault[0] > 0 && m->fault[1] != m->fault[0])
        fprintf(out,
                "faults      %lld page faults inside syncs, %lld on fresh pages charged %.4g s "
                "each,\n            the others %.4g s each, delaying the process that took them "
                "(--faults %s)\n",
                faults, fresh, m->fault[0], m->fault[1], fault_names[o->faults]);
    else if (faults > 0 && m->fault[0] > 0)
        fprintf(out,
                "faults      %lld page faults inside syncs, each charged %.4g s to the process "
                "that took it (--faults %s)\n",
                faults, m->fault[0], fault_names[o->faults]);
    else if (faults > 0 && m->fault_touch[0] > 0 && m->fault_touch[1] > 0)
        fprintf(out,
                "faults      %lld page faults inside syncs, not charged: %.3g s as first writes to "
                "fresh pages,\n            %.3g s if to pages read before (--faults, "
                "docs/models.md)\n",
                faults, (double)faults * m->fault_touch[0], (double)faults * m->fault_touch[1]);
    else if (faults > 0)
        fprintf(out, "faults      %lld page faults inside syncs, not charged (docs/models.md)\n",
                faults);
    if (!known_p && t->nprocs > 1)
        fprintf(out, "note        the machine was not calibrated for %d processes\n", t->nprocs);
    else if (t->nprocs == 1)
        fprintf(out,
                "note        one process: no h-relation; every superstep costs the line's L\n");
    if (strcmp(m->engine, t->engine) != 0)
        fprintf(out, "note        the trace comes from engine %s, the machine from %s\n", t->engine,
                m->engine);
    if (o->all && !r->have[MODEL_BSPSTAR])
        fprintf(out, "note        BSP* left out: the machine file has no 'bspstar' parameters\n");
    for (int k = 0; k < NMODELS; k++)
        if (r->have[k] && r->unavailable[k][0])
            fprintf(out, "note        %s n/a: %s\n", model_labels[k], r->unavailable[k]);
    unsigned long noted = 0;
    if (available(r, MODEL_DBSP))
        note_dbsp_clusters(o, m, t, t->root, &noted);
    if (available(r, MODEL_DBSP) && (o->flags & COST_DBSP_GROUP))
        fprintf(out,
                "note        D-BSP labels: the smallest cluster holding each superstep's traffic "
                "and group\n");
    if (t->self_unknown)
        fprintf(out,
                "note        the trace does not say which traffic a process sent to itself (an "
                "older polybsp wrote it), so h includes it: trace the run again to leave it out\n");
    unsigned long ndiv = 0;
    int deepest = 0;
    count_divisions(t->root, 0, &ndiv, &deepest);
    if (ndiv > 0 && (r->have[MODEL_BSP] || r->have[MODEL_BSPSTAR] || r->have[MODEL_EBSP]))
        fprintf(out, "note        the trace has divisions: BSP, BSP* and EBSP take column k as one "
                     "superstep of all processes, D-BSP and CCM follow the groups\n");
}

static void print_cell(double v, int is_error)
{
    if (isnan(v))
        fprintf(out, " %12s", "-");
    else if (is_error)
        fprintf(out, " %12.2f", v);
    else
        fprintf(out, " %12.4e", v);
}

/* One block of columns [from, to) where column nsteps is the total. */
static void print_block(const cost_trace *t, const results *r, size_t from, size_t to)
{
    size_t n = t->nsteps;
    fprintf(out, "%-10s", "superstep");
    for (size_t c = from; c < to; c++) {
        if (c == n)
            fprintf(out, " %12s", "total");
        else
            fprintf(out, " %12lu", t->first_step + c);
    }
    fprintf(out, "\n");
    int has_real = !isnan(r->real_total);
    if (has_real) {
        fprintf(out, "%-10s", "REAL");
        for (size_t c = from; c < to; c++)
            print_cell(c == n ? r->real_total : r->real[c], 0);
        fprintf(out, "\n");
    }
    for (int k = 0; k < NMODELS; k++) {
        if (!r->have[k])
            continue;
        if (!available(r, k)) {
            for (int row = 0; row < 1 + has_real; row++) {
                fprintf(out, "%-10s", row == 0 ? model_labels[k] : "ERROR");
                for (size_t c = from; c < to; c++)
                    fprintf(out, " %12s", "n/a");
                fprintf(out, "\n");
            }
            continue;
        }
        fprintf(out, "%-10s", model_labels[k]);
        for (size_t c = from; c < to; c++)
            print_cell(c == n ? r->model_total[k] : r->model[k][c], 0);
        fprintf(out, "\n");
        if (!has_real)
            continue;
        fprintf(out, "%-10s", "ERROR");
        for (size_t c = from; c < to; c++)
            print_cell(c == n ? cost_error_percent(r->real_total, r->model_total[k])
                              : cost_error_percent(r->real[c], r->model[k][c]),
                       1);
        fprintf(out, "\n");
    }
}

static void print_table(const options *o, const cost_trace *t, const cost_machine *m,
                        const results *r)
{
    describe_run(t);
    describe_source(o, m);
    describe_machine(o, m, t, r);
    if (isnan(r->real_total))
        fprintf(out, "\ntimes in seconds; no REAL: give --against TRACE2, a run on the target, "
                     "for the errors\n\n");
    else
        fprintf(out, "\ntimes in seconds; ERROR = 100*(REAL-MODEL)/REAL percent%s\n\n",
                o->against ? " (REAL: the --against run)" : "");
    size_t first = o->per_step ? 0 : t->nsteps, end = t->nsteps + 1;
    for (size_t c = first; c < end; c += COLUMNS_PER_BLOCK) {
        if (c > first)
            fprintf(out, "\n");
        print_block(t, r, c, c + COLUMNS_PER_BLOCK < end ? c + COLUMNS_PER_BLOCK : end);
    }
}

/* ---- csv and json ---- */

/* CSV and JSON are for programs: each number is the shortest text that reads
 * back as the same double, and where there is no number (ERROR when REAL is 0)
 * CSV has an empty field and JSON null. A model that is n/a says so in CSV, so
 * that it cannot be mistaken for a missing ERROR; JSON has null and the reason
 * in "unavailable". */
static void csv_num(double v)
{
    if (!isnan(v))
        cost_jput_num(out, v);
}

static double column_real(const results *r, size_t c, size_t n)
{
    return c == n ? r->real_total : r->real[c];
}

static double column_model(const results *r, int k, size_t c, size_t n)
{
    return c == n ? r->model_total[k] : r->model[k][c];
}

static void print_csv_row(const results *r, size_t c, size_t n)
{
    fprintf(out, ",");
    csv_num(column_real(r, c, n));
    for (int k = 0; k < NMODELS; k++) {
        if (!r->have[k])
            continue;
        if (!available(r, k)) {
            fprintf(out, ",n/a,n/a");
            continue;
        }
        double model = column_model(r, k, c, n);
        fprintf(out, ",");
        csv_num(model);
        fprintf(out, ",");
        csv_num(cost_error_percent(column_real(r, c, n), model));
    }
    fprintf(out, "\n");
}

static void print_csv(const options *o, const cost_trace *t, const results *r)
{
    fprintf(out, "step,real");
    for (int k = 0; k < NMODELS; k++)
        if (r->have[k])
            fprintf(out, ",%s,%s_error", cost_model_name(model_kinds[k]),
                    cost_model_name(model_kinds[k]));
    fprintf(out, "\n");
    for (size_t c = 0; o->per_step && c < t->nsteps; c++) {
        fprintf(out, "%lu", t->first_step + c);
        print_csv_row(r, c, t->nsteps);
    }
    fprintf(out, "total");
    print_csv_row(r, t->nsteps, t->nsteps);
}

/* A string member; the machine file's path comes from the command line and may
 * be any bytes, so it becomes null when it is not UTF-8 (the other strings were
 * read by jansson, which checked them). */
static void json_str(const char *key, const char *value, const char *after)
{
    fprintf(out, "  \"%s\": ", key);
    if (value == NULL || cost_jput_str(out, value, (size_t)-1) < 0)
        fprintf(out, "null");
    fprintf(out, "%s\n", after);
}

/* The members of one column (a step or the total) after an opening brace. */
static void json_column(const results *r, size_t c, size_t n)
{
    fprintf(out, "\"real\": ");
    cost_jput_num(out, column_real(r, c, n));
    for (int k = 0; k < NMODELS; k++) {
        if (!r->have[k])
            continue;
        const char *name = cost_model_name(model_kinds[k]);
        double model = available(r, k) ? column_model(r, k, c, n) : NAN;
        fprintf(out, ", \"%s\": ", name);
        cost_jput_num(out, model);
        fprintf(out, ", \"%s_error\": ", name);
        cost_jput_num(out, cost_error_percent(column_real(r, c, n), model));
    }
    fprintf(out, "}");
}

static void print_json(const options *o, const cost_trace *t, const cost_machine *m,
                       const results *r)
{
    fprintf(out, "{\n");
    json_str("program", t->program, ",");
    fprintf(out, "  \"nprocs\": %d,\n", t->nprocs);
    json_str("engine", t->engine, ",");
    fprintf(out, "  \"first_step\": %lu,\n  \"nsteps\": %lu,\n  \"dropped\": %lu,\n", t->first_step,
            t->nsteps, t->dropped);
    fprintf(out, "  \"complete\": %s,\n", t->complete ? "true" : "false");
    json_str("reason", t->reason[0] != '\0' ? t->reason : NULL, ",");
    json_str("machine", o->machine, ",");
    json_str("host", m->host, ",");
    fprintf(out, "  \"elsewhere\": %s,\n", o->elsewhere ? "true" : "false");
    if (o->elsewhere) {
        json_str("source_host", o->source_host, ",");
        json_str("source_engine", o->source_engine, ",");
        fprintf(out, "  \"work_scale\": %.17g,\n", o->source_rate / cost_machine_trace_rate(m));
    }
    json_str("against", o->against, ",");
    fprintf(out, "  \"work\": \"%s\",\n",
            o->flags & COST_USE_OPS      ? "ops"
            : o->flags & COST_WORK_WHOLE ? "whole"
                                         : "measured");
    long long fresh, faults = sync_faults(t, &fresh);
    fprintf(out, "  \"sync_faults\": %lld,\n  \"sync_faults_fresh\": %lld,\n", faults, fresh);
    fprintf(out, "  \"work_faults\": %lld,\n", o->flags & COST_USE_OPS ? work_faults(t) : 0);
    fprintf(out, "  \"faults\": \"%s\",\n  \"fault_charge\": ", fault_names[o->faults]);
    if (m->fault[0] > 0)
        fprintf(out, "{\"fresh\": %.17g, \"other\": %.17g},\n", m->fault[0], m->fault[1]);
    else
        fprintf(out, "null,\n");
    fprintf(out, "  \"fit_procs\": ");
    cost_jput_pos(out, o->fit_procs);
    fprintf(out, ",\n  \"dbsp_procs\": ");
    cost_jput_pos(out, cost_machine_levels_procs(m));
    fprintf(out, ",\n");
    fprintf(out, "  \"models\": [");
    const char *sep = "";
    for (int k = 0; k < NMODELS; k++) {
        if (r->have[k]) {
            fprintf(out, "%s\"%s\"", sep, cost_model_name(model_kinds[k]));
            sep = ", ";
        }
    }
    fprintf(out, "],\n  \"unavailable\": {");
    sep = "";
    for (int k = 0; k < NMODELS; k++) {
        if (r->have[k] && r->unavailable[k][0]) {
            fprintf(out, "%s\"%s\": ", sep, cost_model_name(model_kinds[k]));
            if (cost_jput_str(out, r->unavailable[k], sizeof r->unavailable[k]) < 0)
                fprintf(out, "null");
            sep = ", ";
        }
    }
    fprintf(out, "},\n  \"total\": {");
    json_column(r, t->nsteps, t->nsteps);
    if (o->per_step) {
        fprintf(out, ",\n  \"steps\": [");
        for (size_t c = 0; c < t->nsteps; c++) {
            fprintf(out, "%s\n    {\"step\": %lu, ", c > 0 ? "," : "", t->first_step + c);
            json_column(r, c, t->nsteps);
        }
        fprintf(out, "\n  ]");
    }
    fprintf(out, "\n}\n");
}

/* ---- HTML (report_html.c draws it) ---- */

/* The raw samples of --probe, which must be those of the machine file's own
 * run: drawn around another run's lines they would mislead. 0, or the status
 * after one line. */
static int read_probe_raw(const options *o, const cost_machine *m, probe_raw *raw)
{
    char err[4096 + 512];
    if (probe_raw_read(o->probe, raw, err, sizeof err) != 0)
        return tool_usage_error("%s: %s", command, err);
    if (strcmp(raw->host, m->host) == 0 && strcmp(raw->date, m->date) == 0)
        return 0;
    int rc =
        tool_usage_error("%s: %s: not the samples of %s's probe run (written on %s at %s, "
                         "the machine file on %s at %s)",
                         command, o->probe, o->machine, raw->host, raw->date, m->host, m->date);
    probe_raw_free(raw);
    return rc;
}

static void print_html(const options *o, const cost_trace *t, const cost_machine *m,
                       const results *r, const report_eta *eta, const probe_raw *raw)
{
    report_input in = {.trace = t,
                       .eta = eta,
                       .raw = raw,
                       .machine = m,
                       .trace_name = o->trace,
                       .machine_name = o->machine,
                       .fit_procs = o->fit_procs,
                       .work_ops = (o->flags & COST_USE_OPS) != 0,
                       .real = r->real,
                       .real_total = r->real_total};
    for (int k = 0; k < NMODELS; k++) {
        if (!r->have[k])
            continue;
        int i = in.nmodels++;
        in.label[i] = model_labels[k];
        in.model[i] = available(r, k) ? r->model[k] : NULL;
        in.model_total[i] = r->model_total[k];
        in.unavailable[i] = r->unavailable[k];
    }
    report_html_write(out, &in);
}

/* A trace from another machine (or --against, which says the target is
 * another) has its work scaled to the target (cost_transfer.h); --against's
 * run must be of the same program shape: same P, same supersteps. 0, or the
 * status after one line. */
static int from_elsewhere(options *o, cost_trace *t, const cost_machine *m, cost_trace *against)
{
    char err[4096 + 512];
    if (o->explain && o->against != NULL)
        return tool_usage_error("%s: --explain and --against exclude each other (--against "
                                "predicts TRACE for another machine)",
                                command);
    o->elsewhere = o->against != NULL || (!o->explain && cost_trace_elsewhere(t, m));
    if (!o->elsewhere)
        return 0;
    o->source_rate = t->rate;
    snprintf(o->source_host, sizeof o->source_host, "%s", t->host[0] ? t->host : "?");
    snprintf(o->source_engine, sizeof o->source_engine, "%s", t->engine);
    if (cost_trace_transfer(t, o->trace, cost_machine_trace_rate(m), o->machine, err, sizeof err) <
        0)
        return tool_usage_error("%s: %s", command, err);
    if (o->against == NULL)
        return 0;
    if (cost_trace_read(o->against, against, err, sizeof err) < 0)
        return tool_usage_error("%s: %s", command, err);
    const char *what = NULL;
    if (against->nprocs != t->nprocs)
        what = "P";
    else if (against->nsteps != t->nsteps)
        what = "number of supersteps";
    if (what != NULL) {
        int rc = tool_usage_error(
            "%s: %s is not a run of the same program shape as %s: its %s is %lu, not %lu", command,
            o->against, o->trace, what,
            what[0] == 'P' ? (unsigned long)against->nprocs : against->nsteps,
            what[0] == 'P' ? (unsigned long)t->nprocs : t->nsteps);
        cost_trace_free(against);
        return rc;
    }
    return 0;
}

int predict_main(int argc, char **argv, const char *as)
{
    command = as;
    int report = strcmp(as, "report") == 0;
    options o = {.format = report ? FORMAT_HTML : FORMAT_TABLE,
                 .output = report ? "polybsp-report.html" : NULL,
                 .faults = FAULTS_KIND};
    int rc = parse_args(argc, argv, &o);
    if (rc != 0)
        return rc < 0 ? 0 : rc;

    char err[4096 + 512];
    cost_machine m;
    cost_trace t;
    if (cost_machine_read(o.machine, &m, err, sizeof err) < 0)
        return tool_usage_error("%s: %s", command, err);
    /* "-" reads the trace from standard input, for pipelines. */
    int from_stdin = strcmp(o.trace, "-") == 0;
    if (from_stdin)
        o.trace = "<stdin>";
    if ((from_stdin ? cost_trace_read_stream(stdin, o.trace, &t, err, sizeof err)
                    : cost_trace_read(o.trace, &t, err, sizeof err)) < 0)
        return tool_usage_error("%s: %s", command, err);

    cost_trace against_run, *against = NULL;
    if ((rc = from_elsewhere(&o, &t, &m, &against_run)) != 0) {
        cost_trace_free(&t);
        return rc;
    }
    if (o.against)
        against = &against_run;
    static report_eta eta;
    if (o.portability && report_eta_read(o.portability, &eta, err, sizeof err) != 0) {
        cost_trace_free(&t);
        if (against)
            cost_trace_free(against);
        return tool_usage_error("%s: %s", command, err);
    }
    probe_raw raw = {0};
    if (o.probe && (rc = read_probe_raw(&o, &m, &raw)) != 0) {
        cost_trace_free(&t);
        return rc;
    }
    results r;
    memset(&r, 0, sizeof r);
    rc = choose_procs(&o, &t, &m);
    if (rc == 0)
        rc = check_inputs(&o, &t, &m, &r);
    if (rc == 0)
        refuse_oversubscribed(&o, &t, &m, &r);
    /* Unasked, without the costs (an older or simulated probe's file) the faults
     * are reported only. The charge per fault on a page counted fresh [0] and
     * per other fault [1]: */
    if (!o.faults_asked && !(m.fault_touch[0] > 0 && m.fault_touch[1] > 0))
        o.faults = FAULTS_NONE;
    for (int k = 0; k < 2; k++)
        m.fault[k] = o.faults == FAULTS_NONE ? 0 : m.fault_touch[fault_cost[o.faults][k]];
    if (rc == 0 && evaluate(&o, &t, against, &m, &r) < 0) {
        fprintf(stderr, "polybsp: %s: out of memory\n", command);
        rc = 1;
    }
    out = stdout;
    tool_out file; /* -o: replaced whole (tool.h) */
    if (rc == 0 && o.output != NULL && (rc = tool_out_open(&file, command, o.output)) == 0)
        out = file.f;
    if (rc == 0) {
        if (o.format == FORMAT_TABLE)
            print_table(&o, &t, &m, &r);
        else if (o.format == FORMAT_CSV)
            print_csv(&o, &t, &r);
        else if (o.format == FORMAT_JSON)
            print_json(&o, &t, &m, &r);
        else
            print_html(&o, &t, &m, &r, o.portability ? &eta : NULL, o.probe ? &raw : NULL);
        if (out != stdout)
            rc = tool_out_close(&file);
        if (rc == 0 && report)
            printf("polybsp report: %s\n", o.output);
    }
    free(r.real);
    for (int k = 0; k < NMODELS; k++)
        free(r.model[k]);
    cost_trace_free(&t);
    if (against)
        cost_trace_free(against);
    probe_raw_free(&raw);
    return rc;
}

int cmd_predict(int argc, char **argv) { return predict_main(argc, argv, "predict"); }
