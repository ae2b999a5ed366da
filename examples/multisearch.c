/* multisearch — the (m, n)-multisearch of paper 003 (Meyer auf der Heide and
 * Wanka, sections 2.2 and 3.1; docs/multisearch.md): n queries find their
 * segments in a complete d-ary search tree of m = d^depth leaves whose nodes
 * are spread over the P processes.
 *
 * Every query walks from the root to its leaf, one level per round. The queries
 * that pass a node v form its job J(v). A large job (|J(v)| > r, r = (n/P)^(1/2),
 * the paper's (n/P)^(1-eps) with eps = 1/2) stays on the processes that hold its
 * queries and v's splitters come to them; a small job goes to the process that
 * owns v, which searches it and sends the children's jobs on to their owners
 * (the children of a small job are small). Round t takes three supersteps:
 *   0  each holder of queries in large-phase jobs sends (v, count) to v's owner;
 *   1  the owner adds them up and sends v's d-1 splitters to every holder of a
 *      large job;
 *   2  holders search the large jobs they got splitters for and keep the
 *      queries; the other queries move to their node's owner.
 * Queries held by a node's owner are searched and passed on in every superstep;
 * one last superstep delivers the last answers home: 3*depth + 1 supersteps.
 * Each superstep declares its comparisons (searches and sorts) with
 * bsp_trace_ops_of(POLYBSP_OPS_COMPARE, ...), so that `polybsp predict --work
 * ops` can predict a trace.
 *
 * Two mappings of nodes to processes (levels with at most P nodes go to
 * distinct processes in both):
 *   random  every deeper node to a random process (the BSP algorithm);
 *   z       the children of all nodes of process Q go to z processes chosen at
 *           random for Q and the level (the BSP* algorithm): a process then
 *           sends its small jobs in at most z messages, not up to P - 1.
 * All records of one kind for one process in one superstep travel as one
 * bsp_send; with --messages single every record is a bsp_send of its own (the
 * paper's bad case for BSP*: messages of one information unit).
 *
 * usage: multisearch [-n N] [-d D] [--depth K] [--mapping random|z] [--z Z]
 *                    [--block B] [--queries uniform|skewed] [--messages batched|single]
 *                    [--seed S] [-p P] [--check] [--time] [--reps R] [--trace]
 * Exit status 0; 1 when --check finds a wrong answer; 2 on bad arguments (one
 * line "multisearch: ..." on stderr before any process starts).
 *
 * build: bspcc -O2 -o multisearch multisearch.c common/ex_util.c -lm
 *        (or `make multisearch`, with the Makefile beside it)
 */
#include "common/ex_util.h"

#include <bsp.h>
#include <polybsp.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LEAVES (1L << 20)
#define MAX_QUERIES (1L << 24)
#define SPAN (UINT64_C(1) << 32) /* segment i starts in [i*SPAN, (i+1)*SPAN) */

enum { MAP_RANDOM, MAP_Z };
enum { QUERIES_UNIFORM, QUERIES_SKEWED };

static struct options {
    long n, d, depth, z, block;
    int mapping, queries, single, check, time;
    ex_common c;
} opt = {1L << 16, 16, 4, 0, 256, MAP_RANDOM, QUERIES_UNIFORM, 0, 0, 0, {0, 11, 1, 0}};

static const char usage[] =
    "usage: multisearch [-n N] [-d D] [--depth K] [--mapping random|z] [--z Z]\n"
    "                   [--block B] [--queries uniform|skewed] [--messages batched|single]\n"
    "                   [--seed S] [-p P] [--check] [--time] [--reps R] [--trace]\n"
    "  -n N         queries (default 65536)\n"
    "  -d D         arity of the search tree (default 16)\n"
    "  --depth K    levels below the root: D^K segments (default 4)\n"
    "  --mapping    random: nodes on random processes (BSP, default);\n"
    "               z: children of one process's nodes on z processes (BSP*)\n"
    "  --z Z        z of the z-mapping (default: about (N/P)*24/B, at least 2)\n"
    "  --block B    the critical block size in bytes that sets the default z (256)\n"
    "  --queries    uniform (default) or skewed: 7/8 of them in one segment\n"
    "  --messages   batched: one message per process and kind per superstep\n"
    "               (default); single: one message per record\n"
    "  --seed S     seed of the segments, the mapping and the queries (default 1)\n"
    "  -p P         processes (default: bsp_nprocs())\n"
    "  --check      compare every answer with a sequential binary search\n"
    "  --time       median over R runs of the slowest process's search time\n"
    "  --reps R     timed runs (default 11)\n"
    "  --trace      trace one more search (bsp_trace_begin/end)\n";

/* ------------------------------------------------------------------ the input */

static uint64_t nsegments(void)
{
    uint64_t m = 1;
    for (long t = 0; t < opt.depth; t++)
        m *= (uint64_t)opt.d;
    return m;
}

/* Segment i (1 <= i < m) starts at bound(i); segment 0 starts at 0. */
static uint64_t bound(uint64_t i) { return i * SPAN + ex_mix(opt.c.seed * 31 + i) % SPAN; }

static uint64_t query_key(long g)
{
    uint64_t m = nsegments(), r = ex_mix(opt.c.seed * 977 + (uint64_t)g + 0x51ed);
    if (opt.queries == QUERIES_SKEWED && r % 8 != 0) {
        uint64_t hot = ex_mix(opt.c.seed + 0x407) % m;
        uint64_t lo = hot == 0 ? 0 : bound(hot), hi = hot == m - 1 ? m * SPAN : bound(hot + 1);
        return lo + (r >> 3) % (hi - lo);
    }
    return r % (m * SPAN);
}

/* The sequential answer: binary search for the last segment start <= key. */
static int32_t sequential_search(uint64_t key)
{
    uint64_t lo = 0, hi = nsegments() - 1; /* the answer is in [lo, hi] */
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo + 1) / 2;
        if (bound(mid) <= key)
            lo = mid;
        else
            hi = mid - 1;
    }
    return (int32_t)lo;
}

/* ------------------------------------------------------------------ records */

typedef struct {
    uint64_t key;
    int32_t home, idx;   /* the query's process and index there */
    int32_t level, node; /* its current node; level -1 at home: moved or answered */
} query;

typedef struct {
    int32_t node, count, pid;
} count_rec;

typedef struct {
    int32_t idx, leaf;
} answer_rec;

enum kind { K_COUNT, K_SPLIT, K_QUERY, K_ANSWER, NKINDS };

/* ------------------------------------------------------------------ the tree */

typedef struct {
    int p, s, d, depth;
    long r;         /* the largest small job */
    long *first;    /* first[t]: index of node (t, 0) among the inner nodes */
    int32_t *owner; /* per inner node: its process */
    int32_t *slot;  /* per inner node owned here: its splitters' place in split */
    uint64_t *split;
    ex_buf *to;               /* to[kind * p + pid]: this superstep's records */
    ex_buf counts, splits;    /* received count_rec, split records */
    ex_buf moved, moved_next; /* queries held here as their node's owner */
    query *home;
    long nhome;
    int32_t *answer; /* per home query: its segment, -1 until known */
    long stats[3];   /* large jobs, queries moved, messages sent */
    double ops;      /* comparisons this superstep, declared at its sync */
} ms;

static void *xalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size);
    if (!p)
        bsp_abort("multisearch: out of memory for %zu x %zu bytes", n, size);
    return p;
}

/* The mapping, computed alike on every process (it is the directory every
 * process consults to find a node). */
static void map_nodes(ms *m, int z)
{
    int p = m->p;
    int32_t *perm = xalloc((size_t)p, sizeof *perm);
    int32_t *zset = xalloc((size_t)p * (size_t)z, sizeof *zset);
    long nodes = 1;
    for (int t = 0; t < m->depth; t++, nodes *= m->d) {
        uint64_t lseed = ex_mix(opt.c.seed * 7919 + (uint64_t)t);
        int32_t *own = m->owner + m->first[t];
        if (nodes <= p) {
            ex_permutation(perm, p, lseed);
            for (long j = 0; j < nodes; j++)
                own[j] = perm[j];
        } else if (opt.mapping == MAP_RANDOM) {
            for (long j = 0; j < nodes; j++)
                own[j] = (int32_t)(ex_mix(lseed + (uint64_t)j) % (uint64_t)p);
        } else {
            for (int q = 0; q < p; q++) {
                ex_permutation(perm, p, lseed + 1 + (uint64_t)q);
                memcpy(zset + (size_t)q * (size_t)z, perm, (size_t)z * sizeof *perm);
            }
            const int32_t *parent = m->owner + m->first[t - 1];
            for (long j = 0; j < nodes; j++)
                own[j] = zset[(size_t)parent[j / m->d] * (size_t)z +
                              ex_mix(lseed + (uint64_t)j) % (uint64_t)z];
        }
    }
    free(perm);
    free(zset);
}

/* Builds the mapping and the splitters of the nodes this process owns: node
 * (t, j) covers leaves [j*D, (j+1)*D), D = d^(depth-t), and its splitter c
 * (1 <= c < d) is the start of child c's first leaf. */
static void build_tree(ms *m, int z)
{
    m->first = xalloc((size_t)m->depth + 1, sizeof *m->first);
    long nodes = 1;
    for (int t = 0; t < m->depth; t++, nodes *= m->d)
        m->first[t + 1] = m->first[t] + nodes;
    long inner = m->first[m->depth];
    m->owner = xalloc((size_t)inner, sizeof *m->owner);
    m->slot = xalloc((size_t)inner, sizeof *m->slot);
    map_nodes(m, z);
    long owned = 0;
    for (long g = 0; g < inner; g++)
        m->slot[g] = m->owner[g] == m->s ? (int32_t)owned++ : -1;
    m->split = xalloc((size_t)owned * (size_t)(m->d - 1), sizeof *m->split);
    uint64_t span = nsegments();
    for (int t = 0; t < m->depth; t++) {
        span /= (uint64_t)m->d; /* leaves under a child of a level-t node */
        for (long j = 0; j < m->first[t + 1] - m->first[t]; j++) {
            int32_t sl = m->slot[m->first[t] + j];
            for (int c = 1; sl >= 0 && c < m->d; c++)
                m->split[(size_t)sl * (size_t)(m->d - 1) + (size_t)c - 1] =
                    bound((uint64_t)j * (uint64_t)m->d * span + (uint64_t)c * span);
        }
    }
}

static int32_t owner_of(const ms *m, int level, int32_t node)
{
    return m->owner[m->first[level] + node];
}

/* The child (0..d-1) of a node whose splitters are keys: how many are <= key. */
static int32_t child(const uint64_t *keys, int nkeys, uint64_t key)
{
    int lo = 0, hi = nkeys;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (keys[mid] <= key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* ------------------------------------------------------------------ messages */

static void emit(ms *m, enum kind k, int pid, const void *rec, size_t n)
{
    if (opt.single && pid != m->s) {
        int tag = k;
        bsp_send(pid, &tag, rec, (bsp_size_t)n);
        m->stats[2]++;
        return;
    }
    ex_buf_add(&m->to[k * m->p + pid], rec, n);
}

static size_t split_bytes(const ms *m) { return sizeof(uint64_t) * (size_t)m->d; }

/* A record that arrived (from another process, or from this one). */
static void receive(ms *m, int k, const unsigned char *data, size_t len)
{
    if (k == K_COUNT)
        ex_buf_add(&m->counts, data, len);
    else if (k == K_SPLIT)
        ex_buf_add(&m->splits, data, len);
    else if (k == K_QUERY)
        ex_buf_add(&m->moved_next, data, len);
    else
        for (size_t i = 0; i < len; i += sizeof(answer_rec)) {
            answer_rec a;
            memcpy(&a, data + i, sizeof a);
            m->answer[a.idx] = a.leaf;
        }
}

static void receive_message(void *ctx, const void *tag, const void *payload, size_t nbytes)
{
    int k;
    memcpy(&k, tag, sizeof k);
    receive(ctx, k, payload, nbytes);
}

/* One bsp_send per process and kind, then the sync; records for this process
 * itself skip the network. */
static void exchange(ms *m)
{
    for (int k = 0; k < NKINDS; k++)
        m->stats[2] += ex_send_batches(m->to + k * m->p, &k);
    bsp_trace_ops_of(POLYBSP_OPS_COMPARE, m->ops); /* for `polybsp predict --work ops` */
    m->ops = 0;
    bsp_sync();
    for (int k = 0; k < NKINDS; k++) {
        ex_buf *self = &m->to[k * m->p + m->s];
        receive(m, k, self->data, self->len);
        for (int q = 0; q < m->p; q++)
            m->to[k * m->p + q].len = 0;
    }
    ex_each_message(receive_message, m);
}

/* ------------------------------------------------------------------ rounds */

static int by_node(const void *a, const void *b)
{
    const query *x = a, *y = b;
    /* moved and answered queries (level -1) last */
    if ((x->level < 0) != (y->level < 0))
        return x->level < 0 ? 1 : -1;
    return (x->node > y->node) - (x->node < y->node);
}

static int count_by_node(const void *a, const void *b)
{
    const count_rec *x = a, *y = b;
    return (x->node > y->node) - (x->node < y->node);
}

static int split_by_node(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* qsort of n items, where n may be 0 and base NULL (an empty buffer). */
/* ceil(log2 n) for n >= 1: the comparisons of a binary search over n - 1 keys,
 * and the depth of a merge sort of n items. */
static double log2_ceil(size_t n)
{
    double c = 0;
    for (size_t k = 1; k < n; k *= 2)
        c++;
    return c;
}

/* Sorts, counting the comparisons a sort of n items makes, n ceil(log2 n). */
static void sort(ms *m, void *base, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
    if (n > 1)
        qsort(base, n, size, cmp);
    m->ops += (double)n * log2_ceil(n);
}

/* The home queries still in the large phase: home[0, n), sorted by node. */
static long active_home(ms *m)
{
    sort(m, m->home, (size_t)m->nhome, sizeof *m->home, by_node);
    long n = 0;
    while (n < m->nhome && m->home[n].level >= 0)
        n++;
    return n;
}

/* Superstep 0 of a round: a count per node of the home queries to its owner. */
static void send_counts(ms *m, int t)
{
    long n = active_home(m);
    for (long i = 0; i < n;) {
        long e = i;
        while (e < n && m->home[e].node == m->home[i].node)
            e++;
        count_rec c = {m->home[i].node, (int32_t)(e - i), m->s};
        emit(m, K_COUNT, owner_of(m, t, c.node), &c, sizeof c);
        i = e;
    }
}

/* Superstep 1: the owner of every large job sends its splitters to the job's
 * holders. */
static void send_splitters(ms *m, int t)
{
    count_rec *c = (count_rec *)m->counts.data;
    size_t n = m->counts.len / sizeof *c;
    sort(m, c, n, sizeof *c, count_by_node);
    uint64_t *rec = xalloc((size_t)m->d, sizeof *rec);
    for (size_t i = 0; i < n;) {
        size_t e = i;
        long total = 0;
        for (; e < n && c[e].node == c[i].node; e++)
            total += c[e].count;
        if (total > m->r) {
            m->stats[0]++;
            rec[0] = (uint64_t)c[i].node;
            memcpy(rec + 1,
                   m->split + (size_t)m->slot[m->first[t] + c[i].node] * (size_t)(m->d - 1),
                   (size_t)(m->d - 1) * sizeof *rec);
            for (size_t k = i; k < e; k++)
                emit(m, K_SPLIT, c[k].pid, rec, split_bytes(m));
        }
        i = e;
    }
    free(rec);
    m->counts.len = 0;
}

/* Superstep 2: home queries of large jobs take one step down with the
 * splitters that came; the others move to their node's owner. */
static void search_or_move(ms *m, int t)
{
    long n = active_home(m);
    size_t rec = split_bytes(m), nsplit = m->splits.len / rec;
    sort(m, m->splits.data, nsplit, rec, split_by_node);
    for (long i = 0; i < n; i++) {
        query *q = &m->home[i];
        uint64_t node = (uint64_t)q->node;
        const uint64_t *keys = bsearch(&node, m->splits.data, nsplit, rec, split_by_node);
        m->ops += log2_ceil(nsplit + 1);
        if (!keys) {
            emit(m, K_QUERY, owner_of(m, t, q->node), q, sizeof *q);
            m->stats[1]++;
            q->level = -1;
            continue;
        }
        int32_t next = q->node * m->d + child(keys + 1, m->d - 1, q->key);
        m->ops += log2_ceil((size_t)m->d);
        if (t + 1 == m->depth) {
            m->answer[q->idx] = next;
            q->level = -1;
        } else {
            q->node = next;
            q->level = t + 1;
        }
    }
    m->splits.len = 0;
}

/* Every superstep: the queries held here take one step down and go on to the
 * next node's owner, or home with their answer from the last level. */
static void search_moved(ms *m)
{
    ex_buf tmp = m->moved;
    m->moved = m->moved_next;
    m->moved_next = tmp;
    m->moved_next.len = 0;
    query *q = (query *)m->moved.data;
    size_t n = m->moved.len / sizeof *q;
    for (size_t i = 0; i < n; i++) {
        int32_t sl = m->slot[m->first[q[i].level] + q[i].node];
        if (sl < 0)
            bsp_abort("multisearch: query for node %d of level %d reached process %d, "
                      "which does not own it",
                      (int)q[i].node, (int)q[i].level, m->s);
        const uint64_t *keys = m->split + (size_t)sl * (size_t)(m->d - 1);
        int32_t next = q[i].node * m->d + child(keys, m->d - 1, q[i].key);
        m->ops += log2_ceil((size_t)m->d);
        if (q[i].level + 1 == m->depth) {
            answer_rec a = {q[i].idx, next};
            emit(m, K_ANSWER, q[i].home, &a, sizeof a);
        } else {
            q[i].level++;
            q[i].node = next;
            emit(m, K_QUERY, owner_of(m, q[i].level, next), &q[i], sizeof q[i]);
        }
    }
    m->moved.len = 0;
}

/* One multisearch of the home queries orig[0, nhome): 3*depth + 1 supersteps. */
static void multisearch(ms *m, const query *orig)
{
    if (m->nhome)
        memcpy(m->home, orig, (size_t)m->nhome * sizeof *orig);
    for (long i = 0; i < m->nhome; i++)
        m->answer[i] = -1;
    for (int k = 0; k <= 3 * m->depth; k++) {
        search_moved(m);
        int t = k / 3;
        if (k < 3 * m->depth) {
            if (k % 3 == 0)
                send_counts(m, t);
            else if (k % 3 == 1)
                send_splitters(m, t);
            else
                search_or_move(m, t);
        }
        exchange(m);
    }
}

/* ------------------------------------------------------------------ the run */

static int exit_status;

static void sum_longs(void *acc, const void *in, size_t nbytes)
{
    long *a = acc;
    const long *b = in;
    for (size_t i = 0; i < nbytes / sizeof *a; i++)
        a[i] += b[i];
}

static int default_z(int p)
{
    long z = (opt.n / p) * (long)sizeof(query) / opt.block;
    if (z < 2)
        z = 2;
    return (int)(z > p ? p : z);
}

static void check(ms *m, const query *orig)
{
    long wrong[2] = {0, m->nhome}, all[2];
    for (long i = 0; i < m->nhome; i++)
        wrong[0] += m->answer[i] != sequential_search(orig[i].key);
    bsp_allreduce(wrong, all, sizeof wrong, sum_longs);
    if (m->s != 0)
        return;
    if (all[0] == 0)
        printf("check: all %ld answers equal the sequential search\n", all[1]);
    else
        printf("check: FAILED: %ld of %ld answers differ from the sequential search\n", all[0],
               all[1]);
    exit_status = all[0] != 0;
}

static void time_runs(ms *m, const query *orig)
{
    double *t = xalloc((size_t)opt.c.reps, sizeof *t);
    multisearch(m, orig); /* untimed: first touches */
    for (long r = 0; r < opt.c.reps; r++) {
        bsp_sync();
        double t0 = bsp_time();
        multisearch(m, orig);
        t[r] = bsp_time() - t0;
    }
    ex_report_times(t, (int)opt.c.reps);
    free(t);
}

static void spmd(void)
{
    bsp_begin((int)opt.c.p);
    ms m = {.p = bsp_nprocs(), .s = bsp_pid(), .d = (int)opt.d, .depth = (int)opt.depth};
    int z = opt.mapping == MAP_Z ? (opt.z ? (int)opt.z : default_z(m.p)) : 1;
    bsp_size_t tagsize = sizeof(int);
    bsp_set_tagsize(&tagsize);
    long per = (opt.n + m.p - 1) / m.p, lo = m.s * per, hi = lo + per < opt.n ? lo + per : opt.n;
    m.nhome = hi > lo ? hi - lo : 0;
    long r = 1;
    while ((r + 1) * (r + 1) <= per)
        r++;
    m.r = r;
    m.to = xalloc((size_t)NKINDS * (size_t)m.p, sizeof *m.to);
    build_tree(&m, z);
    query *orig = xalloc((size_t)m.nhome, sizeof *orig);
    m.home = xalloc((size_t)m.nhome, sizeof *m.home);
    m.answer = xalloc((size_t)m.nhome, sizeof *m.answer);
    for (long i = 0; i < m.nhome; i++)
        orig[i] = (query){query_key(lo + i), m.s, (int32_t)i, 0, 0};
    if (m.s == 0) {
        char mapping[32] = "random mapping";
        if (opt.mapping == MAP_Z)
            snprintf(mapping, sizeof mapping, "z-mapping (z = %d)", z);
        printf("multisearch: P = %d, n = %ld %s queries, d = %ld, depth %ld (%llu segments), "
               "%s, %s messages, r = %ld\n",
               m.p, opt.n, opt.queries == QUERIES_SKEWED ? "skewed" : "uniform", opt.d, opt.depth,
               (unsigned long long)nsegments(), mapping, opt.single ? "single" : "batched", m.r);
    }
    bsp_sync();

    multisearch(&m, orig);
    long stats[3];
    bsp_allreduce(m.stats, stats, sizeof stats, sum_longs);
    if (m.s == 0)
        printf("multisearch: %d supersteps, %ld large jobs, %ld queries moved to their node, "
               "%ld messages\n",
               3 * m.depth + 1, stats[0], stats[1], stats[2]);
    if (opt.check)
        check(&m, orig);
    if (opt.time)
        time_runs(&m, orig);
    if (opt.c.trace) {
        ex_trace_begin();
        multisearch(&m, orig);
        bsp_trace_end();
    }
    for (int k = 0; k < NKINDS * m.p; k++)
        ex_buf_free(&m.to[k]);
    free(m.to);
    ex_buf_free(&m.counts);
    ex_buf_free(&m.splits);
    ex_buf_free(&m.moved);
    ex_buf_free(&m.moved_next);
    free(m.first);
    free(m.owner);
    free(m.slot);
    free(m.split);
    free(orig);
    free(m.home);
    free(m.answer);
    bsp_end();
}

static void parse(int argc, char **argv)
{
    int z_given = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (ex_common_option(argc, argv, &i, &opt.c, usage)) {
            continue;
        } else if (!strcmp(a, "-n")) {
            opt.n = ex_parse_long(a, ex_value(argc, argv, &i), 1, MAX_QUERIES);
        } else if (!strcmp(a, "-d")) {
            opt.d = ex_parse_long(a, ex_value(argc, argv, &i), 2, MAX_LEAVES);
        } else if (!strcmp(a, "--depth")) {
            opt.depth = ex_parse_long(a, ex_value(argc, argv, &i), 1, 20);
        } else if (!strcmp(a, "--z")) {
            opt.z = ex_parse_long(a, ex_value(argc, argv, &i), 1, 1L << 20);
            z_given = 1;
        } else if (!strcmp(a, "--block")) {
            opt.block = ex_parse_long(a, ex_value(argc, argv, &i), 1, 1L << 30);
        } else if (!strcmp(a, "--mapping")) {
            static const char *const names[] = {"random", "z", NULL}; /* MAP_* */
            opt.mapping = ex_parse_choice(a, ex_value(argc, argv, &i), names);
        } else if (!strcmp(a, "--queries")) {
            static const char *const names[] = {"uniform", "skewed", NULL}; /* QUERIES_* */
            opt.queries = ex_parse_choice(a, ex_value(argc, argv, &i), names);
        } else if (!strcmp(a, "--messages")) {
            static const char *const names[] = {"batched", "single", NULL};
            opt.single = ex_parse_choice(a, ex_value(argc, argv, &i), names);
        } else if (!strcmp(a, "--check")) {
            opt.check = 1;
        } else if (!strcmp(a, "--time")) {
            opt.time = 1;
        } else {
            ex_usage_error("unknown option '%s' (see multisearch --help)", a);
        }
    }
    uint64_t m = 1;
    for (long t = 0; t < opt.depth && m <= (uint64_t)MAX_LEAVES; t++)
        m *= (uint64_t)opt.d;
    if (m > (uint64_t)MAX_LEAVES)
        ex_usage_error("d = %ld, depth %ld: more than %ld segments", opt.d, opt.depth, MAX_LEAVES);
    if (z_given && opt.mapping != MAP_Z)
        ex_usage_error("--z needs --mapping z");
    if (opt.c.p == 0)
        opt.c.p = bsp_nprocs();
    if (opt.z > opt.c.p)
        ex_usage_error("--z %ld exceeds P = %ld", opt.z, opt.c.p);
}

int main(int argc, char **argv)
{
    ex_set_name("multisearch");
    parse(argc, argv);
    bsp_init(spmd, argc, argv);
    spmd();
    return exit_status;
}
