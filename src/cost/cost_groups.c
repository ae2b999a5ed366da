/* cost_groups — D-BSP and CCM on the group structure (see cost_groups.h).
 *
 * One recursive walk over the tree serves both models: a superstep starts
 * when its group's last member has done its work (the latest clock plus work)
 * and sets the members' clocks to that plus its cost, plus each member's own
 * page faults in the sync (cost_faults: they delay that member alone, as in
 * cost_model.c's barrier models); a division walks its parts (each from the
 * clocks its members have) and, once all parts rejoined, sets everyone to the
 * latest part's end (plus T_rejoin for CCM). cost_groups_check walks the same
 * tree first, so the evaluation can take the machine's parameters and the
 * members' agreement for granted.
 */
#include "cost/cost_groups.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cost_rounds(int P)
{
    int r = 0;
    while (r < 31 && (1L << r) < P)
        r++;
    return r;
}

/* Paper 001, section 2: "The CCM assumes a linear by pieces behaviour in the
 * message size of the functions", "non-linear in the number P of processors
 * (i.e. broadcast usually have a logarithmic factor in P)". A time is never
 * negative, whatever a file's coefficients: a clock must not run back. */
double cost_ccm_eval(const cost_ccm_fn *f, int P, double h)
{
    double below = f->h_break > 0 ? fmin(h, f->h_break) : h;
    double above = f->h_break > 0 ? fmax(0, h - f->h_break) : 0;
    return fmax(0, f->a + f->b * cost_rounds(P) + f->c * below + f->c_above * above);
}

const char *cost_ccm_name(const cost_rec *r, char *buf)
{
    snprintf(buf, COST_CCM_NAME_MAX, "%s%s%s", r->kind, r->alg[0] ? "." : "", r->alg);
    return buf;
}

/* Paper 001 gives each collective operation its own T_f; a broadcast the
 * caller runs with a named algorithm is another operation than the library's
 * choice, with another cost (two supersteps for TWOPHASE, one for DIRECT). */
const cost_ccm_fn *cost_ccm_fn_of(const cost_machine *m, const cost_rec *r, int P)
{
    char name[COST_CCM_NAME_MAX];
    const cost_ccm_fn *f = cost_machine_ccm(m, cost_ccm_name(r, name), P);
    return f ? f : cost_machine_ccm(m, r->kind, P);
}

static int member_index(const cost_group *g, int pid)
{
    int lo = 0, hi = g->nmembers;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (g->members[mid] < pid)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < g->nmembers && g->members[lo] == pid ? lo : -1;
}

/* cost_relation_pattern with out, zeroed, room for a count per member. */
static int classify(const cost_trace *t, const cost_group *g, const cost_item *it, int *out,
                    int *dense)
{
    int n = g->nmembers;
    long edges = 0;
    for (int j = 0; j < n; j++) {
        const cost_rec *r = cost_item_rec(t, g, it, j);
        for (size_t k = 0; k < r->nfrom; k++) {
            int q = member_index(g, r->from[k]);
            if (q < 0)
                return -1; /* traffic leaves the group */
            out[q]++;
            edges++;
        }
    }
    if (edges == 0)
        return -1;
    /* Count the members by (in-degree, out-degree). */
    int idle = 0, swap = 0, sender = 0, receiver = 0, root_out = 0, root_in = 0, all = 0;
    for (int j = 0; j < n; j++) {
        const cost_rec *r = cost_item_rec(t, g, it, j);
        long in = (long)r->nfrom, o = out[j];
        idle += in == 0 && o == 0;
        /* Paper 000's Exchange swaps equal halves: a pair whose one way
         * carries more than twice the other is no exchange (its cost is the
         * heavy way's, which the exchange's function would charge twice). */
        if (in == 1 && o == 1 &&
            2 * fmin(r->bytes_in, r->bytes_out) >= fmax(r->bytes_in, r->bytes_out)) {
            const cost_rec *p = cost_item_rec(t, g, it, member_index(g, r->from[0]));
            swap += p->nfrom == 1 && p->from[0] == r->pid;
        }
        sender += in == 0 && o == 1;
        receiver += in == 1 && o == 0;
        root_out += in == 0 && o == n - 1;
        root_in += in == n - 1 && o == 0;
        all += in == n - 1 && o == n - 1;
    }
    if (idle <= n % 2 && swap == n - idle)
        return COST_EXCHANGE;
    if (idle <= n % 2 && sender + receiver == n - idle)
        return COST_PINGPONG;
    if (n >= 3 && root_out == 1 && receiver == n - 1)
        return COST_ONETOALL;
    if (n >= 3 && root_in == 1 && sender == n - 1)
        return COST_ALLTOONE;
    if (n >= 3 && all == n)
        return COST_ALLTOALL;
    *dense = n >= 3 && 2 * edges > (long)n * (n - 1);
    return *dense ? COST_ALLTOALL : -1;
}

int cost_relation_pattern(const cost_trace *t, const cost_group *g, const cost_item *it, int *dense)
{
    int *out = g->nmembers >= 2 ? calloc((size_t)g->nmembers, sizeof *out) : NULL;
    int is_dense = 0, pattern = out != NULL ? classify(t, g, it, out, &is_dense) : -1;
    free(out);
    if (dense)
        *dense = is_dense;
    else if (is_dense)
        pattern = COST_NO_PATTERN; /* the caller takes exact patterns only */
    return pattern;
}

#define HREL_PREFIX "hrel."

const char *cost_hrel_name(cost_pattern p, char *buf)
{
    snprintf(buf, COST_CCM_NAME_MAX, HREL_PREFIX "%s", cost_pattern_name(p));
    return buf;
}

int cost_is_hrel(const char *name)
{
    return strncmp(name, HREL_PREFIX, sizeof HREL_PREFIX - 1) == 0;
}

int cost_continues(const cost_trace *t, const cost_group *g, size_t i)
{
    if (i == 0 || i >= g->nitems || g->items[i].cols == NULL || g->items[i - 1].cols == NULL)
        return 0;
    const cost_rec *r = cost_item_rec(t, g, &g->items[i], 0);
    const cost_rec *p = cost_item_rec(t, g, &g->items[i - 1], 0);
    return core_kind_is_collective(r->step_kind) && cost_rec_same_kind(r, p) && r->op == p->op;
}

double cost_columns(const cost_trace *t, const double *phi, double base, double *per_step)
{
    double before = base;
    for (unsigned long s = 0; s < t->nsteps; s++) {
        double after = before;
        for (int i = 0; i < t->nprocs; i++)
            if (s < cost_trace_len(t, i))
                after = fmax(after, phi[t->start[i] + s]);
        if (per_step != NULL)
            per_step[s] = after - before;
        before = after;
    }
    return before - base;
}

/* ---- evaluation ---- */

typedef struct eval {
    cost_model_kind k;
    const cost_trace *t;
    const cost_machine *m;
    int flags;
    double *clock; /* per pid: CCM's clock; D-BSP's own faults past its lockstep superstep */
    double *phi;   /* per kept record */
    double *cost;  /* D-BSP: per lockstep superstep, the slowest cluster's cost */
    size_t *pos;   /* D-BSP: per kept record, its lockstep superstep */
    /* D-BSP, per member of a superstep (dbsp_comm): its weights of a byte in
     * and out; its bytes out that receivers attributed to it and its bytes in
     * that their senders are not known for; its bytes through its cluster at
     * the level being summed, in and out (those of the levels above); its
     * bytes in, then out, by their pairs' level (by_level, 2 (R + 1) a
     * member). The cluster
     * tables (dbsp_clusters); per cluster of one level, by first pid, its
     * bytes in and out from all levels and from its parent's (cut), and the
     * clusters a level touched. */
    double *w_in, *w_out, *out_attributed, *in_unattributed, *through_in, *through_out;
    double *by_level;
    int *clo, *crossing;
    double *cut;
    size_t *touched;
} eval;

static size_t rec_index(const cost_trace *t, const cost_group *g, const cost_item *it, int j)
{
    return t->start[g->members[j]] + it->cols[j];
}

/* The maxima over a superstep's members: start, the latest clock; ready, when
 * the last of them has done its work (max_j clock_j + W_j); F, page faults in
 * the sync; reg, the machine's registration extra when any member's sync puts
 * registrations into effect (cost_model.c, step_reg). */
typedef struct stats {
    double start, ready, F, h_bsp, h_ccm, reg;
} stats;

static stats step_stats(const eval *e, const cost_group *g, const cost_item *it)
{
    stats s = {0, 0, 0, 0, 0, 0};
    for (int j = 0; j < g->nmembers; j++) {
        const cost_rec *r = cost_item_rec(e->t, g, it, j);
        if (r->regs > 0)
            s.reg = e->m->reg;
        s.start = fmax(s.start, e->clock[g->members[j]]);
        s.ready = fmax(s.ready, e->clock[g->members[j]] + cost_work(r, e->m, e->flags));
        s.F = fmax(s.F, cost_faults(r, e->m));
        s.h_bsp = fmax(s.h_bsp, cost_hbytes(r, e->m, e->m->h_sum));
        s.h_ccm = fmax(s.h_ccm, cost_combine(r->bytes_in, r->bytes_out, 0));
    }
    return s;
}

/* The superstep ends at `at` for everyone; with own_faults, each member leaves
 * it after its own page faults. */
static void finish(eval *e, const cost_group *g, const cost_item *it, double at, int own_faults)
{
    for (int j = 0; j < g->nmembers; j++) {
        double own = at + (own_faults ? cost_faults(cost_item_rec(e->t, g, it, j), e->m) : 0);
        e->clock[g->members[j]] = own;
        e->phi[rec_index(e->t, g, it, j)] = own;
    }
}

/* A CCM collective in progress: where it started, when its members were
 * ready (their work before it done), the page faults of its supersteps before
 * the last, and each member's bytes in and out so far. */
typedef struct collective {
    double start, ready, F;
    double *in, *out;
} collective;

/* The probe's time of a partition or rejoin (kind) of group `whole`: that of
 * the level of the smallest cluster holding it (cost_dbsp_level), 0 when
 * that level has none. D-BSP and CCM charge it (cost_dbsp_division,
 * ccm_division). */
static double measured_division(const cost_machine *m, const cost_trace *t, const cost_group *whole,
                                int kind)
{
    int P = t->nprocs;
    const cost_level *l = cost_dbsp_level(
        m, P, cost_dbsp_pair_level(P, whole->members[0], whole->members[whole->nmembers - 1]));
    if (l == NULL || !cost_level_divides(l))
        return 0;
    return kind == CORE_KIND_PARTITION ? l->partition : l->rejoin;
}

/* CCM's T_partition or T_rejoin (kind) of group g with h bytes: paper 001's
 * T(n, h) for a group of n. A departure (docs/models.md, "Divisions
 * measured"): where the machine file has the probe's time of that division
 * at g's level (measured_division, no data moved), that time stands for
 * T(n, 0) and the function adds its bytes only: the functions are fitted on
 * divisions of the whole machine, whose a + b·log2 n charged a node's
 * partition on cluster-16x8 13 times its time. */
static double ccm_division(const eval *e, const cost_group *g, int kind, double h)
{
    const cost_ccm_fn *f = cost_machine_ccm(e->m, core_kind_name(kind), g->nmembers);
    double T = cost_ccm_eval(f, g->nmembers, h);
    double measured = measured_division(e->m, e->t, g, kind);
    return measured > 0 ? measured + T - cost_ccm_eval(f, g->nmembers, 0) : T;
}

static double ccm_step(eval *e, const cost_group *g, size_t i, const stats *s, collective *c)
{
    const cost_item *it = &g->items[i];
    const cost_rec *r0 = cost_item_rec(e->t, g, it, 0);
    const cost_machine *m = e->m;
    if (r0->step_kind == CORE_KIND_REJOIN)
        return s->ready; /* T_rejoin comes once the slowest part is here */
    if (r0->step_kind == CORE_KIND_PARTITION)
        return s->ready + ccm_division(e, g, CORE_KIND_PARTITION, s->h_ccm);
    if (!core_kind_is_collective(r0->step_kind)) {
        /* Paper 001, section 2: every collective communication function f
         * has its own T_f, and "h_j is the amount of data ... communicated by
         * processor j under the pattern f"; the cost functions are "linear by
         * pieces ... where latency and bandwidth are considered depending on
         * the communication pattern". A superstep of puts in one of paper
         * 000's patterns is that pattern's function, as the probe fits it,
         * with h = max_i max(in_i, out_i) as for every T_f. Other relations,
         * and every one with COST_CCM_PLAIN_BSP, cost BSP's g·h + L, kept >= 0
         * like every T. On a simulated fat-tree at P = 64 an all-to-all of any
         * size costs 0.6 ms where BSP's line says 0.14 (docs/models.md, "CCM"). */
        int dense = 0;
        int pattern =
            e->flags & COST_CCM_PLAIN_BSP ? -1 : cost_relation_pattern(e->t, g, it, &dense);
        char name[COST_CCM_NAME_MAX];
        const cost_ccm_fn *f =
            pattern < 0
                ? NULL
                : cost_machine_ccm(m, cost_hrel_name((cost_pattern)pattern, name), g->nmembers);
        /* h = max_i max(in_i, out_i), with an hpput's byte weighed by the
         * pattern's own fits of both primitives (paper 000, tables Π.1 and
         * Π.2), a message's as for BSP.
         * A departure (docs/models.md, "CCM"): a dense relation, more than
         * half of the ordered pairs communicating (a sample sort's buckets,
         * multisearch's queries), is an all-to-all with some pairs left out
         * and pays for its many messages as the all-to-all does, not BSP's
         * line (2.5-10x under on simulated clusters at P = 64). Its T is the
         * all-to-all's at the members' mean h: the pattern's samples have
         * every member at one h, so the mean is their h, and a relation where
         * one process sends half of everything moves the volume of its mean,
         * not of its busiest (the max charged cluster-16x8's up to 9.7x). */
        double h = 0, hsum = 0;
        double k_hp = f != NULL ? cost_machine_hp_ratio(m, (cost_pattern)pattern) : 1;
        double k_send = cost_machine_hp_ratio(m, COST_NO_PATTERN);
        for (int j = 0; f != NULL && j < g->nmembers; j++) {
            double hj = cost_hbytes_weighed(cost_item_rec(e->t, g, it, j), k_hp, k_send, 0);
            h = fmax(h, hj);
            hsum += hj;
        }
        if (dense)
            h = hsum / g->nmembers;
        if (f != NULL)
            return s->ready + cost_ccm_eval(f, g->nmembers, h) + s->reg;
        return s->ready + fmax(0, m->g * s->h_bsp + m->L) + s->reg;
    }
    if (!cost_continues(e->t, g, i)) {
        c->start = s->start;
        c->ready = s->ready;
        c->F = 0;
        memset(c->in, 0, (size_t)g->nmembers * sizeof *c->in);
        memset(c->out, 0, (size_t)g->nmembers * sizeof *c->out);
    }
    double h = 0;
    for (int j = 0; j < g->nmembers; j++) {
        const cost_rec *r = cost_item_rec(e->t, g, it, j);
        c->in[j] += (double)r->bytes_in;
        c->out[j] += (double)r->bytes_out;
        h = fmax(h, fmax(c->in[j], c->out[j]));
    }
    /* One T_f for all its supersteps: the faults of all but the last delay the
     * whole collective; the last one's, each member (finish). */
    if (cost_continues(e->t, g, i + 1)) {
        c->F += s->F;
        return c->start;
    }
    return c->ready + c->F + cost_ccm_eval(cost_ccm_fn_of(m, r0, g->nmembers), g->nmembers, h);
}

static int eval_group(eval *e, const cost_group *g);

/* All parts rejoined: everyone leaves the rejoin when the slowest part arrives
 * (CCM adds T_rejoin of the whole group). */
static void end_division(eval *e, const cost_group *g, const cost_item *it)
{
    double at = 0, h = 0;
    for (int j = 0; j < g->nmembers; j++)
        at = fmax(at, e->clock[g->members[j]]);
    for (size_t k = 0; k < it->nparts; k++) {
        const cost_group *p = &it->parts[k];
        const cost_item *last = &p->items[p->nitems - 1];
        for (int j = 0; j < p->nmembers; j++) {
            const cost_rec *r = cost_item_rec(e->t, p, last, j);
            h = fmax(h, cost_combine(r->bytes_in, r->bytes_out, 0));
        }
    }
    if (e->k == COST_CCM)
        at += ccm_division(e, g, CORE_KIND_REJOIN, h);
    for (size_t k = 0; k < it->nparts; k++) {
        const cost_group *p = &it->parts[k];
        finish(e, p, &p->items[p->nitems - 1], at, 0); /* at holds their faults */
    }
}

static int eval_group(eval *e, const cost_group *g)
{
    collective c = {0, 0, 0, calloc((size_t)g->nmembers, sizeof(double)),
                    calloc((size_t)g->nmembers, sizeof(double))};
    int rc = c.in != NULL && c.out != NULL ? 0 : -1;
    for (size_t i = 0; rc == 0 && i < g->nitems; i++) {
        const cost_item *it = &g->items[i];
        if (it->cols == NULL) {
            for (size_t k = 0; rc == 0 && k < it->nparts; k++)
                rc = eval_group(e, &it->parts[k]);
            if (rc == 0 && cost_division_complete(it))
                end_division(e, g, it);
            continue;
        }
        stats s = step_stats(e, g, it);
        /* A collective's supersteps before its last end where it started. */
        finish(e, g, it, ccm_step(e, g, i, &s, &c), !cost_continues(e->t, g, i + 1));
    }
    free(c.in);
    free(c.out);
    return rc;
}

/* ---- D-BSP ---- */

int cost_dbsp_pair_level(int P, int a, int b)
{
    int lo = 0, hi = P, level = 0;
    while (a != b && hi - lo > 1) {
        int mid = lo + (hi - lo + 1) / 2; /* the first half gets ceil(n/2) */
        if ((a < mid) != (b < mid))
            return level;
        if (a < mid)
            hi = mid;
        else
            lo = mid;
        level++;
    }
    return cost_rounds(P);
}

int cost_dbsp_label(const cost_trace *t, const cost_group *g, const cost_item *it, int flags)
{
    int P = t->nprocs, label = cost_rounds(P);
    if (!(flags & COST_DBSP_TRAFFIC))
        label = cost_dbsp_pair_level(P, g->members[0], g->members[g->nmembers - 1]);
    for (int j = 0; j < g->nmembers; j++) {
        const cost_rec *r = cost_item_rec(t, g, it, j);
        for (size_t k = 0; k < r->nfrom; k++) {
            int l = cost_dbsp_pair_level(P, r->from[k], r->pid);
            label = l < label ? l : label;
        }
    }
    return label;
}

int cost_dbsp_cluster(int P, int label)
{
    return label >= 31 ? 1 : (int)(((long)P + (1L << label) - 1) >> label);
}

const cost_level *cost_dbsp_level(const cost_machine *m, int P, int label)
{
    int cluster = cost_dbsp_cluster(P, label);
    const cost_level *best = NULL;
    for (size_t i = 0; i < m->nlevels; i++) {
        const cost_level *l = &m->levels[i];
        if (l->cluster >= cluster && (cluster > 1 || l->cluster == 1) &&
            (best == NULL || l->cluster < best->cluster))
            best = l;
    }
    return best;
}

double cost_dbsp_division(const cost_machine *m, const cost_trace *t, const cost_group *g,
                          const cost_item *it, const cost_group *divided)
{
    int kind = cost_item_rec(t, g, it, 0)->step_kind;
    const cost_group *whole = kind == CORE_KIND_PARTITION ? g
                              : kind == CORE_KIND_REJOIN  ? divided
                                                          : NULL;
    return whole == NULL ? 0 : measured_division(m, t, whole, kind);
}

/* D-BSP's clusters as tables: clo[k·P + p], the first pid of p's cluster at
 * level k, or -1 below the level where p is alone; crossing[k·P + lo], for the
 * cluster at level k that starts at lo, how many of its members cross to the
 * other half of its parent in the probe's pattern for the parent's level
 * (every member of the first half is paired with one of the second, the
 * middle process of an odd parent idle): ⌊parent's size / 2⌋. */
static void dbsp_clusters(eval *e, int lo, int hi, int k, int parent)
{
    int P = e->t->nprocs;
    for (int p = lo; p < hi; p++)
        e->clo[(size_t)k * P + p] = lo;
    e->crossing[(size_t)k * P + lo] = parent / 2;
    if (hi - lo > 1) {
        int mid = lo + (hi - lo + 1) / 2; /* the first half gets ceil(n/2) */
        dbsp_clusters(e, lo, mid, k + 1, hi - lo);
        dbsp_clusters(e, mid, hi, k + 1, hi - lo);
    }
}

/* The communication time of a D-BSP superstep labelled `label` (level l).
 * Paper 002 charges an i-superstep h·g_i: all its traffic lies inside
 * i-clusters, and g_i is measured with every member of each i-cluster's
 * first half sending h to its second half and back, all at once (the
 * probe's pattern). A polybsp superstep need not be such: it has bytes at
 * several levels (Cannon's shift of B across the nodes beside A's inside
 * them), and some members cross while others do not (an irregular
 * exchange), where a node's link that its processes share carries the bytes
 * of those that cross alone. So (a departure: docs/models.md, "D-BSP",
 * "Clusters' links") each cluster H passes bytes in and out at the rates its
 * levels' patterns showed: in the pattern of level j, crossing(H) of its
 * members (⌊its parent's size / 2⌋, the middle of an odd parent idle) sent h
 * each across H's parent in g_j·h, j the parent's level, and all members of
 * H crossed in g_i·h at every level i above. The superstep costs its busiest
 * cluster:
 *     max over the clusters H, processes alone among them, of
 *         (B_in(H) @ B_out(H)) · min_{i < level(H)} g_i / crossing(H),
 *         (b_in(H) @ b_out(H)) · g_j / crossing(H),
 * with B the bytes into and out of H from any level, b those between the
 * halves of H's parent (at level j): the first reads the g as the capacity of
 * H's link (a node's: a process of `cluster-16x8` that crosses alone gets
 * its node's link), the second holds each level's own measure (a torus's
 * row, whose pairs four hops apart share links, is slower than the two rows'
 * pairs one hop apart). Bytes come from the receivers' from_bytes, an
 * hpput's or a message's byte weighed as for h. On the probe's own pattern
 * this is g_j·h to the letter. Bytes the receivers do not attribute (a trace
 * written before 2026-11-30) cost their process's h at the label's g, as the
 * paper's formula. */
static double dbsp_comm(eval *e, const cost_group *g, const cost_item *it, const cost_level *l)
{
    const cost_machine *m = e->m;
    int P = e->t->nprocs, n = g->nmembers, R = cost_rounds(P);
    size_t L = (size_t)R + 1;
    /* level_g[k]: level k's g; cap[k]: the least g of the levels above k. */
    double level_g[COST_MAX_LEVELS + 1], cap[COST_MAX_LEVELS + 1], least = INFINITY;
    for (int k = 0; k <= R && k <= COST_MAX_LEVELS; k++) {
        cap[k] = isinf(least) ? l->g : least;
        const cost_level *lv = cost_dbsp_level(m, P, k);
        level_g[k] = lv != NULL ? lv->g : l->g;
        if (level_g[k] > 0)
            least = fmin(least, level_g[k]);
    }
    double kw = cost_machine_hp_ratio(m, COST_NO_PATTERN), comm = 0;
    /* Each member's weight of a byte in and out (hpput and message bytes
     * weighed), and its weighed bytes in and out by their pairs' level. */
    for (int j = 0; j < n; j++) {
        const cost_rec *r = cost_item_rec(e->t, g, it, j);
        double in, out;
        cost_hbytes_sides(r, kw, kw, &in, &out);
        e->w_in[j] = r->bytes_in > 0 ? in / (double)r->bytes_in : 1;
        e->w_out[j] = r->bytes_out > 0 ? out / (double)r->bytes_out : 1;
        e->out_attributed[j] = 0;
        for (size_t k = 0; k < 2 * L; k++)
            e->by_level[2 * L * (size_t)j + k] = 0;
    }
    for (int j = 0; j < n; j++) {
        const cost_rec *r = cost_item_rec(e->t, g, it, j);
        double attributed = 0;
        for (size_t f = 0; r->from_bytes != NULL && f < r->nfrom; f++) {
            double b = (double)r->from_bytes[f];
            int q = member_index(g, r->from[f]);
            size_t level = (size_t)cost_dbsp_pair_level(P, r->from[f], r->pid);
            attributed += b;
            e->by_level[2 * L * (size_t)j + level] += b * e->w_in[j];
            if (q >= 0) {
                e->out_attributed[q] += b;
                e->by_level[2 * L * (size_t)q + L + level] += b * e->w_out[q];
            }
        }
        e->in_unattributed[j] = fmax(0, (double)r->bytes_in - attributed) * e->w_in[j];
    }
    /* Bytes no receiver attributes: their process's h at the label's g. */
    for (int j = 0; j < n; j++) {
        const cost_rec *r = cost_item_rec(e->t, g, it, j);
        double in = e->in_unattributed[j],
               out = fmax(0, (double)r->bytes_out - e->out_attributed[j]) * e->w_out[j];
        comm = fmax(comm, l->g * (m->h_sum ? in + out : fmax(in, out)));
        e->through_in[j] = e->through_out[j] = 0;
    }
    /* Level by level, each member's bytes through its cluster there: B, all
     * those of the levels above (summed as k grows), b, those of level k - 1. */
    for (int k = 1; k <= R; k++) {
        size_t ntouched = 0;
        for (int j = 0; j < n; j++) {
            const double *own = &e->by_level[2 * L * (size_t)j];
            e->through_in[j] += own[k - 1];
            e->through_out[j] += own[L + (size_t)k - 1];
            int lo = e->clo[(size_t)k * (size_t)P + (size_t)g->members[j]];
            if (lo < 0 || (e->through_in[j] == 0 && e->through_out[j] == 0))
                continue;
            double *cut = &e->cut[4 * (size_t)lo];
            if (cut[0] == 0 && cut[1] == 0)
                e->touched[ntouched++] = (size_t)lo;
            cut[0] += e->through_in[j];
            cut[1] += e->through_out[j];
            cut[2] += own[k - 1];
            cut[3] += own[L + (size_t)k - 1];
        }
        for (size_t t = 0; t < ntouched; t++) {
            size_t lo = e->touched[t], at = (size_t)k * (size_t)P + lo;
            double *cut = &e->cut[4 * lo];
            double all = m->h_sum ? cut[0] + cut[1] : fmax(cut[0], cut[1]);
            double own = m->h_sum ? cut[2] + cut[3] : fmax(cut[2], cut[3]);
            int crossing = e->crossing[at] > 0 ? e->crossing[at] : 1;
            comm = fmax(comm, fmax(all * cap[k], own * level_g[k - 1]) / crossing);
            cut[0] = cut[1] = cut[2] = cut[3] = 0;
        }
    }
    return comm;
}

/* Paper 002, section 3: "If, in an i-superstep, each processor performs at
 * most w local operations, and the messages exchanged form an h-relation, then
 * the cost of the superstep is w + h·g_i + ℓ_i"; paper 003, section 3.2: "The
 * runtime of a superstep is the maximum runtime taken over the submachines."
 * The parts of a division run their supersteps in lockstep: the k-th superstep
 * of every part is one superstep of the machine, charged its slowest part, and
 * the program costs the sum over these supersteps. Walks group g from the
 * lockstep superstep `at` and returns the one after its last. */
static size_t dbsp_group(eval *e, const cost_group *g, size_t at, const cost_group *divided)
{
    for (size_t i = 0; i < g->nitems; i++) {
        const cost_item *it = &g->items[i];
        if (it->cols == NULL) {
            size_t end = at;
            for (size_t k = 0; k < it->nparts; k++) {
                size_t part_end = dbsp_group(e, &it->parts[k], at, g);
                end = part_end > end ? part_end : end;
            }
            at = end;
            continue;
        }
        stats s = step_stats(e, g, it);
        int label = cost_dbsp_label(e->t, g, it, e->flags);
        const cost_level *l = cost_dbsp_level(e->m, e->t->nprocs, label);
        /* A division's own superstep synchronises as the probe's partition or
         * rejoin of its cluster did, instead of as an empty superstep. */
        double division = cost_dbsp_division(e->m, e->t, g, it, divided);
        double sync = division > 0 ? division : l->L;
        /* A fitted ℓ_i below 0 cannot make a superstep cost less than nothing.
         * The clocks here count from the end of the previous lockstep
         * superstep: a member's own faults there delay its work here. */
        e->cost[at] = fmax(e->cost[at], s.ready + dbsp_comm(e, g, it, l) + sync + s.reg);
        finish(e, g, it, 0, 1);
        for (int j = 0; j < g->nmembers; j++)
            e->pos[rec_index(e->t, g, it, j)] = at;
        at++;
    }
    return at;
}

static int dbsp(eval *e)
{
    size_t n = e->t->start[e->t->nprocs];
    size_t P = (size_t)e->t->nprocs, levels = (size_t)cost_rounds(e->t->nprocs) + 1;
    e->cost = calloc(n + 1, sizeof *e->cost);
    e->pos = calloc(n + 1, sizeof *e->pos);
    e->w_in = malloc(6 * P * sizeof *e->w_in);
    e->by_level = malloc(2 * levels * P * sizeof *e->by_level);
    e->clo = malloc(levels * P * sizeof *e->clo);
    e->crossing = calloc(levels * P, sizeof *e->crossing);
    e->cut = calloc(4 * P, sizeof *e->cut);
    e->touched = malloc(P * sizeof *e->touched);
    if (e->cost == NULL || e->pos == NULL || e->w_in == NULL || e->by_level == NULL ||
        e->clo == NULL || e->crossing == NULL || e->cut == NULL || e->touched == NULL)
        return -1;
    e->w_out = e->w_in + P;
    e->out_attributed = e->w_in + 2 * P;
    e->in_unattributed = e->w_in + 3 * P;
    e->through_in = e->w_in + 4 * P;
    e->through_out = e->w_in + 5 * P;
    for (size_t i = 0; i < levels * P; i++)
        e->clo[i] = -1;
    dbsp_clusters(e, 0, (int)P, 0, 0);
    size_t steps = dbsp_group(e, e->t->root, 0, NULL);
    for (size_t k = 1; k < steps; k++)
        e->cost[k] += e->cost[k - 1]; /* now the clock at the end of superstep k */
    for (size_t r = 0; r < n; r++)    /* finish left each record's own faults in phi */
        e->phi[r] += e->cost[e->pos[r]];
    return 0;
}

double cost_groups_predict(cost_model_kind k, const cost_trace *t, const cost_machine *m, int flags,
                           double *per_step)
{
    eval e = {.k = k, .t = t, .m = m, .flags = flags};
    e.clock = calloc((size_t)t->nprocs, sizeof *e.clock);
    e.phi = calloc(t->start[t->nprocs] + 1, sizeof *e.phi);
    double total = NAN;
    if (e.clock != NULL && e.phi != NULL &&
        cost_groups_check(k, t, m, flags, "", "", NULL, 0) == 0 &&
        (k == COST_DBSP ? dbsp(&e) : eval_group(&e, t->root)) == 0)
        total = cost_columns(t, e.phi, 0, per_step);
    else
        for (unsigned long s = 0; per_step != NULL && s < t->nsteps; s++)
            per_step[s] = NAN;
    free(e.clock);
    free(e.phi);
    free(e.cost);
    free(e.pos);
    free(e.w_in);
    free(e.by_level);
    free(e.clo);
    free(e.crossing);
    free(e.cut);
    free(e.touched);
    return total;
}

/* ---- what the models need ---- */

typedef struct checker {
    cost_model_kind k;
    int flags;
    const cost_trace *t;
    const cost_machine *m;
    const char *trace_name, *machine_name;
    char *err;
    size_t errlen;
} checker;

static int fail(checker *c, const char *format, ...) __attribute__((format(printf, 2, 3)));

/* Writes the formatted message; each says what needs the field with NEEDED,
 * which stands for "needed by --model NAME". */
static int fail(checker *c, const char *format, ...)
{
    if (c->errlen > 0) {
        va_list ap;
        va_start(ap, format);
        vsnprintf(c->err, c->errlen, format, ap);
        va_end(ap);
    }
    return -1;
}

#define NEEDED "needed by --model %s"

static const char *name(const checker *c) { return cost_model_name(c->k); }

/* The members of one superstep agree with member 0 on what the model reads. */
static int check_members(checker *c, const cost_group *g, size_t i)
{
    const cost_item *it = &g->items[i];
    const cost_rec *r0 = cost_item_rec(c->t, g, it, 0);
    int cont0 = cost_continues(c->t, g, i);
    for (int j = 1; j < g->nmembers; j++) {
        const cost_rec *r = cost_item_rec(c->t, g, it, j);
        if (c->k != COST_CCM)
            continue;
        /* CCM charges a "normal" and an "oblivious" superstep alike. */
        int same = cost_rec_same_kind(r, r0) ||
                   (core_kind_is_plain(r->step_kind) && core_kind_is_plain(r0->step_kind));
        if (!same)
            return fail(c,
                        "%s:%zu: field 'kind': expected \"%s\" like pid %d's record of the same "
                        "superstep, line %zu (" NEEDED ")",
                        c->trace_name, r->line, r0->kind, r0->pid, r0->line, name(c));
        if (!core_kind_is_collective(r->step_kind) || i == 0 || g->items[i - 1].cols == NULL)
            continue;
        const cost_rec *p = cost_item_rec(c->t, g, &g->items[i - 1], j);
        int cont = cost_rec_same_kind(p, r) && p->op == r->op;
        if (cont0 && !cont)
            return fail(c,
                        "%s:%zu: field 'op': expected %lld as on line %zu: pid %d's %s goes on "
                        "here (" NEEDED ")",
                        c->trace_name, r->line, p->op, p->line, r0->pid, r0->kind, name(c));
        if (!cont0 && cont)
            return fail(c,
                        "%s:%zu: field 'op': expected another op than on line %zu: pid %d starts "
                        "a new %s here (" NEEDED ")",
                        c->trace_name, r->line, p->line, r0->pid, r0->kind, name(c));
    }
    return 0;
}

static int check_group(checker *c, const cost_group *g)
{
    for (size_t i = 0; i < g->nitems; i++) {
        const cost_item *it = &g->items[i];
        if (it->cols == NULL) {
            for (size_t k = 0; k < it->nparts; k++)
                if (check_group(c, &it->parts[k]) < 0)
                    return -1;
            continue;
        }
        if (check_members(c, g, i) < 0)
            return -1;
        const cost_rec *r0 = cost_item_rec(c->t, g, it, 0);
        int label = c->k == COST_DBSP ? cost_dbsp_label(c->t, g, it, c->flags) : 0;
        if (c->k == COST_DBSP && cost_dbsp_level(c->m, c->t->nprocs, label) == NULL) {
            int cluster = cost_dbsp_cluster(c->t->nprocs, label);
            char how[96];
            if (cluster == 1)
                snprintf(how, sizeof how,
                         "run polybsp probe again, which measures levels 0 to log2 P");
            else
                snprintf(how, sizeof how, "probe with --procs %d or more", cluster);
            return fail(c,
                        "%s: field 'dbsp.levels': no clusters of %d%s process%s (" NEEDED
                        " for %s:%zu, a superstep at level %d of %d processes: %s)",
                        c->machine_name, cluster, cluster == 1 ? "" : " or more",
                        cluster == 1 ? "" : "es", name(c), c->trace_name, r0->line, label,
                        c->t->nprocs, how);
        }
        if (c->k == COST_CCM && core_kind_is_collective(r0->step_kind) &&
            cost_ccm_fn_of(c->m, r0, g->nmembers) == NULL)
            return fail(c, "%s: field 'ccm.collectives.%s': missing (" NEEDED " for %s:%zu, a %s)",
                        c->machine_name, r0->kind, name(c), c->trace_name, r0->line, r0->kind);
    }
    return 0;
}

int cost_groups_check(cost_model_kind k, const cost_trace *t, const cost_machine *m, int flags,
                      const char *trace_name, const char *machine_name, char *err, size_t errlen)
{
    checker c = {k, flags, t, m, trace_name, machine_name, err, errlen};
    if (m == NULL)
        return fail(&c, "no machine file (" NEEDED ")", name(&c));
    if (k == COST_DBSP && m->nlevels == 0)
        return fail(&c, "%s: field 'dbsp': missing (" NEEDED ")", machine_name, name(&c));
    if (k == COST_CCM && !m->has_ccm)
        return fail(&c, "%s: field 'ccm': missing (" NEEDED ")", machine_name, name(&c));
    return check_group(&c, t->root);
}
