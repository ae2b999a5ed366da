/* supersteps_test — probe_time_supersteps times a run of supersteps back to back.
 *
 * At P = 3 (threads), every process: issue is called reps + 1 times (the first
 * superstep is not timed); every sample is positive; and the samples tile the
 * run without gaps: their sum covers at least the time from the first timed
 * superstep's issue to the last one's (process 1 sleeps in one issue, so a gap
 * would be visible), and at most the time from the untimed superstep's issue to
 * the return. Those bounds are exact: no tolerance, no speed assumed.
 */
#include "probe/probe_measure.h"

#include "unit.h"

#include <bsp.h>
#include <time.h>

enum { REPS = 6, PROCS = 3 };

typedef struct calls {
    int n;
    double at[REPS + 2];
} calls;

static void issue(const void *arg)
{
    calls *c = (calls *)arg;
    if (c->n < REPS + 2)
        c->at[c->n] = bsp_time();
    c->n++;
    if (bsp_pid() == 1 && c->n == 3) {
        const struct timespec nap = {0, 2000000};
        nanosleep(&nap, NULL);
    }
}

static void spmd(void)
{
    bsp_begin(PROCS);
    calls c = {0, {0}};
    double t[REPS];
    probe_time_supersteps(REPS, issue, &c, t);
    double end = bsp_time(), sum = 0;
    int s = (int)bsp_pid();
    CHECKF(c.n == REPS + 1, "process %d: issue called %d times", s, c.n);
    for (int r = 0; r < REPS; r++) {
        CHECKF(t[r] > 0, "process %d: sample %d is %g", s, r, t[r]);
        sum += t[r];
    }
    CHECKF(sum >= c.at[REPS] - c.at[1], "process %d: samples %g s, issues %g s apart", s, sum,
           c.at[REPS] - c.at[1]);
    CHECKF(sum <= end - c.at[0], "process %d: samples %g s, run %g s", s, sum, end - c.at[0]);
    bsp_end();
}

int main(int argc, char **argv)
{
    bsp_init(spmd, argc, argv);
    spmd();
    if (failures == 0)
        printf("supersteps_test: OK\n");
    return failures != 0;
}
