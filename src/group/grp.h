/* grp — processor groups: division supersteps, partners, and PAR.
 *
 * Contract:
 *  - grp_partition splits the calling process's current group into nparts blocks
 *    of consecutive pids (sizes by weights, NULL = equal; every part at least one
 *    process) and makes the caller's part its current group; returns the part
 *    index. It ends the group's superstep first (a division superstep). All
 *    members must call it with the same arguments.
 *  - grp_part_bounds computes those blocks: part k is [first[k], first[k+1]) of
 *    0..P-1, its size P·w_k/Σw rounded by largest remainders, at least 1, ties
 *    to the lowest index (1 <= nparts <= P, weights as grp_check_partition
 *    accepts them).
 *  - grp_rejoin ends the part's superstep, waits for every part of the parent,
 *    and makes the parent current again.
 *  - grp_partners lists the caller's partners in another part (block policy,
 *    which satisfies the exhaustivity and injectivity conditions of the CCM).
 *  - grp_par runs a task in each part and hands every part's result to every
 *    process of the parent along the partner relation.
 */
#ifndef POLYBSP_GRP_H
#define POLYBSP_GRP_H

#include "core/core.h"

int grp_partition(core_proc *p, int nparts, const double *weights);
/* first[0..nparts] for P processes; weights NULL = equal. */
void grp_part_bounds(int P, int nparts, const double *weights, int *first);
/* Stops the run, naming `call`, unless 1 <= nparts <= the group's size and every
 * weight is finite and > 0. */
void grp_check_partition(const core_ctx *c, const char *call, int nparts, const double *weights);
void grp_rejoin(core_proc *p);
/* Up to max partner pids (numbered in the parent group) into out; returns the count. */
int grp_partners(core_proc *p, int part, int *out, int max);
void grp_par(core_proc *p, int nparts, const double *weights,
             void (*task)(int part, void *result, void *arg), void *arg, void *results,
             size_t result_bytes);

#endif
