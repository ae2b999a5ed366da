/* polybsp_coll.h — collectives on the current group (included by <polybsp.h>).
 *
 * Every collective is called by all processes of the current group (the whole
 * run, or the part made by bsp_partition) with the same root and nbytes, and is
 * made of ordinary supersteps of that group: no barrier beyond the supersteps the
 * algorithm needs. docs/collectives.md gives each one's supersteps and h.
 *
 *   - A collective ends the caller's current superstep: puts, gets and
 *     registrations issued before it take effect at its first sync, as at a
 *     bsp_sync. Messages sent before it are in the queue during its supersteps
 *     only, so a collective of more than one superstep leaves the queue empty:
 *     read messages before calling one.
 *   - Every collective takes at least one superstep; with nbytes = 0 or a group
 *     of one process it takes exactly one.
 *   - Sizes are in bytes; pids and roots are numbered in the current group.
 *     Buffers are ordinary memory: no registration. Buffers that only the root
 *     reads or writes may be NULL elsewhere; any other NULL buffer with data to
 *     carry is an error.
 *   - Misuse stops the run with one line (see docs/collectives.md): a root out of
 *     range, a NULL buffer, or, at the first sync, members that called another
 *     collective (or bsp_sync), another root or another nbytes.
 *   - src and dst may be the same buffer (in place) for bsp_reduce, bsp_allreduce
 *     and bsp_scan; otherwise a collective's buffers must not overlap.
 */
#ifndef POLYBSP_POLYBSP_COLL_H
#define POLYBSP_POLYBSP_COLL_H

#include "bsp.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* acc = acc (+) in, elementwise over nbytes bytes. It must be associative; it
 * need not be commutative: collectives combine in increasing pid order, always
 * in the same pattern for the same group size and nbytes, so results are
 * deterministic and bitwise identical wherever a result is replicated. It is
 * always called with the collective's whole nbytes. */
typedef void (*bsp_combine_fn)(void *acc, const void *in, size_t nbytes);

/* Broadcast algorithms. With P processes and nbytes = n:
 *   BINOMIAL  ceil(log2 P) supersteps, each sender sends n (h = n per superstep)
 *   TWOPHASE  2 supersteps: the root scatters n/P-byte blocks, then every
 *             process sends its block to all others (h about n in each)
 *   ROOTP     Root(p) of Juurlink et al. for D-BSP: Root(sqrt p) on the first
 *             sqrt p processes, one superstep to the leaders of sqrt p clusters
 *             of sqrt p consecutive processes, then Root(sqrt p) inside every
 *             cluster, recursively (cluster sizes powers of two); h = n per
 *             superstep, more supersteps than BINOMIAL, but the later ones stay
 *             inside ever smaller clusters
 *   DIRECT    1 superstep: the root sends n to every process (h = (P-1)*n
 *             at the root): BSP's OneToAll pattern
 *   AUTO      chosen by P and n (docs/collectives.md gives the rule and the
 *             measurements behind it)
 * All processes must pass the same algorithm (this is not checked). */
typedef enum bsp_bcast_alg {
    BSP_BCAST_AUTO = 0,
    BSP_BCAST_BINOMIAL = 1,
    BSP_BCAST_TWOPHASE = 2,
    BSP_BCAST_ROOTP = 3,
    BSP_BCAST_DIRECT = 4
} bsp_bcast_alg;

/* buf[0, nbytes) of process root is copied to buf on every process. */
POLYBSP_API void bsp_bcast(int root, void *buf, size_t nbytes);
POLYBSP_API void bsp_bcast_with(bsp_bcast_alg alg, int root, void *buf, size_t nbytes);

/* dst on root = src(0) (+) src(1) (+) ... (+) src(P-1); dst elsewhere is untouched
 * (may be NULL). */
POLYBSP_API void bsp_reduce(int root, const void *src, void *dst, size_t nbytes, bsp_combine_fn fn);
/* dst on every process = src(0) (+) ... (+) src(P-1). */
POLYBSP_API void bsp_allreduce(const void *src, void *dst, size_t nbytes, bsp_combine_fn fn);
/* Inclusive prefix: dst on process i = src(0) (+) ... (+) src(i). */
POLYBSP_API void bsp_scan(const void *src, void *dst, size_t nbytes, bsp_combine_fn fn);

/* dst on root, P*nbytes bytes: block i is src of process i. dst may be NULL
 * elsewhere. */
POLYBSP_API void bsp_gather(int root, const void *src, void *dst, size_t nbytes);
/* dst on every process, P*nbytes bytes: block i is src of process i. */
POLYBSP_API void bsp_allgather(const void *src, void *dst, size_t nbytes);
/* src on root holds P blocks of nbytes; dst on process i receives block i. src
 * may be NULL elsewhere. */
POLYBSP_API void bsp_scatter(int root, const void *src, void *dst, size_t nbytes);
/* src holds P blocks of nbytes; block j goes to process j, where it lands in dst
 * as block i (i = the sender). */
POLYBSP_API void bsp_alltoall(const void *src, void *dst, size_t nbytes);
/* Process i sends sendcounts[j] bytes from src + sdispls[j] to process j, which
 * receives them at dst + rdispls[i] and must expect exactly that many:
 * recvcounts[i] on j equals sendcounts[j] on i (checked; a mismatch stops the
 * run). Takes 2 supersteps (1 when P = 1): the first tells every sender where
 * its data goes. */
POLYBSP_API void bsp_alltoallv(const void *src, const size_t *sendcounts, const size_t *sdispls,
                               void *dst, const size_t *recvcounts, const size_t *rdispls);

#ifdef __cplusplus
}
#endif

#endif /* POLYBSP_POLYBSP_COLL_H */
