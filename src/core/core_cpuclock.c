/* core_cpuclock — the thread CPU clock and the cost of reading it. */
#define _DEFAULT_SOURCE 1 /* syscall (1: as smpicc's own definition) */
#include "core/core_cpuclock.h"

#include <stdatomic.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

double core_thread_cpu(void)
{
    struct timespec ts;
    if (syscall(SYS_clock_gettime, CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
        return -1;
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

double core_thread_cpu_cost(void)
{
    /* Threads that ask at once each measure; any of their figures serves. */
    static _Atomic double cost = -1;
    double c = atomic_load_explicit(&cost, memory_order_relaxed);
    if (c >= 0)
        return c;
    double least = 1, last = core_thread_cpu();
    for (int i = 0; i < 16; i++) {
        double now = core_thread_cpu();
        least = now - last < least ? now - last : least;
        last = now;
    }
    atomic_store_explicit(&cost, least, memory_order_relaxed);
    return least;
}
