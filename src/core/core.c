/* core — queues and the sync protocol (see core.h for the contract). */
#include "core/core.h"

#include "core/core_error.h"
#include "engine/threads/thr_barrier.h"
#include "engine/threads/thr_obl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

_Thread_local core_proc *core_self;

#define ALIGN8 CORE_ALIGN8

double core_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void *grow_array(void *arr, size_t *cap, size_t elem, const char *what)
{
    size_t n = *cap ? 2 * *cap : 16;
    void *p = realloc(arr, n * elem);
    if (!p)
        core_fatal_oom(what);
    *cap = n;
    return p;
}

int core_group_init(core_group *g, int nprocs, int depth)
{
    memset(g, 0, sizeof *g);
    g->nprocs = nprocs;
    g->depth = depth;
    g->members = calloc((size_t)nprocs, sizeof *g->members);
    if (posix_memalign((void **)&g->barrier, 64, sizeof(thr_barrier)))
        g->barrier = NULL;
    if (!g->members || !g->barrier || thr_barrier_init(g->barrier, (unsigned)nprocs))
        return -1;
    return 0;
}

void core_group_free(core_group *g)
{
    if (g->barrier)
        thr_barrier_destroy(g->barrier);
    free(g->barrier);
    free(g->members);
    free(g->part_first);
    free(g->parts);
    memset(g, 0, sizeof *g);
}

void core_ctx_init(core_ctx *c, core_proc *p, core_group *g, int pid)
{
    memset(c, 0, sizeof *c);
    c->proc = p;
    c->group = g;
    c->pid = pid;
    c->nprocs = g->nprocs;
    for (int par = 0; par < 2; par++) {
        c->out[par] = calloc((size_t)g->nprocs, sizeof(core_buf));
        if (!c->out[par])
            core_fatal_oom("communication buffers");
    }
    core_reg_init(&c->reg);
    c->mailbox = malloc(sizeof *c->mailbox);
    if (!c->mailbox || thr_mailbox_init(c->mailbox))
        core_fatal_oom("mailbox");
    g->members[pid] = c;
}


void core_ctx_free(core_ctx *c)
{
    for (int par = 0; par < 2; par++) {
        for (int d = 0; d < c->nprocs; d++)
            core_buf_free(&c->out[par][d]);
        free(c->out[par]);
    }
    core_reg_free(&c->reg);
    thr_mailbox_free(c->mailbox);
    free(c->mailbox);
    free(c->gets);
    free(c->regops);
    free(c->inq);
}

void core_proc_init(core_proc *p, core_run *run, int pid)
{
    memset(p, 0, sizeof *p);
    p->run = run;
    p->pid = pid;
    core_ctx_init(&p->root, p, &run->root, pid);
    p->ctx = &p->root;
    core_trace_init(p);
}

void core_proc_free(core_proc *p)
{
    core_ctx_free(&p->root);
    core_trace_free(p);
}

static void check_pid(const core_ctx *c, const char *call, long long pid)
{
    if (pid < 0 || pid >= c->nprocs)
        core_fatal(call, "pid %lld out of range [0,%d)", pid, c->nprocs);
}

/* The slot of a local address the caller names in a put or get. */
static int32_t find_slot(core_ctx *c, const char *call, const char *role, const void *addr)
{
    int32_t s = core_reg_find(&c->reg, addr);
    if (s >= 0)
        return s;
    for (size_t i = 0; i < c->nregops; i++)
        if (c->regops[i].kind == CORE_REGOP_PUSH && c->regops[i].addr == addr)
            core_fatal(call, "%s %p is registered only from the next superstep", role, addr);
    core_fatal(call, "%s %p is not registered", role, addr);
}

static core_rec *append_record(core_ctx *c, int dest, uint32_t kind, uint32_t slot,
                               size_t datalen)
{
    core_buf *b = &c->out[c->step & 1][dest];
    core_rec *r = (core_rec *)core_buf_reserve(b, sizeof(core_rec) + ALIGN8(datalen));
    core_buf_commit(b, sizeof(core_rec) + ALIGN8(datalen));
    r->kind_slot = kind | slot << 8;
    return r;
}

/* Appends put records (split below 4 GiB each) from src to dest's slot. */
static void append_puts(core_proc *p, int dest, uint32_t slot, const void *src, size_t offset,
                        size_t n, int high_performance)
{
    core_ctx *c = p->ctx;
    do {
        size_t chunk = n < UINT32_MAX ? n : (size_t)1 << 31;
        core_rec *r;
        if (high_performance) {
            r = append_record(c, dest, CORE_REC_HPPUT, slot, sizeof(const void *));
            memcpy(r + 1, &src, sizeof src);
            c->flags |= CORE_HAS_HP;
        } else {
            r = append_record(c, dest, CORE_REC_PUT, slot, chunk);
            if (chunk)
                memcpy(r + 1, src, chunk);
        }
        r->size = (uint32_t)chunk;
        r->offset = offset;
        src = (const char *)src + chunk;
        offset += chunk;
        n -= chunk;
        p->tr.bytes_out += chunk;
        p->tr.msgs_out++;
    } while (n);
    c->flags |= CORE_HAS_COMM;
}

void core_put_slow(core_proc *p, const char *call, long long pid, const void *src, void *dst,
                   size_t offset, size_t n, int high_performance)
{
    check_pid(p->ctx, call, pid);
    uint32_t slot = (uint32_t)find_slot(p->ctx, call, "destination", dst);
    append_puts(p, (int)pid, slot, src, offset, n, high_performance);
}

void core_coll_begin(core_proc *p, core_step_kind kind, long root, size_t nbytes)
{
    core_ctx *c = p->ctx;
    c->coll[c->step & 1] = (core_coll_desc){kind, root, nbytes};
    c->flags |= CORE_HAS_COLL;
    core_trace_label(p, kind);
}

/* "bsp_bcast" for a collective kind, "bsp_sync" for none. */
static const char *coll_call(core_step_kind kind, char *buf, size_t size)
{
    if (kind == CORE_KIND_NORMAL)
        return "bsp_sync";
    snprintf(buf, size, "bsp_%s", core_kind_name(kind));
    return buf;
}

/* Every member must have started the same collective with the same root and
 * size. Descriptors alternate by parity, so the one read here is rewritten only
 * after the next barrier. */
static void check_colls(const core_group *g, unsigned parity)
{
    const core_coll_desc *ref = &g->members[0]->coll[parity];
    int ref_pid = g->members[0]->proc->pid;
    for (int q = 1; q < g->nprocs; q++) {
        const core_proc *o = g->members[q]->proc;
        const core_coll_desc *d = &g->members[q]->coll[parity];
        char mine[32], theirs[32];
        const char *call = coll_call(d->kind, mine, sizeof mine);
        if (d->kind != ref->kind)
            core_fatal_as(o->pid, o->step, call, "process %d has called %s", ref_pid,
                          coll_call(ref->kind, theirs, sizeof theirs));
        if (d->root != ref->root)
            core_fatal_as(o->pid, o->step, call, "root %ld here but %ld on process %d", d->root,
                          ref->root, ref_pid);
        if (d->nbytes != ref->nbytes)
            core_fatal_as(o->pid, o->step, call, "size %zu here but %zu on process %d", d->nbytes,
                          ref->nbytes, ref_pid);
    }
}

void core_coll_expose(core_proc *p, void *buf, size_t size)
{
    p->ctx->coll_buf = buf;
    p->ctx->coll_size = size;
}

void core_coll_put(core_proc *p, const char *call, int pid, const void *src, size_t offset,
                   size_t n)
{
    check_pid(p->ctx, call, pid);
    append_puts(p, pid, CORE_COLL_SLOT, src, offset, n, 0);
}

void core_get(core_proc *p, const char *call, long long pid, const void *src, size_t offset,
              void *dst, size_t n)
{
    core_ctx *c = p->ctx;
    check_pid(c, call, pid);
    int32_t slot = find_slot(c, call, "source", src);
    if (c->ngets == c->capgets)
        c->gets = grow_array(c->gets, &c->capgets, sizeof *c->gets, "get list");
    c->gets[c->ngets++] = (core_getreq){dst, (uint32_t)pid, (uint32_t)slot, offset, n};
    c->flags |= CORE_HAS_GET;
}

void core_send(core_proc *p, long long pid, const void *tag, const void *payload, size_t n)
{
    core_ctx *c = p->ctx;
    check_pid(c, "bsp_send", pid);
    if (n > UINT32_MAX)
        core_fatal("bsp_send", "payload of %zu bytes exceeds the limit of %u bytes", n,
                   UINT32_MAX);
    size_t ts = c->tagsize;
    core_rec *r = append_record(c, (int)pid, CORE_REC_SEND, (uint32_t)ts, ALIGN8(ts) + n);
    r->offset = 0;
    r->size = (uint32_t)n;
    char *d = (char *)(r + 1);
    if (ts)
        memcpy(d, tag, ts);
    if (n)
        memcpy(d + ALIGN8(ts), payload, n);
    c->flags |= CORE_HAS_COMM;
    p->tr.bytes_out += ts + n;
    p->tr.msgs_out++;
}

static void add_regop(core_ctx *c, core_regop_kind kind, const void *addr, size_t size)
{
    if (c->nregops == c->capregops)
        c->regops = grow_array(c->regops, &c->capregops, sizeof *c->regops, "registration list");
    c->regops[c->nregops++] = (core_regop){kind, addr, size};
    c->flags |= CORE_HAS_REG;
}

void core_push_reg(core_proc *p, const void *addr, size_t size)
{
    add_regop(p->ctx, CORE_REGOP_PUSH, addr, size);
}

/* Registered now, or pushed earlier in this superstep, and not popped as often. */
static int will_be_registered(core_ctx *c, const void *addr)
{
    long depth = 0;
    for (int32_t s = core_reg_find(&c->reg, addr); s >= 0; s = c->reg.slots[s].below)
        depth++;
    for (size_t i = 0; i < c->nregops; i++)
        if (c->regops[i].addr == addr)
            depth += c->regops[i].kind == CORE_REGOP_PUSH ? 1 : -1;
    return depth > 0;
}

void core_pop_reg(core_proc *p, const void *addr)
{
    if (!will_be_registered(p->ctx, addr))
        core_fatal("bsp_pop_reg", "address %p is not registered", addr);
    add_regop(p->ctx, CORE_REGOP_POP, addr, 0);
}

size_t core_set_tagsize(core_proc *p, size_t size)
{
    if (size > CORE_MAX_SLOT)
        core_fatal("bsp_set_tagsize", "tag size %zu exceeds the limit of %u bytes", size,
                   CORE_MAX_SLOT);
    size_t prev = p->ctx->next_tagsize;
    p->ctx->next_tagsize = size;
    return prev;
}

static const char *regop_name(core_regop_kind k)
{
    return k == CORE_REGOP_PUSH ? "bsp_push_reg" : "bsp_pop_reg";
}

/* Registrations are matched by order: every member must make the same sequence of
 * push and pop calls. Each member compares all with member 0, so whichever one
 * reports names the same culprit, the lowest differing pid. */
static void check_regops(const core_group *g)
{
    const core_ctx *ref = g->members[0];
    for (int q = 1; q < g->nprocs; q++) {
        const core_ctx *o = g->members[q];
        size_t n = o->nregops < ref->nregops ? o->nregops : ref->nregops;
        for (size_t i = 0; i < n; i++)
            if (o->regops[i].kind != ref->regops[i].kind)
                core_fatal_as(o->proc->pid, o->proc->step, regop_name(o->regops[i].kind),
                              "registration call %zu of this superstep is %s here but %s on "
                              "process 0",
                              i + 1, regop_name(o->regops[i].kind),
                              regop_name(ref->regops[i].kind));
        if (o->nregops != ref->nregops)
            core_fatal_as(o->proc->pid, o->proc->step, "bsp_push_reg",
                          "%zu registration calls in this superstep, but process 0 made %zu",
                          o->nregops, ref->nregops);
    }
}

static void run_gets(core_proc *p)
{
    core_ctx *c = p->ctx;
    for (size_t i = 0; i < c->ngets; i++) {
        const core_getreq *g = &c->gets[i];
        core_ctx *owner = c->group->members[g->pid];
        const core_slot *s = &owner->reg.slots[g->slot];
        if (g->offset > s->size || g->size > s->size - g->offset)
            core_fatal("bsp_get", "offset %llu + size %llu exceeds the %zu bytes registered on "
                       "process %u",
                       (unsigned long long)g->offset, (unsigned long long)g->size, s->size,
                       g->pid);
        if (g->size)
            memcpy(g->dst, (const char *)s->addr + g->offset, g->size);
        p->tr.bytes_in += g->size;
        p->tr.msgs_in++;
        core_tracer *ot = &owner->proc->tr;
        if (p->tr.on)
            core_trace_add_source(p, owner->proc->pid);
        if (ot->on) {
            atomic_fetch_add_explicit(&ot->served_bytes, g->size, memory_order_relaxed);
            atomic_fetch_add_explicit(&ot->served_msgs, 1, memory_order_relaxed);
        }
    }
}

static void add_message(core_ctx *c, const char *tag, const char *payload, size_t n)
{
    if (c->nin == c->capin)
        c->inq = grow_array(c->inq, &c->capin, sizeof *c->inq, "message queue");
    c->inq[c->nin++] = (core_msg){tag, payload, n};
    c->inbytes += n;
}

static const char *put_call(unsigned kind, uint32_t slot)
{
    if (slot == CORE_COLL_SLOT)
        return "collective";
    return kind == CORE_REC_PUT ? "bsp_put" : "bsp_hpput";
}

void core_apply_records(core_proc *p, int src, const char *data_start, size_t len)
{
    core_ctx *c = p->ctx;
    const char *cur = data_start, *end = data_start + len;
    while (cur < end) {
            const core_rec *r = (const core_rec *)cur;
            const char *data = (const char *)(r + 1);
            unsigned kind = CORE_REC_KIND(r);
            size_t datalen;
            if (kind == CORE_REC_SEND) {
                size_t ts = CORE_REC_SLOT(r);
                add_message(c, data, data + ALIGN8(ts), r->size);
                datalen = ALIGN8(ts) + r->size;
                p->tr.bytes_in += ts;
            } else {
                uint32_t slot = CORE_REC_SLOT(r);
                char *base;
                size_t size;
                if (slot == CORE_COLL_SLOT) {
                    base = c->coll_buf;
                    size = c->coll_size;
                } else {
                    base = (char *)c->reg.slots[slot].addr;
                    size = c->reg.slots[slot].size;
                }
                if (r->offset > size || r->size > size - r->offset)
                    core_fatal_as(c->group->members[src]->proc->pid, p->step, put_call(kind, slot),
                                  "offset %llu + size %llu exceeds the %zu bytes registered on "
                                  "process %d",
                                  (unsigned long long)r->offset, (unsigned long long)r->size,
                                  size, c->pid);
                const void *from = data;
                if (kind == CORE_REC_HPPUT)
                    memcpy(&from, data, sizeof from);
                char *to = base + r->offset;
                if (r->size <= 64)
                    core_copy_small(to, from, r->size);
                else
                    memcpy(to, from, r->size);
                datalen = kind == CORE_REC_PUT ? r->size : sizeof from;
            }
            p->tr.bytes_in += r->size;
            p->tr.msgs_in++;
            cur += sizeof(core_rec) + ALIGN8(datalen);
    }
}

/* Pull everything addressed to p from every member, in source order. */
static void pull_incoming(core_proc *p, unsigned parity)
{
    core_ctx *c = p->ctx;
    for (int src = 0; src < c->nprocs; src++) {
        const core_ctx *from = c->group->members[src];
        const core_buf *b = &from->out[parity][c->pid];
        if (!b->len)
            continue;
        if (p->tr.on)
            core_trace_add_source(p, from->proc->pid);
        core_apply_records(p, src, b->data, b->len);
    }
}

static void apply_regops(core_ctx *c)
{
    for (size_t i = 0; i < c->nregops; i++) {
        const core_regop *op = &c->regops[i];
        if (op->kind == CORE_REGOP_PUSH) {
            if (core_reg_push(&c->reg, op->addr, op->size) > (int32_t)CORE_MAX_SLOT)
                core_fatal("bsp_push_reg", "more than %u registrations", CORE_MAX_SLOT);
        } else {
            core_reg_pop(&c->reg, op->addr);
        }
    }
    c->nregops = 0;
}

static const char *arrival_call(unsigned at)
{
    switch (at) {
    case CORE_AT_END: return "bsp_end";
    case CORE_AT_PARTITION: return "bsp_partition";
    case CORE_AT_REJOIN: return "bsp_rejoin";
    default: return "bsp_sync";
    }
}

/* Different calls met at one barrier. Every member sees the same bits and names
 * the same culprit, so whichever reports first prints the same line: the lowest
 * pid that made the call of the lowest kind, about the lowest pid that made
 * another call. */
static void report_mixed_arrivals(const core_group *g, unsigned all)
{
    unsigned first = all & CORE_AT_ANY & -(all & CORE_AT_ANY);
    int culprit = -1, other = -1;
    unsigned other_at = 0;
    for (int q = g->nprocs - 1; q >= 0; q--) {
        unsigned at = atomic_load_explicit(&g->members[q]->arrive_at, memory_order_relaxed);
        if (at == first) {
            culprit = q;
        } else {
            other = q;
            other_at = at;
        }
    }
    const core_ctx *c = g->members[culprit], *o = g->members[other];
    const char *what;
    char buf[64];
    if (other_at == CORE_AT_END)
        what = o->proc->ended_how == CORE_END_RETURNED ? "returned from the SPMD function"
                                                        : "called bsp_end";
    else {
        snprintf(buf, sizeof buf, "called %s", arrival_call(other_at));
        what = buf;
    }
    core_fatal_as(c->proc->pid, c->proc->step, arrival_call(first), "process %d has %s",
                  o->proc->pid, what);
}

unsigned core_barrier(core_ctx *c, unsigned at, unsigned bits)
{
    atomic_store_explicit(&c->arrive_step, c->step, memory_order_relaxed);
    atomic_store_explicit(&c->arrive_at, at, memory_order_relaxed);
    unsigned all = thr_barrier_wait(c->group->barrier, (unsigned)c->pid, bits | at);
    if ((all & CORE_AT_ANY) != at)
        report_mixed_arrivals(c->group, all);
    atomic_store_explicit(&c->arrive_at, 0, memory_order_relaxed);
    return all;
}

/* The data movement of a superstep in the current group; `at` names the call
 * that ends it (a sync, or a partition or rejoin, which end one too). */
static void sync_as(core_proc *p, unsigned at)
{
    core_ctx *c = p->ctx;
    unsigned parity = c->step & 1;
    if (p->tr.on)
        core_trace_enter(p);
    unsigned all = core_barrier(c, at, c->flags);
    /* Past the barrier nobody reads what oblivious supersteps left behind. */
    thr_mailbox_release(c->mailbox);
    if (all & CORE_HAS_REG)
        check_regops(c->group);
    if (all & CORE_HAS_COLL)
        check_colls(c->group, parity);
    if (all & (CORE_HAS_GET | CORE_HAS_REG)) {
        /* Gets read remote memory and remote tables: both must stay as they are
         * until every get is done. */
        run_gets(p);
        core_barrier(c, at, 0);
    }
    c->nin = c->inhead = 0;
    c->inbytes = 0;
    if (all & CORE_HAS_COMM)
        pull_incoming(p, parity);
    if (c->nregops)
        apply_regops(c);
    if (all & CORE_HAS_HP)
        core_barrier(c, at, 0); /* hpput sources are read until here */
    c->ngets = 0;
    c->flags = 0;
    c->tagsize = c->next_tagsize;
    if (p->tr.on)
        core_trace_exit(p,
                        at == CORE_AT_PARTITION ? CORE_KIND_PARTITION
                        : at == CORE_AT_REJOIN  ? CORE_KIND_REJOIN
                                                : CORE_KIND_NORMAL,
                        c->group->depth);
    c->step++;
    p->step++;
    atomic_store_explicit(&c->done_step, c->step, memory_order_release);
    c->coll[c->step & 1].kind = CORE_KIND_NORMAL;
    /* The other parity's buffers were pulled before the barrier we just passed. */
    for (int d = 0; d < c->nprocs; d++)
        core_buf_clear(&c->out[c->step & 1][d]);
}

void core_sync(core_proc *p) { sync_as(p, CORE_AT_SYNC); }

void core_sync_as(core_proc *p, unsigned at) { sync_as(p, at); }

void core_oblsync(core_proc *p, size_t n) { thr_oblsync(p, n); }

void core_end(core_proc *p, unsigned how)
{
    p->ended_how = how;
    core_barrier(p->ctx, CORE_AT_END, 0);
}
