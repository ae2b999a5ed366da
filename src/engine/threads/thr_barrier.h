/* thr_barrier — a combining barrier for the threads of one group.
 *
 * Contract: thr_barrier_wait(b, me, bits) returns once all `parties` threads have
 * called it, and returns the OR of the bits (at most THR_BARRIER_BITS low bits)
 * they brought, so one barrier both synchronises and tells everybody what work the
 * superstep needs. `me` is the caller's index in [0, parties).
 * Two algorithms, chosen by whether the threads fit on the cores:
 *  - dissemination (ceil(log2 P) rounds of flag writes, no shared counter): the
 *    fastest when every thread has a core of its own;
 *  - a central counter with one futex, when threads outnumber cores: a waiter
 *    spins only a few rounds (yielding) before it sleeps, so it does not steal
 *    the time slice of the thread it waits for.
 * Waiters always spin first and then sleep on a futex; writers wake only sleepers.
 * The wait is marked for the watchdog (core_watch) as a wait of the calling
 * process in the call its CORE_AT_* bits name.
 */
#ifndef POLYBSP_THR_BARRIER_H
#define POLYBSP_THR_BARRIER_H

#include <stdatomic.h>

#define THR_BARRIER_BITS 12

typedef struct thr_flag {
    _Alignas(64) atomic_uint word; /* epoch << THR_BARRIER_BITS | bits */
    atomic_uint sleeping;
} thr_flag;

typedef struct thr_epoch {
    _Alignas(64) unsigned value;
} thr_epoch;

typedef struct thr_barrier {
    unsigned parties;
    unsigned rounds; /* 0 selects the central counter */
    unsigned spins;
    int yield;
    thr_flag *flags;   /* [2][rounds][parties], dissemination only */
    thr_epoch *epochs; /* [parties] */
    _Alignas(64) atomic_uint arrived;
    atomic_uint bits;
    _Alignas(64) atomic_uint generation; /* futex word */
    atomic_uint sleepers;
    unsigned result;
} thr_barrier;

/* Returns 0, or -1 when memory runs out. */
int thr_barrier_init(thr_barrier *b, unsigned parties);
void thr_barrier_destroy(thr_barrier *b);
unsigned thr_barrier_wait(thr_barrier *b, unsigned me, unsigned bits);

#endif
