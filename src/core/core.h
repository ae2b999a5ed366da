/* core — the superstep state of the BSP processes and the sync protocol.
 *
 * Contract:
 *  - A run (one SPMD section) has P processes (core_proc). A process works in a
 *    group: the whole run, or a part made by core_partition (parts nest). For each
 *    group it belongs to, a process has a context (core_ctx) holding everything
 *    BSPlib scopes to a group: its pid and nprocs there, registrations, queues.
 *    Members reach each other's contexts through the group (the threads engine
 *    shares one address space).
 *  - The superstep timeline, superstep s of a group (parity s & 1); both engines
 *    follow it, and thr_sync.c and mpie_sync.c say only how they move the data:
 *    1. Between syncs a process only appends to its own state: a put, hpput or
 *       send becomes a record (core_rec.h) in out[s & 1][dest] (a put's payload
 *       is copied now, an hpput's source only pointed at); a get goes to its get
 *       list, a registration call to its regops; flags gathers the CORE_HAS_*
 *       bits of what it did.
 *    2. core_sync: one barrier (eng_barrier) ORs every member's flags with the
 *       call that brought it (CORE_AT_SYNC, _END, _PARTITION, _REJOIN) and the
 *       parity it comes from (CORE_AT_EVEN, _ODD): two calls, or both parities
 *       (a member ran ahead through bsp_oblsync), stop the run, every member
 *       naming the same culprit (core_blame_mixed, core_blame_steps).
 *    3. Only as the OR says: the members' registration calls and collective
 *       announcements are compared with member 0's (eng_check_regops,
 *       eng_check_colls); the message queue (core_msgq.h) is emptied.
 *    4. eng_exchange: every get reads its source before any get writes its
 *       destination (BSPlib's rule), and a second barrier follows when there
 *       were gets or registration changes; each destination then lands the
 *       records addressed to it, source by source in pid order and each
 *       source's in issue order (core_apply_records: puts into place, messages
 *       into the queue); an hpput's source is read only now, so no source
 *       leaves the sync before it has been read (threads: a closing barrier;
 *       MPI: its sends complete).
 *    5. Registration changes take effect (threads: a get of s+1 reads a
 *       member's table only once that member has finished s, eng_get_queued);
 *       superstep s+1 begins and empties the out buffers of its parity,
 *       written in s-1. A source may thus run into s+1 while slower
 *       destinations still read its parity-s buffers: those are written again
 *       only in s+2, after every member passed the barrier of s+1.
 *    bsp_oblsync (core_oblsync) has no barrier: only messages travel, and a
 *    process ends its superstep once the number of them it was told to expect
 *    has arrived (thr_obl.c, mpie_obl.c).
 *  - Collectives (src/coll) put into the buffer each process exposes with
 *    core_coll_expose, which needs no registration: the destination resolves it
 *    when it pulls.
 *  - How members reach each other (shared memory, MPI) is the engine's business
 *    (engine/engine.h); the core holds the engine's per-group and per-context
 *    state (eng_group, eng_ctx) without looking inside.
 */
#ifndef POLYBSP_CORE_H
#define POLYBSP_CORE_H

#include "core/core_buf.h"
#include "core/core_copy.h"
#include "core/core_error.h"
#include "core/core_msgq.h"
#include "core/core_rec.h"
#include "core/core_reg.h"
#include "core/core_trace.h"
#include "eng_types.h"
#include "engine/engine.h"

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

/* Kinds of traffic a process announces at the barrier (bit flags). */
enum {
    CORE_HAS_GET = 1u << 0,  /* gets: a barrier must separate them from puts */
    CORE_HAS_COMM = 1u << 1, /* puts, hpputs or sends: destinations must pull */
    CORE_HAS_HP = 1u << 2,   /* hpputs: sources may not run on until read */
    CORE_HAS_REG = 1u << 3,  /* registration calls: check they match */
    /* What call brought a process to the barrier; more than one kind = misuse. */
    CORE_AT_SYNC = 1u << 4,
    CORE_AT_END = 1u << 5,
    CORE_AT_PARTITION = 1u << 6,
    CORE_AT_REJOIN = 1u << 7,
    CORE_AT_ANY = CORE_AT_SYNC | CORE_AT_END | CORE_AT_PARTITION | CORE_AT_REJOIN,
    CORE_HAS_COLL = 1u << 8, /* a collective starts: check every member started it */
    /* The parity of the superstep a member arrives from: both at one barrier means
     * members paired different supersteps (one ran ahead through bsp_oblsync). */
    CORE_AT_EVEN = 1u << 9,
    CORE_AT_ODD = 1u << 10,
    /* A put of CORE_BIG_PUT bytes or more, or an hpput of CORE_BIG_HPPUT or
     * more: an engine that sends large payloads apart from their records looks
     * for them only then, and one that packs every payload into one message
     * per destination can when no member has one. */
    CORE_HAS_BIG = 1u << 11,
    CORE_HAS_LAST = CORE_HAS_BIG, /* the highest bit */
};
#define CORE_BIG_PUT ((size_t)32768)
#define CORE_BIG_HPPUT ((size_t)16384)

typedef struct core_getreq {
    void *dst;
    uint32_t pid;
    uint32_t slot : 31;
    uint32_t high_performance : 1; /* bsp_hpget: named in reports */
    uint64_t offset;
    uint64_t size;
} core_getreq;

typedef enum { CORE_REGOP_PUSH = 1, CORE_REGOP_POP = 2 } core_regop_kind;

/* A registration call of this superstep. Registrations are named by push number:
 * the nth bsp_push_reg of the process in its group is push n, the same on every
 * process while their calls match, so a pop is compared by the push it undoes. */
typedef struct core_regop {
    core_regop_kind kind;
    const void *addr;
    size_t size;
    uint64_t push; /* push: its own number; pop: the number of the push it undoes */
    size_t most;   /* push: the largest size any member registers (set at the check) */
    int agree;     /* push: every member registers the same size (set at the check) */
} core_regop;

/* What a collective promised at its start; all members must promise the same. */
typedef struct core_coll_desc {
    core_step_kind kind; /* CORE_KIND_NORMAL: no collective */
    long root;
    size_t nbytes;
} core_coll_desc;

typedef struct core_run core_run;

typedef struct core_proc core_proc;
typedef struct core_group core_group;

/* One process in one group. */
typedef struct core_ctx {
    core_proc *proc;
    core_group *group;
    struct core_ctx *parent; /* context in the enclosing group, or NULL */
    int pid;
    int nprocs;
    int part;         /* index of this part in the parent's partition */
    int nparts;       /* that partition: part k is the parent's pids */
    int *part_first;  /* [first[k], first[k+1]) */
    core_buf *out[2]; /* out[parity][dest] */
    core_reg reg;     /* the members' gets read its slots; written by registrations */

    /* From here on, what this process writes in every superstep: on other
     * cache lines than the fields above, which every member reads at every
     * sync (a shared line cost each reader a miss a superstep, a fifth of a
     * superstep that moves a few bytes between two threads). */
    _Alignas(64) unsigned long step; /* syncs completed in this group: the buffer parity */
    unsigned flags;                  /* CORE_HAS_* for this superstep */
    int last_oblivious;              /* the last superstep ended with bsp_oblsync */

    core_getreq *gets;
    size_t ngets, capgets;

    core_regop *regops;
    size_t nregops, capregops;
    uint64_t npushes; /* bsp_push_reg calls made in this group (core_regop.push) */

    size_t tagsize, next_tagsize;
    size_t tagsize_calls; /* bsp_set_tagsize calls in this superstep: collective */

    core_msgq in; /* messages received at the last sync */

    void *coll_buf; /* where collective puts to this process land */
    size_t coll_size;
    core_coll_desc coll[2]; /* by superstep parity: read by members after the barrier */

    eng_ctx e;
} core_ctx;

struct core_group {
    int nprocs;
    int depth; /* 0 for the whole run: the D-BSP cluster level */
    eng_group e;
};

struct core_proc {
    core_run *run;
    int pid;       /* in the whole run; read by the other members at every sync */
    core_ctx *ctx; /* the current group's context */
    core_ctx root;
    unsigned long step; /* supersteps completed, in any group */
    unsigned ended_how; /* 0, or CORE_END_* once the process left the section */
    core_tracer tr;
    core_copy_pick copy_pick; /* core_run.stream_out == CORE_STREAM_MEASURED */
    /* smpi engine (eng_work_pause): the thread's CPU clock when the program's
     * computation last resumed, and what it computed not yet charged. */
    double work_mark, work_pending;
};

enum { CORE_END_CALLED = 1, CORE_END_RETURNED = 2 };

struct core_run {
    int nprocs;
    core_proc **procs;
    core_group root;
    double t0;
    atomic_int traced;      /* some process recorded a superstep (set by any of them) */
    const char *trace_path; /* POLYBSP_TRACE, or the default file name */
    int trace_all;          /* POLYBSP_TRACE: every superstep; bsp_trace_begin/end change nothing */
    atomic_int trace_file;  /* CORE_TRACE_FILE_*: what became of the file (core_trace.c) */
    const char *program;    /* for the trace header */
    /* How payloads of CORE_COPY_STREAM_MIN bytes or more for another process
     * go into the out buffer (core_copy.h): set by an engine whose
     * destinations read them on other cores (threads engine, thr_place). */
    core_stream stream_out;
    /* Whether large put payloads are placed in the out buffer at a distance
     * from their source that keeps both copies fast (core.c, place_payload): set
     * by an engine whose destinations copy straight from the out buffer
     * (threads); an engine that sends the buffer would only send the padding. */
    int place_payloads;
    /* One process computed at a time (the threads engine's POLYBSP_SOLO: 1 on,
     * 2 smpi): said in the trace's header, since the run's wall time is then no
     * parallel one. */
    int solo;
    /* Bytes each process walked before its work under POLYBSP_SOLO=smpi (the
     * trace header's footprint; 0 otherwise). */
    size_t solo_footprint;
};

/* n zeroed bytes on whole 64-byte cache lines of their own (free with free),
 * or NULL when memory runs out: for what other threads read at every sync,
 * which must not share a line with what some thread writes all the time. */
void *core_zalloc_lines(size_t n);

/* The process the calling thread runs, or NULL outside the SPMD section. */
extern _Thread_local core_proc *core_self CORE_TLS_FAST;

/* Returns 0, or -1 when memory runs out. The engine part of g is set up by the
 * engine (eng_group_init) before or after, as the engine needs. */
int core_group_init(core_group *g, int nprocs, int depth);
void core_group_free(core_group *g);
void core_ctx_init(core_ctx *c, core_proc *p, core_group *g, int pid);
void core_ctx_free(core_ctx *c);
/* A process of the run, in the run's root group. */
void core_proc_init(core_proc *p, core_run *run, int pid);
void core_proc_free(core_proc *p);
/* A run of nprocs processes, of which this image holds pids [first, last) (all
 * of them on threads, its own on an MPI rank), each initialised, on cache lines
 * of their own; trace: POLYBSP_TRACE as the run sees it, or NULL when unset.
 * The engine sets the clock (t0), starts tracing and sets what it alone knows.
 * Stops the run when memory runs out. */
core_run *core_run_create(int nprocs, int first, int last, const char *trace, const char *program);
/* Frees the run and the processes it holds. */
void core_run_destroy(core_run *run);
/* bsp_begin's checks of the section's state, alike on every engine: it stops
 * the run while a section runs, and after one ended unless the program called
 * bsp_init (have_spmd), which alone allows a second. */
void core_check_begin(eng_state state, int have_spmd);

/* Empties the out buffers of one parity, writing only the descriptors of
 * destinations written to: the others stay as calloc left them, which for a
 * large P is memory never touched (zero pages, no resident memory). So the
 * P descriptors per process (2·P·sizeof(core_buf) bytes each, 48·P² for a run)
 * cost memory in proportion to the pairs that communicate, not to P²: at
 * P = 8192 on threads, 2.0 GB resident when every sync cleared all of them
 * (docs/reliability.md, "Memory for large P"). */
void core_out_clear(core_ctx *c, unsigned parity);

/* Canonical operations: sizes already validated as non-negative by the dialect. */
void core_put_slow(core_proc *p, const char *call, long long pid, const void *src, void *dst,
                   size_t offset, size_t n, int high_performance);

/* The common case of many small puts to the variable used last stays inline. */
static inline void core_put(core_proc *p, const char *call, long long pid, const void *src,
                            void *dst, size_t offset, size_t n, int high_performance)
{
    core_ctx *c = p->ctx;
    if (!high_performance && (unsigned long long)pid < (unsigned)c->nprocs &&
        c->reg.cache_addr == dst && c->reg.cache_slot >= 0 &&
        core_small_put_fits((uint32_t)c->reg.cache_slot, offset, n)) {
        core_buf *b = &c->out[c->step & 1][pid];
        size_t len = core_rec_small_len(n);
        if (b->cap - b->len >= len) {
            core_rec *r = (core_rec *)(b->data + b->len);
            b->len += len;
            core_copy_small(core_rec_small_put(r, (uint32_t)c->reg.cache_slot, offset, n), src, n);
            c->flags |= CORE_HAS_COMM;
            p->tr.bytes_out += n;
            p->tr.msgs_out++;
            return;
        }
    }
    core_put_slow(p, call, pid, src, dst, offset, n, high_performance);
}

void core_get(core_proc *p, const char *call, long long pid, const void *src, size_t offset,
              void *dst, size_t n, int high_performance);
void core_send(core_proc *p, long long pid, const void *tag, const void *payload, size_t n);
void core_push_reg(core_proc *p, const void *addr, size_t size);
void core_pop_reg(core_proc *p, const void *addr);
size_t core_set_tagsize(core_proc *p, size_t size);
void core_sync(core_proc *p);
/* A sync reached through another call (`at` = CORE_AT_PARTITION or _REJOIN). */
void core_sync_as(core_proc *p, unsigned at);
/* The division superstep (core_part.c): core_partition ends the current
 * group's superstep, has the engine build the part of the caller among the
 * nparts blocks [first[k], first[k+1]) of the group (the checks of the
 * arguments are the caller's; the part's context owns first from here), makes
 * it the caller's context and returns its index; core_rejoin ends the part's
 * superstep, waits for every part and makes the parent current again. */
int core_partition(core_proc *p, int nparts, int *first);
void core_rejoin(core_proc *p);
/* Ends this process's superstep once n messages for it have arrived: no barrier.
 * Only messages may travel in such a superstep. The engine's eng_oblsync
 * moves them; core traces the superstep and closes it as bsp_sync's. */
void core_oblsync(core_proc *p, size_t n);
/* The number of messages in a buffer of records; stops the run (bsp_oblsync
 * misuse) if it holds anything but messages. */
size_t core_count_messages(const char *data, size_t len);
/* The closing barrier of the section; how = CORE_END_CALLED or CORE_END_RETURNED. */
void core_end(core_proc *p, unsigned how);

/* Collective support. core_coll_begin announces a collective (root -1 when it has
 * none) at its first superstep: the sync that ends it stops the run if the
 * members do not all announce the same. core_coll_expose makes buf this process's
 * landing area for the next sync; core_coll_put puts n bytes into pid's area at
 * offset. */
void core_coll_begin(core_proc *p, core_step_kind kind, long root, size_t nbytes);
/* Whether the engine moves this collective's blocks of n bytes itself during
 * the next sync (eng_coll_native; the caller then puts nothing). */
int core_coll_native(core_proc *p, core_step_kind kind, int root, const void *src, void *dst,
                     size_t n);
void core_coll_expose(core_proc *p, void *buf, size_t size);
void core_coll_put(core_proc *p, const char *call, int pid, const void *src, size_t offset,
                   size_t n);

/* Adds the records of one source's buffer (puts land, messages join the queue);
 * src_pid (in the whole run) is named when a put does not fit. */
void core_apply_records(core_proc *p, long src_pid, const char *data, size_t len);
/* What an engine calls with each source's records of a superstep, in source
 * order: the source joins the trace's, then its records apply
 * (core_apply_records; an engine that lands some records itself applies the
 * rest so, having traced the source once). */
void core_deliver(core_proc *p, long src_pid, const char *data, size_t len);
/* Where a put's or hpput's record lands on this process: the registered area
 * (or the collective's buffer) its slot names, whose first size bytes it may
 * write from offset on. Every landing path reads it here (core_apply_records,
 * an engine's receives straight into place). */
typedef struct core_place {
    char *base;
    size_t size;
} core_place;

static inline core_place core_rec_place(const core_ctx *c, const core_rec_view *r)
{
    if (r->slot == CORE_COLL_SLOT)
        return (core_place){(char *)c->coll_buf, c->coll_size};
    return (core_place){(char *)c->reg.slots[r->slot].addr, c->reg.slots[r->slot].size};
}

/* Where put or hpput record r from process src_pid lands on p; a place beyond
 * the area registered there stops the run, blaming src_pid. */
char *core_rec_target(core_proc *p, long src_pid, const core_rec_view *r);
/* Counts a record that landed, from another process (other) or from this one:
 * its bytes and one message in, and, from another, an hpput's bytes in
 * hp_bytes_in and a message's (tag included) in send_bytes_in
 * (core_apply_records and the engines' own landing code alike). */
static inline void core_trace_landed(core_proc *p, const core_rec_view *r, int other)
{
    p->tr.bytes_in += r->size;
    p->tr.msgs_in++;
    if ((r->kind == CORE_REC_HPPUT || r->kind == CORE_REC_HPPUT_DATA) && other)
        p->tr.hp_bytes_in += r->size;
    else if (r->kind == CORE_REC_SEND && other)
        p->tr.send_bytes_in += r->size + r->slot;
}
/* Counts a get of n bytes that landed at p from process src_pid (self: from p
 * itself), as core_deliver counts a source's records; the engines call it. */
static inline void core_get_landed(core_proc *p, long src_pid, size_t n, int self)
{
    p->tr.bytes_in += n;
    p->tr.msgs_in++;
    if (self)
        core_trace_add_self(p, n);
    if (p->tr.on)
        core_trace_add_source(p, (int)src_pid, n);
}
/* Stops the run when a get reads beyond what its owner registered. */
void core_check_get(long pid, unsigned long step, const core_getreq *g, size_t registered);

/* Misuse found at a barrier, described the same way by every engine. Every
 * member chooses whom to name from the same data, so whichever reports first
 * prints the same line. Different calls: from every member's call
 * (at[q * stride]), *culprit is the lowest pid that made the call of the lowest
 * kind in all, *other the lowest pid that made another call. Different
 * supersteps: from every member's superstep (step[q * stride]), *behind is the
 * lowest pid of the earliest, *other the lowest pid of another. */
void core_blame_mixed(const unsigned *at, size_t stride, int P, unsigned all, int *culprit,
                      int *other);
void core_blame_steps(const unsigned long *step, size_t stride, int P, int *behind, int *other);
const char *core_arrival_call(unsigned at);
CORE_NORETURN void core_report_mixed(long pid, unsigned long step, unsigned at, long other_pid,
                                     unsigned other_at, unsigned other_ended_how);
/* Members met at a barrier from different supersteps of the group: pid (behind)
 * and other_pid, which went ahead (through bsp_oblsync, when other_oblivious). */
CORE_NORETURN void core_report_steps(long pid, unsigned long step, unsigned at, long other_pid,
                                     int other_oblivious, unsigned long other_group_step);
/* 1, with the call to blame and the detail, when mine (this superstep's
 * registration calls, its bsp_set_tagsize calls and the tag size set for the next)
 * differs from ref (member 0's). */
int core_regops_differ(const core_regop *ref, size_t nref, size_t ref_tagcalls, size_t ref_tagsize,
                       const core_regop *mine, size_t n, size_t tagcalls, size_t tagsize,
                       const char **call, char *detail, size_t len);
/* Once the n calls match: folds another member's push sizes into mine's most and
 * agree, which bound puts at their source from the next superstep on. */
void core_regops_fold(core_regop *mine, const core_regop *other, size_t n);
int core_coll_differ(const core_coll_desc *ref, long ref_pid, const core_coll_desc *mine,
                     char *call, size_t calllen, char *detail, size_t len);

double core_now(void);

#endif
