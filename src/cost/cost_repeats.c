/* cost_repeats — repeats of one run predicted from their medians (cost_repeats.h). */
#include "cost/cost_repeats.h"

#include <stdio.h>
#include <stdlib.h>

/* 0 when rep has t's shape, else -1 with err saying how it differs. */
static int same_shape(const cost_trace *t, const cost_trace *rep, const char *t_name,
                      const char *rep_name, char *err, size_t errlen)
{
    if (rep->nprocs != t->nprocs) {
        snprintf(err, errlen, "%s is not a repeat of %s: its P is %d, not %d", rep_name, t_name,
                 rep->nprocs, t->nprocs);
        return -1;
    }
    for (int p = 0; p < t->nprocs; p++)
        if (cost_trace_len(rep, p) != cost_trace_len(t, p)) {
            snprintf(err, errlen,
                     "%s is not a repeat of %s: process %d has %lu supersteps there, not %lu",
                     rep_name, t_name, p, cost_trace_len(rep, p), cost_trace_len(t, p));
            return -1;
        }
    return 0;
}

int cost_trace_median(cost_trace *t, const cost_trace *reps, size_t n, const char *const *names,
                      char *err, size_t errlen)
{
    for (size_t k = 0; k < n; k++)
        if (same_shape(t, &reps[k], names[0], names[1 + k], err, errlen) < 0)
            return -1;
    size_t m = n + 1, nrecs = t->start[t->nprocs];
    const cost_rec **pick = malloc(m * sizeof *pick);
    if (pick == NULL)
        return -2;
    for (size_t i = 0; i < nrecs; i++) {
        pick[0] = &t->recs[i];
        for (size_t k = 0; k < n; k++)
            pick[1 + k] = &reps[k].recs[i];
        /* Insertion sort by w: a handful of repeats. */
        for (size_t a = 1; a < m; a++)
            for (size_t b = a; b > 0 && pick[b]->w < pick[b - 1]->w; b--) {
                const cost_rec *x = pick[b];
                pick[b] = pick[b - 1];
                pick[b - 1] = x;
            }
        const cost_rec *med = pick[(m - 1) / 2];
        t->recs[i].w = med->w;
        t->recs[i].copy = med->copy;
    }
    free(pick);
    return 0;
}
