/* probe — `polybsp probe`: calibrate this machine the way paper 000 does.
 *
 * Contract: probe_run measures the five patterns with bsp_put and bsp_hpput at
 * every h-relation size and every P of each pattern's H_Π (probe_in_H), the empty
 * superstep, the BSP* cells and the computation rate;
 * then the D-BSP levels of the largest P and of the largest within the cores, or of
 * o->dbsp_procs alone (probe_levels.h), and the CCM cost
 * functions at two or more P (probe_ccm.h); all in about budget seconds (never
 * less than a minimum number of samples per cell). It prints tables Π.1, Π.2,
 * 11 and 12, Table D-BSP, Table CCM and the BSP* line to out, and writes the
 * machine file (and with o->raw the samples behind its tables, probe_raw.h). Returns 0, or -1 with
 * a one-line reason in err (the file cannot be written, or memory ran out). A CCM trace that cannot
 * be made or read is not fatal: the output says why, and the file has no ccm section.
 * bsp_init(probe_spmd, ...) must have been called.
 *
 * Method (docs/probe.md): one SPMD section per P runs a short pilot of every cell;
 * the repetitions are then planned so that each (P, cell) gets the same share of
 * half the budget, between a minimum and a maximum count; the main section per P
 * runs several rounds, each visiting the cells in a new random order, so that a
 * slow spell of the machine spreads over all sizes instead of biasing a few. The
 * D-BSP levels and the CCM collectives share what the patterns left, measured in
 * rounds the same way.
 */
#ifndef POLYBSP_PROBE_H
#define POLYBSP_PROBE_H

#include "cost/cost_machine.h"

#include <stddef.h>
#include <stdio.h>

#define PROBE_MAX_BYTES (1L << 28) /* largest h-relation accepted: 256 MiB */
/* Samples per cell at most, unless --experiments says otherwise (the paper ran
 * 500; the budget usually stops well before on a small machine). */
#define PROBE_DEFAULT_EXPERIMENTS 100
#define PROBE_MAX_EXPERIMENTS 100000

typedef struct probe_options {
    const char *output; /* the machine file */
    const char *raw;    /* every sample of the patterns (probe_raw.h), or NULL */
    double budget;      /* seconds */
    int quick;          /* a tiny run: few sizes, few samples (for tests) */
    int experiments;    /* samples per cell at most; 0: the default */
    int simulated;      /* on a simulator (smpi): a few samples per cell, whatever the budget */
    size_t nprocs;
    int procs[COST_MAX_PROCS]; /* ascending, distinct, >= 2 */
    /* The P of the D-BSP levels; 0: the largest of procs, and the largest within
     * the cores when that is another. Larger than procs, it calibrates the
     * hierarchy of a big machine without the patterns' P² cost there. */
    int dbsp_procs;
    size_t nsizes;
    long sizes[COST_MAX_SIZES]; /* ascending, distinct, even, in [2, PROBE_MAX_BYTES] */
    int cores;
    /* Called now and then with the fraction done (0..1) and what runs, e.g.
     * "P = 2: measuring"; from the thread of process 0 during measurements. */
    void (*progress)(void *ctx, double fraction, const char *phase);
    void *ctx;
} probe_options;

/* The sizes of the paper (6720 ... 1720320 bytes). */
extern const long probe_default_sizes[];
extern const size_t probe_default_nsizes;
/* The sizes of a --quick run. */
extern const long probe_quick_sizes[];
extern const size_t probe_quick_nsizes;

int probe_run(const probe_options *o, FILE *out, char *err, size_t errlen);

/* The most processes any section of probe_run(o) uses (the CCM may add a P):
 * the ranks an MPI job needs. */
int probe_most_procs(const probe_options *o);

#endif
