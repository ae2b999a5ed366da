/* probe_analyse — from the measured samples to paper 000's tables and the machine file.
 *
 * Contract (the paper's method, sections 3 and 4; docs/probe.md):
 *   - cells are laid out as probe_cell_index says: every (primitive, pattern, size)
 *     first, then the empty superstep (probe_empty_cell), then the BSP* cells
 *     (bsp_put Exchange, h bytes cut into split pieces);
 *   - a pattern Π is measured at the P of H_Π (probe_in_H): Exchange and PingPong at
 *     every P, OneToAll, AllToOne and AllToAll at P >= 4 (at every P when none is);
 *   - the P values are split in two groups fitted separately: those within the cores
 *     and the oversubscribed ones. Per group: L_Π and g_Π are the least squares line
 *     through (h, average time) of every size and every P of the group in H_Π (table
 *     Π.2); MaxErr per size is 100·max_P |Time_P(h) − (L_Π + g_Π·h)| / min_P Time_P(h)
 *     (table Π.1); the paper's L and g (table 12) are the least squares line through
 *     T_average, each pattern's mean over its P; AvErr and MaxErr per size compare the
 *     patterns with it (table 11);
 *   - beside the paper's line, the relative fit: the line through the same cells'
 *     medians and the empty superstep's (h = 0) that minimises the sum of squared
 *     logarithms of the ratios line / time (probe_fit_ratio), so that L is right for
 *     small supersteps too and patterns that cost many times each other (a machine
 *     with a hierarchy) meet at their geometric mean, not at the fastest. The
 *     machine file's bsp g and L are this fit of the first group (the cores' when
 *     any P fits them), and by_procs holds it for each P alone (what predict uses);
 *   - h is counted with @ = sum and with @ = max; the operator whose bsp_put relative
 *     fit has the lower mean relative residual in the first group is kept (ties keep
 *     sum);
 *   - BSP*: T = L + g*·s + g*·B·n over the medians of the BSP* cells at the first
 *     group's P, s bytes and n messages (in @ out), the plane with L, g*, g*·B >= 0
 *     minimising the squared relative errors (as the relative line); B = (g*·B) / g*.
 * The paper's tables and lines are through averages, as the paper's, with medians
 * printed beside them; what the machine file keeps is fitted through medians.
 * probe_analyse fills everything of the machine that comes from the samples (not
 * host, date, cores, procs nor rate) and returns 0, or -1 with the reason in err.
 */
#ifndef POLYBSP_PROBE_ANALYSE_H
#define POLYBSP_PROBE_ANALYSE_H

#include "cost/cost_machine.h"
#include "probe/probe_measure.h"

#include <stddef.h>
#include <stdio.h>

/* The samples of one cell at one P: their average, median, and how widely they
 * spread. A cell not measured (a pattern outside its H_Π) has n = 0 and NaN. */
typedef struct probe_stat {
    double mean, median;
    double spread; /* interquartile range / median, percent */
    size_t n;
} probe_stat;

/* The average, median and spread of n samples (sorts v); NaN for n == 0. */
void probe_stat_of(double *v, size_t n, probe_stat *out);

/* Whether pattern pat is measured at P when the largest P measured is most: the
 * paper's H_Π ({2,4,6,8} for E and PP, {4,6,8} for OA, AO, AA). */
int probe_in_H(cost_pattern pat, int P, int most);

/* The line y ≈ a + b·x with a, b >= 0 minimising Σ ((y_i − a − b·x_i) / y_i)² over
 * the points with y_i > 0; -1 when fewer than two distinct x remain. */
int probe_fit_relative(const double *x, const double *y, size_t n, double *a, double *b);

/* The line y ≈ a + b·x with a, b >= 0 minimising Σ ln²((a + b·x_i) / y_i) over the
 * points with y_i > 0: relative errors weighed alike whether the line is k times
 * above a point or k times below it (the squared relative errors above weigh a
 * point under the line at most 1 and one over it without bound, so where the
 * points at one x differ many times the line follows the lowest). -1 as above, or
 * when out of memory. */
int probe_fit_ratio(const double *x, const double *y, size_t n, double *a, double *b);

typedef struct probe_data {
    size_t nprocs;
    const int *procs; /* the P values, ascending */
    int cores;        /* P above it is oversubscribed */
    size_t nsizes;
    const long *sizes; /* the h-relation sizes (@ = sum), ascending */
    size_t ncells;
    const probe_cell *cells;
    const probe_stat *stat; /* stat[p * ncells + c]: cell c at procs[p] */
} probe_data;

/* One primitive's tables 11 and 12 in one group. */
typedef struct probe_overall {
    double g, L;         /* the paper's least squares, under the operator kept */
    double rel_g, rel_L; /* the relative fit through medians with the empty superstep */
    double empty;        /* the empty superstep's median, averaged over the group's P */
    double residual[2];  /* of the relative fit: mean |median − fit| / median, percent,
                            [0] @ = max, [1] @ = sum */
    double averr[COST_MAX_SIZES], maxerr[COST_MAX_SIZES];
} probe_overall;

/* The P values within the cores (over = 0) or above them (over = 1), fitted apart. */
typedef struct probe_group {
    int present, over;
    size_t nprocs;
    int procs[COST_MAX_PROCS];
    probe_overall overall[PROBE_NPRIMS];
    cost_pattern_fit fit[PROBE_NPRIMS][COST_NPATTERNS]; /* measured 0: no P of the group in H_Π */
    int top[COST_NPATTERNS];                            /* the largest P of the group in H_Π */
    double median[PROBE_NPRIMS][COST_NPATTERNS][COST_MAX_SIZES]; /* at top */
    double spread[PROBE_NPRIMS][COST_NPATTERNS][COST_MAX_SIZES]; /* at top */
} probe_group;

/* One P alone: the paper's line through its patterns' averages and the relative one
 * through their medians. */
typedef struct probe_pfit {
    int P, over;
    double g, L, rel_g, rel_L, empty;
} probe_pfit;

typedef struct probe_summary {
    cost_machine m; /* the machine file; bsp and table11 are bsp_put's */
    probe_group group[2];
    size_t first; /* the group the machine file's bsp, patterns and table11 come from */
    probe_pfit pfit[COST_MAX_PROCS];
    size_t bspstar_cells;
    int bspstar_fitted; /* 0: the plane was degenerate; g* is g and B is 0 */
} probe_summary;

static inline size_t probe_cell_index(probe_prim prim, cost_pattern pattern, size_t size,
                                      size_t nsizes)
{
    return ((size_t)prim * COST_NPATTERNS + (size_t)pattern) * nsizes + size;
}

/* The empty superstep (h = 0), after the pattern cells; the BSP* cells follow it. */
static inline size_t probe_empty_cell(size_t nsizes)
{
    return probe_cell_index(PROBE_NPRIMS, 0, 0, nsizes);
}

int probe_analyse(const probe_data *d, probe_summary *s, char *err, size_t errlen);

/* Prints, for each group, tables Π.1 and Π.2 of each pattern, 11 and 12 in the
 * paper's layout, with bsp_put and bsp_hpput where the paper has its architectures;
 * then the fit of each P. */
void probe_print(FILE *f, const probe_data *d, const probe_summary *s);
/* Prints the summary lines: the operator kept, BSP*, r and the noise. */
void probe_print_summary(FILE *f, const probe_data *d, const probe_summary *s);

#endif
