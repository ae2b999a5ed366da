/* mpie_sync — the superstep on MPI: barrier, checks, exchange, partitions.
 *
 * The exchange is one MPI_Alltoallv of every source's records for every
 * destination, preceded by an MPI_Alltoall of the sizes. A get travels as a
 * request record at the end of the records for its owner; owners serve every
 * request before they apply any put (gets see the values from before the puts),
 * and a second MPI_Alltoallv carries the values back. hpput records point into
 * the source's memory, which other ranks cannot read: they are expanded into
 * ordinary puts when sent (BSPlib allows an hpput to copy at any time up to the
 * sync).
 */
#include "engine/mpi/mpie.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { REC_GETREQ = 8, REC_HPGETREQ = 9 }; /* after the core's record kinds */

int eng_group_init(core_group *g)
{
    g->e.comm = MPI_COMM_NULL;
    g->e.run_pids = malloc((size_t)g->nprocs * sizeof *g->e.run_pids);
    return g->e.run_pids ? 0 : -1;
}

void mpie_group_attach(core_group *g, MPI_Comm comm, int run_pid)
{
    g->e.comm = comm;
    MPI_Allgather(&run_pid, 1, MPI_INT, g->e.run_pids, 1, MPI_INT, comm);
}

void eng_group_free(core_group *g)
{
    if (g->e.comm != MPI_COMM_NULL)
        MPI_Comm_free(&g->e.comm);
    free(g->e.run_pids);
}

int eng_ctx_init(core_ctx *c)
{
    memset(&c->e, 0, sizeof c->e);
    return 0;
}

static void release_received(core_ctx *c)
{
    for (int i = 0; i < c->e.nreceived; i++)
        free(c->e.received[i]);
    c->e.nreceived = 0;
}

void eng_ctx_free(core_ctx *c)
{
    release_received(c);
    free(c->e.received);
}

void eng_ctx_attach(core_ctx *c) { (void)c; }

/* The queue points into received buffers: they live until the next superstep ends. */
void mpie_keep(core_ctx *c, char *buf)
{
    if (c->e.nreceived == c->e.capreceived) {
        int cap = c->e.capreceived ? 2 * c->e.capreceived : 8;
        char **r = realloc(c->e.received, (size_t)cap * sizeof *r);
        if (!r)
            core_fatal_oom("message queue");
        c->e.received = r;
        c->e.capreceived = cap;
    }
    c->e.received[c->e.nreceived++] = buf;
}


/* Only the lowest culprit reports; the others wait for its MPI_Abort. */
void mpie_blame(const core_ctx *c, int guilty, const char *call, const char *detail)
{
    int me = guilty ? c->pid : INT_MAX, lowest;
    MPI_Allreduce(&me, &lowest, 1, MPI_INT, MPI_MIN, c->group->e.comm);
    if (lowest == INT_MAX)
        return;
    if (lowest == c->pid)
        core_fatal_as(c->proc->pid, c->proc->step, call, "%s", detail);
    for (;;)
        pause();
}

/* Different calls met at one barrier: every member learns every member's call and
 * names the lowest pid of the lowest kind, about the lowest pid of another. */
static void report_mixed_arrivals(const core_ctx *c, unsigned all, unsigned at)
{
    int P = c->nprocs;
    unsigned mine[2] = {at, c->proc->ended_how}, *every = malloc(2 * (size_t)P * sizeof *every);
    if (!every)
        core_fatal_oom("barrier");
    MPI_Allgather(mine, 2, MPI_UNSIGNED, every, 2, MPI_UNSIGNED, c->group->e.comm);
    unsigned first = all & CORE_AT_ANY & -(all & CORE_AT_ANY);
    int culprit = -1, other = -1;
    for (int q = P - 1; q >= 0; q--) {
        if (every[2 * q] == first)
            culprit = q;
        else
            other = q;
    }
    if (culprit == c->pid)
        core_report_mixed(c->proc->pid, c->proc->step, first, c->group->e.run_pids[other],
                          every[2 * other], every[2 * other + 1]);
    for (;;)
        pause();
}

unsigned eng_barrier(core_ctx *c, unsigned at, unsigned bits)
{
    unsigned mine = bits | at, all;
    MPI_Allreduce(&mine, &all, 1, MPI_UNSIGNED, MPI_BOR, c->group->e.comm);
    if ((all & CORE_AT_ANY) != at)
        report_mixed_arrivals(c, all, at);
    return all;
}

void eng_check_regops(core_ctx *c)
{
    /* Member 0's sequence of call kinds reaches everybody. */
    int n = (int)c->nregops;
    MPI_Bcast(&n, 1, MPI_INT, 0, c->group->e.comm);
    core_regop *ref = calloc((size_t)n + 1, sizeof *ref);
    int *kinds = calloc((size_t)n + 1, sizeof *kinds);
    if (!ref || !kinds)
        core_fatal_oom("registration check");
    for (int i = 0; c->pid == 0 && i < n; i++)
        kinds[i] = (int)c->regops[i].kind;
    MPI_Bcast(kinds, n, MPI_INT, 0, c->group->e.comm);
    for (int i = 0; i < n; i++)
        ref[i].kind = (core_regop_kind)kinds[i];
    const char *call = "bsp_push_reg";
    char detail[160];
    int guilty =
        core_regops_differ(ref, (size_t)n, c->regops, c->nregops, &call, detail, sizeof detail);
    free(ref);
    free(kinds);
    mpie_blame(c, guilty, call, detail);
}

void eng_check_colls(core_ctx *c, unsigned parity)
{
    long d[3] = {(long)c->coll[parity].kind, c->coll[parity].root, (long)c->coll[parity].nbytes};
    MPI_Bcast(d, 3, MPI_LONG, 0, c->group->e.comm);
    core_coll_desc ref = {(core_step_kind)d[0], d[1], (size_t)d[2]};
    char call[32], detail[160];
    int guilty = core_coll_differ(&ref, c->group->e.run_pids[0], &c->coll[parity], call,
                                  sizeof call, detail, sizeof detail);
    mpie_blame(c, guilty, call, detail);
}

/* The bytes for one destination: its records (hpputs expanded), then a request
 * record for each get from it. */
static size_t pack_for(const core_ctx *c, int dest, unsigned parity, core_buf *out)
{
    const core_buf *b = &c->out[parity][dest];
    for (const char *cur = b->data, *end = b->data + b->len; cur < end;) {
        const core_rec *r = (const core_rec *)cur;
        unsigned kind = CORE_REC_KIND(r);
        size_t datalen = kind == CORE_REC_PUT    ? r->size
                         : kind == CORE_REC_SEND ? CORE_ALIGN8(CORE_REC_SLOT(r)) + r->size
                                                 : sizeof(void *);
        if (kind == CORE_REC_HPPUT) {
            const void *src;
            memcpy(&src, r + 1, sizeof src);
            core_rec *o = (core_rec *)core_buf_reserve(out, sizeof *o + CORE_ALIGN8(r->size));
            *o = *r;
            o->kind_slot = CORE_REC_HPPUT_DATA | CORE_REC_SLOT(r) << 8;
            memcpy(o + 1, src, r->size);
            core_buf_commit(out, sizeof *o + CORE_ALIGN8(r->size));
        } else {
            size_t n = sizeof *r + CORE_ALIGN8(datalen);
            memcpy(core_buf_reserve(out, n), r, n);
            core_buf_commit(out, n);
        }
        cur += sizeof *r + CORE_ALIGN8(datalen);
    }
    size_t records = out->len;
    for (size_t i = 0; i < c->ngets; i++) {
        const core_getreq *g = &c->gets[i];
        if ((int)g->pid != dest)
            continue;
        core_rec *o = (core_rec *)core_buf_reserve(out, sizeof *o);
        o->kind_slot = (g->high_performance ? REC_HPGETREQ : REC_GETREQ) | (uint32_t)g->slot << 8;
        o->size = (uint32_t)g->size;
        o->offset = g->offset;
        core_buf_commit(out, sizeof *o);
    }
    return records;
}

static int to_int(size_t n, const char *what)
{
    if (n > INT_MAX)
        core_fatal("bsp_sync", "%s of %zu bytes exceeds MPI's limit of %d bytes", what, n,
                   INT_MAX);
    return (int)n;
}

static void alltoallv(const core_ctx *c, const char *send, const int *scounts, char **recv,
                      int *rcounts, int *rdispls)
{
    int P = c->nprocs;
    int *sdispls = malloc((size_t)P * sizeof *sdispls);
    if (!sdispls)
        core_fatal_oom("exchange");
    size_t total = 0;
    for (int q = 0; q < P; q++) {
        sdispls[q] = to_int(total, "a superstep's outgoing data");
        total += (size_t)scounts[q];
    }
    MPI_Alltoall(scounts, 1, MPI_INT, rcounts, 1, MPI_INT, c->group->e.comm);
    total = 0;
    for (int q = 0; q < P; q++) {
        rdispls[q] = to_int(total, "a superstep's incoming data");
        total += (size_t)rcounts[q];
    }
    *recv = malloc(total ? total : 1);
    if (!*recv)
        core_fatal_oom("exchange");
    mpie_check(MPI_Alltoallv(send, scounts, sdispls, MPI_BYTE, *recv, rcounts, rdispls, MPI_BYTE,
                             c->group->e.comm),
               "MPI_Alltoallv");
    free(sdispls);
}

void eng_exchange(core_proc *p, unsigned all, unsigned parity)
{
    core_ctx *c = p->ctx;
    release_received(c);
    if (!(all & (CORE_HAS_COMM | CORE_HAS_GET)))
        return;
    int P = c->nprocs;
    int *scounts = calloc((size_t)P, sizeof *scounts), *rcounts = calloc((size_t)P, sizeof *rcounts);
    int *rdispls = calloc((size_t)P, sizeof *rdispls);
    size_t *records = calloc((size_t)P, sizeof *records);
    if (!scounts || !rcounts || !rdispls || !records)
        core_fatal_oom("exchange");
    core_buf send = {NULL, 0, 0};
    for (int q = 0; q < P; q++) {
        size_t before = send.len;
        core_buf part = {NULL, 0, 0};
        uint64_t nrec = pack_for(c, q, parity, &part);
        /* Each destination's segment starts with the length of its records. */
        memcpy(core_buf_reserve(&send, sizeof nrec), &nrec, sizeof nrec);
        core_buf_commit(&send, sizeof nrec);
        if (part.len) {
            memcpy(core_buf_reserve(&send, part.len), part.data, part.len);
            core_buf_commit(&send, part.len);
        }
        core_buf_free(&part);
        scounts[q] = to_int(send.len - before, "a superstep's data for one process");
    }
    char *recv;
    alltoallv(c, send.data, scounts, &recv, rcounts, rdispls);
    core_buf_free(&send);
    int *recvdispls = malloc((size_t)P * sizeof *recvdispls);
    if (!recvdispls)
        core_fatal_oom("exchange");
    memcpy(recvdispls, rdispls, (size_t)P * sizeof *rdispls);

    /* Serve the gets first: they read the values from before this superstep's puts. */
    core_buf reply = {NULL, 0, 0};
    int *replycounts = calloc((size_t)P, sizeof *replycounts);
    if (!replycounts)
        core_fatal_oom("exchange");
    for (int q = 0; q < P; q++) {
        const char *seg = recv + rdispls[q];
        uint64_t nrec;
        memcpy(&nrec, seg, sizeof nrec);
        records[q] = nrec;
        size_t before = reply.len;
        for (const char *cur = seg + sizeof nrec + nrec, *end = recv + rdispls[q] + rcounts[q];
             cur < end; cur += sizeof(core_rec)) {
            const core_rec *r = (const core_rec *)cur;
            const core_slot *s = &c->reg.slots[CORE_REC_SLOT(r)];
            core_getreq g = {NULL, (uint32_t)c->pid, 0, CORE_REC_KIND(r) == REC_HPGETREQ,
                             r->offset, r->size};
            core_check_get(c->group->e.run_pids[q], p->step, &g, s->size);
            memcpy(core_buf_reserve(&reply, r->size ? r->size : 1),
                   (const char *)s->addr + r->offset, r->size);
            core_buf_commit(&reply, r->size);
            if (p->tr.on) {
                atomic_fetch_add(&p->tr.served_bytes, r->size);
                atomic_fetch_add(&p->tr.served_msgs, 1);
            }
        }
        replycounts[q] = to_int(reply.len - before, "a superstep's get values for one process");
    }

    if (all & CORE_HAS_GET) {
        char *values;
        alltoallv(c, reply.data, replycounts, &values, rcounts, rdispls);
        /* Values from each owner come in the order the gets to it were made. */
        size_t *at = calloc((size_t)P, sizeof *at);
        if (!at)
            core_fatal_oom("exchange");
        for (size_t i = 0; i < c->ngets; i++) {
            const core_getreq *g = &c->gets[i];
            memcpy(g->dst, values + rdispls[g->pid] + at[g->pid], g->size);
            at[g->pid] += g->size;
            p->tr.bytes_in += g->size;
            p->tr.msgs_in++;
            if (p->tr.on)
                core_trace_add_source(p, c->group->e.run_pids[g->pid]);
        }
        free(at);
        free(values);
    }
    /* Puts land after the gets' values, as on every engine. */
    for (int q = 0; q < P; q++) {
        if (!records[q])
            continue;
        if (p->tr.on)
            core_trace_add_source(p, c->group->e.run_pids[q]);
        core_apply_records(p, c->group->e.run_pids[q], recv + recvdispls[q] + sizeof(uint64_t),
                           records[q]);
    }
    mpie_keep(c, recv);
    free(recvdispls);
    core_buf_free(&reply);
    free(replycounts);
    free(scounts);
    free(rcounts);
    free(rdispls);
    free(records);
}

void eng_superstep_done(core_ctx *c) { (void)c; }

core_group *eng_partition(core_ctx *c, int nparts, const int *first, int part)
{
    int *ref = malloc(((size_t)nparts + 2) * sizeof *ref);
    if (!ref)
        core_fatal_oom("partition");
    ref[0] = nparts;
    memcpy(ref + 1, first, ((size_t)nparts + 1) * sizeof *first);
    int n0 = nparts;
    MPI_Bcast(&n0, 1, MPI_INT, 0, c->group->e.comm);
    int agree = n0 == nparts;
    int *theirs = malloc(((size_t)n0 + 2) * sizeof *theirs);
    if (!theirs)
        core_fatal_oom("partition");
    if (c->pid == 0)
        memcpy(theirs, ref, ((size_t)n0 + 2) * sizeof *ref);
    MPI_Bcast(theirs, n0 + 2, MPI_INT, 0, c->group->e.comm);
    for (int k = 0; agree && k <= nparts; k++)
        agree = theirs[k + 1] == first[k];
    char detail[160];
    snprintf(detail, sizeof detail, "arguments differ from process %d's (%d parts, sizes must match)",
             c->group->e.run_pids[0], n0);
    free(ref);
    free(theirs);
    mpie_blame(c, !agree, "bsp_partition", detail);

    core_group *g = malloc(sizeof *g);
    if (!g || core_group_init(g, first[part + 1] - first[part], c->group->depth + 1))
        core_fatal_oom("partition");
    MPI_Comm comm;
    MPI_Comm_split(c->group->e.comm, part, c->pid, &comm);
    mpie_group_attach(g, comm, c->proc->pid);
    return g;
}

void eng_rejoin(core_ctx *c, core_ctx *sub)
{
    eng_barrier(c, CORE_AT_REJOIN, 0);
    core_group_free(sub->group);
    free(sub->group);
}
