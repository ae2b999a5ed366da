/* cost_model — the flat cost models and the dispatch (see cost_model.h for the
 * formulas; D-BSP and CCM are in cost_groups.c). */
#include "cost/cost_model.h"

#include "cost/cost_groups.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

const char *cost_model_name(cost_model_kind k)
{
    switch (k) {
    case COST_REAL: return "real";
    case COST_BSP: return "bsp";
    case COST_BSPSTAR: return "bspstar";
    case COST_EBSP: return "ebsp";
    case COST_DBSP: return "dbsp";
    case COST_CCM: return "ccm";
    }
    return "unknown";
}

/* REAL starts when tracing did (t->began: the earliest t_enter - w of the
 * first column). From bsp_begin that is after the trace file was made (which
 * takes longer than a whole small superstep), and no model charges the
 * tracer's own start. */
static double real_time(const cost_trace *t, double *per_step)
{
    size_t n = t->start[t->nprocs];
    double *exit = malloc((n + 1) * sizeof *exit);
    if (exit == NULL) {
        for (unsigned long s = 0; per_step != NULL && s < t->nsteps; s++)
            per_step[s] = NAN;
        return NAN;
    }
    for (size_t k = 0; k < n; k++)
        exit[k] = t->recs[k].t_exit;
    double total = cost_columns(t, exit, t->began, per_step);
    free(exit);
    return total;
}

static double no_prediction(const cost_trace *t, double *per_step)
{
    for (unsigned long s = 0; per_step != NULL && s < t->nsteps; s++)
        per_step[s] = NAN;
    return NAN;
}

/* BSP and BSP* share the superstep sum W + comm + L; only comm differs:
 *
 *   T_s = max_i W_{s,i} + g·h_s + L   (formula (1) of paper 000; BSP* of paper
 *                                      003: g*·(s_s + h_s·B) for g·h_s)
 *
 * The page faults a process takes in the sync (cost_faults) are not a term of
 * the papers. They are taken where its data lands, after the barrier, and
 * delay that process alone: it leaves the sync F_{s,i} late and works from
 * there, so the next barrier comes at max_i (F_{s,i} + W_{s+1,i}) and the
 * program ends at the last superstep's end plus max_i F_{R,i}. Without faults
 * this is the sum of T_s above. late[i] is process i's F past the end of the
 * latest superstep (negative for a process whose records ended earlier); a
 * column counts the processes with a record in it. per_step[s] is the growth
 * of the latest process's clock, max_i (end_s + late_i). */
/* The machine's registration extra (models.md, "Registration supersteps": no
 * term of the papers) when any process's sync of column s puts registrations
 * into effect, else 0: the members agree on them in that sync, all of them. */
static double step_reg(const cost_trace *t, const cost_machine *m, unsigned long s)
{
    for (int i = 0; i < t->nprocs; i++) {
        const cost_rec *r = cost_trace_rec(t, s, i);
        if (r != NULL && r->regs > 0)
            return m->reg;
    }
    return 0;
}

static double barrier_model(cost_model_kind k, const cost_trace *t, const cost_machine *m,
                            int flags, double *per_step)
{
    double *late = calloc((size_t)t->nprocs, sizeof *late);
    if (late == NULL)
        return no_prediction(t, per_step);
    double total = 0, latest = 0; /* max_i late[i] */
    for (unsigned long s = 0; s < t->nsteps; s++) {
        double ready = -INFINITY, bytes = 0, msgs = 0;
        for (int i = 0; i < t->nprocs; i++) {
            const cost_rec *r = cost_trace_rec(t, s, i);
            if (r == NULL)
                continue;
            ready = fmax(ready, late[i] + cost_work(r, m, flags));
            bytes = fmax(bytes, cost_hbytes(r, m, m->h_sum));
            msgs = fmax(msgs, cost_combine(r->msgs_in, r->msgs_out, m->h_sum));
        }
        double span =
            ready +
            (k == COST_BSP ? m->g * bytes + m->L : m->gstar * (bytes + msgs * m->B) + m->L) +
            step_reg(t, m, s);
        double was = latest;
        latest = -INFINITY;
        for (int i = 0; i < t->nprocs; i++) {
            const cost_rec *r = cost_trace_rec(t, s, i);
            late[i] = r != NULL ? cost_faults(r, m) : late[i] - span;
            latest = fmax(latest, late[i]);
        }
        double step = span + latest - was;
        if (per_step != NULL)
            per_step[s] = step;
        total += step;
    }
    free(late);
    return total;
}

/* Formula (2) of paper 000, the EBSP time Φ_{s,i} of process i after step s:
 *
 *   Φ_{s,i} = max{Φ_{s−1,j} + w_{s,j} / j ∈ Ω_{s,i}} + g * h_{s,i} + L
 *   h_{s,i} = max{in_{s,j} + out_{s,j} / j ∈ Ω_{s,i}}
 *   Ω_{s,i} = {j / processor j sends a message to processor i in step s} ∪ {i}
 *
 * with Φ_{0,j} = 0 and Ψ = max_j Φ_{R,j}. h is always in + out, whatever the
 * machine file's @ (which only the BSP-like formula (1) has). in and out are
 * bytes with other processes (cost_trace.h). A process without a record in a
 * column keeps its time; so does a partner. Process i's own page faults in the
 * sync (cost_faults) come after its start, where its data lands. */
static double ebsp(const cost_trace *t, const cost_machine *m, int flags, double *per_step)
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
        double after = before, reg = step_reg(t, m, s);
        for (size_t i = 0; i < np; i++) {
            const cost_rec *r = cost_trace_rec(t, s, (int)i);
            next[i] = prev[i];
            if (r == NULL)
                continue;
            double start = prev[i] + cost_work(r, m, flags);
            double h = cost_hbytes(r, m, 1);
            for (size_t k = 0; k < r->nfrom; k++) {
                int j = r->from[k];
                const cost_rec *q = cost_trace_rec(t, s, j);
                if (q == NULL)
                    continue;
                start = fmax(start, prev[j] + cost_work(q, m, flags));
                h = fmax(h, cost_hbytes(q, m, 1));
            }
            next[i] = start + m->g * h + m->L + reg + cost_faults(r, m);
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

double cost_predict(cost_model_kind k, const cost_trace *t, const cost_machine *m, int flags,
                    double *per_step)
{
    if (k == COST_REAL)
        return real_time(t, per_step);
    if (m == NULL || (k == COST_BSPSTAR && !(m->gstar > 0)))
        return no_prediction(t, per_step);
    if (k == COST_DBSP || k == COST_CCM)
        return cost_groups_predict(k, t, m, flags, per_step);
    return k == COST_EBSP ? ebsp(t, m, flags, per_step) : barrier_model(k, t, m, flags, per_step);
}

int cost_model_check(cost_model_kind k, const cost_trace *t, const cost_machine *m, int flags,
                     const char *trace_name, const char *machine_name, char *err, size_t errlen)
{
    if (k == COST_DBSP || k == COST_CCM)
        return cost_groups_check(k, t, m, flags, trace_name, machine_name, err, errlen);
    if (k != COST_REAL && m == NULL) {
        snprintf(err, errlen, "no machine file (needed by --model %s)", cost_model_name(k));
        return -1;
    }
    if (k == COST_BSPSTAR && !(m->gstar > 0)) {
        snprintf(err, errlen, "%s: field 'bspstar': missing (needed by --model bspstar)",
                 machine_name);
        return -1;
    }
    return 0;
}

double cost_error_percent(double real, double model)
{
    return real != 0 ? 100 * (real - model) / real : NAN;
}
