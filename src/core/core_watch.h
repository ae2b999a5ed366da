/* core_watch — the watchdog: when processes wait at a synchronisation longer than
 * POLYBSP_TIMEOUT seconds, the run stops with one line naming whom they wait for.
 *
 * Contract:
 *  - core_watch_timeout() is POLYBSP_TIMEOUT in seconds, or 0 (unset, empty or 0:
 *    no watchdog, the default); a value that is not a number of seconds stops the
 *    program with one line. core_watch_parse says what a number of seconds is,
 *    for it and for `polybsp run --timeout`: decimal digits with an optional
 *    fraction ("5", "0.25", "2."), 0 or from 0.001 to 1000000; no sign, blank,
 *    exponent or hexadecimal (strtod alone took "0x10", " 5" and "1e-9").
 *  - Each process has a slot that only it writes. The engine marks every wait of
 *    a synchronisation: core_watch_enter(at) as it starts (at: the CORE_AT_* call
 *    that brought it to a barrier, or CORE_WATCH_OBLSYNC), core_watch_leave() as
 *    it ends. Both are a few stores to the process's own cache line, and nothing
 *    when the calling thread has no slot (core_watch_me is NULL).
 *  - The engine finds the processes that are late (threads: a monitor reads every
 *    slot; MPI: a rank that has waited too long asks the others) and stops the run
 *    with core_watch_report:
 *      "polybsp: timeout: waited S s for process P (computing in superstep N)"
 *    listing every late process: computing, silent (an MPI rank that does not
 *    answer: stopped, or computing), or itself waiting (when every process waits,
 *    each in its call: "in bsp_oblsync in superstep N").
 */
#ifndef POLYBSP_CORE_WATCH_H
#define POLYBSP_CORE_WATCH_H

#include "core/core_error.h"

#include <stdatomic.h>
#include <stddef.h>

/* A wait that is not at a barrier (the CORE_AT_* bits name those). */
#define CORE_WATCH_OBLSYNC (1u << 16)

typedef struct core_watch_slot {
    _Alignas(64) atomic_ulong seq; /* odd while the process waits */
    atomic_uint at;                /* the call it waits in */
    atomic_ulong step;             /* its superstep (the one it ends while waiting) */
} core_watch_slot;

/* The calling thread's process's slot, or NULL (no watchdog, or not a process). */
extern _Thread_local core_watch_slot *core_watch_me CORE_TLS_FAST;

double core_watch_timeout(void);
/* 0 with the seconds text stands for, or -1 (*seconds untouched). */
int core_watch_parse(const char *text, double *seconds);
/* What the line of a refused value says is expected, after "expected ". */
#define CORE_WATCH_EXPECTED "decimal seconds, 0 for none or from 0.001 to 1000000"

/* step: the superstep the wait ends (the process's count of completed ones). */
static inline void core_watch_enter(unsigned at, unsigned long step)
{
    core_watch_slot *s = core_watch_me;
    if (!s)
        return;
    unsigned long seq = atomic_load_explicit(&s->seq, memory_order_relaxed);
    atomic_store_explicit(&s->at, at, memory_order_relaxed);
    atomic_store_explicit(&s->step, step, memory_order_relaxed);
    atomic_store_explicit(&s->seq, seq + 1, memory_order_release);
}

/* After a wait the process computes in the next superstep. */
static inline void core_watch_leave(void)
{
    core_watch_slot *s = core_watch_me;
    if (!s)
        return;
    unsigned long seq = atomic_load_explicit(&s->seq, memory_order_relaxed);
    unsigned long step = atomic_load_explicit(&s->step, memory_order_relaxed);
    atomic_store_explicit(&s->step, step + 1, memory_order_relaxed);
    atomic_store_explicit(&s->seq, seq + 1, memory_order_release);
}

/* What a late process was doing. */
enum { CORE_WATCH_COMPUTING = 0, CORE_WATCH_SILENT = 1 };

typedef struct core_watch_late {
    long pid;
    unsigned at; /* CORE_WATCH_COMPUTING, _SILENT, or the call it waits in */
    unsigned long step;
} core_watch_late;

/* Reads a slot consistently; returns 1 when it is waiting. */
int core_watch_read(const core_watch_slot *s, unsigned long *seq, core_watch_late *out);

void core_watch_report(double timeout, const core_watch_late *late, size_t n) CORE_NORETURN;

#endif
