/* thr_barrier — central counter barrier, spin-then-futex. */
#define _DEFAULT_SOURCE /* syscall */
#include "engine/threads/thr_barrier.h"

#include <limits.h>
#include <linux/futex.h>
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

void thr_barrier_init(thr_barrier *b, unsigned parties)
{
    atomic_init(&b->arrived, 0);
    atomic_init(&b->bits, 0);
    atomic_init(&b->generation, 0);
    atomic_init(&b->sleepers, 0);
    b->result = 0;
    b->parties = parties;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    /* With more threads than cores a spinning waiter steals the time slice of the
     * thread it waits for: spin only a few rounds, yielding, and sleep soon. */
    b->yield = cores > 0 && (long)parties > cores;
    b->spins = b->yield ? 64 : 20000;
}

unsigned thr_barrier_wait(thr_barrier *b, unsigned bits, void (*check)(unsigned, void *),
                          void *arg)
{
    unsigned gen = atomic_load_explicit(&b->generation, memory_order_relaxed);
    if (bits)
        atomic_fetch_or_explicit(&b->bits, bits, memory_order_relaxed);
    if (atomic_fetch_add_explicit(&b->arrived, 1, memory_order_acq_rel) + 1 == b->parties) {
        unsigned all = atomic_exchange_explicit(&b->bits, 0, memory_order_relaxed);
        if (check)
            check(all, arg);
        b->result = all;
        atomic_store_explicit(&b->arrived, 0, memory_order_relaxed);
        atomic_store_explicit(&b->generation, gen + 1, memory_order_seq_cst);
        if (atomic_load_explicit(&b->sleepers, memory_order_seq_cst))
            syscall(SYS_futex, &b->generation, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
        return all;
    }
    for (unsigned i = 0; i < b->spins; i++) {
        if (atomic_load_explicit(&b->generation, memory_order_acquire) != gen)
            return b->result;
        if (b->yield)
            sched_yield();
        else
            cpu_relax();
    }
    atomic_fetch_add_explicit(&b->sleepers, 1, memory_order_seq_cst);
    while (atomic_load_explicit(&b->generation, memory_order_seq_cst) == gen)
        syscall(SYS_futex, &b->generation, FUTEX_WAIT_PRIVATE, gen, NULL, NULL, 0);
    atomic_fetch_sub_explicit(&b->sleepers, 1, memory_order_relaxed);
    return b->result;
}
