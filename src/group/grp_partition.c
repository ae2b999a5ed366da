/* grp_partition — partitions of a group into parts, rejoining, and partners.
 *
 * A partition ends the current superstep of the group (its puts land, its
 * messages are readable inside the part), then the engine builds the parts and
 * every member joins its own. Part k holds the group pids [first[k], first[k+1]): a block
 * decomposition, with sizes from the weights by largest remainders (every part at
 * least one process), identical on every member because it depends only on the
 * arguments, which are checked to agree.
 */
#include "group/grp.h"

#include "core/core_error.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Each part gets the floor of its ideal share P·w/Σw but at least one process;
 * then processes go to the largest remainders, or come from the most
 * over-served parts, until the sizes add up to P. Ties go to the lowest index,
 * so every member agrees. */
void grp_part_bounds(int P, int nparts, const double *weights, int *first)
{
    double total = 0;
    for (int k = 0; k < nparts; k++)
        total += weights ? weights[k] : 1.0;
    int *size = malloc((size_t)nparts * sizeof *size);
    double *ideal = malloc((size_t)nparts * sizeof *ideal);
    if (!size || !ideal)
        core_fatal_oom("partition");
    int sum = 0;
    for (int k = 0; k < nparts; k++) {
        ideal[k] = (weights ? weights[k] : 1.0) / total * P;
        size[k] = ideal[k] < 1 ? 1 : (int)floor(ideal[k]);
        sum += size[k];
    }
    for (; sum < P; sum++) {
        int best = 0;
        for (int k = 1; k < nparts; k++)
            if (ideal[k] - size[k] > ideal[best] - size[best])
                best = k;
        size[best]++;
    }
    for (; sum > P; sum--) {
        int best = -1;
        for (int k = 0; k < nparts; k++)
            if (size[k] > 1 && (best < 0 || ideal[k] - size[k] < ideal[best] - size[best]))
                best = k;
        size[best]--;
    }
    first[0] = 0;
    for (int k = 0; k < nparts; k++)
        first[k + 1] = first[k] + size[k];
    free(size);
    free(ideal);
}

void grp_check_partition(const core_ctx *c, const char *call, int nparts, const double *weights)
{
    if (nparts < 1 || nparts > c->nprocs)
        core_fatal(call, "%d parts for %d processes (expected 1 to %d)", nparts, c->nprocs,
                   c->nprocs);
    for (int k = 0; weights && k < nparts; k++)
        if (!(weights[k] > 0) || !isfinite(weights[k]))
            core_fatal(call, "weight %d is %g (weights must be finite and > 0)", k, weights[k]);
}

int grp_partition(core_proc *p, int nparts, const double *weights)
{
    core_ctx *c = p->ctx;
    grp_check_partition(c, "bsp_partition", nparts, weights);
    int *first = malloc(((size_t)nparts + 1) * sizeof *first);
    if (!first)
        core_fatal_oom("partition");
    grp_part_bounds(c->nprocs, nparts, weights, first);
    return core_partition(p, nparts, first);
}

void grp_rejoin(core_proc *p)
{
    if (!p->ctx->parent)
        core_fatal("bsp_rejoin", "not inside a partition (call bsp_partition first)");
    core_rejoin(p);
}

/* Block policy: member y of a part of size b receives from member
 * floor(y·a/b) of a part of size a. Each receiver has exactly one sender
 * (injectivity) and every member of every part receives (exhaustivity). */
int grp_partners(core_proc *p, int part, int *out, int max)
{
    core_ctx *sub = p->ctx, *c = sub->parent;
    if (!c)
        core_fatal("bsp_partners", "not inside a partition (call bsp_partition first)");
    const int *first = sub->part_first;
    if (part < 0 || part >= sub->nparts)
        core_fatal("bsp_partners", "part %d out of range [0,%d)", part, sub->nparts);
    long a = sub->nprocs, b = first[part + 1] - first[part];
    int n = 0;
    for (long y = 0; y < b; y++) {
        if (part == sub->part && y != sub->pid)
            continue; /* in its own part, a process's partner is itself */
        if (part != sub->part && y * a / b != sub->pid)
            continue;
        if (n < max)
            out[n] = first[part] + (int)y;
        n++;
    }
    return n;
}
