/* thr_watch — a thread that reads every process's wait and reports the late ones. */
#include "engine/threads/thr_watch.h"

#include "core/core.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static struct {
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    int stop;
    double timeout;
    core_run *run;
    core_watch_slot *slots;
} w = {.lock = PTHREAD_MUTEX_INITIALIZER};

core_watch_slot *thr_watch_slot(int pid) { return w.slots ? &w.slots[pid] : NULL; }

/* Late: every process that is not waiting; if all wait, all of them. */
static CORE_NORETURN void report(void)
{
    int P = w.run->nprocs;
    core_watch_late *late = malloc((size_t)P * sizeof *late);
    if (!late)
        core_fatal_oom("watchdog");
    size_t n = 0;
    for (int pass = 0; pass < 2 && !n; pass++)
        for (int q = 0; q < P; q++) {
            unsigned long seq;
            core_watch_late l = {.pid = q};
            if (core_watch_read(&w.slots[q], &seq, &l) == pass)
                late[n++] = l;
        }
    core_watch_report(w.timeout, late, n);
}

static void *monitor(void *arg)
{
    (void)arg;
    int P = w.run->nprocs;
    unsigned long *seen = calloc((size_t)P, sizeof *seen);
    double *since = malloc((size_t)P * sizeof *since);
    if (!seen || !since)
        core_fatal_oom("watchdog");
    double start = core_now(), period = w.timeout / 4;
    period = period > 1 ? 1 : period < 0.01 ? 0.01 : period;
    for (int q = 0; q < P; q++)
        since[q] = start;
    pthread_mutex_lock(&w.lock);
    while (!w.stop) {
        struct timespec until;
        clock_gettime(CLOCK_MONOTONIC, &until);
        long ns = until.tv_nsec + (long)(period * 1e9);
        until.tv_sec += ns / 1000000000L;
        until.tv_nsec = ns % 1000000000L;
        if (pthread_cond_timedwait(&w.cond, &w.lock, &until) != ETIMEDOUT || w.stop)
            continue;
        double now = core_now();
        for (int q = 0; q < P; q++) {
            unsigned long seq = atomic_load_explicit(&w.slots[q].seq, memory_order_acquire);
            if (seq != seen[q]) {
                seen[q] = seq;
                since[q] = now;
            } else if ((seq & 1) && now - since[q] >= w.timeout) {
                report();
            }
        }
    }
    pthread_mutex_unlock(&w.lock);
    free(seen);
    free(since);
    return NULL;
}

void thr_watch_start(core_run *run, double timeout)
{
    if (timeout <= 0)
        return;
    size_t bytes = (size_t)run->nprocs * sizeof *w.slots;
    if (posix_memalign((void **)&w.slots, 64, bytes))
        core_fatal_oom("watchdog");
    memset(w.slots, 0, bytes);
    w.run = run;
    w.timeout = timeout;
    w.stop = 0;
    pthread_condattr_t attr;
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    pthread_cond_init(&w.cond, &attr);
    pthread_condattr_destroy(&attr);
    int err = pthread_create(&w.thread, NULL, monitor, NULL);
    if (err)
        core_fatal("bsp_begin", "cannot start the watchdog: %s", strerror(err));
}

void thr_watch_stop(void)
{
    if (!w.slots)
        return;
    pthread_mutex_lock(&w.lock);
    w.stop = 1;
    pthread_cond_signal(&w.cond);
    pthread_mutex_unlock(&w.lock);
    pthread_join(w.thread, NULL);
    pthread_cond_destroy(&w.cond);
    free(w.slots);
    w.slots = NULL;
    w.run = NULL;
}
