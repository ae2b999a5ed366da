/* portability.c — `polybsp portability`: which cost model to trust on this
 * machine, measured as paper 002 (section 2) defines it.
 *
 * Contract: runs the suite of portability_suite.h (families of ρ-equivalent
 * programs) on P processes of this program's engine. Each program runs
 * --repeats times (suite_run), `loops` executions traced each time; every trace
 * gives REAL and each model's prediction on the machine file as predict makes
 * them (portability_eval: the line of P, a machine file without it refused
 * before any runs, faults charged), and the medians over the repeats are the
 * program's T' and T. cost_portability_estimate then gives per model η̂ (within families
 * and formula (1)), δ̂, the fastest-variant picks and the worst loss. Output:
 * a table (or JSON) on stdout, JSON to -o FILE, progress on stderr (progress.h;
 * a line per program when not a terminal, none with --quiet)
 * on stderr. Without --machine, a short probe at P calibrates first (said on
 * stderr). Bad usage or an unreadable machine file: one line, status 2; a run
 * that fails: one line, status 1. Traces (and the probe's machine file) go to a
 * temporary directory, removed at the end. The same file makes
 * polybsp-portability-mpi (portability_mpi.c), this command on the MPI engine,
 * which `--engine mpi` starts under mpiexec on P ranks once the options are
 * checked; there rank 0 runs the command and hands each program to the others.
 */
#ifndef _DEFAULT_SOURCE /* smpicc defines it already */
#define _DEFAULT_SOURCE /* mkdtemp */
#endif
#include "progress.h"
#include "tool.h"

#include "core/core_file.h"
#include "core/core_stop.h"
#include "cost/cost_eval.h"
#include "cost/cost_json.h"
#include "cost/cost_machine.h"
#include "cost/cost_model.h"
#include "cost/cost_portability.h"
#include "cost/cost_trace.h"
#include "portability_held.h"
#include "portability_models.h"
#include "portability_suite.h"
#include "probe/probe.h"
#include "probe/probe_measure.h"

#include <bsp.h>
#include <polybsp.h>

#include <errno.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

const char *const cmd_portability_help[] = {
    "usage: polybsp portability [--machine FILE] [-p P] [--repeats R] [--quick]\n"
    "                           [--quiet] [--engine ENGINE] [--format table|json]\n"
    "                           [-o FILE] [--platform P] [--hostfile F]\n"
    "                           [--ccm-plain bsp|patterns] [--held-out TRACE]...\n"
    "                           [--held-out-only]\n"
    "\n"
    "Which cost model to trust on this machine. Runs a built-in suite of families of\n"
    "equivalent programs (the same problem solved in different ways: FFT divide and\n"
    "conquer or four-step; broadcast DIRECT, BINOMIAL, TWOPHASE or ROOTP; each of the\n"
    "five h-relation patterns in one superstep, with bsp_hpput, in 8 pieces or in two\n"
    "supersteps; the inner product's sum all-to-all, gathered and broadcast, or with\n"
    "bsp_allreduce; an unbalanced relation direct or in two balanced phases), traces\n"
    "each program, predicts it with every model and compares with its real time.\n"
    "Per model it prints paper 002's inverse effectiveness eta (formula 1, and\n"
    "within families) with the pair of programs that attains it, the distance\n"
    "delta, how often the model picked the fastest program of a family and how much\n"
    "slower its choice can be, and names the model to trust: the smallest delta over\n"
    "the programs proper (FFT, inner product, irregular relation), which the probe,\n"
    "whose times every model is fitted on, does not run.\n"
    "\n"
    "options:\n"
    "  --machine FILE     the machine file of `polybsp probe` (default: a short probe\n"
    "                     at P runs first)\n"
    "  -p, --procs P      processes, a power of two from 2 to 64 (default 2)\n"
    "  --repeats R        runs of every program, medians taken (default 11, at most\n"
    "                     1000)\n"
    "  --quick            small sizes, 3 repeats, a tiny probe: for tests\n"
    "  -q, --quiet        no progress on stderr (by default an updating line on a\n"
    "                     terminal, a line per program otherwise)\n"
    "  --engine ENGINE    threads (the default), or mpi when built with MPI: runs\n"
    "                     polybsp-portability-mpi under mpiexec on P ranks; needs\n"
    "                     --machine (from `polybsp probe --engine mpi`); or smpi\n"
    "                     when built with SimGrid: simulated ranks of --platform,\n"
    "                     with --machine from `polybsp probe --engine smpi`\n"
    "  --platform P       smpi: a SimGrid platform file or a shipped platform's name\n"
    "  --hostfile F       smpi: the host of each rank, one a line\n"
    "  --ccm-plain PLAIN  patterns (default) or bsp: how CCM charges a superstep\n"
    "                     that is no collective, as for `polybsp predict`\n"
    "  --format FORMAT    table (default) or json on stdout\n"
    "  -o, --output FILE  also write the JSON to FILE\n"
    "  --held-out TRACE   a trace of a program no model rule was chosen on, run on\n"
    "                     the machine of --machine (repeatable: traces of one program\n"
    "                     at one P are its repeats); their eta and delta are shown\n"
    "                     apart from the suite's\n"
    "  --held-out-only    only the --held-out traces: the suite does not run\n"
    "  -h, --help         show this help\n"
    "\n"
    "docs/models.md (\"Which model to trust\") explains the measures; docs/tool.md the\n"
    "output. Bad usage exits with status 2.\n",
    NULL};

enum { MAX_REPEATS = PORTABILITY_MAX_REPEATS, MAX_LOOPS = 1000, PILOTS = 5 };
/* How long a traced run should last (--quick: a tenth): a program of
 * microseconds timed once would measure how fast the threads wake rather than
 * the program, so a family's programs share a loop count that makes the first
 * one last about this long. */
#define TARGET_SECONDS 1e-3

enum { NMODELS = PORTABILITY_NMODELS };

/* The suite and what was measured and estimated of it. */
typedef struct results {
    suite set;
    int procs;
    int fit_procs; /* the P of the machine's BSP line used (its by_procs); 0: the overall line */
    double real[MAX_PROGRAMS], model[NMODELS][MAX_PROGRAMS]; /* medians */
    double real_runs[MAX_PROGRAMS][MAX_REPEATS];
    char unavailable[NMODELS]
                    [PORTABILITY_REASON_MAX]; /* the first reason a model could not predict */
    size_t left_out, runs;                    /* repeats left out as preempted, of all repeats */
    cost_portability est[NMODELS];            /* over every family */
    cost_portability est_programs[NMODELS];   /* over the programs proper (suite_kind_calibrated) */
    size_t nprogram_families;
} results;

/* ---- measuring ---- */

typedef struct options {
    const char *machine, *output;
    const char *engine;
    const char *platform, *hostfile; /* smpi */
    int procs, repeats, quick, json, quiet;
    int flags;                     /* the models' (COST_CCM_PLAIN_BSP: --ccm-plain bsp) */
    const char *held[MAX_REPEATS]; /* --held-out traces */
    size_t nheld;
    int held_only; /* --held-out-only: no suite */
    tool_progress *progress;
} options;

/* One traced run of program i in dir (the working directory): real and each
 * model's prediction of it, and whether it was preempted. Returns 0, or 1
 * after one line on stderr. */
static int run_once(results *s, size_t i, cost_machine *m, const char *machine_name, int flags,
                    double *real, double model[NMODELS], int *was_preempted)
{
    const family *f = &s->set.families[s->set.family_of[i]];
    suite_run(&s->set, i, s->procs, f->loops);
    cost_trace t;
    char err[4096 + 512];
    if (cost_trace_read("polybsp-trace.jsonl", &t, err, sizeof err) != 0) {
        fprintf(stderr, "polybsp: portability: %s\n", err);
        return 1;
    }
    unlink("polybsp-trace.jsonl");
    *was_preempted = portability_preempted(&t);
    char prefix[256];
    snprintf(prefix, sizeof prefix, "%s %s: ", f->name, suite_variant(&s->set, i));
    int rc = portability_eval(&t, m, "the trace", machine_name, flags, prefix, real, model,
                              s->unavailable, err, sizeof err);
    cost_trace_free(&t);
    if (rc != 0)
        fprintf(stderr, "polybsp: portability: %s\n", err);
    return rc != 0;
}

static int measure(results *s, const options *o, cost_machine *m, const char *machine_name)
{
    double model_runs[NMODELS][PORTABILITY_MAX_REPEATS];
    double target = o->quick ? TARGET_SECONDS / 10 : TARGET_SECONDS;
    for (size_t i = 0; i < s->set.nprograms; i++) {
        double model[NMODELS], pilot[PILOTS];
        family *f = &s->set.families[s->set.family_of[i]];
        if (i == f->first) { /* the loop count, from the median of the first program's pilots */
            f->loops = 1;
            int ignored;
            for (int r = 0; r < PILOTS; r++)
                if (run_once(s, i, m, machine_name, o->flags, &pilot[r], model, &ignored) != 0)
                    return 1;
            double once = portability_median(pilot, PILOTS);
            f->loops = once > 0 ? (int)fmin(MAX_LOOPS, ceil(target / once)) : 1;
        }
        int was_preempted[MAX_REPEATS];
        for (int r = 0; r < o->repeats; r++) {
            if (run_once(s, i, m, machine_name, o->flags, &s->real_runs[i][r], model,
                         &was_preempted[r]) != 0)
                return 1;
            for (int k = 0; k < NMODELS; k++)
                model_runs[k][r] = model[k];
        }
        double runs[MAX_REPEATS];
        memcpy(runs, s->real_runs[i], (size_t)o->repeats * sizeof *runs);
        int kept = portability_keep(runs, was_preempted, model_runs, o->repeats);
        s->left_out += (size_t)(o->repeats - kept);
        s->runs += (size_t)o->repeats;
        s->real[i] = portability_median(runs, kept);
        for (int k = 0; k < NMODELS; k++)
            s->model[k][i] = portability_median(model_runs[k], kept);
        char phase[160];
        snprintf(phase, sizeof phase, "[%zu/%zu] %s, %s, %d time%s: real %.3e s (BSP %.3e s)",
                 i + 1, s->set.nprograms, f->name, suite_variant(&s->set, i), f->loops,
                 f->loops == 1 ? "" : "s", s->real[i], s->model[0][i]);
        tool_progress_show(o->progress, -1, phase); /* [i/n] says how far */
    }
    /* The trust is named on the programs proper: on the probe's own programs
     * the models are fitted in-sample (CCM's h-relation functions on the very
     * patterns), which favours whichever fits most curves. */
    unsigned char calibrated[MAX_FAMILIES];
    s->nprogram_families = 0;
    for (size_t f = 0; f < s->set.nfamilies; f++) {
        calibrated[f] = (unsigned char)suite_kind_calibrated(s->set.families[f].kind);
        s->nprogram_families += !calibrated[f];
    }
    for (int k = 0; k < NMODELS; k++) {
        cost_portability_estimate(s->model[k], s->real, s->set.start, s->set.nfamilies, NULL,
                                  &s->est[k]);
        cost_portability_estimate(s->model[k], s->real, s->set.start, s->set.nfamilies, calibrated,
                                  &s->est_programs[k]);
    }
    return 0;
}

/* ---- output ---- */

/* "family: variant" of program i, or "-" for none. */
static const char *program_name(const results *s, long i, char *buf, size_t size)
{
    if (i < 0)
        return "-";
    snprintf(buf, size, "%s: %s", s->set.families[s->set.family_of[i]].name,
             suite_variant(&s->set, (size_t)i));
    return buf;
}

static void print_value(double v, const char *format)
{
    if (isnan(v))
        printf("%10s", "n/a");
    else
        printf(format, v);
}

/* The calibration suite's part of the table. */
static void print_suite_table(const results *s, const options *o, const cost_machine *m)
{
    /* A simulated platform has the cores its file says. */
    long cores = strcmp(o->engine, "smpi") == 0 ? o->procs : sysconf(_SC_NPROCESSORS_ONLN);
    printf("run         P = %d%s, engine %s, %d repeat%s per program, medians; work = "
           "measured w\n",
           o->procs, o->procs > cores ? " (oversubscribed)" : "", o->engine, o->repeats,
           o->repeats == 1 ? "" : "s");
    if (s->fit_procs > 0)
        printf("lines       BSP: the line of P = %d", s->fit_procs);
    else
        printf("lines       BSP: the line over all P calibrated");
    if (cost_machine_levels_procs(m) > 0)
        printf("; D-BSP: the levels measured at P = %d%s", m->levels_procs,
               m->levels_oversubscribed ? ", oversubscribed" : "");
    printf(" (as predict takes them); CCM: plain supersteps by --ccm-plain %s\n",
           tool_ccm_plain_name(o->flags));
    if (strcmp(m->engine, o->engine) != 0)
        printf("note        the machine file was calibrated on engine %s\n", m->engine);
    printf("repeats     %zu of %zu left out: preempted and more than %.2fx their program's "
           "median\n",
           s->left_out, s->runs, PORTABILITY_PREEMPTED_SLOWER);
    for (int k = 0; k < NMODELS; k++)
        if (s->unavailable[k][0])
            printf("note        %s n/a for some programs (their families are not counted), "
                   "first: %s\n",
                   cost_eval_models[k].label, s->unavailable[k]);
    for (int k = 0; k < NMODELS; k++) {
        size_t n = 0, first = 0;
        for (size_t i = s->set.nprograms; i-- > 0;)
            if (s->model[k][i] <= 0) {
                n++;
                first = i;
            }
        char name[128];
        if (n > 0)
            printf("note        %s predicts 0 s or less for %zu program%s (their families are not "
                   "counted), first: %s\n",
                   cost_eval_models[k].label, n, n == 1 ? "" : "s",
                   program_name(s, (long)first, name, sizeof name));
    }
    printf("\ntimes in seconds of `loops` executions of the program; * marks the fastest "
           "program of a\nfamily (REAL) and each model's choice\n\n");
    printf("%-20s %5s %-16s %11s", "family", "loops", "program", "REAL");
    for (int k = 0; k < NMODELS; k++)
        printf(" %11s", cost_eval_models[k].label);
    printf("\n");
    for (size_t f = 0; f < s->set.nfamilies; f++) {
        size_t best = cost_portability_fastest(s->real, s->set.start, f);
        for (size_t i = s->set.start[f]; i < s->set.start[f + 1]; i++) {
            if (i == s->set.start[f])
                printf("%-20s %5d", s->set.families[f].name, s->set.families[f].loops);
            else
                printf("%-26s", "");
            printf(" %-16s %10.3e%s", suite_variant(&s->set, i), s->real[i], i == best ? "*" : " ");
            for (int k = 0; k < NMODELS; k++) {
                if (isnan(s->model[k][i])) {
                    printf(" %11s", "n/a");
                    continue;
                }
                long choice = cost_portability_choice(s->model[k], s->set.start, f);
                printf(" %10.3e%s", s->model[k][i], choice == (long)i ? "*" : " ");
            }
            printf("\n");
        }
    }
    printf("\n%-8s %9s %9s %10s %10s %10s %10s\n", "model", "families", "picked", "worst loss",
           "eta within", "eta (1)", "delta");
    for (int k = 0; k < NMODELS; k++) {
        const cost_portability *e = &s->est[k];
        printf("%-8s %5zu/%-3zu %5zu/%-3zu", cost_eval_models[k].label, e->families,
               s->set.nfamilies, e->picked, e->families);
        print_value(e->loss, " %10.3f");
        print_value(e->eta_within, " %10.3f");
        print_value(e->eta, " %10.3f");
        print_value(e->delta, " %10.3f");
        printf("\n");
    }
    int least = portability_trust(s->est);
    printf("least delta over every family: %s\n",
           least < 0 ? "none" : cost_eval_models[least].label);
    printf("\nattained by (T = the model's time, T' = the real one):\n");
    for (int k = 0; k < NMODELS; k++) {
        const cost_portability *e = &s->est[k];
        if (e->families == 0)
            continue;
        char a[128], b[128];
        printf("%-8s eta within: T(%s) / T(%s) * T'(%s) / T'(%s)\n", cost_eval_models[k].label,
               program_name(s, e->eta_i, a, sizeof a), program_name(s, e->eta_j, b, sizeof b), b,
               a);
        if (e->eta_p1 >= 0)
            printf("%-8s eta (1):    pi1 = %s, pi2 = %s (each family's choice of the model)\n", "",
                   program_name(s, e->eta_p1, a, sizeof a),
                   program_name(s, e->eta_p2, b, sizeof b));
        printf("%-8s delta:      T'/T largest for %s, smallest for %s\n", "",
               program_name(s, e->delta_max, a, sizeof a),
               program_name(s, e->delta_min, b, sizeof b));
        printf("%-8s worst loss: %s\n", "", s->set.families[e->loss_family].name);
    }
    printf("\nthe programs proper (FFT, inner product, irregular relation): the probe runs "
           "none of\nthem, while every model is fitted on its patterns' and broadcasts' times\n");
    printf("%-8s %9s %10s %10s\n", "model", "families", "eta (1)", "delta");
    for (int k = 0; k < NMODELS; k++) {
        const cost_portability *e = &s->est_programs[k];
        printf("%-8s %5zu/%-3zu", cost_eval_models[k].label, e->families, s->nprogram_families);
        print_value(e->eta, " %10.3f");
        print_value(e->delta, " %10.3f");
        printf("\n");
    }
    int trust = portability_trust(s->est_programs);
    printf("trust: %s (the smallest delta over the programs proper)\n",
           trust < 0 ? "none" : cost_eval_models[trust].label);
    printf("\neta, delta >= 1; 1 means the model ranks programs as this machine does. picked: "
           "families\nwhere the model's fastest is the real fastest; worst loss: real time of "
           "the model's\nchoice over the fastest's. docs/models.md explains.\n");
}

static void print_table(const results *s, const options *o, const cost_machine *m,
                        const char *machine_name, const held_set *held)
{
    printf("polybsp portability: which cost model to trust on this machine (paper 002, section "
           "2)\n");
    printf("machine     %s: host %s, engine %s, %s, calibrated for P =", machine_name, m->host,
           m->engine, m->date);
    for (size_t i = 0; i < m->nprocs; i++)
        printf("%s %d", i ? "," : "", m->procs[i]);
    printf("\n");
    if (!o->held_only)
        print_suite_table(s, o, m);
    if (held != NULL)
        held_print_table(held);
}

/* `, "key": "family: variant"` of program i, or null. */
static void json_program(FILE *f, const char *key, const results *s, long i)
{
    char buf[128];
    fprintf(f, ", \"%s\": ", key);
    if (i < 0)
        fprintf(f, "null");
    else
        cost_jput_str(f, program_name(s, i, buf, sizeof buf), sizeof buf);
}

/* `, "key": number` (null when not finite). */
static void json_number(FILE *f, const char *key, double v)
{
    fprintf(f, ", \"%s\": ", key);
    cost_jput_num(f, v);
}

/* The calibration suite's members of the JSON. */
static void json_suite(FILE *f, const results *s, const options *o)
{
    fprintf(f, ",\n  \"unavailable\": {");
    const char *sep = "";
    for (int k = 0; k < NMODELS; k++) {
        if (!s->unavailable[k][0])
            continue;
        fprintf(f, "%s\"%s\": ", sep, cost_model_name(cost_eval_models[k].kind));
        if (cost_jput_str(f, s->unavailable[k], sizeof s->unavailable[k]) < 0)
            fprintf(f, "null");
        sep = ", ";
    }
    fprintf(f, "},\n  \"families\": [");
    for (size_t fam = 0; fam < s->set.nfamilies; fam++) {
        const family *F = &s->set.families[fam];
        fprintf(f,
                "%s\n    {\"name\": \"%s\", \"kind\": \"%s\", \"size\": %ld, \"loops\": %d, "
                "\"programs\": [",
                fam ? "," : "", F->name, suite_kind_name(F->kind), F->size, F->loops);
        for (size_t i = s->set.start[fam]; i < s->set.start[fam + 1]; i++) {
            fprintf(f, "%s\n      {\"variant\": \"%s\"", i > s->set.start[fam] ? "," : "",
                    suite_variant(&s->set, i));
            json_number(f, "real", s->real[i]);
            for (int k = 0; k < NMODELS; k++)
                json_number(f, cost_model_name(cost_eval_models[k].kind), s->model[k][i]);
            fprintf(f, ", \"real_runs\": [");
            for (int r = 0; r < o->repeats; r++) {
                fprintf(f, "%s", r ? ", " : "");
                cost_jput_num(f, s->real_runs[i][r]);
            }
            fprintf(f, "]}");
        }
        /* The fastest program and each model's choice, by variant name. */
        fprintf(f, "],\n     \"fastest\": \"%s\", \"choice\": {",
                suite_variant(&s->set, cost_portability_fastest(s->real, s->set.start, fam)));
        for (int k = 0; k < NMODELS; k++) {
            long choice = cost_portability_choice(s->model[k], s->set.start, fam);
            fprintf(f, "%s\"%s\": ", k ? ", " : "", cost_model_name(cost_eval_models[k].kind));
            if (choice < 0)
                fprintf(f, "null");
            else
                fprintf(f, "\"%s\"", suite_variant(&s->set, (size_t)choice));
        }
        fprintf(f, "}}");
    }
    fprintf(f, "\n  ],\n  \"summary\": {");
    for (int k = 0; k < NMODELS; k++) {
        const cost_portability *e = &s->est[k];
        fprintf(f, "%s\n    \"%s\": {\"families\": %zu, \"programs\": %zu, \"picked\": %zu",
                k ? "," : "", cost_model_name(cost_eval_models[k].kind), e->families, e->programs,
                e->picked);
        json_number(f, "loss", e->loss);
        fprintf(f, ", \"loss_family\": ");
        if (e->loss_family < 0)
            fprintf(f, "null");
        else
            fprintf(f, "\"%s\"", s->set.families[e->loss_family].name);
        json_number(f, "eta_within", e->eta_within);
        json_program(f, "eta_within_i", s, e->eta_i);
        json_program(f, "eta_within_j", s, e->eta_j);
        json_number(f, "eta", e->eta);
        json_program(f, "eta_pi1", s, e->eta_p1);
        json_program(f, "eta_pi2", s, e->eta_p2);
        json_number(f, "delta", e->delta);
        json_program(f, "delta_max", s, e->delta_max);
        json_program(f, "delta_min", s, e->delta_min);
        fprintf(f, "}");
    }
    fprintf(f, "\n  },\n  \"least_delta\": ");
    portability_json_trust(f, s->est);
    fprintf(f, ",\n  \"program_families\": {\"families\": %zu", s->nprogram_families);
    for (int k = 0; k < NMODELS; k++) {
        const cost_portability *e = &s->est_programs[k];
        fprintf(f, ",\n    \"%s\": {\"families\": %zu, \"programs\": %zu",
                cost_model_name(cost_eval_models[k].kind), e->families, e->programs);
        json_number(f, "eta", e->eta);
        json_number(f, "delta", e->delta);
        json_program(f, "delta_max", s, e->delta_max);
        json_program(f, "delta_min", s, e->delta_min);
        fprintf(f, "}");
    }
    fprintf(f, "},\n  \"trust\": ");
    portability_json_trust(f, s->est_programs);
}

static void print_json(FILE *f, const results *s, const options *o, const cost_machine *m,
                       const char *machine_name, const char *date, const held_set *held)
{
    fprintf(f, "{\n  \"format\": \"polybsp-portability\",\n  \"version\": 1,\n");
    fprintf(f, "  \"suite\": %s,\n", o->held_only ? "false" : "true");
    fprintf(f, "  \"date\": \"%s\",\n  \"engine\": \"%s\",\n  \"procs\": %d,\n", date, o->engine,
            o->procs);
    fprintf(f, "  \"left_out_preempted\": %zu,\n", s->left_out);
    fprintf(f, "  \"repeats\": %d,\n  \"quick\": %s,\n  \"ccm_plain\": \"%s\",\n  \"machine\": ",
            o->repeats, o->quick ? "true" : "false", tool_ccm_plain_name(o->flags));
    if (cost_jput_str(f, machine_name, PATH_MAX) < 0)
        fprintf(f, "null");
    fprintf(f, ",\n  \"machine_host\": ");
    cost_jput_str(f, m->host, sizeof m->host);
    fprintf(f, ",\n  \"machine_date\": ");
    cost_jput_str(f, m->date, sizeof m->date);
    fprintf(f, ",\n  \"fit_procs\": ");
    cost_jput_pos(f, s->fit_procs);
    fprintf(f, ",\n  \"dbsp_procs\": ");
    cost_jput_pos(f, cost_machine_levels_procs(m));
    fprintf(f, ",\n  \"models\": [");
    for (int k = 0; k < NMODELS; k++)
        fprintf(f, "%s\"%s\"", k ? ", " : "", cost_model_name(cost_eval_models[k].kind));
    fprintf(f, "]");
    if (!o->held_only)
        json_suite(f, s, o);
    if (held != NULL) {
        fprintf(f, ",\n  ");
        held_print_json(f, held);
    }
    fprintf(f, "\n}\n");
}

/* ---- the command ---- */

enum {
    OPT_QUICK,
    OPT_QUIET,
    OPT_MACHINE,
    OPT_OUTPUT,
    OPT_PROCS,
    OPT_REPEATS,
    OPT_ENGINE,
    OPT_PLATFORM,
    OPT_HOSTFILE,
    OPT_CCM_PLAIN,
    OPT_FORMAT,
    OPT_HELD_OUT,
    OPT_HELD_OUT_ONLY,
    NOPTS
};
static const tool_opt portability_opts[NOPTS] = {[OPT_QUICK] = {"--quick", false},
                                                 [OPT_QUIET] = {"-q|--quiet", false},
                                                 [OPT_MACHINE] = {"--machine", true},
                                                 [OPT_OUTPUT] = {"-o|--output", true},
                                                 [OPT_PROCS] = {"-p|--procs", true},
                                                 [OPT_REPEATS] = {"--repeats", true},
                                                 [OPT_ENGINE] = {"--engine", true},
                                                 [OPT_PLATFORM] = {"--platform", true},
                                                 [OPT_HOSTFILE] = {"--hostfile", true},
                                                 [OPT_CCM_PLAIN] = {"--ccm-plain", true},
                                                 [OPT_FORMAT] = {"--format", true},
                                                 [OPT_HELD_OUT] = {"--held-out", true},
                                                 [OPT_HELD_OUT_ONLY] = {"--held-out-only", false}};
enum { FORMAT_TABLE, FORMAT_JSON, NFORMATS };
static const char *const format_names[NFORMATS] = {
    [FORMAT_TABLE] = "table", [FORMAT_JSON] = "json"};

typedef struct parsing {
    options *o;
    int repeats_given;
} parsing;

static int on_option(void *ctx, int opt, const char *v)
{
    parsing *ps = ctx;
    options *o = ps->o;
    long n;
    switch (opt) {
    case TOOL_ARG:
        return tool_usage_error(
            "portability: unexpected argument '%s' (try 'polybsp portability --help')", v);
    case OPT_QUICK: o->quick = 1; return 0;
    case OPT_QUIET: o->quiet = 1; return 0;
    case OPT_MACHINE: o->machine = v; return 0;
    case OPT_OUTPUT: o->output = v; return 0;
    case OPT_PROCS:
        if (tool_integer(v, 2, 64, &n) != 0 || (n & (n - 1)) != 0)
            return tool_usage_error("portability: invalid number of processes '%s' (expected "
                                    "a power of two from 2 to 64)",
                                    v);
        o->procs = (int)n;
        return 0;
    case OPT_REPEATS:
        if (tool_integer(v, 1, MAX_REPEATS, &n) != 0)
            return tool_usage_error(
                "portability: invalid repeats '%s' (expected an integer from 1 to %d)", v,
                MAX_REPEATS);
        o->repeats = (int)n;
        ps->repeats_given = 1;
        return 0;
    case OPT_ENGINE:
        if (!tool_engine_available(v))
            return tool_usage_error("portability: engine '%s' is not available (available: %s)", v,
                                    tool_engine_list());
        o->engine = v;
        return 0;
    case OPT_PLATFORM: o->platform = v; return 0;
    case OPT_HOSTFILE: o->hostfile = v; return 0;
    case OPT_CCM_PLAIN: return tool_ccm_plain("portability", v, &o->flags);
    case OPT_HELD_OUT:
        if (o->nheld == MAX_REPEATS)
            return tool_usage_error("portability: more than %d --held-out traces", MAX_REPEATS);
        o->held[o->nheld++] = v;
        return 0;
    case OPT_HELD_OUT_ONLY: o->held_only = 1; return 0;
    default: /* OPT_FORMAT */
        if ((n = tool_choice("portability", "format", v, format_names, NFORMATS)) < 0)
            return TOOL_EXIT_USAGE;
        o->json = n == FORMAT_JSON;
        return 0;
    }
}

/* Returns -1 after printing help (status 0), 0 to go on, or 2 for bad usage. */
static int parse_args(int argc, char **argv, options *o)
{
    parsing ps = {.o = o};
    int rc = tool_parse_args("portability", cmd_portability_help, argc, argv, portability_opts,
                             NOPTS, on_option, &ps, NULL);
    if (rc != 0)
        return rc;
    int repeats_given = ps.repeats_given;
    if (!repeats_given && o->quick)
        o->repeats = 3;
    if (o->held_only && o->nheld == 0)
        return tool_usage_error("portability: --held-out-only needs --held-out TRACE");
    if (o->nheld > 0 && !o->machine)
        return tool_usage_error("portability: --held-out needs --machine FILE, the machine file "
                                "of the machine the traces ran on");
    int launched = strcmp(o->engine, "mpi") == 0 || strcmp(o->engine, "smpi") == 0;
    if (launched && !o->machine)
        return tool_usage_error("portability: --engine %s needs --machine FILE (made by "
                                "'polybsp probe --engine %s')",
                                o->engine, o->engine);
    if ((o->platform || o->hostfile) && strcmp(o->engine, "smpi") != 0)
        return tool_usage_error("portability: %s is for --engine smpi only",
                                o->platform ? "--platform" : "--hostfile");
    if (strcmp(o->engine, bsp_engine_name()) != 0 && !launched)
        return tool_usage_error("portability: this is the MPI engine's portability; run "
                                "'polybsp portability' for engine '%s'",
                                o->engine);
    return 0;
}

/* A short probe at P into dir/machine.json, for a run without --machine. */
static int quick_probe(const options *o, const char *path)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    probe_options po = {.output = path,
                        .budget = 10,
                        .quick = o->quick,
                        .nprocs = 1,
                        .cores = cores > 0 ? (int)cores : 1};
    po.procs[0] = o->procs;
    const long *sizes = o->quick ? probe_quick_sizes : probe_default_sizes;
    po.nsizes = o->quick ? probe_quick_nsizes : probe_default_nsizes;
    memcpy(po.sizes, sizes, po.nsizes * sizeof *sizes);
    char phase[160];
    snprintf(phase, sizeof phase,
             "no --machine: calibrating first (a short probe at P = %d, about %d s; `polybsp "
             "probe` makes a file to reuse)",
             o->procs, o->quick ? 2 : 10);
    tool_progress_show(o->progress, -1, phase);
    po.progress = tool_progress_probe;
    po.ctx = o->progress;
    FILE *quiet = fopen("/dev/null", "w");
    if (!quiet) {
        fprintf(stderr, "polybsp: portability: /dev/null: %s\n", strerror(errno));
        return 1;
    }
    char err[512];
    bsp_init(probe_spmd, 0, NULL);
    int rc = probe_run(&po, quiet, err, sizeof err);
    fclose(quiet);
    if (rc != 0) {
        fprintf(stderr, "polybsp: portability: probe: %s\n", err);
        return 1;
    }
    return 0;
}

/* The suite measured on P processes into s, in a working directory of its
 * own (the traces go to the working directory, and POLYBSP_TRACE would trace
 * the set-up too); without --machine, a short probe first fills *m. Returns 0
 * or the status after one line. */
static int run_suite(const options *o, cost_machine *m, results *s)
{
    char err[4096 + 512];
    char dir[4096], cwd[4096], machine_path[4200];
    snprintf(dir, sizeof dir, "%s/polybsp-portability.XXXXXX", core_file_tmpdir());
    if (!getcwd(cwd, sizeof cwd) || !mkdtemp(dir) || chdir(dir) != 0) {
        fprintf(stderr, "polybsp: portability: cannot make a working directory: %s\n",
                strerror(errno));
        return 1;
    }
    unsetenv("POLYBSP_TRACE");
    snprintf(machine_path, sizeof machine_path, "%s/machine.json", dir);
    /* A stop leaves nothing of this directory: its files, then itself. */
    char trace_path[4200];
    snprintf(trace_path, sizeof trace_path, "%s/polybsp-trace.jsonl", dir);
    int stop = core_stop_remove(dir, 1);
    core_stop_remove(machine_path, 0);
    core_stop_remove(trace_path, 0);
    int rc = 0;
    if (!o->machine) {
        rc = quick_probe(o, machine_path);
        if (rc == 0 && cost_machine_read(machine_path, m, err, sizeof err) != 0) {
            fprintf(stderr, "polybsp: portability: %s\n", err);
            rc = 1;
        }
        unlink(machine_path);
    }
    if (rc == 0) {
        suite_build(&s->set, o->quick, o->procs);
        s->procs = o->procs;
        /* The suite's traces are of P processes: the machine's line and D-BSP
         * levels of that P, as predict takes them for such a trace (and
         * refuses a file without that P's line), said before any runs. */
        const char *machine_name = o->machine ? o->machine : "(short probe)";
        if (cost_eval_line(m, o->procs, "the suite", machine_name, &s->fit_procs, err,
                           sizeof err) != 0)
            rc = tool_usage_error("portability: %s", err);
        else
            rc = measure(s, o, m, machine_name);
    }
    core_stop_forget(stop);
    if (chdir(cwd) != 0 || rmdir(dir) != 0)
        fprintf(stderr, "polybsp: portability: could not remove %s: %s\n", dir, strerror(errno));
    return rc;
}

int cmd_portability(int argc, char **argv)
{
    tool_progress progress;
    options o = {.procs = 2, .repeats = 11, .engine = bsp_engine_name(), .progress = &progress};
    int rc = parse_args(argc, argv, &o);
    if (rc != 0)
        return rc < 0 ? 0 : rc;
    tool_progress_init(&progress, "portability", o.quiet);
    /* The held-out traces alone need no engine: they are read here. */
    int other_engine = !o.held_only && strcmp(o.engine, bsp_engine_name()) != 0;
    if (other_engine && strcmp(o.engine, "smpi") == 0)
        return tool_exec_smpi_sibling("portability", "polybsp-portability-smpi.so", o.platform,
                                      o.hostfile, o.procs, argc, argv, NULL);
    if (other_engine) /* --engine mpi from the threads tool */
        return tool_exec_sibling("portability", "polybsp-portability-mpi", o.procs, argc, argv);

    char err[4096 + 512];
    cost_machine m;
    if (o.machine && cost_machine_read(o.machine, &m, err, sizeof err) != 0)
        return tool_usage_error("portability: %s", err);
    /* -o is written at the end (tool.h), and refused now rather than after the runs. */
    if (o.output && (rc = tool_out_check("portability", o.output)) != 0)
        return rc;
    /* Read before the suite runs: a bad trace is told at once, and relative
     * paths are read from the caller's directory. */
    held_set held = {0};
    if (o.nheld > 0 &&
        held_read(&held, o.held, o.nheld, &m, o.machine, o.flags, err, sizeof err) != 0) {
        held_free(&held);
        return tool_usage_error("portability: %s", err);
    }

    results *s = calloc(1, sizeof *s);
    if (!s) {
        fprintf(stderr, "polybsp: portability: out of memory\n");
        rc = 1;
    }
    if (rc == 0 && !o.held_only)
        rc = run_suite(&o, &m, s);
    tool_progress_end(&progress);
    const char *machine_name = o.machine ? o.machine : "(short probe)";
    const held_set *h = o.nheld > 0 ? &held : NULL;
    if (rc == 0) {
        char date[32];
        time_t now = time(NULL);
        strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
        if (o.json)
            print_json(stdout, s, &o, &m, machine_name, date, h);
        else
            print_table(s, &o, &m, machine_name, h);
        tool_out out;
        if (o.output && (rc = tool_out_open(&out, "portability", o.output)) == 0) {
            print_json(out.f, s, &o, &m, machine_name, date, h);
            rc = tool_out_close(&out);
        }
    }
    held_free(&held);
    free(s);
    return rc;
}
