/* thr_engine — thread start-up, the closing barrier and tear-down.
 *
 * A thread that runs a process and ends without leaving the section (pthread_exit
 * or cancellation in the SPMD function, on a worker or on process 0's own thread)
 * stops the run as it ends: a thread-specific value holds its process until it
 * has left, and the value's destructor, run as the thread ends, reports it. */
#include "engine/engine.h"

#include "core/core.h"
#include "core/core_error.h"
#include "core/core_mem.h"
#include "engine/threads/thr_place.h"
#include "engine/threads/thr_solo.h"
#include "engine/threads/thr_watch.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Without bsp_init, the other processes run main itself (the standard allows
 * bsp_begin as main's first statement). The weak reference keeps libraries that
 * are linked into programs without bsp_begin in main working. */
extern int main(int, char **) __attribute__((weak));

typedef struct thr_worker {
    pthread_t thread;
    core_proc *proc;
    core_altstack altstack;
} thr_worker;

static struct {
    void (*spmd)(void);
    int argc;
    char **argv;
    atomic_int state;
    core_run *run;
    thr_worker *workers;
    core_altstack altstack; /* process 0's */
    pthread_key_t inside;   /* a thread's process while it runs one */
} g;

static _Thread_local thr_worker *worker; /* NULL on the program's own thread */
static _Thread_local int worker_begun;

/* glibc passes argc and argv to constructors; main() needs them in the workers. */
__attribute__((constructor)) static void capture_args(int argc, char **argv)
{
    g.argc = argc;
    g.argv = argv;
}

void eng_init(void (*spmd)(void), int argc, char **argv)
{
    g.spmd = spmd;
    if (argv) {
        g.argc = argc;
        g.argv = argv;
    }
}

eng_state eng_section_state(void) { return (eng_state)atomic_load(&g.state); }

/* Kept in the program even when unreferenced: `polybsp run` looks for it. */
__attribute__((used)) static const char marker[] = ENG_MARKER "threads";

const char *eng_name(void) { return marker + sizeof ENG_MARKER - 1; }

void eng_abort(int status) { _exit(status); }

int eng_first_report(void) { return 1; } /* one process: core_error's flag is everyone's */

int eng_available(void)
{
    const char *env = getenv("POLYBSP_NPROCS");
    if (env && *env) {
        char *end;
        errno = 0;
        long v = strtol(env, &end, 10);
        if (errno || *end || v < 1 || v > ENG_MAX_NPROCS)
            core_fatal("bsp_nprocs", "POLYBSP_NPROCS=%s is not a positive integer", env);
        return (int)v;
    }
    long cores = thr_place_cores_online();
    return cores > 0 ? (int)cores : 1;
}

int eng_rank(void) { return 0; }

void eng_charge_program(int on) { (void)on; } /* real time: nothing is charged */

static void thread_ended(void *value)
{
    const core_proc *p = value;
    if (!p->ended_how)
        core_fatal_as(p->pid, p->step, "pthread_exit",
                      "the thread of process %d ended inside the SPMD section", p->pid);
}

static pthread_once_t key_once = PTHREAD_ONCE_INIT;
static void make_key(void)
{
    if (pthread_key_create(&g.inside, thread_ended))
        core_fatal("bsp_begin", "cannot create a thread-specific key");
}

/* The calling thread runs p from now on. */
static void enter(core_proc *p, core_altstack *stack)
{
    if (core_altstack_push(stack))
        core_fatal_oom("signal stack");
    core_self = p;
    core_watch_me = thr_watch_slot(p->pid);
    pthread_setspecific(g.inside, p);
}

static void leave(core_altstack *stack)
{
    pthread_setspecific(g.inside, NULL);
    core_watch_me = NULL;
    core_self = NULL;
    core_altstack_pop(stack);
}

/* Writes the top of a new thread's stack once, so that the first syncs' calls,
 * deeper than anything before them, take no page fault inside the sync: the
 * trace counts a sync's faults against its destinations (core_trace_dest).
 * Only for a process traced from the start (POLYBSP_TRACE): the 32 KiB are
 * most of what a process costs (at P = 8192, 230 of 384 MB), and a program
 * that starts tracing later (bsp_trace_begin) has been through syncs before. */
static __attribute__((noinline)) void touch_stack(void)
{
    volatile char top[32768];
    for (size_t i = 0; i < sizeof top; i += 1024)
        top[i] = 0;
}

static void *worker_main(void *arg)
{
    thr_worker *w = arg;
    if (w->proc->tr.on)
        touch_stack();
    enter(w->proc, &w->altstack);
    thr_solo_take();
    core_trace_thread_begins(w->proc);
    worker = w;
    if (g.spmd)
        g.spmd();
    else
        main(g.argc, g.argv);
    core_end(w->proc, CORE_END_RETURNED);
    thr_solo_give();
    leave(&w->altstack);
    return NULL;
}

/* What a process of the threads engine takes, whatever it sends: the stack
 * written before it runs when traced (touch_stack, 32 KiB), its signal stack,
 * its state and its thread's own pages; the descriptors of its out buffers are
 * paid only for the processes it writes to (core_out_clear). Measured: 15 KiB
 * per untraced process at P = 8192, with the 32 KiB rounded up; a trace's own
 * tables and records come on top (docs/reliability.md, "Memory for large P"). */
#define THR_PROC_MEMORY ((size_t)48 << 10)

/* A P that cannot fit in what this program may still use (the machine's
 * available memory, a cgroup's limit: core_mem.h) is refused before anything
 * is allocated, with the largest P that fits, instead of being killed by the
 * kernel while starting, which prints nothing. */
static void check_memory(long long nprocs)
{
    const char *what;
    size_t usable = core_mem_usable(&what);
    double need = (double)THR_PROC_MEMORY * (double)nprocs;
    if (usable == 0 || need <= (double)usable)
        return;
    core_fatal("bsp_begin",
               "%lld processes need about %.1f GiB (%zu KiB each), more than the %.1f GiB this "
               "program may still use (%s): at most %zu processes here",
               nprocs, need / (1 << 30), THR_PROC_MEMORY >> 10, (double)usable / (1 << 30), what,
               usable / THR_PROC_MEMORY);
}

void eng_begin(long long nprocs)
{
    if (worker) { /* started by process 0; the section is already set up */
        if (worker_begun)
            core_fatal("bsp_begin", "called twice (the SPMD section is already running)");
        worker_begun = 1;
        return;
    }
    core_check_begin((eng_state)atomic_load(&g.state), g.spmd != NULL);
    if (nprocs < 1)
        core_fatal("bsp_begin", "number of processes %lld must be at least 1", nprocs);
    if (nprocs > ENG_MAX_NPROCS)
        core_fatal("bsp_begin", "number of processes %lld is more than %d", nprocs, ENG_MAX_NPROCS);
    if (!g.spmd && !main)
        core_fatal("bsp_begin", "without bsp_init, bsp_begin must be called from main");
    check_memory(nprocs);
    core_install_reporters();
    pthread_once(&key_once, make_key);
    double timeout = core_watch_timeout();

    int P = (int)nprocs;
    int *cpu = malloc((size_t)P * sizeof *cpu);
    if (!cpu)
        core_fatal_oom("process table");
    /* Before the run's group: its barrier waits as a solo run's does. */
    size_t footprint;
    int solo = thr_solo_setup(P, &footprint);
    core_stream stream;
    /* Before the clock starts: the first call reads the topology. */
    thr_place_plan(P, solo, cpu, &stream);
    const char *trace = getenv("POLYBSP_TRACE");
    core_run *run = core_run_create(P, 0, P, trace && *trace ? trace : NULL,
                                    g.argv && g.argv[0] ? g.argv[0] : "");
    run->stream_out = stream;
    run->place_payloads = 1;
    run->solo = solo;
    run->solo_footprint = footprint;
    run->t0 = core_now();
    if (run->trace_all)
        for (int i = 0; i < P; i++)
            core_trace_start(run->procs[i]);
    g.run = run;
    g.workers = calloc((size_t)P, sizeof *g.workers);
    if (!g.workers)
        core_fatal_oom("process table");
    if (P > 1)
        thr_watch_start(run, timeout);
    thr_place_hold();
    thr_place_bind(cpu[0]); /* refused (a restricted container): the run goes on unbound */
    enter(run->procs[0], &g.altstack);
    atomic_store(&g.state, ENG_RUNNING);
    for (int i = 1; i < P; i++) {
        thr_worker *w = &g.workers[i];
        w->proc = run->procs[i];
        pthread_attr_t attr;
        pthread_attr_t *use = NULL;
        if (pthread_attr_init(&attr) == 0) {
            use = &attr;
            thr_place_attr(&attr, cpu[i]);
        }
        int err = pthread_create(&w->thread, use, worker_main, w);
        if (use)
            pthread_attr_destroy(&attr);
        if (err)
            core_fatal("bsp_begin", "cannot start process %d: %s", i, strerror(err));
    }
    /* Process 0 made the others' threads: its wall clock keeps that time (it
     * starts late, as REAL shows), its CPU time not (the engine's, not the
     * program's work, which predict --machine scales to another machine). */
    thr_solo_take();
    core_trace_thread_begins(run->procs[0]);
    free(cpu);
}

void eng_end(void)
{
    core_proc *p = core_self;
    core_end(p, CORE_END_CALLED);
    thr_solo_give();
    if (worker) {
        leave(&worker->altstack);
        pthread_exit(NULL);
    }
    core_run *run = g.run;
    for (int i = 1; i < run->nprocs; i++)
        pthread_join(g.workers[i].thread, NULL);
    thr_watch_stop();
    core_trace_finish(run, NULL, 0);
    leave(&g.altstack);
    thr_place_release();
    core_run_destroy(run);
    free(g.workers);
    g.run = NULL;
    g.workers = NULL;
    atomic_store(&g.state, ENG_AFTER);
}
