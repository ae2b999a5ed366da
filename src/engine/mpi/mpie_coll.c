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
 */
#include "core/core.h"
#include "core/core_trace.h"
#include "core/core_watch.h"
#include "mpie.h"

#include <limits.h>

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
            core_trace_add_source(p, c->group->e.run_pids[q]);
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
    MPI_Request req;
    core_watch_enter(all & CORE_AT_ANY, p->step);
    switch (op.kind) {
    case CORE_KIND_BCAST:
        MPI_Ibcast(op.dst, n, MPI_BYTE, root, comm, &req);
        trace(p, op.n, at_root ? others : 0, at_root ? 0 : 1, root);
        break;
    case CORE_KIND_GATHER:
        MPI_Igather(at_root && op.src == own ? MPI_IN_PLACE : op.src, n, MPI_BYTE, op.dst, n,
                    MPI_BYTE, root, comm, &req);
        trace(p, op.n, at_root ? 0 : 1, at_root ? others : 0, -1);
        break;
    case CORE_KIND_ALLGATHER:
        MPI_Iallgather(op.src == own ? MPI_IN_PLACE : op.src, n, MPI_BYTE, op.dst, n, MPI_BYTE,
                       comm, &req);
        trace(p, op.n, others, others, -1);
        break;
    case CORE_KIND_SCATTER: {
        const char *mine = at_root ? (const char *)op.src + (size_t)me * op.n : NULL;
        MPI_Iscatter(op.src, n, MPI_BYTE, at_root && op.dst == mine ? MPI_IN_PLACE : op.dst, n,
                     MPI_BYTE, root, comm, &req);
        trace(p, op.n, at_root ? others : 0, at_root ? 0 : 1, root);
        break;
    }
    default: /* CORE_KIND_ALLTOALL */
        MPI_Ialltoall(op.src, n, MPI_BYTE, op.dst, n, MPI_BYTE, comm, &req);
        trace(p, op.n, others, others, -1);
        break;
    }
    mpie_wait(1, &req, 0);
    core_watch_leave();
}
