/* probe_ccm — the CCM cost functions T_f(P, h) of paper 001 from traced runs.
 *
 * Contract: probe_ccm_measure runs one SPMD section of P processes with
 * tracing on (POLYBSP_TRACE names a temporary file for that section only; the
 * caller's value is restored afterwards). In it, every collective of
 * <polybsp_coll.h>, bsp_par on 2 parts, and a bare division run at every size
 * n: n bytes per process (bcast, reduce, allreduce and scan on n bytes, rounded
 * up to doubles for the combining ones, a TWOPHASE bcast on at least P bytes; gather, allgather,
 * scatter, alltoall and alltoallv on blocks of n/P bytes; par's results of n bytes), paper 000's
 * five patterns as plain supersteps of bsp_puts whose busiest process sends or
 * receives n bytes (cost_relation_pattern names them "hrel.PATTERN"; at P = 2
 * a one-to-all is a ping-pong and an all-to-all an exchange); the division
 * sends n bytes to process (s + P/2) mod P (in the other part when P is even),
 * bsp_partition(2, NULL), sends n bytes to the next process of the part,
 * bsp_rejoin. The (operation, size) cells are measured
 * in rounds (probe_rounds), each round in a new random order. The trace is read
 * back and cost_ccm_samples (cost_calib.h) turns it into samples, appended to
 * the list: so the times and h are exactly those `polybsp predict` later uses.
 *
 * probe_ccm_fit reduces the samples of each (kind, P, h) to their median time
 * (one interrupted call must not tilt a line) and fits each kind's
 * T(P, h), linear by pieces in h with every coefficient >= 0, with cost_ccm_fit; the collective
 * kinds and the patterns go to m->coll, partition and rejoin (from the bare divisions and
 * bsp_par's) to m->partition and m->rejoin, and m->has_ccm is set when all but the patterns
 * were fitted (a pattern without samples, one-to-all when only P = 2 ran, is left out).
 */
#ifndef POLYBSP_PROBE_CCM_H
#define POLYBSP_PROBE_CCM_H

#include "cost/cost_calib.h"
#include "cost/cost_machine.h"
#include "probe/probe_measure.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define PROBE_CCM_MAX_SIZES 8
/* bcast, its four named algorithms, reduce ... alltoallv, the five patterns
 * (hrel.exchange ...), par, partition, rejoin */
#define PROBE_CCM_NKINDS 21

typedef struct probe_ccm_kind {
    const char *kind;
    int fitted;
    cost_ccm_fn f;
    size_t points;   /* distinct (P, h) */
    size_t samples;  /* calls timed */
    double residual; /* mean |median − T(P, h)| / median over the points, percent */
} probe_ccm_kind;

typedef struct probe_ccm {
    /* in */
    size_t nsizes;
    long sizes[PROBE_CCM_MAX_SIZES]; /* bytes per process, ascending */
    probe_rounds rounds;             /* its deadline is set by each probe_ccm_measure */
    uint64_t seed;
    void (*tick)(void *ctx); /* as in probe_levels.h */
    void (*plan)(void *ctx, double seconds);
    void *ctx;
    /* the P values measured, and their samples */
    size_t nprocs;
    int procs[COST_MAX_PROCS];
    cost_ccm_sample *samples;
    size_t nsamples, cap;
    char failed[512]; /* why the CCM could not be measured; empty when it was */
    /* out of probe_ccm_fit */
    probe_ccm_kind kinds[PROBE_CCM_NKINDS];
    /* the fits of each P alone (the machine's ccm_procs): P, and their mean
     * Resid over the kinds, percent */
    size_t nby;
    int by_procs[COST_MAX_PROCS];
    double by_residual[COST_MAX_PROCS];
} probe_ccm;

/* The P values to measure: the probe's when there are at least two (b needs
 * two values of ceil(log2 P)), else P and 2P. Returns how many (<= cap). */
size_t probe_ccm_procs(const int *procs, size_t nprocs, int *out, size_t cap);

/* Measures at P with the given deadline (seconds after bsp_begin). 0, or −1
 * with the reason in c->failed (the trace could not be made or read, memory):
 * the CCM is then not calibrated, and the rest of the probe stands. */
int probe_ccm_measure(probe_ccm *c, int P, double deadline);

/* The section's SPMD body: c on process 0, NULL on the others. */
void probe_ccm_body(void *c);

/* Fits every kind and fills m's ccm section (none after a failure). */
void probe_ccm_fit(probe_ccm *c, cost_machine *m);

void probe_ccm_free(probe_ccm *c);

/* Table CCM: a, b, c (and the break and the slope above it) of every kind,
 * with its points, samples and residual; or, after a failure, a note with the
 * reason. */
void probe_print_ccm(FILE *f, const probe_ccm *c, int cores);

#endif
