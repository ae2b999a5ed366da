/* probe_reg — a registration sync's cost beyond an empty one (contract in probe_reg.h). */
#include "probe/probe_reg.h"

#include "cost/cost_fit.h"
#include "probe/probe_measure.h"

#include <bsp.h>
#include <math.h>
#include <stdlib.h>

enum { ROUNDS = 3 };

typedef struct reg_job {
    int reps;
    double extra; /* out, process 0's */
} reg_job;

/* What alternates pushes and pops of one area: pushed is this process's. */
typedef struct reg_state {
    double *area;
    int *pushed;
} reg_state;

static void issue_nothing(const void *arg) { (void)arg; }

static void issue_reg(const void *arg)
{
    const reg_state *s = arg;
    if (*s->pushed)
        bsp_pop_reg(s->area);
    else
        bsp_push_reg(s->area, (bsp_size_t)sizeof *s->area);
    *s->pushed = !*s->pushed;
}

void probe_reg_body(void *arg)
{
    reg_job *out = arg, job;
    probe_share_arg(&job, out, sizeof job);
    /* An even number a round: each round ends with the area popped. */
    int reps = job.reps + job.reps % 2, pushed = 0;
    double area = 0;
    reg_state state = {&area, &pushed};
    double *empty = malloc((size_t)(ROUNDS * reps) * sizeof *empty);
    double *reg = malloc((size_t)(ROUNDS * (reps + 1)) * sizeof *reg);
    if (empty == NULL || reg == NULL)
        bsp_abort("probe: out of memory for the registration supersteps");
    /* probe_time_supersteps issues once more, untimed, before its reps: with
     * reps + 1 issues a round would end pushed, so the untimed first is a
     * push and the timed ones pop, push, ..., pop (reps + 1 of them). */
    for (int r = 0; r < ROUNDS; r++) {
        probe_time_supersteps(reps, issue_nothing, NULL, empty + r * reps);
        probe_time_supersteps(reps + 1, issue_reg, &state, reg + r * (reps + 1));
    }
    if (out != NULL)
        out->extra = fmax(0, cost_median(reg, (size_t)(ROUNDS * (reps + 1))) -
                                 cost_median(empty, (size_t)(ROUNDS * reps)));
    free(empty);
    free(reg);
}

double probe_reg_measure(int nprocs, int reps)
{
    reg_job job = {reps, 0};
    probe_section(nprocs, probe_reg_body, &job);
    return job.extra;
}
