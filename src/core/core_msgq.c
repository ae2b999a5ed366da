/* core_msgq — the received-message queue (contract in core_msgq.h). */
#include "core/core_msgq.h"

#include "core/core_buf.h"

#include <stdlib.h>

void core_msgq_push(core_msgq *q, const char *tag, size_t tagsize, const char *payload, size_t n)
{
    if (q->n == q->cap)
        q->items = core_grow_array(q->items, &q->cap, sizeof *q->items, "message queue");
    q->items[q->n++] = (core_msg){tag, payload, n, tagsize};
    q->bytes += n;
}

void core_msgq_free(core_msgq *q)
{
    free(q->items);
    *q = (core_msgq){0};
}
