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
 * core_rec_len gives the bytes a record with `datalen` bytes of data takes,
 * core_rec_bytes the bytes an existing record takes: every reader and writer of
 * the buffers steps through them with these two.
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
    CORE_REC_PAD = 5
} core_rec_kind;

/* Sixteen bytes keep an 8-byte put at 24 bytes of traffic; puts of 4 GiB or more
 * are split into several records. */
typedef struct core_rec {
    uint32_t kind_slot; /* kind in the low 8 bits; above: the registration slot
                           (put, hpput) or the tag size (send) */
    uint32_t size;      /* payload bytes */
    uint64_t offset;    /* byte offset into the destination (put, hpput) */
} core_rec;

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

/* Bytes r takes in its buffer: where the next record starts. */
static inline size_t core_rec_bytes(const core_rec *r) { return core_rec_len(core_rec_datalen(r)); }

#endif
