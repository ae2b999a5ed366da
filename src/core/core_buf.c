/* core_buf — growth and release of outgoing record buffers. */
#include "core/core_buf.h"

#include "core/core_error.h"

#include <stdlib.h>

void core_buf_grow(core_buf *b, size_t need)
{
    size_t cap = b->cap ? b->cap : 4096;
    while (cap - b->len < need) {
        if (cap > ((size_t)-1) / 2)
            core_fatal_oom("communication buffer");
        cap *= 2;
    }
    char *p = realloc(b->data, cap);
    if (!p)
        core_fatal_oom("communication buffer");
    /* The pages about to be filled are written once here: their page faults
     * (the first touch of new memory) are then paid in the growth, local work,
     * and not in the copy of the payload that follows, which a trace times as
     * communication (core_trace.h, copy). The data there is not yet anybody's. */
    size_t page = 4096, end = b->len + need;
    for (size_t at = (b->cap + page - 1) / page * page; at < end; at += page)
        ((volatile char *)p)[at] = 0;
    b->data = p;
    b->cap = cap;
}

void core_buf_free(core_buf *b)
{
    free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
}

void *core_grow_array(void *arr, size_t *cap, size_t elem, const char *what)
{
    size_t n = *cap ? 2 * *cap : 16;
    void *p = realloc(arr, n * elem);
    if (!p)
        core_fatal_oom(what);
    *cap = n;
    return p;
}
