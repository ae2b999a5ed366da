/* bench_spin.c — see bench_spin.h. */
#include "bench_spin.h"

#include <bsp.h>
#include <polybsp.h>

#include <stdatomic.h>
#include <string.h>

/* Shared by the BSP processes on purpose: this is the barrier's state. */
static atomic_int spin_count;
static atomic_int spin_sense;

static void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

int bench_spin_init(struct bench_spin *s)
{
    int P = (int)bsp_nprocs();
    if (strcmp(bsp_engine_name(), "threads") != 0 || P != 2)
        return 0;
    if (bsp_pid() == 0) {
        atomic_store(&spin_count, P);
        atomic_store(&spin_sense, 0);
    }
    bsp_sync(); /* nobody waits before the state is set */
    s->local_sense = 0;
    s->nprocs = P;
    return 1;
}

void bench_spin_wait(void *arg)
{
    struct bench_spin *s = arg;
    int sense = !s->local_sense;
    s->local_sense = sense;
    if (atomic_fetch_sub_explicit(&spin_count, 1, memory_order_acq_rel) == 1) {
        atomic_store_explicit(&spin_count, s->nprocs, memory_order_relaxed);
        atomic_store_explicit(&spin_sense, sense, memory_order_release);
    } else {
        while (atomic_load_explicit(&spin_sense, memory_order_acquire) != sense)
            cpu_relax();
    }
}
