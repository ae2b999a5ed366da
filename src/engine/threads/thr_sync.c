/* thr_sync — the superstep on threads: barrier, checks, gets and pulls, groups.
 *
 * The steps of a superstep are core.h's timeline. On threads, members read each
 * other's state directly: a destination copies its records out of the sources'
 * out buffers itself (pull_incoming). What makes that safe:
 *  - after the first barrier every member's queues, registrations and
 *    descriptors are complete and stay unchanged until that member's next
 *    superstep begins;
 *  - registration tables change only at the end of a sync, and a sync that
 *    changes them ends with a barrier: during a superstep every member's table
 *    is final, so a get's source address is known when the get is issued;
 *  - gets read remote memory, so when a superstep has gets (or registration
 *    changes) a second barrier separates them from the puts landing and the
 *    tables changing;
 *  - BSPlib's get reads its source before any get of the superstep writes its
 *    destination. Each member publishes what its gets read and write (two
 *    spans); a member whose writes may meet anybody's reads holds its values
 *    back and writes them, in issue order, after the second barrier. The others
 *    copy straight into place, so gets of disjoint data cost one copy;
 *  - hpput records point into the source's memory: a closing barrier keeps the
 *    sources waiting until every destination has copied.
 */
#include "core/core.h"
#include "engine/threads/thr_barrier.h"
#include "engine/threads/thr_obl.h"
#include "engine/threads/thr_solo.h"

#include <stdlib.h>
#include <string.h>

/* Every CORE_HAS_* and CORE_AT_* bit travels in the barrier's word. */
_Static_assert(CORE_HAS_LAST < 1u << THR_BARRIER_BITS, "the barrier carries too few bits");

int eng_group_init(core_group *g)
{
    eng_group *e = &g->e;
    /* Every member reads the table at every sync. */
    e->members = core_zalloc_lines((size_t)g->nprocs * sizeof *e->members);
    if (posix_memalign((void **)&e->barrier, 64, sizeof(thr_barrier)))
        e->barrier = NULL;
    if (!e->members || !e->barrier || thr_barrier_init(e->barrier, (unsigned)g->nprocs))
        return -1;
    return 0;
}

void eng_group_free(core_group *g)
{
    eng_group *e = &g->e;
    if (e->barrier)
        thr_barrier_destroy(e->barrier);
    free(e->barrier);
    free(e->members);
    free(e->part_first);
    free(e->parts);
}

static const thr_span empty_span = {UINTPTR_MAX, 0};

int eng_ctx_init(core_ctx *c)
{
    c->e.get_reads = c->e.get_writes = empty_span;
    c->e.mailbox = malloc(sizeof *c->e.mailbox);
    return c->e.mailbox && !thr_mailbox_init(c->e.mailbox) ? 0 : -1;
}

void eng_ctx_free(core_ctx *c)
{
    core_buf_free(&c->e.get_values);
    thr_mailbox_free(c->e.mailbox);
    free(c->e.mailbox);
}

void eng_ctx_attach(core_ctx *c) { c->group->e.members[c->pid] = c; }

/* Different calls met at one barrier (core_blame_mixed names the culprit). */
static void report_mixed_arrivals(const core_group *g, unsigned all)
{
    unsigned *at = malloc((size_t)g->nprocs * sizeof *at);
    if (!at)
        core_fatal_oom("barrier");
    for (int q = 0; q < g->nprocs; q++)
        at[q] = atomic_load_explicit(&g->e.members[q]->e.arrive_at, memory_order_relaxed);
    int culprit, other;
    core_blame_mixed(at, 1, g->nprocs, all, &culprit, &other);
    const core_proc *c = g->e.members[culprit]->proc, *o = g->e.members[other]->proc;
    core_report_mixed(c->pid, c->step, at[culprit], o->pid, at[other], o->ended_how);
}

/* Members arrived from supersteps of different parity (core_blame_steps). */
static void report_steps(const core_group *g, unsigned at)
{
    unsigned long *step = malloc((size_t)g->nprocs * sizeof *step);
    if (!step)
        core_fatal_oom("barrier");
    for (int q = 0; q < g->nprocs; q++)
        step[q] = atomic_load_explicit(&g->e.members[q]->e.arrive_step, memory_order_relaxed);
    int behind, other;
    core_blame_steps(step, 1, g->nprocs, &behind, &other);
    const core_ctx *b = g->e.members[behind], *o = g->e.members[other];
    core_report_steps(b->proc->pid, b->proc->step, at, o->proc->pid, o->last_oblivious,
                      step[other]);
}

unsigned eng_barrier(core_ctx *c, unsigned at, unsigned bits)
{
    atomic_store_explicit(&c->e.arrive_step, c->step, memory_order_relaxed);
    atomic_store_explicit(&c->e.arrive_at, at, memory_order_relaxed);
    unsigned parity = c->step & 1 ? CORE_AT_ODD : CORE_AT_EVEN;
    unsigned all = thr_barrier_wait(c->group->e.barrier, (unsigned)c->pid, bits | at | parity);
    if ((all & CORE_AT_ANY) != at)
        report_mixed_arrivals(c->group, all);
    if ((all & (CORE_AT_EVEN | CORE_AT_ODD)) == (CORE_AT_EVEN | CORE_AT_ODD))
        report_steps(c->group, at);
    c->e.passed_step = c->step + 1;
    atomic_store_explicit(&c->e.arrive_at, 0, memory_order_relaxed);
    return all;
}

/* Each member compares every member with member 0, so whichever reports first
 * names the same culprit, the lowest differing pid. */
void eng_check_regops(core_ctx *c)
{
    const core_group *g = c->group;
    const core_ctx *ref = g->e.members[0];
    for (int q = 1; q < g->nprocs; q++) {
        const core_ctx *o = g->e.members[q];
        const char *call;
        char detail[160];
        if (core_regops_differ(ref->regops, ref->nregops, ref->tagsize_calls, ref->next_tagsize,
                               o->regops, o->nregops, o->tagsize_calls, o->next_tagsize, &call,
                               detail, sizeof detail))
            core_fatal_as(o->proc->pid, o->proc->step, call, "%s", detail);
    }
    /* Members only read each other's sizes; each writes its own bounds. */
    for (int q = 0; q < g->nprocs; q++)
        if (q != c->pid)
            core_regops_fold(c->regops, g->e.members[q]->regops, c->nregops);
}

/* Descriptors alternate by parity: the one read here is rewritten only after
 * the next barrier. */
void eng_check_colls(core_ctx *c, unsigned parity)
{
    const core_group *g = c->group;
    const core_ctx *ref = g->e.members[0];
    for (int q = 1; q < g->nprocs; q++) {
        const core_ctx *o = g->e.members[q];
        char call[32], detail[160];
        if (core_coll_differ(&ref->coll[parity], ref->proc->pid, &o->coll[parity], call,
                             sizeof call, detail, sizeof detail))
            core_fatal_as(o->proc->pid, o->proc->step, call, "%s", detail);
    }
}

/* Widens s to cover [lo, hi). Addresses wrap like unsigned numbers: a get beyond
 * its registration is reported before anybody copies, so its span need not be
 * right, only harmless. */
static void span_widen(thr_span *s, uintptr_t lo, uintptr_t hi)
{
    if (lo < s->lo)
        s->lo = lo;
    if (hi > s->hi)
        s->hi = hi;
}

static int spans_meet(thr_span a, thr_span b) { return a.lo < b.hi && b.lo < a.hi; }

void eng_get_queued(core_ctx *c, const core_getreq *g)
{
    if (!g->size)
        return;
    /* The owner's table is the one of this superstep once the owner has finished
     * the last one (eng_superstep_done): after a registration superstep it may
     * still be applying its pushes and pops. */
    const core_ctx *owner = c->group->e.members[g->pid];
    thr_solo_await(&owner->e.done_step, c->step);
    uintptr_t from = (uintptr_t)owner->reg.slots[g->slot].addr + (uintptr_t)g->offset;
    uintptr_t to = (uintptr_t)g->dst;
    span_widen(&c->e.get_reads, from, from + (uintptr_t)g->size);
    span_widen(&c->e.get_writes, to, to + (uintptr_t)g->size);
}

/* Whether what c's gets write may overlap what any member's gets read. */
static int gets_must_wait(const core_ctx *c)
{
    for (int q = 0; q < c->nprocs; q++)
        if (spans_meet(c->e.get_writes, c->group->e.members[q]->e.get_reads))
            return 1;
    return 0;
}

/* Reads every get's source, straight into its destination unless hold: then into
 * get_values, for land_held_gets after the barrier. */
static void run_gets(core_proc *p, int hold)
{
    core_ctx *c = p->ctx;
    core_buf *held = &c->e.get_values;
    core_buf_clear(held);
    for (size_t i = 0; i < c->ngets; i++) {
        const core_getreq *g = &c->gets[i];
        core_ctx *owner = c->group->e.members[g->pid];
        const core_slot *s = &owner->reg.slots[g->slot];
        core_check_get(p->pid, p->step, g, s->size);
        if (g->size) {
            const char *from = (const char *)s->addr + g->offset;
            if (hold) {
                core_copy(core_buf_reserve(held, g->size), from, g->size);
                core_buf_commit(held, g->size);
            } else {
                core_copy(g->dst, from, g->size);
            }
        }
        core_get_landed(p, owner->proc->pid, g->size, owner->proc == p);
        core_tracer *ot = &owner->proc->tr;
        if (ot->on) {
            atomic_fetch_add_explicit(&ot->served_bytes, g->size, memory_order_relaxed);
            atomic_fetch_add_explicit(&ot->served_msgs, 1, memory_order_relaxed);
        }
    }
}

/* Writes the held values in issue order, so that of two gets to one place the
 * later wins, as when they are copied straight away. */
static void land_held_gets(core_ctx *c)
{
    const char *v = c->e.get_values.data;
    for (size_t i = 0; i < c->ngets; i++) {
        const core_getreq *g = &c->gets[i];
        if (g->size)
            core_copy(g->dst, v, g->size);
        v += g->size;
    }
}

/* Pull everything addressed to p from every member, in source order. */
static void pull_incoming(core_proc *p, unsigned parity)
{
    core_ctx *c = p->ctx;
    for (int src = 0; src < c->nprocs; src++) {
        const core_ctx *from = c->group->e.members[src];
        const core_buf *b = &from->out[parity][c->pid];
        if (b->len)
            core_deliver(p, from->proc->pid, b->data, b->len);
    }
}

void eng_exchange(core_proc *p, unsigned all, unsigned parity)
{
    core_ctx *c = p->ctx;
    /* Past the first barrier nobody reads what oblivious supersteps left behind. */
    unsigned at = all & CORE_AT_ANY;
    thr_mailbox_release(c->e.mailbox);
    if (all & (CORE_HAS_GET | CORE_HAS_REG)) {
        int hold = c->ngets && gets_must_wait(c);
        run_gets(p, hold);
        eng_barrier(c, at, 0);
        /* Past the barrier every member has read: the spans may be reset. */
        if (hold)
            land_held_gets(c);
        c->e.get_reads = c->e.get_writes = empty_span;
    }
    if (all & CORE_HAS_COMM)
        pull_incoming(p, parity);
    if (all & CORE_HAS_HP)
        eng_barrier(c, at, 0);
}

/* Gets of the next superstep read the members' tables as they are issued; they
 * wait for done_step instead of every registration superstep ending in one more
 * barrier. */
void eng_superstep_done(core_ctx *c)
{
    if (c->last_oblivious)
        thr_obl_done(c);
    atomic_store_explicit(&c->e.done_step, c->step, memory_order_release);
    thr_solo_step_ended();
}

core_group *eng_partition(core_ctx *c, int nparts, const int *first, int part)
{
    core_group *g = c->group;
    if (c->pid == 0) {
        g->e.nparts = nparts;
        g->e.part_first = malloc(((size_t)nparts + 1) * sizeof *first);
        g->e.parts = calloc((size_t)nparts, sizeof *g->e.parts);
        if (!g->e.part_first || !g->e.parts)
            core_fatal_oom("partition");
        memcpy(g->e.part_first, first, ((size_t)nparts + 1) * sizeof *first);
        for (int k = 0; k < nparts; k++) {
            g->e.parts[k] = malloc(sizeof(core_group));
            if (!g->e.parts[k] ||
                core_group_init(g->e.parts[k], first[k + 1] - first[k], g->depth + 1))
                core_fatal_oom("partition");
        }
    }
    eng_barrier(c, CORE_AT_PARTITION, 0);
    int agree = g->e.nparts == nparts;
    for (int k = 0; agree && k <= nparts; k++)
        agree = g->e.part_first[k] == first[k];
    if (!agree)
        core_fatal("bsp_partition",
                   "arguments differ from process %d's (%d parts, sizes must match)",
                   g->e.members[0]->proc->pid, g->e.nparts);
    return g->e.parts[part];
}

/* Past the barrier every member has left its part's barriers for good, so
 * member 0 may free the parts. */
void eng_rejoin(core_ctx *c, core_ctx *sub)
{
    (void)sub;
    eng_barrier(c, CORE_AT_REJOIN, 0);
    core_group *g = c->group;
    if (c->pid != 0)
        return;
    for (int k = 0; k < g->e.nparts; k++) {
        core_group_free(g->e.parts[k]);
        free(g->e.parts[k]);
    }
    free(g->e.parts);
    free(g->e.part_first);
    g->e.parts = NULL;
    g->e.part_first = NULL;
    g->e.nparts = 0;
}

/* Shared memory: the puts are already the fastest way (docs/collectives.md). */
int eng_coll_native(core_ctx *c, const eng_coll *op)
{
    (void)c;
    (void)op;
    return 0;
}
