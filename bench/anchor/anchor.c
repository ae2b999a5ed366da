/* anchor.c — issue 13's anchor figures in plain BSPlib, so that one source builds
 * against polybsp and against MulticoreBSP for C (bench/anchor/mcbsp.sh compiles it
 * for both, with the same compiler and flags, and runs the two alternately).
 *
 * Usage: anchor [P]    (P even, default 2)
 *
 * Only standard BSPlib calls (bsp.h), in a form that compiles in both dialects
 * (classic int sizes, MulticoreBSP's unsigned pids and size_t sizes): no polybsp
 * extension, no library-specific clock (bench_now is CLOCK_MONOTONIC).
 * Figures, each the median of BENCH_REPS batches, printed as result lines
 * (bench_util.h):
 *   - anchor_sync_ns: an empty superstep (bsp_sync with nothing to send);
 *   - anchor_put8_ns: one 8-byte bsp_put in a superstep of PUTS_H such puts per
 *     process, spread over the other processes as bench_puts.c does; the whole
 *     superstep (issue + sync) divided by PUTS_H;
 *   - anchor_get8_ns: the same with bsp_get: each process gets back, one 8-byte
 *     bsp_get each, the PUTS_H values it put, into a local array;
 *   - anchor_exch_{put,hpput}_<m>_gbs: the Exchange pattern, process s sends m
 *     bytes to s^1 with one bsp_put (bsp_hpput) per superstep; m / superstep time;
 *   - anchor_reg_ns: a registration superstep (bsp_push_reg of one area, then
 *     bsp_sync; the next pops it), the pair's time divided by 2.
 * Every delivered byte is checked once per figure, so a fast wrong library fails.
 * State lives on each process's stack or heap: on a threads library globals are
 * shared by all processes.
 */
#include "bench_bsp.h"
#include "bench_util.h"

#include <bsp.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TARGET_SECONDS 0.01
#define PUTS_H 65536

static const long exchange_sizes[] = {6720, 107520, 430080, 1720320};
#define N_SIZES (sizeof exchange_sizes / sizeof exchange_sizes[0])

static int nprocs_wanted = 2;

static void empty_superstep(void *unused)
{
    (void)unused;
    bsp_sync();
}

struct relation {
    int *dest_pid;
    long *dest_offset;
    double *src, *dst;
    double *back; /* where the gets land */
};

static void put8_superstep(void *p)
{
    const struct relation *r = p;
    for (long i = 0; i < PUTS_H; i++)
        bsp_put(r->dest_pid[i], &r->src[i], r->dst, r->dest_offset[i], sizeof(double));
    bsp_sync();
}

static void get8_superstep(void *p)
{
    const struct relation *r = p;
    for (long i = 0; i < PUTS_H; i++)
        bsp_get(r->dest_pid[i], r->dst, r->dest_offset[i], &r->back[i], sizeof(double));
    bsp_sync();
}

/* Two registration supersteps: the area is pushed, then popped. */
static void reg_supersteps(void *area)
{
    bsp_push_reg(area, sizeof(double));
    bsp_sync();
    bsp_pop_reg(area);
    bsp_sync();
}

struct exchange {
    int partner;
    long m;
    unsigned char *src, *dst;
};

static void put_superstep(void *p)
{
    const struct exchange *x = p;
    bsp_put(x->partner, x->src, x->dst, 0, x->m);
    bsp_sync();
}

static void hpput_superstep(void *p)
{
    const struct exchange *x = p;
    bsp_hpput(x->partner, x->src, x->dst, 0, x->m);
    bsp_sync();
}

/* Calibrates fn, then times reps batches of it: the median seconds per call. */
static double measure(bench_fn fn, void *arg, double *t, int reps)
{
    long n = bench_bsp_calibrate(fn, arg, TARGET_SECONDS);
    for (int k = 0; k < reps; k++)
        t[k] = bench_bsp_batch(fn, arg, n);
    return bench_median(t, (size_t)reps);
}

static void report(const char *key, double value, const char *unit)
{
    if (bsp_pid() == 0)
        bench_result(key, value, unit);
}

static void bench_put8(double *t, int reps)
{
    int P = (int)bsp_nprocs(), s = (int)bsp_pid();
    long len = (PUTS_H / (P - 1) + 1) * P; /* dst's length: see the indices below */
    struct relation r = {malloc(PUTS_H * sizeof(int)), malloc(PUTS_H * sizeof(long)),
                         malloc(PUTS_H * sizeof(double)), calloc((size_t)len, sizeof(double)),
                         calloc(PUTS_H, sizeof(double))};
    if (!r.dest_pid || !r.dest_offset || !r.src || !r.dst || !r.back)
        bsp_abort("anchor: out of memory");
    /* Process s's i-th value lands at index s + (i / (P-1)) * P of its
     * destination: every index of dst is written by exactly one process. */
    for (long i = 0; i < PUTS_H; i++) {
        r.dest_pid[i] = (s + 1 + (int)(i % (P - 1))) % P;
        r.dest_offset[i] = (s + (i / (P - 1)) * P) * (long)sizeof(double);
        r.src[i] = (double)(s * PUTS_H + i);
    }
    bsp_push_reg(r.dst, len * (long)sizeof(double));
    bsp_sync();
    put8_superstep(&r);
    for (long j = 0; j < len; j++) {
        int from = (int)(j % P); /* index j is written by process j mod P, never s */
        long i = (j / P) * (P - 1) + (s - from - 1 + P) % P; /* as its i-th put */
        if (from != s && i < PUTS_H && r.dst[j] != (double)(from * PUTS_H + i))
            bsp_abort("anchor: 8-byte bsp_put delivered a wrong value at %ld", j);
    }
    report("anchor_put8_ns", 1e9 * measure(put8_superstep, &r, t, reps) / PUTS_H, "ns");
    /* The puts above left every value in place: each get fetches its own back. */
    get8_superstep(&r);
    for (long i = 0; i < PUTS_H; i++)
        if (r.back[i] != r.src[i])
            bsp_abort("anchor: 8-byte bsp_get fetched a wrong value at %ld", i);
    report("anchor_get8_ns", 1e9 * measure(get8_superstep, &r, t, reps) / PUTS_H, "ns");
    bsp_pop_reg(r.dst);
    bsp_sync();
    free(r.dest_pid);
    free(r.dest_offset);
    free(r.src);
    free(r.dst);
    free(r.back);
}

/* What arrived must be the partner's pattern; then clear it for the next check. */
static void check_exchange(const struct exchange *x, const char *call)
{
    for (long i = 0; i < x->m; i++)
        if (x->dst[i] != (unsigned char)(i * 7 + x->partner))
            bsp_abort("anchor: %s of %ld bytes delivered a wrong byte at %ld", call, x->m, i);
    memset(x->dst, 0, (size_t)x->m);
}

static void bench_exchange(long m, double *t, int reps)
{
    int s = (int)bsp_pid();
    struct exchange x = {s ^ 1, m, malloc((size_t)m), calloc((size_t)m, 1)};
    if (!x.src || !x.dst)
        bsp_abort("anchor: out of memory for %ld bytes", m);
    for (long i = 0; i < m; i++)
        x.src[i] = (unsigned char)(i * 7 + s);
    bsp_push_reg(x.dst, m);
    bsp_sync();
    static const struct {
        const char *name;
        bench_fn fn;
    } calls[] = {{"put", put_superstep}, {"hpput", hpput_superstep}};
    for (size_t c = 0; c < 2; c++) {
        calls[c].fn(&x);
        bsp_sync(); /* every check reads only after every process has written */
        check_exchange(&x, calls[c].name);
        bsp_sync(); /* and clears before anyone writes again */
        char key[64];
        snprintf(key, sizeof key, "anchor_exch_%s_%ld_gbs", calls[c].name, m);
        report(key, (double)m / measure(calls[c].fn, &x, t, reps) / 1e9, "GB/s");
    }
    bsp_pop_reg(x.dst);
    bsp_sync();
    free(x.src);
    free(x.dst);
}

static void spmd(void)
{
    bsp_begin(nprocs_wanted);
    int P = (int)bsp_nprocs();
    if (P < 2 || P % 2)
        bsp_abort("anchor: needs an even number of processes, got %d", P);
    int reps = bench_reps();
    double *t = calloc((size_t)reps, sizeof *t);
    if (!t)
        bsp_abort("anchor: out of memory");
    if (bsp_pid() == 0)
        printf("# anchor: P=%d reps=%d\n", P, reps);
    report("anchor_sync_ns", 1e9 * measure(empty_superstep, NULL, t, reps), "ns");
    double area; /* each process's own: it is only registered, never written */
    report("anchor_reg_ns", 1e9 * measure(reg_supersteps, &area, t, reps) / 2, "ns");
    bench_put8(t, reps);
    for (size_t i = 0; i < N_SIZES; i++)
        bench_exchange(exchange_sizes[i], t, reps);
    free(t);
    bsp_end();
}

int main(int argc, char **argv)
{
    bsp_init(spmd, argc, argv);
    if (argc > 1)
        nprocs_wanted = atoi(argv[1]);
    if (argc > 2 || nprocs_wanted < 2 || nprocs_wanted % 2) {
        fprintf(stderr, "usage: anchor [P]  (P even, >= 2; default 2)\n");
        return 2;
    }
    spmd();
    return 0;
}
