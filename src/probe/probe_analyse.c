/* probe_analyse — the paper's fits and errors (contract in probe_analyse.h). */
#include "probe/probe_analyse.h"

#include "cost/cost_fit.h"
#include "probe/probe_pattern.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { OP_MAX = 0, OP_SUM = 1 };

static double quantile(const double *sorted, size_t n, double q)
{
    double pos = q * (double)(n - 1);
    size_t i = (size_t)pos;
    return i + 1 < n ? sorted[i] + (pos - (double)i) * (sorted[i + 1] - sorted[i]) : sorted[i];
}

void probe_stat_of(double *v, size_t n, probe_stat *out)
{
    out->n = n;
    out->median = cost_median(v, n);
    double iqr = quantile(v, n, 0.75) - quantile(v, n, 0.25);
    /* A median of 0 (a clock too coarse for the cell) has no relative spread. */
    out->spread = out->median > 0 ? 100.0 * iqr / out->median : 0;
}

static double median_at(const probe_data *d, size_t p, size_t cell)
{
    return d->stat[p * d->ncells + cell].median;
}

/* h of a pattern cell under an operator; the same for every P by construction. */
static int h_of(const probe_data *d, cost_pattern pattern, size_t size, int op, double *h)
{
    long bytes, msgs;
    if (probe_relation(pattern, d->procs[0], d->sizes[size], 1, op, &bytes, &msgs) != 0)
        return -1;
    *h = (double)bytes;
    return 0;
}

/* T_average of one pattern at one size: the mean over the P values. */
static double t_average(const probe_data *d, probe_prim prim, cost_pattern pattern, size_t size)
{
    double sum = 0;
    for (size_t p = 0; p < d->nprocs; p++)
        sum += median_at(d, p, probe_cell_index(prim, pattern, size, d->nsizes));
    return sum / (double)d->nprocs;
}

/* Table 12 for one primitive and operator: the line through every pattern's
 * (h, T_average(h)). With @ = sum all five patterns share each h, and this is the
 * least squares fit of the paper's T_average(h); with @ = max, Exchange and
 * AllToAll sit at h/2, and the same points still define the line. */
static int overall_fit(const probe_data *d, probe_prim prim, int op, double *L, double *g,
                       double *residual)
{
    size_t n = COST_NPATTERNS * d->nsizes;
    double x[COST_NPATTERNS * COST_MAX_SIZES], y[COST_NPATTERNS * COST_MAX_SIZES];
    for (int pat = 0; pat < COST_NPATTERNS; pat++)
        for (size_t k = 0; k < d->nsizes; k++) {
            size_t i = (size_t)pat * d->nsizes + k;
            if (h_of(d, (cost_pattern)pat, k, op, &x[i]) != 0)
                return -1;
            y[i] = t_average(d, prim, (cost_pattern)pat, k);
        }
    if (cost_fit_line(x, y, n, L, g) != 0)
        return -1;
    double sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += fabs(y[i] - (*L + *g * x[i])) / y[i];
    *residual = 100.0 * sum / (double)n;
    return 0;
}

/* Table 11's AvErr and MaxErr of one row, each pattern against its own model value:
 * under @ = max the five patterns of a row have different h, hence different
 * g·h + L (under @ = sum these are exactly the paper's formulas). */
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

static int table11(const probe_data *d, probe_prim prim, int op, probe_overall *o)
{
    for (size_t k = 0; k < d->nsizes; k++) {
        double t[COST_NPATTERNS], model[COST_NPATTERNS];
        for (int pat = 0; pat < COST_NPATTERNS; pat++) {
            double h;
            if (h_of(d, (cost_pattern)pat, k, op, &h) != 0)
                return -1;
            t[pat] = t_average(d, prim, (cost_pattern)pat, k);
            model[pat] = o->L + o->g * h;
        }
        o->averr[k] = row_averr(t, model, COST_NPATTERNS);
        o->maxerr[k] = row_maxerr(t, model, COST_NPATTERNS);
    }
    return 0;
}

/* Tables Π.1 and Π.2 of one pattern and primitive. */
static int pattern_fit(const probe_data *d, probe_prim prim, cost_pattern pat, int op,
                       cost_pattern_fit *f)
{
    double x[COST_MAX_PROCS * COST_MAX_SIZES], y[COST_MAX_PROCS * COST_MAX_SIZES];
    size_t n = 0, top = d->nprocs - 1;
    for (size_t k = 0; k < d->nsizes; k++) {
        if (h_of(d, pat, k, op, &f->h[k]) != 0)
            return -1;
        for (size_t p = 0; p < d->nprocs; p++) {
            x[n] = f->h[k];
            y[n++] = median_at(d, p, probe_cell_index(prim, pat, k, d->nsizes));
        }
    }
    if (cost_fit_line(x, y, n, &f->L, &f->g) != 0)
        return -1;
    f->measured = 1;
    f->nsizes = d->nsizes;
    for (size_t k = 0; k < d->nsizes; k++) {
        double t[COST_MAX_PROCS];
        for (size_t p = 0; p < d->nprocs; p++)
            t[p] = median_at(d, p, probe_cell_index(prim, pat, k, d->nsizes));
        f->time[k] = t[top];
        f->maxerr[k] = cost_maxerr(t, d->nprocs, f->L + f->g * f->h[k]);
    }
    return 0;
}

/* BSP*: the plane through (s, n, T) of the BSP* cells at every P. */
static int bspstar(const probe_data *d, int op, probe_summary *s)
{
    size_t first = probe_cell_index(PROBE_NPRIMS, 0, 0, d->nsizes);
    size_t cap = (d->ncells - first) * d->nprocs, n = 0;
    double *x1 = malloc((cap + 1) * sizeof *x1), *x2 = malloc((cap + 1) * sizeof *x2);
    double *y = malloc((cap + 1) * sizeof *y);
    int rc = x1 && x2 && y ? 0 : -1;
    for (size_t c = first; c < d->ncells && rc == 0; c++)
        for (size_t p = 0; p < d->nprocs && rc == 0; p++) {
            const probe_cell *cell = &d->cells[c];
            long bytes, msgs;
            rc =
                probe_relation(cell->pattern, d->procs[p], cell->h, cell->split, op, &bytes, &msgs);
            x1[n] = (double)bytes;
            x2[n] = (double)msgs;
            y[n++] = median_at(d, p, c);
        }
    double L, gstar, gB;
    s->bspstar_cells = d->ncells - first;
    s->bspstar_fitted = rc == 0 && cost_fit_plane(x1, x2, y, n, &L, &gstar, &gB) == 0 && gstar > 0;
    /* A plane the noise tilted gives no usable g*; the BSP* model then falls back
     * to plain BSP (B = 0), which is what BSP* says of a machine without a block size. */
    s->m.gstar = s->bspstar_fitted ? gstar : s->m.g;
    s->m.B = s->bspstar_fitted && gB > 0 ? gB / gstar : 0;
    free(x1);
    free(x2);
    free(y);
    return rc;
}

static double median_spread(const probe_data *d)
{
    size_t n = d->nprocs * d->ncells;
    double *v = malloc(n * sizeof *v);
    if (v == NULL)
        return NAN;
    for (size_t i = 0; i < n; i++)
        v[i] = d->stat[i].spread;
    double m = cost_median(v, n);
    free(v);
    return m;
}

int probe_analyse(const probe_data *d, probe_summary *s, char *err, size_t errlen)
{
    for (int prim = 0; prim < PROBE_NPRIMS; prim++)
        for (int op = OP_MAX; op <= OP_SUM; op++) {
            probe_overall *o = &s->overall[prim];
            if (overall_fit(d, (probe_prim)prim, op, &o->L, &o->g, &o->residual[op]) != 0)
                goto fail;
        }
    int op = s->overall[PROBE_PUT].residual[OP_SUM] <= s->overall[PROBE_PUT].residual[OP_MAX]
                 ? OP_SUM
                 : OP_MAX;
    s->m.h_sum = op == OP_SUM;
    for (int prim = 0; prim < PROBE_NPRIMS; prim++) {
        probe_overall *o = &s->overall[prim];
        double ignored;
        if (overall_fit(d, (probe_prim)prim, op, &o->L, &o->g, &ignored) != 0 ||
            table11(d, (probe_prim)prim, op, o) != 0)
            goto fail;
        cost_pattern_fit *fits = prim == PROBE_PUT ? s->m.put : s->m.hpput;
        for (int pat = 0; pat < COST_NPATTERNS; pat++) {
            if (pattern_fit(d, (probe_prim)prim, (cost_pattern)pat, op, &fits[pat]) != 0)
                goto fail;
            for (size_t k = 0; k < d->nsizes; k++)
                s->spread[prim][pat][k] =
                    d->stat[(d->nprocs - 1) * d->ncells +
                            probe_cell_index((probe_prim)prim, (cost_pattern)pat, k, d->nsizes)]
                        .spread;
        }
    }
    s->m.g = s->overall[PROBE_PUT].g;
    s->m.L = s->overall[PROBE_PUT].L;
    s->m.nsizes = d->nsizes;
    for (size_t k = 0; k < d->nsizes; k++) {
        s->m.t11_h[k] = (double)d->sizes[k];
        s->m.t11_averr[k] = s->overall[PROBE_PUT].averr[k];
        s->m.t11_maxerr[k] = s->overall[PROBE_PUT].maxerr[k];
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
