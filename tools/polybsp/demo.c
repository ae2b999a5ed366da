/* demo.c — `polybsp demo`: what polybsp is for, in under three minutes.
 *
 * Contract: calibrates this machine (a short probe), fits the constants of the
 * divide-and-conquer FFT's cost formula (table 13 of paper 000), runs that FFT at
 * P = 1, 2, 4, 8 on two sizes with tracing, and prints the table 14 layout: the
 * REAL time of the traced transform against the paper's MODEL row, formula (3)
 * from the fitted constants and the probe's g and L of that P alone, then the
 * rows explained from the trace (BSP, EBSP, CCM, as predict evaluates them:
 * cost_eval_run); then the a-priori MODEL's mean
 * error and the closest of the rows explained from the trace.
 * Files (machine file, traces, constants) go to a temporary directory, removed at
 * the end unless --keep DIR names one to keep them in; each is written whole
 * (core_file), and one whose name in DIR is taken by anything but a regular file
 * stops the demo. Bad options: one line, status 2; a step that fails: one line,
 * status 1. After a failed step or a stop by signal the temporary directory is
 * kept if anything is in it, and stderr's last line names it.
 */
#define _DEFAULT_SOURCE /* realpath, mkdtemp */
#include "predict.h"
#include "progress.h"
#include "tool.h"

#include "core/core_file.h"
#include "core/core_stop.h"
#include "cost/cost_eval.h"
#include "fft_calib.h"
#include "fft_dc.h"
#include "fft_util.h"
#include "probe/probe.h"
#include "probe/probe_measure.h"

#include <bsp.h>
#include <polybsp.h>

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *const cmd_demo_help[] = {
    "usage: polybsp demo [--budget SECONDS] [--quick] [--quiet] [--keep DIR]\n"
    "\n"
    "Shows what polybsp is for: it calibrates this machine (a short `polybsp probe`),\n"
    "fits the constants of a parallel FFT's cost formula, runs the divide-and-conquer\n"
    "FFT of the Collective Computing Model (bsp_par on halves of the group) at\n"
    "P = 1, 2, 4, 8 with tracing, and prints, as table 14 of Rodriguez et al., the\n"
    "real time against the paper's MODEL (its formula (3), nothing from the run),\n"
    "then against the models explained from the trace, each with its error.\n"
    "\n"
    "options:\n"
    "  --budget SECONDS   time for the probe (default 30)\n"
    "  --quick            small sizes and a tiny probe, for tests (a few seconds)\n"
    "  -q, --quiet        no progress on stderr (by default an updating line on a\n"
    "                     terminal, plain lines otherwise)\n"
    "  --keep DIR         keep the machine file, the traces and the FFT constants in\n"
    "                     DIR (created if missing) instead of a temporary directory\n"
    "  -h, --help         show this help\n"
    "\n"
    "docs/demo.md explains every line of the output.\n",
    NULL};

enum { NPROCS = 4, MAX_SIZES = 2 };
static const int demo_procs[NPROCS] = {1, 2, 4, 8};
/* Probes run before a P that the probe could not fit is given the fit over
 * every P (first_uncalibrated). */
enum { PROBE_TRIES = 3 };

/* The models fed the trace (cost_eval_models' indices); MODEL, formula (3), is
 * fft_formula3. */
static const int models[] = {COST_EVAL_BSP, COST_EVAL_EBSP, COST_EVAL_CCM};
enum { NMODELS = sizeof models / sizeof models[0] };

/* One FFT run, handed to the SPMD function through globals (the threads engine
 * shares memory; the tool never runs on MPI). */
static struct {
    long n;
    int procs;
} job;

static void fft_spmd(void)
{
    bsp_begin(job.procs);
    long n = job.n;
    fftw_complex *x = fftw_malloc((size_t)n * sizeof *x);
    fftw_complex *y = fftw_malloc((size_t)n * sizeof *y);
    if (!x || !y)
        bsp_abort("demo: out of memory for an FFT of %ld elements", n);
    fft_dc *plan = fft_dc_create(n, FFT_FORWARD, FFTW_ESTIMATE, x, y);
    for (long j = 0; j < n; j++)
        fft_input(1, j, x[j]);
    fft_dc_execute(plan); /* warm caches and buffers: not measured */
    bsp_trace_begin();
    fft_dc_execute(plan);
    bsp_trace_end();
    fft_dc_destroy(plan);
    fftw_free(x);
    fftw_free(y);
    bsp_end();
}

/* Removes the demo's own directory: the files it wrote there, then itself. */
static void remove_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (d) {
        char path[4400];
        for (struct dirent *e; (e = readdir(d)) != NULL;) {
            if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
                continue;
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            unlink(path);
        }
        closedir(d);
    }
    if (rmdir(dir) != 0)
        fprintf(stderr, "polybsp: demo: could not remove %s: %s\n", dir, strerror(errno));
}

static int fail(const char *what, const char *why)
{
    fprintf(stderr, "polybsp: demo: %s: %s\n", what, why);
    return 1;
}

/* Runs the FFT of job with tracing in dir; reads the trace into t. */
static int traced_fft(const char *dir, cost_trace *t, char *path, size_t size)
{
    char err[512];
    /* The trace goes to the run's working directory (POLYBSP_TRACE would trace
     * the planning too): run in dir, then give the file its own name. */
    if (chdir(dir) != 0)
        return fail(dir, strerror(errno));
    bsp_init(fft_spmd, 0, NULL);
    fft_spmd();
    snprintf(path, size, "%s/fft-n%ld-p%d.jsonl", dir, job.n, job.procs);
    char why[256];
    if (core_file_check(path, why, sizeof why) != 0)
        return fail(path, why);
    if (rename("polybsp-trace.jsonl", path) != 0)
        return fail("the trace", strerror(errno));
    if (cost_trace_read(path, t, err, sizeof err) != 0)
        return fail("the trace", err);
    return 0;
}

struct row {
    double real, model[NMODELS], formula;
    int have[NMODELS];
};

/* The first P > 1 of the runs that machine m has no line of its own for
 * (by_procs), or 0 when every one has. */
static int first_uncalibrated(const cost_machine *m)
{
    for (int i = 0; i < NPROCS; i++)
        if (demo_procs[i] > 1 && cost_machine_procs_fit(m, demo_procs[i]) == NULL)
            return demo_procs[i];
    return 0;
}

/* REAL and the rows fed trace t as predict evaluates them (cost_eval_run: the
 * line of job's P, P = 1 keeping the line over all P; faults charged), and
 * MODEL from that line's g and L. 0, or 1 after the line that says why not. */
static int evaluate(const cost_machine *m, const char *machine_path, cost_trace *t,
                    const char *path, const fft_constants *fc, struct row *r)
{
    static cost_machine at; /* static: a machine file's tables are large */
    at = *m;
    cost_eval_opts o = {.trace = path,
                        .machine = machine_path,
                        .all = 1,
                        .faults = COST_FAULTS_KIND,
                        .explain = 1,       /* the runs are on the machine just probed */
                        .overall_line = 1}; /* a P the probe could not fit */
    cost_eval e;
    char err[4096 + 512];
    int rc = cost_eval_run(&o, t, &at, &e, err, sizeof err);
    if (rc == 0) {
        r->real = e.real_total;
        for (int k = 0; k < NMODELS; k++) {
            r->model[k] = e.model_total[models[k]];
            r->have[k] = cost_eval_available(&e, models[k]) && isfinite(r->model[k]);
        }
        r->formula = fft_formula3(fc, at.g, at.L, job.n, job.procs);
    }
    cost_eval_free(&e);
    return rc == 0 ? 0 : fail(path, err);
}

static void print_row(const char *name, const struct row *rows, int k)
{
    printf("%-10s", name);
    for (int i = 0; i < NPROCS; i++) {
        if (k >= 0 && !rows[i].have[k])
            printf("%14s ", "n/a");
        else
            printf("%14.6f ", k >= 0 ? rows[i].model[k] : rows[i].formula);
    }
    printf("\n%-10s", "  ERROR %");
    for (int i = 0; i < NPROCS; i++) {
        if (k >= 0 && !rows[i].have[k])
            printf("%14s ", "");
        else
            printf("%14.2f ",
                   cost_error_percent(rows[i].real, k >= 0 ? rows[i].model[k] : rows[i].formula));
    }
    printf("\n");
}

/* The paper's table 14 (REAL, MODEL, ERROR), then the rows fed the trace. */
static void print_table(long n, const struct row *rows, int cores)
{
    printf("\nTable 14  FFT of %ld complex numbers: real time versus the models (seconds)\n", n);
    printf("%-10s", "P");
    for (int i = 0; i < NPROCS; i++)
        printf("%14d%s", demo_procs[i], demo_procs[i] > cores ? "*" : " ");
    printf("\n%-10s", "REAL");
    for (int i = 0; i < NPROCS; i++)
        printf("%14.6f ", rows[i].real);
    printf("\n");
    print_row("MODEL", rows, -1);
    printf("explained from the trace (its measured work and counts):\n");
    for (int k = 0; k < NMODELS; k++)
        print_row(cost_eval_models[models[k]].label, rows, k);
    if (demo_procs[NPROCS - 1] > cores)
        printf("* more processes than the %d cores: oversubscribed\n", cores);
}

enum { OPT_QUICK, OPT_QUIET, OPT_BUDGET, OPT_KEEP, NOPTS };
static const tool_opt demo_opts[NOPTS] = {[OPT_QUICK] = {"--quick", false},
                                          [OPT_QUIET] = {"-q|--quiet", false},
                                          [OPT_BUDGET] = {"--budget", true},
                                          [OPT_KEEP] = {"--keep", true}};

typedef struct demo_args {
    probe_options *o;
    const char *keep;
    bool quiet;
} demo_args;

static int on_demo_option(void *ctx, int opt, const char *v)
{
    demo_args *a = ctx;
    char *end;
    switch (opt) {
    case TOOL_ARG:
        return tool_usage_error("demo: unknown option '%s' (try 'polybsp demo --help')", v);
    case OPT_QUICK: a->o->quick = 1; return 0;
    case OPT_QUIET: a->quiet = true; return 0;
    case OPT_KEEP: a->keep = v; return 0;
    default: /* OPT_BUDGET */
        a->o->budget = strtod(v, &end);
        if (end == v || *end || !(a->o->budget > 0) || a->o->budget > 3600)
            return tool_usage_error(
                "demo: invalid budget '%s' (expected seconds, more than 0 and at most 3600)", v);
        return 0;
    }
}

typedef struct demo_paths {
    const char *dir;
    bool keep;
    char *machine, *raw, *constants; /* non-const: report's argv holds them */
} demo_paths;

static int demo_steps(int argc, char **argv, probe_options *po, bool quiet,
                      const demo_paths *paths);

int cmd_demo(int argc, char **argv)
{
    probe_options o = {.budget = 30};
    demo_args a = {.o = &o};
    int rc = tool_parse_args("demo", cmd_demo_help, argc, argv, demo_opts, NOPTS, on_demo_option,
                             &a, NULL);
    if (rc != 0)
        return rc < 0 ? 0 : rc;
    const char *keep = a.keep;
    bool quiet = a.quiet;

    char dir[4096];
    if (keep) {
        if (mkdir(keep, 0777) != 0 && errno != EEXIST)
            return fail(keep, strerror(errno));
        if (!realpath(keep, dir))
            return fail(keep, strerror(errno));
    } else {
        snprintf(dir, sizeof dir, "%s/polybsp-demo.XXXXXX", core_file_tmpdir());
        if (!mkdtemp(dir))
            return fail(dir, strerror(errno));
    }
    char machine_path[4200], raw_path[4200], constants_path[4200];
    snprintf(machine_path, sizeof machine_path, "%s/machine.json", dir);
    snprintf(raw_path, sizeof raw_path, "%s/probe-raw.json", dir);
    snprintf(constants_path, sizeof constants_path, "%s/fft-constants.json", dir);
    /* A file of --keep DIR that cannot be written stops the demo now, not after
     * the probe's seconds of measuring. */
    const char *kept[] = {machine_path, raw_path, constants_path};
    for (size_t i = 0; keep && i < sizeof kept / sizeof *kept; i++) {
        char why[256], line[300];
        if (core_file_check(kept[i], why, sizeof why) != 0) {
            snprintf(line, sizeof line, "cannot write: %s", why);
            return fail(kept[i], line);
        }
    }
    demo_paths paths = {dir, keep != NULL, machine_path, raw_path, constants_path};
    /* What finished stays readable when a step fails or the user stops the
     * demo: a stop removes the temporary directory only if nothing is in it
     * yet, else keeps it and says where (core_stop). */
    static char kept_line[4200];
    snprintf(kept_line, sizeof kept_line,
             "\npolybsp: demo: stopped; the files made so far are in %s\n", dir);
    int stop = keep ? -1 : core_stop_remove(dir, 1);
    core_stop_say(stop, "\npolybsp: demo: stopped\n", kept_line);
    int status = demo_steps(argc, argv, &o, quiet, &paths);
    core_stop_forget(stop);
    if (keep)
        printf("Files kept in %s\n", dir);
    else if (status != 0 && rmdir(dir) != 0) /* rmdir: only an empty one goes */
        fprintf(stderr, "polybsp: demo: the files made so far are in %s\n", dir);
    return status;
}

/* Steps 1 to 3 and the report, with the files in paths->dir; 0, or 1 after
 * the failing step's line. Removes the directory at the end unless it is kept. */
static int demo_steps(int argc, char **argv, probe_options *po, bool quiet, const demo_paths *paths)
{
    probe_options o = *po;
    const char *dir = paths->dir;
    char *machine_path = paths->machine, *raw_path = paths->raw;
    const char *constants_path = paths->constants;
    const bool keep = paths->keep;
    char err[512];
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    printf("polybsp demo: does a cost model predict how long a parallel program takes?\n"
           "Step 1 calibrates this machine (g, L and friends), step 2 the FFT's local work,\n"
           "step 3 runs the FFT at P = 1, 2, 4, 8 and compares. (docs/demo.md explains.)\n\n");

    /* Step 1: the probe, at the P > 1 of the FFT runs: each gets its own g and L. */
    printf("Step 1: polybsp probe at P = 2, 4, 8 (about %.0f s) ...\n", o.quick ? 2.0 : o.budget);
    fflush(stdout);
    o.output = machine_path;
    o.raw = raw_path; /* the probe's samples, drawn in the report */
    o.cores = (int)cores;
    o.nprocs = 0;
    for (int i = 0; i < NPROCS; i++)
        if (demo_procs[i] > 1)
            o.procs[o.nprocs++] = demo_procs[i];
    const long *sizes = o.quick ? probe_quick_sizes : probe_default_sizes;
    o.nsizes = o.quick ? probe_quick_nsizes : probe_default_nsizes;
    memcpy(o.sizes, sizes, o.nsizes * sizeof *sizes);
    FILE *null = fopen("/dev/null", "w");
    if (!null)
        return fail("/dev/null", strerror(errno));
    tool_progress progress;
    tool_progress_init(&progress, "demo", quiet);
    o.progress = tool_progress_probe;
    o.ctx = &progress;
    static cost_machine m; /* static: a machine file's tables are large */
    int uncalibrated = 0;
    for (int attempt = 1; attempt <= PROBE_TRIES; attempt++) {
        bsp_init(probe_spmd, argc, argv);
        int status = probe_run(&o, null, err, sizeof err);
        tool_progress_end(&progress);
        if (status != 0 || cost_machine_read(machine_path, &m, err, sizeof err) != 0) {
            fclose(null);
            return fail("probe", err);
        }
        uncalibrated = first_uncalibrated(&m);
        if (!uncalibrated)
            break;
        /* The probe leaves out a P whose fit is noise (g <= 0): on a loaded
         * machine, mostly the most oversubscribed one. */
        printf("        P = %d: the timings were mostly noise (g <= 0)%s\n", uncalibrated,
               attempt < PROBE_TRIES ? "; probing again" : "");
        fflush(stdout);
    }
    fclose(null);
    if (uncalibrated)
        printf("        the P without a line of their own use the fit over every P\n");
    for (size_t i = 0; i < m.nbyprocs; i++)
        printf("        P = %d%s: g = %.3e s/byte, L = %.3e s\n", m.byprocs[i].procs,
               m.byprocs[i].oversubscribed ? " (oversubscribed)" : "", m.byprocs[i].g,
               m.byprocs[i].L);
    printf("        @ = %s, r = %.3e flop/s, noise %.0f %%\n", m.h_sum ? "sum" : "max", m.rate[0],
           m.spread);

    /* Step 2: the FFT constants. */
    long sizes_n[MAX_SIZES] = {524288, 2097152};
    if (o.quick) {
        sizes_n[0] = 1L << 12;
        sizes_n[1] = 1L << 14;
    }
    printf("\nStep 2: the FFT's constants, timed on one process (table 13) ...\n");
    fflush(stdout);
    fft_constants fc;
    if (fft_calibrate((int)log2((double)sizes_n[MAX_SIZES - 1]), FFTW_ESTIMATE, &fc) != 0)
        return 1;
    printf("        D = %.4e s per element divided, F = %.4e s per m log2 m,\n"
           "        V = %.4e s per butterfly\n",
           fc.value[FFT_D], fc.value[FFT_F], fc.value[FFT_V]);
    core_file w;
    if (core_file_create(&w, constants_path, err, sizeof err) != 0)
        return fail(constants_path, err);
    fft_constants_json(w.f, &fc);
    if (core_file_commit(&w, err, sizeof err) != 0)
        return fail(constants_path, err);

    /* Step 3: the traced runs. */
    printf("\nStep 3: the divide-and-conquer FFT, traced, at P = 1, 2, 4, 8 ...\n");
    fflush(stdout);
    char cwd[4096];
    if (!getcwd(cwd, sizeof cwd))
        return fail("the working directory", strerror(errno));
    double error_sum[NMODELS] = {0}, formula_sum = 0;
    int error_count[NMODELS] = {0}, formula_count = 0;
    for (int s = 0; s < MAX_SIZES; s++) {
        struct row rows[NPROCS];
        for (int i = 0; i < NPROCS; i++) {
            job.n = sizes_n[s];
            job.procs = demo_procs[i];
            char phase[96];
            snprintf(phase, sizeof phase, "FFT of %ld at P = %d, traced", job.n, job.procs);
            tool_progress_show(&progress, (double)(s * NPROCS + i) / (MAX_SIZES * NPROCS), phase);
            cost_trace t;
            char path[4400];
            if (traced_fft(dir, &t, path, sizeof path) != 0)
                return 1;
            struct row *r = &rows[i];
            int failed = evaluate(&m, machine_path, &t, path, &fc, r);
            cost_trace_free(&t);
            if (failed)
                return 1;
            for (int k = 0; k < NMODELS; k++) {
                if (r->have[k]) {
                    error_sum[k] += fabs(cost_error_percent(r->real, r->model[k]));
                    error_count[k]++;
                }
            }
            formula_sum += fabs(cost_error_percent(r->real, r->formula));
            formula_count++;
        }
        tool_progress_end(&progress);
        print_table(sizes_n[s], rows, (int)cores);
    }
    if (chdir(cwd) != 0)
        return fail(cwd, strerror(errno));

    /* Like with like: MODEL is the one a-priori row (nothing from the run); the
     * rows fed the trace are ranked among themselves. */
    int best = 0;
    for (int k = 1; k < NMODELS; k++)
        if (error_count[k] && (!error_count[best] ||
                               error_sum[k] / error_count[k] < error_sum[best] / error_count[best]))
            best = k;
    printf("\nA priori:  MODEL, a mean |ERROR| of %.1f %% over the %d runs.\n",
           formula_sum / formula_count, formula_count);
    if (error_count[best])
        printf("Explained from the trace, closest: %s, a mean |ERROR| of %.1f %% over %d runs.\n",
               cost_eval_models[models[best]].label, error_sum[best] / error_count[best],
               error_count[best]);
    printf("REAL: the traced transform, from its first superstep's start to its last\n"
           "superstep's end. MODEL: paper 000's formula (3) from table 13's D, F, V\n"
           "(timed on one process) and the probe's g and L for that P, nothing from the\n"
           "run. BSP, EBSP, CCM: explained from the trace, its measured work per\n"
           "superstep and its communication, with the same g and L: their ERROR is\n"
           "the cost of communication and synchronisation they get wrong.\n");
    /* The page of the largest transform at P = 2, every superstep against every
     * model, kept where the user is (or in --keep DIR). */
    char trace_path[4400], report_path[4400];
    snprintf(trace_path, sizeof trace_path, "%s/fft-n%ld-p2.jsonl", dir, sizes_n[MAX_SIZES - 1]);
    snprintf(report_path, sizeof report_path, "%s%spolybsp-demo-report.html", keep ? dir : "",
             keep ? "/" : "");
    char *report_argv[] = {"report", "--machine", machine_path, "--probe", raw_path,
                           "-o",     report_path, trace_path,   NULL};
    printf("\nEvery superstep of the FFT of %ld at P = 2 against every model, in a browser:\n",
           sizes_n[MAX_SIZES - 1]);
    fflush(stdout);
    int report_status = predict_main(8, report_argv, "report");
    if (report_status == 0 && !keep)
        remove_dir(dir);
    return report_status;
}
