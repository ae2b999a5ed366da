/* coll_ops.h — the collectives both benchmark programs time, by name, so that
 * bench_coll (polybsp) and mpi_coll (Open MPI) measure the same list.
 *
 * Every operation moves n bytes per process (per pair for the all-to-alls); the
 * reductions combine n/8 uint64 sums; rooted operations use root 0.
 */
#ifndef POLYBSP_BENCH_COLL_OPS_H
#define POLYBSP_BENCH_COLL_OPS_H

#define COLL_OPS(X)                                                                                \
    X(bcast)                                                                                       \
    X(reduce) X(allreduce) X(scan) X(gather) X(allgather) X(scatter) X(alltoall) X(alltoallv)

/* The calibrated batch of calls lasts at least this long on process 0. */
#define COLL_TARGET_SECONDS 0.005

#endif
