/* probe_analyse — from the measured medians to paper 000's tables and the machine file.
 *
 * Contract (the paper's method, section 3 and 4; docs/probe.md):
 *   - cells are laid out as probe_cell_index says: every (primitive, pattern, size)
 *     first, then the BSP* cells (bsp_put Exchange, h bytes cut into split pieces);
 *   - per pattern Π and primitive, L_Π and g_Π are the least squares line through
 *     (h, median time) of every size and every P (table Π.2); MaxErr per size is
 *     100·max_P |Time_P(h) − (L_Π + g_Π·h)| / min_P Time_P(h) (table Π.1);
 *   - the overall L and g (table 12) are the least squares line through T_average,
 *     the mean over P of each pattern's time; AvErr and MaxErr per size compare the
 *     five patterns with it (table 11);
 *   - h is counted with @ = sum and with @ = max; the operator whose overall bsp_put
 *     fit has the lower mean relative residual is kept (ties keep sum, the paper's);
 *   - BSP*: T = L + g*·s + g*·B·n over the BSP* cells, s bytes and n messages
 *     (in @ out), least squares plane; B = (g*·B) / g*.
 * probe_analyse fills everything of the machine that comes from the medians (not
 * host, date, cores, procs nor rate) and returns 0, or -1 with the reason in err.
 */
#ifndef POLYBSP_PROBE_ANALYSE_H
#define POLYBSP_PROBE_ANALYSE_H

#include "cost/cost_machine.h"
#include "probe/probe_measure.h"

#include <stddef.h>
#include <stdio.h>

/* The samples of one cell at one P: their median, and how widely they spread. */
typedef struct probe_stat {
    double median;
    double spread; /* interquartile range / median, percent */
    size_t n;
} probe_stat;

/* The median and spread of n >= 1 samples (sorts v). */
void probe_stat_of(double *v, size_t n, probe_stat *out);

typedef struct probe_data {
    size_t nprocs;
    const int *procs; /* the P values, ascending */
    size_t nsizes;
    const long *sizes; /* the h-relation sizes (@ = sum), ascending */
    size_t ncells;
    const probe_cell *cells;
    const probe_stat *stat; /* stat[p * ncells + c]: cell c at procs[p] */
} probe_data;

/* One primitive's tables 11 and 12. */
typedef struct probe_overall {
    double g, L;        /* under the operator kept */
    double residual[2]; /* mean |T_average − fit| / T_average, percent: [0] @ = max, [1] @ = sum */
    double averr[COST_MAX_SIZES], maxerr[COST_MAX_SIZES];
} probe_overall;

typedef struct probe_summary {
    cost_machine m; /* the machine file; bsp and table11 are bsp_put's */
    probe_overall overall[PROBE_NPRIMS];
    double spread[PROBE_NPRIMS][COST_NPATTERNS][COST_MAX_SIZES]; /* at the largest P */
    size_t bspstar_cells;
    int bspstar_fitted; /* 0: the plane was degenerate; g* is g and B is 0 */
} probe_summary;

static inline size_t probe_cell_index(probe_prim prim, cost_pattern pattern, size_t size,
                                      size_t nsizes)
{
    return ((size_t)prim * COST_NPATTERNS + (size_t)pattern) * nsizes + size;
}

int probe_analyse(const probe_data *d, probe_summary *s, char *err, size_t errlen);

/* Prints tables Π.1 and Π.2 of each pattern, 11 and 12 in the paper's layout, with
 * bsp_put and bsp_hpput where the paper has its architectures. */
void probe_print(FILE *f, const probe_data *d, const probe_summary *s);
/* Prints the summary lines: the operator kept, BSP*, r and the noise. */
void probe_print_summary(FILE *f, const probe_data *d, const probe_summary *s);

#endif
