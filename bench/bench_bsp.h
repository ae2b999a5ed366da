/* bench_bsp.h — batch timing inside a BSP SPMD section.
 *
 * Contract (every call is collective: all processes of the section make it,
 * with the same fn and n):
 *   - bench_bsp_batch(fn, arg, n): one bsp_sync to line the processes up, then
 *     fn(arg) n times between two clock reads. Returns this process's seconds per
 *     call. fn must itself be collective if it synchronises.
 *   - bench_bsp_calibrate(fn, arg, target): the smallest power of two n for which
 *     process 0's batch takes at least target seconds; every process gets pid 0's n,
 *     so all of them run the same number of supersteps afterwards.
 *   - bench_bsp_from_root(v): process 0's v on every process (costs supersteps).
 * The figures are process 0's: a barrier ends each superstep, so its clock sees
 * the whole superstep.
 */
#ifndef POLYBSP_BENCH_BSP_H
#define POLYBSP_BENCH_BSP_H

typedef void (*bench_fn)(void *arg);

double bench_bsp_batch(bench_fn fn, void *arg, long n);
long bench_bsp_calibrate(bench_fn fn, void *arg, double target);
double bench_bsp_from_root(double v);

#endif /* POLYBSP_BENCH_BSP_H */
