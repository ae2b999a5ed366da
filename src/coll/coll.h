/* coll — collectives on the current group, built only on the core's collective
 * support (core_coll_begin / core_coll_expose / core_coll_put / core_sync).
 *
 * Contract:
 *  - A public collective checks its local arguments, then coll_begin (which
 *    announces it: the first sync checks that every member made the same call
 *    with the same root and size), then one or more coll_step, then coll_end.
 *    Each coll_step is one superstep of the current group: the caller has issued
 *    its coll puts, and names the buffer where other members' puts to it land.
 *  - coll_bcast_run runs inside a collective already begun, so other families
 *    can use it (allreduce = reduce then broadcast) under one announcement and
 *    one trace label.
 *  - Every algorithm's number of supersteps depends only on the group size,
 *    nbytes and the algorithm, which all members share; so all members sync the
 *    same number of times. Combine functions are applied in increasing pid order
 *    of the operands, in a pattern fixed by P and nbytes.
 */
#ifndef POLYBSP_COLL_H
#define POLYBSP_COLL_H

#include "core/core.h"
#include "polybsp_coll.h"

#include <stddef.h>

/* Argument checks; each stops the run with one line naming the call. */
void coll_check_root(const core_proc *p, const char *call, int root);
void coll_check_buf(const char *call, const char *name, const void *buf, size_t nbytes);
void coll_check_fn(const char *call, bsp_combine_fn fn);
/* a * b, or stop the run when it does not fit in size_t. */
size_t coll_mul(const char *call, size_t a, size_t b);
/* Scratch memory of n bytes (n = 0 allowed); stops the run when memory runs out. */
void *coll_alloc(size_t n);

void coll_begin(core_proc *p, core_step_kind kind, int root, size_t nbytes);
/* One superstep; land[0, size) receives this process's incoming data. */
void coll_step(core_proc *p, void *land, size_t size);
void coll_end(core_proc *p);
/* Offers a collective that only moves blocks (engine.h, eng_coll) to the
 * engine; when the engine takes it, runs its one superstep with nothing to put
 * and returns 1 (then the caller skips its puts and local copies), else 0. */
int coll_native(core_proc *p, core_step_kind kind, int root, const void *src, void *dst, size_t n);
/* The puts of an all-to-all superstep: every other member j gets block j of src
 * (src + j*stride; stride 0: the same block for all) at block `me` of its dst,
 * and this process's own block is copied into its dst locally (unless already
 * there). bsp_allgather is stride 0, bsp_alltoall stride nbytes. */
void coll_put_blocks(core_proc *p, const char *call, const void *src, size_t stride, void *dst,
                     size_t nbytes);
/* The whole of bsp_allgather (stride 0: src holds one block) and bsp_alltoall
 * (stride nbytes: src holds one block per process): checks, MPI's own where the
 * engine offers it, else coll_put_blocks in one superstep. */
void coll_all_blocks(const char *call, core_step_kind kind, const void *src, size_t stride,
                     void *dst, size_t nbytes);

static inline int coll_ceil_log2(int n)
{
    int d = 0;
    while ((1LL << d) < n)
        d++;
    return d;
}

/* The broadcast algorithm AUTO picks for P processes and n bytes. */
bsp_bcast_alg coll_bcast_choose(int nprocs, size_t n);
/* Broadcast buf[0, n) from root (alg != AUTO). */
void coll_bcast_run(core_proc *p, const char *call, bsp_bcast_alg alg, int root, void *buf,
                    size_t n);

#endif
