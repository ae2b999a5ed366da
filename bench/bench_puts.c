/* bench_puts.c — cost of one 8-byte bsp_put (and bsp_get) in a large h-relation.
 *
 * Usage: bench_puts [P [h]]    (P defaults to 2, h, the puts per process per
 *                               superstep, to 65536)
 *
 * Each superstep every process puts h doubles, one bsp_put each, spread over the
 * other processes as BSPedupack's bspbench does (destination (s+1+i%(P-1))%P,
 * index s+(i/(P-1))*P), then synchronises. The figure is the whole superstep
 * (issue + sync) divided by h; the issue and sync phases are also reported apart.
 * The get figure: each superstep every process gets h doubles, one bsp_get each,
 * from the same places of the other processes into a local array (disjoint data:
 * no get writes what another reads).
 * Anchor, timed in the same run by the same threads: h calls of libc memcpy of
 * 8 bytes into a local array at the same indices. memcpy is called through a
 * volatile pointer because a visible 8-byte memcpy compiles to one store, and
 * bsp_put, like any library call, cannot be inlined either.
 * Also timed alongside (P = 2, threads engine): the two-thread spin barrier of
 * bench_spin.h, which tells the machine's state.
 * Result keys carry h: put_h<h>_ns, put_issue_h<h>_ns, put_sync_h<h>_ns,
 * get_h<h>_ns, memcpy8_h<h>_ns, puts_xcore_h<h>_ns.
 */
#include "bench_bsp.h"
#include "bench_spin.h"
#include "bench_util.h"

#include <bsp.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TARGET_SECONDS 0.01

static int nprocs_wanted = 2;
static long h_wanted = 65536;

typedef void *(*copy_fn)(void *restrict, const void *restrict, size_t);
static copy_fn volatile copy8 = memcpy;

struct relation {
    long h;
    int *dest_pid;
    long *dest_index;
    double *src;
    double *dst;       /* registered: receives the other processes' puts */
    double *local_dst; /* the anchor's target */
    double issue_s;    /* accumulated time spent issuing puts */
    double sync_s;     /* accumulated time spent in bsp_sync */
};

static void put_superstep(void *p)
{
    struct relation *r = p;
    double t0 = bench_now();
    for (long i = 0; i < r->h; i++)
        bsp_put(r->dest_pid[i], &r->src[i], r->dst, (int)(r->dest_index[i] * (long)sizeof(double)),
                sizeof(double));
    double t1 = bench_now();
    bsp_sync();
    r->issue_s += t1 - t0;
    r->sync_s += bench_now() - t1;
}

static void get_superstep(void *p)
{
    struct relation *r = p;
    for (long i = 0; i < r->h; i++)
        bsp_get(r->dest_pid[i], r->dst, (int)(r->dest_index[i] * (long)sizeof(double)),
                &r->local_dst[r->dest_index[i]], sizeof(double));
    bsp_sync();
}

static void memcpy_round(void *p)
{
    struct relation *r = p;
    for (long i = 0; i < r->h; i++)
        copy8(&r->local_dst[r->dest_index[i]], &r->src[i], sizeof(double));
}

static void spmd(void)
{
    bsp_begin(nprocs_wanted);
    int P = (int)bsp_nprocs(), s = (int)bsp_pid();
    if (P < 2)
        bsp_abort("bench_puts: needs P >= 2, got %d", P);
    int reps = bench_reps();
    long h = h_wanted;
    long slots = (h / (P - 1) + 1) * P;

    struct relation r = {h,
                         malloc((size_t)h * sizeof(int)),
                         malloc((size_t)h * sizeof(long)),
                         malloc((size_t)h * sizeof(double)),
                         calloc((size_t)slots, sizeof(double)),
                         calloc((size_t)slots, sizeof(double)),
                         0,
                         0};
    double *t_put = calloc((size_t)reps, sizeof(double));
    double *t_issue = calloc((size_t)reps, sizeof(double));
    double *t_sync = calloc((size_t)reps, sizeof(double));
    double *t_get = calloc((size_t)reps, sizeof(double));
    double *t_copy = calloc((size_t)reps, sizeof(double));
    double *t_spin = calloc((size_t)reps, sizeof(double));
    if (!r.dest_pid || !r.dest_index || !r.src || !r.dst || !r.local_dst || !t_put || !t_issue ||
        !t_sync || !t_get || !t_copy || !t_spin)
        bsp_abort("bench_puts: out of memory");
    for (long i = 0; i < h; i++) {
        r.dest_pid[i] = (int)((s + 1 + i % (P - 1)) % P);
        r.dest_index[i] = s + (i / (P - 1)) * P;
        r.src[i] = (double)i;
    }
    bsp_push_reg(r.dst, (int)(slots * (long)sizeof(double)));
    bsp_sync();

    long n_put = bench_bsp_calibrate(put_superstep, &r, TARGET_SECONDS);
    long n_get = bench_bsp_calibrate(get_superstep, &r, TARGET_SECONDS);
    long n_copy = bench_bsp_calibrate(memcpy_round, &r, TARGET_SECONDS);
    struct bench_spin spin;
    int probe = bench_spin_init(&spin);
    long n_spin = probe ? bench_bsp_calibrate(bench_spin_wait, &spin, TARGET_SECONDS) : 0;
    for (int k = 0; k < reps; k++) {
        r.issue_s = r.sync_s = 0;
        t_put[k] = bench_bsp_batch(put_superstep, &r, n_put) / (double)h;
        t_issue[k] = r.issue_s / (double)n_put / (double)h;
        t_sync[k] = r.sync_s / (double)n_put / (double)h;
        t_get[k] = bench_bsp_batch(get_superstep, &r, n_get) / (double)h;
        t_copy[k] = bench_bsp_batch(memcpy_round, &r, n_copy) / (double)h;
        if (probe)
            t_spin[k] = bench_bsp_batch(bench_spin_wait, &spin, n_spin);
    }

    /* A benchmark of a wrong put means nothing: slot q+k*P must hold source q's
     * word k*(P-1)+j, where j is the offset that sends that word to this process. */
    long bad = 0;
    for (long i = 0; i < slots; i++) {
        long q = i % P, k = i / P;
        long word = k * (P - 1) + ((s - q - 1) % P + P) % P;
        if (q != s && word < h && r.dst[i] != (double)word)
            bad++;
    }
    if (bad)
        bsp_abort("bench_puts: %ld words landed in the wrong place", bad);
    if (s == 0) {
        printf("# bench_puts: P=%d h=%ld reps=%d batches of %ld supersteps\n", P, h, reps, n_put);
        const char *name[] = {"put", "put_issue", "put_sync", "get", "memcpy8", "puts_xcore"};
        double *times[] = {t_put, t_issue, t_sync, t_get, t_copy, t_spin};
        for (int f = 0; f < (probe ? 6 : 5); f++) {
            char key[64];
            snprintf(key, sizeof key, "%s_h%ld_ns", name[f], h);
            bench_result(key, 1e9 * bench_median(times[f], (size_t)reps), "ns");
        }
    }
    bsp_pop_reg(r.dst);
    bsp_sync();
    free(r.dest_pid);
    free(r.dest_index);
    free(r.src);
    free(r.dst);
    free(r.local_dst);
    free(t_put);
    free(t_issue);
    free(t_sync);
    free(t_get);
    free(t_copy);
    free(t_spin);
    bsp_end();
}

int main(int argc, char **argv)
{
    bsp_init(spmd, argc, argv);
    if (argc > 1)
        nprocs_wanted = atoi(argv[1]);
    if (argc > 2)
        h_wanted = atol(argv[2]);
    if (nprocs_wanted < 2 || h_wanted < 1) {
        fprintf(stderr, "usage: bench_puts [P >= 2 [h >= 1]]\n");
        return 2;
    }
    spmd();
    return 0;
}
