/* core — the superstep state of one BSP process and the sync protocol.
 *
 * Contract:
 *  - A run (one SPMD section) has P processes; each owns a core_proc, reachable by
 *    every other process of the run (the threads engine shares one address space).
 *  - Between syncs a process only appends to its own queues: puts, hpputs and sends
 *    go to out[parity][dest], gets to its get list, registrations to its pending list.
 *  - core_sync moves the superstep's data: one barrier that also combines what kinds
 *    of traffic anybody has; then, only as needed, gets (reading remote memory),
 *    puts and messages (each destination pulls what is addressed to it, in source
 *    order), registration changes, and a closing barrier when hpput sources were read.
 *    Outgoing buffers alternate between two parities so that a source may start its
 *    next superstep while destinations still pull: a buffer of parity s is reused
 *    only in superstep s+2, after every process has passed the barrier of s+1.
 */
#ifndef POLYBSP_CORE_H
#define POLYBSP_CORE_H

#include "core/core_buf.h"
#include "core/core_reg.h"
#include "core/core_trace.h"

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

struct thr_barrier;

/* Kinds of traffic a process announces at the barrier (bit flags). */
enum {
    CORE_HAS_GET = 1u << 0,  /* gets: a barrier must separate them from puts */
    CORE_HAS_COMM = 1u << 1, /* puts, hpputs or sends: destinations must pull */
    CORE_HAS_HP = 1u << 2,   /* hpputs: sources may not run on until read */
    CORE_HAS_REG = 1u << 3,  /* registration calls: check they match */
    /* What call brought a process to the barrier; more than one kind = misuse. */
    CORE_AT_SYNC = 1u << 4,
    CORE_AT_END = 1u << 5,
};

typedef enum { CORE_REC_PUT = 1, CORE_REC_HPPUT = 2, CORE_REC_SEND = 3 } core_rec_kind;

/* Header of one outgoing record; data (padded to 8 bytes) follows it. Sixteen
 * bytes keep an 8-byte put at 24 bytes of traffic; puts of 4 GiB or more are
 * split into several records. */
typedef struct core_rec {
    uint32_t kind_slot; /* kind in the low 8 bits; above: the registration slot
                           (put, hpput) or the tag size (send) */
    uint32_t size;      /* payload bytes */
    uint64_t offset;    /* byte offset into the destination (put, hpput) */
} core_rec;

#define CORE_REC_KIND(r) ((r)->kind_slot & 0xffu)
#define CORE_REC_SLOT(r) ((r)->kind_slot >> 8)
#define CORE_MAX_SLOT 0xffffffu /* also the largest tag size */
#define CORE_ALIGN8(n) (((n) + 7u) & ~(size_t)7u)

typedef struct core_getreq {
    const void *src; /* the caller's own address for the registered variable */
    void *dst;
    uint32_t pid;
    uint32_t slot;
    uint64_t offset;
    uint64_t size;
} core_getreq;

typedef struct core_msg {
    const char *tag;
    const char *payload;
    size_t size;
} core_msg;

typedef enum { CORE_REGOP_PUSH = 1, CORE_REGOP_POP = 2 } core_regop_kind;

typedef struct core_regop {
    core_regop_kind kind;
    const void *addr;
    size_t size;
} core_regop;

typedef struct core_run core_run;

typedef struct core_proc {
    core_run *run;
    int pid;
    int nprocs;
    unsigned long step;  /* supersteps completed */
    unsigned arrive_at;  /* CORE_AT_* of the call now waiting at a barrier */
    unsigned ended_how;  /* 0, or CORE_END_* once the process left the section */
    unsigned flags;      /* CORE_HAS_* for this superstep */

    core_buf *out[2];    /* out[parity][dest] */
    core_reg reg;

    core_getreq *gets;
    size_t ngets, capgets;

    core_regop *regops;
    size_t nregops, capregops;

    size_t tagsize, next_tagsize;

    core_msg *inq; /* messages received at the last sync; inq[inhead..nin) remain */
    size_t nin, inhead, capin;
    size_t inbytes;  /* payload bytes remaining in the queue */

    core_tracer tr;
} core_proc;

enum { CORE_END_CALLED = 1, CORE_END_RETURNED = 2 };

struct core_run {
    int nprocs;
    core_proc **procs;
    struct thr_barrier *barrier;
    double t0;
    int traced;             /* some process recorded a superstep */
    const char *trace_path; /* POLYBSP_TRACE, or the default file name */
    const char *program;    /* for the trace header */
};

/* The process the calling thread runs, or NULL outside the SPMD section. */
/* initial-exec: one instruction to reach it, even from the shared library. */
extern _Thread_local core_proc *core_self __attribute__((tls_model("initial-exec")));

void core_proc_init(core_proc *p, core_run *run, int pid);
void core_proc_free(core_proc *p);

/* Copies n <= 64 bytes with a few fixed-size moves instead of a call. */
static inline void core_copy_small(void *dst, const void *src, size_t n)
{
    char *d = dst;
    const char *s = src;
    if (n >= 8) {
        size_t i = 0;
        for (; i + 8 <= n; i += 8)
            __builtin_memcpy(d + i, s + i, 8);
        if (i < n)
            __builtin_memcpy(d + n - 8, s + n - 8, 8);
    } else if (n >= 4) {
        __builtin_memcpy(d, s, 4);
        __builtin_memcpy(d + n - 4, s + n - 4, 4);
    } else {
        for (size_t i = 0; i < n; i++)
            d[i] = s[i];
    }
}

/* Canonical operations: sizes already validated as non-negative by the dialect. */
void core_put_slow(core_proc *p, const char *call, long long pid, const void *src, void *dst,
                   size_t offset, size_t n, int high_performance);

/* The common case of many small puts to the variable used last stays inline. */
static inline void core_put(core_proc *p, const char *call, long long pid, const void *src,
                            void *dst, size_t offset, size_t n, int high_performance)
{
    if (!high_performance && n <= 64 && (unsigned long long)pid < (unsigned)p->nprocs &&
        p->reg.cache_addr == dst && p->reg.cache_slot >= 0) {
        core_buf *b = &p->out[p->step & 1][pid];
        size_t len = sizeof(core_rec) + CORE_ALIGN8(n);
        if (b->cap - b->len >= len) {
            core_rec *r = (core_rec *)(b->data + b->len);
            b->len += len;
            r->kind_slot = CORE_REC_PUT | (uint32_t)p->reg.cache_slot << 8;
            r->size = (uint32_t)n;
            r->offset = offset;
            core_copy_small(r + 1, src, n);
            p->flags |= CORE_HAS_COMM;
            p->tr.bytes_out += n;
            p->tr.msgs_out++;
            return;
        }
    }
    core_put_slow(p, call, pid, src, dst, offset, n, high_performance);
}
void core_get(core_proc *p, const char *call, long long pid, const void *src, size_t offset,
              void *dst, size_t n);
void core_send(core_proc *p, long long pid, const void *tag, const void *payload, size_t n);
void core_push_reg(core_proc *p, const void *addr, size_t size);
void core_pop_reg(core_proc *p, const void *addr);
size_t core_set_tagsize(core_proc *p, size_t size);
void core_sync(core_proc *p);
/* The closing barrier of the section; how = CORE_END_CALLED or CORE_END_RETURNED. */
void core_end(core_proc *p, unsigned how);

double core_now(void);

#endif
