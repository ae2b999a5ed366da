/* hm_routing — routing an (h, m)-relation (paper 002, Bilardi et al., section 5,
 * Theorem 5; docs/hm_routing.md): every process sends and receives at most h
 * messages, m messages in all. Two ways:
 *   direct  one superstep of the whole machine: each process sends its
 *           messages to their destinations (BSP cost g*h + L whatever m is);
 *   ascend  the paper's D-BSP algorithm on binary clusters made with
 *           bsp_partition (a superstep inside a cluster at depth i is labelled
 *           level i in the trace). With 2^k <= hP/m < 2^(k+1):
 *           ascend:  balance the messages held evenly over the processes of
 *                    each k-cluster, then of each (k-1)-cluster, ..., of the
 *                    whole machine, using prefix sums of the counts;
 *           descend: from the whole machine down to the k-clusters, send each
 *                    message into the half of the cluster holding its
 *                    destination, balanced over that half; inside the
 *                    destination's k-cluster, deliver it.
 *           At level i a process sends about m/(P/2^i) messages, not h.
 * k stops at clusters of two processes (a cluster of one has nothing to route).
 * The prefix sums are a bsp_allgather of the counts inside the cluster.
 *
 * The relation: ceil(m/h) senders and as many receivers, each a seeded random
 * choice of processes; message j goes from sender j/h to receiver j mod
 * ceil(m/h). A message is a header (source, destination, number) and W
 * seeded 8-byte words. Every process checks that it ends up holding exactly
 * the messages addressed to it. Every superstep declares its work with
 * bsp_trace_ops_of(POLYBSP_OPS_WORD, ...) (a record counted, or moved: one
 * word per 8 bytes), for `polybsp predict --work ops`.
 *
 * usage: hm_routing [--route direct|ascend] [--h H] [--m M] [--words W] [--k K]
 *                   [--seed S] [--reps R] [-p P] [--trace]
 * Exit status 0; 1 if a process holds wrong messages; 2 on bad arguments (one
 * line "hm_routing: ..." on stderr before any process starts).
 *
 * build: bspcc -O2 -o hm_routing hm_routing.c common/ex_util.c -lm
 *        (or `make hm_routing`, with the Makefile beside it)
 */
#include "common/ex_util.h"

#include <bsp.h>
#include <polybsp.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_MESSAGES (1L << 22)

static struct options {
    int ascend;
    long h, m, words, k; /* k < 0: from h, m and P */
    ex_common c;
} opt = {1, 256, 0, 1, -1, {0, 11, 1, 0}};

static const char usage[] =
    "usage: hm_routing [--route direct|ascend] [--h H] [--m M] [--words W] [--k K]\n"
    "                  [--seed S] [--reps R] [-p P] [--trace]\n"
    "  --route R  direct: one superstep; ascend: ascend/descend on D-BSP clusters\n"
    "             (default)\n"
    "  --h H      most messages a process sends or receives (default 256)\n"
    "  --m M      messages in all, at most H*P (default H)\n"
    "  --words W  8-byte words of payload per message (default 1)\n"
    "  --k K      the level of the clusters the messages are delivered in\n"
    "             (default: 2^K <= H*P/M < 2^(K+1), at most log2(P) - 1)\n"
    "  --seed S   seed of the relation and the payloads (default 1)\n"
    "  --reps R   timed routings (default 11)\n"
    "  -p P       processes (default: bsp_nprocs())\n"
    "  --trace    trace R more routings (bsp_trace_begin/end)\n";

typedef struct {
    int32_t src, dst, seq, pad;
} head;

static int exit_status;

static size_t rec_bytes(void) { return sizeof(head) + (size_t)opt.words * sizeof(uint64_t); }

static long nsenders(void) { return (opt.m + opt.h - 1) / opt.h; }

/* The deepest level whose binary clusters have two processes or more. */
static int max_level(long p)
{
    int k = 0;
    while ((p >> (k + 1)) >= 2)
        k++;
    return k;
}

/* 2^k <= hP/m < 2^(k+1), capped at max_level(P). */
static int level_k(long p)
{
    if (opt.k >= 0)
        return (int)opt.k;
    int k = 0;
    while ((2L << k) * opt.m <= opt.h * p)
        k++;
    return k < max_level(p) ? k : max_level(p);
}

/* ------------------------------------------------------------------ the relation */

typedef struct {
    int p, s;
    int32_t *sender, *receiver; /* seeded permutations of the processes */
    ex_buf orig, held, *to;     /* the messages sent here; held here; this superstep's, per pid */
    long sent;                  /* bsp_send calls */
} router;

static head message_head(const router *r, long j)
{
    head h = {r->sender[j / opt.h], r->receiver[j % nsenders()], (int32_t)j, 0};
    return h;
}

static uint64_t word(long j, long w)
{
    return ex_mix(opt.c.seed * 65537 + (uint64_t)j * 131 + (uint64_t)w);
}

/* The messages this process sends, in orig. */
static void make_messages(router *r)
{
    unsigned char *rec = malloc(rec_bytes());
    if (!rec)
        bsp_abort("hm_routing: out of memory");
    for (long j = 0; j < opt.m; j++) {
        head h = message_head(r, j);
        if (h.src != r->s)
            continue;
        memcpy(rec, &h, sizeof h);
        for (long w = 0; w < opt.words; w++) {
            uint64_t v = word(j, w);
            memcpy(rec + sizeof h + (size_t)w * sizeof v, &v, sizeof v);
        }
        ex_buf_add(&r->orig, rec, rec_bytes());
    }
    free(rec);
}

/* Every routing starts from the same messages (the copy is the first
 * superstep's work). */
static void reset(router *r)
{
    r->held.len = 0;
    ex_buf_add(&r->held, r->orig.data, r->orig.len);
}

static uint64_t fold(uint64_t acc, uint64_t v) { return ex_mix(acc ^ v); }

/* The number of wrong messages held here: held must be exactly the messages
 * addressed to this process, with their payloads (in any order). */
static long wrong_messages(const router *r)
{
    size_t n = r->held.len / rec_bytes();
    uint64_t got = 0, want = 0;
    long wrong = 0, expected = 0;
    for (size_t i = 0; i < n; i++) {
        const unsigned char *rec = r->held.data + i * rec_bytes();
        head h;
        memcpy(&h, rec, sizeof h);
        head truth = message_head(r, h.seq);
        if (h.dst != r->s || h.src != truth.src || h.dst != truth.dst)
            wrong++;
        uint64_t sum = (uint64_t)h.seq;
        for (long w = 0; w < opt.words; w++) {
            uint64_t v;
            memcpy(&v, rec + sizeof h + (size_t)w * sizeof v, sizeof v);
            sum = fold(sum, v);
        }
        got += sum;
    }
    for (long j = 0; j < opt.m; j++)
        if (message_head(r, j).dst == r->s) {
            uint64_t sum = (uint64_t)j;
            for (long w = 0; w < opt.words; w++)
                sum = fold(sum, word(j, w));
            want += sum;
            expected++;
        }
    if (wrong == 0 && ((long)n != expected || got != want))
        wrong = labs(expected - (long)n) + 1;
    return wrong;
}

/* ------------------------------------------------------------------ moving */

static void keep(void *ctx, const void *tag, const void *payload, size_t nbytes)
{
    (void)tag;
    ex_buf_add(&((router *)ctx)->held, payload, nbytes);
}

/* Sends every held record to target(record) (a pid of the current group),
 * batched per process. held keeps the records for this process; the others
 * arrive at the end of the superstep, which end() ends (bsp_sync, or
 * bsp_partition for a descend step). */
static void send_held(router *r, int (*target)(const router *, const head *, long q, void *),
                      void *arg)
{
    int p = (int)bsp_nprocs(), me = (int)bsp_pid();
    size_t n = r->held.len / rec_bytes();
    ex_buf mine = {0};
    for (size_t i = 0; i < n; i++) {
        const unsigned char *rec = r->held.data + i * rec_bytes();
        head h;
        memcpy(&h, rec, sizeof h);
        int t = target(r, &h, (long)i, arg);
        ex_buf_add(t == me ? &mine : &r->to[t], rec, rec_bytes());
    }
    bsp_trace_ops_of(POLYBSP_OPS_WORD, (double)(n * rec_bytes() / 8));
    r->sent += ex_send_batches(r->to, NULL);
    for (int q = 0; q < p; q++)
        r->to[q].len = 0;
    ex_buf_free(&r->held);
    r->held = mine;
}

/* A cluster: its first process (as a pid of the whole run) and its size. */
typedef struct {
    int base, size;
} cluster;

static int to_destination(const router *r, const head *h, long q, void *arg)
{
    (void)r;
    (void)q;
    return h->dst - ((const cluster *)arg)->base;
}

/* The whole-run plain routing: one superstep. */
static void route_direct(router *r)
{
    cluster all = {0, r->p};
    send_held(r, to_destination, &all);
    bsp_sync();
    ex_each_message(keep, r);
}

/* Prefix sums inside the current group: every process's `per` counts, gathered
 * (the D-BSP prefix-sum step T_pr of Theorem 5). */
static long *gather_counts(const long *mine, int per)
{
    int p = (int)bsp_nprocs();
    long *all = malloc((size_t)p * (size_t)per * sizeof *all);
    if (!all)
        bsp_abort("hm_routing: out of memory for %d counts", p * per);
    bsp_allgather(mine, all, (size_t)per * sizeof *mine);
    return all;
}

/* Where one spreading step sends each record: the group (of `size` processes,
 * the first of which is process `base` of the whole run) is one block of
 * processes (balancing, halves = 1) or two halves [0, s0) and [s0, size)
 * (descending, halves = 2: a record goes to the half holding its
 * destination). The records bound for one block are numbered across the group
 * by prefix sums and cut into runs of `per` for its processes in turn. */
typedef struct {
    int base, size, s0, halves;
    long offset[2], per[2], seen[2];
} spread;

static int half_of(const spread *sp, const head *h)
{
    return sp->halves == 2 && h->dst - sp->base >= sp->s0;
}

static int to_block(const router *r, const head *h, long q, void *arg)
{
    (void)r;
    (void)q;
    spread *sp = arg;
    int b = half_of(sp, h);
    long place = sp->offset[b] + sp->seen[b]++;
    return (b ? sp->s0 : 0) + (int)(place / sp->per[b]);
}

/* One spreading step in the current group (base: its first process in the
 * whole run; s0: the size of its lower half). The caller ends the superstep. */
static void spread_step(router *r, int base, int halves, int s0)
{
    int size = (int)bsp_nprocs(), me = (int)bsp_pid();
    spread sp = {base, size, halves == 2 ? s0 : size, halves, {0, 0}, {1, 1}, {0, 0}};
    long mine[2] = {0, 0};
    size_t n = r->held.len / rec_bytes();
    for (size_t i = 0; i < n; i++) {
        head h;
        memcpy(&h, r->held.data + i * rec_bytes(), sizeof h);
        mine[half_of(&sp, &h)]++;
    }
    bsp_trace_ops_of(POLYBSP_OPS_WORD, (double)n);
    long *all = gather_counts(mine, 2), total[2] = {0, 0};
    for (int q = 0; q < size; q++)
        for (int b = 0; b < 2; b++) {
            if (q < me)
                sp.offset[b] += all[2 * q + b];
            total[b] += all[2 * q + b];
        }
    free(all);
    for (int b = 0; b < 2; b++) {
        long procs = b ? size - sp.s0 : sp.s0;
        if (procs > 0 && total[b] > 0)
            sp.per[b] = (total[b] + procs - 1) / procs;
    }
    send_held(r, to_block, &sp);
}

/* The paper's ascend/descend on binary clusters down to level k. */
static void route_ascend(router *r, int k)
{
    cluster cl[64];
    int s0[64];
    cl[0] = (cluster){0, r->p};
    for (int i = 0; i < k; i++) {
        int size = cl[i].size, lower = size / 2;
        double w[2] = {lower, size - lower};
        int part = bsp_partition(2, w);
        s0[i] = part ? size - (int)bsp_nprocs() : (int)bsp_nprocs();
        cl[i + 1] = (cluster){cl[i].base + (part ? s0[i] : 0), (int)bsp_nprocs()};
    }
    for (int i = k; i >= 0; i--) { /* ascend: balance in ever larger clusters */
        spread_step(r, cl[i].base, 1, 0);
        bsp_sync();
        ex_each_message(keep, r);
        if (i > 0)
            bsp_rejoin();
    }
    for (int i = 0; i < k; i++) { /* descend: into the destination's half */
        spread_step(r, cl[i].base, 2, s0[i]);
        double w[2] = {s0[i], cl[i].size - s0[i]};
        bsp_partition(2, w);
        ex_each_message(keep, r);
    }
    send_held(r, to_destination, &cl[k]); /* deliver inside the k-cluster */
    bsp_sync();
    ex_each_message(keep, r);
    for (int i = k; i > 0; i--)
        bsp_rejoin();
}

static void route(router *r, int k)
{
    if (opt.ascend)
        route_ascend(r, k);
    else
        route_direct(r);
}

static void sum_long(void *acc, const void *in, size_t nbytes)
{
    (void)nbytes;
    *(long *)acc += *(const long *)in;
}

static void spmd(void)
{
    bsp_begin((int)opt.c.p);
    router r = {.p = (int)bsp_nprocs(), .s = (int)bsp_pid()};
    int k = level_k(r.p);
    r.sender = calloc((size_t)r.p, sizeof *r.sender);
    r.receiver = calloc((size_t)r.p, sizeof *r.receiver);
    r.to = calloc((size_t)r.p, sizeof *r.to);
    double *t = calloc((size_t)opt.c.reps, sizeof *t);
    if (!r.sender || !r.receiver || !r.to || !t)
        bsp_abort("hm_routing: out of memory");
    ex_permutation(r.sender, r.p, ex_mix(opt.c.seed * 3 + 1));
    ex_permutation(r.receiver, r.p, ex_mix(opt.c.seed * 3 + 2));

    make_messages(&r);
    reset(&r);
    route(&r, k);
    long wrong = wrong_messages(&r), first_sent = r.sent;
    for (long i = 0; i < opt.c.reps; i++) {
        reset(&r);
        bsp_sync();
        double t0 = bsp_time();
        route(&r, k);
        t[i] = bsp_time() - t0;
    }
    wrong += wrong_messages(&r);
    if (opt.c.trace) {
        ex_trace_begin();
        for (long i = 0; i < opt.c.reps; i++) {
            reset(&r);
            route(&r, k);
        }
        bsp_trace_end();
    }
    long all[2], mine[2] = {wrong, first_sent};
    bsp_allreduce(&mine[0], &all[0], sizeof(long), sum_long);
    bsp_allreduce(&mine[1], &all[1], sizeof(long), sum_long);
    if (r.s == 0) {
        printf("hm_routing: P = %d, h = %ld, m = %ld messages of %zu bytes, %s", r.p, opt.h, opt.m,
               rec_bytes(), opt.ascend ? "ascend/descend" : "direct");
        if (opt.ascend)
            printf(" down to level %d (clusters of about %d)", k, r.p >> k);
        printf(", %ld bsp_sends\n", all[1]);
    }
    ex_report_times(t, (int)opt.c.reps);
    if (r.s == 0) {
        if (all[0])
            printf("check: FAILED: %ld messages wrong or missing\n", all[0]);
        else
            printf("check: every process holds exactly its messages\n");
        exit_status = all[0] != 0;
    }
    for (int q = 0; q < r.p; q++)
        ex_buf_free(&r.to[q]);
    ex_buf_free(&r.held);
    ex_buf_free(&r.orig);
    free(r.to);
    free(r.sender);
    free(r.receiver);
    free(t);
    bsp_end();
}

static void parse(int argc, char **argv)
{
    int m_given = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (ex_common_option(argc, argv, &i, &opt.c, usage)) {
            continue;
        } else if (!strcmp(a, "--route")) {
            static const char *const names[] = {"direct", "ascend", NULL};
            opt.ascend = ex_parse_choice(a, ex_value(argc, argv, &i), names);
        } else if (!strcmp(a, "--h")) {
            opt.h = ex_parse_long(a, ex_value(argc, argv, &i), 1, MAX_MESSAGES);
        } else if (!strcmp(a, "--m")) {
            opt.m = ex_parse_long(a, ex_value(argc, argv, &i), 1, MAX_MESSAGES);
            m_given = 1;
        } else if (!strcmp(a, "--words")) {
            opt.words = ex_parse_long(a, ex_value(argc, argv, &i), 0, 1 << 16);
        } else if (!strcmp(a, "--k")) {
            opt.k = ex_parse_long(a, ex_value(argc, argv, &i), 0, 30);
        } else {
            ex_usage_error("unknown option '%s' (see hm_routing --help)", a);
        }
    }
    if (opt.c.p == 0)
        opt.c.p = bsp_nprocs();
    if (!m_given)
        opt.m = opt.h;
    if (opt.m > opt.h * opt.c.p)
        ex_usage_error("m = %ld exceeds h*P = %ld (no process may send more than h)", opt.m,
                       opt.h * opt.c.p);
    if (opt.m * (long)rec_bytes() > (1L << 30))
        ex_usage_error("m = %ld messages of %zu bytes exceed 1 GiB", opt.m, rec_bytes());
    if (opt.k > max_level(opt.c.p))
        ex_usage_error("--k %ld: clusters of level %ld would have fewer than 2 of P = %ld "
                       "processes (at most %d)",
                       opt.k, opt.k, opt.c.p, max_level(opt.c.p));
    if (opt.k >= 0 && !opt.ascend)
        ex_usage_error("--k needs --route ascend");
}

int main(int argc, char **argv)
{
    ex_set_name("hm_routing");
    parse(argc, argv);
    bsp_init(spmd, argc, argv);
    spmd();
    return exit_status;
}
