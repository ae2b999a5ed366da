/* bench_mpi_timing — timing of raw MPI calls, as bench_bsp times BSP ones.
 *
 * Contract (collective over MPI_COMM_WORLD): a barrier lines the ranks up, each
 * rank times a batch of calls; a batch is the smallest power of two whose time
 * on rank 0 reaches target seconds; a figure is the median of reps batches.
 * With close set, a barrier ends every batch inside the timing, so that calls
 * that need not synchronise (rooted MPI collectives) are charged their whole
 * work, as a BSP superstep is.
 */
#ifndef POLYBSP_BENCH_MPI_TIMING_H
#define POLYBSP_BENCH_MPI_TIMING_H

typedef void (*bench_mpi_fn)(const void *arg);

/* Median seconds per call of fn(arg) on this rank; a rank that cannot hold the
 * samples aborts the job. */
double bench_mpi_median(bench_mpi_fn fn, const void *arg, int close, int reps, double target);

#endif
