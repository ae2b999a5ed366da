/* portability_suite — the programs of `polybsp portability` (contract in
 * portability_suite.h). */
#include "portability_suite.h"

#include "fft_bsp.h"
#include "fft_dc.h"
#include "fft_util.h"
#include "probe/probe_pattern.h"
#include "tool.h"

#include <bsp.h>
#include <polybsp.h>

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

void suite_build(suite *s, int quick, int procs)
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

int suite_kind_calibrated(family_kind k) { return k == FAM_PATTERN || k == FAM_BCAST; }

const char *suite_kind_name(family_kind k) { return kinds[k].name; }

const char *suite_variant(const suite *s, size_t i)
{
    return kinds[s->families[s->family_of[i]].kind].variants[s->variant[i]];
}

/* ---- the programs ----
 * The program to run is handed over in a global: the threads engine shares
 * memory, and on MPI share_job sends it to the other ranks. */

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
    /* The trace file is made here, by the first bsp_trace_begin (no superstep
     * is recorded between the two calls): the traced part's REAL and W then
     * hold none of its making (0.15-0.49 ms, which pulled eta toward 1). */
    bsp_trace_begin();
    bsp_trace_end();
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

/* On the MPI and smpi engines only rank 0 runs the command
 * (polybsp-portability-mpi, -smpi.so): it hands the program to the other
 * processes, which have their own memory (SMPI gives each rank its globals). */
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
    if (strcmp(bsp_engine_name(), "threads") != 0)
        share_job();
    static void (*const run[NKINDS])(void) = {run_fft, run_bcast, run_pattern, run_inprod,
                                              run_irregular};
    run[job.kind]();
    bsp_end();
}

void suite_run(const suite *s, size_t i, int procs, int loops)
{
    const family *f = &s->families[s->family_of[i]];
    job = (struct job){.procs = procs,
                       .kind = f->kind,
                       .pattern = f->pattern,
                       .size = f->size,
                       .variant = s->variant[i],
                       .loops = loops};
    bsp_init(portability_spmd, 0, NULL);
    portability_spmd();
}
