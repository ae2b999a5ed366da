/* eng_types (mpi) — the MPI engine's state inside core groups and contexts.
 *
 * A group is a communicator; each rank holds only its own process, so what the
 * threads engine reads from other members travels in messages here. The buffers
 * of a context live as long as it does and only grow, so that a program repeating
 * similar supersteps allocates nothing after the first ones.
 */
#ifndef POLYBSP_ENG_TYPES_H
#define POLYBSP_ENG_TYPES_H

#include "core/core_buf.h"
#include "engine/engine.h"

#include <mpi.h>

typedef struct eng_group {
    MPI_Comm comm;
    int *run_pids; /* [nprocs]: each member's pid in the whole run */
    /* This member's part of the group's last partition, kept after its rejoin so
     * that the next partition into the same parts reuses its communicator instead
     * of splitting again: nparts parts starting at split_first[0 .. nparts], this
     * member in part split_part; NULL when none is kept. */
    struct core_group *split;
    int *split_first;
    int split_nparts, split_part;
} eng_group;

typedef struct eng_ctx {
    /* in[q]: what member q sent in the last superstep; the message queue points
     * into it until the next superstep's data arrives. */
    core_buf *in;
    core_buf *reply;   /* [nprocs]: the values of member q's gets from here */
    core_buf values;   /* this member's get values, grouped by owner */
    size_t *recs_len;  /* [nprocs]: bytes of records for each destination */
    size_t *hp_len;    /* [nprocs]: bytes of its hpputs' data (dense exchange) */
    int *sends_to;     /* [nprocs]: 1 where a head goes this superstep (sparse exchange) */
    size_t *value_at;  /* [nprocs + 1]: where each owner's values start in values */
    MPI_Request *reqs; /* the superstep's sends and receives */
    int nreqs, capreqs;
    MPI_Aint *block_at; /* one message gathered from several places */
    int *block_len;
    int nblocks, capblocks;
    eng_coll coll;         /* run by MPI at the next sync when coll.kind != 0 */
    core_buf barrier_room; /* the barrier's message buffers (mpie_sync.c) */
    /* A small collective's P blocks of coll.n bytes, when all came with the
     * barrier's messages (mpie_ride_* in mpie_coll.c): they lie in barrier_room,
     * which no other barrier rewrites before mpie_coll_run reads them; else NULL. */
    const char *ridden;
    unsigned at;     /* the CORE_AT_* call of the last barrier, for mpie_wait_watched */
    int colls_agree; /* the last barrier found every member's collective the same */
    int regs_agree;  /* and every member's registration calls (their hash) */
    uint64_t *heads; /* [mpie_heads_words(P)]: who sends a head to whom, from the last barrier */
    /* How far the barrier took this superstep's heads (mpie_sync.c): not at
     * all, prepared (sends_to set, get replies posted), or also sent. */
    enum { MPIE_HEADS_NONE, MPIE_HEADS_PREPARED, MPIE_HEADS_SENT } heads_state;
    int nreplies; /* of reqs, the first are the receives of this superstep's get values */
    /* The collective sync's answer (mpie_sync.c): how many heads to expect
     * (-1: not counted yet), whether they travel by MPI's all-to-all instead (a
     * dense superstep), and whether anybody communicated in the last sync. */
    int expect, dense, last_comm;
    /* Whether the last sync found a dense superstep, and the range of this
     * one's heads (largest, smallest's negation) when its sync found it. */
    int last_dense, range_known;
    long range[2];
} eng_ctx;

#endif
