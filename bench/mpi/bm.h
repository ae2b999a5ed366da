/* bm — paired timing of polybsp-on-MPI against raw MPI in the same job.
 *
 * Contract (every call is collective over MPI_COMM_WORLD, inside the SPMD section,
 * with as many BSP processes as MPI ranks):
 *   - bm_compare(ours, anchor, arg, &r) times single calls of `ours` (a whole
 *     superstep) and `anchor` (the MPI operation doing the same), alternately,
 *     each from a common start (an MPI_Barrier); a call's time is the slowest
 *     rank's. It takes as many pairs as fit in about BM_SECONDS (at least
 *     BM_MIN_SAMPLES) and gives the median time of each and the median of the
 *     per-pair ratios ours / anchor.
 *   - bm_report prints a comparison; bm_rma runs the one-sided comparison.
 * Why single calls in pairs: the 2-core machine is shared and its load changes
 * by the millisecond; two calls a few microseconds apart see the same machine,
 * and medians over thousands of pairs shrug off the calls that were preempted.
 */
#ifndef POLYBSP_BM_H
#define POLYBSP_BM_H

#define BM_SECONDS 0.5
#define BM_MIN_SAMPLES 101
#define BM_MAX_SAMPLES 20001

typedef void (*bm_fn)(void *arg);

typedef struct bm_result {
    double ours, anchor; /* median seconds per call */
    double ratio;        /* median of ours / anchor over the pairs */
    long samples;        /* pairs timed */
} bm_result;

void bm_compare(bm_fn ours, bm_fn anchor, void *arg, bm_result *r);

/* On process 0: prints "WHAT ours X UNIT ANCHOR Y UNIT ratio R (paired Q)" and
 * result lines mpi_P<P>_KEY, _anchor, _ratio and _paired. Times are scaled by
 * `scale`, or, for a throughput, `scale` (bytes) is divided by them. R is ours /
 * MPI's figure (the ratio of the medians); Q the median of the pairs' ratios, the
 * same when the load is steady: where they differ, the machine's scheduler, not
 * the code, made the difference. */
void bm_report(const char *key, const char *what, const char *anchor, const bm_result *r,
               double scale, const char *unit, int throughput);

/* bench_mpi rma: the exchange with bsp_hpput against idealised one-sided exchanges. */
void bm_rma(const long *sizes, int nsizes);

#endif
