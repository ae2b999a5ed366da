/* coll_reduce — reduce, allreduce and scan with user combine functions.
 *
 * Two shapes each. Direct: one superstep in which every operand travels to
 * every process that needs it, combined there in pid order; h = (P-1)*n at the
 * busiest process, so it is used while (P-1)*n is small. Tree: ceil(log2 P)
 * supersteps of h = n, combining contiguous pid ranges so that a non-commutative
 * operator still sees its operands in pid order. Allreduce beyond its direct
 * range is a reduce to pid 0 followed by a broadcast. Vectors are never split:
 * the combine function sees whole nbytes, since the element size is unknown.
 */
#include "coll/coll.h"

#include "api/api.h"

#include <stdlib.h>
#include <string.h>

/* The direct shape while (P-1)*n, the busiest process's h, stays at or below
 * these many bytes (measured on the threads engine, docs/collectives.md). A
 * direct allreduce makes every process fold all P operands, so it loses to
 * reduce + broadcast early; a direct reduce folds them once, at the root. */
enum {
    COLL_REDUCE_DIRECT_MAX = 4 << 20,
    COLL_ALLREDUCE_DIRECT_MAX = 16 << 10,
    COLL_SCAN_DIRECT_MAX = 256 << 10
};

/* At P = 2 every shape is one superstep of h = n, but allreduce's other one,
 * which adds a broadcast: direct whatever the size (1 MiB of uint64 sums, 115
 * against 130 us on the 2-core VM). */
static int use_direct(int nprocs, size_t n, size_t max)
{
    return nprocs <= 2 || n <= max / (size_t)(nprocs - 1);
}

/* The caller's own block for combine_blocks: src itself, not copied, unless
 * the call is in place (src is dst) and block 0 is another's, which would
 * overwrite it in dst first: then src is copied to its place in land, and the
 * result is NULL. */
static const void *own_block(char *land, const void *src, const void *dst, int me, size_t n)
{
    if (src != dst || me == 0)
        return src;
    core_copy(land + (size_t)me * n, src, n);
    return NULL;
}

/* Combines nblocks blocks of n bytes into dst, in pid order: block me is own
 * (own_block), the others are in land. Taking own where it is saves a copy of
 * n: an allreduce of 1 MiB at P = 2 took 93 us instead of 115. */
static void combine_blocks(void *dst, const char *land, const void *own, int me, int nblocks,
                           size_t n, bsp_combine_fn fn)
{
    const void *first = own != NULL && me == 0 ? own : land;
    if (first != dst)
        core_copy(dst, first, n);
    for (int i = 1; i < nblocks; i++)
        fn(dst, own != NULL && i == me ? own : land + (size_t)i * n, n);
}

static void reduce_direct(core_proc *p, const char *call, int root, const void *src, void *dst,
                          size_t n, bsp_combine_fn fn)
{
    int nprocs = p->ctx->nprocs, me = p->ctx->pid;
    char *land = NULL;
    const void *own = NULL;
    if (me == root) {
        land = coll_alloc(coll_mul(call, n, (size_t)nprocs));
        own = own_block(land, src, dst, me, n);
    } else {
        core_coll_put(p, call, root, src, (size_t)me * n, n);
    }
    coll_step(p, land, me == root ? (size_t)nprocs * n : 0);
    if (me == root)
        combine_blocks(dst, land, own, me, nprocs, n, fn);
    free(land);
}

/* Blocks of 2^(t+1) aligned pids merge their halves in superstep t. Each block's
 * value sits at its representative: the root if the block holds it, else its
 * lowest pid. The representative of one half sends to the other's, which
 * combines lower half (+) upper half. */
static void reduce_tree(core_proc *p, const char *call, int root, const void *src, void *dst,
                        size_t n, bsp_combine_fn fn, int scratch_dst)
{
    int nprocs = p->ctx->nprocs, me = p->ctx->pid;
    int steps = coll_ceil_log2(nprocs);
    char *land = coll_alloc(n), *own = NULL;
    char *acc = me == root || scratch_dst ? dst : NULL;
    const char *cur = src;
    int sent = 0;
    for (int t = 0; t < steps || t == 0; t++) {
        /* long: with P near INT_MAX, base + 2*half would overflow an int. */
        long long half = 1LL << t, base = me & ~(2 * half - 1), mid = base + half;
        int to = -1, lower = 0;
        if (!sent && mid < nprocs) {
            int root_up = root >= mid && root < base + 2 * half;
            int rep_lo = root >= base && root < mid ? root : (int)base;
            int rep_up = root_up ? root : (int)mid;
            to = root_up ? rep_up : rep_lo;
            lower = !root_up;
            if (me == (root_up ? rep_lo : rep_up)) {
                core_coll_put(p, call, to, cur, 0, n);
                sent = 1;
            }
        }
        coll_step(p, land, n);
        if (me != to)
            continue;
        if (!acc)
            acc = own = coll_alloc(n);
        if (lower) {
            if (cur != acc)
                core_copy(acc, cur, n);
            fn(acc, land, n);
        } else {
            fn(land, cur, n);
            core_copy(acc, land, n);
        }
        cur = acc;
    }
    if (me == root && cur != dst)
        core_copy(dst, cur, n);
    free(own);
    free(land);
}

/* Reduction to root; scratch_dst: dst is valid on every process and may serve
 * as the accumulator (allreduce), otherwise only the root's dst is touched. */
static void reduce_run(core_proc *p, const char *call, int root, const void *src, void *dst,
                       size_t n, bsp_combine_fn fn, int scratch_dst)
{
    if (use_direct(p->ctx->nprocs, n, COLL_REDUCE_DIRECT_MAX))
        reduce_direct(p, call, root, src, dst, n, fn);
    else
        reduce_tree(p, call, root, src, dst, n, fn, scratch_dst);
}

void bsp_reduce(int root, const void *src, void *dst, size_t nbytes, bsp_combine_fn fn)
{
    static const char call[] = "bsp_reduce";
    core_proc *p = api_self(call);
    coll_check_root(p, call, root);
    coll_check_buf(call, "src", src, nbytes);
    if (p->ctx->pid == root)
        coll_check_buf(call, "dst", dst, nbytes);
    coll_check_fn(call, fn);
    coll_begin(p, CORE_KIND_REDUCE, root, nbytes);
    if (!nbytes)
        coll_step(p, NULL, 0);
    else
        reduce_run(p, call, root, src, dst, nbytes, fn, 0);
    coll_end(p);
}

static void allreduce_direct(core_proc *p, const char *call, const void *src, void *dst, size_t n,
                             bsp_combine_fn fn)
{
    int nprocs = p->ctx->nprocs, me = p->ctx->pid;
    char *land = coll_alloc(coll_mul(call, n, (size_t)nprocs));
    for (int j = 0; j < nprocs; j++)
        if (j != me)
            core_coll_put(p, call, j, src, (size_t)me * n, n);
    const void *own = own_block(land, src, dst, me, n);
    coll_step(p, land, (size_t)nprocs * n);
    combine_blocks(dst, land, own, me, nprocs, n, fn);
    free(land);
}

void bsp_allreduce(const void *src, void *dst, size_t nbytes, bsp_combine_fn fn)
{
    static const char call[] = "bsp_allreduce";
    core_proc *p = api_self(call);
    coll_check_buf(call, "src", src, nbytes);
    coll_check_buf(call, "dst", dst, nbytes);
    coll_check_fn(call, fn);
    int nprocs = p->ctx->nprocs;
    coll_begin(p, CORE_KIND_ALLREDUCE, -1, nbytes);
    if (!nbytes) {
        coll_step(p, NULL, 0);
    } else if (use_direct(nprocs, nbytes, COLL_ALLREDUCE_DIRECT_MAX)) {
        allreduce_direct(p, call, src, dst, nbytes, fn);
    } else {
        reduce_run(p, call, 0, src, dst, nbytes, fn, 1);
        coll_bcast_run(p, call, coll_bcast_choose(nprocs, nbytes), 0, dst, nbytes);
    }
    coll_end(p);
}

/* Every process sends its operand to all higher pids; process i combines the
 * i+1 operands it then holds. */
static void scan_direct(core_proc *p, const char *call, const void *src, void *dst, size_t n,
                        bsp_combine_fn fn)
{
    int nprocs = p->ctx->nprocs, me = p->ctx->pid;
    for (int j = me + 1; j < nprocs; j++)
        core_coll_put(p, call, j, src, (size_t)me * n, n);
    char *land = coll_alloc(coll_mul(call, n, (size_t)me + 1));
    const void *own = own_block(land, src, dst, me, n);
    coll_step(p, land, (size_t)me * n);
    combine_blocks(dst, land, own, me, me + 1, n, fn);
    free(land);
}

/* Hillis and Steele: after superstep t, process i holds src(i-2^(t+1)+1 .. i);
 * the range arriving from i-2^t lies below its own, so it goes first. */
static void scan_doubling(core_proc *p, const char *call, const void *src, void *dst, size_t n,
                          bsp_combine_fn fn)
{
    int nprocs = p->ctx->nprocs, me = p->ctx->pid;
    int steps = coll_ceil_log2(nprocs);
    char *bufs[2] = {coll_alloc(n), coll_alloc(n)};
    const char *cur = src;
    for (int t = 0; t < steps || t == 0; t++) {
        long long d = 1LL << t;
        char *land = cur == bufs[0] ? bufs[1] : bufs[0];
        if (me + d < nprocs)
            core_coll_put(p, call, (int)(me + d), cur, 0, n);
        coll_step(p, land, n);
        if (me >= d && d < nprocs) {
            fn(land, cur, n);
            cur = land;
        }
    }
    if (cur != dst)
        core_copy(dst, cur, n);
    free(bufs[0]);
    free(bufs[1]);
}

void bsp_scan(const void *src, void *dst, size_t nbytes, bsp_combine_fn fn)
{
    static const char call[] = "bsp_scan";
    core_proc *p = api_self(call);
    coll_check_buf(call, "src", src, nbytes);
    coll_check_buf(call, "dst", dst, nbytes);
    coll_check_fn(call, fn);
    coll_begin(p, CORE_KIND_SCAN, -1, nbytes);
    if (!nbytes)
        coll_step(p, NULL, 0);
    else if (use_direct(p->ctx->nprocs, nbytes, COLL_SCAN_DIRECT_MAX))
        scan_direct(p, call, src, dst, nbytes, fn);
    else
        scan_doubling(p, call, src, dst, nbytes, fn);
    coll_end(p);
}
