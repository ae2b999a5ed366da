/* thr_obl — bsp_oblsync on threads: mailboxes, the wait, and its checks. */
#define _DEFAULT_SOURCE /* syscall */
#include "engine/threads/thr_obl.h"
#include "engine/threads/thr_solo.h"

#include "core/core.h"
#include "core/core_error.h"
#include "core/core_watch.h"

#include <linux/futex.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define DEADLOCK_CHECK_NS 20000000L /* how often a waiter looks for a deadlock */

int thr_mailbox_init(thr_mailbox *m)
{
    memset(m, 0, sizeof *m);
    atomic_init(&m->arrivals, 0);
    return pthread_mutex_init(&m->lock, NULL) ? -1 : 0;
}

static void free_mail(thr_mail *m)
{
    while (m) {
        thr_mail *next = m->next;
        free(m->data);
        free(m);
        m = next;
    }
}

void thr_mailbox_release(thr_mailbox *m)
{
    free_mail(m->taken);
    m->taken = NULL;
}

void thr_mailbox_free(thr_mailbox *m)
{
    free_mail(m->head);
    free_mail(m->taken);
    pthread_mutex_destroy(&m->lock);
}

static void deliver(core_ctx *c, int dest, core_buf *b)
{
    thr_mail *mail = malloc(sizeof *mail);
    if (!mail)
        core_fatal_oom("message delivery");
    *mail =
        (thr_mail){NULL, c->step, c->pid, core_count_messages(b->data, b->len), b->data, b->len};
    *b = (core_buf){NULL, 0, 0}; /* the destination owns the records now */
    thr_mailbox *mb = c->group->e.members[dest]->e.mailbox;
    pthread_mutex_lock(&mb->lock);
    thr_mail **tail = &mb->head;
    while (*tail)
        tail = &(*tail)->next;
    *tail = mail;
    pthread_mutex_unlock(&mb->lock);
    atomic_fetch_add(&c->group->e.obl_deliveries, 1);
    atomic_fetch_add(&mb->arrivals, 1);
    syscall(SYS_futex, &mb->arrivals, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

/* Under the lock: the messages in mb for `step`. */
static size_t messages_for(const thr_mailbox *mb, unsigned long step)
{
    size_t have = 0;
    for (const thr_mail *m = mb->head; m; m = m->next)
        if (m->step == step)
            have += m->nmsgs;
    return have;
}

/* Under the lock, by the mailbox's owner: messages for `step`, and a check that
 * none is for an earlier one. */
static size_t count_for(const core_ctx *c, const thr_mailbox *mb, unsigned long step)
{
    for (const thr_mail *m = mb->head; m; m = m->next)
        if (m->step < step)
            core_fatal("bsp_oblsync",
                       "process %d sent messages for superstep %lu after it had ended here",
                       c->group->e.members[m->src]->proc->pid, m->step);
    return messages_for(mb, step);
}

/* Unlinks the messages for `step`, ordered by source pid (stable). */
static thr_mail *take_for(thr_mailbox *mb, unsigned long step)
{
    thr_mail *taken = NULL, **link = &mb->head;
    while (*link) {
        thr_mail *m = *link;
        if (m->step != step) {
            link = &m->next;
            continue;
        }
        *link = m->next;
        thr_mail **at = &taken;
        while (*at && (*at)->src <= m->src)
            at = &(*at)->next;
        m->next = *at;
        *at = m;
    }
    return taken;
}

/* Stops the run if waiting cannot end: a member blocked in another call in the
 * same superstep, or every member blocked (waiting unsatisfied here, or in a
 * barrier, which cannot complete while we wait) with no delivery between two
 * looks: then no state can change, nobody is left to send. */
static void check_deadlock(const core_ctx *c)
{
    const core_group *g = c->group;
    unsigned long before = atomic_load(&g->e.obl_deliveries);
    int blocked = 0, first = -1, ended = -1;
    size_t first_need = 0, first_have = 0;
    for (int q = 0; q < g->nprocs; q++) {
        core_ctx *m = g->e.members[q];
        unsigned at = atomic_load_explicit(&m->e.arrive_at, memory_order_relaxed);
        if (at && atomic_load_explicit(&m->e.arrive_step, memory_order_relaxed) == c->step)
            core_fatal_as(m->proc->pid, c->proc->step, core_arrival_call(at),
                          "process %d has called bsp_oblsync", c->proc->pid);
        thr_mailbox *mb = m->e.mailbox;
        pthread_mutex_lock(&mb->lock);
        /* Counted again, not the waiter's own count: messages may have arrived
         * since, before `before` was read, and the waiter not yet run to see them. */
        size_t have = mb->waiting ? messages_for(mb, mb->wait_step) : 0;
        int unsatisfied = mb->waiting && have < mb->need;
        if (unsatisfied && first < 0) {
            first = q;
            first_need = mb->need;
            first_have = have;
        }
        pthread_mutex_unlock(&mb->lock);
        /* A member in a barrier stays there: the barrier needs us, and we wait.
         * Unless we passed that barrier ourselves: then it has left it and
         * not yet cleared its flag (preempted in between, seen on a loaded
         * machine as a false deadlock in about one run of group.oblsync.P2
         * in ten). */
        unsigned long step = atomic_load_explicit(&m->e.arrive_step, memory_order_relaxed);
        int in_barrier = at && step + 1 > c->e.passed_step;
        if (unsatisfied || in_barrier)
            blocked++;
        if (at == CORE_AT_END && ended < 0)
            ended = q;
    }
    if (blocked < g->nprocs || first < 0 || atomic_load(&g->e.obl_deliveries) != before)
        return;
    const core_ctx *m = g->e.members[first];
    if (ended >= 0)
        core_fatal_as(m->proc->pid, m->proc->step, "bsp_oblsync", "process %d has called bsp_end",
                      g->e.members[ended]->proc->pid);
    core_fatal_as(m->proc->pid, m->proc->step, "bsp_oblsync",
                  "waits for %zu messages, %zu arrived, and every process is waiting", first_need,
                  first_have);
}

static void wait_for(core_ctx *c, size_t n)
{
    thr_mailbox *mb = c->e.mailbox;
    struct timespec timeout = {0, DEADLOCK_CHECK_NS};
    for (;;) {
        unsigned seen = atomic_load(&mb->arrivals);
        pthread_mutex_lock(&mb->lock);
        if (count_for(c, mb, c->step) >= n) {
            mb->taken = take_for(mb, c->step);
            mb->waiting = 0;
            pthread_mutex_unlock(&mb->lock);
            return;
        }
        mb->waiting = 1;
        mb->wait_step = c->step;
        mb->need = n;
        pthread_mutex_unlock(&mb->lock);
        if (syscall(SYS_futex, &mb->arrivals, FUTEX_WAIT_PRIVATE, seen, &timeout, NULL, 0) &&
            atomic_load(&mb->arrivals) == seen)
            check_deadlock(c);
    }
}

/* The next superstep writes the buffers of superstep step-1; with no barrier in
 * between, a slow member may still be reading them: wait until all have finished
 * it. Nobody can be stuck there for us: its barrier, if any, is behind us. */
static void wait_for_members(const core_ctx *c, unsigned long step)
{
    for (int q = 0; q < c->nprocs; q++)
        thr_solo_await(&c->group->e.members[q]->e.done_step, step);
}

void eng_oblsync(core_proc *p, size_t n)
{
    core_ctx *c = p->ctx;
    unsigned parity = c->step & 1;
    for (int d = 0; d < c->nprocs; d++) {
        if (c->out[parity][d].len)
            deliver(c, d, &c->out[parity][d]);
    }
    thr_mailbox_release(c->e.mailbox);
    core_watch_enter(CORE_WATCH_OBLSYNC, p->step);
    thr_solo_give();
    wait_for(c, n);
    thr_solo_take();
    core_watch_leave();
    for (const thr_mail *m = c->e.mailbox->taken; m; m = m->next)
        core_deliver(p, c->group->e.members[m->src]->proc->pid, m->data, m->len);
}

void thr_obl_done(core_ctx *c) { wait_for_members(c, c->step - 1); }
