/* coll_common — argument checks and the superstep frame every collective uses. */
#include "coll/coll.h"

#include "api/api.h"
#include "core/core_error.h"
#include "engine/engine.h"

#include <stdint.h>
#include <stdlib.h>

void coll_check_root(const core_proc *p, const char *call, int root)
{
    if (root < 0 || root >= p->ctx->nprocs)
        core_fatal(call, "root %d out of range [0,%d)", root, p->ctx->nprocs);
}

void coll_check_buf(const char *call, const char *name, const void *buf, size_t nbytes)
{
    if (!buf && nbytes)
        core_fatal(call, "%s is NULL but must hold %zu bytes", name, nbytes);
}

void coll_check_fn(const char *call, bsp_combine_fn fn)
{
    if (!fn)
        core_fatal(call, "no combine function (fn is NULL)");
}

size_t coll_mul(const char *call, size_t a, size_t b)
{
    if (b && a > SIZE_MAX / b)
        core_fatal(call, "%zu blocks of %zu bytes exceed the address space", b, a);
    return a * b;
}

void *coll_alloc(size_t n)
{
    void *m = malloc(n ? n : 1);
    if (!m)
        core_fatal_oom("collective scratch buffer");
    return m;
}

void coll_begin(core_proc *p, core_step_kind kind, int root, size_t nbytes)
{
    eng_work_pause(p, 1);
    core_coll_begin(p, kind, root, nbytes);
}

void coll_step(core_proc *p, void *land, size_t size)
{
    core_coll_expose(p, land, size);
    core_sync(p);
}

int coll_native(core_proc *p, core_step_kind kind, int root, const void *src, void *dst, size_t n)
{
    if (!core_coll_native(p, kind, root, src, dst, n))
        return 0;
    coll_step(p, NULL, 0);
    return 1;
}

/* The landing area may be scratch memory about to be freed: withdraw it, so a
 * stray collective put would be reported rather than land there. */
void coll_end(core_proc *p)
{
    core_coll_expose(p, NULL, 0);
    core_trace_label(p, CORE_KIND_NORMAL);
    eng_work_resume(p);
}

void coll_put_blocks(core_proc *p, const char *call, const void *src, size_t stride, void *dst,
                     size_t nbytes)
{
    if (!nbytes)
        return; /* the buffers may be NULL */
    int nprocs = p->ctx->nprocs, me = p->ctx->pid;
    const char *s = src;
    for (int j = 0; j < nprocs; j++)
        if (j != me)
            core_coll_put(p, call, j, s + (size_t)j * stride, (size_t)me * nbytes, nbytes);
    char *own = (char *)dst + (size_t)me * nbytes;
    if (own != s + (size_t)me * stride)
        core_copy(own, s + (size_t)me * stride, nbytes);
}

void coll_all_blocks(const char *call, core_step_kind kind, const void *src, size_t stride,
                     void *dst, size_t nbytes)
{
    core_proc *p = api_self(call);
    size_t total = coll_mul(call, nbytes, (size_t)p->ctx->nprocs);
    coll_check_buf(call, "src", src, stride ? total : nbytes);
    coll_check_buf(call, "dst", dst, total);
    coll_begin(p, kind, -1, nbytes);
    if (coll_native(p, kind, -1, src, dst, nbytes)) {
        coll_end(p);
        return;
    }
    coll_put_blocks(p, call, src, stride, dst, nbytes);
    coll_step(p, dst, total);
    coll_end(p);
}
