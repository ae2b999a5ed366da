/* broadcast_study — one of the library's four broadcasts (bsp_bcast_with:
 * DIRECT, BINOMIAL, TWOPHASE, ROOTP; paper 003 section 3.2 for Root(p)) run
 * repeatedly at one size, checked, timed and traced, so that
 * bench/paper/broadcast.sh can set each algorithm's real time beside what BSP,
 * D-BSP and CCM predict for it (docs/broadcast_study.md).
 *
 * A fifth, rootp-dbsp, is Root(p) written as the paper's D-BSP program: the
 * library's ROOTP runs every superstep in the whole group, so a trace labels
 * them all level 0; here the recursive calls run inside clusters made with
 * bsp_partition, so the trace shows each superstep's cluster level, and D-BSP
 * can charge it as the paper does. P must be a power of two and the root 0.
 *
 * usage: broadcast_study [--alg direct|binomial|twophase|rootp|rootp-dbsp]
 *                        [-n BYTES] [--root R] [--reps K] [--seed S] [-p P] [--trace]
 * Every run broadcasts n seeded bytes from the root; every process checks them.
 * It prints the median over K runs of the slowest process's broadcast time;
 * --trace records K more broadcasts (bsp_trace_begin/end), so that a
 * prediction of the trace divided by K is the prediction for one.
 * Exit status 0; 1 if a process received wrong bytes; 2 on bad arguments (one
 * line "broadcast_study: ..." on stderr before any process starts).
 *
 * build: bspcc -O2 -o broadcast_study broadcast_study.c common/ex_util.c -lm
 *        (or `make broadcast_study`, with the Makefile beside it)
 */
#include "common/ex_util.h"

#include <bsp.h>
#include <polybsp.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const alg_names[] = {"direct", "binomial",   "twophase",
                                        "rootp",  "rootp-dbsp", NULL};
static const bsp_bcast_alg alg_ids[] = {BSP_BCAST_DIRECT, BSP_BCAST_BINOMIAL, BSP_BCAST_TWOPHASE,
                                        BSP_BCAST_ROOTP}; /* the library's, by index */
enum { ROOTP_DBSP = 4 };                                  /* not the library's: rootp_dbsp below */

static struct options {
    int alg; /* index into alg_names */
    long n, root;
    ex_common c;
} opt = {1, 65536, 0, {0, 21, 1, 0}};

static const char usage[] =
    "usage: broadcast_study [--alg direct|binomial|twophase|rootp|rootp-dbsp]\n"
    "                       [-n BYTES] [--root R] [--reps K] [--seed S] [-p P] [--trace]\n"
    "  --alg A    the broadcast (default binomial; include/polybsp_coll.h);\n"
    "             rootp-dbsp: Root(p) on clusters made by bsp_partition (P a\n"
    "             power of two, root 0)\n"
    "  -n BYTES   bytes broadcast (default 65536)\n"
    "  --root R   the process that holds them (default 0)\n"
    "  --reps K   timed broadcasts, and traced ones with --trace (default 21)\n"
    "  --seed S   seed of the bytes (default 1)\n"
    "  -p P       processes (default: bsp_nprocs())\n"
    "  --trace    trace K more broadcasts (bsp_trace_begin/end)\n";

static int exit_status;

static int log2_exact(long p)
{
    int j = 0;
    while ((1L << j) < p)
        j++;
    return (1L << j) == p ? j : -1;
}

static void rootp_dbsp(unsigned char *buf, size_t n);

/* Runs rootp_dbsp in the clusters `depth` binary halvings down (in every one
 * when all is set, else only in the one holding process 0 of the current
 * group, while the others wait), then rejoins. */
static void in_clusters(int depth, int all, unsigned char *buf, size_t n)
{
    if (depth == 0) {
        if (all)
            rootp_dbsp(buf, n);
        return;
    }
    int part = bsp_partition(2, NULL);
    in_clusters(depth - 1, all || part == 0, buf, n);
    bsp_rejoin();
}

/* Root(p) of Juurlink et al. (paper 003, section 3.2) on the current group,
 * from its process 0, p = 2^j: Root(m) on processes [0, m), then process
 * i < m sends to i*k, then Root(k) inside every cluster of k processes. k = 2^ceil(j/2) and m =
 * p/k, as the library's ROOTP chooses them: [0, m) is ceil(j/2) halvings down, a cluster of k is
 * floor(j/2) halvings down. Messages (bsp_send) need no registration inside the clusters. */
static void rootp_dbsp(unsigned char *buf, size_t n)
{
    int p = (int)bsp_nprocs(), s = (int)bsp_pid(), j = log2_exact(p);
    if (p == 1)
        return;
    int k = 1 << ((j + 1) / 2), m = p / k;
    if (p == 2) {
        if (s == 0)
            bsp_send(1, NULL, buf, (bsp_size_t)n);
    } else {
        in_clusters((j + 1) / 2, 0, buf, n);
        if (s > 0 && s < m)
            bsp_send(s * k, NULL, buf, (bsp_size_t)n);
    }
    bsp_sync();
    bsp_nprocs_t nmsg;
    bsp_size_t bytes;
    bsp_qsize(&nmsg, &bytes);
    if (nmsg > 0)
        bsp_move(buf, (bsp_size_t)n);
    if (p > 2)
        in_clusters(j / 2, 1, buf, n);
}

/* A broadcast computes nothing: its first superstep declares 0 operations, so
 * that `polybsp predict --work ops` charges communication only (the
 * collective's later supersteps keep their measured w, which is copying). */
static void broadcast(unsigned char *buf)
{
    bsp_trace_ops(0);
    if (opt.alg == ROOTP_DBSP)
        rootp_dbsp(buf, (size_t)opt.n);
    else
        bsp_bcast_with(alg_ids[opt.alg], (int)opt.root, buf, (size_t)opt.n);
}

static unsigned char byte_at(long i, long run)
{
    return (unsigned char)ex_mix(opt.c.seed * 1000003 + (uint64_t)run * 7919 + (uint64_t)i);
}

/* Broadcast run `run`'s bytes from the root; the number of wrong bytes here. */
static long one(unsigned char *buf, long run)
{
    int s = bsp_pid();
    for (long i = 0; i < opt.n; i++)
        buf[i] = s == opt.root ? byte_at(i, run) : 0;
    broadcast(buf);
    long wrong = 0;
    for (long i = 0; i < opt.n; i++)
        wrong += buf[i] != byte_at(i, run);
    return wrong;
}

static void sum_long(void *acc, const void *in, size_t nbytes)
{
    (void)nbytes;
    *(long *)acc += *(const long *)in;
}

static void spmd(void)
{
    bsp_begin((int)opt.c.p);
    int s = bsp_pid(), p = bsp_nprocs();
    unsigned char *buf = malloc(opt.n ? (size_t)opt.n : 1);
    double *t = malloc((size_t)opt.c.reps * sizeof *t);
    if (!buf || !t)
        bsp_abort("broadcast_study: out of memory for %ld bytes", opt.n);
    long wrong = one(buf, 0); /* untimed: first touches */
    for (long r = 0; r < opt.c.reps; r++) {
        bsp_sync();
        double t0 = bsp_time();
        broadcast(buf);
        t[r] = bsp_time() - t0;
    }
    if (opt.c.trace) {
        ex_trace_begin();
        for (long r = 0; r < opt.c.reps; r++)
            broadcast(buf);
        bsp_trace_end();
    }
    wrong += one(buf, 1);
    long all;
    bsp_allreduce(&wrong, &all, sizeof all, sum_long);
    if (s == 0)
        printf("broadcast_study: P = %d, %s, n = %ld bytes from process %ld\n", p,
               alg_names[opt.alg], opt.n, opt.root);
    ex_report_times(t, (int)opt.c.reps);
    if (s == 0) {
        if (all)
            printf("check: FAILED: %ld wrong bytes\n", all);
        else
            printf("check: every process received the root's bytes\n");
        exit_status = all != 0;
    }
    free(buf);
    free(t);
    bsp_end();
}

static void parse(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (ex_common_option(argc, argv, &i, &opt.c, usage)) {
            continue;
        } else if (!strcmp(a, "--alg")) {
            opt.alg = ex_parse_choice(a, ex_value(argc, argv, &i), alg_names);
        } else if (!strcmp(a, "-n")) {
            opt.n = ex_parse_long(a, ex_value(argc, argv, &i), 0, 1L << 30);
        } else if (!strcmp(a, "--root")) {
            opt.root = ex_parse_long(a, ex_value(argc, argv, &i), 0, 1 << 20);
        } else {
            ex_usage_error("unknown option '%s' (see broadcast_study --help)", a);
        }
    }
    if (opt.c.p == 0)
        opt.c.p = bsp_nprocs();
    if (opt.root >= opt.c.p)
        ex_usage_error("--root %ld is not a process of P = %ld", opt.root, opt.c.p);
    if (opt.alg == ROOTP_DBSP && log2_exact(opt.c.p) < 0)
        ex_usage_error("--alg rootp-dbsp needs P to be a power of two, got P = %ld", opt.c.p);
    if (opt.alg == ROOTP_DBSP && opt.root != 0)
        ex_usage_error("--alg rootp-dbsp broadcasts from process 0, got --root %ld", opt.root);
}

int main(int argc, char **argv)
{
    ex_set_name("broadcast_study");
    parse(argc, argv);
    bsp_init(spmd, argc, argv);
    spmd();
    return exit_status;
}
