/* coll_alltoall — total exchange with equal blocks (one superstep) or with
 * per-pair counts and displacements (two supersteps).
 *
 * In bsp_alltoallv a sender cannot know where its data goes: the receiver's
 * rdispls say so. So the first superstep carries every receiver's
 * (recvcounts[i], rdispls[i]) to sender i, which checks its sendcounts against
 * them before the second superstep moves the data: a mismatch stops the run with
 * both counts named, instead of writing where the receiver did not expect. A
 * group of one process needs no first superstep.
 */
#include "coll/coll.h"

#include "api/api.h"
#include "core/core_error.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void bsp_alltoall(const void *src, void *dst, size_t nbytes)
{
    coll_all_blocks("bsp_alltoall", CORE_KIND_ALLTOALL, src, nbytes, dst, nbytes);
}

/* What receiver j expects from this process: recvcounts[me] and rdispls[me] on j. */
typedef struct coll_expect {
    uint64_t count, displ;
} coll_expect;

static void check_counts(const char *call, int nprocs, const void *src, const size_t *sendcounts,
                         const size_t *sdispls, const void *dst, const size_t *recvcounts,
                         const size_t *rdispls)
{
    const struct {
        const char *name;
        const size_t *v;
    } arrays[] = {{"sendcounts", sendcounts},
                  {"sdispls", sdispls},
                  {"recvcounts", recvcounts},
                  {"rdispls", rdispls}};
    for (size_t a = 0; a < sizeof arrays / sizeof arrays[0]; a++)
        if (!arrays[a].v)
            core_fatal(call, "%s is NULL", arrays[a].name);
    for (int j = 0; j < nprocs; j++) {
        if (!src && sendcounts[j])
            core_fatal(call, "src is NULL but sendcounts[%d] is %zu", j, sendcounts[j]);
        if (!dst && recvcounts[j])
            core_fatal(call, "dst is NULL but recvcounts[%d] is %zu", j, recvcounts[j]);
        if (rdispls[j] > SIZE_MAX - recvcounts[j])
            core_fatal(call, "rdispls[%d] + recvcounts[%d] exceed the address space", j, j);
    }
}

void bsp_alltoallv(const void *src, const size_t *sendcounts, const size_t *sdispls, void *dst,
                   const size_t *recvcounts, const size_t *rdispls)
{
    static const char call[] = "bsp_alltoallv";
    core_proc *p = api_self(call);
    int nprocs = p->ctx->nprocs, me = p->ctx->pid;
    check_counts(call, nprocs, src, sendcounts, sdispls, dst, recvcounts, rdispls);
    /* Counts differ between processes: the announced size is 0. */
    coll_begin(p, CORE_KIND_ALLTOALLV, -1, 0);

    coll_expect *expect = coll_alloc(coll_mul(call, sizeof *expect, (size_t)nprocs));
    size_t extent = 0;
    for (int j = 0; j < nprocs; j++) {
        coll_expect e = {recvcounts[j], rdispls[j]};
        if (j == me)
            expect[me] = e;
        else
            core_coll_put(p, call, j, &e, (size_t)me * sizeof e, sizeof e);
        if (recvcounts[j] && rdispls[j] + recvcounts[j] > extent)
            extent = rdispls[j] + recvcounts[j];
    }
    if (nprocs > 1)
        coll_step(p, expect, (size_t)nprocs * sizeof *expect);

    for (int j = 0; j < nprocs; j++) {
        if (sendcounts[j] != expect[j].count)
            core_fatal(call,
                       "sendcounts[%d] is %zu but process %d expects %llu bytes (its "
                       "recvcounts[%d])",
                       j, sendcounts[j], j, (unsigned long long)expect[j].count, me);
        if (!sendcounts[j])
            continue;
        const char *from = (const char *)src + sdispls[j];
        if (j == me)
            core_copy((char *)dst + rdispls[me], from, sendcounts[j]);
        else
            core_coll_put(p, call, j, from, (size_t)expect[j].displ, sendcounts[j]);
    }
    free(expect);
    coll_step(p, dst, extent);
    coll_end(p);
}
