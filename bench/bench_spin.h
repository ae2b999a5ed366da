/* bench_spin.h — a minimal sense-reversing spin barrier run by the threads that
 * carry the BSP processes.
 *
 * It is bench_sync's floor for a barrier, and the other benchmarks time it
 * alongside their figures as a probe of the machine's state: on a virtual machine
 * the two vCPUs may sit on nearby or distant host cores, which changes every
 * cross-core figure several-fold (docs/performance.md, "Two machine states").
 *
 * Contract:
 *   - bench_spin_init(s) is collective. It returns 1 and prepares s when the
 *     processes share memory (the threads engine) and P == 2, else returns 0 and
 *     the barrier must not be used. One barrier per run.
 *   - bench_spin_wait(s) is a bench_fn: every process calls it with its own s.
 */
#ifndef POLYBSP_BENCH_SPIN_H
#define POLYBSP_BENCH_SPIN_H

struct bench_spin {
    int local_sense;
    int nprocs;
};

int bench_spin_init(struct bench_spin *s);
void bench_spin_wait(void *s);

#endif /* POLYBSP_BENCH_SPIN_H */
