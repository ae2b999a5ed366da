/* bench_exchange.c — the Exchange pattern: pairs of processes swap m bytes.
 *
 * Usage: bench_exchange [P [m ...]]   (P defaults to 2 and must be even; the sizes
 *                                      default to 6720 26880 107520 430080 1720320)
 *
 * Each superstep process s sends m bytes to s^1 with one bsp_put (or one bsp_hpput)
 * and synchronises. With gets: s fetches m bytes from s^1 with one bsp_get into a
 * local buffer (get), or the two swap their registered buffers in place, each
 * getting the other's into its own (getswap: BSPlib's reads-before-writes rule
 * makes the library hold the values back until both have read). Throughput = m / (superstep time),
 * bytes delivered per process per second, in GB/s (1e9 bytes). For bsp_put the issue phase (the
 * copy into the send buffer) and the sync phase are also reported apart. Anchor in the same run, by
 * the same threads: memcpy of m bytes into a local buffer (the bandwidth a one-copy transfer cannot
 * beat), and the hand-made exchange through shared memory that a buffered put stands for
 * (handoff: each process copies m bytes into a staging buffer with memcpy, a sync, then copies
 * its partner's staging buffer into its own, a second sync: the put's two copies, without the
 * library), with the ratio put / handoff. Both cross the cores the same way, so where the
 * machine makes that slow (issue 13's bimodal runs: docs/performance.md) both are slow and the
 * ratio stays. MPI_Sendrecv is mpi_anchor's job. Also timed alongside (P = 2, threads engine): the
 * two-thread spin barrier of bench_spin.h, reported per size as exch_xcore_<m>_ns: the machine's
 * state.
 */
#include "bench_bsp.h"
#include "bench_spin.h"
#include "bench_util.h"

#include <bsp.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TARGET_SECONDS 0.01
#define MAX_SIZES 32

static int nprocs_wanted = 2;
static long sizes[MAX_SIZES] = {6720, 26880, 107520, 430080, 1720320};
static int nsizes = 5;

struct exchange {
    int partner;
    long m;
    unsigned char *src, *dst, *local_dst;
    unsigned char *stage, *partner_stage; /* handoff: the processes share memory */
    double issue_s, sync_s;
};

static void put_superstep(void *p)
{
    struct exchange *x = p;
    double t0 = bench_now();
    bsp_put(x->partner, x->src, x->dst, 0, (int)x->m);
    double t1 = bench_now();
    bsp_sync();
    x->issue_s += t1 - t0;
    x->sync_s += bench_now() - t1;
}

static void hpput_superstep(void *p)
{
    struct exchange *x = p;
    bsp_hpput(x->partner, x->src, x->dst, 0, (int)x->m);
    bsp_sync();
}

static void get_superstep(void *p)
{
    struct exchange *x = p;
    bsp_get(x->partner, x->src, 0, x->local_dst, (int)x->m);
    bsp_sync();
}

static void getswap_superstep(void *p)
{
    struct exchange *x = p;
    bsp_get(x->partner, x->dst, 0, x->dst, (int)x->m);
    bsp_sync();
}

static void handoff_superstep(void *p)
{
    struct exchange *x = p;
    memcpy(x->stage, x->src, (size_t)x->m);
    bsp_sync();
    memcpy(x->local_dst, x->partner_stage, (size_t)x->m);
    bsp_sync(); /* the partner may refill its stage only once it was read */
}

static void memcpy_round(void *p)
{
    struct exchange *x = p;
    memcpy(x->local_dst, x->src, (size_t)x->m);
}

/* What arrived must be the partner's pattern (byte i = (i*7 + partner) mod 256). */
static void check(const struct exchange *x, const char *call)
{
    for (long i = 0; i < x->m; i++)
        if (x->dst[i] != (unsigned char)(i * 7 + x->partner))
            bsp_abort("bench_exchange: %s of %ld bytes delivered a wrong byte at %ld", call, x->m,
                      i);
    memset(x->dst, 0, (size_t)x->m);
}

/* One swap by gets: dst, set to this process's pattern, must hold the partner's. */
static void check_swap(struct exchange *x)
{
    memcpy(x->dst, x->src, (size_t)x->m);
    getswap_superstep(x);
    check(x, "bsp_get swap");
}

/* The figures of one size, each an array of reps batch times. */
struct timings {
    double *put, *hp, *get, *swap, *copy, *issue, *sync, *handoff;
    double *spin; /* NULL without the probe */
};

static void run_size(long m, int reps, const struct timings *t, struct bench_spin *spin)
{
    int s = (int)bsp_pid();
    struct exchange x = {s ^ 1,
                         m,
                         malloc((size_t)m),
                         calloc((size_t)m, 1),
                         calloc((size_t)m, 1),
                         calloc((size_t)m, 1),
                         NULL,
                         0,
                         0};
    if (!x.src || !x.dst || !x.local_dst || !x.stage)
        bsp_abort("bench_exchange: out of memory for %ld bytes", m);
    for (long i = 0; i < m; i++)
        x.src[i] = (unsigned char)(i * 7 + s);
    bsp_push_reg(x.dst, (int)m);
    bsp_push_reg(x.src, (int)m);
    bsp_push_reg(&x.partner_stage, (int)sizeof x.partner_stage);
    bsp_sync();
    bsp_put(x.partner, &x.stage, &x.partner_stage, 0, (int)sizeof x.stage);
    bsp_sync();

    long n_put = bench_bsp_calibrate(put_superstep, &x, TARGET_SECONDS);
    check(&x, "bsp_put");
    long n_hp = bench_bsp_calibrate(hpput_superstep, &x, TARGET_SECONDS);
    check(&x, "bsp_hpput");
    long n_get = bench_bsp_calibrate(get_superstep, &x, TARGET_SECONDS);
    for (long i = 0; i < m; i++)
        if (x.local_dst[i] != (unsigned char)(i * 7 + x.partner))
            bsp_abort("bench_exchange: bsp_get of %ld bytes fetched a wrong byte at %ld", m, i);
    check_swap(&x);
    long n_swap = bench_bsp_calibrate(getswap_superstep, &x, TARGET_SECONDS);
    long n_copy = bench_bsp_calibrate(memcpy_round, &x, TARGET_SECONDS);
    long n_handoff = bench_bsp_calibrate(handoff_superstep, &x, TARGET_SECONDS);
    for (long i = 0; i < m; i++)
        if (x.local_dst[i] != (unsigned char)(i * 7 + x.partner))
            bsp_abort("bench_exchange: the handoff of %ld bytes copied a wrong byte at %ld", m, i);
    long n_spin = t->spin ? bench_bsp_calibrate(bench_spin_wait, spin, TARGET_SECONDS) : 0;
    for (int k = 0; k < reps; k++) {
        x.issue_s = x.sync_s = 0;
        t->put[k] = bench_bsp_batch(put_superstep, &x, n_put);
        t->issue[k] = x.issue_s / (double)n_put;
        t->sync[k] = x.sync_s / (double)n_put;
        t->hp[k] = bench_bsp_batch(hpput_superstep, &x, n_hp);
        t->get[k] = bench_bsp_batch(get_superstep, &x, n_get);
        t->swap[k] = bench_bsp_batch(getswap_superstep, &x, n_swap);
        t->copy[k] = bench_bsp_batch(memcpy_round, &x, n_copy);
        t->handoff[k] = bench_bsp_batch(handoff_superstep, &x, n_handoff);
        if (t->spin)
            t->spin[k] = bench_bsp_batch(bench_spin_wait, spin, n_spin);
    }
    check_swap(&x);

    bsp_pop_reg(&x.partner_stage);
    bsp_pop_reg(x.src);
    bsp_pop_reg(x.dst);
    bsp_sync();
    free(x.stage);
    free(x.src);
    free(x.dst);
    free(x.local_dst);
}

static void report(const char *what, long m, double *t, int reps, int as_rate)
{
    char key[80];
    double med = bench_median(t, (size_t)reps);
    if (as_rate) {
        snprintf(key, sizeof key, "exch_%s_%ld_gbs", what, m);
        bench_result(key, (double)m / med / 1e9, "GB/s");
    } else {
        snprintf(key, sizeof key, "exch_%s_%ld_us", what, m);
        bench_result(key, med * 1e6, "us");
    }
}

static void spmd(void)
{
    bsp_begin(nprocs_wanted);
    int P = (int)bsp_nprocs();
    if (P % 2)
        bsp_abort("bench_exchange: needs an even number of processes, got %d", P);
    int reps = bench_reps();
    struct bench_spin spin;
    int probe = bench_spin_init(&spin);
    double *all = calloc(9 * (size_t)reps, sizeof(double));
    if (!all)
        bsp_abort("bench_exchange: out of memory");
    if (bsp_pid() == 0)
        printf("# bench_exchange: P=%d reps=%d\n", P, reps);
    for (int i = 0; i < nsizes; i++) {
        struct timings t = {all,
                            all + reps,
                            all + 2 * reps,
                            all + 3 * reps,
                            all + 4 * reps,
                            all + 5 * reps,
                            all + 6 * reps,
                            all + 7 * reps,
                            probe ? all + 8 * reps : NULL};
        run_size(sizes[i], reps, &t, &spin);
        if (bsp_pid() == 0) {
            report("put", sizes[i], t.put, reps, 1);
            report("hpput", sizes[i], t.hp, reps, 1);
            report("get", sizes[i], t.get, reps, 1);
            report("getswap", sizes[i], t.swap, reps, 1);
            report("memcpy", sizes[i], t.copy, reps, 1);
            report("put_issue", sizes[i], t.issue, reps, 0);
            report("put_sync", sizes[i], t.sync, reps, 0);
            report("handoff", sizes[i], t.handoff, reps, 1);
            printf("ratio  exch_%ld put/handoff %.2f\n", sizes[i],
                   bench_median(t.handoff, (size_t)reps) / bench_median(t.put, (size_t)reps));
            if (probe) {
                char key[80];
                snprintf(key, sizeof key, "exch_xcore_%ld_ns", sizes[i]);
                bench_result(key, 1e9 * bench_median(t.spin, (size_t)reps), "ns");
            }
        }
    }
    free(all);
    bsp_end();
}

int main(int argc, char **argv)
{
    bsp_init(spmd, argc, argv);
    if (argc > 1)
        nprocs_wanted = atoi(argv[1]);
    if (argc > 2) {
        nsizes = 0;
        for (int i = 2; i < argc && nsizes < MAX_SIZES; i++)
            sizes[nsizes++] = atol(argv[i]);
    }
    int ok = nprocs_wanted >= 2;
    for (int i = 0; i < nsizes; i++)
        ok = ok && sizes[i] >= 1 && sizes[i] <= 1L << 30;
    if (!ok) {
        fprintf(stderr, "usage: bench_exchange [P >= 2 [m ...]]  (1 <= m <= 2^30)\n");
        return 2;
    }
    spmd();
    return 0;
}
