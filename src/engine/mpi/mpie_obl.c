/* mpie_obl — bsp_oblsync on MPI: no barrier; messages travel point to point.
 *
 * Each destination gets one MPI message holding all that this process sent it in
 * the superstep, with the superstep index in the tag (modulo MPIE_OBL_TAGS, far
 * more supersteps than one process can run ahead of another). The process then
 * receives messages with its own superstep's tag until it has at least n BSPlib
 * messages, and also takes those of that tag that have already arrived. Later
 * supersteps' messages wait in MPI under their own tags. A source sends at most
 * one message per superstep, so each lands in that source's in buffer.
 */
#include "engine/mpi/mpie.h"

#include "core/core_watch.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* Receives one message of `tag` (already matched); returns its count of BSPlib messages. */
static size_t take(core_ctx *c, mpie_message *msg, const MPI_Status *st)
{
    mpie_take(c, msg, st);
    const core_buf *b = &c->e.in[st->MPI_SOURCE];
    return core_count_messages(b->data, b->len);
}

void eng_oblsync(core_proc *p, size_t n)
{
    core_ctx *c = p->ctx;
    unsigned parity = c->step & 1;
    int tag = (int)(c->step % MPIE_OBL_TAGS);
    c->e.nreqs = 0;
    for (int d = 0; d < c->nprocs; d++) {
        core_buf *b = &c->out[parity][d];
        if (!b->len)
            continue;
        core_count_messages(b->data, b->len);
        if (b->len > (size_t)INT_MAX)
            core_fatal("bsp_oblsync", "%zu bytes for one process exceed MPI's limit", b->len);
        MPI_Isend(b->data, (int)b->len, MPI_BYTE, d, tag, c->group->e.comm, mpie_request(c));
    }
    for (int q = 0; q < c->nprocs; q++)
        c->e.in[q].len = 0;
    size_t have = 0;
    core_watch_enter(CORE_WATCH_OBLSYNC, p->step);
    mpie_message msg;
    MPI_Status st;
    while (have < n) {
        mpie_mprobe(MPI_ANY_SOURCE, tag, c->group->e.comm, &msg, &st);
        have += take(c, &msg, &st);
    }
    while (mpie_improbe(MPI_ANY_SOURCE, tag, c->group->e.comm, &msg, &st))
        take(c, &msg, &st);
    /* The queue lists messages by source, as after bsp_sync; every message sent is
     * non-empty, so an empty buffer means nothing came from that source. */
    for (int q = 0; q < c->nprocs; q++) {
        const core_buf *b = &c->e.in[q];
        if (b->len)
            core_deliver(p, c->group->e.run_pids[q], b->data, b->len);
    }
    /* MPI has the data once the sends complete: the out buffers may be reused. */
    mpie_wait(c->e.nreqs, c->e.reqs, 0);
    core_watch_leave();
}
