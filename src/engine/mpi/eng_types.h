/* eng_types (mpi) — the MPI engine's state inside core groups and contexts.
 *
 * A group is a communicator; each rank holds only its own process, so what the
 * threads engine reads from other members travels in collectives here.
 */
#ifndef POLYBSP_ENG_TYPES_H
#define POLYBSP_ENG_TYPES_H

#include <mpi.h>

typedef struct eng_group {
    MPI_Comm comm;
    int *run_pids; /* [nprocs]: each member's pid in the whole run */
} eng_group;

/* Buffers received by oblivious supersteps: the queue points into them until
 * the next superstep ends. */
typedef struct eng_ctx {
    char **received;
    int nreceived, capreceived;
} eng_ctx;

#endif
