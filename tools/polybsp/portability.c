/* portability.c — `polybsp portability`: which cost model to trust on this
 * machine, measured as paper 002 (section 2) defines it.
 *
 * Contract: runs a built-in suite of families of ρ-equivalent programs (each
 * family one problem, its programs alternative ways to solve it) on P processes
 * of this program's engine. Each program runs --repeats times, each time in its
 * own SPMD section: `loops` executions to warm up, then `loops` traced; every trace
 * gives REAL (cost_predict COST_REAL) and each model's prediction (cost_predict
 * on the machine file), and the medians over the repeats are the program's
 * T' and T. cost_portability_estimate then gives per model η̂ (within families
 * and formula (1)), δ̂, the fastest-variant picks and the worst loss. Output:
 * a table (or JSON) on stdout, JSON to -o FILE, one progress line per program
 * on stderr. Without --machine, a short probe at P calibrates first (said on
 * stderr). Bad usage or an unreadable machine file: one line, status 2; a run
 * that fails: one line, status 1. Traces (and the probe's machine file) go to a
 * temporary directory, removed at the end. The same file makes
 * polybsp-portability-mpi (portability_mpi.c), this command on the MPI engine,
 * which `--engine mpi` starts under mpiexec on P ranks once the options are
 * checked; there rank 0 runs the command and hands each program to the others.
 */
#define _DEFAULT_SOURCE /* mkdtemp */
#include "tool.h"

#include "cost/cost_json.h"
#include "cost/cost_machine.h"
#include "cost/cost_model.h"
#include "cost/cost_portability.h"
#include "cost/cost_trace.h"
#include "fft_bsp.h"
#include "fft_dc.h"
#include "fft_util.h"
#include "probe/probe.h"
#include "probe/probe_measure.h"
#include "probe/probe_pattern.h"

#include <bsp.h>
#include <polybsp.h>

#include <errno.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

const char cmd_portability_help[] =
    "usage: polybsp portability [--machine FILE] [-p P] [--repeats R] [--quick]\n"
    "                           [--engine ENGINE] [--format table|json] [-o FILE]\n"
    "\n"
    "Which cost model to trust on this machine. Runs a built-in suite of families of\n"
    "equivalent programs (the same problem solved in different ways: FFT divide and\n"
    "conquer or four-step; broadcast DIRECT, BINOMIAL, TWOPHASE or ROOTP; each of the\n"
    "five h-relation patterns in one superstep, with bsp_hpput, in 8 pieces or in two\n"
    "supersteps; the inner product's sum all-to-all, gathered and broadcast, or with\n"
    "bsp_allreduce; an unbalanced relation direct or in two balanced phases), traces\n"
    "each program, predicts it with every model and compares with its real time.\n"
    "Per model it prints paper 002's inverse effectiveness eta (formula 1, and\n"
    "within families) with the pair of programs that attains it, the distance\n"
    "delta, how often the model picked the fastest program of a family and how much\n"
    "slower its choice can be.\n"
    "\n"
    "options:\n"
    "  --machine FILE     the machine file of `polybsp probe` (default: a short probe\n"
    "                     at P runs first)\n"
    "  -p, --procs P      processes, a power of two from 2 to 64 (default 2)\n"
    "  --repeats R        runs of every program, medians taken (default 11, at most\n"
    "                     1000)\n"
    "  --quick            small sizes, 3 repeats, a tiny probe: for tests\n"
    "  --engine ENGINE    threads (the default), or mpi when built with MPI: runs\n"
    "                     polybsp-portability-mpi under mpiexec on P ranks; needs\n"
    "                     --machine (from `polybsp probe --engine mpi`)\n"
    "  --format FORMAT    table (default) or json on stdout\n"
    "  -o, --output FILE  also write the JSON to FILE\n"
    "  -h, --help         show this help\n"
    "\n"
    "docs/models.md (\"Which model to trust\") explains the measures; docs/tool.md the\n"
    "output. Bad usage exits with status 2.\n";

/* ---- the suite ---- */

typedef enum { FAM_FFT, FAM_BCAST, FAM_PATTERN, FAM_INPROD, FAM_IRREGULAR, NKINDS } family_kind;

/* The programs of each kind of family: their variant names, in the order the
 * variant codes of the SPMD functions below use. */
static const char *const variants_fft[] = {"dc", "four-step"};
static const char *const variants_bcast[] = {"DIRECT", "BINOMIAL", "TWOPHASE", "ROOTP"};
static const bsp_bcast_alg bcast_algs[] = {BSP_BCAST_DIRECT, BSP_BCAST_BINOMIAL, BSP_BCAST_TWOPHASE,
                                           BSP_BCAST_ROOTP};
static const char *const variants_pattern[] = {"put", "hpput", "put in 8 pieces", "two supersteps"};
static const char *const variants_inprod[] = {"all-to-all", "gather+bcast", "allreduce"};
static const char *const variants_irregular[] = {"direct", "two-phase"};
enum { PATTERN_PIECES = 8 };

static const struct {
    const char *name;
    const char *const *variants;
    size_t nvariants;
} kinds[NKINDS] = {{"fft", variants_fft, 2},
                   {"bcast", variants_bcast, 4},
                   {"pattern", variants_pattern, 4},
                   {"inprod", variants_inprod, 3},
                   {"irregular", variants_irregular, 2}};

/* Sizes: FFT elements, broadcast bytes, h-relation bytes (even), inner-product
 * elements; the patterns' are paper 000's sizes. The quick ones keep a test short. */
static const long sizes_fft[] = {1L << 14, 1L << 16, 1L << 18}, quick_fft[] = {1L << 10, 1L << 12};
static const long sizes_bcast[] = {64, 16384, 1048576}, quick_bcast[] = {64, 4096};
static const long sizes_pattern[] = {6720, 107520, 1720320}, quick_pattern[] = {512, 6720};
static const long sizes_inprod[] = {10000, 1000000}, quick_inprod[] = {1000};
static const long sizes_irregular[] = {65536, 1048576}, quick_irregular[] = {8192};

enum { MAX_FAMILIES = 32, MAX_PROGRAMS = 128, MAX_REPEATS = 1000, MAX_LOOPS = 1000, PILOTS = 5 };
/* How long a traced run should last (--quick: a tenth). */
#define TARGET_SECONDS 1e-3

typedef struct family {
    family_kind kind;
    cost_pattern pattern; /* FAM_PATTERN */
    long size;
    int loops; /* executions per traced run */
    char name[48];
    size_t first, n; /* its programs */
} family;

/* The models compared, with predict's labels. */
static const struct {
    cost_model_kind kind;
    const char *label;
} models[] = {{COST_BSP, "BSP"},
              {COST_BSPSTAR, "BSP*"},
              {COST_EBSP, "EBSP"},
              {COST_DBSP, "D-BSP"},
              {COST_CCM, "CCM"}};
enum { NMODELS = sizeof models / sizeof models[0] };

typedef struct suite {
    size_t nfamilies, nprograms;
    family families[MAX_FAMILIES];
    size_t start[MAX_FAMILIES + 1];
    size_t family_of[MAX_PROGRAMS];
    int variant[MAX_PROGRAMS];
    double real[MAX_PROGRAMS], model[NMODELS][MAX_PROGRAMS]; /* medians */
    double real_runs[MAX_PROGRAMS][MAX_REPEATS];
    char unavailable[NMODELS][1024]; /* the first reason a model could not predict */
    cost_portability est[NMODELS];
} suite;

static void add_family(suite *s, family_kind kind, cost_pattern pattern, long size)
{
    family *f = &s->families[s->nfamilies];
    *f = (family){.kind = kind,
                  .pattern = pattern,
                  .size = size,
                  .first = s->nprograms,
                  .n = kinds[kind].nvariants};
    if (kind == FAM_PATTERN)
        snprintf(f->name, sizeof f->name, "%s h=%ld", cost_pattern_name(pattern), size);
    else if (kind == FAM_BCAST || kind == FAM_IRREGULAR)
        snprintf(f->name, sizeof f->name, "%s %ld B", kinds[kind].name, size);
    else
        snprintf(f->name, sizeof f->name, "%s n=%ld", kinds[kind].name, size);
    for (size_t v = 0; v < f->n; v++) {
        s->family_of[s->nprograms] = s->nfamilies;
        s->variant[s->nprograms++] = (int)v;
    }
    s->start[++s->nfamilies] = s->nprograms;
}

/* The suite at P processes; an FFT size that one of the two FFTs cannot do at P
 * (the four-step one needs P^2 to divide n) is left out. */
static void build_suite(suite *s, int quick, int procs)
{
    char why[128];
#define SIZES(name) (quick ? quick_##name : sizes_##name)
#define NSIZES(name)                                                                               \
    (quick ? sizeof quick_##name / sizeof(long) : sizeof sizes_##name / sizeof(long))
    s->start[0] = 0;
    for (size_t i = 0; i < NSIZES(fft); i++)
        if (fft_dc_supported(SIZES(fft)[i], procs, why, sizeof why) &&
            fft_bsp_supported(SIZES(fft)[i], procs, why, sizeof why))
            add_family(s, FAM_FFT, 0, SIZES(fft)[i]);
    for (size_t i = 0; i < NSIZES(bcast); i++)
        add_family(s, FAM_BCAST, 0, SIZES(bcast)[i]);
    for (int p = 0; p < COST_NPATTERNS; p++)
        for (size_t i = 0; i < NSIZES(pattern); i++)
            add_family(s, FAM_PATTERN, (cost_pattern)p, SIZES(pattern)[i]);
    for (size_t i = 0; i < NSIZES(inprod); i++)
        add_family(s, FAM_INPROD, 0, SIZES(inprod)[i]);
    for (size_t i = 0; i < NSIZES(irregular); i++)
        add_family(s, FAM_IRREGULAR, 0, SIZES(irregular)[i]);
#undef SIZES
#undef NSIZES
}

static const char *variant_name(const suite *s, size_t i)
{
    return kinds[s->families[s->family_of[i]].kind].variants[s->variant[i]];
}

/* ---- the programs ----
 * Each runs in its own SPMD section: set up, run `loops` times to warm caches
 * and buffers, then `loops` times traced between bsp_trace_begin and
 * bsp_trace_end. A family's programs share one loop count, so that each
 * traced part lasts about TARGET_SECONDS: a program of microseconds timed once
 * would measure how fast the threads wake rather than the program. The
 * program is handed over in a global (the threads engine shares memory). */

static struct job {
    int procs;
    family_kind kind;
    cost_pattern pattern;
    long size;
    int variant, loops;
} job;

/* Runs op(state) loops times, then loops times traced. op ends with a sync. */
static void warm_then_traced(void (*op)(void *), void *state)
{
    for (int i = 0; i < job.loops; i++)
        op(state);
    bsp_sync();
    bsp_trace_begin();
    for (int i = 0; i < job.loops; i++)
        op(state);
    bsp_trace_end();
}

struct fft_state {
    fft_dc *dc;
    fft_bsp *fourstep;
};

static void fft_op(void *state)
{
    const struct fft_state *st = state;
    if (st->dc)
        fft_dc_execute(st->dc);
    else
        fft_bsp_execute(st->fourstep);
}

/* Common-common input for dc (every process the whole vector), cyclic for the
 * four-step FFT (process s the elements s, s+P, ...): the same transform. */
static void run_fft(void)
{
    int s = bsp_pid(), p = bsp_nprocs();
    long n = job.size, nlocal = job.variant == 0 ? n : n / p;
    fftw_complex *x = fft_alloc((size_t)nlocal, "input", 1);
    fftw_complex *y = fft_alloc((size_t)nlocal, "output", 1);
    struct fft_state st = {NULL, NULL};
    if (job.variant == 0)
        st.dc = fft_dc_create(n, FFT_FORWARD, FFTW_ESTIMATE, x, y);
    else
        st.fourstep = fft_bsp_create(n, FFT_FORWARD, FFTW_ESTIMATE, x, y);
    for (long t = 0; t < nlocal; t++)
        fft_input(1, job.variant == 0 ? t : t * p + s, x[t]);
    bsp_sync();
    warm_then_traced(fft_op, &st);
    if (st.dc)
        fft_dc_destroy(st.dc);
    else
        fft_bsp_destroy(st.fourstep);
    fftw_free(x);
    fftw_free(y);
}

static void bcast_op(void *buf)
{
    bsp_bcast_with(bcast_algs[job.variant], 0, buf, (size_t)job.size);
}

static void run_bcast(void)
{
    unsigned char *buf = malloc((size_t)job.size);
    if (!buf)
        bsp_abort("portability: out of memory for a broadcast of %ld bytes", job.size);
    for (long i = 0; i < job.size; i++)
        buf[i] = (unsigned char)(bsp_pid() == 0 ? i : 0);
    warm_then_traced(bcast_op, buf);
    for (long i = 0; i < job.size; i++)
        if (buf[i] != (unsigned char)i)
            bsp_abort("portability: broadcast %s delivered a wrong byte %ld",
                      variants_bcast[job.variant], i);
    free(buf);
}

struct pattern_state {
    char *src, *dst;
    probe_msg *msgs;
};

/* The h-relation of the pattern: in one superstep with bsp_put (variant 0),
 * with bsp_hpput (1), each message cut in PATTERN_PIECES puts (2), or as two
 * h/2-relations of the same pattern in two supersteps, each filling its half
 * of the buffers (3). */
static void pattern_op(void *state)
{
    const struct pattern_state *st = state;
    int stages = job.variant == 3 ? 2 : 1;
    int split = job.variant == 2 ? PATTERN_PIECES : 1;
    long part = job.size / stages;
    for (int stage = 0; stage < stages; stage++) {
        size_t n = probe_messages(job.pattern, bsp_nprocs(), bsp_pid(), part, split, st->msgs);
        long at = stage * part;
        for (size_t k = 0; k < n; k++) {
            const probe_msg *m = &st->msgs[k];
            if (job.variant == 1)
                bsp_hpput(m->dest, st->src + at + m->src_off, st->dst, (int)(at + m->dst_off),
                          (int)m->nbytes);
            else
                bsp_put(m->dest, st->src + at + m->src_off, st->dst, (int)(at + m->dst_off),
                        (int)m->nbytes);
        }
        bsp_sync();
    }
}

static void run_pattern(void)
{
    size_t h = (size_t)job.size;
    struct pattern_state st = {
        malloc(h), malloc(h),
        malloc(probe_max_messages(bsp_nprocs(), PATTERN_PIECES) * sizeof(probe_msg))};
    if (!st.src || !st.dst || !st.msgs)
        bsp_abort("portability: out of memory for an h-relation of %ld bytes", job.size);
    memset(st.src, bsp_pid() + 1, h);
    bsp_push_reg(st.dst, (int)h);
    bsp_sync();
    warm_then_traced(pattern_op, &st);
    bsp_pop_reg(st.dst);
    bsp_sync();
    free(st.src);
    free(st.dst);
    free(st.msgs);
}

struct inprod_state {
    double *x, *partial, alpha;
    long nlocal;
};

static void add_doubles(void *acc, const void *in, size_t nbytes)
{
    double *a = acc;
    const double *b = in;
    for (size_t i = 0; i < nbytes / sizeof *a; i++)
        a[i] += b[i];
}

/* x.x of the cyclically distributed x: the local sums, then their total on
 * every process put to all (variant 0), gathered on 0 and put back (1), or by
 * bsp_allreduce (2). */
static void inprod_op(void *state)
{
    struct inprod_state *st = state;
    int s = bsp_pid(), p = bsp_nprocs();
    double mine = 0;
    for (long i = 0; i < st->nlocal; i++)
        mine += st->x[i] * st->x[i];
    if (job.variant == 2) {
        bsp_allreduce(&mine, &st->alpha, sizeof mine, add_doubles);
        return;
    }
    for (int t = 0; t < p; t++)
        if (job.variant == 0 || t == 0)
            bsp_put(t, &mine, st->partial, s * (int)sizeof mine, sizeof mine);
    bsp_sync();
    st->alpha = 0;
    if (job.variant == 0 || s == 0)
        for (int t = 0; t < p; t++)
            st->alpha += st->partial[t];
    if (job.variant == 1) {
        if (s == 0)
            for (int t = 1; t < p; t++)
                bsp_put(t, &st->alpha, st->partial, 0, sizeof st->alpha);
        bsp_sync();
        if (s != 0)
            st->alpha = st->partial[0];
    }
}

static void run_inprod(void)
{
    int s = bsp_pid(), p = bsp_nprocs();
    struct inprod_state st = {.nlocal = (job.size + p - s - 1) / p};
    st.x = malloc((size_t)(st.nlocal > 0 ? st.nlocal : 1) * sizeof *st.x);
    st.partial = malloc((size_t)p * sizeof *st.partial);
    if (!st.x || !st.partial)
        bsp_abort("portability: out of memory for an inner product of %ld", job.size);
    for (long i = 0; i < st.nlocal; i++)
        st.x[i] = (double)(i * p + s + 1);
    bsp_push_reg(st.partial, p * (int)sizeof *st.partial);
    bsp_sync();
    warm_then_traced(inprod_op, &st);
    /* Every program of the family computes the same x.x = n(n+1)(2n+1)/6, exact
     * to within n roundings. */
    double n = (double)job.size, exact = n * (n + 1) * (2 * n + 1) / 6;
    if (!(fabs(st.alpha - exact) <= n * DBL_EPSILON * exact))
        bsp_abort("portability: inner product %s computed %.17g, not %.17g",
                  variants_inprod[job.variant], st.alpha, exact);
    bsp_pop_reg(st.partial);
    bsp_sync();
    free(st.x);
    free(st.partial);
}

/* An unbalanced relation of about v bytes in all, the same on every process:
 * process 0 sends half of v, spread evenly; every other process sends each of
 * the others a pseudo-random share of at most v / (P (P - 1)) bytes. The
 * direct program puts every message in one superstep (variant 0); the
 * two-phase one (1) balances it as routing through intermediates does: piece
 * k of every message (its k-th P-th) goes to process k first, which forwards
 * it in a second superstep. A piece that stays on its process is copied. */
struct irregular_state {
    int p;
    long *b;     /* b[s p + d]: bytes from s to d */
    long *stage; /* stage[(s p + d) p + k]: piece k of message (s, d) in k's staging buffer */
    char *src, *dst, *staging;
};

static long piece_at(long bytes, int p, int k) { return bytes * k / p; }
static long piece_len(long bytes, int p, int k)
{
    return piece_at(bytes, p, k + 1) - piece_at(bytes, p, k);
}

/* Where message (s, d) starts in s's source and in d's destination buffer. */
static long src_offset(const struct irregular_state *st, int s, int d)
{
    long at = 0;
    for (int e = 0; e < d; e++)
        at += st->b[s * st->p + e];
    return at;
}

static long dst_offset(const struct irregular_state *st, int s, int d)
{
    long at = 0;
    for (int r = 0; r < s; r++)
        at += st->b[r * st->p + d];
    return at;
}

static void irregular_op(void *state)
{
    const struct irregular_state *st = state;
    int p = st->p, me = bsp_pid();
    for (int d = 0; d < p; d++) {
        long bytes = st->b[me * p + d], from = src_offset(st, me, d);
        if (bytes == 0)
            continue;
        if (job.variant == 0) {
            bsp_put(d, st->src + from, st->dst, (int)dst_offset(st, me, d), (int)bytes);
            continue;
        }
        for (int k = 0; k < p; k++) {
            long len = piece_len(bytes, p, k), at = st->stage[(me * p + d) * p + k];
            const char *piece = st->src + from + piece_at(bytes, p, k);
            if (k == me)
                memcpy(st->staging + at, piece, (size_t)len);
            else if (len > 0)
                bsp_put(k, piece, st->staging, (int)at, (int)len);
        }
    }
    bsp_sync();
    if (job.variant == 0)
        return;
    for (int s = 0; s < p; s++)
        for (int d = 0; d < p; d++) {
            long bytes = st->b[s * p + d], len = piece_len(bytes, p, me);
            const char *piece = st->staging + st->stage[(s * p + d) * p + me];
            long to = dst_offset(st, s, d) + piece_at(bytes, p, me);
            if (len > 0 && d == me)
                memcpy(st->dst + to, piece, (size_t)len);
            else if (len > 0)
                bsp_put(d, piece, st->dst, (int)to, (int)len);
        }
    bsp_sync();
}

static void run_irregular(void)
{
    int p = bsp_nprocs(), me = bsp_pid();
    struct irregular_state st = {.p = p};
    st.b = calloc((size_t)p * (size_t)p, sizeof *st.b);
    st.stage = calloc((size_t)p * (size_t)p * (size_t)p, sizeof *st.stage);
    if (!st.b || !st.stage)
        bsp_abort("portability: out of memory for an irregular relation on %d processes", p);
    unsigned rnd = 2463534242u; /* xorshift, the same sequence on every process */
    long most = job.size / ((long)p * (p - 1));
    for (int s = 0; s < p; s++)
        for (int d = 0; d < p; d++) {
            rnd ^= rnd << 13;
            rnd ^= rnd >> 17;
            rnd ^= rnd << 5;
            if (s != d)
                st.b[s * p + d] = s == 0 ? job.size / (2L * (p - 1)) : (long)(rnd % (most + 1));
        }
    long *fill = calloc((size_t)p, sizeof *fill); /* staging bytes per process so far */
    if (!fill)
        bsp_abort("portability: out of memory");
    for (int sd = 0; sd < p * p; sd++)
        for (int k = 0; k < p; k++) {
            st.stage[sd * p + k] = fill[k];
            fill[k] += piece_len(st.b[sd], p, k);
        }
    long out = src_offset(&st, me, p), in = dst_offset(&st, p, me);
    st.src = malloc((size_t)out + 1);
    st.dst = malloc((size_t)in + 1);
    st.staging = malloc((size_t)fill[me] + 1);
    if (!st.src || !st.dst || !st.staging)
        bsp_abort("portability: out of memory for an irregular relation of %ld bytes", job.size);
    memset(st.src, me + 1, (size_t)out);
    bsp_push_reg(st.dst, (int)in);
    bsp_push_reg(st.staging, (int)fill[me]);
    bsp_sync();
    warm_then_traced(irregular_op, &st);
    for (int from = 0; from < p; from++) /* what s sends is bytes of value s + 1 */
        for (long k = 0; k < st.b[from * p + me]; k++)
            if (st.dst[dst_offset(&st, from, me) + k] != (char)(from + 1))
                bsp_abort("portability: irregular %s delivered a wrong byte from %d",
                          variants_irregular[job.variant], from);
    bsp_pop_reg(st.staging);
    bsp_pop_reg(st.dst);
    bsp_sync();
    free(fill);
    free(st.b);
    free(st.stage);
    free(st.src);
    free(st.dst);
    free(st.staging);
}

/* On the MPI engine only rank 0 runs the command (polybsp-portability-mpi): it
 * hands the program to the other processes, which have their own memory. */
static void share_job(void)
{
    struct job mine = job;
    bsp_push_reg(&mine, sizeof mine);
    bsp_sync();
    if (bsp_pid() == 0)
        for (int t = 1; t < bsp_nprocs(); t++)
            bsp_put(t, &job, &mine, 0, sizeof mine);
    bsp_sync();
    bsp_pop_reg(&mine);
    job = mine;
}

void portability_spmd(void)
{
    bsp_begin(job.procs);
    if (strcmp(bsp_engine_name(), "mpi") == 0)
        share_job();
    static void (*const run[NKINDS])(void) = {run_fft, run_bcast, run_pattern, run_inprod,
                                              run_irregular};
    run[job.kind]();
    bsp_end();
}

/* ---- measuring ---- */

typedef struct options {
    const char *machine, *output;
    const char *engine;
    int procs, repeats, quick, json;
} options;

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median of v[0..n) (NaN when one of them is: a model that could not
 * predict one run has no median); sorts v. */
static double median(double *v, int n)
{
    for (int i = 0; i < n; i++)
        if (isnan(v[i]))
            return NAN;
    qsort(v, (size_t)n, sizeof *v, compare_doubles);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* One traced run of program i in dir (the working directory): real and each
 * model's prediction of it. Returns 0, or 1 after one line on stderr. */
static int run_once(suite *s, size_t i, const cost_machine *m, const char *machine_name,
                    double *real, double model[NMODELS])
{
    const family *f = &s->families[s->family_of[i]];
    job.kind = f->kind;
    job.pattern = f->pattern;
    job.size = f->size;
    job.variant = s->variant[i];
    job.loops = f->loops;
    bsp_init(portability_spmd, 0, NULL);
    portability_spmd();
    cost_trace t;
    char err[4096 + 512];
    if (cost_trace_read("polybsp-trace.jsonl", &t, err, sizeof err) != 0) {
        fprintf(stderr, "polybsp: portability: %s\n", err);
        return 1;
    }
    unlink("polybsp-trace.jsonl");
    *real = cost_predict(COST_REAL, &t, m, 0, NULL);
    for (int k = 0; k < NMODELS; k++) {
        char why[512];
        if (cost_model_check(models[k].kind, &t, m, 0, "the trace", machine_name, why,
                             sizeof why) != 0) {
            model[k] = NAN;
            if (!s->unavailable[k][0])
                snprintf(s->unavailable[k], sizeof s->unavailable[k], "%s %s: %s", f->name,
                         variant_name(s, i), why);
            continue;
        }
        model[k] = cost_predict(models[k].kind, &t, m, 0, NULL);
    }
    cost_trace_free(&t);
    return 0;
}

static int measure(suite *s, const options *o, const cost_machine *m, const char *machine_name)
{
    double model_runs[NMODELS][MAX_REPEATS];
    double target = o->quick ? TARGET_SECONDS / 10 : TARGET_SECONDS;
    for (size_t i = 0; i < s->nprograms; i++) {
        double model[NMODELS], pilot[PILOTS];
        family *f = &s->families[s->family_of[i]];
        if (i == f->first) { /* the loop count, from the median of the first program's pilots */
            f->loops = 1;
            for (int r = 0; r < PILOTS; r++)
                if (run_once(s, i, m, machine_name, &pilot[r], model) != 0)
                    return 1;
            double once = median(pilot, PILOTS);
            f->loops = once > 0 ? (int)fmin(MAX_LOOPS, ceil(target / once)) : 1;
        }
        for (int r = 0; r < o->repeats; r++) {
            if (run_once(s, i, m, machine_name, &s->real_runs[i][r], model) != 0)
                return 1;
            for (int k = 0; k < NMODELS; k++)
                model_runs[k][r] = model[k];
        }
        double runs[MAX_REPEATS];
        memcpy(runs, s->real_runs[i], (size_t)o->repeats * sizeof *runs);
        s->real[i] = median(runs, o->repeats);
        for (int k = 0; k < NMODELS; k++)
            s->model[k][i] = median(model_runs[k], o->repeats);
        fprintf(stderr,
                "polybsp portability: [%zu/%zu] %s, %s, %d time%s: real %.3e s (BSP %.3e s)\n",
                i + 1, s->nprograms, f->name, variant_name(s, i), f->loops,
                f->loops == 1 ? "" : "s", s->real[i], s->model[0][i]);
    }
    for (int k = 0; k < NMODELS; k++)
        cost_portability_estimate(s->model[k], s->real, s->start, s->nfamilies, &s->est[k]);
    return 0;
}

/* ---- output ---- */

/* "family: variant" of program i, or "-" for none. */
static const char *program_name(const suite *s, long i, char *buf, size_t size)
{
    if (i < 0)
        return "-";
    snprintf(buf, size, "%s: %s", s->families[s->family_of[i]].name, variant_name(s, (size_t)i));
    return buf;
}

static void print_value(double v, const char *format)
{
    if (isnan(v))
        printf("%10s", "n/a");
    else
        printf(format, v);
}

static void print_table(const suite *s, const options *o, const cost_machine *m,
                        const char *machine_name)
{
    printf("polybsp portability: which cost model to trust on this machine (paper 002, section "
           "2)\n");
    printf("machine     %s: host %s, engine %s, %s, calibrated for P =", machine_name, m->host,
           m->engine, m->date);
    for (size_t i = 0; i < m->nprocs; i++)
        printf("%s %d", i ? "," : "", m->procs[i]);
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    printf("\nrun         P = %d%s, engine %s, %d repeat%s per program, medians; work = "
           "measured w\n",
           o->procs, o->procs > cores ? " (oversubscribed)" : "", o->engine, o->repeats,
           o->repeats == 1 ? "" : "s");
    if (strcmp(m->engine, o->engine) != 0)
        printf("note        the machine file was calibrated on engine %s\n", m->engine);
    for (int k = 0; k < NMODELS; k++)
        if (s->unavailable[k][0])
            printf("note        %s n/a for some programs (their families are not counted), "
                   "first: %s\n",
                   models[k].label, s->unavailable[k]);
    for (int k = 0; k < NMODELS; k++) {
        size_t n = 0, first = 0;
        for (size_t i = s->nprograms; i-- > 0;)
            if (s->model[k][i] <= 0) {
                n++;
                first = i;
            }
        char name[128];
        if (n > 0)
            printf("note        %s predicts 0 s or less for %zu program%s (their families are not "
                   "counted), first: %s\n",
                   models[k].label, n, n == 1 ? "" : "s",
                   program_name(s, (long)first, name, sizeof name));
    }
    printf("\ntimes in seconds of `loops` executions of the program; * marks the fastest "
           "program of a\nfamily (REAL) and each model's choice\n\n");
    printf("%-20s %5s %-16s %11s", "family", "loops", "program", "REAL");
    for (int k = 0; k < NMODELS; k++)
        printf(" %11s", models[k].label);
    printf("\n");
    for (size_t f = 0; f < s->nfamilies; f++) {
        size_t best = cost_portability_fastest(s->real, s->start, f);
        for (size_t i = s->start[f]; i < s->start[f + 1]; i++) {
            if (i == s->start[f])
                printf("%-20s %5d", s->families[f].name, s->families[f].loops);
            else
                printf("%-26s", "");
            printf(" %-16s %10.3e%s", variant_name(s, i), s->real[i], i == best ? "*" : " ");
            for (int k = 0; k < NMODELS; k++) {
                if (isnan(s->model[k][i])) {
                    printf(" %11s", "n/a");
                    continue;
                }
                long choice = cost_portability_choice(s->model[k], s->start, f);
                printf(" %10.3e%s", s->model[k][i], choice == (long)i ? "*" : " ");
            }
            printf("\n");
        }
    }
    printf("\n%-8s %9s %9s %10s %10s %10s %10s\n", "model", "families", "picked", "worst loss",
           "eta within", "eta (1)", "delta");
    for (int k = 0; k < NMODELS; k++) {
        const cost_portability *e = &s->est[k];
        printf("%-8s %5zu/%-3zu %5zu/%-3zu", models[k].label, e->families, s->nfamilies, e->picked,
               e->families);
        print_value(e->loss, " %10.3f");
        print_value(e->eta_within, " %10.3f");
        print_value(e->eta, " %10.3f");
        print_value(e->delta, " %10.3f");
        printf("\n");
    }
    printf("\nattained by (T = the model's time, T' = the real one):\n");
    for (int k = 0; k < NMODELS; k++) {
        const cost_portability *e = &s->est[k];
        if (e->families == 0)
            continue;
        char a[128], b[128];
        printf("%-8s eta within: T(%s) / T(%s) * T'(%s) / T'(%s)\n", models[k].label,
               program_name(s, e->eta_i, a, sizeof a), program_name(s, e->eta_j, b, sizeof b), b,
               a);
        if (e->eta_p1 >= 0)
            printf("%-8s eta (1):    pi1 = %s, pi2 = %s (each family's choice of the model)\n", "",
                   program_name(s, e->eta_p1, a, sizeof a),
                   program_name(s, e->eta_p2, b, sizeof b));
        printf("%-8s delta:      T'/T largest for %s, smallest for %s\n", "",
               program_name(s, e->delta_max, a, sizeof a),
               program_name(s, e->delta_min, b, sizeof b));
        printf("%-8s worst loss: %s\n", "", s->families[e->loss_family].name);
    }
    printf("\neta, delta >= 1; 1 means the model ranks programs as this machine does. picked: "
           "families\nwhere the model's fastest is the real fastest; worst loss: real time of "
           "the model's\nchoice over the fastest's. docs/models.md explains.\n");
}

/* `, "key": "family: variant"` of program i, or null. */
static void json_program(FILE *f, const char *key, const suite *s, long i)
{
    char buf[128];
    fprintf(f, ", \"%s\": ", key);
    if (i < 0)
        fprintf(f, "null");
    else
        cost_jput_str(f, program_name(s, i, buf, sizeof buf), sizeof buf);
}

/* `, "key": number` (null when not finite). */
static void json_number(FILE *f, const char *key, double v)
{
    fprintf(f, ", \"%s\": ", key);
    cost_jput_num(f, v);
}

static void print_json(FILE *f, const suite *s, const options *o, const cost_machine *m,
                       const char *machine_name, const char *date)
{
    fprintf(f, "{\n  \"format\": \"polybsp-portability\",\n  \"version\": 1,\n");
    fprintf(f, "  \"date\": \"%s\",\n  \"engine\": \"%s\",\n  \"procs\": %d,\n", date, o->engine,
            o->procs);
    fprintf(f, "  \"repeats\": %d,\n  \"quick\": %s,\n  \"machine\": ", o->repeats,
            o->quick ? "true" : "false");
    if (cost_jput_str(f, machine_name, PATH_MAX) < 0)
        fprintf(f, "null");
    fprintf(f, ",\n  \"machine_host\": ");
    cost_jput_str(f, m->host, sizeof m->host);
    fprintf(f, ",\n  \"machine_date\": ");
    cost_jput_str(f, m->date, sizeof m->date);
    fprintf(f, ",\n  \"models\": [");
    for (int k = 0; k < NMODELS; k++)
        fprintf(f, "%s\"%s\"", k ? ", " : "", cost_model_name(models[k].kind));
    fprintf(f, "],\n  \"unavailable\": {");
    const char *sep = "";
    for (int k = 0; k < NMODELS; k++) {
        if (!s->unavailable[k][0])
            continue;
        fprintf(f, "%s\"%s\": ", sep, cost_model_name(models[k].kind));
        if (cost_jput_str(f, s->unavailable[k], sizeof s->unavailable[k]) < 0)
            fprintf(f, "null");
        sep = ", ";
    }
    fprintf(f, "},\n  \"families\": [");
    for (size_t fam = 0; fam < s->nfamilies; fam++) {
        const family *F = &s->families[fam];
        fprintf(f,
                "%s\n    {\"name\": \"%s\", \"kind\": \"%s\", \"size\": %ld, \"loops\": %d, "
                "\"programs\": [",
                fam ? "," : "", F->name, kinds[F->kind].name, F->size, F->loops);
        for (size_t i = s->start[fam]; i < s->start[fam + 1]; i++) {
            fprintf(f, "%s\n      {\"variant\": \"%s\"", i > s->start[fam] ? "," : "",
                    variant_name(s, i));
            json_number(f, "real", s->real[i]);
            for (int k = 0; k < NMODELS; k++)
                json_number(f, cost_model_name(models[k].kind), s->model[k][i]);
            fprintf(f, ", \"real_runs\": [");
            for (int r = 0; r < o->repeats; r++) {
                fprintf(f, "%s", r ? ", " : "");
                cost_jput_num(f, s->real_runs[i][r]);
            }
            fprintf(f, "]}");
        }
        /* The fastest program and each model's choice, by variant name. */
        fprintf(f, "],\n     \"fastest\": \"%s\", \"choice\": {",
                variant_name(s, cost_portability_fastest(s->real, s->start, fam)));
        for (int k = 0; k < NMODELS; k++) {
            long choice = cost_portability_choice(s->model[k], s->start, fam);
            fprintf(f, "%s\"%s\": ", k ? ", " : "", cost_model_name(models[k].kind));
            if (choice < 0)
                fprintf(f, "null");
            else
                fprintf(f, "\"%s\"", variant_name(s, (size_t)choice));
        }
        fprintf(f, "}}");
    }
    fprintf(f, "\n  ],\n  \"summary\": {");
    for (int k = 0; k < NMODELS; k++) {
        const cost_portability *e = &s->est[k];
        fprintf(f, "%s\n    \"%s\": {\"families\": %zu, \"programs\": %zu, \"picked\": %zu",
                k ? "," : "", cost_model_name(models[k].kind), e->families, e->programs, e->picked);
        json_number(f, "loss", e->loss);
        fprintf(f, ", \"loss_family\": ");
        if (e->loss_family < 0)
            fprintf(f, "null");
        else
            fprintf(f, "\"%s\"", s->families[e->loss_family].name);
        json_number(f, "eta_within", e->eta_within);
        json_program(f, "eta_within_i", s, e->eta_i);
        json_program(f, "eta_within_j", s, e->eta_j);
        json_number(f, "eta", e->eta);
        json_program(f, "eta_pi1", s, e->eta_p1);
        json_program(f, "eta_pi2", s, e->eta_p2);
        json_number(f, "delta", e->delta);
        json_program(f, "delta_max", s, e->delta_max);
        json_program(f, "delta_min", s, e->delta_min);
        fprintf(f, "}");
    }
    fprintf(f, "\n  }\n}\n");
}

/* ---- the command ---- */

static int parse_int(const char *text, long least, long most, int *out)
{
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (end == text || *end != '\0' || errno != 0 || v < least || v > most)
        return -1;
    *out = (int)v;
    return 0;
}

/* Returns -1 after printing help (status 0), 0 to go on, or 2 for bad usage. */
static int parse_args(int argc, char **argv, options *o)
{
    int repeats_given = 0;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i], *v;
        int missing = 0;
        if (tool_is_help(arg)) {
            fputs(cmd_portability_help, stdout);
            return -1;
        } else if (strcmp(arg, "--quick") == 0) {
            o->quick = 1;
        } else if ((v = tool_option_value(argc, argv, &i, "--machine", &missing)) != NULL) {
            o->machine = v;
        } else if ((v = tool_option_value(argc, argv, &i, "-o", &missing)) != NULL ||
                   (v = tool_option_value(argc, argv, &i, "--output", &missing)) != NULL) {
            o->output = v;
        } else if ((v = tool_option_value(argc, argv, &i, "-p", &missing)) != NULL ||
                   (v = tool_option_value(argc, argv, &i, "--procs", &missing)) != NULL) {
            if (parse_int(v, 2, 64, &o->procs) != 0 || !fft_is_pow2(o->procs))
                return tool_usage_error("portability: invalid number of processes '%s' (expected "
                                        "a power of two from 2 to 64)",
                                        v);
        } else if ((v = tool_option_value(argc, argv, &i, "--repeats", &missing)) != NULL) {
            if (parse_int(v, 1, MAX_REPEATS, &o->repeats) != 0)
                return tool_usage_error(
                    "portability: invalid repeats '%s' (expected an integer from 1 to %d)", v,
                    MAX_REPEATS);
            repeats_given = 1;
        } else if ((v = tool_option_value(argc, argv, &i, "--engine", &missing)) != NULL) {
            if (!tool_engine_available(v))
                return tool_usage_error("portability: engine '%s' is not available (available: %s)",
                                        v, tool_engine_list());
            o->engine = v;
        } else if ((v = tool_option_value(argc, argv, &i, "--format", &missing)) != NULL) {
            if (strcmp(v, "table") != 0 && strcmp(v, "json") != 0)
                return tool_usage_error("portability: unknown format '%s' (expected table or json)",
                                        v);
            o->json = strcmp(v, "json") == 0;
        } else if (missing) {
            return tool_usage_error("portability: option '%s' needs a value", arg);
        } else if (arg[0] == '-') {
            return tool_usage_error(
                "portability: unknown option '%s' (try 'polybsp portability --help')", arg);
        } else {
            return tool_usage_error(
                "portability: unexpected argument '%s' (try 'polybsp portability --help')", arg);
        }
    }
    if (!repeats_given && o->quick)
        o->repeats = 3;
    if (strcmp(o->engine, "mpi") == 0 && !o->machine)
        return tool_usage_error("portability: --engine mpi needs --machine FILE (made by "
                                "'polybsp probe --engine mpi')");
    if (strcmp(o->engine, bsp_engine_name()) != 0 && strcmp(o->engine, "mpi") != 0)
        return tool_usage_error("portability: this is the MPI engine's portability; run "
                                "'polybsp portability' for engine '%s'",
                                o->engine);
    return 0;
}

/* A short probe at P into dir/machine.json, for a run without --machine. */
static int quick_probe(const options *o, const char *path)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    probe_options po = {.output = path,
                        .budget = 10,
                        .quick = o->quick,
                        .nprocs = 1,
                        .cores = cores > 0 ? (int)cores : 1};
    po.procs[0] = o->procs;
    const long *sizes = o->quick ? probe_quick_sizes : probe_default_sizes;
    po.nsizes = o->quick ? probe_quick_nsizes : probe_default_nsizes;
    memcpy(po.sizes, sizes, po.nsizes * sizeof *sizes);
    fprintf(stderr,
            "polybsp portability: no --machine: calibrating first (a short probe at P = %d, "
            "about %d s; `polybsp probe` makes a file to reuse)\n",
            o->procs, o->quick ? 2 : 10);
    FILE *quiet = fopen("/dev/null", "w");
    if (!quiet) {
        fprintf(stderr, "polybsp: portability: /dev/null: %s\n", strerror(errno));
        return 1;
    }
    char err[512];
    bsp_init(probe_spmd, 0, NULL);
    int rc = probe_run(&po, quiet, err, sizeof err);
    fclose(quiet);
    if (rc != 0) {
        fprintf(stderr, "polybsp: portability: probe: %s\n", err);
        return 1;
    }
    return 0;
}

int cmd_portability(int argc, char **argv)
{
    options o = {.procs = 2, .repeats = 11, .engine = bsp_engine_name()};
    int rc = parse_args(argc, argv, &o);
    if (rc != 0)
        return rc < 0 ? 0 : rc;
    if (strcmp(o.engine, bsp_engine_name()) != 0) /* --engine mpi from the threads tool */
        return tool_exec_sibling("portability", "polybsp-portability-mpi", o.procs, argc, argv);

    char err[4096 + 512];
    cost_machine m;
    if (o.machine && cost_machine_read(o.machine, &m, err, sizeof err) != 0)
        return tool_usage_error("portability: %s", err);
    FILE *out = NULL;
    if (o.output && !(out = fopen(o.output, "w")))
        return tool_usage_error("portability: cannot write '%s': %s", o.output, strerror(errno));

    /* The traces are written to the working directory (POLYBSP_TRACE would trace
     * the set-up too): run in a directory of our own. */
    char dir[4096], cwd[4096], machine_path[4200];
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/polybsp-portability.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!getcwd(cwd, sizeof cwd) || !mkdtemp(dir) || chdir(dir) != 0) {
        fprintf(stderr, "polybsp: portability: cannot make a working directory: %s\n",
                strerror(errno));
        if (out)
            fclose(out);
        return 1;
    }
    unsetenv("POLYBSP_TRACE");
    snprintf(machine_path, sizeof machine_path, "%s/machine.json", dir);
    if (!o.machine) {
        rc = quick_probe(&o, machine_path);
        if (rc == 0 && cost_machine_read(machine_path, &m, err, sizeof err) != 0) {
            fprintf(stderr, "polybsp: portability: %s\n", err);
            rc = 1;
        }
        unlink(machine_path);
    }
    const char *machine_name = o.machine ? o.machine : "(short probe)";

    suite *s = calloc(1, sizeof *s);
    if (rc == 0 && !s) {
        fprintf(stderr, "polybsp: portability: out of memory\n");
        rc = 1;
    }
    if (rc == 0) {
        build_suite(s, o.quick, o.procs);
        job.procs = o.procs;
        rc = measure(s, &o, &m, machine_name);
    }
    if (chdir(cwd) != 0 || rmdir(dir) != 0)
        fprintf(stderr, "polybsp: portability: could not remove %s: %s\n", dir, strerror(errno));
    if (rc == 0) {
        char date[32];
        time_t now = time(NULL);
        strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
        if (o.json)
            print_json(stdout, s, &o, &m, machine_name, date);
        else
            print_table(s, &o, &m, machine_name);
        if (out)
            print_json(out, s, &o, &m, machine_name, date);
    }
    if (out && fclose(out) != 0 && rc == 0) {
        fprintf(stderr, "polybsp: portability: cannot write '%s': %s\n", o.output, strerror(errno));
        rc = 1;
    }
    free(s);
    return rc;
}
