/* probe_levels — D-BSP's g_i and ℓ_i per cluster level (paper 002, section 3).
 *
 * Contract: probe_levels_measure runs one SPMD section of P processes. Level i
 * is made by bsp_partition(2, NULL) i times: the binary decomposition of paper
 * 002, i-clusters of P/2^i consecutive processes (ceil or floor when P is not a
 * power of two; a cluster of one process is not divided further), for every
 * level 0 .. ceil(log2 P), the last one made of clusters of one process. At
 * each level all i-clusters run, at the same time, h-relations of every size
 * inside themselves: an Exchange across the cluster's halves (member j of the
 * first half swaps h/2 bytes with member j of the second; the middle process
 * of an odd cluster and a cluster of one are idle), so that each message of a
 * level-i superstep crosses between the two (i+1)-clusters it contains, the
 * traffic that tells g_i from g_{i+1}. At the last level nothing moves: its
 * samples time the empty superstep of a process alone, the ℓ of the
 * supersteps that D-BSP labels there (cost_groups.h). One sample is one superstep, timed on each
 * process as in probe_measure.h; its time is the largest over all processes of all clusters (D-BSP
 * charges a labelled superstep its slowest cluster). The bsp_partition(2, NULL) that divides each
 * i-cluster on the way to a deeper level, and the bsp_rejoin back into it, are timed too (the
 * largest over the processes, no data moved): part[i] and rejoin[i], which D-BSP charges a
 * program's own divisions (cost_groups.h).
 *
 * The cells are the (level, size) pairs, measured in rounds (probe_rounds in
 * probe_measure.h). Each round visits the levels in turn and, inside a level,
 * the sizes in a new random order.
 *
 * probe_levels_fit: per level, the least-squares line time = ℓ_i + g_i·h through
 * the medians of the sizes (h counted with the operator given, as bsp is); for
 * clusters of one process g_i = 0 and ℓ_i the median of the medians. The
 * levels with g_i > 0, and the one of clusters of one, go to the machine's
 * dbsp section (probe_run measures the levels at up to two P: see docs/probe.md).
 */
#ifndef POLYBSP_PROBE_LEVELS_H
#define POLYBSP_PROBE_LEVELS_H

#include "cost/cost_machine.h"
#include "probe/probe_analyse.h"
#include "probe/probe_measure.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct probe_levels {
    /* in */
    int nprocs;
    size_t nsizes;
    long sizes[COST_MAX_SIZES]; /* h with @ = sum, even, ascending */
    probe_rounds rounds;
    uint64_t seed; /* the same random orders on every process */
    /* Called by process 0: after each round; after the first round with the
     * seconds the later ones should take. Either may be NULL. */
    void (*tick)(void *ctx);
    void (*plan)(void *ctx, double seconds);
    void *ctx;
    /* out of probe_levels_measure */
    size_t nlevels;               /* levels 0 .. nlevels−1 */
    int cluster[COST_MAX_LEVELS]; /* the largest i-cluster, ceil(P / 2^i) */
    probe_stat stat[COST_MAX_LEVELS][COST_MAX_SIZES];
    /* dividing an i-cluster in two, and rejoining into one (n = 0 for the last level) */
    probe_stat part[COST_MAX_LEVELS], rejoin[COST_MAX_LEVELS];
    /* out of probe_levels_fit */
    int h_sum;
    double h[COST_MAX_SIZES]; /* the x of the fits */
    double g[COST_MAX_LEVELS], L[COST_MAX_LEVELS];
    double residual[COST_MAX_LEVELS]; /* mean |median − fit| / median, percent */
} probe_levels;

/* The levels probe_levels_measure measures for P processes: 0 .. ceil(log2 P)
 * (none for P < 2). */
size_t probe_levels_count(int P);

/* Runs the section (none when P < 2). A process that cannot have its buffers
 * stops the run with bsp_abort, as probe_measure_comm does. */
void probe_levels_measure(probe_levels *lv);

/* The section's SPMD body: lv on process 0, NULL on the others. */
void probe_levels_body(void *lv);

/* Fits every level and writes those with g_i > 0 and the one of clusters of one
 * into m, with the P measured and whether it exceeded the cores, and the median
 * partition and rejoin of each level that divides. */
void probe_levels_fit(probe_levels *lv, int h_sum, int cores, cost_levels_procs *m);

/* Table D-BSP: per level and h, the median time and spread; ℓ_i, g_i and the
 * residual of each level's line; a note per level left out of the file. */
void probe_print_levels(FILE *f, const probe_levels *lv, int cores);

#endif
