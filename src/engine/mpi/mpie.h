/* mpie — shared pieces of the MPI engine (engine/engine.h is its contract).
 *
 * mpie_blame: when a check finds misuse, every member knows whether it is the
 * culprit; the lowest culprit reports (one line, then MPI_Abort) and the others
 * wait to be stopped, so the run prints what the threads engine prints.
 *
 * Tags on a group's communicator: bsp_oblsync uses the superstep index modulo
 * MPIE_OBL_TAGS; the barrier and the exchange of bsp_sync use the tags above
 * that range. All of the exchange's messages travel between two barriers of the
 * group, so they need no superstep in their tags.
 */
#ifndef POLYBSP_MPIE_H
#define POLYBSP_MPIE_H

#include "core/core.h"

#include <stdint.h>

enum {
    MPIE_OBL_TAGS = 16384,
    /* records, hpput data, get requests: + the superstep's parity, since a
     * head can leave before its barrier (mpie_sync.c) while the destination
     * still takes the heads of the superstep before */
    MPIE_TAG_HEAD = MPIE_OBL_TAGS,
    MPIE_TAG_APART = MPIE_TAG_HEAD + 2, /* one large put's data, to land in place */
    MPIE_TAG_REPLY,                     /* get values */
    MPIE_TAG_BARRIER,                   /* the barrier's traffic bits */
};

/* Waiting politely. Some MPIs (MPICH) spin in their blocking calls without ever
 * yielding the processor, so on an oversubscribed machine a waiting rank keeps
 * the one it waits for off its core until the scheduler's time slice ends. The
 * engine waits by polling instead: MPIE_POLLS polls, then a yield (or a nap of
 * nap_ns, for ranks waiting between sections) between further polls. */
enum { MPIE_POLLS = 64, MPIE_NAP_NS = 100000 };
void mpie_wait(int n, MPI_Request *reqs, long nap_ns);
/* Waits for one nonblocking collective by mpie_wait while the watchdog sees this
 * rank waiting in call `at` (a CORE_AT_* bit) of superstep `step`: the checks and
 * reports that follow a barrier, a partition's agreement and the trace's gather at
 * bsp_end use it, so that a rank stopped between a barrier and them is named as
 * one stopped before the barrier (docs/reliability.md, "The watchdog"). */
void mpie_wait_watched(MPI_Request *req, unsigned at, unsigned long step);

/* The engine's collectives start nonblocking (mpie_ibcast for MPI_Ibcast, and
 * so on, same arguments) and are waited for by mpie_wait. Under SMPI, whose waits
 * block anyway, each is the blocking collective and leaves a null request:
 * SMPI's nonblocking collectives are linear algorithms of their own that
 * smpi/coll-selector does not reach (docs/smpi.md, section 4), and their
 * completion costs the simulator far more (the portability suite at P = 64 on
 * fattree-64: 107 s with blocking collectives, 694 s with nonblocking ones). */
#ifdef POLYBSP_SMPI
#define mpie_ibcast(b, n, t, root, comm, req)                                                      \
    (MPI_Bcast(b, n, t, root, comm), *(req) = MPI_REQUEST_NULL)
#define mpie_iallreduce(s, r, n, t, op, comm, req)                                                 \
    (MPI_Allreduce(s, r, n, t, op, comm), *(req) = MPI_REQUEST_NULL)
#define mpie_igather(s, n, t, r, m, u, root, comm, req)                                            \
    (MPI_Gather(s, n, t, r, m, u, root, comm), *(req) = MPI_REQUEST_NULL)
#define mpie_igatherv(s, n, t, r, m, at, u, root, comm, req)                                       \
    (MPI_Gatherv(s, n, t, r, m, at, u, root, comm), *(req) = MPI_REQUEST_NULL)
#define mpie_iallgather(s, n, t, r, m, u, comm, req)                                               \
    (MPI_Allgather(s, n, t, r, m, u, comm), *(req) = MPI_REQUEST_NULL)
#define mpie_iscatter(s, n, t, r, m, u, root, comm, req)                                           \
    (MPI_Scatter(s, n, t, r, m, u, root, comm), *(req) = MPI_REQUEST_NULL)
#define mpie_ialltoall(s, n, t, r, m, u, comm, req)                                                \
    (MPI_Alltoall(s, n, t, r, m, u, comm), *(req) = MPI_REQUEST_NULL)
#define mpie_ialltoallv(s, n, sd, t, r, m, rd, u, comm, req)                                       \
    (MPI_Alltoallv(s, n, sd, t, r, m, rd, u, comm), *(req) = MPI_REQUEST_NULL)
#define mpie_ireduce_scatter_block(s, r, n, t, op, comm, req)                                      \
    (MPI_Reduce_scatter_block(s, r, n, t, op, comm), *(req) = MPI_REQUEST_NULL)
#else
#define mpie_ibcast MPI_Ibcast
#define mpie_iallreduce MPI_Iallreduce
#define mpie_igather MPI_Igather
#define mpie_igatherv MPI_Igatherv
#define mpie_iallgather MPI_Iallgather
#define mpie_iscatter MPI_Iscatter
#define mpie_ialltoall MPI_Ialltoall
#define mpie_ialltoallv MPI_Ialltoallv
#define mpie_ireduce_scatter_block MPI_Ireduce_scatter_block
#endif

/* Groups of more than this many members agree in a superstep's sync by one
 * collective MPI runs (mpie_sync.c, "The collective sync"), smaller ones by the
 * engine's own point-to-point barrier. On MPI the barrier beats MPI's
 * collectives at small P (a sixth at P = 2, docs/performance.md); under SMPI
 * the collective sync is as cheap from 16 members and costs the simulator far
 * fewer events (docs/smpi.md, section 8). */
#ifndef MPIE_COLL_SYNC_ABOVE /* a test build may lower it */
#ifdef POLYBSP_SMPI
#define MPIE_COLL_SYNC_ABOVE 8
#else
#define MPIE_COLL_SYNC_ABOVE 64
#endif
#endif
static inline int mpie_coll_sync(int P) { return P > MPIE_COLL_SYNC_ABOVE; }

/* A message found by a probe, to be received as itself (mpie_port.c): MPI's
 * matched probe, or under SMPI (POLYBSP_SMPI), which lacks it, the probed source
 * and tag. mpie_improbe returns whether one was found (then *msg and *st say
 * which); mpie_imrecv starts receiving len bytes of it into buf (*req). */
#ifdef POLYBSP_SMPI
typedef struct mpie_message {
    int source, tag;
    MPI_Comm comm;
} mpie_message;
#else
typedef MPI_Message mpie_message;
#endif
int mpie_improbe(int source, int tag, MPI_Comm comm, mpie_message *msg, MPI_Status *st);
void mpie_imrecv(void *buf, int len, mpie_message *msg, MPI_Request *req);
/* Waits until another rank stops the job (after its one-line report). */
void mpie_await_stop(void) __attribute__((noreturn));
#ifdef POLYBSP_SMPI
/* On MPI, rank 0 tells the waiting ranks that the program ends as MPI is
 * finalised (at exit, from an exit hook). Under SMPI a program's exit hooks run
 * only when the whole simulation ends, but the simulation ends when its last
 * actor that is not a daemon does, killing the daemons: so every rank but 0
 * becomes one, and rank 0's end (its main returning) ends the job. */
void mpie_follow_rank0(int rank);
#endif
/* A long simulation says it is alive (mpie_port.c): under SMPI, run pid 0
 * prints its superstep and the simulated time on stderr once a minute of this
 * machine's time (POLYBSP_SMPI_PROGRESS seconds); elsewhere nothing. Called at the end of every
 * superstep. */
void mpie_progress(const core_ctx *c);
/* Waits, polling, for a message of source and tag. */
void mpie_mprobe(int source, int tag, MPI_Comm comm, mpie_message *msg, MPI_Status *st);

/* The watchdog (mpie_watch.c): mpie_watch_begin, collective over the run's
 * communicator, starts it for a section when timeout > 0, mpie_watch_end stops
 * it. Every polling wait starts with an mpie_watch_wait of zeros and calls
 * mpie_watch_poll between polls once it has to wait: it answers the other ranks'
 * queries and, past the timeout, asks them and may stop the run. */
typedef struct mpie_watch_wait {
    double since, next, look; /* when the wait started, when to ask, when to look for queries */
} mpie_watch_wait;
void mpie_watch_begin(MPI_Comm run, double timeout);
void mpie_watch_end(void);
void mpie_watch_poll(mpie_watch_wait *wait);

void mpie_blame(const core_ctx *c, int guilty, const char *call, const char *detail);
/* Makes comm the group's communicator and learns every member's run pid. */
void mpie_group_attach(core_group *g, MPI_Comm comm, int run_pid);
/* Receives the message msg (found by a probe as st) into c->e.in[its source],
 * replacing what that buffer held. mpie_take_start only starts it, its request
 * the last of c->e.reqs: the buffer holds the message once that completes. */
void mpie_take(core_ctx *c, mpie_message *msg, const MPI_Status *st);
void mpie_take_start(core_ctx *c, mpie_message *msg, const MPI_Status *st);
/* A new entry at the end of c->e.reqs (which may move). */
MPI_Request *mpie_request(core_ctx *c);
/* Runs the collective eng_coll_native accepted (mpie_coll.c), in the sync
 * whose first barrier's bits are all. */
void mpie_coll_run(core_proc *p, unsigned all);
/* Small collectives ride the barrier (mpie_coll.c): mpie_ride_bytes is the size
 * of this member's payload for the barrier's messages (0: no ride), a mask of
 * the blocks present then P blocks; mpie_ride_fill writes this member's own
 * part, mpie_ride_merge adds the blocks of a payload received, and
 * mpie_ride_keep, once every member is known to have announced the same
 * collective, points mpie_coll_run at the blocks when all have arrived. */
/* The most bytes of blocks a ride carries: beyond, MPI's own collective won
 * (docs/performance.md, "MPI engine"). */
#define MPIE_RIDE_MAX ((size_t)64)
size_t mpie_ride_bytes(const core_ctx *c);
void mpie_ride_fill(const core_ctx *c, char *payload);
void mpie_ride_merge(const core_ctx *c, char *mine, const char *theirs);
void mpie_ride_keep(core_ctx *c, const char *payload);
/* Words of the heads matrix the barrier carries for a group of P (mpie_sync.c):
 * P x P bits up to MPIE_HEADS_MAX_P members, 0 beyond or with the collective
 * sync (then the sync's collective counts the heads). */
size_t mpie_heads_words(int P);
/* FNV-1a, a word at a time: mpie_hash(MPIE_HASH_START, w0), then (h, w1) ...
 * The hashes the members compare to agree on a call's arguments (partitions,
 * registration calls). */
#define MPIE_HASH_START ((uint64_t)1469598103934665603u)
static inline uint64_t mpie_hash(uint64_t h, uint64_t word)
{
    return (h ^ word) * (uint64_t)1099511628211u;
}
/* The count argument of an MPI call, or a report that n is too large for one. */
int mpie_count(size_t n, const char *what);

#endif
