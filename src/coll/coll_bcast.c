/* coll_bcast — broadcast: binomial tree, two-phase (scatter + allgather), the
 * Root(p) algorithm of Juurlink et al. for D-BSP (paper 003, section 3.2), and
 * the one-superstep direct send (BSP's OneToAll pattern).
 *
 * Tree algorithms work on ranks relative to the root (v = pid - root mod P), so
 * the root is rank 0. Each is described by dest(v, t): the rank v sends the
 * whole buffer to in superstep t, or -1; every rank receives exactly once.
 */
#include "coll/coll.h"

#include "api/api.h"
#include "core/core_error.h"

/* AUTO sends directly while the root's h, (P-1)*n, stays at or below this many
 * bytes; see coll_bcast_choose. */
enum { COLL_BCAST_DIRECT_MAX = 4 << 20 };

/* Binomial tree: in superstep t, the 2^t ranks that hold the data send it 2^t on. */
static int binomial_dest(int nprocs, int v, int t)
{
    int d = 1 << t;
    return v < d && v + d < nprocs ? v + d : -1;
}

/* Root(p) cluster size: sqrt(p) rounded up to a power of two, so that clusters of
 * consecutive ranks are D-BSP clusters of the binary decomposition when the root
 * is process 0. Always 2 <= k < p for p > 2, so the recursion shrinks. */
static int rootp_cluster(int nprocs) { return 1 << ((coll_ceil_log2(nprocs) + 1) / 2); }

static int rootp_steps(int nprocs)
{
    if (nprocs <= 2)
        return nprocs - 1;
    int k = rootp_cluster(nprocs), m = (nprocs + k - 1) / k;
    return rootp_steps(m) + 1 + rootp_steps(k);
}

/* Root(p) on ranks [0, p): Root(m) on ranks [0, m) (m = number of clusters), then
 * rank i sends to rank i*k, the first of cluster i, then Root inside each cluster
 * of k consecutive ranks at once. Ranks below m already hold the data when
 * cluster 0 runs its Root, so they are not sent it again. */
static int rootp_dest(int nprocs, int v, int t)
{
    if (nprocs <= 2)
        return nprocs == 2 && v == 0 && t == 0 ? 1 : -1;
    int k = rootp_cluster(nprocs), m = (nprocs + k - 1) / k;
    int head = rootp_steps(m);
    if (t < head)
        return v < m ? rootp_dest(m, v, t) : -1;
    if (t == head)
        return v > 0 && v < m ? v * k : -1;
    int base = v / k * k, size = nprocs - base < k ? nprocs - base : k;
    int d = rootp_dest(size, v - base, t - head - 1);
    return d < 0 || (base == 0 && d < m) ? -1 : base + d;
}

/* The root sends the whole buffer to every other process: one superstep, h =
 * (P-1)*n at the root. */
static void direct_bcast(core_proc *p, const char *call, int root, void *buf, size_t n)
{
    if (p->ctx->pid == root)
        for (int j = 0; j < p->ctx->nprocs; j++)
            if (j != root)
                core_coll_put(p, call, j, buf, 0, n);
    coll_step(p, buf, n);
}

static void tree_bcast(core_proc *p, const char *call, bsp_bcast_alg alg, int root, void *buf,
                       size_t n)
{
    int nprocs = p->ctx->nprocs, me = p->ctx->pid;
    /* Rank <-> pid without forming pid + nprocs, which could overflow. */
    int v = me >= root ? me - root : me + (nprocs - root);
    int steps = alg == BSP_BCAST_ROOTP ? rootp_steps(nprocs) : coll_ceil_log2(nprocs);
    for (int t = 0; t < steps; t++) {
        int d = alg == BSP_BCAST_ROOTP ? rootp_dest(nprocs, v, t) : binomial_dest(nprocs, v, t);
        if (d >= 0) {
            int to = d < nprocs - root ? d + root : d - (nprocs - root);
            core_coll_put(p, call, to, buf, 0, n);
        }
        coll_step(p, buf, n);
    }
}

/* Scatter blocks of ceil(n/P) bytes (block j to pid j), then every process sends
 * its block to all others except the root, which has them all and sends its own
 * block in the second superstep. */
static void twophase_bcast(core_proc *p, const char *call, int root, void *buf, size_t n)
{
    int nprocs = p->ctx->nprocs, me = p->ctx->pid;
    size_t b = n / (size_t)nprocs + (n % (size_t)nprocs != 0);
    const char *data = buf;
    for (int j = 0; j < nprocs; j++) {
        size_t off = (size_t)j * b < n ? (size_t)j * b : n;
        size_t len = n - off < b ? n - off : b;
        if (me == root && j != root && len)
            core_coll_put(p, call, j, data + off, off, len);
    }
    coll_step(p, buf, n);
    size_t off = (size_t)me * b < n ? (size_t)me * b : n;
    size_t len = n - off < b ? n - off : b;
    if (len)
        for (int j = 0; j < nprocs; j++)
            if (j != me && j != root)
                core_coll_put(p, call, j, data + off, off, len);
    coll_step(p, buf, n);
}

/* Measured on the threads engine (docs/collectives.md): one superstep beats
 * every tree until the root's serial copying of (P-1)*n bytes outweighs the
 * second superstep of the two-phase algorithm, whose h is about 2n for any P.
 * BINOMIAL (ceil(log2 P) supersteps of n) never beats TWOPHASE for P >= 3, and
 * ROOTP is for machines whose small clusters sync faster. */
bsp_bcast_alg coll_bcast_choose(int nprocs, size_t n)
{
    if (nprocs <= 2 || n <= COLL_BCAST_DIRECT_MAX / (size_t)(nprocs - 1))
        return BSP_BCAST_DIRECT;
    return BSP_BCAST_TWOPHASE;
}

void coll_bcast_run(core_proc *p, const char *call, bsp_bcast_alg alg, int root, void *buf,
                    size_t n)
{
    if (p->ctx->nprocs == 1 || n == 0)
        coll_step(p, buf, n);
    else if (alg == BSP_BCAST_DIRECT) {
        /* One superstep either way: the engine's own broadcast when it has one. */
        if (!coll_native(p, CORE_KIND_BCAST, root, buf, buf, n))
            direct_bcast(p, call, root, buf, n);
    } else if (alg == BSP_BCAST_TWOPHASE)
        twophase_bcast(p, call, root, buf, n);
    else
        tree_bcast(p, call, alg, root, buf, n);
}

static void bcast(const char *call, bsp_bcast_alg alg, int root, void *buf, size_t nbytes)
{
    core_proc *p = api_self(call);
    if ((unsigned)alg > BSP_BCAST_DIRECT)
        core_fatal(call, "unknown algorithm %d", (int)alg);
    coll_check_root(p, call, root);
    coll_check_buf(call, "buf", buf, nbytes);
    /* The trace names an algorithm the caller chose, for CCM's T of that
     * algorithm; AUTO's choice is what plain "bcast" is calibrated on. */
    static const char *const names[] = {NULL, "binomial", "twophase", "rootp", "direct"};
    const char *named = names[alg];
    if (alg == BSP_BCAST_AUTO)
        alg = coll_bcast_choose(p->ctx->nprocs, nbytes);
    coll_begin(p, CORE_KIND_BCAST, root, nbytes);
    core_trace_alg(p, named);
    coll_bcast_run(p, call, alg, root, buf, nbytes);
    coll_end(p);
}

void bsp_bcast_with(bsp_bcast_alg alg, int root, void *buf, size_t nbytes)
{
    bcast("bsp_bcast_with", alg, root, buf, nbytes);
}

void bsp_bcast(int root, void *buf, size_t nbytes)
{
    bcast("bsp_bcast", BSP_BCAST_AUTO, root, buf, nbytes);
}
