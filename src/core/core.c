/* core — queues and the sync protocol (see core.h for the contract). */
#include "core/core.h"

#include "core/core_error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

_Thread_local core_proc *core_self;

/* Under SMPI, smpicc's smpi_helpers.h makes this clock_gettime the simulator's:
 * the rank's simulated time, as MPI_Wtime gives it. */
double core_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int core_group_init(core_group *g, int nprocs, int depth)
{
    memset(g, 0, sizeof *g);
    g->nprocs = nprocs;
    g->depth = depth;
    return eng_group_init(g);
}

void core_group_free(core_group *g)
{
    eng_group_free(g);
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
        c->out[par] = core_bufs_alloc((size_t)g->nprocs);
        if (!c->out[par])
            core_fatal_oom("communication buffers");
    }
    core_reg_init(&c->reg);
    if (eng_ctx_init(c))
        core_fatal_oom("process state");
}

void core_ctx_free(core_ctx *c)
{
    for (int par = 0; par < 2; par++) {
        for (int d = 0; c->out[par] && d < c->nprocs; d++)
            if (c->out[par][d].data) /* only those written: see core_out_clear */
                core_buf_free(&c->out[par][d]);
        core_bufs_free(c->out[par], (size_t)c->nprocs);
    }
    core_reg_free(&c->reg);
    eng_ctx_free(c);
    free(c->part_first);
    free(c->gets);
    free(c->regops);
    core_msgq_free(&c->in);
}

void core_proc_init(core_proc *p, core_run *run, int pid)
{
    memset(p, 0, sizeof *p);
    p->run = run;
    p->pid = pid;
    core_ctx_init(&p->root, p, &run->root, pid);
    eng_ctx_attach(&p->root);
    p->ctx = &p->root;
    core_trace_init(p);
}

void core_proc_free(core_proc *p)
{
    core_ctx_free(&p->root);
    core_trace_free(p);
}

/* Processes and group contexts come from core_zalloc_lines. */
_Static_assert(_Alignof(core_proc) <= 64 && _Alignof(core_ctx) <= 64,
               "core_zalloc_lines aligns to 64 bytes");

void *core_zalloc_lines(size_t n)
{
    size_t bytes = (n + 63) & ~(size_t)63;
    void *p = NULL;
    if (posix_memalign(&p, 64, bytes))
        return NULL;
    memset(p, 0, bytes);
    return p;
}

/* Processes write their state constantly, and a neighbour's writes must not
 * evict it. */
static void *zalloc_aligned(size_t n)
{
    void *p = core_zalloc_lines(n);
    if (!p)
        core_fatal_oom("process state");
    return p;
}

core_run *core_run_create(int nprocs, int first, int last, const char *trace, const char *program)
{
    core_run *run = zalloc_aligned(sizeof *run);
    run->nprocs = nprocs;
    run->procs = calloc((size_t)nprocs, sizeof *run->procs);
    if (!run->procs || core_group_init(&run->root, nprocs, 0))
        core_fatal_oom("process table");
    for (int i = first; i < last; i++) {
        run->procs[i] = zalloc_aligned(sizeof(core_proc));
        core_proc_init(run->procs[i], run, i);
    }
    run->trace_path = trace ? trace : "polybsp-trace.jsonl";
    run->program = program;
    run->trace_all = trace != NULL;
    return run;
}

void core_run_destroy(core_run *run)
{
    for (int i = 0; i < run->nprocs; i++) {
        if (run->procs[i]) {
            core_proc_free(run->procs[i]);
            free(run->procs[i]);
        }
    }
    free(run->procs);
    core_group_free(&run->root);
    free(run);
}

void core_check_begin(eng_state state, int have_spmd)
{
    if (state == ENG_RUNNING)
        core_fatal("bsp_begin", "called twice (the SPMD section is already running)");
    if (state == ENG_AFTER && !have_spmd)
        core_fatal("bsp_begin", "a second SPMD section needs bsp_init");
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

/* Room for n more bytes in an out buffer. Its growth (the realloc, and the
 * first touch of the new pages, core_buf_grow) is the library's: while tracing,
 * its CPU time is kept apart (core_tracer.grow) and left out of the trace's cpu,
 * the program's own work, as the simulator leaves the library's calls out of
 * what it charges (eng_work_pause). On 64 threads of 2 cores a fault cost 2-6
 * us here, and the growing supersteps' cpu were up to 30x the simulator's. */
static char *out_reserve(core_proc *p, core_buf *b, size_t n)
{
    if (b->cap - b->len < n) {
        double begin = core_trace_growth_begin(&p->tr);
        core_buf_grow(b, n);
        core_trace_growth_end(&p->tr, begin);
    }
    return b->data + b->len;
}

/* Appends a record with header h and room for datalen bytes of data after it. */
static core_rec *append_record(core_proc *p, int dest, core_rec h, size_t datalen)
{
    core_ctx *c = p->ctx;
    core_buf *b = &c->out[c->step & 1][dest];
    core_rec *r = (core_rec *)out_reserve(p, b, core_rec_len(datalen));
    core_buf_commit(b, core_rec_len(datalen));
    *r = h;
    return r;
}

/* Copies a payload into the out buffer of dest (core_run.stream_out). */
static void copy_out(core_proc *p, int dest, void *to, const void *from, size_t n)
{
    /* While tracing, a copy for another process is timed apart from the work
     * (core_trace.h); one to itself is not communication, and stays work. */
    int other = dest != p->ctx->pid, timed = p->tr.on && other;
    uint64_t t0 = timed ? core_ticks() : 0;
    core_stream how = n >= CORE_COPY_STREAM_MIN && other ? p->run->stream_out : CORE_STREAM_NEVER;
    if (how == CORE_STREAM_MEASURED)
        core_copy_picked(&p->copy_pick, to, from, n);
    else if (how == CORE_STREAM_ALWAYS)
        core_copy_stream(to, from, n);
    else
        core_copy(to, from, n);
    if (timed)
        p->tr.copy_ticks += core_ticks() - t0;
}

/* Before a put or send of n bytes from src to another process, whose record
 * holds lead bytes of data before the payload (a send's tag): a padding record
 * when the payload would otherwise land too near its source mod 4096
 * (core_copy_place; CORE_COPY_PLACE_MIN in core_copy.h says why). */
static void place_payload(core_proc *p, int dest, const void *src, size_t n, size_t lead)
{
    core_ctx *c = p->ctx;
    if (!p->run->place_payloads || n < CORE_COPY_PLACE_MIN || dest == c->pid)
        return;
    core_buf *b = &c->out[c->step & 1][dest];
    /* Room for the padding and the record at once: no growth may move the
     * buffer between the choice of the padding and the record. */
    out_reserve(p, b, core_rec_len(4096) + core_rec_len(lead + n));
    core_rec *r = (core_rec *)(b->data + b->len);
    size_t skip = core_copy_place((uintptr_t)(r + 1) + lead, (uintptr_t)src, sizeof *r);
    if (skip == 0)
        return;
    *r = (core_rec){.kind_slot = CORE_REC_PAD, .size = (uint32_t)(skip - sizeof *r)};
    core_buf_commit(b, skip);
}

/* Appends put records (split below 4 GiB each) from src to dest's slot. */
static void append_puts(core_proc *p, int dest, uint32_t slot, const void *src, size_t offset,
                        size_t n, int high_performance)
{
    core_ctx *c = p->ctx;
    do {
        size_t chunk = n < UINT32_MAX ? n : (size_t)1 << 31;
        if (high_performance) {
            core_rec *r = append_record(
                p, dest, (core_rec){CORE_REC_HPPUT | slot << 8, (uint32_t)chunk, offset},
                sizeof(const void *));
            memcpy(r + 1, &src, sizeof src);
            c->flags |= CORE_HAS_HP | (chunk >= CORE_BIG_HPPUT ? CORE_HAS_BIG : 0);
            if (dest != c->pid)
                p->tr.hp_bytes_out += chunk;
        } else if (core_small_put_fits(slot, offset, chunk)) {
            core_buf *b = &c->out[c->step & 1][dest];
            size_t len = core_rec_small_len(chunk);
            core_rec *r = (core_rec *)out_reserve(p, b, len);
            core_buf_commit(b, len);
            core_copy_small(core_rec_small_put(r, slot, offset, chunk), src, chunk);
        } else {
            place_payload(p, dest, src, chunk, 0);
            if (chunk >= CORE_BIG_PUT)
                c->flags |= CORE_HAS_BIG;
            core_rec *r = append_record(
                p, dest, (core_rec){CORE_REC_PUT | slot << 8, (uint32_t)chunk, offset}, chunk);
            if (chunk)
                copy_out(p, dest, r + 1, src, chunk);
        }
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
    core_ctx *c = p->ctx;
    check_pid(c, call, pid);
    int32_t slot = find_slot(c, call, "destination", dst);
    /* Refused here, before the source is read or records are built: no process
     * registered room for it. The destination checks its own size again. */
    const core_slot *s = &c->reg.slots[slot];
    if (offset > s->most || n > s->most - offset) {
        if (s->agree)
            core_fatal(call,
                       "offset %zu + size %zu exceeds the %zu bytes registered on process %lld",
                       offset, n, s->most, pid);
        core_fatal(call,
                   "offset %zu + size %zu exceeds the at most %zu bytes registered on any process",
                   offset, n, s->most);
    }
    if ((uintptr_t)src > UINTPTR_MAX - n)
        core_fatal(call, "source %p + size %zu wraps around the address space", src, n);
    append_puts(p, (int)pid, (uint32_t)slot, src, offset, n, high_performance);
}

int core_coll_native(core_proc *p, core_step_kind kind, int root, const void *src, void *dst,
                     size_t n)
{
    eng_coll op = {(int)kind, root, src, dst, n};
    return eng_coll_native(p->ctx, &op);
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

int core_coll_differ(const core_coll_desc *ref, long ref_pid, const core_coll_desc *mine,
                     char *call, size_t calllen, char *detail, size_t len)
{
    char theirs[32];
    snprintf(call, calllen, "%s", coll_call(mine->kind, theirs, sizeof theirs));
    if (mine->kind != ref->kind)
        snprintf(detail, len, "process %ld has called %s", ref_pid,
                 coll_call(ref->kind, theirs, sizeof theirs));
    else if (mine->root != ref->root)
        snprintf(detail, len, "root %ld here but %ld on process %ld", mine->root, ref->root,
                 ref_pid);
    else if (mine->nbytes != ref->nbytes)
        snprintf(detail, len, "size %zu here but %zu on process %ld", mine->nbytes, ref->nbytes,
                 ref_pid);
    else
        return 0;
    return 1;
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
              void *dst, size_t n, int high_performance)
{
    core_ctx *c = p->ctx;
    check_pid(c, call, pid);
    int32_t slot = find_slot(c, call, "source", src);
    if (c->ngets == c->capgets)
        c->gets = core_grow_array(c->gets, &c->capgets, sizeof *c->gets, "get list");
    c->gets[c->ngets] =
        (core_getreq){dst, (uint32_t)pid, (uint32_t)slot, high_performance != 0, offset, n};
    eng_get_queued(c, &c->gets[c->ngets++]);
    c->flags |= CORE_HAS_GET;
    /* The destination's fresh pages are counted now rather than when the sync
     * writes them: the system call then falls into the work, which the models
     * charge, not into the sync (0.7 us a superstep of gets here). BSPlib leaves
     * the destination alone until the sync, so what is untouched now still is. */
    core_trace_dest(&p->tr, dst, n);
}

void core_send(core_proc *p, long long pid, const void *tag, const void *payload, size_t n)
{
    core_ctx *c = p->ctx;
    check_pid(c, "bsp_send", pid);
    if (n > UINT32_MAX)
        core_fatal("bsp_send", "payload of %zu bytes exceeds the limit of %u bytes", n, UINT32_MAX);
    size_t ts = c->tagsize;
    place_payload(p, (int)pid, payload, n, CORE_ALIGN8(ts));
    core_rec *r =
        append_record(p, (int)pid, (core_rec){CORE_REC_SEND | (uint32_t)ts << 8, (uint32_t)n, 0},
                      CORE_ALIGN8(ts) + n);
    char *d = (char *)(r + 1);
    if (ts)
        memcpy(d, tag, ts);
    if (n)
        copy_out(p, (int)pid, d + CORE_ALIGN8(ts), payload, n);
    c->flags |= CORE_HAS_COMM;
    p->tr.bytes_out += ts + n;
    p->tr.msgs_out++;
    if ((int)pid != c->pid)
        p->tr.send_bytes_out += ts + n;
}

static void add_regop(core_ctx *c, core_regop_kind kind, const void *addr, size_t size,
                      uint64_t push)
{
    if (c->nregops == c->capregops)
        c->regops =
            core_grow_array(c->regops, &c->capregops, sizeof *c->regops, "registration list");
    c->regops[c->nregops++] = (core_regop){kind, addr, size, push, size, 1};
    c->flags |= CORE_HAS_REG;
}

void core_push_reg(core_proc *p, const void *addr, size_t size)
{
    core_ctx *c = p->ctx;
    add_regop(c, CORE_REGOP_PUSH, addr, size, ++c->npushes);
    p->tr.regs++;
}

/* The push a pop of addr made now undoes, or 0 when addr will not be registered.
 * Pops undo the latest registration of addr still standing: this superstep's
 * pushes, latest first, then the registered ones from the top. Walking back, a
 * pop hides one earlier registration of addr from the pop asked about. */
static uint64_t pop_target(core_ctx *c, const void *addr)
{
    size_t hidden = 0;
    for (size_t i = c->nregops; i-- > 0;) {
        const core_regop *op = &c->regops[i];
        if (op->addr != addr)
            continue;
        if (op->kind == CORE_REGOP_POP)
            hidden++;
        else if (hidden)
            hidden--;
        else
            return op->push;
    }
    for (int32_t s = core_reg_find(&c->reg, addr); s >= 0; s = c->reg.slots[s].below)
        if (hidden-- == 0)
            return c->reg.slots[s].push;
    return 0;
}

void core_pop_reg(core_proc *p, const void *addr)
{
    uint64_t push = pop_target(p->ctx, addr);
    if (!push)
        core_fatal("bsp_pop_reg", "address %p is not registered", addr);
    add_regop(p->ctx, CORE_REGOP_POP, addr, 0, push);
    p->tr.regs++;
}

size_t core_set_tagsize(core_proc *p, size_t size)
{
    if (size > CORE_MAX_TAGSIZE)
        core_fatal("bsp_set_tagsize", "tag size %zu exceeds the limit of %u bytes", size,
                   CORE_MAX_TAGSIZE);
    size_t prev = p->ctx->next_tagsize;
    p->ctx->next_tagsize = size;
    p->ctx->tagsize_calls++;
    /* Collective: the members' sizes are compared with the registrations. */
    p->ctx->flags |= CORE_HAS_REG;
    return prev;
}

static const char *regop_name(core_regop_kind k)
{
    return k == CORE_REGOP_PUSH ? "bsp_push_reg" : "bsp_pop_reg";
}

/* Registrations are matched by order: every member must make the same sequence of
 * push and pop calls as member 0, its pops undoing the same pushes, and call
 * bsp_set_tagsize as often, leaving the same tag size for the next superstep (a
 * member that does not call it while the others do is wrong even when the sizes
 * happen to agree: the call is collective). */
int core_regops_differ(const core_regop *ref, size_t nref, size_t ref_tagcalls, size_t ref_tagsize,
                       const core_regop *mine, size_t n, size_t tagcalls, size_t tagsize,
                       const char **call, char *detail, size_t len)
{
    size_t common = n < nref ? n : nref;
    for (size_t i = 0; i < common; i++) {
        if (mine[i].kind != ref[i].kind) {
            *call = regop_name(mine[i].kind);
            snprintf(detail, len,
                     "registration call %zu of this superstep is %s here but %s on process 0",
                     i + 1, regop_name(mine[i].kind), regop_name(ref[i].kind));
            return 1;
        }
        if (mine[i].kind == CORE_REGOP_POP && mine[i].push != ref[i].push) {
            *call = "bsp_pop_reg";
            snprintf(detail, len,
                     "registration call %zu of this superstep pops the registration of push %llu "
                     "here but of push %llu on process 0",
                     i + 1, (unsigned long long)mine[i].push, (unsigned long long)ref[i].push);
            return 1;
        }
    }
    if (n != nref) {
        /* The first call one side made and the other did not. */
        *call = regop_name(n > nref ? mine[common].kind : ref[common].kind);
        snprintf(detail, len, "%zu registration calls in this superstep, but process 0 made %zu", n,
                 nref);
        return 1;
    }
    if (tagcalls != ref_tagcalls) {
        *call = "bsp_set_tagsize";
        snprintf(detail, len, "%zu calls in this superstep, but process 0 made %zu", tagcalls,
                 ref_tagcalls);
        return 1;
    }
    if (tagsize != ref_tagsize) {
        *call = "bsp_set_tagsize";
        snprintf(detail, len, "tag size %zu here but %zu on process 0", tagsize, ref_tagsize);
        return 1;
    }
    return 0;
}

void core_regops_fold(core_regop *mine, const core_regop *other, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (other[i].size > mine[i].most)
            mine[i].most = other[i].size;
        if (other[i].size != mine[i].size)
            mine[i].agree = 0;
    }
}

void core_check_get(long pid, unsigned long step, const core_getreq *g, size_t registered)
{
    if (g->offset > registered || g->size > registered - g->offset)
        core_fatal_as(pid, step, g->high_performance ? "bsp_hpget" : "bsp_get",
                      "offset %llu + size %llu exceeds the %zu bytes registered on process %u",
                      (unsigned long long)g->offset, (unsigned long long)g->size, registered,
                      g->pid);
}

static const char *put_call(unsigned kind, uint32_t slot)
{
    if (slot == CORE_COLL_SLOT)
        return "collective";
    return kind == CORE_REC_PUT ? "bsp_put" : "bsp_hpput";
}

char *core_rec_target(core_proc *p, long src_pid, const core_rec_view *r)
{
    core_place at = core_rec_place(p->ctx, r);
    if (r->offset > at.size || r->size > at.size - r->offset)
        core_fatal_as(src_pid, p->step, put_call(r->kind, r->slot),
                      "offset %llu + size %llu exceeds the %zu bytes registered on process %d",
                      (unsigned long long)r->offset, (unsigned long long)r->size, at.size,
                      p->ctx->pid);
    return at.base + r->offset;
}

void core_apply_records(core_proc *p, long src_pid, const char *data_start, size_t len)
{
    core_ctx *c = p->ctx;
    const char *cur = data_start, *end = data_start + len;
    while (cur < end) {
        core_rec_view r = core_rec_open((const core_rec *)cur);
        cur += r.bytes;
        if (r.kind == CORE_REC_PAD)
            continue;
        if (r.kind == CORE_REC_SEND) {
            size_t ts = r.slot;
            core_msgq_push(&c->in, r.data, ts, r.data + CORE_ALIGN8(ts), r.size);
            p->tr.bytes_in += ts;
        } else {
            const void *from = r.data;
            if (r.kind == CORE_REC_HPPUT)
                memcpy(&from, r.data, sizeof from);
            char *to = core_rec_target(p, src_pid, &r);
            if (r.slot == CORE_COLL_SLOT)
                core_trace_dest(&p->tr, to, r.size);
            else
                core_trace_dest_area(&p->tr, to, r.size);
            if (r.size <= CORE_SMALL_PUT_MAX)
                core_copy_small(to, from, r.size);
            else
                core_copy(to, from, r.size);
        }
        core_trace_landed(p, &r, src_pid != p->pid);
        if (src_pid == p->pid)
            core_trace_add_self(p, r.size + (r.kind == CORE_REC_SEND ? r.slot : 0));
    }
}

static void apply_regops(core_ctx *c)
{
    for (size_t i = 0; i < c->nregops; i++) {
        const core_regop *op = &c->regops[i];
        if (op->kind == CORE_REGOP_PUSH) {
            int32_t s = core_reg_push(&c->reg, op->addr, op->size);
            if (s > (int32_t)CORE_MAX_SLOT)
                core_fatal("bsp_push_reg", "more than %u registrations", CORE_MAX_SLOT);
            c->reg.slots[s].push = op->push;
            c->reg.slots[s].most = op->most;
            c->reg.slots[s].agree = (uint16_t)op->agree;
        } else {
            core_reg_pop(&c->reg, op->addr);
        }
    }
    /* A popped area's memory may be freed and mapped afresh: forget its pages. */
    if (c->nregops)
        core_trace_forget_areas(&c->proc->tr);
    c->nregops = 0;
}

void core_blame_mixed(const unsigned *at, size_t stride, int P, unsigned all, int *culprit,
                      int *other)
{
    unsigned first = all & CORE_AT_ANY & -(all & CORE_AT_ANY);
    *culprit = *other = -1;
    for (int q = P - 1; q >= 0; q--)
        *(at[(size_t)q * stride] == first ? culprit : other) = q;
}

void core_blame_steps(const unsigned long *step, size_t stride, int P, int *behind, int *other)
{
    int b = 0;
    for (int q = 1; q < P; q++)
        if (step[(size_t)q * stride] < step[(size_t)b * stride])
            b = q;
    *behind = b;
    *other = -1;
    for (int q = 0; q < P && *other < 0; q++)
        if (step[(size_t)q * stride] != step[(size_t)b * stride])
            *other = q;
}

const char *core_arrival_call(unsigned at)
{
    switch (at) {
    case CORE_AT_END: return "bsp_end";
    case CORE_AT_PARTITION: return "bsp_partition";
    case CORE_AT_REJOIN: return "bsp_rejoin";
    default: return "bsp_sync";
    }
}

void core_report_mixed(long pid, unsigned long step, unsigned at, long other_pid, unsigned other_at,
                       unsigned other_ended_how)
{
    char what[64];
    if (other_at == CORE_AT_END)
        snprintf(what, sizeof what, "%s",
                 other_ended_how == CORE_END_RETURNED ? "returned from the SPMD function"
                                                      : "called bsp_end");
    else
        snprintf(what, sizeof what, "called %s", core_arrival_call(other_at));
    core_fatal_as(pid, step, core_arrival_call(at), "process %ld has %s", other_pid, what);
}

void core_report_steps(long pid, unsigned long step, unsigned at, long other_pid,
                       int other_oblivious, unsigned long other_group_step)
{
    if (other_oblivious)
        core_fatal_as(pid, step, core_arrival_call(at), "process %ld has called bsp_oblsync",
                      other_pid);
    core_fatal_as(pid, step, core_arrival_call(at), "process %ld is in superstep %lu of the group",
                  other_pid, other_group_step);
}

/* The end of every superstep, whatever ended it (bsp_sync, bsp_oblsync, a
 * partition or rejoin) once its data has landed: its record closes with
 * `kind` (-1: the caller closes it later), the next superstep begins, and the
 * out buffers it will write are emptied; the engine guarantees nobody reads
 * them any more once eng_superstep_done returns. */
static void superstep_close(core_proc *p, int kind)
{
    core_ctx *c = p->ctx;
    c->flags = 0;
    c->tagsize = c->next_tagsize;
    if (p->tr.on && kind >= 0)
        core_trace_exit(p, (core_step_kind)kind, c->group->depth);
    c->step++;
    p->step++;
    c->last_oblivious = kind == CORE_KIND_OBLIVIOUS;
    eng_superstep_done(c);
    c->coll[c->step & 1].kind = CORE_KIND_NORMAL;
    core_out_clear(c, c->step & 1);
}

/* The data movement of a superstep in the current group; `at` names the call
 * that ends it (a sync, or a partition or rejoin, which end one too). */
static void sync_as(core_proc *p, unsigned at)
{
    core_ctx *c = p->ctx;
    unsigned parity = c->step & 1;
    if (p->tr.on)
        core_trace_enter(p);
    unsigned all = eng_barrier(c, at, c->flags);
    if (all & CORE_HAS_REG)
        eng_check_regops(c);
    if (all & CORE_HAS_COLL)
        eng_check_colls(c, parity);
    core_msgq_clear(&c->in);
    eng_exchange(p, all, parity);
    if (c->nregops)
        apply_regops(c);
    c->ngets = 0;
    c->tagsize_calls = 0; /* compared above; everyone has read it past eng_exchange */
    /* Partition and rejoin close their records themselves, once the parts are
     * built or joined: that is their cost, not the next superstep's work. */
    superstep_close(p, at == CORE_AT_PARTITION || at == CORE_AT_REJOIN ? -1 : CORE_KIND_NORMAL);
}

void core_out_clear(core_ctx *c, unsigned parity)
{
    core_buf *out = c->out[parity];
    for (int d = 0; d < c->nprocs; d++)
        if (out[d].len) /* read, not written: see core.h */
            core_buf_clear(&out[d]);
}

void core_sync(core_proc *p) { sync_as(p, CORE_AT_SYNC); }

void core_sync_as(core_proc *p, unsigned at) { sync_as(p, at); }

void core_oblsync(core_proc *p, size_t n)
{
    core_ctx *c = p->ctx;
    if (c->ngets || c->nregops)
        core_fatal("bsp_oblsync",
                   "only bsp_send may communicate in a superstep ended by bsp_oblsync (this one "
                   "has %s)",
                   c->ngets ? "a get" : "a registration");
    if (p->tr.on)
        core_trace_enter(p);
    core_msgq_clear(&c->in);
    eng_oblsync(p, n);
    superstep_close(p, CORE_KIND_OBLIVIOUS);
}

void core_deliver(core_proc *p, long src_pid, const char *data, size_t len)
{
    uint64_t before = p->tr.bytes_in;
    core_apply_records(p, src_pid, data, len);
    if (p->tr.on)
        core_trace_add_source(p, (int)src_pid, p->tr.bytes_in - before);
}

size_t core_count_messages(const char *data, size_t len)
{
    size_t n = 0;
    for (const char *cur = data, *end = data + len; cur < end;) {
        const core_rec *r = (const core_rec *)cur;
        cur += core_rec_bytes(r);
        if (CORE_REC_KIND(r) == CORE_REC_PAD)
            continue;
        n++;
        if (CORE_REC_KIND(r) != CORE_REC_SEND)
            core_fatal("bsp_oblsync",
                       "only bsp_send may communicate in a superstep ended by bsp_oblsync "
                       "(this one has a put)");
    }
    return n;
}

void core_end(core_proc *p, unsigned how)
{
    p->ended_how = how;
    eng_barrier(p->ctx, CORE_AT_END, 0);
}
