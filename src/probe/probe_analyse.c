/* probe_analyse — the paper's fits and errors (contract in probe_analyse.h). */
#include "probe/probe_analyse.h"

#include "cost/cost_fit.h"
#include "probe/probe_pattern.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { OP_MAX = 0, OP_SUM = 1 };
enum { MAX_POINTS = COST_NPATTERNS * COST_MAX_SIZES * COST_MAX_PROCS + 1 };

static double quantile(const double *sorted, size_t n, double q)
{
    double pos = q * (double)(n - 1);
    size_t i = (size_t)pos;
    return i + 1 < n ? sorted[i] + (pos - (double)i) * (sorted[i + 1] - sorted[i]) : sorted[i];
}

void probe_stat_of(double *v, size_t n, probe_stat *out)
{
    out->n = n;
    if (n == 0) {
        out->mean = out->median = out->spread = NAN;
        return;
    }
    double sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += v[i];
    out->mean = sum / (double)n;
    out->median = cost_median(v, n);
    double iqr = quantile(v, n, 0.75) - quantile(v, n, 0.25);
    /* A median of 0 (a clock too coarse for the cell) has no relative spread. */
    out->spread = out->median > 0 ? 100.0 * iqr / out->median : 0;
}

int probe_in_H(cost_pattern pat, int P, int most)
{
    return pat == COST_EXCHANGE || pat == COST_PINGPONG || P >= 4 || most < 4;
}

/* Least squares of relative errors, Σ ((a + b·x1_i + c·x2_i − y_i) / s_i)² with
 * s_i = y_i (scale NULL) or scale[i], so that a superstep of a microsecond weighs
 * as much as one of a millisecond (and one preempted large cell cannot tilt the
 * fit); with every coefficient >= 0 (a latency, a cost per byte or per message is
 * never negative: on a noisy machine the unconstrained fit can cross zero, and a
 * negative L would credit every superstep with time). Without x2, the line
 * (c = 0). Points with y <= 0 carry no relative error and are left out. -1 when
 * fewer than two distinct x1 remain. */
static int fit_relative(const double *x1, const double *x2, const double *y, const double *scale,
                        size_t n, double *coef)
{
    double(*X)[COST_NNLS_MAXCOLS] = malloc((n ? n : 1) * sizeof *X);
    double *rhs = malloc((n ? n : 1) * sizeof *rhs);
    size_t m = 0;
    double xmin = INFINITY, xmax = -INFINITY;
    for (size_t i = 0; X && rhs && i < n; i++) {
        if (!(y[i] > 0) || !isfinite(x1[i]) || (x2 != NULL && !isfinite(x2[i])))
            continue;
        double s = scale != NULL ? scale[i] : y[i];
        X[m][0] = 1 / s;
        X[m][1] = x1[i] / s;
        X[m][2] = x2 != NULL ? x2[i] / s : 0;
        rhs[m++] = y[i] / s;
        xmin = fmin(xmin, x1[i]);
        xmax = fmax(xmax, x1[i]);
    }
    int rc = -1;
    if (m && xmax > xmin) {
        cost_fit_nnls((const double(*)[COST_NNLS_MAXCOLS])X, rhs, m, x2 != NULL ? 3 : 2, coef);
        rc = 0;
    }
    free(X);
    free(rhs);
    return rc;
}

int probe_fit_relative(const double *x, const double *y, size_t n, double *a, double *b)
{
    double coef[COST_NNLS_MAXCOLS];
    if (fit_relative(x, NULL, y, NULL, n, coef) != 0)
        return -1;
    *a = coef[0];
    *b = coef[1];
    return 0;
}

/* The logarithmic mean of two positive numbers, (u − v) / ln(u / v) (u when equal). */
static double log_mean(double u, double v)
{
    return fabs(u - v) <= 1e-12 * u ? u : (u - v) / log(u / v);
}

int probe_fit_ratio(const double *x, const double *y, size_t n, double *a, double *b)
{
    enum { ROUNDS = 100 };
    if (probe_fit_relative(x, y, n, a, b) != 0)
        return -1;
    double *scale = malloc((n ? n : 1) * sizeof *scale);
    if (scale == NULL)
        return -1;
    /* Reweighted least squares: at the minimum of Σ ln²(f_i / y_i) the gradient is
     * Σ ln(f_i / y_i) / f_i · ∂f_i, which is the weighted fit's Σ (f_i − y_i) / s_i² · ∂f_i
     * when s_i² = f_i · (f_i − y_i) / ln(f_i / y_i); so refit with those scales
     * until the line stops moving (a fixed point of this is the ratio fit). */
    for (int round = 0; round < ROUNDS; round++) {
        for (size_t i = 0; i < n; i++) {
            double f = *a + *b * x[i];
            scale[i] = f > 0 && y[i] > 0 ? sqrt(f * log_mean(f, y[i])) : y[i];
        }
        double coef[COST_NNLS_MAXCOLS];
        if (fit_relative(x, NULL, y, scale, n, coef) != 0)
            break;
        int still = fabs(coef[0] - *a) <= 1e-9 * fmax(coef[0], *a) &&
                    fabs(coef[1] - *b) <= 1e-9 * fmax(coef[1], *b);
        *a = coef[0];
        *b = coef[1];
        if (still)
            break;
    }
    free(scale);
    return 0;
}

/* Which statistic of a cell's samples. The paper's tables (Π.1, Π.2, 11 and
 * table 12's least squares) average them, as paper 000 does. The fits the machine
 * file keeps (table 12's relative fit, hence g and L, the choice of @, by_procs
 * and BSP*'s plane) take medians, as the D-BSP levels and CCM already do: on a
 * shared machine a mean follows its outliers (a preempted batch, the VM's slow
 * spells), and on the development VM means made the choice of @ flip between
 * probes taken minutes apart, moving g by up to 70 %; medians chose the same @
 * every time (docs/models.md, "The probe's measures"). */
typedef enum { BY_MEAN, BY_MEDIAN } probe_by;

static double value_at(const probe_data *d, size_t p, size_t cell, probe_by by)
{
    const probe_stat *st = &d->stat[p * d->ncells + cell];
    return by == BY_MEAN ? st->mean : st->median;
}

static int most_procs(const probe_data *d) { return d->procs[d->nprocs - 1]; }

/* Whether procs[p] belongs to the group. */
static int in_group(const probe_data *d, const probe_group *g, size_t p)
{
    return (d->procs[p] > d->cores) == g->over;
}

static int in_H(const probe_data *d, cost_pattern pat, size_t p)
{
    return probe_in_H(pat, d->procs[p], most_procs(d));
}

/* h of a pattern cell under an operator; the same for every P by construction. */
static int h_of(const probe_data *d, cost_pattern pattern, size_t size, int op, double *h)
{
    long bytes, msgs;
    if (probe_relation(pattern, most_procs(d), d->sizes[size], 1, op, &bytes, &msgs) != 0)
        return -1;
    *h = (double)bytes;
    return 0;
}

/* One pattern at one size in a group, averaged over the group's P of H_Π (the
 * paper's T_average when by is BY_MEAN); NaN when there is none. */
static double t_average(const probe_data *d, const probe_group *g, probe_prim prim,
                        cost_pattern pattern, size_t size, probe_by by)
{
    double sum = 0;
    size_t n = 0;
    for (size_t p = 0; p < d->nprocs; p++)
        if (in_group(d, g, p) && in_H(d, pattern, p)) {
            sum += value_at(d, p, probe_cell_index(prim, pattern, size, d->nsizes), by);
            n++;
        }
    return n ? sum / (double)n : NAN;
}

/* The empty superstep's median, averaged over the group's P. */
static double empty_median(const probe_data *d, const probe_group *g)
{
    double sum = 0;
    size_t n = 0;
    for (size_t p = 0; p < d->nprocs; p++)
        if (in_group(d, g, p)) {
            sum += value_at(d, p, probe_empty_cell(d->nsizes), BY_MEDIAN);
            n++;
        }
    return sum / (double)n;
}

/* The paper's least squares through the n points (x, mean), then the relative
 * fit in ratios (probe_fit_ratio) through (x, median) and the empty superstep
 * (h = 0, time empty); x and median have room for that one more point. A fit
 * that cannot be made (no time > 0) falls back to the paper's line. Returns the
 * relative fit's residual, mean |median − fit| / median in percent, or a
 * negative value when no line could be fitted. */
static double both_fits(double *x, const double *mean, double *median, size_t n, double empty,
                        double *L, double *g, double *rel_L, double *rel_g)
{
    if (cost_fit_line(x, mean, n, L, g) != 0)
        return -1;
    x[n] = 0;
    median[n] = empty;
    if (probe_fit_ratio(x, median, n + 1, rel_L, rel_g) != 0) {
        *rel_L = *L;
        *rel_g = *g;
    }
    double sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += fabs(median[i] - (*rel_L + *rel_g * x[i])) / median[i];
    return n ? 100.0 * sum / (double)n : 0;
}

/* Table 12 for one primitive and operator in one group: the line through every
 * pattern's (h, T_average(h)); with @ = sum the patterns share each h, and this is
 * the least squares fit of the paper's T_average(h). Then the relative fit through
 * the patterns' medians and the empty superstep's, whose residual chooses @. */
static int overall_fit(const probe_data *d, probe_group *g, probe_prim prim, int op,
                       probe_overall *o, double *residual)
{
    double x[MAX_POINTS], mean[MAX_POINTS], median[MAX_POINTS];
    size_t n = 0;
    for (int pat = 0; pat < COST_NPATTERNS; pat++)
        for (size_t k = 0; k < d->nsizes; k++) {
            mean[n] = t_average(d, g, prim, (cost_pattern)pat, k, BY_MEAN);
            median[n] = t_average(d, g, prim, (cost_pattern)pat, k, BY_MEDIAN);
            if (isnan(mean[n]))
                continue;
            if (h_of(d, (cost_pattern)pat, k, op, &x[n]) != 0)
                return -1;
            n++;
        }
    o->empty = empty_median(d, g);
    *residual = both_fits(x, mean, median, n, o->empty, &o->L, &o->g, &o->rel_L, &o->rel_g);
    return *residual < 0 ? -1 : 0;
}

/* Table 11's AvErr and MaxErr of one row, each pattern against its own model value:
 * under @ = max the patterns of a row have different h, hence different g·h + L
 * (under @ = sum these are exactly the paper's formulas). */
static double row_averr(const double *t, const double *model, size_t n)
{
    double dev = 0, sum = 0;
    for (size_t i = 0; i < n; i++) {
        dev += fabs(t[i] - model[i]);
        sum += t[i];
    }
    return 100.0 * dev / sum;
}

static double row_maxerr(const double *t, const double *model, size_t n)
{
    double dev = 0, least = t[0];
    for (size_t i = 0; i < n; i++) {
        dev = fmax(dev, fabs(t[i] - model[i]));
        least = fmin(least, t[i]);
    }
    return 100.0 * dev / least;
}

static int table11(const probe_data *d, const probe_group *g, probe_prim prim, int op,
                   probe_overall *o)
{
    for (size_t k = 0; k < d->nsizes; k++) {
        double t[COST_NPATTERNS], model[COST_NPATTERNS], h;
        size_t n = 0;
        for (int pat = 0; pat < COST_NPATTERNS; pat++) {
            t[n] = t_average(d, g, prim, (cost_pattern)pat, k, BY_MEAN);
            if (isnan(t[n]))
                continue;
            if (h_of(d, (cost_pattern)pat, k, op, &h) != 0)
                return -1;
            model[n++] = o->L + o->g * h;
        }
        o->averr[k] = row_averr(t, model, n);
        o->maxerr[k] = row_maxerr(t, model, n);
    }
    return 0;
}

/* Tables Π.1 and Π.2 of one pattern and primitive in one group. */
static int pattern_fit(const probe_data *d, probe_group *g, probe_prim prim, cost_pattern pat,
                       int op)
{
    cost_pattern_fit *f = &g->fit[prim][pat];
    double x[MAX_POINTS], y[MAX_POINTS];
    size_t n = 0, top = 0, np = 0;
    for (size_t p = 0; p < d->nprocs; p++)
        if (in_group(d, g, p) && in_H(d, pat, p)) {
            top = p;
            np++;
        }
    f->measured = 0;
    if (np == 0)
        return 0;
    for (size_t k = 0; k < d->nsizes; k++) {
        if (h_of(d, pat, k, op, &f->h[k]) != 0)
            return -1;
        for (size_t p = 0; p < d->nprocs; p++)
            if (in_group(d, g, p) && in_H(d, pat, p)) {
                x[n] = f->h[k];
                y[n++] = value_at(d, p, probe_cell_index(prim, pat, k, d->nsizes), BY_MEAN);
            }
    }
    if (cost_fit_line(x, y, n, &f->L, &f->g) != 0)
        return -1;
    f->measured = 1;
    f->nsizes = d->nsizes;
    g->top[pat] = d->procs[top];
    for (size_t k = 0; k < d->nsizes; k++) {
        double t[COST_MAX_PROCS];
        size_t m = 0, cell = probe_cell_index(prim, pat, k, d->nsizes);
        for (size_t p = 0; p < d->nprocs; p++)
            if (in_group(d, g, p) && in_H(d, pat, p))
                t[m++] = value_at(d, p, cell, BY_MEAN);
        const probe_stat *at_top = &d->stat[top * d->ncells + cell];
        f->time[k] = at_top->mean;
        f->maxerr[k] = cost_maxerr(t, m, f->L + f->g * f->h[k]);
        g->median[prim][pat][k] = at_top->median;
        g->spread[prim][pat][k] = at_top->spread;
    }
    return 0;
}

/* One P alone, bsp_put: its patterns of H_Π and, for the relative fit, its empty
 * superstep. */
static int procs_fit(const probe_data *d, size_t p, int op, probe_pfit *f)
{
    double x[MAX_POINTS], mean[MAX_POINTS], median[MAX_POINTS];
    size_t n = 0;
    for (int pat = 0; pat < COST_NPATTERNS; pat++)
        for (size_t k = 0; k < d->nsizes && in_H(d, (cost_pattern)pat, p); k++) {
            if (h_of(d, (cost_pattern)pat, k, op, &x[n]) != 0)
                return -1;
            size_t cell = probe_cell_index(PROBE_PUT, (cost_pattern)pat, k, d->nsizes);
            mean[n] = value_at(d, p, cell, BY_MEAN);
            median[n++] = value_at(d, p, cell, BY_MEDIAN);
        }
    f->P = d->procs[p];
    f->over = d->procs[p] > d->cores;
    f->empty = value_at(d, p, probe_empty_cell(d->nsizes), BY_MEDIAN);
    return both_fits(x, mean, median, n, f->empty, &f->L, &f->g, &f->rel_L, &f->rel_g) < 0 ? -1 : 0;
}

/* BSP*: the plane T = L + g*·s + (g*·B)·n through (s, n, median T) of the BSP*
 * cells at the first group's P, fitted as the BSP line is (fit_relative): by
 * absolute least squares the largest cells decided g*, and one of them slowed
 * by the machine (a preempted batch, the VM's slow state) made g* several times
 * bsp_put's g, so that BSP* over-predicted every large message. */
static int bspstar(const probe_data *d, int op, probe_summary *s)
{
    const probe_group *g = &s->group[s->first];
    size_t first = probe_empty_cell(d->nsizes) + 1;
    size_t cap = (d->ncells - first) * d->nprocs, n = 0;
    double *x1 = malloc((cap + 1) * sizeof *x1), *x2 = malloc((cap + 1) * sizeof *x2);
    double *y = malloc((cap + 1) * sizeof *y);
    int rc = x1 && x2 && y ? 0 : -1;
    for (size_t c = first; c < d->ncells && rc == 0; c++)
        for (size_t p = 0; p < d->nprocs && rc == 0; p++) {
            if (!in_group(d, g, p))
                continue;
            const probe_cell *cell = &d->cells[c];
            long bytes, msgs;
            rc =
                probe_relation(cell->pattern, d->procs[p], cell->h, cell->split, op, &bytes, &msgs);
            x1[n] = (double)bytes;
            x2[n] = (double)msgs;
            y[n++] = value_at(d, p, c, BY_MEDIAN);
        }
    double coef[COST_NNLS_MAXCOLS];
    s->bspstar_cells = d->ncells - first;
    s->bspstar_fitted = rc == 0 && fit_relative(x1, x2, y, NULL, n, coef) == 0 && coef[1] > 0;
    /* A plane the noise flattened gives no usable g*; the BSP* model then falls
     * back to plain BSP (B = 0), which is what BSP* says of a machine without a
     * block size. */
    s->m.gstar = s->bspstar_fitted ? coef[1] : s->m.g;
    s->m.B = s->bspstar_fitted ? coef[2] / coef[1] : 0;
    free(x1);
    free(x2);
    free(y);
    return rc;
}

/* The median spread over the cells measured. */
static double median_spread(const probe_data *d)
{
    size_t n = 0;
    double *v = malloc(d->nprocs * d->ncells * sizeof *v);
    if (v == NULL)
        return NAN;
    for (size_t i = 0; i < d->nprocs * d->ncells; i++)
        if (d->stat[i].n > 0)
            v[n++] = d->stat[i].spread;
    double m = cost_median(v, n);
    free(v);
    return m;
}

/* The paper's tables of one group under operator op. */
static int group_tables(const probe_data *d, probe_group *g, int op)
{
    for (int prim = 0; prim < PROBE_NPRIMS; prim++) {
        probe_overall *o = &g->overall[prim];
        double residual;
        if (overall_fit(d, g, (probe_prim)prim, op, o, &residual) != 0 ||
            table11(d, g, (probe_prim)prim, op, o) != 0)
            return -1;
        for (int pat = 0; pat < COST_NPATTERNS; pat++)
            if (pattern_fit(d, g, (probe_prim)prim, (cost_pattern)pat, op) != 0)
                return -1;
    }
    return 0;
}

int probe_analyse(const probe_data *d, probe_summary *s, char *err, size_t errlen)
{
    for (int over = 0; over < 2; over++) {
        probe_group *g = &s->group[over];
        g->over = over;
        g->nprocs = 0;
        for (size_t p = 0; p < d->nprocs; p++)
            if (in_group(d, g, p))
                g->procs[g->nprocs++] = d->procs[p];
        g->present = g->nprocs > 0;
    }
    s->first = s->group[0].present ? 0 : 1;
    probe_group *first = &s->group[s->first];
    for (int op = OP_MAX; op <= OP_SUM; op++)
        for (int prim = 0; prim < PROBE_NPRIMS; prim++) {
            probe_overall *o = &first->overall[prim];
            if (overall_fit(d, first, (probe_prim)prim, op, o, &o->residual[op]) != 0)
                goto fail;
        }
    int op =
        first->overall[PROBE_PUT].residual[OP_SUM] <= first->overall[PROBE_PUT].residual[OP_MAX]
            ? OP_SUM
            : OP_MAX;
    s->m.h_sum = op == OP_SUM;
    for (int over = 0; over < 2; over++)
        if (s->group[over].present && group_tables(d, &s->group[over], op) != 0)
            goto fail;
    memcpy(s->m.put, first->fit[PROBE_PUT], sizeof s->m.put);
    memcpy(s->m.hpput, first->fit[PROBE_HPPUT], sizeof s->m.hpput);
    s->m.g = first->overall[PROBE_PUT].rel_g;
    s->m.L = first->overall[PROBE_PUT].rel_L;
    /* The same fit of bsp_hpput, for the bytes it moves (cost_hbytes); left
     * out (0) when noise tilted it to g <= 0. */
    s->m.g_hpput = fmax(0, first->overall[PROBE_HPPUT].rel_g);
    s->m.nsizes = d->nsizes;
    for (size_t k = 0; k < d->nsizes; k++) {
        s->m.t11_h[k] = (double)d->sizes[k];
        s->m.t11_averr[k] = first->overall[PROBE_PUT].averr[k];
        s->m.t11_maxerr[k] = first->overall[PROBE_PUT].maxerr[k];
    }
    s->m.nbyprocs = d->nprocs;
    for (size_t p = 0; p < d->nprocs; p++) {
        probe_pfit *f = &s->pfit[p];
        if (procs_fit(d, p, op, f) != 0)
            goto fail;
        s->m.byprocs[p] = (cost_procs_fit){
            .procs = f->P, .oversubscribed = f->over, .g = f->rel_g, .L = f->rel_L};
    }
    if (bspstar(d, op, s) != 0)
        goto fail;
    s->m.spread = median_spread(d);
    if (isnan(s->m.spread))
        goto fail;
    return 0;
fail:
    /* Sizes are checked to be distinct before anything runs, so a fit can only
     * fail here for want of memory. */
    snprintf(err, errlen, "out of memory while fitting the measurements");
    return -1;
}
