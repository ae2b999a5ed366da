/* core_trace — recording one process's supersteps and writing the trace file.
 *
 * Contract: while a process traces, core_sync calls core_trace_enter on entry and
 * core_trace_exit on return (bsp_partition and bsp_rejoin call it themselves,
 * once the parts are built or joined); the record of a superstep becomes visible to other
 * threads only when complete (records live in blocks that never move, and a
 * counter publishes them), so core_trace_write may run from any thread, also while
 * the others still run after a fatal error, and writes exactly the supersteps that
 * finished. The format is docs/formats.md, "Trace" (JSON Lines, version 1); the
 * header's and a record's fields are core_trace_schema.h's.
 */
#ifndef POLYBSP_CORE_TRACE_H
#define POLYBSP_CORE_TRACE_H

#include "core/core_ops.h"
#include "core/core_trace_schema.h"

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define CORE_TRACE_BLOCK 256
#define CORE_TRACE_LOOKED 64  /* pages a sync remembers having looked at */
#define CORE_TRACE_KNOWN 4096 /* pages of registered areas a tracer remembers */

typedef struct core_trace_rec {
    unsigned long step;
    unsigned long op; /* collective instance, for collective kinds */
    double w, t_enter, t_exit;
    double cpu;      /* of w's span, the thread's CPU time less grow; -1: not timed */
    double grow;     /* of w's span, the CPU time out buffers took to grow; -1: not timed */
    int64_t preempt; /* involuntary context switches from the last sync's end to this one's; -1: not
                        known */
    double ops[CORE_OPS_KINDS]; /* declared operations of each kind; -1: not declared */
    double copy;  /* of w, seconds spent copying payloads into out buffers; -1: not timed */
    double setup; /* of w, seconds bsp_trace_begin spent making the trace file */
    uint64_t bytes_out, msgs_out, bytes_in, msgs_in;
    uint64_t self_bytes, self_msgs;         /* of the above, what it moved to itself (in and out) */
    uint64_t hp_bytes_out, hp_bytes_in;     /* of bytes_out and bytes_in, by bsp_hpput to others */
    uint64_t send_bytes_out, send_bytes_in; /* ... by bsp_send to others, tags included */
    int64_t faults;   /* page faults taken inside the sync; -1 where not known */
    int64_t w_faults; /* page faults taken during w (before the sync); -1 where not known */
    int64_t fresh;    /* pages the sync wrote into that nothing had touched before; -1: not known */
    int32_t *from;
    uint64_t *from_bytes; /* per pid of from, the bytes that landed from it */
    char *group;          /* part path "i/j/..." below the whole run, or NULL at the top */
    const char *alg;      /* the algorithm the caller named for its collective, or NULL */
    uint32_t nfrom;
    uint32_t regs; /* bsp_push_reg and bsp_pop_reg calls that this sync takes effect for */
    uint8_t kind, level;
} core_trace_rec;

typedef struct core_trace_block {
    core_trace_rec recs[CORE_TRACE_BLOCK];
    struct core_trace_block *next;
} core_trace_block;

/* The sources a tracer has room for at first; it doubles from there. */
enum { CORE_TRACE_FROM_FIRST = 64 };

/* A process that data came from this superstep, and how many bytes. */
typedef struct core_trace_source {
    int32_t pid;
    uint64_t bytes;
} core_trace_source;

/* Per-process counters are always kept (two additions per operation); the rest is
 * used only while tracing. */
typedef struct core_tracer {
    int on;
    core_step_kind kind;    /* label of the supersteps under way */
    const char *alg;        /* the algorithm the caller named for them (static), or NULL */
    unsigned long op, nops; /* current collective instance; instances so far */
    unsigned long step;     /* the superstep entered last */
    double last_exit, t_enter;
    int64_t faults_enter; /* the thread's page faults when the sync began */
    int64_t faults_exit;  /* ... when the last sync ended, or tracing began */
    /* The thread's CPU clock and involuntary context switches when the last
     * sync ended (or tracing began), and its CPU clock when this one began. */
    double cpu_exit, cpu_enter;
    int64_t preempt_exit;
    /* Pages of the next sync's destinations that were never touched (each costs
     * a fresh-page fault), and the pages already looked at, by page number. */
    int64_t fresh;
    /* [CORE_TRACE_LOOKED], then [CORE_TRACE_KNOWN] pages of registered areas seen
     * mapped (apart from core_proc, which stays small); NULL before tracing. */
    uintptr_t *looked;
    uintptr_t last_page; /* 1 + the last page of an area looked at, 0 after forgetting */
    unsigned page_shift; /* log2 of the page size */
    /* Time the put and send calls spent copying payloads into the out buffers
     * since the last sync (core_ticks), and the clock pair that converts ticks
     * into seconds: the copy is communication, which the probe's g includes. */
    uint64_t copy_ticks, ticks0;
    double clock0;
    /* CPU seconds the out buffers took to grow since the last sync (the
     * library's, core_trace_growth_end): left out of the next record's cpu. */
    double grow;
    double ops[CORE_OPS_KINDS]; /* declared this superstep, per kind; -1 while none is */
    double setup; /* seconds core_trace_start spent making the file, for the next record */
    uint64_t bytes_out, msgs_out, bytes_in, msgs_in;
    uint64_t self_bytes, self_msgs;          /* puts, sends and gets of a process to itself */
    uint64_t hp_bytes_out, hp_bytes_in;      /* hpputs to and from other processes */
    uint64_t send_bytes_out, send_bytes_in;  /* messages to and from others, tags included */
    uint32_t regs;                           /* registration calls since the last sync */
    atomic_ullong served_bytes, served_msgs; /* gets that others made of this process */
    core_trace_source *from;                 /* sources this superstep, as they came */
    uint32_t nfrom, from_cap;
    uint32_t from_last;  /* the entry of from that bytes were added to last */
    unsigned char *seen; /* [(nprocs + 7) / 8]: a bit per process in from */
    core_trace_block *head, *tail;
    atomic_size_t published;
} core_tracer;

struct core_proc;
struct core_run;

void core_trace_init(struct core_proc *p);
void core_trace_free(struct core_proc *p);
void core_trace_start(struct core_proc *p);
/* The process's own thread begins, after core_trace_start ran for it on
 * another (the threads engine starts every tracer on the main thread): the
 * page faults its work takes (w_faults) count from here, on its thread. */
void core_trace_thread_begins(struct core_proc *p);
void core_trace_stop(struct core_proc *p);
/* Counts n bytes that landed at p from process src (a run pid) this
 * superstep, for the record's from and from_bytes; nothing for src = p's own. */
void core_trace_add_source(struct core_proc *p, int src, uint64_t n);
/* Counts n bytes that process p moved to itself (already counted in and out):
 * the models leave them out of h, since no pattern calibrates them. */
void core_trace_add_self(struct core_proc *p, uint64_t n);
void core_trace_enter(struct core_proc *p);
/* Around the growth of an out buffer in a put or send: the thread's CPU clock
 * before it while tracing (-1 otherwise, and under SMPI, whose cpu holds the
 * program's work alone already), then its CPU time added to t->grow. */
double core_trace_growth_begin(const core_tracer *t);
void core_trace_growth_end(core_tracer *t, double begin);
/* Counts the pages of a destination [to, to + n) that the next sync writes and
 * that were never touched, before the write (a get's when the get is made):
 * the trace's "fresh". A fault
 * on such a page costs the kernel's zeroing; a fault on a page that was read
 * first (it maps the kernel's zero page) costs much more on threads, so the
 * cost models charge the two kinds apart (docs/models.md, "Page faults in the
 * sync"). Costs a mincore call per destination not yet looked at this sync,
 * only while tracing. */
void core_trace_count_fresh(core_tracer *t, const void *to, size_t n);
static inline void core_trace_dest(core_tracer *t, const void *to, size_t n)
{
    if (t->on && n)
        core_trace_count_fresh(t, to, n);
}
/* The same for a destination inside a registered area, whose pages stay mapped
 * while it is registered: the pages seen mapped are remembered across syncs
 * (a program that puts into one array every superstep pays a system call
 * for its first sync only) until core_trace_forget_areas, which the sync that
 * changes registrations calls. */
void core_trace_count_fresh_area(core_tracer *t, const void *to, size_t n);
static inline void core_trace_dest_area(core_tracer *t, const void *to, size_t n)
{
    if (!t->on || !n)
        return;
    /* Most puts land on the page the last one did: no call for them. */
    uintptr_t first = (uintptr_t)to >> t->page_shift;
    if (first + 1 != t->last_page || ((uintptr_t)to + n - 1) >> t->page_shift != first)
        core_trace_count_fresh_area(t, to, n);
}
void core_trace_forget_areas(core_tracer *t);
/* Labels the superstep under way (and those up to core_trace_label(p, NORMAL)):
 * a collective calls it once at its start and once at its end. */
void core_trace_label(struct core_proc *p, core_step_kind kind);
/* Names the algorithm (a static string) of the collective under way, which the
 * caller chose (bsp_bcast_with): its records say "alg", so that CCM can charge
 * it the cost function of that algorithm. core_trace_label(p, NORMAL) clears it. */
void core_trace_alg(struct core_proc *p, const char *alg);
void core_trace_exit(struct core_proc *p, core_step_kind ended_by, int level);
/* The trace file (docs/formats.md, "Trace") is written whole each time (core_file):
 * core_trace_create, at the first core_trace_start of the run (the MPI engine's
 * rank 0 calls it before its ranks' clocks start, and core_trace_start then
 * finds the file made), replaces any older
 * file by the header alone, a trace without an end line, so a run that dies
 * leaves no earlier run's trace behind; core_trace_finish, at bsp_end, writes
 * the records with {"end":"complete"}; core_trace_write, when the run stops on
 * an error, writes them with {"end":"aborted","reason":...}. A file that cannot
 * be created or written stops the run with "CALL: cannot write the trace FILE:
 * REASON" (call bsp_begin, bsp_trace_begin or bsp_end); on the error path
 * core_trace_write only returns -1, since the run already stops with its line. */
enum { CORE_TRACE_FILE_NONE, CORE_TRACE_FILE_STARTED, CORE_TRACE_FILE_FAILED };
int core_trace_create(struct core_run *run, const char *call); /* 1: this call made it */
/* records: NULL for the processes this image holds, or len bytes of records
 * gathered from elsewhere (core_trace_write_records of each). */
void core_trace_finish(struct core_run *run, const char *records, size_t len);
int core_trace_write(struct core_run *run, const char *how, const char *reason);
/* The record lines of one process, for engines that gather them elsewhere. */
void core_trace_write_records(FILE *f, const struct core_proc *p);

#endif
