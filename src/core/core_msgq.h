/* core_msgq — the queue of BSMP messages a process received at its last sync.
 *
 * Contract: the sync empties the queue (core_msgq_clear) and appends each arriving
 * message (core_msgq_push) in source order; between syncs bsp_qsize, bsp_get_tag,
 * bsp_move and bsp_hpmove read it front to back (core_msgq_front, core_msgq_pop).
 * A message points at its tag and payload where they arrived (a source's out
 * buffer on the threads engine, an in buffer on MPI), which stay untouched until
 * the next sync; so the queue is valid until then and clearing it frees nothing.
 * core_msgq_take hands a whole queue over (a partition's part reads the messages
 * sent before it).
 */
#ifndef POLYBSP_CORE_MSGQ_H
#define POLYBSP_CORE_MSGQ_H

#include <stddef.h>

typedef struct core_msg {
    const char *tag;
    const char *payload;
    size_t size;
    size_t tagsize; /* as it was when the message was sent */
} core_msg;

typedef struct core_msgq {
    core_msg *items; /* items[head .. n) remain */
    size_t n, head, cap;
    size_t bytes; /* payload bytes remaining */
} core_msgq;

/* Messages remaining. */
static inline size_t core_msgq_count(const core_msgq *q) { return q->n - q->head; }

/* The next message, or NULL when none remains. */
static inline const core_msg *core_msgq_front(const core_msgq *q)
{
    return q->head < q->n ? &q->items[q->head] : NULL;
}

/* Removes and returns the next message, or NULL when none remains. */
static inline const core_msg *core_msgq_pop(core_msgq *q)
{
    if (q->head == q->n)
        return NULL;
    const core_msg *m = &q->items[q->head++];
    q->bytes -= m->size;
    return m;
}

/* Empties the queue, keeping its memory. */
static inline void core_msgq_clear(core_msgq *q) { q->n = q->head = q->bytes = 0; }

/* Appends a message; stops the run when memory runs out. */
void core_msgq_push(core_msgq *q, const char *tag, size_t tagsize, const char *payload, size_t n);

/* Moves everything of from into to (empty, holding no memory); from is left so. */
static inline void core_msgq_take(core_msgq *to, core_msgq *from)
{
    *to = *from;
    *from = (core_msgq){0};
}

void core_msgq_free(core_msgq *q);

#endif
