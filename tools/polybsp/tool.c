/* tool.c — helpers shared by the subcommands: usage errors, help flags, engines. */
#define _XOPEN_SOURCE 700 /* nftw */
#include "tool.h"

#include "mpi_output.h"

#include "core/core_file.h"
#include "core/core_rate.h"
#include "core/core_stop.h"
#include "cost/cost_model.h"

#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* The MPI engine is there when polybsp was built with MPI (libpolybsp_mpi), the
 * smpi engine when it was built with SimGrid (libpolybsp_smpi). */
const char *const tool_engines[] = {"threads",
#ifdef POLYBSP_MPIEXEC
                                    "mpi",
#endif
#ifdef POLYBSP_SMPI
                                    "smpi",
#endif
                                    NULL};

int tool_usage_error(const char *format, ...)
{
    va_list ap;
    fputs("polybsp: ", stderr);
    va_start(ap, format);
    vfprintf(stderr, format, ap);
    va_end(ap);
    fputc('\n', stderr);
    return TOOL_EXIT_USAGE;
}

bool tool_is_help(const char *arg)
{
    return strcmp(arg, "help") == 0 || strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0;
}

void tool_print_help(const char *const *help)
{
    for (; *help != NULL; help++)
        fputs(*help, stdout);
}

const char *tool_option_value(int argc, char **argv, int *i, const char *name, int *missing)
{
    size_t len = strlen(name);
    if (strncmp(argv[*i], name, len) != 0)
        return NULL;
    if (argv[*i][len] == '=' && name[1] == '-')
        return argv[*i] + len + 1;
    if (argv[*i][len] != '\0')
        return NULL;
    if (*i + 1 >= argc) {
        *missing = 1;
        return NULL;
    }
    return argv[++*i];
}

/* The index of the option that argv[*i] spells in opts, its value in *value
 * (advancing *i past a separate one), or -1; *missing for one without value. */
static int match_option(int argc, char **argv, int *i, const tool_opt *opts, int nopts,
                        const char **value, int *missing)
{
    const char *arg = argv[*i];
    for (int k = 0; k < nopts; k++)
        for (const char *name = opts[k].names; *name;) {
            size_t len = strcspn(name, "|");
            char spelled[64];
            snprintf(spelled, sizeof spelled, "%.*s", (int)len, name);
            name += len + (name[len] == '|');
            if (!opts[k].value) {
                if (strcmp(arg, spelled) == 0) {
                    *value = NULL;
                    return k;
                }
            } else if ((*value = tool_option_value(argc, argv, i, spelled, missing)) != NULL) {
                return k;
            } else if (*missing) {
                return -1;
            } else if (len == 2 && strncmp(arg, spelled, 2) == 0 && arg[2] != '\0') {
                *value = arg + 2; /* -p4, as getopt accepts */
                return k;
            }
        }
    return -1;
}

int tool_parse_args(const char *cmd, const char *const *help, int argc, char **argv,
                    const tool_opt *opts, int nopts,
                    int (*on)(void *ctx, int opt, const char *value), void *ctx, int *rest)
{
    int i = 1;
    for (; i < argc; i++) {
        const char *arg = argv[i], *value = NULL;
        int missing = 0, status;
        if (tool_is_help(arg)) {
            tool_print_help(help);
            return -1;
        }
        if (rest && strcmp(arg, "--") == 0) {
            i++;
            break;
        }
        int k = match_option(argc, argv, &i, opts, nopts, &value, &missing);
        if (missing)
            return tool_usage_error("%s: option '%s' needs a value", cmd, arg);
        if (k < 0 && arg[0] == '-' && arg[1] != '\0')
            return tool_usage_error("%s: unknown option '%s' (try 'polybsp %s --help')", cmd, arg,
                                    cmd);
        if (k < 0 && rest)
            break;
        if ((status = on(ctx, k < 0 ? TOOL_ARG : k, k < 0 ? arg : value)) != 0)
            return status;
    }
    if (rest)
        *rest = i;
    return 0;
}

int tool_integer(const char *text, long least, long most, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (end == text || *end != '\0' || errno != 0 || v < least || v > most)
        return -1;
    *out = v;
    return 0;
}

int tool_choice(const char *cmd, const char *what, const char *value, const char *const *names,
                int n)
{
    for (int k = 0; k < n; k++)
        if (strcmp(value, names[k]) == 0)
            return k;
    char list[256];
    size_t at = 0;
    list[0] = '\0';
    for (int k = 0; k < n && at < sizeof list; k++)
        at += (size_t)snprintf(list + at, sizeof list - at, "%s%s",
                               k == 0       ? ""
                               : k == n - 1 ? " or "
                                            : ", ",
                               names[k]);
    tool_usage_error("%s: unknown %s '%s' (expected %s)", cmd, what, value, list);
    return -1;
}

/* In the order of the choice's message. */
enum { PLAIN_BSP, PLAIN_PATTERNS, NPLAINS };
static const char *const ccm_plain_names[NPLAINS] = {
    [PLAIN_BSP] = "bsp", [PLAIN_PATTERNS] = "patterns"};

int tool_ccm_plain(const char *cmd, const char *value, int *flags)
{
    int k = tool_choice(cmd, "CCM plain superstep", value, ccm_plain_names, NPLAINS);
    if (k < 0)
        return TOOL_EXIT_USAGE;
    *flags = k == PLAIN_BSP ? *flags | COST_CCM_PLAIN_BSP : *flags & ~COST_CCM_PLAIN_BSP;
    return 0;
}

const char *tool_ccm_plain_name(int flags)
{
    return ccm_plain_names[flags & COST_CCM_PLAIN_BSP ? PLAIN_BSP : PLAIN_PATTERNS];
}

int tool_out_check(const char *cmd, const char *path)
{
    char dir[PATH_MAX], why[256];
    const char *slash = strrchr(path, '/');
    if (slash == NULL)
        strcpy(dir, ".");
    else
        snprintf(dir, sizeof dir, "%.*s", (int)(slash == path ? 1 : slash - path), path);
    if (path[0] == '\0' || (slash != NULL && slash[1] == '\0'))
        return tool_usage_error("%s: cannot write '%s': %s", cmd, path, strerror(EISDIR));
    if (core_file_check(path, why, sizeof why) != 0)
        return tool_usage_error("%s: cannot write '%s': %s", cmd, path, why);
    if (access(dir, W_OK) != 0)
        return tool_usage_error("%s: cannot write '%s': %s", cmd, path, strerror(errno));
    return 0;
}

int tool_out_open(tool_out *o, const char *cmd, const char *path)
{
    char why[256];
    memset(o, 0, sizeof *o);
    o->cmd = cmd;
    o->path = path;
    if (core_file_create(&o->file, path, why, sizeof why) != 0)
        return tool_usage_error("%s: cannot write '%s': %s", cmd, path, why);
    o->f = o->file.f;
    return 0;
}

int tool_out_close(tool_out *o)
{
    char why[256];
    o->f = NULL;
    if (core_file_commit(&o->file, why, sizeof why) == 0)
        return 0;
    fprintf(stderr, "polybsp: %s: cannot write '%s': %s\n", o->cmd, o->path, why);
    return 1;
}

bool tool_engine_available(const char *name)
{
    for (const char *const *e = tool_engines; *e != NULL; e++) {
        if (strcmp(*e, name) == 0)
            return true;
    }
    return false;
}

const char *tool_engine_list(void)
{
    static char list[256];
    size_t used = 0;
    list[0] = '\0';
    for (const char *const *e = tool_engines; *e != NULL; e++) {
        int n = snprintf(list + used, sizeof list - used, "%s%s", used > 0 ? ", " : "", *e);
        if (n < 0 || (size_t)n >= sizeof list - used)
            break;
        used += (size_t)n;
    }
    return list;
}

#ifdef POLYBSP_MPIEXEC_IS_OPEN_MPI
static int remove_entry(const char *path, const struct stat *st, int kind, struct FTW *at)
{
    (void)st, (void)kind, (void)at;
    remove(path);
    return 0; /* on with the rest: what stays makes the final rmdir fail */
}

/* The job's own session directory goes whole. Open MPI empties it when the job
 * ends by itself or by one stop signal, not when it is aborted at once (a
 * second SIGTERM: see below; 3 of 5 such runs left 8 MB behind); no other job
 * uses it (tool_exec_mpi made it for this one). Ranks killed with mpiexec
 * may still be going for a moment: a few tries, 50 ms apart. Links are
 * removed, never followed (FTW_PHYS), and no other file system entered. */
static void remove_session(const char *dir)
{
    const struct timespec nap = {0, 50 * 1000 * 1000};
    for (int tries = 0; tries < 20; tries++) {
        nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS | FTW_MOUNT);
        if (access(dir, F_OK) != 0)
            return;
        nanosleep(&nap, NULL);
    }
}
#endif

#ifdef POLYBSP_MPIEXEC
/* mpiexec runs as a child, so that a rank killed by SIGKILL, which no handler
 * of the rank can report, still gets its line; a stop signal meant for the job
 * must then reach mpiexec, and exactly once: Open MPI's mpirun takes a second
 * SIGTERM as "abort at once" and leaves its ranks (each in a process group of
 * its own) running and its session directory behind. `timeout` sends its
 * signal to the child and then to the child's process group, so a job whose
 * mpiexec shared polybsp's group got two (3 of 5 such runs left 8 MB and their
 * ranks). Hence:
 *  - not in the foreground of a terminal (batch jobs, `timeout`, `&`): mpiexec
 *    gets a process group of its own, which no group signal reaches, and
 *    polybsp passes SIGINT, SIGQUIT, SIGTERM and SIGHUP on to it, the first
 *    one only;
 *  - in the foreground of a terminal: the terminal's interrupt, quit and
 *    hangup reach the whole foreground group, mpiexec with it, and are ignored
 *    here (as system(3) does); a SIGTERM, which on a terminal comes from a
 *    `kill PID` of polybsp alone, is passed on, once.
 * Once mpiexec has ended, the signal takes its course here. A signal ignored
 * before (nohup) stays so. */
enum { NSTOPS = 4 };
static const int stop_signals[NSTOPS] = {SIGINT, SIGQUIT, SIGTERM, SIGHUP};
static volatile pid_t job_pid;           /* mpiexec, while tool_exec_mpi waits; 0 before */
static volatile sig_atomic_t job_stop;   /* the first stop signal, or 0 */
static volatile sig_atomic_t job_passed; /* it was passed on to mpiexec */

static void pass_stop(int sig)
{
    if (!job_stop)
        job_stop = sig;
    if (job_pid > 0 && !job_passed) {
        job_passed = 1;
        kill(job_pid, job_stop);
    }
}

/* What each stop signal does while the job runs; old[] keeps what it did. */
static void job_signals_set(int own_group, struct sigaction old[NSTOPS])
{
    struct sigaction ignore = {.sa_handler = SIG_IGN}, pass = {.sa_handler = pass_stop};
    sigemptyset(&ignore.sa_mask);
    sigemptyset(&pass.sa_mask);
    for (int k = 0; k < NSTOPS; k++) {
        sigaddset(&pass.sa_mask, stop_signals[k]); /* one handler at a time */
        sigaction(stop_signals[k], NULL, &old[k]);
    }
    job_pid = 0;
    job_stop = 0;
    job_passed = 0;
    for (int k = 0; k < NSTOPS; k++) {
        if (old[k].sa_handler == SIG_IGN)
            continue;
        int passed = own_group || stop_signals[k] == SIGTERM;
        sigaction(stop_signals[k], passed ? &pass : &ignore, NULL);
    }
}

static void job_signals_restore(const struct sigaction old[NSTOPS])
{
    for (int k = 0; k < NSTOPS; k++)
        sigaction(stop_signals[k], &old[k], NULL);
}

/* Whether polybsp runs in the foreground of a terminal (its interrupts are
 * the terminal's, and reach the whole foreground group). */
static int on_terminal(void)
{
    return isatty(STDIN_FILENO) && tcgetpgrp(STDIN_FILENO) == getpgrp();
}
#endif

int tool_exec_mpi(const char *cmd, long np, char *const *argv)
{
    return tool_exec_mpi_to(cmd, np, argv, NULL);
}

int tool_exec_mpi_to(const char *cmd, long np, char *const *argv, const char *output_dir)
{
#ifdef POLYBSP_MPIEXEC
    size_t n = 0;
    while (argv[n] != NULL)
        n++;
    char **args = calloc(n + 9, sizeof *args);
    if (args == NULL) {
        fprintf(stderr, "polybsp: %s: out of memory\n", cmd);
        return 1;
    }
    char count[32];
    snprintf(count, sizeof count, "%ld", np);
    size_t k = 0;
    args[k++] = (char *)POLYBSP_MPIEXEC;
#ifdef POLYBSP_MPIEXEC_IS_OPEN_MPI
    args[k++] = (char *)"--oversubscribe"; /* more ranks than cores is allowed */
    /* No banners after polybsp's own one line (MPI_Abort's, a rank's non-zero
     * exit): the lines polybsp cannot print itself are added below. */
    args[k++] = (char *)"--quiet";
    /* Each piece of output names its rank, so that mpi_output can put every
     * rank's lines back together; the ranks write a line at a time (their
     * engine reads POLYBSP_MPI_LINES), so that what stays unfinished is a
     * prompt, shown after a moment, and not the end of a full buffer. */
    args[k++] = (char *)"--tag-output";
    setenv("POLYBSP_MPI_LINES", "1", 1);
    args[k++] = (char *)"-x";
    args[k++] = (char *)"POLYBSP_MPI_LINES";
    if (geteuid() == 0) { /* Open MPI refuses root unless told twice */
        setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 1);
        setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 1);
    }
    /* Open MPI keeps a job's session files under one directory per user and
     * host (/tmp/ompi.<host>.<uid>), which one job can remove while another
     * creates it: two jobs started at once can fail with "mkdir ... File
     * exists" (seen in CI with two mpiruns). Unless the user chose the base,
     * every job gets one of its own; Open MPI empties it at the job's end. */
    char session[4096] = "";
    int session_stop = -1;
    if (getenv("OMPI_MCA_orte_tmpdir_base") == NULL) {
        snprintf(session, sizeof session, "%s/polybsp-mpi.XXXXXX", core_file_tmpdir());
        if (mkdtemp(session) != NULL) {
            setenv("OMPI_MCA_orte_tmpdir_base", session, 1);
            session_stop = core_stop_remove(session, 1);
        } else {
            session[0] = '\0'; /* the shared directory, as before */
        }
    }
#endif
    if (np > 0) {
        args[k++] = (char *)"-np";
        args[k++] = count;
    }
    memcpy(args + k, argv, (n + 1) * sizeof *args);
    mpi_output *output = NULL;
#ifdef POLYBSP_MPIEXEC_IS_OPEN_MPI
    if ((output = mpi_output_open(cmd, output_dir)) == NULL) {
        free(args);
        return 1;
    }
#else
    if (output_dir != NULL) {
        free(args);
        return tool_usage_error("%s: --output-dir needs Open MPI's mpiexec", cmd);
    }
#endif
    /* The stop signals are in place before the fork, so that none falls
     * between the two (see job_signals_set). */
    int own_group = !on_terminal();
    struct sigaction old[NSTOPS];
    job_signals_set(own_group, old);
    pid_t parent = getpid();
    pid_t child = fork();
    if (child == 0) {
        if (own_group)
            setpgid(0, 0);
        /* Should polybsp die first (SIGKILL), mpiexec, whose group no
         * signal to polybsp's reaches, still ends its ranks. */
        prctl(PR_SET_PDEATHSIG, SIGTERM);
        if (getppid() != parent)
            _exit(128 + SIGTERM);
        /* mpiexec takes the signals as polybsp had them (exec resets the
         * pass-on handlers by itself, not what is ignored). */
        job_signals_restore(old);
        if (output != NULL)
            mpi_output_child(output);
        execv(args[0], args);
        fprintf(stderr, "polybsp: %s: cannot run '%s': %s\n", cmd, args[0], strerror(errno));
        _exit(127);
    }
    free(args);
    int status = 0;
    if (child > 0) {
        if (own_group)
            setpgid(child, child); /* as the child does: whichever runs first */
        sigset_t stops, before;
        sigemptyset(&stops);
        for (int k = 0; k < NSTOPS; k++)
            sigaddset(&stops, stop_signals[k]);
        sigprocmask(SIG_BLOCK, &stops, &before);
        job_pid = child;
        if (job_stop && !job_passed) { /* arrived before job_pid was known */
            job_passed = 1;
            kill(child, job_stop);
        }
        sigprocmask(SIG_SETMASK, &before, NULL);
        if (output != NULL)
            mpi_output_pump(output, child);
        while (waitpid(child, &status, 0) < 0 && errno == EINTR)
            continue;
    } else {
        fprintf(stderr, "polybsp: %s: cannot start '%s': %s\n", cmd, POLYBSP_MPIEXEC,
                strerror(errno));
        if (output != NULL)
            mpi_output_pump(output, child); /* nothing comes: frees it */
    }
    job_pid = 0;
    job_signals_restore(old);
#ifdef POLYBSP_MPIEXEC_IS_OPEN_MPI
    if (session[0]) { /* the job's own session directory goes */
        core_stop_forget(session_stop);
        remove_session(session);
        unsetenv("OMPI_MCA_orte_tmpdir_base");
    }
#endif
    if (job_stop)
        raise(job_stop);
    if (child < 0)
        return 1;
    if (job_stop || WIFSIGNALED(status))
        return 128 + (job_stop ? job_stop : WTERMSIG(status));
    int code = WEXITSTATUS(status);
    if (code == 128 + SIGKILL)
        fprintf(stderr, "polybsp: %s: a process was killed by signal %d (SIGKILL)\n", cmd, SIGKILL);
    return code;
#else
    (void)np;
    (void)argv;
    (void)output_dir;
    return tool_usage_error("%s: engine 'mpi' is not available (available: %s)", cmd,
                            tool_engine_list());
#endif
}

/* self = the path of program `sibling` in this program's directory; 0, or -1
 * after one line `polybsp: CMD: cannot find ...`. */
static int sibling_path(const char *cmd, const char *sibling, char self[PATH_MAX])
{
    ssize_t n = readlink("/proc/self/exe", self, PATH_MAX - 1);
    self[n > 0 ? n : 0] = '\0';
    char *slash = strrchr(self, '/');
    if (!slash || (size_t)(slash + 1 - self) + strlen(sibling) >= PATH_MAX) {
        tool_usage_error("%s: cannot find %s: %s", cmd, sibling,
                         n <= 0 ? strerror(errno) : "path too long");
        return -1;
    }
    strcpy(slash + 1, sibling);
    return 0;
}

int tool_exec_sibling(const char *cmd, const char *sibling, long np, int argc, char **argv)
{
    char self[PATH_MAX];
    if (sibling_path(cmd, sibling, self) != 0)
        return TOOL_EXIT_USAGE;
    char **args = calloc((size_t)argc + 1, sizeof *args);
    if (!args)
        return tool_usage_error("%s: out of memory", cmd);
    args[0] = self;
    memcpy(args + 1, argv + 1, (size_t)(argc - 1) * sizeof *args);
    int status = tool_exec_mpi(cmd, np, args);
    free(args);
    return status;
}

#ifdef POLYBSP_SMPI
/* The library charges a rank's computation, timed on this machine, as if this
 * machine ran smpi/host-speed flop/s, over the simulated host's speed. Its
 * default (20 kflop/s) makes any computation almost free and loops that wait
 * for simulated time to pass almost endless (the probe's rate). Unless
 * POLYBSP_SMPI_FLAGS sets it, it is this machine's DAXPY rate on a thread's CPU
 * clock (core_rate_here), the rate a trace taken here records: a trace from
 * here predicted for a simulated platform scales its work as the simulator
 * charges it. */
static void default_host_speed(void)
{
    const char *flags = getenv("POLYBSP_SMPI_FLAGS");
    if (flags != NULL && strstr(flags, "smpi/host-speed") != NULL)
        return;
    char value[4096];
    snprintf(value, sizeof value, "--cfg=smpi/host-speed:%.0ff%s%s", core_rate_here(),
             flags ? " " : "", flags ? flags : "");
    setenv("POLYBSP_SMPI_FLAGS", value, 1);
}
#endif

int tool_exec_smpi(const char *cmd, const char *platform, const char *hostfile, long np,
                   char *const *argv)
{
#ifdef POLYBSP_SMPI
    if (argv != NULL)
        default_host_speed();
    char launcher[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", launcher, sizeof launcher);
    char *slash = NULL;
    if (len > 0 && (size_t)len < sizeof launcher) {
        launcher[len] = '\0';
        slash = strrchr(launcher, '/');
    }
    const char name[] = "/polybsp-smpirun";
    if (slash == NULL || (size_t)(slash - launcher) + sizeof name > sizeof launcher) {
        fprintf(stderr, "polybsp: %s: cannot find polybsp-smpirun beside polybsp\n", cmd);
        return 127;
    }
    memcpy(slash, name, sizeof name);
    size_t n = 0;
    while (argv != NULL && argv[n] != NULL)
        n++;
    char **args = calloc(n + 6, sizeof *args);
    if (args == NULL) {
        fprintf(stderr, "polybsp: %s: out of memory\n", cmd);
        return 1;
    }
    char count[32] = "";
    if (np > 0)
        snprintf(count, sizeof count, "%ld", np);
    args[0] = launcher;
    if (argv == NULL) {
        args[1] = (char *)"--list";
    } else {
        args[1] = (char *)cmd;
        args[2] = (char *)(platform != NULL ? platform : "");
        args[3] = (char *)(hostfile != NULL ? hostfile : "");
        args[4] = count;
        memcpy(args + 5, argv, (n + 1) * sizeof *args);
    }
    execv(args[0], args);
    fprintf(stderr, "polybsp: %s: cannot run '%s': %s\n", cmd, args[0], strerror(errno));
    free(args);
    return 127;
#else
    (void)platform, (void)hostfile, (void)np, (void)argv;
    return tool_usage_error("%s: engine 'smpi' is not available (available: %s)", cmd,
                            tool_engine_list());
#endif
}

int tool_exec_smpi_sibling(const char *cmd, const char *sibling, const char *platform,
                           const char *hostfile, long np, int argc, char **argv, const char *extra)
{
    char self[PATH_MAX];
    if (sibling_path(cmd, sibling, self) != 0)
        return TOOL_EXIT_USAGE;
    char **args = calloc((size_t)argc + 2, sizeof *args);
    if (!args)
        return tool_usage_error("%s: out of memory", cmd);
    size_t m = 0;
    args[m++] = self;
    /* The options that chose the engine and the platform are the launcher's. */
    static const char *const skip[] = {"--engine", "--platform", "--hostfile"};
    for (int i = 1; i < argc; i++) {
        int skipped = 0;
        for (size_t k = 0; k < sizeof skip / sizeof *skip && !skipped; k++) {
            size_t len = strlen(skip[k]);
            if (strncmp(argv[i], skip[k], len) == 0 &&
                (argv[i][len] == '\0' || argv[i][len] == '=')) {
                if (argv[i][len] == '\0')
                    i++; /* its value */
                skipped = 1;
            }
        }
        if (!skipped)
            args[m++] = argv[i];
    }
    if (extra)
        args[m++] = (char *)extra;
    /* The probe and the portability suite print their own progress: the
     * engine's line (mpie_progress) would say it twice, unless asked for. */
    setenv("POLYBSP_SMPI_PROGRESS", "0", 0);
    int status = tool_exec_smpi(cmd, platform, hostfile, np, args);
    free(args);
    return status;
}
