/* probe_levels — D-BSP levels: measure and fit (contract in probe_levels.h). */
#include "probe/probe_levels.h"

#include "cost/cost_fit.h"
#include "cost/cost_groups.h"
#include "probe/probe_measure.h"

#include <polybsp.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

size_t probe_levels_count(int P) { return P < 2 ? 0 : (size_t)cost_rounds(P) + 1; }

/* The partner of member q of a cluster of Q across its halves, or −1 (idle). */
static int partner(int q, int Q)
{
    int half = (Q + 1) / 2;
    return q >= half ? q - half : q < Q - half ? q + half : -1;
}

/* One process's put of an Exchange across the halves of a cluster (nothing
 * when it has no partner). */
typedef struct half_exchange {
    int to;
    const char *src;
    char *dst;
    long nbytes;
} half_exchange;

static void put_half(const void *arg)
{
    const half_exchange *x = arg;
    if (x->to >= 0)
        bsp_put((bsp_pid_t)x->to, x->src, x->dst, 0, (bsp_size_t)x->nbytes);
}

/* One level of one round: all i-clusters time reps samples of every size, in
 * the order given, into mine[(level·nsizes + size)·reps + r], and the partition
 * of each level d on the way down and the rejoin into it on the way up into
 * divisions[(level·nlevels + d)·2 + 0 or 1] (left as they are where this
 * process does not divide). */
static void run_level(const probe_levels *lv, size_t level, const size_t *order, int reps,
                      char *src, char *dst, long maxm, double *mine, double *divisions)
{
    double *division = divisions + level * lv->nlevels * 2;
    /* A cluster of one process is a leaf of the decomposition: it stays whole. */
    size_t parted = 0;
    for (; parted < level && bsp_nprocs() >= 2; parted++) {
        double start = bsp_time();
        bsp_partition(2, NULL);
        division[2 * parted] = bsp_time() - start;
    }
    int to = partner((int)bsp_pid(), (int)bsp_nprocs());
    bsp_push_reg(dst, (bsp_size_t)maxm);
    bsp_sync();
    for (size_t i = 0; i < lv->nsizes; i++) {
        size_t k = order[i];
        double *t = mine + (level * lv->nsizes + k) * (size_t)reps;
        half_exchange x = {to, src, dst, lv->sizes[k] / 2};
        probe_time_supersteps(reps, put_half, &x, t);
    }
    bsp_pop_reg(dst);
    bsp_sync(); /* the registration's agreement is not the rejoin's */
    for (size_t d = parted; d-- > 0;) {
        double start = bsp_time();
        bsp_rejoin();
        division[2 * d + 1] = bsp_time() - start;
    }
}

/* The SPMD body: rounds of every level, each round's samples reduced to their
 * maximum over the processes on process 0, which plans the next round. */
void probe_levels_body(void *arg)
{
    probe_levels *out = arg, copy;
    probe_share_arg(&copy, out, sizeof copy);
    const probe_levels *lv = &copy;
    int s = (int)bsp_pid();
    size_t ncells = lv->nlevels * lv->nsizes;
    size_t per_round = (size_t)probe_rounds_most(&lv->rounds);
    size_t max_reps = (size_t)lv->rounds.max_reps;
    long maxm = lv->sizes[lv->nsizes - 1] / 2;
    char *src = malloc((size_t)maxm), *dst = malloc((size_t)maxm);
    double *mine = malloc(ncells * per_round * sizeof *mine);
    double *worst = malloc(ncells * per_round * sizeof *worst);
    double *samples = malloc(ncells * max_reps * sizeof *samples);
    size_t *order = malloc(lv->nsizes * sizeof *order), *filled = calloc(ncells, sizeof *filled);
    /* Per round, per level and level divided: partition and rejoin; then per
     * level divided and kind, the samples of all rounds (at most one a level
     * and round). */
    size_t ndiv = lv->nlevels * lv->nlevels * 2, div_cap = max_reps * lv->nlevels;
    double *div_mine = malloc(ndiv * sizeof *div_mine),
           *div_worst = malloc(ndiv * sizeof *div_worst);
    double *div_samples = malloc(2 * lv->nlevels * div_cap * sizeof *div_samples);
    size_t *div_filled = calloc(2 * lv->nlevels, sizeof *div_filled);
    if (!src || !dst || !mine || !worst || !samples || !order || !filled || !div_mine ||
        !div_worst || !div_samples || !div_filled)
        bsp_abort("probe: out of memory for the D-BSP levels");
    /* Touched now, so that no sample pays for first-touch page faults. */
    memset(src, 'a' + s % 26, (size_t)maxm);
    memset(dst, 0, (size_t)maxm);
    int next = 0;
    bsp_push_reg(&next, (bsp_size_t)sizeof next);
    bsp_sync();

    uint64_t state = lv->seed;
    for (int round = 0, reps = lv->rounds.min_reps; reps > 0; round++) {
        double start = bsp_time();
        for (size_t i = 0; i < ndiv; i++)
            div_mine[i] = 0;
        for (size_t level = 0; level < lv->nlevels; level++) {
            for (size_t k = 0; k < lv->nsizes; k++)
                order[k] = k;
            probe_shuffle(&state, order, lv->nsizes);
            run_level(lv, level, order, reps, src, dst, maxm, mine, div_mine);
        }
        bsp_reduce(0, mine, worst, ncells * (size_t)reps * sizeof *mine, probe_max_doubles);
        bsp_reduce(0, div_mine, div_worst, ndiv * sizeof *div_mine, probe_max_doubles);
        if (s == 0) {
            for (size_t c = 0; c < ncells; c++)
                for (int r = 0; r < reps; r++)
                    samples[c * max_reps + filled[c]++] = worst[c * (size_t)reps + (size_t)r];
            /* Level i's round divided the levels d < i once each. */
            for (size_t i = 0; i < ndiv; i++) {
                size_t d = i / 2 % lv->nlevels, kind = i % 2, at = 2 * d + kind;
                if (div_worst[i] > 0 && div_filled[at] < div_cap)
                    div_samples[at * div_cap + div_filled[at]++] = div_worst[i];
            }
            double now = bsp_time(), planned = 0;
            int more = probe_rounds_next(&lv->rounds, round, reps, (int)filled[0], now - start, now,
                                         &planned);
            if (round == 0 && out->plan)
                out->plan(out->ctx, planned);
            for (int q = 0; q < (int)bsp_nprocs(); q++)
                bsp_put((bsp_pid_t)q, &more, &next, 0, (bsp_size_t)sizeof more);
            if (out->tick)
                out->tick(out->ctx);
        }
        bsp_sync();
        reps = next;
    }
    if (s == 0) {
        for (size_t c = 0; c < ncells; c++)
            probe_stat_of(samples + c * max_reps, filled[c],
                          &out->stat[c / lv->nsizes][c % lv->nsizes]);
        for (size_t d = 0; d < lv->nlevels; d++) {
            probe_stat_of(div_samples + 2 * d * div_cap, div_filled[2 * d], &out->part[d]);
            probe_stat_of(div_samples + (2 * d + 1) * div_cap, div_filled[2 * d + 1],
                          &out->rejoin[d]);
        }
    }
    bsp_pop_reg(&next);
    bsp_sync();
    free(src);
    free(dst);
    free(mine);
    free(worst);
    free(samples);
    free(order);
    free(filled);
    free(div_mine);
    free(div_worst);
    free(div_samples);
    free(div_filled);
}

void probe_levels_measure(probe_levels *lv)
{
    lv->nlevels = probe_levels_count(lv->nprocs);
    for (size_t i = 0; i < lv->nlevels; i++)
        lv->cluster[i] = (lv->nprocs + (1 << i) - 1) >> i;
    if (lv->nlevels > 0)
        probe_section(lv->nprocs, probe_levels_body, lv);
}

void probe_levels_fit(probe_levels *lv, int h_sum, int cores, cost_levels_procs *m)
{
    m->procs = lv->nprocs;
    m->oversubscribed = lv->nprocs > cores;
    lv->h_sum = h_sum;
    /* An Exchange sends and receives size/2 bytes on each process of a pair. */
    for (size_t k = 0; k < lv->nsizes; k++)
        lv->h[k] = h_sum ? (double)lv->sizes[k] : (double)(lv->sizes[k] / 2);
    m->nlevels = 0;
    for (size_t i = 0; i < lv->nlevels; i++) {
        double y[COST_MAX_SIZES];
        for (size_t k = 0; k < lv->nsizes; k++)
            y[k] = lv->stat[i][k].median;
        if (lv->cluster[i] == 1) {
            /* Clusters of one process exchange nothing: every size is the same
             * empty superstep, and ℓ is the median of its medians. */
            double sorted[COST_MAX_SIZES];
            memcpy(sorted, y, lv->nsizes * sizeof *y);
            lv->L[i] = cost_median(sorted, lv->nsizes);
            lv->g[i] = 0;
            /* Other levels: the same fit as the BSP line (relative errors,
             * g_i, ℓ_i >= 0), so that no level credits its supersteps with time. */
        } else if (probe_fit_relative(lv->h, y, lv->nsizes, &lv->L[i], &lv->g[i]) != 0) {
            lv->L[i] = lv->g[i] = NAN;
        }
        double sum = 0;
        for (size_t k = 0; k < lv->nsizes; k++)
            sum += fabs(y[k] - (lv->L[i] + lv->g[i] * lv->h[k])) / y[k];
        lv->residual[i] = 100.0 * sum / (double)lv->nsizes;
        /* A level that divides has its partition and rejoin, both or neither. */
        int divides = lv->part[i].n > 0 && lv->rejoin[i].n > 0;
        if (lv->g[i] > 0 || (lv->cluster[i] == 1 && isfinite(lv->L[i])))
            m->levels[m->nlevels++] = (cost_level){.level = (int)i,
                                                   .cluster = lv->cluster[i],
                                                   .g = lv->g[i],
                                                   .L = lv->L[i],
                                                   .partition = divides ? lv->part[i].median : 0,
                                                   .rejoin = divides ? lv->rejoin[i].median : 0};
    }
}
