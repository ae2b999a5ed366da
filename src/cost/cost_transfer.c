/* cost_transfer — a trace's work scaled to another machine (cost_transfer.h). */
#include "cost/cost_transfer.h"

#include <stdio.h>
#include <string.h>

int cost_trace_elsewhere(const cost_trace *t, const cost_machine *m)
{
    if (t->host[0] == '\0')
        return 0;
    /* Host names repeat (every VM of an image may be "vm"): on the threads
     * engine, a count of cores that differs tells two machines apart when both
     * say theirs. Not under smpi or MPI, whose machine file counts the
     * simulated platform's or the job's cores and the trace the host's. */
    int other_cores =
        strcmp(t->engine, "threads") == 0 && t->cores > 0 && m->cores > 0 && t->cores != m->cores;
    return strcmp(t->host, m->host) != 0 || strcmp(t->engine, m->engine) != 0 || other_cores;
}

double cost_machine_trace_rate(const cost_machine *m)
{
    return m->trace_rate > 0 ? m->trace_rate : m->rate[0];
}

const char *const cost_scale_names[COST_NSCALES] = {"rate", "clock"};

double cost_scale_source(const cost_trace *t, cost_scale s)
{
    return s == COST_SCALE_CLOCK ? t->clock : t->rate;
}

double cost_scale_target(const cost_machine *m, cost_scale s)
{
    return s == COST_SCALE_CLOCK ? m->trace_clock : cost_machine_trace_rate(m);
}

double cost_machine_start(const cost_machine *m, int P)
{
    for (size_t i = 0; i < m->nbyprocs; i++)
        if (m->byprocs[i].procs == P)
            return m->byprocs[i].start;
    return 0;
}

int cost_trace_transfer(cost_trace *t, const char *trace_name, const cost_machine *m,
                        const char *machine_name, cost_scale s, char *err, size_t errlen)
{
    double source = cost_scale_source(t, s), target = cost_scale_target(m, s);
    if (!(source > 0)) {
        snprintf(err, errlen,
                 s == COST_SCALE_CLOCK
                     ? "%s has no 'clock' (a trace written before 2026-11-29, or under smpi): "
                       "trace the run again with this polybsp, or scale by the rate (--scale "
                       "rate)"
                     : "%s has no 'rate' (a trace written before 2026-11-28): trace the run "
                       "again with this polybsp to predict it for another machine",
                 trace_name);
        return -1;
    }
    if (!(target > 0)) {
        snprintf(err, errlen,
                 s == COST_SCALE_CLOCK
                     ? "%s has no 'trace_clock' (probed before 2026-11-29, or a simulated "
                       "machine): probe the target again with this polybsp, or scale by the "
                       "rate (--scale rate)"
                     : "%s has no 'rate' (its probe could not time computation): probe the "
                       "target again with computation charged to predict a run from elsewhere",
                 machine_name);
        return -1;
    }
    size_t n = t->start[t->nprocs];
    for (size_t i = 0; i < n; i++)
        if (t->recs[i].cpu < 0) {
            snprintf(err, errlen,
                     "%s:%zu: record without 'cpu' (a trace written before 2026-11-28): trace "
                     "the run again with this polybsp to predict it for another machine",
                     trace_name, t->recs[i].line);
            return -1;
        }
    double scale = source / target;
    for (size_t i = 0; i < n; i++) {
        cost_rec *r = &t->recs[i];
        double copy = r->copy < r->cpu ? r->copy : r->cpu;
        r->w = r->cpu * scale;
        r->copy = copy * scale;
        r->setup = r->late = 0;
        r->faults = r->fresh = r->w_faults = -1;
    }
    double start = cost_machine_start(m, t->nprocs);
    for (int i = 0; i < t->nprocs; i++) {
        cost_rec *first = cost_trace_rec(t, 0, i);
        if (first != NULL)
            first->late = start;
    }
    t->rate = cost_machine_trace_rate(m);
    t->clock = m->trace_clock;
    return 0;
}
