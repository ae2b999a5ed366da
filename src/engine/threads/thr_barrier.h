/* thr_barrier — a combining barrier for the threads of one group.
 *
 * Contract: thr_barrier_wait(b, bits) returns once all `parties` threads have
 * called it, and returns the OR of the bits they brought, so one barrier both
 * synchronises and tells everybody what work the superstep needs. Waiting spins
 * briefly (with sched_yield when the threads outnumber the cores), then sleeps on
 * a futex; the last arrival wakes sleepers only if there are any. The last arrival
 * may run `check(bits, arg)` before releasing the others, so a misuse found there
 * stops the run before anybody proceeds.
 */
#ifndef POLYBSP_THR_BARRIER_H
#define POLYBSP_THR_BARRIER_H

#include <stdatomic.h>

typedef struct thr_barrier {
    _Alignas(64) atomic_uint arrived;
    atomic_uint bits;
    _Alignas(64) atomic_uint generation; /* futex word */
    atomic_uint sleepers;
    unsigned result;
    _Alignas(64) unsigned parties;
    unsigned spins;
    int yield;
} thr_barrier;

void thr_barrier_init(thr_barrier *b, unsigned parties);
unsigned thr_barrier_wait(thr_barrier *b, unsigned bits, void (*check)(unsigned, void *),
                          void *arg);

#endif
