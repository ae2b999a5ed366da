/* grp_par — PAR / WEIGHTEDPAR for common-common divide and conquer.
 *
 * Every process of part i holds task i's result after the task (the tasks are
 * collective inside their part). After rejoining, each process sends its part's
 * result to its partners in every other part; by exhaustivity and injectivity
 * each process then receives every other part's result exactly once. The
 * exchange is one superstep of the parent group.
 */
#include "group/grp.h"

#include "core/core_error.h"

#include <stdlib.h>

void grp_par(core_proc *p, int nparts, const double *weights,
             void (*task)(int part, void *result, void *arg), void *arg, void *results,
             size_t result_bytes)
{
    grp_check_partition(p->ctx, "bsp_par", nparts, weights);
    size_t need = (size_t)nparts * result_bytes;
    if (!results && need)
        core_fatal("bsp_par", "results is NULL but must hold %zu bytes", need);
    int part = grp_partition(p, nparts, weights);
    char *mine = (char *)results + (size_t)part * result_bytes;
    task(part, mine, arg);

    /* The partners, while the partition still exists: distinct processes of the
     * parent, so at most its size. */
    int cap = p->ctx->parent->nprocs, total = 0;
    int *dest = malloc((size_t)cap * sizeof *dest);
    if (!dest)
        core_fatal_oom("bsp_par");
    for (int j = 0; j < nparts; j++)
        if (j != part)
            total += grp_partners(p, j, dest + total, cap - total);
    grp_rejoin(p);

    core_trace_label(p, CORE_KIND_PAR);
    core_coll_expose(p, results, (size_t)nparts * result_bytes);
    for (int k = 0; k < total; k++)
        core_coll_put(p, "bsp_par", dest[k], mine, (size_t)part * result_bytes, result_bytes);
    free(dest);
    core_sync(p);
    core_trace_label(p, CORE_KIND_NORMAL);
}
