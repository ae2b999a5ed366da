/* core_rec — the format of the records a process writes into its out buffers.
 *
 * Contract: a record is a 16-byte header (core_rec) followed by its data, padded
 * to 8 bytes, so records follow each other at 8-byte boundaries. The data is
 *  - CORE_REC_PUT, CORE_REC_HPPUT_DATA: the payload (size bytes), to land at
 *    offset in the destination's registration `slot`;
 *  - CORE_REC_HPPUT: the source's address (a pointer), read by the destination
 *    during the sync (threads engine); an engine that must move the data turns
 *    the record into CORE_REC_HPPUT_DATA, laid out as a put;
 *  - CORE_REC_SEND: the tag (its size in the slot field, padded to 8 bytes), then
 *    the payload (size bytes);
 *  - CORE_REC_PAD: size bytes of nothing, put before a large put or send so
 *    that its payload lands where copying it in and out is fast (core.c,
 *    place_payload); readers step over it.
 * A small put (CORE_REC_SMALL_PUT: at most CORE_SMALL_PUT_MAX bytes, a slot
 * below CORE_SMALL_PUT_SLOTS, an offset below 4 GiB) has a header of 8 bytes
 * instead: the first half of a core_rec, its size beside the kind, its offset in
 * the size field, and its payload where the offset field would be. An 8-byte
 * put then moves 16 bytes instead of 24, through the out buffer and, on MPI,
 * the network.
 * core_rec_len gives the bytes a record with `datalen` bytes of data takes,
 * core_rec_bytes the bytes an existing record takes: every reader and writer of
 * the buffers steps through them with these two. Readers of puts see every put
 * alike through core_rec_open.
 */
#ifndef POLYBSP_CORE_REC_H
#define POLYBSP_CORE_REC_H

#include <stddef.h>
#include <stdint.h>

typedef enum {
    CORE_REC_PUT = 1,
    CORE_REC_HPPUT = 2,
    CORE_REC_SEND = 3,
    CORE_REC_HPPUT_DATA = 4,
    CORE_REC_PAD = 5,
    CORE_REC_SMALL_PUT = 6
} core_rec_kind;

/* Puts of 4 GiB or more are split into several records. */
typedef struct core_rec {
    uint32_t kind_slot; /* kind in the low 8 bits; above: the registration slot
                           (put, hpput) or the tag size (send); a small put: its
                           size in bits 8-15, its slot above */
    uint32_t size;      /* payload bytes; a small put: its offset */
    uint64_t offset;    /* byte offset into the destination (put, hpput) */
} core_rec;

#define CORE_SMALL_PUT_MAX 64u
#define CORE_SMALL_PUT_SLOTS 0x10000u
#define CORE_SMALL_HEADER 8u

#define CORE_REC_KIND(r) ((r)->kind_slot & 0xffu)
#define CORE_REC_SLOT(r) ((r)->kind_slot >> 8)
#define CORE_MAX_SLOT 0xfffffeu
#define CORE_MAX_TAGSIZE 0xffffffu /* a send's slot field holds its tag size */
#define CORE_COLL_SLOT 0xffffffu   /* the destination's exposed collective buffer */
#define CORE_ALIGN8(n) (((n) + 7u) & ~(size_t)7u)

/* Bytes of a record whose data is datalen bytes. */
static inline size_t core_rec_len(size_t datalen)
{
    return sizeof(core_rec) + CORE_ALIGN8(datalen);
}

/* Bytes of data that follow r's header, before padding. */
static inline size_t core_rec_datalen(const core_rec *r)
{
    switch (CORE_REC_KIND(r)) {
    case CORE_REC_SEND: return CORE_ALIGN8(CORE_REC_SLOT(r)) + r->size;
    case CORE_REC_HPPUT: return sizeof(void *);
    default: return r->size;
    }
}

/* Bytes of a small put's record whose payload is n bytes. */
static inline size_t core_rec_small_len(size_t n) { return CORE_SMALL_HEADER + CORE_ALIGN8(n); }

/* Bytes r takes in its buffer: where the next record starts. */
static inline size_t core_rec_bytes(const core_rec *r)
{
    if (CORE_REC_KIND(r) == CORE_REC_SMALL_PUT)
        return core_rec_small_len((r->kind_slot >> 8) & 0xffu);
    return core_rec_len(core_rec_datalen(r));
}

/* Whether a put can take a small record. */
static inline int core_small_put_fits(uint32_t slot, uint64_t offset, size_t n)
{
    return n <= CORE_SMALL_PUT_MAX && slot < CORE_SMALL_PUT_SLOTS && offset <= UINT32_MAX;
}

/* Writes a small put's header at r (core_small_put_fits holds); returns where
 * its n bytes of payload go. The record takes core_rec_small_len(n) bytes. */
static inline void *core_rec_small_put(core_rec *r, uint32_t slot, uint64_t offset, size_t n)
{
    r->kind_slot = CORE_REC_SMALL_PUT | (uint32_t)n << 8 | slot << 16;
    r->size = (uint32_t)offset;
    return (char *)r + CORE_SMALL_HEADER;
}

/* A record as its readers need it, whichever header it has. */
typedef struct core_rec_view {
    unsigned kind;    /* a small put reads as CORE_REC_PUT */
    uint32_t slot;    /* put, hpput: the registration slot; send: the tag size */
    size_t size;      /* payload bytes */
    uint64_t offset;  /* put, hpput: into the destination */
    const char *data; /* what follows the header */
    size_t bytes;     /* core_rec_bytes */
} core_rec_view;

static inline core_rec_view core_rec_open(const core_rec *r)
{
    if (CORE_REC_KIND(r) == CORE_REC_SMALL_PUT) {
        size_t n = (r->kind_slot >> 8) & 0xffu;
        return (core_rec_view){CORE_REC_PUT,
                               r->kind_slot >> 16,
                               n,
                               r->size,
                               (const char *)r + CORE_SMALL_HEADER,
                               core_rec_small_len(n)};
    }
    return (core_rec_view){CORE_REC_KIND(r), CORE_REC_SLOT(r),      r->size,
                           r->offset,        (const char *)(r + 1), core_rec_bytes(r)};
}

#endif
