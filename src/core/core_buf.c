/* core_buf — growth and release of outgoing record buffers. */
#define _DEFAULT_SOURCE 1 /* MAP_ANONYMOUS (1: as smpicc's own definition) */
#include "core/core_buf.h"

#include "core/core_error.h"

#include <stdlib.h>
#include <sys/mman.h>

void core_buf_grow(core_buf *b, size_t need)
{
    /* A first capacity of a page cost a total exchange of small puts a page
     * per pair and per buffer (out here, in on the MPI engine): inprod at
     * P = 1024 on the simulator, one process's memory for all, held 8.6 GB;
     * 256 bytes hold a few small puts' records, and doubling does the rest. */
    size_t cap = b->cap ? b->cap : 256;
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
     * communication (core_trace.h, copy); a trace's cpu leaves the growth out
     * as the library's (core.c, out_reserve). The data there is not yet
     * anybody's. */
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

/* From this size on, an array of descriptors gets pages of its own (mmap), which
 * the kernel fills with zeros only as they are first written; calloc would do
 * the same for blocks above malloc's mmap threshold, but below it (128 KiB,
 * and glibc raises it as such blocks are freed) it clears them, touching every
 * page: 800 MB at P = 4096 for descriptors never used. Adjacent mappings merge,
 * so their number stays small. */
#define CORE_BUFS_MAP_MIN ((size_t)16384)

static size_t bufs_bytes(size_t n) { return n * sizeof(core_buf); }

core_buf *core_bufs_alloc(size_t n)
{
    if (bufs_bytes(n) < CORE_BUFS_MAP_MIN)
        return calloc(n ? n : 1, sizeof(core_buf));
    void *p = mmap(NULL, bufs_bytes(n), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

void core_bufs_free(core_buf *bufs, size_t n)
{
    if (!bufs)
        return;
    if (bufs_bytes(n) < CORE_BUFS_MAP_MIN)
        free(bufs);
    else
        munmap(bufs, bufs_bytes(n));
}
