/* core_buf — a growable byte buffer for outgoing superstep records.
 *
 * Contract: core_buf_reserve returns room for n more bytes at the end (the buffer
 * grows geometrically and never shrinks within a run); core_buf_commit makes them
 * part of the contents; core_buf_clear empties it but keeps the memory.
 * core_grow_array grows the core's other arrays (gets, registration calls,
 * the message queue) the same geometric way.
 */
#ifndef POLYBSP_CORE_BUF_H
#define POLYBSP_CORE_BUF_H

#include <stddef.h>

typedef struct core_buf {
    char *data;
    size_t len;
    size_t cap;
} core_buf;

void core_buf_grow(core_buf *b, size_t need);

static inline char *core_buf_reserve(core_buf *b, size_t n)
{
    if (b->cap - b->len < n)
        core_buf_grow(b, n);
    return b->data + b->len;
}

static inline void core_buf_commit(core_buf *b, size_t n) { b->len += n; }

static inline void core_buf_clear(core_buf *b) { b->len = 0; }

void core_buf_free(core_buf *b);

/* n zeroed descriptors, or NULL when memory runs out; free with core_bufs_free
 * (same n). Pages of descriptors never written cost no memory (core_out_clear
 * in core.h says why that matters). */
core_buf *core_bufs_alloc(size_t n);
void core_bufs_free(core_buf *bufs, size_t n);

/* Doubles an array of *cap elements of elem bytes (16 the first time) and
 * returns it, *cap updated; stops the run, naming what, when memory runs out. */
void *core_grow_array(void *arr, size_t *cap, size_t elem, const char *what);

#endif
