/* probe.c — `polybsp probe`: calibrate this machine as paper 000 does (with the D-BSP
 * levels and CCM cost functions of papers 002 and 001); write a machine file.
 *
 * Contract: parses the options of cmd_probe_help and hands them to probe_run
 * (src/probe), which prints the tables to stdout and writes the machine file.
 * Every bad option, and an output file that cannot be created, is reported before
 * anything is measured: one line `polybsp: probe: ...`, status 2. Status 1 when
 * the run itself fails (the file cannot be written after all). Progress goes to
 * stderr (progress.h), none with --quiet.
 * The same file makes polybsp-probe-mpi (probe_mpi.c), this command on the MPI
 * engine; `--engine mpi` in the threads tool checks the options and then starts
 * it under mpiexec with the process counts made explicit.
 */
#include "progress.h"
#include "tool.h"

#include "core/core_file.h"
#include "engine/engine.h"
#include "probe/probe.h"
#include "probe/probe_measure.h"

#include <bsp.h>
#include <polybsp.h>

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *const cmd_probe_help[] = {
    "usage: polybsp probe [-o FILE] [--raw FILE] [--budget SECONDS] [--procs LIST]\n"
    "                     [--sizes LIST] [--dbsp-procs P] [--experiments N]\n"
    "                     [--quick] [--quiet]\n"
    "                     [--engine ENGINE] [--platform P] [--hostfile F]\n"
    "\n"
    "Measures this machine's BSP parameters the way Rodriguez et al. (\"h-relation\n"
    "models for current standard parallel platforms\") do: the times of h-relations in\n"
    "five patterns (Exchange, PingPong, OneToAll, AllToOne, AllToAll), each with\n"
    "bsp_put and bsp_hpput, at several sizes and numbers of processes; least-squares\n"
    "L and g per pattern and overall; their errors; BSP*'s g* and critical block size\n"
    "B; the computation rate r; D-BSP's g_i and L_i for each level of clusters of\n"
    "P/2^i processes down to 1 (at every P given, or at --dbsp-procs); and\n"
    "CCM's T(P,h) = a +\n"
    "b*ceil(log2 P) + c*h, linear by pieces in h, of every collective, partition\n"
    "and rejoin, from traced runs at two or more P (the given ones, or P and 2P).\n"
    "Prints the paper's tables, Table D-BSP and Table CCM, and writes the machine\n"
    "file that `polybsp predict` and bsp_g()/bsp_L() read.\n"
    "\n"
    "options:\n"
    "  -o, --output FILE   the machine file (default polybsp-machine.json)\n"
    "  --raw FILE          also write every sample behind the pattern tables (JSON,\n"
    "                      docs/formats.md), for `polybsp report --probe FILE`\n"
    "  --budget SECONDS    time to spend, about (default 40; at least a few samples\n"
    "                      of everything are taken however small it is)\n"
    "  -p, --procs LIST    numbers of processes, e.g. 2,4,8 (default the paper's 2, 4,\n"
    "                      6, 8, and the cores when more); more than the cores is\n"
    "                      oversubscribed, flagged and fitted apart\n"
    "  --sizes LIST        h-relation sizes in bytes, even (default the paper's 6720,\n"
    "                      26880, 107520, 430080, 1720320; the empty superstep is\n"
    "                      always measured too)\n"
    "  --dbsp-procs P      measure the D-BSP levels at P processes only (default\n"
    "                      every P of --procs):\n"
    "                      a big machine's hierarchy without the patterns' cost\n"
    "                      there (P^2 messages for AllToAll)\n"
    "  --experiments N     samples per cell at most (default 100; the paper's 500 needs\n"
    "                      a larger --budget)\n"
    "  --quick             a tiny run (3 sizes, few samples), for tests\n"
    "  -q, --quiet         no progress on stderr (by default an updating line on a\n"
    "                      terminal, a line per tenth done otherwise)\n"
    "  --engine ENGINE     the engine to measure: threads (the default), or mpi when\n"
    "                      built with MPI: runs polybsp-probe-mpi under mpiexec on\n"
    "                      as many ranks as the largest P (the default P go up to\n"
    "                      the job's ranks when polybsp-probe-mpi is started by hand);\n"
    "                      or smpi when built with SimGrid: the probe on simulated\n"
    "                      ranks of --platform (docs/smpi.md), in simulated time\n"
    "  --platform P        smpi: a SimGrid platform file or a shipped platform's name\n"
    "  --hostfile F        smpi: the host of each rank, one a line\n"
    "  -h, --help          show this help\n"
    "\n"
    "See docs/probe.md for the method and how to read the tables.\n",
    NULL};

enum { MAX_PROCS_VALUE = 1024 };

/* Parses a comma-separated list of integers in [least, most] (even ones when
 * even is set), distinct, at most cap of them, sorted ascending into out. */
static int parse_list(const char *text, long least, long most, int even, long *out, size_t cap,
                      size_t *n)
{
    const char *p = text;
    *n = 0;
    for (;;) {
        char *end;
        errno = 0;
        long v = strtol(p, &end, 10);
        if (end == p || errno != 0 || v < least || v > most || (even && v % 2 != 0) ||
            (*end != ',' && *end != '\0') || *n == cap)
            return -1;
        size_t at = *n;
        while (at > 0 && out[at - 1] > v) {
            out[at] = out[at - 1];
            at--;
        }
        if (at > 0 && out[at - 1] == v)
            return -1;
        out[at] = v;
        ++*n;
        if (*end == '\0')
            return 0;
        p = end + 1;
    }
}

/* The paper's processor counts 2, 4, 6, 8 whatever the cores (the ones above them
 * are fitted apart, as oversubscribed), and the cores themselves when more; on
 * MPI started by hand, as far as the job's ranks go. */
static void default_procs(probe_options *o)
{
    int mpi = strcmp(bsp_engine_name(), "mpi") == 0 || strcmp(bsp_engine_name(), "smpi") == 0;
    int most = mpi ? eng_available() : 8; /* bsp_nprocs() would add its note on an error exit */
    o->nprocs = 0;
    for (int P = 2; P <= 8; P += 2)
        if (P <= most || P == 2)
            o->procs[o->nprocs++] = P;
    if (!mpi && o->cores > 8 && o->cores <= MAX_PROCS_VALUE)
        o->procs[o->nprocs++] = o->cores;
}

/* `--engine mpi` from the threads tool: the same options, with the process
 * counts made explicit, to polybsp-probe-mpi beside this program. */
static int start_mpi_probe(int argc, char **argv, const probe_options *o)
{
    char self[PATH_MAX], procs[COST_MAX_PROCS * 12 + 16];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 32);
    if (n <= 0)
        return tool_usage_error("probe: cannot find polybsp-probe-mpi: %s", strerror(errno));
    self[n] = '\0';
    char *slash = strrchr(self, '/');
    strcpy(slash ? slash + 1 : self, "polybsp-probe-mpi");
    int at = snprintf(procs, sizeof procs, "--procs=");
    for (size_t k = 0; k < o->nprocs; k++)
        at += snprintf(procs + at, sizeof procs - (size_t)at, "%s%d", k ? "," : "", o->procs[k]);
    char **args = calloc((size_t)argc + 2, sizeof *args);
    if (!args)
        return tool_usage_error("probe: out of memory");
    args[0] = self;
    memcpy(args + 1, argv + 1, (size_t)(argc - 1) * sizeof *args);
    args[argc] = procs;
    int status = tool_exec_mpi("probe", probe_most_procs(o), args);
    free(args);
    return status;
}

/* `--engine smpi` from the threads tool: the same options, with the process
 * counts made explicit, to polybsp-probe-smpi.so beside this program, through
 * polybsp-smpirun. */
static int start_smpi_probe(int argc, char **argv, const probe_options *o, const char *platform,
                            const char *hostfile)
{
    char procs[COST_MAX_PROCS * 12 + 16];
    int at = snprintf(procs, sizeof procs, "--procs=");
    for (size_t k = 0; k < o->nprocs; k++)
        at += snprintf(procs + at, sizeof procs - (size_t)at, "%s%d", k ? "," : "", o->procs[k]);
    return tool_exec_smpi_sibling("probe", "polybsp-probe-smpi.so", platform, hostfile,
                                  probe_most_procs(o), argc, argv, procs);
}

/* What the arguments of probe say, beside probe_options. */
typedef struct probe_args {
    probe_options *o;
    int procs_given, sizes_given;
    bool quiet;
    const char *engine, *platform, *hostfile;
} probe_args;

enum {
    OPT_QUICK,
    OPT_QUIET,
    OPT_OUTPUT,
    OPT_RAW,
    OPT_BUDGET,
    OPT_PROCS,
    OPT_SIZES,
    OPT_DBSP_PROCS,
    OPT_EXPERIMENTS,
    OPT_PLATFORM,
    OPT_HOSTFILE,
    OPT_ENGINE,
    NOPTS
};
static const tool_opt probe_opts[NOPTS] = {[OPT_QUICK] = {"--quick", false},
                                           [OPT_QUIET] = {"-q|--quiet", false},
                                           [OPT_OUTPUT] = {"-o|--output", true},
                                           [OPT_RAW] = {"--raw", true},
                                           [OPT_BUDGET] = {"--budget", true},
                                           [OPT_PROCS] = {"-p|--procs", true},
                                           [OPT_SIZES] = {"--sizes", true},
                                           [OPT_DBSP_PROCS] = {"--dbsp-procs", true},
                                           [OPT_EXPERIMENTS] = {"--experiments", true},
                                           [OPT_PLATFORM] = {"--platform", true},
                                           [OPT_HOSTFILE] = {"--hostfile", true},
                                           [OPT_ENGINE] = {"--engine", true}};

static int on_probe_option(void *ctx, int opt, const char *v)
{
    probe_args *a = ctx;
    probe_options *o = a->o;
    long n;
    switch (opt) {
    case TOOL_ARG:
        return tool_usage_error("probe: unexpected argument '%s' (try 'polybsp probe --help')", v);
    case OPT_QUICK: o->quick = 1; return 0;
    case OPT_QUIET: a->quiet = true; return 0;
    case OPT_OUTPUT: o->output = v; return 0;
    case OPT_RAW: o->raw = v; return 0;
    case OPT_BUDGET: {
        char *end;
        errno = 0;
        o->budget = strtod(v, &end);
        if (end == v || *end != '\0' || errno != 0 || !(o->budget > 0) || o->budget > 86400)
            return tool_usage_error(
                "probe: invalid budget '%s' (expected seconds, a number in (0, 86400])", v);
        return 0;
    }
    case OPT_PROCS: {
        long list[COST_MAX_PROCS];
        if (parse_list(v, 2, MAX_PROCS_VALUE, 0, list, COST_MAX_PROCS, &o->nprocs) != 0)
            return tool_usage_error("probe: invalid process counts '%s' (expected up to %d "
                                    "different integers in [2, %d], comma-separated)",
                                    v, COST_MAX_PROCS, MAX_PROCS_VALUE);
        for (size_t k = 0; k < o->nprocs; k++)
            o->procs[k] = (int)list[k];
        a->procs_given = 1;
        return 0;
    }
    case OPT_SIZES:
        if (parse_list(v, 2, PROBE_MAX_BYTES, 1, o->sizes, COST_MAX_SIZES, &o->nsizes) != 0 ||
            o->nsizes < 2)
            return tool_usage_error("probe: invalid sizes '%s' (expected 2 to %d different "
                                    "even byte counts in [2, %ld], comma-separated)",
                                    v, COST_MAX_SIZES, PROBE_MAX_BYTES);
        a->sizes_given = 1;
        return 0;
    case OPT_DBSP_PROCS:
        if (tool_integer(v, 2, MAX_PROCS_VALUE, &n) != 0)
            return tool_usage_error(
                "probe: invalid --dbsp-procs '%s' (expected an integer in [2, %d])", v,
                MAX_PROCS_VALUE);
        o->dbsp_procs = (int)n;
        return 0;
    case OPT_EXPERIMENTS:
        if (tool_integer(v, 1, PROBE_MAX_EXPERIMENTS, &n) != 0)
            return tool_usage_error("probe: invalid number of experiments '%s' (expected an "
                                    "integer in [1, %d])",
                                    v, PROBE_MAX_EXPERIMENTS);
        o->experiments = (int)n;
        return 0;
    case OPT_PLATFORM: a->platform = v; return 0;
    case OPT_HOSTFILE: a->hostfile = v; return 0;
    default: /* OPT_ENGINE */
        if (!tool_engine_available(v))
            return tool_usage_error("probe: engine '%s' is not available (available: %s)", v,
                                    tool_engine_list());
        a->engine = v;
        return 0;
    }
}

int cmd_probe(int argc, char **argv)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    probe_options o = {
        .output = "polybsp-machine.json", .budget = 40.0, .cores = cores > 0 ? (int)cores : 1};
    probe_args a = {.o = &o, .engine = bsp_engine_name()};
    /* A simulated platform has the cores its file says: no P is oversubscribed. */
    int simulated = strcmp(bsp_engine_name(), "smpi") == 0;
    int rc = tool_parse_args("probe", cmd_probe_help, argc, argv, probe_opts, NOPTS,
                             on_probe_option, &a, NULL);
    if (rc != 0)
        return rc < 0 ? 0 : rc;
    const char *engine = a.engine, *platform = a.platform, *hostfile = a.hostfile;
    bool quiet = a.quiet;
    int procs_given = a.procs_given, sizes_given = a.sizes_given;
    if (!procs_given)
        default_procs(&o);
    if (simulated) {
        o.simulated = 1;
        o.cores = probe_most_procs(&o);
    }
    if ((platform || hostfile) && strcmp(engine, "smpi") != 0)
        return tool_usage_error("probe: %s is for --engine smpi only",
                                platform ? "--platform" : "--hostfile");
    if (!sizes_given) {
        const long *sizes = o.quick ? probe_quick_sizes : probe_default_sizes;
        o.nsizes = o.quick ? probe_quick_nsizes : probe_default_nsizes;
        memcpy(o.sizes, sizes, o.nsizes * sizeof *sizes);
    }
    /* Refused before minutes are spent measuring. */
    int status = tool_out_check("probe", o.output);
    if (status == 0 && o.raw)
        status = tool_out_check("probe", o.raw);
    if (status != 0)
        return status;
    if (strcmp(engine, bsp_engine_name()) != 0) {
        if (strcmp(engine, "mpi") == 0)
            return start_mpi_probe(argc, argv, &o);
        if (strcmp(engine, "smpi") == 0)
            return start_smpi_probe(argc, argv, &o, platform, hostfile);
        return tool_usage_error("probe: this is the MPI engine's probe; run 'polybsp probe' for "
                                "engine '%s'",
                                engine);
    }

    tool_progress pr;
    tool_progress_init(&pr, "probe", quiet);
    o.progress = tool_progress_probe;
    o.ctx = &pr;
    bsp_init(probe_spmd, argc, argv);
    char err[512];
    if (probe_run(&o, stdout, err, sizeof err) != 0) {
        fprintf(stderr, "polybsp: probe: %s\n", err);
        return 1;
    }
    return 0;
}
