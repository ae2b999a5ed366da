/* probe_measure — the measuring SPMD program, written only against <bsp.h>, so that
 * it measures what users get on whichever engine runs it.
 *
 * Contract: the caller runs bsp_init(probe_spmd, argc, argv) once; then each
 * probe_measure_comm / probe_measure_rate call runs one SPMD section of P
 * processes (P >= 2 for comm) from the calling thread and returns after bsp_end.
 * Parameters reach the processes through a global set before bsp_begin, and only
 * process 0 writes results, into the caller's arrays. One call at a time.
 *
 * Timing: one sample is one superstep of one h-relation,
 *     bsp_sync(); t0 = bsp_time(); the pattern's puts; bsp_sync(); t = bsp_time() - t0;
 * and the sample is the maximum of t over the processes (gathered to process 0 once
 * per batch, outside the timed supersteps).
 */
#ifndef POLYBSP_PROBE_MEASURE_H
#define POLYBSP_PROBE_MEASURE_H

#include "cost/cost_machine.h"

#include <stddef.h>

typedef enum { PROBE_PUT = 0, PROBE_HPPUT = 1 } probe_prim;
#define PROBE_NPRIMS 2

/* One thing to time: an h-relation of h bytes (@ = sum) of one pattern, each
 * message cut into split pieces, issued with bsp_put or bsp_hpput. */
typedef struct probe_cell {
    probe_prim prim;
    cost_pattern pattern;
    long h;
    int split;
} probe_cell;

/* reps back-to-back samples of one cell. */
typedef struct probe_batch {
    size_t cell;
    int reps;
} probe_batch;

typedef struct probe_job {
    int nprocs;
    const probe_cell *cells;
    const probe_batch *batches;
    size_t nbatches;
    /* After the first nprotected batches, no batch starts once process 0's clock
     * passes deadline (seconds after bsp_begin): the budget holds on a machine that
     * turns slower than the pilot said. */
    size_t nprotected;
    double deadline;
    double *samples;         /* out: the samples of batch 0, then of batch 1, ... (sum of reps) */
    double *wall;            /* out: per batch, its seconds on process 0, gather included */
    size_t done;             /* out: the batches that ran */
    void (*tick)(void *ctx); /* called by process 0 after each batch, or NULL */
    void *ctx;
} probe_job;

/* The SPMD function to give bsp_init. */
void probe_spmd(void);

/* Runs the job's batches in order on job->nprocs processes. A process that cannot
 * have its buffers stops the run with bsp_abort. */
void probe_measure_comm(probe_job *job);

/* The computation rate r in flop/s of a DAXPY loop on vectors that fit the cache
 * (as BSPedupack's bspbench), run on all P processes at once for about seconds,
 * averaged over the processes. */
double probe_measure_rate(int nprocs, double seconds);

#endif
