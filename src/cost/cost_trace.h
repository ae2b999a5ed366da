/* cost_trace — reading a trace file (docs/formats.md, "Trace") into memory.
 *
 * Contract: cost_trace_read parses and validates the whole file; on any defect it
 * returns -1 and writes one line "FILE:LINE: WHAT (expected ...)" into err, and the
 * trace is left empty. It keeps the supersteps that every process of their group
 * recorded (formats.md, "What the reader keeps"): the records of process i are
 * its traced supersteps in order, rec(t, k, i) for k = 0 .. cost_trace_len(t, i)-1,
 * and column k means each process's k-th traced superstep (the superstep
 * first_step + k when all of them started tracing at first_step). root is the
 * group structure of those records: the top group's supersteps and divisions,
 * recursively (cost_tree.h).
 */
#ifndef POLYBSP_COST_TRACE_H
#define POLYBSP_COST_TRACE_H

#include "core/core_trace_schema.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* The most part indices a group path may have: the library records levels in a
 * byte, and the bound keeps the recursive walks of the structure shallow. */
#define COST_MAX_DEPTH CORE_TRACE_DEPTH_MAX
/* Input bounds (docs/formats.md, "Limits"): a line is a record, far below this
 * even with a "from" list of a million processes; a stream that is not a regular
 * file (a pipe, a FIFO, a device) may never end, so only this much is taken. */
#define COST_TRACE_LINE_MAX (1 << 24)
#define COST_TRACE_STREAM_MAX ((size_t)1 << 28)

typedef struct cost_group cost_group;

typedef struct cost_rec {
    unsigned long step;
    int pid;
    core_step_kind step_kind;           /* what ended it, parsed from kind: compare this */
    char kind[CORE_TRACE_KIND_MAX + 1]; /* the kind as the file names it, for messages and
                                           CCM's function names (a kind no row names included) */
    char *group;  /* the part path "i/j/..." inside a partition, NULL at the top level */
    long long op; /* which collective of this process it belongs to; -1 when absent */
    char alg[CORE_TRACE_ALG_MAX +
             1];       /* the algorithm its caller named for the collective; "" when absent */
    int level;         /* D-BSP cluster level: 0 = the whole machine */
    double w;          /* seconds of local time before the sync */
    double cpu;        /* of w's span, the process's CPU time (under SMPI, w); -1: not timed */
    long long preempt; /* involuntary context switches in the superstep, or -1 when not counted */
    long long regs; /* registration calls this sync took effect for (0: none, or an older trace) */
    double copy;    /* of w, seconds copying payloads for others (0: not timed) */
    double setup;   /* of w, seconds bsp_trace_begin spent making the trace file */
    /* Before w, in a process's first record only: how much later than the
     * earliest process's its clock started (its thread was made later), time
     * that REAL holds and every model's W charges (cost_work). Set when read. */
    double late;
    double ops[CORE_OPS_KINDS]; /* declared operations per kind (core_ops.h); -1: not declared */
    long long faults;           /* page faults taken inside the sync, or -1 when not counted */
    long long fresh;            /* pages written inside the sync that nothing had touched, or -1 */
    long long w_faults;         /* page faults taken during w, or -1 when not counted */
    /* Traffic with the other processes: a process's puts, sends and gets to
     * itself (the file's self_bytes, self_msgs) are taken out of both sides. */
    uint64_t bytes_out, msgs_out, bytes_in, msgs_in;
    /* Of bytes_out and bytes_in, what was copied once rather than twice: by
     * bsp_hpput (the file's hp_bytes_*) and by bsp_send (send_bytes_*); 0 when
     * none or not said (cost_groups.h, cost_hbytes). */
    uint64_t once_out, once_in;
    uint64_t hp_out, hp_in; /* of once_*, bsp_hpput's part (the rest is bsp_send's) */
    int *from;              /* pids it received from this superstep (not itself), ascending */
    uint64_t *from_bytes;   /* per pid of from, the bytes received from it; NULL: not said */
    size_t nfrom;
    double t_enter, t_exit; /* seconds since bsp_begin */
    size_t line;            /* its line in the file, for the models' messages */
} cost_rec;

/* What predict and report say of a solo trace (cost_trace.solo). */
#define COST_TRACE_SOLO_NOTE                                                                       \
    "traced solo (POLYBSP_SOLO=on or smpi): one process computed at a time, so REAL is the "       \
    "processes taking turns, not a parallel run's time"

typedef struct cost_trace {
    int version;
    int nprocs;
    char engine[CORE_TRACE_ENGINE_MAX + 1];
    char program[256];
    /* The machine the run took place on (the header's "host", "cores" and
     * "rate"): "", 0 and 0 when the trace does not say. */
    char host[128];
    int cores;
    double rate;              /* DAXPY flop/s, as the machine file's rate r */
    double clock;             /* chained multiply-adds/s (core_rate.h); 0: not said */
    int solo;                 /* 1: one process computed at a time (the header's "solo") */
    unsigned long first_step; /* the smallest step kept (> 0 when tracing started mid-run) */
    int same_start;           /* 1: every process's first kept record is step first_step */
    unsigned long nsteps;     /* columns: the most records any process has */
    unsigned long dropped;    /* later steps of supersteps that not all their processes recorded */
    int complete;             /* 1: the file ends with {"end":"complete"} */
    int self_unknown;         /* 1: some record lacks self_bytes (an older writer) */
    char reason[256];         /* the "reason" of {"end":"aborted"}, else empty */
    /* Seconds since bsp_begin when tracing started: the earliest t_enter - w of
     * the first column, where REAL starts (cost_model.c) and from which each
     * process's first record counts its late start. */
    double began;
    cost_rec *recs;   /* by pid, then step */
    size_t *start;    /* nprocs + 1: process i's records are recs[start[i] .. start[i+1]) */
    cost_group *root; /* the group structure (cost_tree.h) */
} cost_trace;

static inline unsigned long cost_trace_len(const cost_trace *t, int pid)
{
    return (unsigned long)(t->start[pid + 1] - t->start[pid]);
}

/* Process pid's k-th kept record, or NULL when it has fewer. */
static inline cost_rec *cost_trace_rec(const cost_trace *t, unsigned long k, int pid)
{
    return k < cost_trace_len(t, pid) ? &t->recs[t->start[pid] + k] : NULL;
}

/* Whether the record declares its work (operations of any kind). */
static inline int cost_rec_declares(const cost_rec *r)
{
    for (int k = 0; k < CORE_OPS_KINDS; k++)
        if (r->ops[k] >= 0)
            return 1;
    return 0;
}

/* Whether two records have the same kind: of kinds no schema row names, the
 * same name. */
static inline int cost_rec_same_kind(const cost_rec *a, const cost_rec *b)
{
    return a->step_kind == b->step_kind &&
           (a->step_kind != CORE_KIND_OTHER || strcmp(a->kind, b->kind) == 0);
}

/* The record's group path, "" at the top level. */
static inline const char *cost_rec_group(const cost_rec *r)
{
    return r->group != NULL ? r->group : "";
}

int cost_trace_read(const char *path, cost_trace *t, char *err, size_t errlen);
/* The same from an open stream; name is what error lines call the file. The
 * fuzzer and tests use it to read from memory. */
int cost_trace_read_stream(FILE *f, const char *name, cost_trace *t, char *err, size_t errlen);
void cost_trace_free(cost_trace *t);

#endif
