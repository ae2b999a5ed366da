/* mpie_watch — the watchdog on MPI ranks (core_watch, mpie.h).
 *
 * No rank can look at another's state, so a rank that has waited longer than the
 * timeout asks: it sends every other rank of the run a query on a communicator of
 * the watchdog's own and, for a grace period (a second at most), collects the
 * answers while it goes on answering queries itself. A rank answers from its
 * polling waits only, with the call it waits in, its superstep and whether it has
 * waited longer than the timeout too; a rank that computes, or is stopped, stays
 * silent. The silent ranks are the late ones; when nobody is silent and everybody
 * has waited too long, they all wait for each other and all are named. Of the
 * ranks that have waited too long, only the lowest reports, so the run prints one
 * line: a rank that heard such a lower one asks again later instead. The one that
 * reports first tells every rank, so that none that the abort has not reached yet
 * reports too (Open MPI continues a stopped rank as it aborts the job: it then
 * answers, and the others would see everybody waiting).
 */
#include "engine/mpi/mpie.h"

#include "core/core_watch.h"

#include <sched.h>
#include <stdlib.h>
#include <unistd.h>

enum { TAG_QUERY = 1, TAG_ANSWER = 2, TAG_STOP = 3 };
#define GRACE 1.0 /* seconds a rank that waits has to answer a query */
/* A waiting rank looks for queries this often (seconds): looking at every poll
 * would cost the polling waits, and so every superstep, time. */
#define LOOK_EVERY 0.005

static struct {
    MPI_Comm comm; /* MPI_COMM_NULL: no watchdog */
    double timeout;
    int nprocs, me;
    core_watch_slot slot;
    unsigned long (*answers)[3]; /* [nprocs]: the last answer sent to each rank */
    int *heard;                  /* [nprocs] */
    core_watch_late *late;       /* [nprocs] */
} w = {.comm = MPI_COMM_NULL};

static const int query = 1; /* what a query (or a stop) carries: nothing but itself */

void mpie_watch_begin(MPI_Comm run, double timeout)
{
    if (timeout <= 0)
        return;
    MPI_Comm_dup(run, &w.comm);
    MPI_Comm_size(w.comm, &w.nprocs);
    MPI_Comm_rank(w.comm, &w.me);
    w.timeout = timeout;
    w.answers = calloc((size_t)w.nprocs, sizeof *w.answers);
    w.heard = calloc((size_t)w.nprocs, sizeof *w.heard);
    w.late = calloc((size_t)w.nprocs, sizeof *w.late);
    if (!w.answers || !w.heard || !w.late)
        core_fatal_oom("watchdog");
    atomic_store(&w.slot.seq, 0);
    core_watch_me = &w.slot;
}

void mpie_watch_end(void)
{
    if (w.comm == MPI_COMM_NULL)
        return;
    core_watch_me = NULL;
    MPI_Comm_free(&w.comm);
    free(w.answers);
    free(w.heard);
    free(w.late);
    w.answers = NULL;
    w.heard = NULL;
    w.late = NULL;
}

/* Another rank is stopping the run: wait for its MPI_Abort. */
static void stop_if_told(void)
{
    int found;
    MPI_Iprobe(MPI_ANY_SOURCE, TAG_STOP, w.comm, &found, MPI_STATUS_IGNORE);
    if (found)
        for (;;)
            pause();
}

static CORE_NORETURN void report(size_t n)
{
    stop_if_told();
    for (int q = 0; q < w.nprocs; q++) {
        if (q == w.me)
            continue;
        MPI_Request req;
        MPI_Isend(&query, 1, MPI_INT, q, TAG_STOP, w.comm, &req);
        MPI_Request_free(&req);
    }
    core_watch_report(w.timeout, w.late, n);
}

static void answer_queries(const mpie_watch_wait *wait, double now)
{
    stop_if_told();
    for (;;) {
        int found, dummy;
        MPI_Status st;
        MPI_Iprobe(MPI_ANY_SOURCE, TAG_QUERY, w.comm, &found, &st);
        if (!found)
            return;
        MPI_Recv(&dummy, 1, MPI_INT, st.MPI_SOURCE, TAG_QUERY, w.comm, MPI_STATUS_IGNORE);
        unsigned long seq;
        core_watch_late me;
        int waiting = core_watch_read(&w.slot, &seq, &me);
        unsigned long *a = w.answers[st.MPI_SOURCE];
        a[0] = waiting ? me.at : CORE_WATCH_COMPUTING;
        a[1] = me.step;
        a[2] = now - wait->since >= w.timeout;
        MPI_Request req;
        MPI_Isend(a, 3, MPI_UNSIGNED_LONG, st.MPI_SOURCE, TAG_ANSWER, w.comm, &req);
        MPI_Request_free(&req);
    }
}

/* Asks everybody; reports, or returns when this rank is not the one to. */
static void inquire(const mpie_watch_wait *wait)
{
    unsigned long a[3];
    for (int found = 1; found;) { /* answers to an earlier inquiry are stale */
        MPI_Iprobe(MPI_ANY_SOURCE, TAG_ANSWER, w.comm, &found, MPI_STATUS_IGNORE);
        if (found)
            MPI_Recv(a, 3, MPI_UNSIGNED_LONG, MPI_ANY_SOURCE, TAG_ANSWER, w.comm,
                     MPI_STATUS_IGNORE);
    }
    for (int q = 0; q < w.nprocs; q++) {
        w.heard[q] = q == w.me;
        if (q == w.me)
            continue;
        MPI_Request req;
        MPI_Isend(&query, 1, MPI_INT, q, TAG_QUERY, w.comm, &req);
        MPI_Request_free(&req);
    }
    unsigned long seq;
    core_watch_read(&w.slot, &seq, &w.late[w.me]);
    w.late[w.me].pid = w.me;
    int heard = 1, lowest = w.me, all_long = 1;
    double start = core_now(), grace = w.timeout < GRACE ? w.timeout : GRACE;
    while (heard < w.nprocs && core_now() - start < grace) {
        answer_queries(wait, core_now());
        int found;
        MPI_Status st;
        MPI_Iprobe(MPI_ANY_SOURCE, TAG_ANSWER, w.comm, &found, &st);
        if (!found) {
            sched_yield();
            continue;
        }
        MPI_Recv(a, 3, MPI_UNSIGNED_LONG, st.MPI_SOURCE, TAG_ANSWER, w.comm, MPI_STATUS_IGNORE);
        int q = st.MPI_SOURCE;
        heard += !w.heard[q];
        w.heard[q] = 1;
        w.late[q] = (core_watch_late){.pid = q, .at = (unsigned)a[0], .step = a[1]};
        all_long &= a[2] != 0;
        if (a[2] && q < lowest)
            lowest = q;
    }
    if (lowest != w.me)
        return;
    /* The silent ones have not ended the superstep this rank waits to end. */
    unsigned long step = w.late[w.me].step;
    size_t n = 0;
    for (int q = 0; q < w.nprocs; q++)
        if (!w.heard[q])
            w.late[n++] = (core_watch_late){.pid = q, .at = CORE_WATCH_SILENT, .step = step};
    if (n)
        report(n);
    if (all_long)
        report((size_t)w.nprocs);
}

void mpie_watch_poll(mpie_watch_wait *wait)
{
    if (w.comm == MPI_COMM_NULL)
        return;
    double now = core_now();
    if (wait->since == 0) {
        wait->since = now;
        wait->next = now + w.timeout;
        wait->look = now + LOOK_EVERY;
    }
    if (now < wait->look)
        return;
    wait->look = now + LOOK_EVERY;
    answer_queries(wait, now);
    if (now < wait->next)
        return;
    inquire(wait);
    wait->next = core_now() + (w.timeout < GRACE ? w.timeout : GRACE);
}
