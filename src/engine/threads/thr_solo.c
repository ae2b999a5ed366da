/* thr_solo — one process of the threads engine computes at a time (thr_solo.h). */
#define _DEFAULT_SOURCE /* syscall */
#include "engine/threads/thr_solo.h"

#include "core/core.h"
#include "engine/threads/thr_place.h"

#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

enum { SOLO_OFF, SOLO_ON, SOLO_SMPI }; /* POLYBSP_SOLO's words, in order */
static int mode;
/* Allocated at the first smpi run, kept for later ones in the process. */
static volatile unsigned char *simulator_footprint;
static pthread_mutex_t token = PTHREAD_MUTEX_INITIALIZER;
static atomic_uint ended;    /* supersteps ended, a futex word */
static atomic_uint sleepers; /* waiters in sleep_until_ended */

int thr_solo_setup(void)
{
    static const char *const words[] = {"off", "on", "smpi"};
    char err[128];
    int k = thr_env_choice("POLYBSP_SOLO", words, 3, "choice", err, sizeof err);
    if (k < 0)
        core_fatal("bsp_begin", "%s", err);
    mode = k;
    if (mode == SOLO_SMPI && !simulator_footprint) {
        simulator_footprint = calloc(1, THR_SOLO_SIMULATOR_FOOTPRINT);
        if (!simulator_footprint)
            core_fatal_oom("POLYBSP_SOLO=smpi's footprint");
    }
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
 * each line of THR_SOLO_SIMULATOR_FOOTPRINT bytes, before the process's work
 * starts again (its trace's span opens after the take). */
static void walk_simulator_footprint(void)
{
    /* at + 64 <= size, not at < size: a build with size 0 then has no
     * comparison that is always false (-Wtype-limits under POLYBSP_WERROR). */
    for (size_t at = 0; at + 64 <= THR_SOLO_SIMULATOR_FOOTPRINT; at += 64)
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
