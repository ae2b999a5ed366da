/* predict.c — `polybsp predict --machine FILE TRACE`: a traced run's real time
 * against what the cost models predict for it on a calibrated machine.
 *
 * Contract: reads the options, the machine file and the trace (docs/formats.md),
 * evaluates the chosen models (cost_eval_run, docs/models.md) and prints REAL,
 * each MODEL and its ERROR = 100·(REAL − MODEL)/REAL, as the total or per
 * superstep, in the format asked for (predict_format.h: a table laid out like
 * table 14 of paper 000, CSV, JSON or report's HTML). Status 0; bad usage or a
 * bad input file: one line on stderr (via tool_usage_error) and status 2.
 */
#include "predict.h"
#include "predict_format.h"
#include "tool.h"

#include "cost/cost_eval.h"

#include <stdio.h>
#include <string.h>

/* Two pieces (tool.h): one literal would be at the 4095 bytes C compilers
 * must take, with no room for another option. */
const char *const cmd_predict_help[] = {
    "usage: polybsp predict --machine FILE [--model MODEL]... [--per-step]\n"
    "                       [--format table|csv|json|html] [-o FILE]\n"
    "                       [--work measured|whole|ops] [--dbsp-label traffic|group]\n"
    "                       [--faults kind|fresh|after-read|none]\n"
    "                       [--ccm-plain bsp|patterns] [--against TRACE2 | --explain]\n"
    "                       [--scale rate|clock] TRACE [TRACE]...\n"
    "\n"
    "Compares the running time recorded in TRACE with the time the cost models\n"
    "predict from its supersteps and the machine parameters in FILE (written by\n"
    "`polybsp probe`). For each model it prints MODEL and ERROR = 100*(REAL-MODEL)/REAL\n"
    "percent, as in table 14 of Rodriguez et al., \"h-relation models\".\n"
    "TRACE is a trace file written by a traced run; '-' reads standard input.\n"
    "Several TRACEs are repeats of one run, predicted for another machine from\n"
    "their medians: each process's W in each superstep is the median of theirs.\n"
    "\n"
    "A TRACE from another host, platform or engine than FILE's is predicted for\n"
    "FILE's machine: W is each superstep's CPU time x r(TRACE) / r(FILE), and\n"
    "there is no REAL or ERROR unless --against gives a run on the target.\n"
    "\n",
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
    "  --dbsp-label LABEL group: a superstep's D-BSP cluster holds the group that\n"
    "                     syncs and its traffic (default); traffic: its traffic\n"
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
    "  --scale SCALE      a TRACE from elsewhere: W = its CPU time x the ratio of\n"
    "                     rate: the DAXPY rates (default; the papers' r) or\n"
    "                     clock: the cores' clocks (a chain of dependent\n"
    "                     multiply-adds; the DAXPY reads two modes 2x apart)\n"
    "  -h, --help         show this help\n"
    "\n"
    "Times are in seconds. docs/models.md explains the formulas and the tables;\n"
    "docs/formats.md the files. Bad usage or input exits with status 2.\n",
    NULL};

typedef enum { FORMAT_TABLE, FORMAT_CSV, FORMAT_JSON, FORMAT_HTML, NFORMATS } out_format;

/* "predict", or "report" when report.c runs this code (predict.h): its name
 * starts every message. */
static const char *command = "predict";

/* More traces than this are no repeats anybody takes by hand. */
enum { MAX_REPEATS = 64 };

typedef struct options {
    cost_eval_opts eval;              /* the files, the models and how they charge */
    const char *repeats[MAX_REPEATS]; /* the TRACEs after the first (eval.repeats) */
    int per_step;
    out_format format;
    const char *output;      /* -o FILE, or NULL: standard output */
    const char *portability; /* report --portability FILE */
    const char *probe;       /* report --probe FILE: the probe's raw samples */
} options;

static const char *const model_choices[] = {"bsp", "bspstar", "ebsp", "dbsp", "ccm", "all"};
/* The choices' names, by their enums: no order to keep in step. */
static const char *const format_names[NFORMATS] = {
    [FORMAT_TABLE] = "table", [FORMAT_CSV] = "csv", [FORMAT_JSON] = "json", [FORMAT_HTML] = "html"};
enum { WORK_MEASURED, WORK_WHOLE, WORK_OPS, NWORKS };
static const char *const work_names[NWORKS] = {
    [WORK_MEASURED] = "measured", [WORK_WHOLE] = "whole", [WORK_OPS] = "ops"};
enum { LABEL_TRAFFIC, LABEL_GROUP, NLABELS };
static const char *const label_names[NLABELS] = {
    [LABEL_TRAFFIC] = "traffic", [LABEL_GROUP] = "group"};

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
    OPT_SCALE,
    NCOMMON,
    OPT_FORMAT = NCOMMON, /* predict */
    NPREDICT,
    OPT_PORTABILITY = NCOMMON, /* report */
    OPT_PROBE,
    NREPORT
};
/* Both tables hold the common options at the same indices. */
#define COMMON_OPTS                                                                                \
    [OPT_OUTPUT] = {"-o|--output", true}, [OPT_PER_STEP] = {"--per-step", false},                  \
    [OPT_MACHINE] = {"--machine", true}, [OPT_MODEL] = {"--model", true},                          \
    [OPT_WORK] = {"--work", true}, [OPT_FAULTS] = {"--faults", true},                              \
    [OPT_DBSP_LABEL] = {"--dbsp-label", true}, [OPT_CCM_PLAIN] = {"--ccm-plain", true},            \
    [OPT_AGAINST] = {"--against", true}, [OPT_EXPLAIN] = {"--explain", false},                     \
    [OPT_OVERSUBSCRIBED_FITS] = {"--oversubscribed-fits", false}, [OPT_SCALE] = {"--scale", true}
static const tool_opt predict_opts[NPREDICT] = {COMMON_OPTS, [OPT_FORMAT] = {"--format", true}};
static const tool_opt report_opts[NREPORT] = {
    COMMON_OPTS, [OPT_PORTABILITY] = {"--portability", true}, [OPT_PROBE] = {"--probe", true}};

typedef struct parsing {
    options *o;
    int chose; /* a --model was given */
    int report;
} parsing;

static int on_option(void *ctx, int opt, const char *v)
{
    parsing *ps = ctx;
    options *po = ps->o;
    cost_eval_opts *o = &po->eval;
    int k;
    if (opt == TOOL_ARG) {
        if (o->trace == NULL) {
            o->trace = v;
            return 0;
        }
        if (ps->report) /* one run's page */
            return tool_usage_error("%s: unexpected argument '%s' (expected one TRACE)", command,
                                    v);
        if (o->nrepeats == MAX_REPEATS)
            return tool_usage_error("%s: more than %d TRACEs", command, MAX_REPEATS + 1);
        po->repeats[o->nrepeats++] = v;
        o->repeats = po->repeats;
        return 0;
    }
    if (opt >= NCOMMON && ps->report) {
        if (opt == OPT_PORTABILITY)
            po->portability = v;
        else
            po->probe = v;
        return 0;
    }
    switch (opt) {
    case OPT_OUTPUT: po->output = v; return 0;
    case OPT_PER_STEP: po->per_step = 1; return 0;
    case OPT_MACHINE: o->machine = v; return 0;
    case OPT_MODEL:
        if ((k = tool_choice(command, "model", v, model_choices, COST_EVAL_NMODELS + 1)) < 0)
            return TOOL_EXIT_USAGE;
        ps->chose = 1;
        if (k == COST_EVAL_NMODELS)
            o->all = 1;
        else
            o->want[k] = 1;
        return 0;
    case OPT_WORK:
        if ((k = tool_choice(command, "work", v, work_names, NWORKS)) < 0)
            return TOOL_EXIT_USAGE;
        o->flags &= ~(COST_USE_OPS | COST_WORK_WHOLE);
        o->flags |= k == WORK_OPS ? COST_USE_OPS : k == WORK_WHOLE ? COST_WORK_WHOLE : 0;
        return 0;
    case OPT_FAULTS:
        if ((k = tool_choice(command, "faults", v, cost_fault_names, COST_NFAULTS)) < 0)
            return TOOL_EXIT_USAGE;
        o->faults = (cost_fault_charge)k;
        o->faults_asked = 1;
        return 0;
    case OPT_DBSP_LABEL:
        if ((k = tool_choice(command, "D-BSP label", v, label_names, NLABELS)) < 0)
            return TOOL_EXIT_USAGE;
        if (k == LABEL_TRAFFIC)
            o->flags |= COST_DBSP_TRAFFIC;
        return 0;
    case OPT_CCM_PLAIN: return tool_ccm_plain(command, v, &o->flags);
    case OPT_AGAINST: o->against = v; return 0;
    case OPT_EXPLAIN: o->explain = 1; return 0;
    case OPT_OVERSUBSCRIBED_FITS: o->oversubscribed_fits = 1; return 0;
    case OPT_SCALE:
        if ((k = tool_choice(command, "scale", v, cost_scale_names, COST_NSCALES)) < 0)
            return TOOL_EXIT_USAGE;
        o->scale = (cost_scale)k;
        return 0;
    default: /* OPT_FORMAT */
        if ((k = tool_choice(command, "format", v, format_names, NFORMATS)) < 0)
            return TOOL_EXIT_USAGE;
        po->format = (out_format)k;
        return 0;
    }
}

/* Returns -1 after printing help (status 0), 0 to go on, or 2 for bad usage. */
static int parse_args(int argc, char **argv, options *po)
{
    cost_eval_opts *o = &po->eval;
    parsing ps = {.o = po, .report = strcmp(command, "report") == 0};
    int rc = ps.report ? tool_parse_args(command, cmd_report_help, argc, argv, report_opts, NREPORT,
                                         on_option, &ps, NULL)
                       : tool_parse_args(command, cmd_predict_help, argc, argv, predict_opts,
                                         NPREDICT, on_option, &ps, NULL);
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
    int rc = tool_usage_error("%s: %s: not the samples of %s's probe run (written on %s at %s, "
                              "the machine file on %s at %s)",
                              command, o->probe, o->eval.machine, raw->host, raw->date, m->host,
                              m->date);
    probe_raw_free(raw);
    return rc;
}

/* Writes the evaluation in the format asked for, to -o FILE (replaced whole,
 * tool.h) or standard output; 0, or the status after one line. */
static int write_output(const options *o, const predict_view *v, const report_eta *eta,
                        const probe_raw *raw)
{
    FILE *out = stdout;
    tool_out file;
    int rc;
    if (o->output != NULL) {
        if ((rc = tool_out_open(&file, command, o->output)) != 0)
            return rc;
        out = file.f;
    }
    if (o->format == FORMAT_TABLE)
        predict_table(out, v);
    else if (o->format == FORMAT_CSV)
        predict_csv(out, v);
    else if (o->format == FORMAT_JSON)
        predict_json(out, v);
    else
        predict_html(out, v, eta, raw);
    return out != stdout ? tool_out_close(&file) : 0;
}

int predict_main(int argc, char **argv, const char *as)
{
    command = as;
    int report = strcmp(as, "report") == 0;
    options o = {.format = report ? FORMAT_HTML : FORMAT_TABLE,
                 .output = report ? "polybsp-report.html" : NULL,
                 .eval.faults = COST_FAULTS_KIND};
    int rc = parse_args(argc, argv, &o);
    if (rc != 0)
        return rc < 0 ? 0 : rc;

    cost_eval_opts *eo = &o.eval;
    char err[4096 + 512];
    cost_machine m;
    cost_trace t;
    if (cost_machine_read(eo->machine, &m, err, sizeof err) < 0)
        return tool_usage_error("%s: %s", command, err);
    /* "-" reads the trace from standard input, for pipelines. */
    int from_stdin = strcmp(eo->trace, "-") == 0;
    if (from_stdin)
        eo->trace = "<stdin>";
    if ((from_stdin ? cost_trace_read_stream(stdin, eo->trace, &t, err, sizeof err)
                    : cost_trace_read(eo->trace, &t, err, sizeof err)) < 0)
        return tool_usage_error("%s: %s", command, err);
    if (eo->explain && eo->against != NULL)
        rc = tool_usage_error("%s: --explain and --against exclude each other (--against "
                              "predicts TRACE for another machine)",
                              command);

    static report_eta eta;
    probe_raw raw = {0};
    if (rc == 0 && o.portability && report_eta_read(o.portability, &eta, err, sizeof err) != 0)
        rc = tool_usage_error("%s: %s", command, err);
    if (rc == 0 && o.probe)
        rc = read_probe_raw(&o, &m, &raw);
    cost_eval r = {0};
    int evaluated = rc == 0 ? cost_eval_run(eo, &t, &m, &r, err, sizeof err) : 0;
    if (evaluated == -1)
        rc = tool_usage_error("%s: %s", command, err);
    else if (evaluated < 0) {
        fprintf(stderr, "polybsp: %s: %s\n", command, err);
        rc = 1;
    }
    predict_view view = {.o = eo, .t = &t, .m = &m, .r = &r, .per_step = o.per_step};
    if (rc == 0)
        rc = write_output(&o, &view, o.portability ? &eta : NULL, o.probe ? &raw : NULL);
    if (rc == 0 && report)
        printf("polybsp report: %s\n", o.output);
    cost_eval_free(&r);
    cost_trace_free(&t);
    probe_raw_free(&raw);
    return rc;
}

int cmd_predict(int argc, char **argv) { return predict_main(argc, argv, "predict"); }
