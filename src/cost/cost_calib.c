/* cost_calib — CCM samples from a trace and their fit (see cost_calib.h).
 *
 * The walk mirrors cost_groups.c's evaluation (the same collective runs, the
 * same h), but reads the measured times instead of predicting them.
 */
#include "cost/cost_calib.h"
#include "cost/cost_fit.h"

#include "cost/cost_groups.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct sampler {
    const cost_trace *t;
    cost_ccm_sample *out;
    size_t cap, n;
} sampler;

/* max(bytes in, bytes out) of one record: the CCM h of one process. */
static double h_of(const cost_rec *r) { return cost_combine(r->bytes_in, r->bytes_out, 0); }

/* The CCM h of one superstep of g: the largest of its members'. */
static double step_h(const cost_trace *t, const cost_group *g, const cost_item *it)
{
    double h = 0;
    for (int j = 0; j < g->nmembers; j++)
        h = fmax(h, h_of(cost_item_rec(t, g, it, j)));
    return h;
}

static void add(sampler *s, const char *kind, int P, double h, double enter, double exit,
                size_t line)
{
    if (s->n < s->cap) {
        cost_ccm_sample *x = &s->out[s->n];
        snprintf(x->kind, sizeof x->kind, "%s", kind);
        x->P = P;
        x->h = h;
        x->time = exit - enter;
        x->line = line;
    }
    s->n++;
}

/* The latest start of a superstep's communication and the latest t_exit of
 * its members. A process's communication starts when its put and send calls
 * began copying payloads (t_enter − copy): predict's W is w less that copy
 * (cost_work), so T must hold it, as the probe's g holds it for BSP. */
static void span(const cost_trace *t, const cost_group *g, const cost_item *it, double *enter,
                 double *exit)
{
    *enter = *exit = 0;
    for (int j = 0; j < g->nmembers; j++) {
        const cost_rec *r = cost_item_rec(t, g, it, j);
        *enter = fmax(*enter, r->t_enter - r->copy);
        *exit = fmax(*exit, r->t_exit);
    }
}

static int walk(sampler *s, const cost_group *g)
{
    double *in = calloc((size_t)g->nmembers, sizeof *in);
    double *out = calloc((size_t)g->nmembers, sizeof *out);
    double first_enter = 0, enter, exit;
    size_t first_line = 0;
    int rc = in != NULL && out != NULL ? 0 : -1;
    for (size_t i = 0; rc == 0 && i < g->nitems; i++) {
        const cost_item *it = &g->items[i];
        if (it->cols == NULL) {
            for (size_t k = 0; rc == 0 && k < it->nparts; k++)
                rc = walk(s, &it->parts[k]);
            if (rc != 0 || !cost_division_complete(it))
                continue;
            /* The rejoin: the parts' last supersteps, together. */
            double h = 0;
            enter = exit = 0;
            for (size_t k = 0; k < it->nparts; k++) {
                const cost_group *p = &it->parts[k];
                const cost_item *last = &p->items[p->nitems - 1];
                double e, x;
                span(s->t, p, last, &e, &x);
                enter = fmax(enter, e);
                exit = fmax(exit, x);
                for (int j = 0; j < p->nmembers; j++)
                    h = fmax(h, h_of(cost_item_rec(s->t, p, last, j)));
            }
            const cost_group *p0 = &it->parts[0];
            add(s, core_kind_name(CORE_KIND_REJOIN), g->nmembers, h, enter, exit,
                cost_item_rec(s->t, p0, &p0->items[p0->nitems - 1], 0)->line);
            continue;
        }
        const cost_rec *r0 = cost_item_rec(s->t, g, it, 0);
        span(s->t, g, it, &enter, &exit);
        if (r0->step_kind == CORE_KIND_PARTITION)
            add(s, core_kind_name(CORE_KIND_PARTITION), g->nmembers, step_h(s->t, g, it), enter,
                exit, r0->line);
        if (!core_kind_is_collective(r0->step_kind)) {
            /* A plain superstep of one of paper 000's patterns: a sample of
             * its h-relation function (cost_groups.c, ccm_step). */
            int pattern =
                core_kind_is_plain(r0->step_kind) ? cost_relation_pattern(s->t, g, it, NULL) : -1;
            char name[COST_CCM_NAME_MAX];
            if (pattern >= 0)
                add(s, cost_hrel_name((cost_pattern)pattern, name), g->nmembers,
                    step_h(s->t, g, it), enter, exit, r0->line);
            continue;
        }
        if (!cost_continues(s->t, g, i)) {
            first_enter = enter;
            first_line = r0->line;
            memset(in, 0, (size_t)g->nmembers * sizeof *in);
            memset(out, 0, (size_t)g->nmembers * sizeof *out);
        }
        double h = 0;
        for (int j = 0; j < g->nmembers; j++) {
            const cost_rec *r = cost_item_rec(s->t, g, it, j);
            in[j] += (double)r->bytes_in;
            out[j] += (double)r->bytes_out;
            h = fmax(h, fmax(in[j], out[j]));
        }
        char name[COST_CCM_NAME_MAX];
        if (!cost_continues(s->t, g, i + 1))
            add(s, cost_ccm_name(r0, name), g->nmembers, h, first_enter, exit, first_line);
    }
    free(in);
    free(out);
    return rc;
}

size_t cost_ccm_samples(const cost_trace *t, cost_ccm_sample *out, size_t cap)
{
    sampler s = {t, out, cap, 0};
    walk(&s, t->root);
    return s.n;
}

/* ---- the fit: non-negative least squares of relative errors ---- */

enum { MAXCOLS = COST_NNLS_MAXCOLS }; /* 1, ceil(log2 P), h below the break, h above it */

typedef struct point {
    double rounds, h, time;
} point;

/* The weighted rows of T = a + b·rounds + c·min(h, hb) + c_above·max(0, h − hb)
 * (hb = 0: one piece, three columns) and the fit; returns its residual. */
static double fit_pieces(const point *p, size_t n, double hb, double (*X)[MAXCOLS], double *y,
                         cost_ccm_fn *f)
{
    double tmin = INFINITY;
    for (size_t i = 0; i < n; i++)
        if (p[i].time > 0)
            tmin = fmin(tmin, p[i].time);
    for (size_t i = 0; i < n; i++) {
        /* Relative errors: a time of 0 (a clock too coarse) weighs like the
         * smallest time measured. */
        double w = 1 / (p[i].time > 0 ? p[i].time : isfinite(tmin) ? tmin : 1);
        X[i][0] = w;
        X[i][1] = w * p[i].rounds;
        X[i][2] = w * (hb > 0 ? fmin(p[i].h, hb) : p[i].h);
        X[i][3] = w * (hb > 0 ? fmax(0, p[i].h - hb) : 0);
        y[i] = w * p[i].time;
    }
    double coef[MAXCOLS];
    double ssr = cost_fit_nnls((const double(*)[MAXCOLS])X, y, n, hb > 0 ? 4 : 3, coef);
    *f = (cost_ccm_fn){coef[0], coef[1], coef[2], hb, hb > 0 ? coef[3] : 0};
    return ssr;
}

static int by_h(const void *x, const void *y)
{
    const point *a = x, *b = y;
    return (a->h > b->h) - (a->h < b->h);
}

int cost_ccm_fit(const cost_ccm_sample *s, size_t n, const char *kind, cost_ccm_fn *f)
{
    point *p = malloc((n + 1) * sizeof *p);
    double(*X)[MAXCOLS] = malloc((n + 1) * sizeof *X);
    double *y = malloc((n + 1) * sizeof *y);
    size_t m = 0;
    for (size_t i = 0; p != NULL && X != NULL && y != NULL && i < n; i++)
        if (strcmp(s[i].kind, kind) == 0)
            p[m++] = (point){cost_rounds(s[i].P), s[i].h, s[i].time};
    int rc = -1;
    if (m > 0) {
        qsort(p, m, sizeof *p, by_h);
        double best = fit_pieces(p, m, 0, X, y, f);
        /* A break at each size measured with two other sizes below it and one
         * above: the lower piece has its a and c to fit, and the upper piece,
         * joined to it at the break, only its slope. So the largest size can
         * have a slope of its own: the probe's 1 MiB collectives cost per byte
         * what the line through 64 and 256 KiB does not foretell. */
        size_t below = 0; /* distinct sizes before p[i] */
        for (size_t i = 1; i < m; i++) {
            if (p[i].h == p[i - 1].h)
                continue;
            below++;
            size_t above = 0;
            for (size_t j = i + 1; j < m; j++)
                above += p[j].h != p[j - 1].h;
            if (below < 2 || above < 1)
                continue;
            cost_ccm_fn two;
            double ssr = fit_pieces(p, m, p[i].h, X, y, &two);
            if (ssr < best - COST_FIT_NEGLIGIBLE * (double)m) {
                best = ssr;
                *f = two;
            }
        }
        rc = 0;
    }
    free(p);
    free(X);
    free(y);
    return rc;
}
