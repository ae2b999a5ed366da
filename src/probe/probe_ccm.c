/* probe_ccm — CCM: traced collectives, their samples and fits (contract in probe_ccm.h). */
#include "probe/probe_ccm.h"

#include "core/core_file.h"
#include "core/core_stop.h"
#include "cost/cost_fit.h"
#include "cost/cost_groups.h"
#include "cost/cost_trace.h"
#include "probe/probe_pattern.h"

#include <polybsp.h>

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The operations of one cell, in the order of the kinds they are named after;
 * OP_DIVISION gives the "partition" and "rejoin" samples (bsp_par gives them too). */
enum {
    OP_BCAST,
    OP_BCAST_DIRECT, /* bsp_bcast_with each algorithm: CCM's T of that algorithm */
    OP_BCAST_BINOMIAL,
    OP_BCAST_TWOPHASE,
    OP_BCAST_ROOTP,
    OP_REDUCE,
    OP_ALLREDUCE,
    OP_SCAN,
    OP_GATHER,
    OP_ALLGATHER,
    OP_SCATTER,
    OP_ALLTOALL,
    OP_ALLTOALLV,
    OP_HREL, /* OP_HREL + pattern: a plain superstep of bsp_puts in that pattern */
    OP_PAR = OP_HREL + COST_NPATTERNS,
    OP_DIVISION,
    NOPS
};

enum { KIND_PARTITION = NOPS - 1, KIND_REJOIN = NOPS };
static const char *const kind_name[PROBE_CCM_NKINDS] = {"bcast",
                                                        "bcast.direct",
                                                        "bcast.binomial",
                                                        "bcast.twophase",
                                                        "bcast.rootp",
                                                        "reduce",
                                                        "allreduce",
                                                        "scan",
                                                        "gather",
                                                        "allgather",
                                                        "scatter",
                                                        "alltoall",
                                                        "alltoallv",
                                                        "hrel.exchange",
                                                        "hrel.pingpong",
                                                        "hrel.onetoall",
                                                        "hrel.alltoone",
                                                        "hrel.alltoall",
                                                        "par",
                                                        "partition",
                                                        "rejoin"};

size_t probe_ccm_procs(const int *procs, size_t nprocs, int *out, size_t cap)
{
    size_t n = 0;
    int distinct = 0, top = 0;
    for (size_t p = 0; p < nprocs && n < cap; p++) {
        out[n++] = procs[p];
        distinct |= cost_rounds(procs[p]) != cost_rounds(procs[0]);
        top = procs[p] > top ? procs[p] : top;
    }
    /* b multiplies ceil(log2 P): it needs two values of it. */
    if (!distinct && n < cap)
        out[n++] = 2 * top;
    return n;
}

/* acc += in over doubles (memcpy: collective buffers need not be aligned). */
static void add_doubles(void *acc, const void *in, size_t nbytes)
{
    for (size_t at = 0; at + sizeof(double) <= nbytes; at += sizeof(double)) {
        double a, b;
        memcpy(&a, (char *)acc + at, sizeof a);
        memcpy(&b, (const char *)in + at, sizeof b);
        a += b;
        memcpy((char *)acc + at, &a, sizeof a);
    }
}

/* bsp_par's task: no supersteps, the same result on every process of the part. */
static void par_task(int part, void *result, void *arg)
{
    memset(result, 'A' + part, *(const size_t *)arg);
}

typedef struct buffers {
    char *src, *dst;
    size_t *counts, *displs; /* alltoallv: P each, the same for sending and receiving */
    char *land;              /* registered: where the patterns' puts land */
    probe_msg *msgs;         /* a pattern's messages from this process */
} buffers;

/* A superstep of pattern pat whose h for CCM, max(bytes in, bytes out) of the
 * busiest process, is n: probe_messages counts h as in + out, so a swap and
 * the all-to-all send h/2 each. A pattern that spreads its bytes over the
 * others (one-to-all, all-to-one, all-to-all) gives every partner at least a
 * double: 8 bytes at P = 64 reached 8 of the 63 partners, a relation no
 * program makes (one value to everyone is 8 (P - 1) bytes) and cheaper by
 * the 55 messages it left out (docs/models.md, "Calibrating D-BSP and CCM"). */
static size_t pattern_h(cost_pattern pat, size_t n, int P)
{
    size_t every = sizeof(double) * (size_t)(P - 1);
    int spreads = pat == COST_ONETOALL || pat == COST_ALLTOONE || pat == COST_ALLTOALL;
    return spreads && n < every ? every : n;
}

static void run_pattern(cost_pattern pat, size_t n, const buffers *b)
{
    int P = (int)bsp_nprocs(), s = (int)bsp_pid();
    n = pattern_h(pat, n, P);
    long h = (long)n * (pat == COST_EXCHANGE || pat == COST_ALLTOALL ? 2 : 1);
    size_t k = probe_messages(pat, P, s, h, 1, b->msgs);
    for (size_t i = 0; i < k; i++)
        bsp_put((bsp_pid_t)b->msgs[i].dest, b->src + b->msgs[i].src_off, b->land,
                (bsp_size_t)b->msgs[i].dst_off, (bsp_size_t)b->msgs[i].nbytes);
    bsp_sync();
}

/* One call of operation op with n bytes per process on the current group. */
static void run_op(int op, size_t n, const buffers *b)
{
    int P = (int)bsp_nprocs(), s = (int)bsp_pid();
    size_t block = n / (size_t)P > 0 ? n / (size_t)P : 1;
    size_t doubles = (n + sizeof(double) - 1) / sizeof(double) * sizeof(double);
    switch (op) {
    case OP_BCAST: bsp_bcast(0, b->dst, n); break;
    case OP_BCAST_DIRECT: bsp_bcast_with(BSP_BCAST_DIRECT, 0, b->dst, n); break;
    case OP_BCAST_BINOMIAL: bsp_bcast_with(BSP_BCAST_BINOMIAL, 0, b->dst, n); break;
    case OP_BCAST_TWOPHASE:
        /* Below P bytes only n processes get a piece to pass on, so the second
         * superstep has n senders instead of P − 1 at about the same h: at
         * P = 64 on a simulated fat-tree 8 bytes took 0.17 ms and 64 bytes
         * 0.63. Sampled from P bytes up, T fits the algorithm as it runs for
         * n >= P and charges a smaller n what P bytes cost (docs/models.md). */
        bsp_bcast_with(BSP_BCAST_TWOPHASE, 0, b->dst, n > (size_t)P ? n : (size_t)P);
        break;
    case OP_BCAST_ROOTP: bsp_bcast_with(BSP_BCAST_ROOTP, 0, b->dst, n); break;
    case OP_REDUCE: bsp_reduce(0, b->src, b->dst, doubles, add_doubles); break;
    case OP_ALLREDUCE: bsp_allreduce(b->src, b->dst, doubles, add_doubles); break;
    case OP_SCAN: bsp_scan(b->src, b->dst, doubles, add_doubles); break;
    case OP_GATHER: bsp_gather(0, b->src, b->dst, block); break;
    case OP_ALLGATHER: bsp_allgather(b->src, b->dst, block); break;
    case OP_SCATTER: bsp_scatter(0, b->src, b->dst, block); break;
    case OP_ALLTOALL: bsp_alltoall(b->src, b->dst, block); break;
    case OP_ALLTOALLV:
        for (int q = 0; q < P; q++) {
            b->counts[q] = block;
            b->displs[q] = (size_t)q * block;
        }
        bsp_alltoallv(b->src, b->counts, b->displs, b->dst, b->counts, b->displs);
        break;
    case OP_PAR: bsp_par(2, NULL, par_task, &n, b->dst, n); break;
    case OP_HREL + COST_EXCHANGE:
    case OP_HREL + COST_PINGPONG:
    case OP_HREL + COST_ONETOALL:
    case OP_HREL + COST_ALLTOONE:
    case OP_HREL + COST_ALLTOALL: run_pattern((cost_pattern)(op - OP_HREL), n, b); break;
    default:
        /* OP_DIVISION: data half-way round (to the other part when P is even),
         * then to the next process of the own part. */
        bsp_send((bsp_pid_t)((s + P / 2) % P), NULL, b->src, (bsp_size_t)n);
        bsp_partition(2, NULL);
        bsp_send((bsp_pid_t)((bsp_pid() + 1) % bsp_nprocs()), NULL, b->src, (bsp_size_t)n);
        bsp_rejoin();
        break;
    }
}

/* The SPMD body: rounds of every (operation, size) cell, planned by process 0
 * and told to the others in a plain superstep (which CCM does not sample). */
void probe_ccm_body(void *arg)
{
    probe_ccm *out = arg, copy;
    probe_share_arg(&copy, out, sizeof copy);
    const probe_ccm *c = &copy;
    int P = (int)bsp_nprocs(), s = (int)bsp_pid();
    size_t ncells = NOPS * c->nsizes, top = (size_t)c->sizes[c->nsizes - 1];
    /* The largest need: par's results (2n), whole doubles, P blocks of at least a
     * byte, a double to every partner (run_pattern). */
    size_t bytes = 2 * top + sizeof(double) * (size_t)(P + 1);
    buffers b = {malloc(bytes),
                 malloc(bytes),
                 malloc((size_t)P * sizeof(size_t)),
                 malloc((size_t)P * sizeof(size_t)),
                 malloc(bytes),
                 malloc(probe_max_messages(P, 1) * sizeof *b.msgs + 1)};
    size_t *order = malloc(ncells * sizeof *order);
    if (!b.src || !b.dst || !b.counts || !b.displs || !b.land || !b.msgs || !order)
        bsp_abort("probe: out of memory for the CCM collectives");
    memset(b.src, 0, bytes);
    memset(b.dst, 0, bytes);
    memset(b.land, 0, bytes);
    int next = 0, done = 0;
    bsp_push_reg(&next, (bsp_size_t)sizeof next);
    bsp_push_reg(b.land, (bsp_size_t)bytes);
    bsp_sync();

    uint64_t state = c->seed;
    for (int round = 0, reps = c->rounds.min_reps; reps > 0; round++) {
        double start = bsp_time();
        for (size_t i = 0; i < ncells; i++)
            order[i] = i;
        probe_shuffle(&state, order, ncells);
        for (size_t i = 0; i < ncells; i++)
            for (int r = 0; r < reps; r++)
                run_op((int)(order[i] / c->nsizes), (size_t)c->sizes[order[i] % c->nsizes], &b);
        done += reps;
        if (s == 0) {
            double now = bsp_time(), planned = 0;
            int more = probe_rounds_next(&c->rounds, round, reps, done, now - start, now, &planned);
            if (round == 0 && out->plan)
                out->plan(out->ctx, planned);
            for (int q = 0; q < P; q++)
                bsp_put((bsp_pid_t)q, &more, &next, 0, (bsp_size_t)sizeof more);
            if (out->tick)
                out->tick(out->ctx);
        }
        bsp_sync();
        reps = next;
    }
    bsp_pop_reg(&next);
    bsp_pop_reg(b.land);
    bsp_sync();
    free(b.land);
    free(b.msgs);
    free(b.src);
    free(b.dst);
    free(b.counts);
    free(b.displs);
    free(order);
}

/* Runs the section with POLYBSP_TRACE set to path, and puts back what was there. */
static int traced_section(probe_ccm *c, int P, const char *path, char *err, size_t errlen)
{
    const char *old = getenv("POLYBSP_TRACE");
    char *saved = old ? strdup(old) : NULL;
    if ((old && !saved) || setenv("POLYBSP_TRACE", path, 1) != 0) {
        snprintf(err, errlen, "cannot set POLYBSP_TRACE: %s", strerror(errno));
        free(saved);
        return -1;
    }
    probe_section(P, probe_ccm_body, c);
    int rc = saved ? setenv("POLYBSP_TRACE", saved, 1) : unsetenv("POLYBSP_TRACE");
    free(saved);
    if (rc != 0)
        snprintf(err, errlen, "cannot restore POLYBSP_TRACE: %s", strerror(errno));
    return rc;
}

/* Whether sample x is one the body ran: its own bookkeeping (the arguments
 * and each round's plan, process 0's puts to every other) is a plain
 * one-to-all superstep too, which the trace cannot tell from the samples but
 * by its h (4 bytes to each, the arguments' size to each), none of the
 * sizes': left in, the arguments' 2616 bytes to each of 63 made a break
 * point of hrel.onetoall at 164808 bytes. */
static int ran(const probe_ccm *c, const cost_ccm_sample *x)
{
    char name[COST_CCM_NAME_MAX];
    for (int pat = 0; pat < COST_NPATTERNS; pat++)
        if (strcmp(x->kind, cost_hrel_name((cost_pattern)pat, name)) == 0) {
            for (size_t k = 0; k < c->nsizes; k++)
                if (x->h == (double)pattern_h((cost_pattern)pat, (size_t)c->sizes[k], x->P))
                    return 1;
            return 0;
        }
    return 1;
}

static int append_samples(probe_ccm *c, const char *path, char *err, size_t errlen)
{
    cost_trace t;
    if (cost_trace_read(path, &t, err, errlen) != 0)
        return -1;
    size_t n = cost_ccm_samples(&t, NULL, 0);
    if (c->nsamples + n > c->cap) {
        size_t cap = 2 * (c->nsamples + n);
        cost_ccm_sample *grown = realloc(c->samples, cap * sizeof *grown);
        if (!grown) {
            cost_trace_free(&t);
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        c->samples = grown;
        c->cap = cap;
    }
    n = cost_ccm_samples(&t, c->samples + c->nsamples, n);
    cost_trace_free(&t);
    cost_ccm_sample *got = c->samples + c->nsamples;
    for (size_t i = 0; i < n; i++)
        if (ran(c, &got[i]))
            c->samples[c->nsamples++] = got[i];
    return 0;
}

int probe_ccm_measure(probe_ccm *c, int P, double deadline)
{
    char *err = c->failed;
    size_t errlen = sizeof c->failed;
    char path[4096];
    snprintf(path, sizeof path, "%s/polybsp-probe-ccm-XXXXXX", core_file_tmpdir());
    int fd = mkstemp(path);
    if (fd < 0) {
        snprintf(err, errlen, "cannot create a trace file in %s: %s", core_file_tmpdir(),
                 strerror(errno));
        return -1;
    }
    close(fd);
    int stop = core_stop_remove(path, 0); /* megabytes of samples: not left after a stop */
    c->rounds.deadline = deadline;
    int rc = traced_section(c, P, path, err, errlen);
    if (rc == 0)
        rc = append_samples(c, path, err, errlen);
    unlink(path);
    core_stop_forget(stop);
    if (rc == 0 && c->nprocs < COST_MAX_PROCS)
        c->procs[c->nprocs++] = P;
    return rc;
}

static int by_kind_p_h(const void *x, const void *y)
{
    const cost_ccm_sample *a = x, *b = y;
    int k = strcmp(a->kind, b->kind);
    if (k != 0)
        return k;
    if (a->P != b->P)
        return a->P < b->P ? -1 : 1;
    return a->h < b->h ? -1 : a->h > b->h;
}

/* Mean |median − T(P, h)| / median over the points of `kind` (at P = only,
 * or every P when only is 0), percent; the number of points in *counted. */
static double residual(const cost_ccm_sample *points, size_t npoints, const char *kind, int only,
                       const cost_ccm_fn *f, size_t *counted)
{
    double sum = 0;
    size_t timed = 0, n = 0; /* a median of 0 (a clock too coarse) has no relative error */
    for (size_t i = 0; i < npoints; i++)
        if (strcmp(points[i].kind, kind) == 0 && (only == 0 || points[i].P == only)) {
            n++;
            double T = cost_ccm_eval(f, points[i].P, points[i].h);
            if (points[i].time > 0) {
                sum += fabs(points[i].time - T) / points[i].time;
                timed++;
            }
        }
    if (counted)
        *counted = n;
    return timed ? 100.0 * sum / (double)timed : 0;
}

/* The functions of P alone (ccm.by_procs): every kind fitted on P's points,
 * its b folded into a (ceil(log2 P) is one value there). */
static void fit_procs(probe_ccm *c, const cost_ccm_sample *points, size_t npoints, int P,
                      cost_machine *m)
{
    cost_ccm_sample *mine = malloc((npoints + 1) * sizeof *mine);
    if (mine == NULL)
        return;
    size_t n = 0;
    for (size_t i = 0; i < npoints; i++)
        if (points[i].P == P)
            mine[n++] = points[i];
    cost_ccm_procs *p = &m->ccm_procs[m->nccm_procs];
    *p = (cost_ccm_procs){.procs = P, .oversubscribed = m->cores > 0 && P > m->cores};
    double sum = 0;
    for (int k = 0; k < PROBE_CCM_NKINDS; k++) {
        cost_ccm_fn f;
        if (cost_ccm_fit(mine, n, kind_name[k], &f) != 0)
            continue;
        f.a += f.b * cost_rounds(P);
        f.b = 0;
        cost_ccm_coll *x = &p->coll[p->ncoll++];
        snprintf(x->name, sizeof x->name, "%s", kind_name[k]);
        x->f = f;
        sum += residual(mine, n, kind_name[k], P, &f, NULL);
    }
    free(mine);
    if (p->ncoll == 0)
        return;
    c->by_procs[c->nby] = P;
    c->by_residual[c->nby++] = sum / (double)p->ncoll;
    m->nccm_procs++;
}

void probe_ccm_fit(probe_ccm *c, cost_machine *m)
{
    m->ncoll = m->nccm_procs = c->nby = 0;
    m->has_ccm = 0;
    if (c->failed[0] != '\0')
        return;
    /* One point per (kind, P, h): the median of its samples, kept in place. */
    qsort(c->samples, c->nsamples, sizeof *c->samples, by_kind_p_h);
    double *times = malloc((c->nsamples + 1) * sizeof *times);
    cost_ccm_sample *points = malloc((c->nsamples + 1) * sizeof *points);
    size_t npoints = 0;
    for (size_t i = 0, j; times && points && i < c->nsamples; i = j) {
        for (j = i; j < c->nsamples && by_kind_p_h(&c->samples[i], &c->samples[j]) == 0; j++)
            times[j - i] = c->samples[j].time;
        points[npoints] = c->samples[i];
        points[npoints++].time = cost_median(times, j - i);
    }
    m->has_ccm = 1;
    for (int k = 0; k < PROBE_CCM_NKINDS; k++) {
        probe_ccm_kind *r = &c->kinds[k];
        *r = (probe_ccm_kind){.kind = kind_name[k]};
        r->fitted = cost_ccm_fit(points, npoints, r->kind, &r->f) == 0;
        r->residual = residual(points, npoints, r->kind, 0, &r->f, &r->points);
        for (size_t i = 0; i < c->nsamples; i++)
            r->samples += strcmp(c->samples[i].kind, r->kind) == 0;
        if (!r->fitted) {
            /* A pattern's function is optional: its supersteps then cost
             * BSP's g·h + L (cost_groups.c). */
            m->has_ccm &= cost_is_hrel(r->kind);
        } else if (k == KIND_PARTITION) {
            m->partition = r->f;
        } else if (k == KIND_REJOIN) {
            m->rejoin = r->f;
        } else {
            cost_ccm_coll *x = &m->coll[m->ncoll++];
            snprintf(x->name, sizeof x->name, "%s", r->kind);
            x->f = r->f;
        }
    }
    /* by_procs goes by increasing P, each once, whatever order they ran in. */
    for (int last = 0, P; m->has_ccm && points; last = P) {
        P = INT_MAX;
        for (size_t p = 0; p < c->nprocs; p++)
            if (c->procs[p] > last && c->procs[p] < P)
                P = c->procs[p];
        if (P == INT_MAX)
            break;
        fit_procs(c, points, npoints, P, m);
    }
    free(times);
    free(points);
}

void probe_ccm_free(probe_ccm *c)
{
    free(c->samples);
    c->samples = NULL;
    c->nsamples = c->cap = 0;
}
