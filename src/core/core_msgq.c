/* core_msgq — the received-message queue (contract in core_msgq.h). */
#include "core/core_msgq.h"

#include "core/core_error.h"

#include <stdlib.h>

void core_msgq_push(core_msgq *q, const char *tag, size_t tagsize, const char *payload, size_t n)
{
    if (q->n == q->cap) {
        size_t cap = q->cap ? 2 * q->cap : 16;
        core_msg *items = realloc(q->items, cap * sizeof *items);
        if (items == NULL)
            core_fatal_oom("message queue");
        q->items = items;
        q->cap = cap;
    }
    q->items[q->n++] = (core_msg){tag, payload, n, tagsize};
    q->bytes += n;
}

void core_msgq_free(core_msgq *q)
{
    free(q->items);
    *q = (core_msgq){0};
}
