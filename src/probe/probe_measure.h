/* probe_measure — the measuring SPMD program, written only against <bsp.h>, so that
 * it measures what users get on whichever engine runs it.
 *
 * Contract: the caller runs bsp_init(probe_spmd, argc, argv) once; then each
 * probe_measure_comm / probe_measure_rate / probe_section call runs one SPMD
 * section of P processes (P >= 2 for comm) from the calling thread and returns
 * after bsp_end.
 * Only process 0 has the caller's parameters: each section hands them to the
 * others inside the section (probe_share), as any BSP program on the MPI engine
 * must, and only process 0 writes results, into the caller's arrays. One call
 * at a time.
 *
 * Timing: one sample is one superstep of one h-relation in a run of such
 * supersteps back to back (probe_time_supersteps), each timed on every process
 * from leaving the sync before it to leaving its own, and the sample is the
 * maximum over the processes (gathered to process 0 once per batch, outside the
 * timed supersteps).
 */
#ifndef POLYBSP_PROBE_MEASURE_H
#define POLYBSP_PROBE_MEASURE_H

#include "cost/cost_machine.h"

#include <stddef.h>
#include <stdint.h>

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

/* reps samples of one cell, one run of supersteps. */
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

/* The SPMD function to give bsp_init. Each section it runs begins with two
 * empty supersteps, which process 0 times to learn how late P processes start
 * as a trace's REAL sees it: on the run's clock (bsp_time), from the earliest
 * process's start to the end of the first, less the second (an empty
 * superstep's own time); probe_start_median gives the median of those samples
 * at P so far (seconds, 0 when none). */
void probe_spmd(void);
double probe_start_median(int nprocs);

/* A bsp_reduce combiner: acc = max(acc, in), element by element, over doubles
 * (nbytes a multiple of sizeof(double); any alignment). */
void probe_max_doubles(void *acc, const void *in, size_t nbytes);

/* Runs the job's batches in order on job->nprocs processes. A process that cannot
 * have its buffers stops the run with bsp_abort. */
void probe_measure_comm(probe_job *job);

/* The computation rates, run on all P processes at once for about seconds,
 * averaged over the processes, into rate per kind of operations (core_ops.h):
 * [0] flop/s of a DAXPY loop on vectors that fit the cache (as BSPedupack's
 * bspbench), [1] comparisons per second of binary searches in a sorted table
 * of 256 KiB, [2] 8-byte words per second gathered from 256 KiB in a
 * shuffled order; 0 where not measurable. Into fault the seconds one page fault costs,
 * all processes at once, averaged likewise: [0] the first write to a fresh
 * page, [1] the first write to a page that was only read before. Into spread
 * the slowest [0] and the fastest [1] process's DAXPY rate. */
void probe_measure_rate(int nprocs, double seconds, double rate[CORE_OPS_KINDS], double fault[2],
                        double spread[2]);

/* Runs body(arg) as one SPMD section of nprocs processes, between bsp_begin and
 * bsp_end: the other measurements of the probe (D-BSP levels, CCM) are sections
 * of their own, and every section must start from the function bsp_init got.
 * body must be one of the table in probe_measure.c (on MPI only its index
 * reaches the other ranks); process 0 gets arg, the others NULL. */
void probe_section(int nprocs, void (*body)(void *arg), void *arg);

/* Inside a section, called by every process: times reps supersteps, each of
 * issue(arg) then bsp_sync, after one more that is not timed; t[r] is this
 * process's time from leaving the sync before superstep r to leaving its own.
 * Why back to back: programs run their supersteps so, and a process with
 * nothing to receive leaves a sync as soon as everyone has entered it, so
 * its copies for the next superstep overlap the last one's readers. A sample
 * that starts from an empty sync (as this probe did until 2026-11-27) waits
 * for the readers first: a one-way h-relation of 1.7 MB at P = 2 took 67-79
 * us there, against 33-38 in a run, where programs take the latter. */
void probe_time_supersteps(int reps, void (*issue)(const void *arg), const void *arg, double *t);

/* Inside a section, called by every process: the nbytes at data become process
 * 0's everywhere. Two plain supersteps (CCM samples only collectives). */
void probe_share(void *data, size_t nbytes);

/* A body's start: *copy (nbytes) becomes, on every process, a copy of process
 * 0's arg (which is NULL on the others). */
void probe_share_arg(void *copy, const void *arg, size_t nbytes);

/* Shuffles v[0..n) with the splitmix64 generator whose state is *state: every
 * process that starts from the same state gets the same order. */
void probe_shuffle(uint64_t *state, size_t *v, size_t n);

/* How a measurement in rounds goes on (D-BSP levels, CCM): a first round of
 * min_reps samples of every cell, whatever the deadline; then at most
 * rounds − 1 more of equal size, sharing the time left until the deadline
 * (seconds after bsp_begin) by what the first round cost, up to max_reps
 * samples per cell in all. A later round is not started when, at the pace of
 * the previous one, it would end after the deadline (the machine slowed). */
typedef struct probe_rounds {
    int min_reps, max_reps, rounds;
    double deadline;
} probe_rounds;

/* The most samples per cell that one round takes. */
int probe_rounds_most(const probe_rounds *p);

/* Decides after round `round` (0 the first), which took wall seconds for reps
 * samples per cell, done samples per cell so far, at time now: the samples per
 * cell of the next round, 0 to stop. After the first round, *planned is the
 * seconds the later rounds should take (else left alone). */
int probe_rounds_next(const probe_rounds *p, int round, int reps, int done, double wall, double now,
                      double *planned);

#endif
