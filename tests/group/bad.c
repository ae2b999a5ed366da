/* bad.c — one misuse of groups, bsp_par or bsp_oblsync per run, at P = 4
 * (POLYBSP_NPROCS, or mpirun -np 4).
 *
 * Usage: group_bad CASE. Each case first runs one clean superstep, then commits
 * its misuse; CMakeLists.txt gives the exact line the library must print and the
 * exit status. Where the tests can tell which process must report, the misuse is
 * committed by process 1 alone (the others make the matching correct call); the
 * "_all" cases have every process commit it, so any of them may report.
 * A case that the library fails to stop reaches the end and exits 0 with
 * "CASE NOT STOPPED" on stderr: expect_error.sh then fails on both counts.
 */
#include <bsp.h>
#include <polybsp.h>

#include <math.h>
#include <stdio.h>
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

static void run_case(const char *c)
{
    int P = bsp_nprocs();
    int buf[4];
    if (!strcmp(c, "parts_more_all")) {
        bsp_partition(P + 1, NULL);
    } else if (!strcmp(c, "parts_more")) {
        partition_with(P + 1, NULL);
    } else if (!strcmp(c, "parts_zero")) {
        partition_with(0, NULL);
    } else if (!strcmp(c, "parts_negative")) {
        partition_with(-2, NULL);
    } else if (!strcmp(c, "weight_zero")) {
        partition_with(2, (const double[]){1, 0});
    } else if (!strcmp(c, "weight_negative")) {
        partition_with(2, (const double[]){1, -0.5});
    } else if (!strcmp(c, "weight_nan")) {
        partition_with(2, (const double[]){NAN, 1});
    } else if (!strcmp(c, "weight_inf")) {
        partition_with(2, (const double[]){1, INFINITY});
    } else if (!strcmp(c, "weight_zero_all")) {
        bsp_partition(2, (const double[]){0, 1});
    } else if (!strcmp(c, "args_differ")) {
        /* 3 equal parts of 4 are {2, 1, 1}; 2 are {2, 2}. */
        partition_with(3, NULL);
    } else if (!strcmp(c, "partition_vs_sync")) {
        if (me == 1)
            bsp_partition(2, NULL);
        else
            bsp_sync();
    } else if (!strcmp(c, "rejoin_top")) {
        if (me == 1)
            bsp_rejoin();
        else
            bsp_sync();
    } else if (!strcmp(c, "rejoin_top_all")) {
        bsp_rejoin();
    } else if (!strcmp(c, "rejoin_vs_sync")) {
        /* Inside part 0 ({0, 1}), process 1 rejoins while process 0 syncs. */
        bsp_partition(2, NULL);
        if (me == 1)
            bsp_rejoin();
        else
            bsp_sync();
        bsp_rejoin();
    } else if (!strcmp(c, "end_in_part")) {
        bsp_partition(2, NULL);
        if (me == 1)
            bsp_end();
        else
            bsp_rejoin();
    } else if (!strcmp(c, "end_in_part_all")) {
        bsp_partition(2, NULL);
        bsp_end();
    } else if (!strcmp(c, "parent_reg_in_part")) {
        /* A part has registrations of its own: the parent's do not reach into it. */
        int cell = 0, v = 1;
        bsp_push_reg(&cell, sizeof cell);
        bsp_partition(2, NULL);
        if (me == 1)
            bsp_put(0, &v, &cell, 0, sizeof v);
        bsp_sync();
        bsp_rejoin();
    } else if (!strcmp(c, "partners_range")) {
        bsp_partition(2, NULL);
        bsp_partners(me == 1 ? 2 : 0, buf, 4);
        bsp_rejoin();
    } else if (!strcmp(c, "partners_negative")) {
        bsp_partition(2, NULL);
        bsp_partners(me == 1 ? -1 : 0, buf, 4);
        bsp_rejoin();
    } else if (!strcmp(c, "partners_max_negative")) {
        bsp_partition(2, NULL);
        bsp_partners(0, buf, me == 1 ? -1 : 4);
        bsp_rejoin();
    } else if (!strcmp(c, "partners_top")) {
        if (me == 1)
            bsp_partners(0, buf, 4);
        bsp_sync();
    } else if (!strcmp(c, "par_no_task")) {
        bsp_par(2, NULL, me == 1 ? NULL : idle_task, NULL, buf, sizeof buf[0]);
    } else if (!strcmp(c, "par_parts_more")) {
        bsp_par(me == 1 ? P + 1 : 2, NULL, idle_task, NULL, buf, sizeof buf[0]);
    } else if (!strcmp(c, "par_weight_nan")) {
        bsp_par(2, me == 1 ? (const double[]){1, NAN} : NULL, idle_task, NULL, buf, sizeof buf[0]);
    } else if (!strcmp(c, "par_null_results")) {
        bsp_par(2, NULL, idle_task, NULL, me == 1 ? NULL : buf, sizeof buf[0]);
    } else if (!strcmp(c, "obl_put")) {
        int cell = 0, v = 1;
        bsp_push_reg(&cell, sizeof cell);
        bsp_sync();
        if (me == 1)
            bsp_put(2, &v, &cell, 0, sizeof v);
        bsp_oblsync(0);
        bsp_sync();
    } else if (!strcmp(c, "obl_get")) {
        int cell = 0, v = 1;
        bsp_push_reg(&cell, sizeof cell);
        bsp_sync();
        if (me == 1)
            bsp_get(2, &cell, 0, &v, sizeof v);
        bsp_oblsync(0);
        bsp_sync();
    } else if (!strcmp(c, "obl_reg")) {
        int cell = 0;
        if (me == 1)
            bsp_push_reg(&cell, sizeof cell);
        bsp_oblsync(0);
        bsp_sync();
    } else if (!strcmp(c, "obl_deadlock")) {
        bsp_oblsync(1);
    } else if (!strcmp(c, "obl_deadlock_after_end")) {
        /* Process 3 sends process 0 the one message it waits for; 1, 2 and 3
         * wait for messages nobody sends, while 0 goes on to bsp_end. */
        int v = 3;
        if (me == 3)
            bsp_send(0, NULL, &v, sizeof v);
        bsp_oblsync(1);
        return;
    } else if (!strcmp(c, "obl_deadlock_ahead")) {
        /* Processes 0 and 1 wait for messages nobody sends, while 2 and 3 end
         * superstep 1 at once and wait in superstep 2's bsp_sync for 0 and 1. */
        bsp_oblsync(me < 2 ? 1 : 0);
    } else if (!strcmp(c, "obl_vs_sync")) {
        if (me == 0)
            bsp_oblsync(1);
        else
            bsp_sync();
    } else if (!strcmp(c, "obl0_vs_sync")) {
        /* Process 0 ends superstep 1 with oblsync(0), the others with bsp_sync; all
         * then meet in the next bsp_sync with equal superstep counts. */
        if (me == 0)
            bsp_oblsync(0);
        else
            bsp_sync();
        bsp_sync();
    } else {
        bsp_abort("unknown case %s", c);
    }
    bsp_sync();
    if (me == 0)
        fprintf(stderr, "CASE NOT STOPPED: %s\n", c);
}

int main(int argc, char **argv)
{
    bsp_begin(bsp_nprocs());
    me = bsp_pid();
    bsp_sync();
    run_case(argc > 1 ? argv[1] : "");
    bsp_end();
    return 0;
}
