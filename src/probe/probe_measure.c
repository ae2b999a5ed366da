/* probe_measure — the measuring SPMD program (contract in probe_measure.h). */
#define _DEFAULT_SOURCE 1 /* MAP_ANONYMOUS (1: as smpicc's own definition) */
#include "probe/probe_measure.h"

#include "core/core_rate.h"
#include "cost/cost_fit.h"
#include "engine/engine.h"
#include "probe/probe_ccm.h"
#include "probe/probe_levels.h"
#include "probe/probe_pattern.h"
#include "probe/probe_reg.h"

#include <bsp.h>
#include <polybsp.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

/* The bodies a section can run. On MPI the processes other than 0 are programs of
 * their own, where a function's address differs: only the body's index crosses,
 * and its argument exists on process 0 alone (the others get NULL, on every
 * engine, so that the threads engine checks the bodies for MPI too). */
static void comm_body(void *arg);
static void rate_body(void *arg);
static void (*const bodies[])(void *arg) = {comm_body, rate_body, probe_levels_body, probe_ccm_body,
                                            probe_reg_body};
enum { NBODIES = sizeof bodies / sizeof bodies[0] };

/* What the next section does: process 0's. */
static struct {
    int nprocs;
    int body;
    void *arg;
} current;

/* probe_measure_rate's argument. */
typedef struct rate_job {
    double seconds;
    double rate[CORE_OPS_KINDS], fault[2]; /* out: per kind (core_ops.h); fresh, read before */
    double spread[2];                      /* out: the slowest and fastest process's DAXPY */
} rate_job;

static void *alloc_or_abort(size_t nbytes)
{
    void *p = malloc(nbytes ? nbytes : 1);
    if (p == NULL)
        bsp_abort("probe: out of memory (%zu bytes)", nbytes);
    return p;
}

/* One process's part of an h-relation: its messages, from src into dst. */
typedef struct relation {
    probe_prim prim;
    const probe_msg *msgs;
    size_t n;
    const char *src;
    char *dst;
} relation;

/* Issues the messages of one h-relation (a probe_time_supersteps issue). */
static void issue(const void *arg)
{
    const relation *rel = arg;
    for (size_t i = 0; i < rel->n; i++) {
        const probe_msg *m = &rel->msgs[i];
        if (rel->prim == PROBE_PUT)
            bsp_put(m->dest, rel->src + m->src_off, rel->dst, (bsp_size_t)m->dst_off,
                    (bsp_size_t)m->nbytes);
        else
            bsp_hpput(m->dest, rel->src + m->src_off, rel->dst, (bsp_size_t)m->dst_off,
                      (bsp_size_t)m->nbytes);
    }
}

void probe_time_supersteps(int reps, void (*issue)(const void *arg), const void *arg, double *t)
{
    /* The first superstep follows whatever came before (an empty sync, a gather
     * of samples): it sets the pace and is not timed. */
    issue(arg);
    bsp_sync();
    double t0 = bsp_time();
    for (int r = 0; r < reps; r++) {
        issue(arg);
        bsp_sync();
        double t1 = bsp_time();
        t[r] = t1 - t0;
        t0 = t1;
    }
}

/* The patterns' batches; job holds process 0's parameters on every process, out
 * (process 0 only) receives the results. */
static void comm(const probe_job *job, probe_job *out)
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
        relation rel = {c->prim, msgs, probe_messages(c->pattern, P, s, c->h, c->split, msgs), src,
                        dst};
        double start = bsp_time();
        bsp_sync(); /* delivers process 0's stop flag, to everyone at once */
        if (stop)
            break;
        probe_time_supersteps(batch->reps, issue, &rel, mine);
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
            out->samples[at++] = t;
        }
        out->wall[b] = bsp_time() - start;
        out->done = b + 1;
        if (out->tick)
            out->tick(out->ctx);
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

enum { DAXPY_N = CORE_DAXPY_N, RATE_TIMINGS = 5 };
/* The comparison kernel's sorted table (256 KiB: the size of a search tree
 * that stays in a core's L2) and its searches per repetition; the word
 * kernel's gather (256 KiB of words, read through a shuffled index). */
enum { SEARCH_LOG = 16, SEARCH_N = 1 << SEARCH_LOG, SEARCHES = 256, WORDS_N = 32768 };

/* A kernel of one kind of operations: its data, and the seconds iters
 * repetitions take. */
typedef struct kernel {
    double *x, *y;   /* DAXPY */
    int32_t *sorted; /* compare: SEARCH_N ascending keys */
    uint64_t *words; /* word: WORDS_N to read, WORDS_N to write */
    size_t *order;   /* word: a permutation of 0 .. WORDS_N - 1 */
    uint64_t found;  /* read at the end, so that no loop is dropped as unused */
} kernel;
typedef double (*kernel_time)(kernel *k, long iters);

/* DAXPYs y += a*x on vectors of DAXPY_N doubles (2 DAXPY_N flops each),
 * core_daxpy's, which the trace's rate measures too. */
static double daxpy_time(kernel *k, long iters)
{
    double t0 = bsp_time();
    core_daxpy(k->y, k->x, iters);
    return bsp_time() - t0;
}

/* SEARCHES binary searches of pseudo-random keys in the sorted table, each
 * SEARCH_LOG comparisons that decide where the next one looks. */
static double search_time(kernel *k, long iters)
{
    uint32_t key = 2463534242u;
    uint64_t found = 0;
    double t0 = bsp_time();
    for (long it = 0; it < iters; it++)
        for (int s = 0; s < SEARCHES; s++) {
            key ^= key << 13;
            key ^= key >> 17;
            key ^= key << 5;
            int32_t want = (int32_t)(key >> 1);
            size_t lo = 0;
            for (size_t step = SEARCH_N / 2; step > 0; step /= 2)
                if (k->sorted[lo + step] <= want)
                    lo += step;
            found += lo;
        }
    double t = bsp_time() - t0;
    k->found += found;
    return t;
}

/* Gathers of WORDS_N 8-byte words in a shuffled order into a second array, as
 * packing records by destination moves them: a load of an index, of a word
 * and a store each. */
static double words_time(kernel *k, long iters)
{
    uint64_t *from = k->words, *to = k->words + WORDS_N;
    double t0 = bsp_time();
    for (long it = 0; it < iters; it++) {
        for (int i = 0; i < WORDS_N; i++)
            to[i] = from[k->order[i]] + (uint64_t)it;
        __asm__ volatile("" : : "r"(to) : "memory"); /* each pass is kept */
    }
    return bsp_time() - t0;
}

/* Operations per second of a kernel doing ops operations per repetition:
 * doubles the repetitions until one timing lasts share (so that the clock's
 * resolution does not matter), then the median of a few. A clock that
 * computation hardly moves (a simulator told not to charge it:
 * smpi/simulate-computation:no, or a tiny smpi/host-speed) would have the loop
 * double for hours: past max_ops operations in one timing the rate is not
 * measurable: 0 (left out of the machine file); at the cap, an eighth of the
 * share still times well. The caps bound that search's real time too, which
 * the simulator spends with every rank in turn on one core. */
static double kernel_rate(kernel_time time, kernel *k, double ops, double share, double max_ops)
{
    double t;
    long iters = 1;
    while ((t = time(k, iters)) < share && 2 * (double)iters * ops <= max_ops)
        iters *= 2;
    if (t < share / 8)
        return 0;
    double r[RATE_TIMINGS];
    for (int i = 0; i < RATE_TIMINGS; i++)
        r[i] = ops * (double)iters / time(k, iters);
    return cost_median(r, RATE_TIMINGS);
}

enum { FAULT_PAGES = 64, FAULT_TIMINGS = 9 };

/* Seconds per page fault of a first write to each of FAULT_PAGES fresh pages,
 * all processes at once, median of FAULT_TIMINGS; with read_first, to pages
 * that were only read before (calloc'd memory read before data lands in it).
 * Such a read maps the kernel's zero page, and the write must replace it: on
 * threads sharing one address space that interrupts the other cores to flush
 * their TLBs, ten times the cost of a fresh page here (docs/models.md, "Page
 * faults in the sync"). 64 pages, as a sync takes them (a few to tens at a
 * time): with both threads faulting 4 to 64 pages at once a fault on a page
 * read before cost 23-26 µs on this 2-core VM, steadily, while runs of 256
 * pages at once took 12-23 µs, moving from run to run (2026-11-27).
 * 0 when mmap fails (the process still syncs as the others do). */
static double fault_seconds(int read_first)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE), len = FAULT_PAGES * page;
    double t[FAULT_TIMINGS];
    int failed = 0;
    for (int k = 0; k < FAULT_TIMINGS; k++) {
        char *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        char sum = 0;
        failed |= m == MAP_FAILED;
        for (size_t i = 0; i < len && read_first && !failed; i += page)
            sum += ((volatile char *)m)[i];
        bsp_sync(); /* every process faults at once, as in an exchange */
        double t0 = bsp_time();
        for (size_t i = 0; i < len && !failed; i += page)
            ((volatile char *)m)[i] = (char)(sum + 1);
        t[k] = (bsp_time() - t0) / FAULT_PAGES;
        if (m != MAP_FAILED)
            munmap(m, len);
    }
    return failed ? 0 : cost_median(t, FAULT_TIMINGS);
}

static void rate(double seconds, rate_job *out)
{
    int P = (int)bsp_nprocs(), s = (int)bsp_pid();
    /* rates[k P + q]: process q's rate of kind k (core_ops.h), then for k =
     * CORE_OPS_KINDS + f its seconds per page fault, f = 0 fresh, 1 read before. */
    enum { MEASURES = CORE_OPS_KINDS + 2 };
    double x[DAXPY_N], y[DAXPY_N], *rates = alloc_or_abort(MEASURES * (size_t)P * sizeof *rates);
    kernel k = {.x = x,
                .y = y,
                .sorted = alloc_or_abort(SEARCH_N * sizeof *k.sorted),
                .words = alloc_or_abort(2 * WORDS_N * sizeof *k.words),
                .order = alloc_or_abort(WORDS_N * sizeof *k.order)};
    for (int i = 0; i < DAXPY_N; i++) {
        x[i] = 1.0 + i;
        y[i] = 0.0;
    }
    for (int i = 0; i < SEARCH_N; i++) /* ascending over all of int32_t's positive half */
        k.sorted[i] = (int32_t)((uint32_t)i << (31 - SEARCH_LOG));
    for (int i = 0; i < 2 * WORDS_N; i++)
        k.words[i] = (uint64_t)i;
    uint64_t seed = 42;
    for (size_t i = 0; i < WORDS_N; i++)
        k.order[i] = i;
    probe_shuffle(&seed, k.order, WORDS_N);
    bsp_push_reg(rates, (bsp_size_t)(MEASURES * (size_t)P * sizeof *rates));
    bsp_sync();
    /* The flop rate as before, with most of the time; the other kinds share a
     * third as much each. The caps: 2^23 DAXPYs (1.7e10 flops fill the share of
     * a 100 Gflop/s core), 2^28 of the others (a third of the share of a core
     * doing 3e10 a second; unoptimised, on a simulator that charges no
     * computation, a few seconds). */
    double share = seconds / (RATE_TIMINGS + 2);
    const kernel_time times[CORE_OPS_KINDS] = {daxpy_time, search_time, words_time};
    const double ops[CORE_OPS_KINDS] = {2.0 * DAXPY_N, (double)SEARCHES * SEARCH_LOG, WORDS_N};
    for (int kind = 0; kind < CORE_OPS_KINDS; kind++) {
        double mine = kernel_rate(times[kind], &k, ops[kind], kind == 0 ? share : share / 3,
                                  kind == 0 ? 2.0 * DAXPY_N * (1L << 23) : (double)(1L << 28));
        /* On a simulated host a DAXPY measures its speed, through two timings
         * of this machine's CPU (smpi/host-speed's at launch, the kernel's
         * now) that its other jobs move apart (5.6e9 against 1e10 on a loaded
         * day): the host's own speed is what a trace there records, and what
         * predict scales work by (core_rate.h). */
        if (kind == 0 && mine > 0 && strcmp(bsp_engine_name(), "smpi") == 0)
            mine = core_rate_here();
        bsp_put(0, &mine, rates, (bsp_size_t)(((size_t)kind * P + s) * sizeof mine),
                (bsp_size_t)sizeof mine);
    }
    /* Reading all of y keeps the compiler from dropping the loop as unused work. */
    double sum = (double)(k.found % 2);
    for (int i = 0; i < DAXPY_N; i++)
        sum += y[i];
    volatile double keep = sum;
    (void)keep;
    for (int f = 0; f < 2; f++) {
        double fault = fault_seconds(f);
        bsp_put(0, &fault, rates,
                (bsp_size_t)(((size_t)(CORE_OPS_KINDS + f) * P + s) * sizeof fault),
                (bsp_size_t)sizeof fault);
    }
    bsp_sync();
    if (s == 0) {
        for (int m = 0; m < MEASURES; m++) {
            double sum_m = 0;
            for (int q = 0; q < P; q++)
                sum_m += rates[m * P + q];
            *(m < CORE_OPS_KINDS ? &out->rate[m] : &out->fault[m - CORE_OPS_KINDS]) = sum_m / P;
        }
        out->spread[0] = out->spread[1] = rates[0];
        for (int q = 1; q < P; q++) {
            out->spread[0] = fmin(out->spread[0], rates[q]);
            out->spread[1] = fmax(out->spread[1], rates[q]);
        }
    }
    free(k.sorted);
    free(k.words);
    free(k.order);
    free(rates);
}

void probe_share(void *data, size_t nbytes)
{
    bsp_push_reg(data, (bsp_size_t)nbytes);
    bsp_sync();
    if (bsp_pid() == 0)
        for (int q = 1; q < (int)bsp_nprocs(); q++)
            bsp_put((bsp_pid_t)q, data, data, 0, (bsp_size_t)nbytes);
    bsp_sync();
    bsp_pop_reg(data);
}

void probe_share_arg(void *copy, const void *arg, size_t nbytes)
{
    if (arg)
        memcpy(copy, arg, nbytes);
    else
        memset(copy, 0, nbytes);
    probe_share(copy, nbytes);
}

/* A job's arrays: process 0's own, or a copy of them on the others. */
static void *shared_array(const void *mine, size_t nbytes)
{
    void *a = bsp_pid() == 0 ? (void *)mine : alloc_or_abort(nbytes);
    probe_share(a, nbytes);
    return a;
}

static void comm_body(void *arg)
{
    probe_job *out = arg, job;
    probe_share_arg(&job, out, sizeof job);
    job.batches = shared_array(job.batches, job.nbatches * sizeof *job.batches);
    size_t ncells = 0;
    for (size_t b = 0; b < job.nbatches; b++)
        ncells = job.batches[b].cell >= ncells ? job.batches[b].cell + 1 : ncells;
    job.cells = shared_array(job.cells, ncells * sizeof *job.cells);
    comm(&job, out);
    if (!out) {
        free((void *)job.batches);
        free((void *)job.cells);
    }
}

static void rate_body(void *arg)
{
    rate_job *out = arg, job;
    probe_share_arg(&job, out, sizeof job);
    rate(job.seconds, out);
}

/* The start samples of each P (probe_start_median), in the order seen. */
enum { START_PROCS = 32, START_SAMPLES = 256 };
static struct {
    int procs;
    size_t n;
    double s[START_SAMPLES];
} starts[START_PROCS];

static void note_start(int nprocs, double seconds)
{
    for (int k = 0; k < START_PROCS; k++)
        if (starts[k].procs == nprocs || starts[k].procs == 0) {
            starts[k].procs = nprocs;
            if (starts[k].n < START_SAMPLES)
                starts[k].s[starts[k].n++] = seconds;
            return;
        }
}

double probe_start_median(int nprocs)
{
    for (int k = 0; k < START_PROCS && starts[k].procs != 0; k++)
        if (starts[k].procs == nprocs) {
            double v[START_SAMPLES];
            memcpy(v, starts[k].s, starts[k].n * sizeof v[0]);
            return cost_median(v, starts[k].n);
        }
    return 0;
}

/* acc = max(acc, in) over doubles; memcpy because collective buffers need not
 * be aligned for doubles. */
void probe_max_doubles(void *acc, const void *in, size_t nbytes)
{
    for (size_t at = 0; at + sizeof(double) <= nbytes; at += sizeof(double)) {
        double a, b;
        memcpy(&a, (char *)acc + at, sizeof a);
        memcpy(&b, (const char *)in + at, sizeof b);
        if (b > a)
            memcpy((char *)acc + at, &b, sizeof b);
    }
}

void probe_spmd(void)
{
    bsp_begin((bsp_pid_t)current.nprocs);
    /* The start as a trace's REAL holds it: on the run's clock (bsp_time,
     * which REAL counts on), from the earliest process's start to the end of
     * the first superstep, less an empty superstep's own time. What the
     * engine does before its clock starts (MPI's communicator, the threads'
     * placement) is in no REAL, so no model charges it. */
    double began = bsp_time();
    bsp_sync();
    double first = bsp_time();
    bsp_sync();
    double empty = bsp_time() - first, late = -began, earliest;
    /* The earliest start is the largest of the negated ones. */
    bsp_reduce(0, &late, &earliest, sizeof late, probe_max_doubles);
    if (bsp_pid() == 0)
        note_start((int)bsp_nprocs(), fmax(0, first + earliest - empty));
    int body = current.body;
    probe_share(&body, sizeof body);
    /* A simulator charges the rate's kernels, which it times, and nothing of
     * the sections that time communication: there the probe's bookkeeping
     * between calls, timed on this machine, moved a quick probe's l on
     * torus-8x8 from 25 to 66 us between two runs (0 % apart without it). */
    eng_charge_program(bodies[body] == rate_body);
    bodies[body](bsp_pid() == 0 ? current.arg : NULL);
    bsp_end();
}

/* Runs bodies[body] on nprocs processes from this thread (process 0). */
static void run_section(int nprocs, int body, void *arg)
{
    current.nprocs = nprocs;
    current.body = body;
    current.arg = arg;
    probe_spmd();
}

void probe_measure_comm(probe_job *job)
{
    job->done = 0;
    run_section(job->nprocs, 0, job);
}

void probe_measure_rate(int nprocs, double seconds, double rate[CORE_OPS_KINDS], double fault[2],
                        double spread[2])
{
    rate_job r = {.seconds = seconds};
    run_section(nprocs, 1, &r);
    memcpy(rate, r.rate, sizeof r.rate);
    memcpy(fault, r.fault, sizeof r.fault);
    memcpy(spread, r.spread, sizeof r.spread);
}

void probe_section(int nprocs, void (*body)(void *arg), void *arg)
{
    int k = 0;
    while (k < NBODIES && bodies[k] != body)
        k++;
    if (k == NBODIES)
        bsp_abort("probe: a section body that is not in probe_measure.c's table");
    run_section(nprocs, k, arg);
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
