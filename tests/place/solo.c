/* solo.c — POLYBSP_SOLO=on runs one process at a time (thr_solo.h). In each of
 * 20 supersteps every process counts itself in a counter all threads share (the
 * threads engine runs processes as threads of one program), keeps the counter's
 * largest value while it computes for 200 us of wall time, and counts itself
 * out; the supersteps also get from a neighbour (a get's wait) and end in
 * bsp_sync. Process 0 prints "solo: P = p, at most K computing at once, Y
 * yields, C CPUs used", K the largest count any process saw, Y the calls of
 * sched_yield in the run (a solo run's waiters sleep instead: thr_solo.h) and
 * C the number of CPUs the processes computed on (a solo run's share one,
 * thr_place_plan), and checks the gets' values. */
#define _GNU_SOURCE
#include <bsp.h>

#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static atomic_int computing, yields;
static atomic_ullong cpus_used; /* a bit per CPU, the first 64 */

/* The library is linked into this program, so its calls land here. */
int sched_yield(void)
{
    atomic_fetch_add(&yields, 1);
    return (int)syscall(SYS_sched_yield);
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Computes for `seconds` of wall time; the most processes computing meanwhile. */
static int compute(double seconds)
{
    int most = atomic_fetch_add(&computing, 1) + 1;
    int cpu = sched_getcpu();
    if (cpu >= 0)
        atomic_fetch_or(&cpus_used, 1ull << (cpu % 64));
    for (double end = now() + seconds; now() < end;) {
        int n = atomic_load(&computing);
        if (n > most)
            most = n;
    }
    atomic_fetch_sub(&computing, 1);
    return most;
}

int main(void)
{
    bsp_begin(bsp_nprocs());
    int p = bsp_nprocs(), s = bsp_pid();
    int mine = s, got = -1, most = 0, wrong = 0;
    int seen[1024] = {0};
    bsp_push_reg(&mine, sizeof mine);
    bsp_push_reg(seen, sizeof seen);
    bsp_sync();
    for (int k = 0; k < 20; k++) {
        int m = compute(200e-6);
        most = m > most ? m : most;
        bsp_get((s + 1) % p, &mine, 0, &got, sizeof got);
        bsp_sync();
        wrong += got != (s + 1) % p;
    }
    int report = wrong ? -1 : most;
    bsp_put(0, &report, seen, s * (int)sizeof report, sizeof report);
    bsp_sync();
    if (s == 0) {
        int k = 0;
        for (int q = 0; q < p; q++) {
            if (seen[q] < 0) {
                printf("solo: process %d got a wrong value\n", q);
                return 1;
            }
            k = seen[q] > k ? seen[q] : k;
        }
        printf("solo: P = %d, at most %d computing at once, %d yields, %d CPUs used\n", p, k,
               atomic_load(&yields), __builtin_popcountll(atomic_load(&cpus_used)));
    }
    bsp_end();
    return 0;
}
