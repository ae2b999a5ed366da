/* thr_barrier — dissemination or central counter, spin-then-futex. */
#define _DEFAULT_SOURCE /* syscall */
#include "engine/threads/thr_barrier.h"

#include "core/core.h"
#include "core/core_watch.h"
#include "engine/threads/thr_place.h"
#include "engine/threads/thr_solo.h"

#include <limits.h>
#include <linux/futex.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define EPOCH_MASK (UINT_MAX >> THR_BARRIER_BITS)
/* A waiter first spins on the flag alone (the partner is usually microseconds
 * away); past this many rounds it yields the core in each round, so that on a
 * machine shared with other work the thread it waits for can run. */
#define PURE_SPINS 256
#define BITS_MASK ((1u << THR_BARRIER_BITS) - 1)

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

static void futex_wait(atomic_uint *word, unsigned expected)
{
    syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, expected, NULL, NULL, 0);
}

static void futex_wake(atomic_uint *word, int n)
{
    syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, n, NULL, NULL, 0);
}

int thr_barrier_init(thr_barrier *b, unsigned parties)
{
    memset(b, 0, sizeof *b);
    b->parties = parties;
    long cores = thr_place_cores_online();
    b->yield = cores > 0 && (long)parties > cores;
    /* Solo, the one computing is the one awaited: sleep at once (thr_solo.h). */
    b->spins = thr_solo_on() ? 0 : b->yield ? 64 : 20000;
    if (posix_memalign((void **)&b->epochs, 64, parties * sizeof *b->epochs))
        return -1;
    memset(b->epochs, 0, parties * sizeof *b->epochs);
    if (!b->yield && parties > 1) {
        while ((1u << b->rounds) < parties)
            b->rounds++;
        size_t n = 2u * b->rounds * parties;
        if (posix_memalign((void **)&b->flags, 64, n * sizeof *b->flags))
            return -1;
        memset(b->flags, 0, n * sizeof *b->flags);
    }
    return 0;
}

void thr_barrier_destroy(thr_barrier *b)
{
    free(b->flags);
    free(b->epochs);
    b->flags = NULL;
    b->epochs = NULL;
}

static void flag_post(thr_flag *f, unsigned word)
{
    atomic_store_explicit(&f->word, word, memory_order_seq_cst);
    if (atomic_load_explicit(&f->sleeping, memory_order_seq_cst))
        futex_wake(&f->word, 1);
}

/* Waits until f carries `epoch`; returns the bits that came with it. */
static unsigned flag_wait(const thr_barrier *b, thr_flag *f, unsigned epoch)
{
    unsigned w;
    for (unsigned i = 0; i < b->spins; i++) {
        w = atomic_load_explicit(&f->word, memory_order_acquire);
        if ((w >> THR_BARRIER_BITS) == epoch)
            return w & BITS_MASK;
        if (i < PURE_SPINS)
            cpu_relax();
        else
            sched_yield();
    }
    atomic_store_explicit(&f->sleeping, 1, memory_order_seq_cst);
    while (((w = atomic_load_explicit(&f->word, memory_order_seq_cst)) >> THR_BARRIER_BITS) !=
           epoch)
        futex_wait(&f->word, w);
    atomic_store_explicit(&f->sleeping, 0, memory_order_relaxed);
    return w & BITS_MASK;
}

/* Round k: tell (me + 2^k) mod P what we know, learn what (me - 2^k) knows. A slot
 * of parity e&1 is written again only at epoch e+2, which its writer reaches only
 * after its reader has finished epoch e. */
static unsigned dissemination_wait(thr_barrier *b, unsigned me, unsigned bits)
{
    unsigned e = (++b->epochs[me].value) & EPOCH_MASK;
    unsigned P = b->parties;
    thr_flag *base = b->flags + (size_t)(e & 1) * b->rounds * P;
    for (unsigned k = 0; k < b->rounds; k++) {
        unsigned to = (me + (1u << k)) % P;
        flag_post(&base[(size_t)k * P + to], e << THR_BARRIER_BITS | bits);
        bits |= flag_wait(b, &base[(size_t)k * P + me], e);
    }
    return bits;
}

static unsigned central_wait(thr_barrier *b, unsigned bits)
{
    unsigned gen = atomic_load_explicit(&b->generation, memory_order_relaxed);
    if (bits)
        atomic_fetch_or_explicit(&b->bits, bits, memory_order_relaxed);
    if (atomic_fetch_add_explicit(&b->arrived, 1, memory_order_acq_rel) + 1 == b->parties) {
        b->result = atomic_exchange_explicit(&b->bits, 0, memory_order_relaxed);
        atomic_store_explicit(&b->arrived, 0, memory_order_relaxed);
        atomic_store_explicit(&b->generation, gen + 1, memory_order_seq_cst);
        if (atomic_load_explicit(&b->sleepers, memory_order_seq_cst))
            futex_wake(&b->generation, INT_MAX);
        return b->result;
    }
    for (unsigned i = 0; i < b->spins; i++) {
        if (atomic_load_explicit(&b->generation, memory_order_acquire) != gen)
            return b->result;
        if (b->yield || i >= PURE_SPINS)
            sched_yield();
        else
            cpu_relax();
    }
    atomic_fetch_add_explicit(&b->sleepers, 1, memory_order_seq_cst);
    while (atomic_load_explicit(&b->generation, memory_order_seq_cst) == gen)
        futex_wait(&b->generation, gen);
    atomic_fetch_sub_explicit(&b->sleepers, 1, memory_order_relaxed);
    return b->result;
}

unsigned thr_barrier_wait(thr_barrier *b, unsigned me, unsigned bits)
{
    if (b->parties == 1)
        return bits;
    if (core_watch_me)
        core_watch_enter(bits & CORE_AT_ANY, core_self->step);
    thr_solo_give();
    bits = b->rounds ? dissemination_wait(b, me, bits) : central_wait(b, bits);
    thr_solo_take();
    core_watch_leave();
    return bits;
}
