/* thr_solo — one process of the threads engine computes at a time (thr_solo.h). */
#define _DEFAULT_SOURCE /* syscall */
#include "engine/threads/thr_solo.h"

#include "core/core.h"
#include "engine/threads/thr_place.h"

#include <limits.h>
#include <linux/futex.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

enum { SOLO_OFF, SOLO_ON, SOLO_SMPI }; /* POLYBSP_SOLO's words, in order */
static int mode;
/* Allocated at the first smpi run, kept (grown when a later run walks more)
 * for later ones in the process; footprint_bytes is this run's walk. */
static volatile unsigned char *simulator_footprint;
static size_t footprint_allocated, footprint_bytes;
static pthread_mutex_t token = PTHREAD_MUTEX_INITIALIZER;
static atomic_uint ended;    /* supersteps ended, a futex word */
static atomic_uint sleepers; /* waiters in sleep_until_ended */

size_t thr_solo_footprint(int nprocs)
{
    double bytes = (double)THR_SOLO_FOOTPRINT_AT_32 * sqrt((double)nprocs / 32);
    return bytes < (double)THR_SOLO_FOOTPRINT_MAX ? (size_t)bytes / 64 * 64
                                                  : THR_SOLO_FOOTPRINT_MAX;
}

/* POLYBSP_SOLO_FOOTPRINT: decimal bytes, 0 to THR_SOLO_FOOTPRINT_MAX; unset
 * or empty: thr_solo_footprint(nprocs). Anything else stops the run. */
static size_t footprint_from_env(int nprocs)
{
    const char *v = getenv("POLYBSP_SOLO_FOOTPRINT");
    if (!v || !*v)
        return thr_solo_footprint(nprocs);
    size_t bytes = 0;
    for (const char *c = v; *c; c++) {
        if (*c < '0' || *c > '9' || bytes > (THR_SOLO_FOOTPRINT_MAX - (size_t)(*c - '0')) / 10)
            core_fatal("bsp_begin", "POLYBSP_SOLO_FOOTPRINT=%s is not a number of bytes (0 to %zu)",
                       v, (size_t)THR_SOLO_FOOTPRINT_MAX);
        bytes = bytes * 10 + (size_t)(*c - '0');
    }
    return bytes;
}

int thr_solo_setup(int nprocs, size_t *footprint)
{
    static const char *const words[] = {"off", "on", "smpi"};
    char err[128];
    int k = thr_env_choice("POLYBSP_SOLO", words, 3, "choice", err, sizeof err);
    if (k < 0)
        core_fatal("bsp_begin", "%s", err);
    mode = k;
    footprint_bytes = mode == SOLO_SMPI ? footprint_from_env(nprocs) : 0;
    if (footprint_bytes > footprint_allocated) {
        free((void *)simulator_footprint);
        simulator_footprint = calloc(1, footprint_bytes);
        if (!simulator_footprint)
            core_fatal_oom("POLYBSP_SOLO=smpi's footprint");
        footprint_allocated = footprint_bytes;
    }
    *footprint = footprint_bytes;
    return mode;
}

int thr_solo_on(void) { return mode != SOLO_OFF; }

/* Waits until `ended` differs from `seen`. */
static void sleep_until_ended(unsigned seen)
{
    /* The waker counts before it looks for sleepers, the sleeper the other way
     * round: one of the two sees the other (the futex returns at once when
     * `ended` has moved). */
    atomic_fetch_add(&sleepers, 1);
    syscall(SYS_futex, &ended, FUTEX_WAIT_PRIVATE, seen, NULL, NULL, 0);
    atomic_fetch_sub(&sleepers, 1);
}

void thr_solo_await(const atomic_ulong *done, unsigned long step)
{
    if (atomic_load_explicit(done, memory_order_acquire) >= step)
        return;
    thr_solo_give();
    for (;;) {
        unsigned seen = atomic_load(&ended);
        if (atomic_load_explicit(done, memory_order_acquire) >= step)
            break;
        if (mode != SOLO_OFF)
            sleep_until_ended(seen);
        else
            sched_yield();
    }
    thr_solo_take();
}

void thr_solo_step_ended(void)
{
    if (mode == SOLO_OFF)
        return;
    atomic_fetch_add(&ended, 1);
    if (atomic_load(&sleepers))
        syscall(SYS_futex, &ended, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
}

/* What SMPI's own code between two ranks leaves in the caches: one write to
 * each 64-byte line of footprint_bytes, before the process's work starts
 * again (its trace's span opens after the take). */
static void walk_simulator_footprint(void)
{
    for (size_t at = 0; at + 64 <= footprint_bytes; at += 64)
        simulator_footprint[at]++;
}

void thr_solo_take(void)
{
    if (mode == SOLO_OFF)
        return;
    pthread_mutex_lock(&token);
    if (mode == SOLO_SMPI)
        walk_simulator_footprint();
}

void thr_solo_give(void)
{
    if (mode != SOLO_OFF)
        pthread_mutex_unlock(&token);
}
