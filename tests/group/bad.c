/* bad.c — one misuse of groups, bsp_par or bsp_oblsync per run, at P = 4
 * (POLYBSP_NPROCS, or mpirun -np 4).
 *
 * Usage: group_bad CASE. Each case first runs one clean superstep, then commits
 * its misuse; cases.def lists the cases with the exact line the library must
 * print and the exit status (CMakeLists.txt registers a test per line), and
 * each case is the function of its name here. Where the tests can tell which
 * process must report, the misuse is committed by process 1 alone (the others
 * make the matching correct call); the "_all" cases have every process commit
 * it, so any of them may report.
 * A case that the library fails to stop reaches the end and exits 0 with
 * "CASE NOT STOPPED" on stderr: expect_error.sh then fails on both counts.
 */
#include <bsp.h>
#include <polybsp.h>

#include "../bad_case.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static _Thread_local int me; /* thread-local: on the threads engine processes share globals */

static void partition_with(int nparts_by_1, const double *weights_by_1)
{
    static const double ok[2] = {1, 1};
    if (me == 1)
        bsp_partition(nparts_by_1, weights_by_1);
    else
        bsp_partition(2, ok);
}

static void idle_task(int part, void *result, void *arg)
{
    (void)arg;
    *(int *)result = part;
}

static void parts_more_all(void) { bsp_partition(bsp_nprocs() + 1, NULL); }
static void parts_more(void) { partition_with(bsp_nprocs() + 1, NULL); }
static void parts_zero(void) { partition_with(0, NULL); }
static void parts_negative(void) { partition_with(-2, NULL); }
static void weight_zero(void) { partition_with(2, (const double[]){1, 0}); }
static void weight_negative(void) { partition_with(2, (const double[]){1, -0.5}); }
static void weight_nan(void) { partition_with(2, (const double[]){NAN, 1}); }
static void weight_inf(void) { partition_with(2, (const double[]){1, INFINITY}); }
static void weight_zero_all(void) { bsp_partition(2, (const double[]){0, 1}); }

/* 3 equal parts of 4 are {2, 1, 1}; 2 are {2, 2}. */
static void args_differ(void) { partition_with(3, NULL); }

static void partition_vs_sync(void)
{
    if (me == 1)
        bsp_partition(2, NULL);
    else
        bsp_sync();
}

static void rejoin_top(void)
{
    if (me == 1)
        bsp_rejoin();
    else
        bsp_sync();
}

static void rejoin_top_all(void) { bsp_rejoin(); }

/* Inside part 0 ({0, 1}), process 1 rejoins while process 0 syncs. */
static void rejoin_vs_sync(void)
{
    bsp_partition(2, NULL);
    if (me == 1)
        bsp_rejoin();
    else
        bsp_sync();
    bsp_rejoin();
}

static void end_in_part(void)
{
    bsp_partition(2, NULL);
    if (me == 1)
        bsp_end();
    else
        bsp_rejoin();
}

static void end_in_part_all(void)
{
    bsp_partition(2, NULL);
    bsp_end();
}

/* A part has registrations of its own: the parent's do not reach into it. */
static void parent_reg_in_part(void)
{
    int cell = 0, v = 1;
    bsp_push_reg(&cell, sizeof cell);
    bsp_partition(2, NULL);
    if (me == 1)
        bsp_put(0, &v, &cell, 0, sizeof v);
    bsp_sync();
    bsp_rejoin();
}

static void partners_range(void)
{
    int buf[4];
    bsp_partition(2, NULL);
    bsp_partners(me == 1 ? 2 : 0, buf, 4);
    bsp_rejoin();
}

static void partners_negative(void)
{
    int buf[4];
    bsp_partition(2, NULL);
    bsp_partners(me == 1 ? -1 : 0, buf, 4);
    bsp_rejoin();
}

static void partners_max_negative(void)
{
    int buf[4];
    bsp_partition(2, NULL);
    bsp_partners(0, buf, me == 1 ? -1 : 4);
    bsp_rejoin();
}

static void partners_top(void)
{
    int buf[4];
    if (me == 1)
        bsp_partners(0, buf, 4);
    bsp_sync();
}

static void par_no_task(void)
{
    int buf[4];
    bsp_par(2, NULL, me == 1 ? NULL : idle_task, NULL, buf, sizeof buf[0]);
}

static void par_parts_more(void)
{
    int buf[4];
    bsp_par(me == 1 ? bsp_nprocs() + 1 : 2, NULL, idle_task, NULL, buf, sizeof buf[0]);
}

static void par_weight_nan(void)
{
    int buf[4];
    bsp_par(2, me == 1 ? (const double[]){1, NAN} : NULL, idle_task, NULL, buf, sizeof buf[0]);
}

static void par_null_results(void)
{
    int buf[4];
    bsp_par(2, NULL, idle_task, NULL, me == 1 ? NULL : buf, sizeof buf[0]);
}

static void obl_put(void)
{
    int cell = 0, v = 1;
    bsp_push_reg(&cell, sizeof cell);
    bsp_sync();
    if (me == 1)
        bsp_put(2, &v, &cell, 0, sizeof v);
    bsp_oblsync(0);
    bsp_sync();
}

static void obl_get(void)
{
    int cell = 0, v = 1;
    bsp_push_reg(&cell, sizeof cell);
    bsp_sync();
    if (me == 1)
        bsp_get(2, &cell, 0, &v, sizeof v);
    bsp_oblsync(0);
    bsp_sync();
}

static void obl_reg(void)
{
    int cell = 0;
    if (me == 1)
        bsp_push_reg(&cell, sizeof cell);
    bsp_oblsync(0);
    bsp_sync();
}

static void obl_deadlock(void) { bsp_oblsync(1); }

/* Process 3 sends process 0 the one message it waits for; 1, 2 and 3 wait for
 * messages nobody sends, while 0 goes on to bsp_end. Only process 0 returns
 * from bsp_oblsync, and it ends the run here: the closing bsp_sync of main
 * would have it wait for the others instead of reaching bsp_end. */
static void obl_deadlock_after_end(void)
{
    int v = 3;
    if (me == 3)
        bsp_send(0, NULL, &v, sizeof v);
    bsp_oblsync(1);
    bsp_end();
    exit(0);
}

/* Processes 0 and 1 wait for messages nobody sends, while 2 and 3 end
 * superstep 1 at once and wait in superstep 2's bsp_sync for 0 and 1. */
static void obl_deadlock_ahead(void) { bsp_oblsync(me < 2 ? 1 : 0); }

static void obl_vs_sync(void)
{
    if (me == 0)
        bsp_oblsync(1);
    else
        bsp_sync();
}

/* Process 0 ends superstep 1 with oblsync(0), the others with bsp_sync; all
 * then meet in the next bsp_sync with equal superstep counts. */
static void obl0_vs_sync(void)
{
    if (me == 0)
        bsp_oblsync(0);
    else
        bsp_sync();
    bsp_sync();
}

struct bad_case {
    const char *name;
    void (*run)(void);
};

/* One entry per line of cases.def. */
#define BAD(name, status, line, flags) {#name, name},
static const struct bad_case cases[] = {
#include "cases.def"
};
#undef BAD

int main(int argc, char **argv)
{
    long k = bad_case_find(cases, sizeof cases / sizeof cases[0], sizeof cases[0], argc, argv);
    if (k < 0)
        return 2;
    const struct bad_case *the_case = &cases[k];
    bsp_begin(bsp_nprocs());
    me = bsp_pid();
    bsp_sync();
    the_case->run();
    bsp_sync();
    if (me == 0)
        fprintf(stderr, "CASE NOT STOPPED: %s\n", the_case->name);
    bsp_end();
    return 0;
}
