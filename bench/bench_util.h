/* bench_util.h — timing, statistics and result lines shared by every benchmark
 * (the BSP programs and the MPI anchor alike, so both sides measure the same way).
 *
 * Contract:
 *   - bench_now() is CLOCK_MONOTONIC in seconds.
 *   - bench_median() sorts its array in place and returns the median.
 *   - bench_result() prints one machine-readable line
 *       "result <key> <value> <unit>"
 *     which bench/run.sh collects; every other line a benchmark prints is for humans.
 *   - bench_reps() is the number of timed batches: BENCH_REPS from the environment
 *     (clamped to [3, 1001]) or 21.
 */
#ifndef POLYBSP_BENCH_UTIL_H
#define POLYBSP_BENCH_UTIL_H

#include <stddef.h>

double bench_now(void);
double bench_median(double *values, size_t n);
void bench_result(const char *key, double value, const char *unit);
int bench_reps(void);

#endif /* POLYBSP_BENCH_UTIL_H */
