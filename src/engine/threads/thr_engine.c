/* thr_engine — thread start-up, the closing barrier and tear-down. */
#define _DEFAULT_SOURCE /* SIGSTKSZ, sigaltstack */
#include "engine/engine.h"

#include "core/core.h"
#include "core/core_error.h"

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
    void *altstack;
    stack_t old_altstack; /* the thread's own (a sanitizer may have set one) */
} thr_worker;

static struct {
    void (*spmd)(void);
    int argc;
    char **argv;
    atomic_int state;
    core_run *run;
    thr_worker *workers;
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
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    return cores > 0 ? (int)cores : 1;
}

/* The crash reporter needs a stack of its own to report a stack overflow. */
static void *worker_main(void *arg)
{
    thr_worker *w = arg;
    stack_t ss = {.ss_sp = w->altstack, .ss_size = SIGSTKSZ, .ss_flags = 0};
    sigaltstack(&ss, &w->old_altstack);
    core_self = w->proc;
    worker = w;
    if (g.spmd)
        g.spmd();
    else
        main(g.argc, g.argv);
    core_end(w->proc, CORE_END_RETURNED);
    core_self = NULL;
    sigaltstack(&w->old_altstack, NULL);
    return NULL;
}

static void *aligned_zalloc(size_t n)
{
    void *p = NULL;
    if (posix_memalign(&p, 64, n))
        core_fatal_oom("process state");
    memset(p, 0, n);
    return p;
}

void eng_begin(long long nprocs)
{
    if (worker) { /* started by process 0; the section is already set up */
        if (worker_begun)
            core_fatal("bsp_begin", "called twice (the SPMD section is already running)");
        worker_begun = 1;
        return;
    }
    if (atomic_load(&g.state) == ENG_RUNNING)
        core_fatal("bsp_begin", "called twice (the SPMD section is already running)");
    if (atomic_load(&g.state) == ENG_AFTER && !g.spmd)
        core_fatal("bsp_begin", "a second SPMD section needs bsp_init");
    if (nprocs < 1)
        core_fatal("bsp_begin", "number of processes %lld must be at least 1", nprocs);
    if (nprocs > ENG_MAX_NPROCS)
        core_fatal("bsp_begin", "number of processes %lld is more than %d", nprocs, ENG_MAX_NPROCS);
    if (!g.spmd && !main)
        core_fatal("bsp_begin", "without bsp_init, bsp_begin must be called from main");
    core_install_reporters();

    int P = (int)nprocs;
    core_run *run = aligned_zalloc(sizeof *run);
    run->nprocs = P;
    run->procs = calloc((size_t)P, sizeof *run->procs);
    if (!run->procs || core_group_init(&run->root, P, 0))
        core_fatal_oom("process table");
    for (int i = 0; i < P; i++) {
        run->procs[i] = aligned_zalloc(sizeof(core_proc));
        core_proc_init(run->procs[i], run, i);
    }
    const char *trace = getenv("POLYBSP_TRACE");
    run->trace_path = trace && *trace ? trace : "polybsp-trace.jsonl";
    run->program = g.argv && g.argv[0] ? g.argv[0] : "";
    run->t0 = core_now();
    if (trace && *trace)
        for (int i = 0; i < P; i++)
            core_trace_start(run->procs[i]);
    g.run = run;
    g.workers = calloc((size_t)P, sizeof *g.workers);
    if (!g.workers)
        core_fatal_oom("process table");
    core_self = run->procs[0];
    atomic_store(&g.state, ENG_RUNNING);
    for (int i = 1; i < P; i++) {
        thr_worker *w = &g.workers[i];
        w->proc = run->procs[i];
        w->altstack = malloc(SIGSTKSZ);
        int err = w->altstack ? pthread_create(&w->thread, NULL, worker_main, w) : ENOMEM;
        if (err)
            core_fatal("bsp_begin", "cannot start process %d: %s", i, strerror(err));
    }
}

void eng_end(void)
{
    core_proc *p = core_self;
    core_end(p, CORE_END_CALLED);
    if (worker) {
        core_self = NULL;
        sigaltstack(&worker->old_altstack, NULL);
        pthread_exit(NULL);
    }
    core_run *run = g.run;
    for (int i = 1; i < run->nprocs; i++) {
        pthread_join(g.workers[i].thread, NULL);
        free(g.workers[i].altstack);
    }
    core_trace_finish(run, NULL, 0);
    for (int i = 0; i < run->nprocs; i++) {
        core_proc_free(run->procs[i]);
        free(run->procs[i]);
    }
    free(run->procs);
    core_group_free(&run->root);
    free(run);
    free(g.workers);
    g.run = NULL;
    g.workers = NULL;
    core_self = NULL;
    atomic_store(&g.state, ENG_AFTER);
}
