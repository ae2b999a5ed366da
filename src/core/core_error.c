/* core_error — fatal reports, and reporters for crashes and exits inside a run. */
#define _DEFAULT_SOURCE 1 /* on_exit, SIGSTKSZ, sigaltstack (1: as smpicc's own definition) */
#include "core/core_error.h"

#include "core/core.h"
#include "core/core_stop.h"
#include "engine/engine.h"

#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static atomic_int reported;

/* The first report of the run wins: among this process's threads by the flag,
 * among the engine's processes (MPI ranks) by eng_first_report. A loser stays
 * silent and waits to be stopped; the flag stays set either way, so that a
 * second error of this process asks nobody again. Async-signal-safe. */
static int first_report(void) { return !atomic_exchange(&reported, 1) && eng_first_report(); }

static CORE_NORETURN void wait_for_exit(void)
{
    for (;;)
        pause();
}

void core_vfatal_as(long pid, unsigned long step, const char *call, const char *fmt, va_list ap)
{
    if (!first_report())
        wait_for_exit(); /* another process is already stopping the run */
    char line[1024];
    int n = pid >= 0 ? snprintf(line, sizeof line, "polybsp: process %ld, superstep %lu: %s: ", pid,
                                step, call)
                     : snprintf(line, sizeof line, "polybsp: %s: ", call);
    if (n < 0)
        n = 0;
    vsnprintf(line + n, sizeof line - (size_t)n, fmt, ap);
    size_t len = strlen(line);
    while (len && line[len - 1] == '\n')
        line[--len] = '\0';
    fflush(stdout);
    fprintf(stderr, "%s\n", line);
    fflush(stderr);
    if (core_self)
        core_trace_write(core_self->run, "aborted", line);
    core_stop_cleanup(); /* a tool's temporary files go, as on a stop */
    eng_abort(1);
}

void core_fatal_as(long pid, unsigned long step, const char *call, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    core_vfatal_as(pid, step, call, fmt, ap);
}

void core_fatal(const char *call, const char *fmt, ...)
{
    const core_proc *p = core_self;
    va_list ap;
    va_start(ap, fmt);
    core_vfatal_as(p ? p->pid : -1, p ? p->step : 0, call, fmt, ap);
}

void core_fatal_oom(const char *what) { core_fatal("polybsp", "out of memory for the %s", what); }

/* Signal handlers may only use async-signal-safe calls: build the line by hand. */
static size_t put_str(char *b, size_t at, const char *s)
{
    while (*s && at < 255)
        b[at++] = *s++;
    return at;
}

static size_t put_num(char *b, size_t at, unsigned long v)
{
    char d[24];
    int n = 0;
    do {
        d[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (n && at < 255)
        b[at++] = d[--n];
    return at;
}

static const char *signal_name(int sig)
{
    switch (sig) {
    case SIGSEGV: return "SIGSEGV";
    case SIGBUS: return "SIGBUS";
    case SIGFPE: return "SIGFPE";
    case SIGILL: return "SIGILL";
    case SIGABRT: return "SIGABRT";
    default: return "signal";
    }
}

static const int crash_signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
enum { NCRASH = sizeof crash_signals / sizeof crash_signals[0] };
static struct sigaction crash_before[NCRASH]; /* the handlers this one replaced */

#ifdef POLYBSP_SMPI
#include <simgrid/actor.h>
/* Under SMPI every rank is an actor of one process, with its own copy of this
 * file, and a signal handler is the process's: the last rank to install its own
 * has it. Each copy's handler hands a crash that is not its own rank's to the
 * handler its rank replaced, down to the crashed rank's. */
static aid_t own_actor;

static int pass_on(int sig)
{
    if (sg_actor_self_get_pid() == own_actor)
        return 0;
    for (int i = 0; i < NCRASH; i++)
        if (crash_signals[i] == sig && crash_before[i].sa_handler != SIG_DFL &&
            crash_before[i].sa_handler != SIG_IGN) {
            crash_before[i].sa_handler(sig);
            return 1;
        }
    return 0;
}
#endif

static void on_crash(int sig)
{
#ifdef POLYBSP_SMPI
    if (pass_on(sig))
        return;
#endif
    const core_proc *p = core_self;
    /* A thread of this process that crashes while another one reports waits
     * for that one to end the process: raising at once would end it before the
     * line is out (every process of fault.all.crash stores through NULL at once). */
    if (p && atomic_exchange(&reported, 1))
        wait_for_exit();
    if (p && eng_first_report()) {
        char b[256];
        size_t n = put_str(b, 0, "polybsp: process ");
        n = put_num(b, n, (unsigned long)p->pid);
        n = put_str(b, n, ", superstep ");
        n = put_num(b, n, p->step);
        n = put_str(b, n, ": killed by signal ");
        n = put_num(b, n, (unsigned long)sig);
        n = put_str(b, n, " (");
        n = put_str(b, n, signal_name(sig));
        n = put_str(b, n, ")\n");
        ssize_t w = write(STDERR_FILENO, b, n);
        (void)w;
    }
    core_stop_cleanup();
    signal(sig, SIG_DFL);
    raise(sig);
}

/* The line for exit(status) called by process p inside the section, and the
 * end of the run. */
static CORE_NORETURN void report_exit(const core_proc *p, int status)
{
    fflush(stdout);
    char line[160];
    snprintf(line, sizeof line,
             "polybsp: process %d, superstep %lu: exit(%d) called inside the SPMD section", p->pid,
             p->step, status);
    fprintf(stderr, "%s\n", line);
    fflush(stderr);
    core_trace_write(p->run, "aborted", line);
    core_stop_cleanup();
    /* Leaving a run half-way is not a success; and the engine stops every
     * process (rank) with this status, rather than leaving that to chance. */
    eng_abort(status ? status : 1);
}

void core_report_exit(int status)
{
    const core_proc *p = core_self;
    if (p && !p->ended_how && first_report())
        report_exit(p, status);
}

static void on_exit_inside(int status, void *arg)
{
    (void)arg;
    static _Thread_local int exiting; /* an exit inside eng_abort (MPI_Abort) goes on */
    const core_proc *p = core_self;
    if (exiting || !p || p->ended_how)
        return;
    exiting = 1;
    /* glibc runs each handler once: another thread calling exit at the same
     * time would find none and end the process before this one's line is out
     * (every process of fault.all.exit under TSan). Registered again, the
     * handler stops that thread too, and it waits for this one to end the run. */
    on_exit(on_exit_inside, NULL);
    if (!first_report())
        wait_for_exit();
    report_exit(p, status);
}

void core_install_reporters(void)
{
    static atomic_int installed;
    if (atomic_exchange(&installed, 1))
        return;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_crash;
    sa.sa_flags = SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
#ifdef POLYBSP_SMPI
    own_actor = sg_actor_self_get_pid();
#endif
    for (int i = 0; i < NCRASH; i++)
        sigaction(crash_signals[i], &sa, &crash_before[i]);
    on_exit(on_exit_inside, NULL);
}

int core_altstack_push(core_altstack *a)
{
    a->mem = malloc(SIGSTKSZ);
    if (!a->mem)
        return -1;
    stack_t ss = {.ss_sp = a->mem, .ss_size = SIGSTKSZ, .ss_flags = 0};
    sigaltstack(&ss, &a->old);
    return 0;
}

void core_altstack_pop(core_altstack *a)
{
    if (!a->mem)
        return;
    sigaltstack(&a->old, NULL);
    free(a->mem);
    a->mem = NULL;
}
