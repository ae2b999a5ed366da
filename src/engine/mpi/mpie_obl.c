/* mpie_obl — bsp_oblsync on MPI: no barrier; messages travel point to point.
 *
 * Each destination gets one MPI message holding all that this process sent it in
 * the superstep, with the superstep index in the tag (modulo the tag range, far
 * more supersteps than one process can run ahead of another). The process then
 * receives messages with its own superstep's tag until it has at least n BSPlib
 * messages, and also takes those of that tag that have already arrived. Later
 * supersteps' messages wait in MPI under their own tags.
 */
#include "engine/mpi/mpie.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define OBL_TAG_RANGE 16384

static size_t count_messages(const char *data, size_t len)
{
    size_t n = 0;
    for (const char *cur = data, *end = data + len; cur < end; n++) {
        const core_rec *r = (const core_rec *)cur;
        if (CORE_REC_KIND(r) != CORE_REC_SEND)
            core_fatal("bsp_oblsync",
                       "only bsp_send may communicate in a superstep ended by bsp_oblsync "
                       "(this one has a put)");
        cur += sizeof *r + CORE_ALIGN8(CORE_ALIGN8(CORE_REC_SLOT(r)) + r->size);
    }
    return n;
}

typedef struct arrival {
    int src; /* in the group */
    char *buf;
    size_t len;
} arrival;

/* Receives one message of `tag` (already probed as `st`); returns its count of
 * BSPlib messages. */
static size_t take(core_ctx *c, int tag, MPI_Status *st, arrival **got, int *ngot, int *cap)
{
    int len;
    MPI_Get_count(st, MPI_BYTE, &len);
    char *buf = malloc(len ? (size_t)len : 1);
    if (!buf)
        core_fatal_oom("message queue");
    MPI_Recv(buf, len, MPI_BYTE, st->MPI_SOURCE, tag, c->group->e.comm, MPI_STATUS_IGNORE);
    mpie_keep(c, buf);
    if (*ngot == *cap) {
        *cap = *cap ? 2 * *cap : 8;
        arrival *a = realloc(*got, (size_t)*cap * sizeof *a);
        if (!a)
            core_fatal_oom("message queue");
        *got = a;
    }
    (*got)[(*ngot)++] = (arrival){st->MPI_SOURCE, buf, (size_t)len};
    return count_messages(buf, (size_t)len);
}

static int by_source(const void *a, const void *b)
{
    return ((const arrival *)a)->src - ((const arrival *)b)->src;
}

void eng_oblsync(core_proc *p, size_t n)
{
    core_ctx *c = p->ctx;
    if (c->ngets || c->nregops)
        core_fatal("bsp_oblsync",
                   "only bsp_send may communicate in a superstep ended by bsp_oblsync (this one "
                   "has %s)",
                   c->ngets ? "a get" : "a registration");
    if (p->tr.on)
        core_trace_enter(p);
    unsigned parity = c->step & 1;
    int tag = (int)(c->step % OBL_TAG_RANGE);
    MPI_Request *sends = malloc((size_t)c->nprocs * sizeof *sends);
    if (!sends)
        core_fatal_oom("oblsync");
    int nsends = 0;
    for (int d = 0; d < c->nprocs; d++) {
        core_buf *b = &c->out[parity][d];
        if (!b->len)
            continue;
        count_messages(b->data, b->len);
        if (b->len > (size_t)INT_MAX)
            core_fatal("bsp_oblsync", "%zu bytes for one process exceed MPI's limit", b->len);
        MPI_Isend(b->data, (int)b->len, MPI_BYTE, d, tag, c->group->e.comm, &sends[nsends++]);
    }
    for (int i = 0; i < c->e.nreceived; i++)
        free(c->e.received[i]);
    c->e.nreceived = 0;
    c->nin = c->inhead = 0;
    c->inbytes = 0;
    size_t have = 0;
    MPI_Status st;
    arrival *got = NULL;
    int ngot = 0, cap = 0;
    while (have < n) {
        MPI_Probe(MPI_ANY_SOURCE, tag, c->group->e.comm, &st);
        have += take(c, tag, &st, &got, &ngot, &cap);
    }
    for (int flag = 1; flag;) {
        MPI_Iprobe(MPI_ANY_SOURCE, tag, c->group->e.comm, &flag, &st);
        if (flag)
            take(c, tag, &st, &got, &ngot, &cap);
    }
    /* The queue lists messages by source, as after bsp_sync. */
    qsort(got, (size_t)ngot, sizeof *got, by_source);
    for (int i = 0; i < ngot; i++) {
        int src = c->group->e.run_pids[got[i].src];
        if (p->tr.on)
            core_trace_add_source(p, src);
        core_apply_records(p, src, got[i].buf, got[i].len);
    }
    free(got);
    MPI_Waitall(nsends, sends, MPI_STATUSES_IGNORE);
    free(sends);
    c->flags = 0;
    c->tagsize = c->next_tagsize;
    if (p->tr.on)
        core_trace_exit(p, CORE_KIND_OBLIVIOUS, c->group->depth);
    /* MPI has the data: both parities are free (no rank reads another's buffers). */
    for (int d = 0; d < c->nprocs; d++) {
        core_buf_clear(&c->out[0][d]);
        core_buf_clear(&c->out[1][d]);
    }
    c->step++;
    p->step++;
}
