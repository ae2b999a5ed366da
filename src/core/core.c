/* core — queues and the sync protocol (see core.h for the contract). */
#include "core/core.h"

#include "core/core_error.h"
#include "engine/threads/thr_barrier.h"

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

void core_proc_init(core_proc *p, core_run *run, int pid)
{
    memset(p, 0, sizeof *p);
    p->run = run;
    p->pid = pid;
    p->nprocs = run->nprocs;
    for (int par = 0; par < 2; par++) {
        p->out[par] = calloc((size_t)run->nprocs, sizeof(core_buf));
        if (!p->out[par])
            core_fatal_oom("communication buffers");
    }
    core_reg_init(&p->reg);
    core_trace_init(p);
}

void core_proc_free(core_proc *p)
{
    for (int par = 0; par < 2; par++) {
        for (int d = 0; d < p->nprocs; d++)
            core_buf_free(&p->out[par][d]);
        free(p->out[par]);
    }
    core_reg_free(&p->reg);
    core_trace_free(p);
    free(p->gets);
    free(p->regops);
    free(p->inq);
}

static void check_pid(const core_proc *p, const char *call, long long pid)
{
    if (pid < 0 || pid >= p->nprocs)
        core_fatal(call, "pid %lld out of range [0,%d)", pid, p->nprocs);
}

/* The slot of a local address the caller names in a put or get. */
static int32_t find_slot(core_proc *p, const char *call, const char *role, const void *addr)
{
    int32_t s = core_reg_find(&p->reg, addr);
    if (s >= 0)
        return s;
    for (size_t i = 0; i < p->nregops; i++)
        if (p->regops[i].kind == CORE_REGOP_PUSH && p->regops[i].addr == addr)
            core_fatal(call, "%s %p is registered only from the next superstep", role, addr);
    core_fatal(call, "%s %p is not registered", role, addr);
}

static core_rec *append_record(core_proc *p, int dest, uint32_t kind, uint32_t slot,
                               size_t datalen)
{
    core_buf *b = &p->out[p->step & 1][dest];
    core_rec *r = (core_rec *)core_buf_reserve(b, sizeof(core_rec) + ALIGN8(datalen));
    core_buf_commit(b, sizeof(core_rec) + ALIGN8(datalen));
    r->kind_slot = kind | slot << 8;
    return r;
}

void core_put_slow(core_proc *p, const char *call, long long pid, const void *src, void *dst,
                   size_t offset, size_t n, int high_performance)
{
    check_pid(p, call, pid);
    uint32_t slot = (uint32_t)find_slot(p, call, "destination", dst);
    do { /* records carry 32-bit sizes */
        size_t chunk = n < UINT32_MAX ? n : (size_t)1 << 31;
        core_rec *r;
        if (high_performance) {
            r = append_record(p, (int)pid, CORE_REC_HPPUT, slot, sizeof(const void *));
            memcpy(r + 1, &src, sizeof src);
            p->flags |= CORE_HAS_HP;
        } else {
            r = append_record(p, (int)pid, CORE_REC_PUT, slot, chunk);
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
    p->flags |= CORE_HAS_COMM;
}

void core_get(core_proc *p, const char *call, long long pid, const void *src, size_t offset,
              void *dst, size_t n)
{
    check_pid(p, call, pid);
    int32_t slot = find_slot(p, call, "source", src);
    if (p->ngets == p->capgets)
        p->gets = grow_array(p->gets, &p->capgets, sizeof *p->gets, "get list");
    p->gets[p->ngets++] = (core_getreq){src, dst, (uint32_t)pid, (uint32_t)slot, offset, n};
    p->flags |= CORE_HAS_GET;
}

void core_send(core_proc *p, long long pid, const void *tag, const void *payload, size_t n)
{
    check_pid(p, "bsp_send", pid);
    if (n > UINT32_MAX)
        core_fatal("bsp_send", "payload of %zu bytes exceeds the limit of %u bytes", n,
                   UINT32_MAX);
    size_t ts = p->tagsize;
    core_rec *r = append_record(p, (int)pid, CORE_REC_SEND, (uint32_t)ts, ALIGN8(ts) + n);
    r->offset = 0;
    r->size = (uint32_t)n;
    char *d = (char *)(r + 1);
    if (ts)
        memcpy(d, tag, ts);
    if (n)
        memcpy(d + ALIGN8(ts), payload, n);
    p->flags |= CORE_HAS_COMM;
    p->tr.bytes_out += ts + n;
    p->tr.msgs_out++;
}

static void add_regop(core_proc *p, core_regop_kind kind, const void *addr, size_t size)
{
    if (p->nregops == p->capregops)
        p->regops = grow_array(p->regops, &p->capregops, sizeof *p->regops, "registration list");
    p->regops[p->nregops++] = (core_regop){kind, addr, size};
    p->flags |= CORE_HAS_REG;
}

void core_push_reg(core_proc *p, const void *addr, size_t size)
{
    add_regop(p, CORE_REGOP_PUSH, addr, size);
}

/* Registered now, or pushed earlier in this superstep and not popped since. */
static int will_be_registered(core_proc *p, const void *addr)
{
    long depth = core_reg_find(&p->reg, addr) >= 0;
    if (depth) {
        /* Count the whole stack: earlier pops this superstep may remove several. */
        depth = 0;
        for (int32_t s = core_reg_find(&p->reg, addr); s >= 0; s = p->reg.slots[s].below)
            depth++;
    }
    for (size_t i = 0; i < p->nregops; i++)
        if (p->regops[i].addr == addr)
            depth += p->regops[i].kind == CORE_REGOP_PUSH ? 1 : -1;
    return depth > 0;
}

void core_pop_reg(core_proc *p, const void *addr)
{
    if (!will_be_registered(p, addr))
        core_fatal("bsp_pop_reg", "address %p is not registered", addr);
    add_regop(p, CORE_REGOP_POP, addr, 0);
}

size_t core_set_tagsize(core_proc *p, size_t size)
{
    if (size > CORE_MAX_SLOT)
        core_fatal("bsp_set_tagsize", "tag size %zu exceeds the limit of %u bytes", size,
                   CORE_MAX_SLOT);
    size_t prev = p->next_tagsize;
    p->next_tagsize = size;
    return prev;
}

static const char *regop_name(core_regop_kind k)
{
    return k == CORE_REGOP_PUSH ? "bsp_push_reg" : "bsp_pop_reg";
}

/* Registrations are matched by order: every process must make the same sequence of
 * push and pop calls. Each process compares all with process 0, so whichever one
 * reports names the same culprit, the lowest differing pid. */
static void check_regops(core_proc *self)
{
    core_run *run = self->run;
    const core_proc *ref = run->procs[0];
    for (int q = 1; q < run->nprocs; q++) {
        const core_proc *o = run->procs[q];
        size_t n = o->nregops < ref->nregops ? o->nregops : ref->nregops;
        for (size_t i = 0; i < n; i++)
            if (o->regops[i].kind != ref->regops[i].kind)
                core_fatal_as(q, o->step, regop_name(o->regops[i].kind),
                              "registration call %zu of this superstep is %s here but %s on "
                              "process 0",
                              i + 1, regop_name(o->regops[i].kind),
                              regop_name(ref->regops[i].kind));
        if (o->nregops != ref->nregops)
            core_fatal_as(q, o->step, "bsp_push_reg",
                          "%zu registration calls in this superstep, but process 0 made %zu",
                          o->nregops, ref->nregops);
    }
}

static void run_gets(core_proc *p)
{
    core_run *run = p->run;
    for (size_t i = 0; i < p->ngets; i++) {
        const core_getreq *g = &p->gets[i];
        core_proc *owner = run->procs[g->pid];
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
        if (p->tr.on)
            core_trace_add_source(p, (int)g->pid);
        if (owner->tr.on) {
            atomic_fetch_add_explicit(&owner->tr.served_bytes, g->size, memory_order_relaxed);
            atomic_fetch_add_explicit(&owner->tr.served_msgs, 1, memory_order_relaxed);
        }
    }
}

static void add_message(core_proc *p, const char *tag, const char *payload, size_t n)
{
    if (p->nin == p->capin)
        p->inq = grow_array(p->inq, &p->capin, sizeof *p->inq, "message queue");
    p->inq[p->nin++] = (core_msg){tag, payload, n};
    p->inbytes += n;
}

/* Pull everything addressed to p from every source, in source order. */
static void pull_incoming(core_proc *p, unsigned parity)
{
    core_run *run = p->run;
    for (int src = 0; src < run->nprocs; src++) {
        const core_buf *b = &run->procs[src]->out[parity][p->pid];
        const char *cur = b->data, *end = b->data + b->len;
        if (p->tr.on && b->len)
            core_trace_add_source(p, src);
        while (cur < end) {
            const core_rec *r = (const core_rec *)cur;
            const char *data = (const char *)(r + 1);
            unsigned kind = CORE_REC_KIND(r);
            size_t datalen;
            if (kind == CORE_REC_SEND) {
                size_t ts = CORE_REC_SLOT(r);
                add_message(p, data, data + ALIGN8(ts), r->size);
                datalen = ALIGN8(ts) + r->size;
                p->tr.bytes_in += ts;
            } else {
                const core_slot *s = &p->reg.slots[CORE_REC_SLOT(r)];
                if (r->offset > s->size || r->size > s->size - r->offset)
                    core_fatal_as(src, p->step, kind == CORE_REC_PUT ? "bsp_put" : "bsp_hpput",
                                  "offset %llu + size %llu exceeds the %zu bytes registered on "
                                  "process %d",
                                  (unsigned long long)r->offset, (unsigned long long)r->size,
                                  s->size, p->pid);
                const void *from = data;
                if (kind == CORE_REC_HPPUT)
                    memcpy(&from, data, sizeof from);
                char *to = (char *)s->addr + r->offset;
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
}

static void apply_regops(core_proc *p)
{
    for (size_t i = 0; i < p->nregops; i++) {
        const core_regop *op = &p->regops[i];
        if (op->kind == CORE_REGOP_PUSH) {
            if (core_reg_push(&p->reg, op->addr, op->size) > (int32_t)CORE_MAX_SLOT)
                core_fatal("bsp_push_reg", "more than %u registrations", CORE_MAX_SLOT);
        }
        else
            core_reg_pop(&p->reg, op->addr);
    }
    p->nregops = 0;
}

/* Different calls met at one barrier. Every process sees the same bits and names
 * the same culprit, so whichever reports first prints the same line. */
static void report_mixed_arrivals(core_run *run)
{
    int syncing = -1, ended = -1;
    for (int q = run->nprocs - 1; q >= 0; q--) {
        if (run->procs[q]->arrive_at == CORE_AT_SYNC)
            syncing = q;
        else
            ended = q;
    }
    const core_proc *e = run->procs[ended];
    core_fatal_as(syncing, run->procs[syncing]->step, "bsp_sync", "process %d has %s", ended,
                  e->ended_how == CORE_END_RETURNED ? "returned from the SPMD function"
                                                    : "called bsp_end");
}

static unsigned barrier(core_proc *p, unsigned at, unsigned bits)
{
    p->arrive_at = at;
    unsigned all = thr_barrier_wait(p->run->barrier, (unsigned)p->pid, bits | at);
    if ((all & (CORE_AT_SYNC | CORE_AT_END)) == (CORE_AT_SYNC | CORE_AT_END))
        report_mixed_arrivals(p->run);
    return all;
}

void core_sync(core_proc *p)
{
    unsigned parity = p->step & 1;
    if (p->tr.on)
        core_trace_enter(p);
    unsigned all = barrier(p, CORE_AT_SYNC, p->flags);
    if (all & CORE_HAS_REG)
        check_regops(p);
    if (all & (CORE_HAS_GET | CORE_HAS_REG)) {
        /* Gets read remote memory and remote tables: both must stay as they are
         * until every get is done. */
        run_gets(p);
        barrier(p, CORE_AT_SYNC, 0);
    }
    p->nin = p->inhead = 0;
    p->inbytes = 0;
    if (all & CORE_HAS_COMM)
        pull_incoming(p, parity);
    if (p->nregops)
        apply_regops(p);
    if (all & CORE_HAS_HP)
        barrier(p, CORE_AT_SYNC, 0); /* hpput sources are read until here */
    p->ngets = 0;
    p->flags = 0;
    p->tagsize = p->next_tagsize;
    if (p->tr.on)
        core_trace_exit(p, CORE_KIND_NORMAL);
    p->step++;
    /* The other parity's buffers were pulled before the barrier we just passed. */
    for (int d = 0; d < p->nprocs; d++)
        core_buf_clear(&p->out[p->step & 1][d]);
}

void core_end(core_proc *p, unsigned how)
{
    p->ended_how = how;
    barrier(p, CORE_AT_END, 0);
}
