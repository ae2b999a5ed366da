/* mpie_coll — the collectives that only move blocks run as MPI's own
 * nonblocking collective on the group's communicator, inside the sync that
 * ends them.
 *
 * Why: built from puts, a collective pays the engine's general exchange (a head
 * to every member, records, a probe per member) where MPI's tuned algorithm
 * needs a few messages; measured 5-13x slower than MPI's own at 8 bytes
 * (docs/collectives.md, "On the MPI engine"). Why inside the sync: the
 * sync's barrier first checks that every member announced the same collective
 * with the same root and size (so a mismatch is still one clear report, never
 * a hang in MPI), and delivers the superstep's earlier puts first; the trace
 * record closes after the collective, counting what the direct puts would
 * have moved, so cost models see the same collective with the same h.
 * Nonblocking calls let the wait poll like every other wait of the engine
 * (yielding on an oversubscribed machine, answering the watchdog).
 * A collective of at most MPIE_RIDE_MAX bytes of blocks (not all-to-all) needs
 * no MPI collective at all: its blocks travel in the barrier's own messages
 * (mpie_ride_*), and the sync copies them into place where MPI's would have
 * landed them. Above that size a ride lost to MPI's collectives under
 * oversubscription (docs/performance.md, "MPI engine").
 */
#include "core/core.h"
#include "core/core_trace.h"
#include "core/core_watch.h"
#include "mpie.h"

#include <limits.h>
#include <stdint.h>
#include <string.h>

int eng_coll_native(core_ctx *c, const eng_coll *op)
{
    int P = c->nprocs;
    /* MPI counts are ints; a collective of one process or of no bytes keeps
     * the core's path, which moves nothing. */
    if (P < 2 || op->n == 0 || op->n > (size_t)INT_MAX / (size_t)P)
        return 0;
    /* Overlapping all-to-all buffers are the caller's error; MPI would refuse
     * them differently from the puts, so they keep the puts' behaviour. */
    if (op->kind == CORE_KIND_ALLTOALL && op->src == op->dst)
        return 0;
    c->e.coll = *op;
    return 1;
}

/* The blocks a member holds once the collective is over: bcast the root's,
 * the others every member's. */
static uint64_t ride_wanted(const core_ctx *c)
{
    return c->e.coll.kind == CORE_KIND_BCAST ? (uint64_t)1 << c->e.coll.root
                                             : ~(uint64_t)0 >> (64 - c->nprocs);
}

size_t mpie_ride_bytes(const core_ctx *c)
{
    const eng_coll *op = &c->e.coll;
    int P = c->nprocs;
    int kind_ok = op->kind == CORE_KIND_BCAST || op->kind == CORE_KIND_GATHER ||
                  op->kind == CORE_KIND_ALLGATHER || op->kind == CORE_KIND_SCATTER;
    if (!kind_ok || P > 64 || op->n > MPIE_RIDE_MAX / (size_t)P)
        return 0;
    return sizeof(uint64_t) + (size_t)P * op->n;
}

void mpie_ride_fill(const core_ctx *c, char *payload)
{
    const eng_coll *op = &c->e.coll;
    int P = c->nprocs, me = c->pid;
    uint64_t mask = 0;
    char *blocks = payload + sizeof mask;
    if (op->kind == CORE_KIND_SCATTER) {
        if (me == op->root) {
            mask = ride_wanted(c);
            memcpy(blocks, op->src, (size_t)P * op->n);
        }
    } else if (op->kind != CORE_KIND_BCAST || me == op->root) {
        mask = (uint64_t)1 << me;
        memcpy(blocks + (size_t)me * op->n, op->src, op->n);
    }
    memcpy(payload, &mask, sizeof mask);
}

void mpie_ride_merge(const core_ctx *c, char *mine, const char *theirs)
{
    uint64_t have, add;
    memcpy(&have, mine, sizeof have);
    memcpy(&add, theirs, sizeof add);
    size_t n = c->e.coll.n, at = sizeof have;
    for (int q = 0; q < c->nprocs; q++)
        if ((add & ~have) >> q & 1)
            memcpy(mine + at + (size_t)q * n, theirs + at + (size_t)q * n, n);
    have |= add;
    memcpy(mine, &have, sizeof have);
}

void mpie_ride_keep(core_ctx *c, const char *payload)
{
    uint64_t have, want = ride_wanted(c);
    memcpy(&have, payload, sizeof have);
    /* Every member merged the same blocks, so all decide alike. */
    c->e.ridden = (have & want) == want ? payload + sizeof have : NULL;
}

/* Puts the ridden blocks where the collective says. */
static void land_ridden(const core_ctx *c, const eng_coll *op, const char *blocks)
{
    int me = c->pid, P = c->nprocs;
    size_t n = op->n;
    switch (op->kind) {
    case CORE_KIND_BCAST:
        if (me != op->root)
            memcpy(op->dst, blocks + (size_t)op->root * n, n);
        break;
    case CORE_KIND_GATHER:
        if (me == op->root)
            memcpy(op->dst, blocks, (size_t)P * n);
        break;
    case CORE_KIND_ALLGATHER: memcpy(op->dst, blocks, (size_t)P * n); break;
    default: /* CORE_KIND_SCATTER */ memcpy(op->dst, blocks + (size_t)me * n, n); break;
    }
}

/* The trace of the direct puts: `out` blocks sent, `in` blocks received, from
 * every member when from < 0, else from member `from`. */
static void trace(core_proc *p, size_t n, int out, int in, int from)
{
    core_ctx *c = p->ctx;
    p->tr.bytes_out += (uint64_t)out * n;
    p->tr.msgs_out += (uint64_t)out;
    p->tr.bytes_in += (uint64_t)in * n;
    p->tr.msgs_in += (uint64_t)in;
    if (!p->tr.on || !in)
        return;
    for (int q = 0; q < c->nprocs; q++)
        if (q != c->pid && (from < 0 || q == from))
            core_trace_add_source(p, c->group->e.run_pids[q], n);
}

void mpie_coll_run(core_proc *p, unsigned all)
{
    core_ctx *c = p->ctx;
    eng_coll op = c->e.coll;
    c->e.coll.kind = 0;
    MPI_Comm comm = c->group->e.comm;
    int P = c->nprocs, me = c->pid, n = (int)op.n, root = op.root, others = P - 1;
    int at_root = me == root;
    /* A process's own block already in place (src is its block of dst) is
     * passed as MPI_IN_PLACE, as the puts' version skips copying it. Only the
     * processes that hold P blocks form the address. */
    int holds_dst = op.kind == CORE_KIND_ALLGATHER || (op.kind == CORE_KIND_GATHER && at_root);
    const char *own = holds_dst ? (const char *)op.dst + (size_t)me * op.n : NULL;
    /* A ridden collective's blocks came with the barrier: the trace is the
     * same, MPI has nothing left to move. */
    const char *ridden = c->e.ridden;
    int go = !ridden;
    c->e.ridden = NULL;
    MPI_Request req = MPI_REQUEST_NULL;
    core_watch_enter(all & CORE_AT_ANY, p->step);
    switch (op.kind) {
    case CORE_KIND_BCAST:
        if (go)
            mpie_ibcast(op.dst, n, MPI_BYTE, root, comm, &req);
        trace(p, op.n, at_root ? others : 0, at_root ? 0 : 1, root);
        break;
    case CORE_KIND_GATHER:
        if (go)
            mpie_igather(at_root && op.src == own ? MPI_IN_PLACE : op.src, n, MPI_BYTE, op.dst, n,
                         MPI_BYTE, root, comm, &req);
        trace(p, op.n, at_root ? 0 : 1, at_root ? others : 0, -1);
        break;
    case CORE_KIND_ALLGATHER:
        if (go)
            mpie_iallgather(op.src == own ? MPI_IN_PLACE : op.src, n, MPI_BYTE, op.dst, n, MPI_BYTE,
                            comm, &req);
        trace(p, op.n, others, others, -1);
        break;
    case CORE_KIND_SCATTER: {
        const char *mine = at_root ? (const char *)op.src + (size_t)me * op.n : NULL;
        if (go)
            mpie_iscatter(op.src, n, MPI_BYTE, at_root && op.dst == mine ? MPI_IN_PLACE : op.dst, n,
                          MPI_BYTE, root, comm, &req);
        trace(p, op.n, at_root ? others : 0, at_root ? 0 : 1, root);
        break;
    }
    default: /* CORE_KIND_ALLTOALL */
        mpie_ialltoall(op.src, n, MPI_BYTE, op.dst, n, MPI_BYTE, comm, &req);
        trace(p, op.n, others, others, -1);
        break;
    }
    if (ridden)
        land_ridden(c, &op, ridden);
    else
        mpie_wait(1, &req, 0);
    core_watch_leave();
}
