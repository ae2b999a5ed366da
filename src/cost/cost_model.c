/* cost_model — the cost models (see cost_model.h for the formulas). */
#include "cost/cost_model.h"

#include <math.h>
#include <stdlib.h>

const char *cost_model_name(cost_model_kind k)
{
    switch (k) {
    case COST_REAL: return "real";
    case COST_BSP: return "bsp";
    case COST_BSPSTAR: return "bspstar";
    case COST_EBSP: return "ebsp";
    }
    return "unknown";
}

/* The local work of one record: measured seconds, or declared operations at the
 * machine's rate when asked for and available (a record without ops keeps w). */
static double work(const cost_rec *r, const cost_machine *m, int use_ops)
{
    return use_ops && r->ops >= 0 && m->rate > 0 ? r->ops / m->rate : r->w;
}

/* in @ out: the machine file says whether a process's incoming and outgoing
 * traffic overlap (max) or queue behind each other (sum). */
static double combine(uint64_t in, uint64_t out, int sum)
{
    return sum ? (double)in + (double)out : (double)(in > out ? in : out);
}

static double real_time(const cost_trace *t, double *per_step)
{
    double prev = 0;
    if (t->first_step > 0) {
        prev = INFINITY;
        for (int i = 0; i < t->nprocs; i++) {
            const cost_rec *r = cost_trace_rec(t, 0, i);
            prev = fmin(prev, r->t_enter - r->w);
        }
    }
    double base = prev;
    for (unsigned long s = 0; s < t->nsteps; s++) {
        double end = 0;
        for (int i = 0; i < t->nprocs; i++)
            end = fmax(end, cost_trace_rec(t, s, i)->t_exit);
        if (per_step != NULL)
            per_step[s] = end - prev;
        prev = end;
    }
    return prev - base;
}

/* BSP and BSP* share the superstep sum W + comm + L; only comm differs. */
static double barrier_model(cost_model_kind k, const cost_trace *t, const cost_machine *m,
                            int use_ops, double *per_step)
{
    double total = 0;
    for (unsigned long s = 0; s < t->nsteps; s++) {
        double w = 0, bytes = 0, msgs = 0;
        for (int i = 0; i < t->nprocs; i++) {
            const cost_rec *r = cost_trace_rec(t, s, i);
            w = fmax(w, work(r, m, use_ops));
            bytes = fmax(bytes, combine(r->bytes_in, r->bytes_out, m->h_sum));
            msgs = fmax(msgs, combine(r->msgs_in, r->msgs_out, m->h_sum));
        }
        double step =
            k == COST_BSP ? w + m->g * bytes + m->L : w + m->gstar * (bytes + msgs * m->B) + m->L;
        if (per_step != NULL)
            per_step[s] = step;
        total += step;
    }
    return total;
}

static double no_prediction(const cost_trace *t, double *per_step)
{
    for (unsigned long s = 0; per_step != NULL && s < t->nsteps; s++)
        per_step[s] = NAN;
    return NAN;
}

/* Formula (2) of paper 000: each process waits only for its in-partners. */
static double ebsp(const cost_trace *t, const cost_machine *m, int use_ops, double *per_step)
{
    size_t np = (size_t)t->nprocs;
    double *prev = calloc(np, sizeof *prev), *next = malloc(np * sizeof *next);
    if (prev == NULL || next == NULL) {
        free(prev);
        free(next);
        return no_prediction(t, per_step);
    }
    double before = 0; /* max_i Φ_{s−1,i} */
    for (unsigned long s = 0; s < t->nsteps; s++) {
        double after = 0;
        for (size_t i = 0; i < np; i++) {
            const cost_rec *r = cost_trace_rec(t, s, (int)i);
            double start = prev[i] + work(r, m, use_ops);
            double h = combine(r->bytes_in, r->bytes_out, m->h_sum);
            for (size_t k = 0; k < r->nfrom; k++) {
                int j = r->from[k];
                const cost_rec *q = cost_trace_rec(t, s, j);
                start = fmax(start, prev[j] + work(q, m, use_ops));
                h = fmax(h, combine(q->bytes_in, q->bytes_out, m->h_sum));
            }
            next[i] = start + m->g * h + m->L;
            after = fmax(after, next[i]);
        }
        if (per_step != NULL)
            per_step[s] = after - before;
        before = after;
        double *swap = prev;
        prev = next;
        next = swap;
    }
    free(prev);
    free(next);
    return before;
}

double cost_predict(cost_model_kind k, const cost_trace *t, const cost_machine *m, int use_ops,
                    double *per_step)
{
    if (k == COST_REAL)
        return real_time(t, per_step);
    if (m == NULL || (k == COST_BSPSTAR && !(m->gstar > 0)))
        return no_prediction(t, per_step);
    return k == COST_EBSP ? ebsp(t, m, use_ops, per_step)
                          : barrier_model(k, t, m, use_ops, per_step);
}

double cost_error_percent(double real, double model)
{
    return real != 0 ? 100 * (real - model) / real : NAN;
}
