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

/* The latest t_enter and t_exit of a superstep's members. */
static void span(const cost_trace *t, const cost_group *g, const cost_item *it, double *enter,
                 double *exit)
{
    *enter = *exit = 0;
    for (int j = 0; j < g->nmembers; j++) {
        const cost_rec *r = cost_item_rec(t, g, it, j);
        *enter = fmax(*enter, r->t_enter);
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
            add(s, "rejoin", g->nmembers, h, enter, exit,
                cost_item_rec(s->t, p0, &p0->items[p0->nitems - 1], 0)->line);
            continue;
        }
        const cost_rec *r0 = cost_item_rec(s->t, g, it, 0);
        span(s->t, g, it, &enter, &exit);
        if (strcmp(r0->kind, "partition") == 0) {
            double h = 0;
            for (int j = 0; j < g->nmembers; j++)
                h = fmax(h, h_of(cost_item_rec(s->t, g, it, j)));
            add(s, "partition", g->nmembers, h, enter, exit, r0->line);
        }
        if (!cost_is_collective(r0->kind))
            continue;
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
        if (!cost_continues(s->t, g, i + 1))
            add(s, r0->kind, g->nmembers, h, first_enter, exit, first_line);
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

static int distinct(const double *v, size_t n)
{
    for (size_t i = 1; i < n; i++)
        if (v[i] != v[0])
            return 1;
    return 0;
}

/* time ≈ a + slope·x, or the mean when x does not vary. */
static void fit_one(const double *x, const double *y, size_t n, double *a, double *slope)
{
    if (cost_fit_line(x, y, n, a, slope) == 0)
        return;
    double sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += y[i];
    *a = sum / (double)n;
    *slope = 0;
}

int cost_ccm_fit(const cost_ccm_sample *s, size_t n, const char *kind, cost_ccm_fn *f)
{
    double *x1 = malloc((n + 1) * sizeof *x1), *x2 = malloc((n + 1) * sizeof *x2);
    double *y = malloc((n + 1) * sizeof *y);
    size_t m = 0;
    for (size_t i = 0; x1 != NULL && x2 != NULL && y != NULL && i < n; i++) {
        if (strcmp(s[i].kind, kind) != 0)
            continue;
        x1[m] = cost_rounds(s[i].P);
        x2[m] = s[i].h;
        y[m++] = s[i].time;
    }
    int rc = -1;
    if (m > 0) {
        cost_ccm_fn g = {0, 0, 0};
        int by_p = distinct(x1, m), by_h = distinct(x2, m);
        if (!(by_p && by_h && cost_fit_plane(x1, x2, y, m, &g.a, &g.b, &g.c) == 0)) {
            if (by_h)
                fit_one(x2, y, m, &g.a, &g.c);
            else
                fit_one(x1, y, m, &g.a, &g.b);
        }
        if (g.c < 0) {
            g.c = 0;
            fit_one(x1, y, m, &g.a, &g.b);
        }
        *f = g;
        rc = 0;
    }
    free(x1);
    free(x2);
    free(y);
    return rc;
}
