/* probe_measure — the measuring SPMD program (contract in probe_measure.h). */
#include "probe/probe_measure.h"

#include "cost/cost_fit.h"
#include "probe/probe_pattern.h"

#include <bsp.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* What the next section does. The processes only read it; process 0 writes the
 * results into the job's arrays (or rate) before bsp_end. */
static struct {
    enum { RUN_COMM, RUN_RATE, RUN_BODY } kind;
    int nprocs;
    probe_job *job;
    void (*body)(void *arg);
    void *arg;
    double rate_seconds;
    double rate;
} current;

static void *alloc_or_abort(size_t nbytes)
{
    void *p = malloc(nbytes ? nbytes : 1);
    if (p == NULL)
        bsp_abort("probe: out of memory (%zu bytes)", nbytes);
    return p;
}

/* Issues the messages of one h-relation. */
static void issue(probe_prim prim, const probe_msg *msgs, size_t n, const char *src, char *dst)
{
    for (size_t i = 0; i < n; i++) {
        const probe_msg *m = &msgs[i];
        if (prim == PROBE_PUT)
            bsp_put(m->dest, src + m->src_off, dst, (bsp_size_t)m->dst_off, (bsp_size_t)m->nbytes);
        else
            bsp_hpput(m->dest, src + m->src_off, dst, (bsp_size_t)m->dst_off,
                      (bsp_size_t)m->nbytes);
    }
}

static void comm(probe_job *job)
{
    int P = (int)bsp_nprocs(), s = (int)bsp_pid();
    long maxh = 1;
    int maxreps = 1, maxsplit = 1;
    for (size_t b = 0; b < job->nbatches; b++) {
        const probe_cell *c = &job->cells[job->batches[b].cell];
        maxh = c->h > maxh ? c->h : maxh;
        maxsplit = c->split > maxsplit ? c->split : maxsplit;
        maxreps = job->batches[b].reps > maxreps ? job->batches[b].reps : maxreps;
    }
    char *src = alloc_or_abort((size_t)maxh), *dst = alloc_or_abort((size_t)maxh);
    double *mine = alloc_or_abort((size_t)maxreps * sizeof *mine);
    double *all = alloc_or_abort((size_t)P * (size_t)maxreps * sizeof *all);
    probe_msg *msgs = alloc_or_abort(probe_max_messages(P, maxsplit) * sizeof *msgs);
    int stop = 0;
    const int one = 1;
    /* Touched now, so that no sample pays for first-touch page faults. */
    memset(src, 'a' + s % 26, (size_t)maxh);
    memset(dst, 0, (size_t)maxh);
    bsp_push_reg(dst, (bsp_size_t)maxh);
    bsp_push_reg(all, (bsp_size_t)((size_t)P * (size_t)maxreps * sizeof *all));
    bsp_push_reg(&stop, (bsp_size_t)sizeof stop);
    bsp_sync();

    size_t at = 0;
    for (size_t b = 0; b < job->nbatches && !stop; b++) {
        const probe_batch *batch = &job->batches[b];
        const probe_cell *c = &job->cells[batch->cell];
        size_t n = probe_messages(c->pattern, P, s, c->h, c->split, msgs);
        double start = bsp_time();
        for (int r = 0; r < batch->reps; r++) {
            bsp_sync(); /* also delivers process 0's stop flag, to everyone at once */
            if (stop)
                break;
            double t0 = bsp_time();
            issue(c->prim, msgs, n, src, dst);
            bsp_sync();
            mine[r] = bsp_time() - t0;
        }
        if (stop)
            break;
        bsp_put(0, mine, all, (bsp_size_t)((size_t)s * (size_t)maxreps * sizeof *mine),
                (bsp_size_t)((size_t)batch->reps * sizeof *mine));
        bsp_sync();
        if (s != 0)
            continue;
        for (int r = 0; r < batch->reps; r++) {
            double t = all[r];
            for (int q = 1; q < P; q++)
                t = all[(size_t)q * (size_t)maxreps + (size_t)r] > t
                        ? all[(size_t)q * (size_t)maxreps + (size_t)r]
                        : t;
            job->samples[at++] = t;
        }
        job->wall[b] = bsp_time() - start;
        job->done = b + 1;
        if (job->tick)
            job->tick(job->ctx);
        if (b + 1 >= job->nprotected && b + 1 < job->nbatches && bsp_time() > job->deadline)
            for (int q = 0; q < P; q++)
                bsp_put(q, &one, &stop, 0, (bsp_size_t)sizeof one);
    }
    free(src);
    free(dst);
    free(mine);
    free(all);
    free(msgs);
}

enum { DAXPY_N = 1024, RATE_TIMINGS = 5 };

/* Seconds for iters DAXPYs y += a*x on vectors of DAXPY_N doubles; a alternates in
 * sign so that y stays bounded however long it runs. */
static double daxpy_time(double *x, double *y, long iters)
{
    double t0 = bsp_time();
    for (long it = 0; it < iters; it++) {
        double a = it % 2 ? -1.0 / 3.0 : 1.0 / 3.0;
        for (int i = 0; i < DAXPY_N; i++)
            y[i] += a * x[i];
    }
    return bsp_time() - t0;
}

static void rate(void)
{
    int P = (int)bsp_nprocs(), s = (int)bsp_pid();
    double x[DAXPY_N], y[DAXPY_N], *rates = alloc_or_abort((size_t)P * sizeof *rates);
    for (int i = 0; i < DAXPY_N; i++) {
        x[i] = 1.0 + i;
        y[i] = 0.0;
    }
    bsp_push_reg(rates, (bsp_size_t)((size_t)P * sizeof *rates));
    bsp_sync();
    /* Double the loop until one timing lasts a fair share of the time, so that the
     * clock's resolution does not matter; then take the median of a few. */
    double share = current.rate_seconds / (RATE_TIMINGS + 2);
    long iters = 1;
    while (daxpy_time(x, y, iters) < share && iters < (1L << 40))
        iters *= 2;
    double r[RATE_TIMINGS];
    for (int k = 0; k < RATE_TIMINGS; k++)
        r[k] = 2.0 * DAXPY_N * (double)iters / daxpy_time(x, y, iters);
    double mine = cost_median(r, RATE_TIMINGS);
    /* Reading all of y keeps the compiler from dropping the loop as unused work. */
    double sum = 0;
    for (int i = 0; i < DAXPY_N; i++)
        sum += y[i];
    volatile double keep = sum;
    (void)keep;
    bsp_put(0, &mine, rates, (bsp_size_t)((size_t)s * sizeof mine), (bsp_size_t)sizeof mine);
    bsp_sync();
    if (s == 0) {
        double total = 0;
        for (int q = 0; q < P; q++)
            total += rates[q];
        current.rate = total / P;
    }
    free(rates);
}

void probe_spmd(void)
{
    bsp_begin((bsp_pid_t)current.nprocs);
    if (current.kind == RUN_COMM)
        comm(current.job);
    else if (current.kind == RUN_RATE)
        rate();
    else
        current.body(current.arg);
    bsp_end();
}

void probe_measure_comm(probe_job *job)
{
    current.kind = RUN_COMM;
    current.nprocs = job->nprocs;
    current.job = job;
    job->done = 0;
    probe_spmd();
}

double probe_measure_rate(int nprocs, double seconds)
{
    current.kind = RUN_RATE;
    current.nprocs = nprocs;
    current.rate_seconds = seconds;
    probe_spmd();
    return current.rate;
}

void probe_section(int nprocs, void (*body)(void *arg), void *arg)
{
    current.kind = RUN_BODY;
    current.nprocs = nprocs;
    current.body = body;
    current.arg = arg;
    probe_spmd();
}

/* splitmix64: enough randomness to shuffle, without touching rand()'s global state. */
static uint64_t next_random(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

void probe_shuffle(uint64_t *state, size_t *v, size_t n)
{
    for (size_t i = n; i > 1; i--) {
        size_t j = (size_t)(next_random(state) % i), tmp = v[i - 1];
        v[i - 1] = v[j];
        v[j] = tmp;
    }
}

int probe_rounds_most(const probe_rounds *p)
{
    int later = p->rounds > 1 ? (p->max_reps - p->min_reps + p->rounds - 2) / (p->rounds - 1) : 0;
    return later > p->min_reps ? later : p->min_reps;
}

int probe_rounds_next(const probe_rounds *p, int round, int reps, int done, double wall, double now,
                      double *planned)
{
    int more = 0;
    if (round == 0 && p->rounds > 1 && now < p->deadline) {
        /* A first round too quick for the clock: as if it took a microsecond. */
        double fit = floor((double)reps * (p->deadline - now) / fmax(wall, 1e-6));
        double total = fmin(fit, (double)(p->max_reps - done));
        more = total > 0 ? (int)ceil(total / (p->rounds - 1)) : 0;
        *planned = (double)more * (p->rounds - 1) * wall / reps;
    } else if (round > 0 && round + 1 < p->rounds && now + wall < p->deadline) {
        more = reps;
    }
    /* Rounds of equal size may overshoot max_reps: the last takes what is left. */
    return done + more > p->max_reps ? (p->max_reps > done ? p->max_reps - done : 0) : more;
}
