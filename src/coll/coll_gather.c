/* coll_gather — gather, allgather and scatter: one superstep each.
 *
 * Every block goes straight from its owner to where it belongs. In BSP terms
 * that is optimal: the root of a gather or scatter must receive or send (P-1)*n
 * bytes anyway, and so must every process of an allgather; a tree would only
 * add supersteps.
 */
#include "coll/coll.h"

#include "api/api.h"

#include <string.h>

/* A process's own block is copied locally: from block i of `from` to block j of
 * `to`; skipped when it is already in place (or empty: the buffers may be NULL). */
static void copy_own(void *to, size_t j, const void *from, size_t i, size_t n)
{
    if (!n)
        return;
    char *t = (char *)to + j * n;
    const char *f = (const char *)from + i * n;
    if (t != f)
        core_copy(t, f, n);
}

void bsp_gather(int root, const void *src, void *dst, size_t nbytes)
{
    static const char call[] = "bsp_gather";
    core_proc *p = api_self(call);
    coll_check_root(p, call, root);
    int nprocs = p->ctx->nprocs, me = p->ctx->pid;
    coll_check_buf(call, "src", src, nbytes);
    size_t total = 0;
    if (me == root) {
        total = coll_mul(call, nbytes, (size_t)nprocs);
        coll_check_buf(call, "dst", dst, total);
    }
    coll_begin(p, CORE_KIND_GATHER, root, nbytes);
    if (coll_native(p, CORE_KIND_GATHER, root, src, dst, nbytes)) {
        coll_end(p);
        return;
    }
    if (me == root)
        copy_own(dst, (size_t)me, src, 0, nbytes);
    else if (nbytes)
        core_coll_put(p, call, root, src, (size_t)me * nbytes, nbytes);
    coll_step(p, dst, total);
    coll_end(p);
}

void bsp_allgather(const void *src, void *dst, size_t nbytes)
{
    coll_all_blocks("bsp_allgather", CORE_KIND_ALLGATHER, src, 0, dst, nbytes);
}

void bsp_scatter(int root, const void *src, void *dst, size_t nbytes)
{
    static const char call[] = "bsp_scatter";
    core_proc *p = api_self(call);
    coll_check_root(p, call, root);
    int nprocs = p->ctx->nprocs, me = p->ctx->pid;
    if (me == root)
        coll_check_buf(call, "src", src, coll_mul(call, nbytes, (size_t)nprocs));
    coll_check_buf(call, "dst", dst, nbytes);
    coll_begin(p, CORE_KIND_SCATTER, root, nbytes);
    if (coll_native(p, CORE_KIND_SCATTER, root, src, dst, nbytes)) {
        coll_end(p);
        return;
    }
    if (me == root && nbytes) {
        for (int j = 0; j < nprocs; j++)
            if (j != me)
                core_coll_put(p, call, j, (const char *)src + (size_t)j * nbytes, 0, nbytes);
        copy_own(dst, 0, src, (size_t)me, nbytes);
    }
    coll_step(p, dst, nbytes);
    coll_end(p);
}
