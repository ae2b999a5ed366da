/* eng_types (threads) — the threads engine's state inside core groups and contexts.
 *
 * Members of a group reach each other's contexts directly; the barrier combines
 * bits; oblivious supersteps use mailboxes. See engine/engine.h.
 */
#ifndef POLYBSP_ENG_TYPES_H
#define POLYBSP_ENG_TYPES_H

#include "core/core_buf.h"

#include <stdatomic.h>
#include <stdint.h>

struct core_ctx;
struct core_group;
struct thr_barrier;
struct thr_mailbox;

typedef struct eng_group {
    struct core_ctx **members; /* [nprocs], by pid in the group */
    struct thr_barrier *barrier;
    /* Set by member 0 while partitioning this group, read by all members. */
    int nparts;
    int *part_first;
    struct core_group **parts;
    atomic_ulong obl_deliveries; /* oblivious deliveries so far, for deadlock checks */
} eng_group;

/* Addresses [lo, hi) that cover a set of memory ranges; empty when lo >= hi. */
typedef struct thr_span {
    uintptr_t lo, hi;
} thr_span;

typedef struct eng_ctx {
    /* While waiting at a barrier: the call (CORE_AT_*, else 0) and its superstep,
     * read by members that look for misuse. */
    atomic_uint arrive_at;
    atomic_ulong arrive_step;
    /* 1 + the superstep of the last barrier this member passed (0: none); its
     * own thread alone reads it (thr_obl.c, check_deadlock). */
    unsigned long passed_step;
    struct thr_mailbox *mailbox; /* messages of oblivious supersteps */
    /* Supersteps finished: buffers of older ones are free. Every get reads its
     * owner's, so it has a line of its own, written once a superstep: on the
     * line of the spans below, which the owner writes at each of its own gets,
     * an 8-byte get between two threads cost 140 ns instead of 40. */
    _Alignas(64) atomic_ulong done_step;
    /* What this superstep's gets read (on their owners) and write: set as gets are
     * issued, read by every member after the first barrier of the sync. */
    _Alignas(64) thr_span get_reads, get_writes;
    core_buf get_values; /* values held back until every member's gets have read */
} eng_ctx;

#endif
