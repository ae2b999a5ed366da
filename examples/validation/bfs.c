/* bfs — validation suite (docs/validation.md): breadth-first search on a random
 * directed graph, level-synchronous, with BSMP messages.
 *
 * usage: bfs [SIZE [ITERS]]   (default 524288 vertices, 4 searches)
 * Vertex u of the SIZE vertices has 4 to 12 out-edges (8 on average), edge k
 * going to a fixed hash of (u, k) mod SIZE: the graph exists only as that hash,
 * the same at every P. Vertices are block-distributed. Search r starts from a
 * hashed root; each level is one superstep: every process expands its frontier,
 * marks the neighbours it owns, and sends each other owner one bsp_send message
 * (tag: the level; payload: the vertices, an irregular number per destination:
 * all-to-all at the middle levels, sparse at the first and last ones); received
 * vertices not yet seen form the next frontier (bsp_qsize, bsp_get_tag,
 * bsp_move). Each process also bsp_puts the size of its frontier to process 0,
 * which puts their total to everyone in the next superstep: a search ends one
 * superstep after a level whose whole frontier was empty.
 * Check: process 0 runs a sequential BFS from each root and compares, for every
 * process's block, a hash-weighted sum of the distances, and the number of
 * levels and of vertices reached. P from bsp_nprocs(); any P >= 1, also
 * P > SIZE. Prints "bfs: P = p, n = SIZE, ITERS iterations, OK" on process 0
 * and exits 0; a wrong distance stops the run with bsp_abort("bfs: WRONG ...")
 * (status 1); bad arguments print one line and exit 2.
 *
 * As in BSPlib, only process 0 is guaranteed to run main before bsp_begin, so
 * the arguments reach the other processes by bsp_put.
 */
#include <bsp.h>

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

enum { MIN_DEGREE = 4, DEGREE_SPREAD = 9 }; /* out-degrees 4 .. 12 */

static int args[2] = {1 << 19, 4}; /* SIZE, ITERS: process 0's, set by main */

static long block_start(int s, int p, long n) { return (long)((int64_t)s * n / p); }

/* The process whose block holds index i: the largest s with block_start(s) <= i. */
static int owner(long i, int p, long n) { return (int)(((int64_t)i * p + p - 1) / n); }

static uint64_t mix(uint64_t z)
{
    z += 0x9e3779b97f4a7c15u;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

/* The hash inputs u*16 + k: k < 13 for the edges, 15 for the degree; the roots
 * take inputs beyond every vertex's. */
static int degree(long u) { return MIN_DEGREE + (int)(mix((uint64_t)u * 16 + 15) % DEGREE_SPREAD); }
static long neighbour(long u, int k, long n)
{
    return (long)(mix((uint64_t)u * 16 + (uint64_t)k) % (uint64_t)n);
}
static long root_of(int r, long n)
{
    return (long)(mix(((uint64_t)n + (uint64_t)r) * 16) % (uint64_t)n);
}

/* How a block's distances are summed for the check (unreached: -1). */
static uint64_t weigh(long v, int dist) { return (uint64_t)(dist + 2) * mix((uint64_t)v); }

/* A growable array of vertices. */
struct list {
    int *v;
    long len, cap;
};

/* Makes room for len vertices and sets the length to len. */
static void resize(struct list *l, long len)
{
    if (len > l->cap) {
        long cap = l->cap > 0 ? l->cap : 1024;
        while (cap < len)
            cap *= 2;
        int *grown = realloc(l->v, (size_t)cap * sizeof *grown);
        if (!grown)
            bsp_abort("bfs: out of memory for %ld vertices", cap);
        l->v = grown;
        l->cap = cap;
    }
    l->len = len;
}

/* Process 0's check of search r: a sequential BFS, then each block's sum. */
static void check_search(int r, long n, int p, int levels, long reached, const uint64_t *sums,
                         int rounds, int *dist, int *queue)
{
    for (long v = 0; v < n; v++)
        dist[v] = -1;
    long root = root_of(r, n), head = 0, tail = 0;
    dist[root] = 0;
    queue[tail++] = (int)root;
    while (head < tail) {
        long u = queue[head++];
        for (int k = 0; k < degree(u); k++) {
            long v = neighbour(u, k, n);
            if (dist[v] < 0) {
                dist[v] = dist[u] + 1;
                queue[tail++] = (int)v;
            }
        }
    }
    int want_levels = dist[queue[tail - 1]] + 1;
    if (levels != want_levels || reached != tail)
        bsp_abort("bfs: WRONG, search %d: %d levels and %ld vertices reached, not %d and %ld", r,
                  levels, reached, want_levels, tail);
    for (int t = 0; t < p; t++) {
        uint64_t sum = 0;
        for (long v = block_start(t, p, n); v < block_start(t + 1, p, n); v++)
            sum += weigh(v, dist[v]);
        if (sum != sums[t * rounds + r])
            bsp_abort("bfs: WRONG, search %d: process %d's distances differ from a sequential BFS",
                      r, t);
    }
}

static void spmd(void)
{
    bsp_begin(bsp_nprocs());
    int p = bsp_nprocs(), s = bsp_pid();
    int par[2];
    bsp_push_reg(par, sizeof par);
    bsp_sync();
    if (s == 0)
        for (int t = 0; t < p; t++)
            bsp_put(t, args, par, 0, sizeof args);
    bsp_sync();
    bsp_pop_reg(par);
    long n = par[0];
    int rounds = par[1];

    long lo = block_start(s, p, n), nloc = block_start(s + 1, p, n) - lo;
    size_t slots = (size_t)(nloc > 0 ? nloc : 1);
    int *dist = malloc(slots * sizeof *dist);
    int *frontier = malloc(slots * sizeof *frontier), *next = malloc(slots * sizeof *next);
    /* Frontier sizes: process 0 gathers them, and announces their total one
     * superstep later. */
    long *sizes = calloc((size_t)p, sizeof *sizes), announced = 0, total = 0,
         *count = calloc((size_t)p + 1, sizeof *count);
    /* Per search: this block's weighted distances, and (the same everywhere) the
     * number of levels and of vertices reached. */
    uint64_t *sums = calloc((size_t)rounds, sizeof *sums);
    int *levels = calloc((size_t)rounds, sizeof *levels);
    long *reached = calloc((size_t)rounds, sizeof *reached);
    uint64_t *all_sums = calloc((size_t)p * (size_t)rounds, sizeof *all_sums); /* process 0's */
    struct list remote = {0}, sorted = {0}, in = {0};
    if (!dist || !frontier || !next || !sizes || !count || !sums || !levels || !reached ||
        !all_sums)
        bsp_abort("bfs: out of memory for %ld vertices", nloc);
    int tagsize = sizeof(int);
    bsp_set_tagsize(&tagsize);
    bsp_push_reg(sizes, p * (int)sizeof *sizes);
    bsp_push_reg(&announced, sizeof announced);
    bsp_push_reg(all_sums, p * rounds * (int)sizeof *all_sums);
    bsp_sync();

    for (int r = 0; r < rounds; r++) {
        for (long v = 0; v < nloc; v++)
            dist[v] = -1;
        long root = root_of(r, n), nfront = 0;
        if (root >= lo && root < lo + nloc) {
            dist[root - lo] = 0;
            frontier[nfront++] = (int)(root - lo);
        }
        for (int level = 0;; level++) {
            /* Expand: mark the neighbours owned here, collect the others. */
            long nnext = 0;
            remote.len = 0;
            for (long f = 0; f < nfront; f++) {
                long u = lo + frontier[f];
                for (int k = 0; k < degree(u); k++) {
                    long v = neighbour(u, k, n);
                    if (v < lo || v >= lo + nloc) {
                        resize(&remote, remote.len + 1);
                        remote.v[remote.len - 1] = (int)v;
                    } else if (dist[v - lo] < 0) {
                        dist[v - lo] = level + 1;
                        next[nnext++] = (int)(v - lo);
                    }
                }
            }
            /* One message per owner: sort the remote vertices by owner. */
            for (int t = 0; t <= p; t++)
                count[t] = 0;
            for (long i = 0; i < remote.len; i++)
                count[owner(remote.v[i], p, n) + 1]++;
            for (int t = 0; t < p; t++)
                count[t + 1] += count[t];
            resize(&sorted, remote.len);
            for (long i = 0; i < remote.len; i++)
                sorted.v[count[owner(remote.v[i], p, n)]++] = remote.v[i];
            /* count[t] is now the end of owner t's vertices, count[t-1] their start. */
            for (int t = 0; t < p; t++) {
                long start = t > 0 ? count[t - 1] : 0;
                if (count[t] > start)
                    bsp_send(t, &level, sorted.v + start,
                             (int)((count[t] - start) * (long)sizeof(int)));
            }
            long mine = nfront;
            bsp_put(0, &mine, sizes, s * (int)sizeof mine, sizeof mine);
            if (s == 0 && level > 0)
                for (int t = 0; t < p; t++)
                    bsp_put(t, &total, &announced, 0, sizeof total);
            bsp_sync();

            int nmessages, bytes;
            bsp_qsize(&nmessages, &bytes);
            for (int m = 0; m < nmessages; m++) {
                int status, tag;
                bsp_get_tag(&status, &tag);
                if (tag != level)
                    bsp_abort("bfs: WRONG, level %d: a message of level %d arrived", level, tag);
                resize(&in, status / (long)sizeof(int));
                bsp_move(in.v, status);
                for (long i = 0; i < in.len; i++)
                    if (dist[in.v[i] - lo] < 0) {
                        dist[in.v[i] - lo] = level + 1;
                        next[nnext++] = (int)(in.v[i] - lo);
                    }
            }
            if (s == 0) {
                total = 0;
                for (int t = 0; t < p; t++)
                    total += sizes[t];
            }
            /* The frontier of the previous level was empty everywhere: so was this
             * one, and no message was sent. */
            if (level > 0 && announced == 0) {
                levels[r] = level - 1;
                break;
            }
            reached[r] += level > 0 ? announced : 0;
            int *swap = frontier;
            frontier = next;
            next = swap;
            nfront = nnext;
        }
        for (long v = 0; v < nloc; v++)
            sums[r] += weigh(lo + v, dist[v]);
    }

    bsp_put(0, sums, all_sums, s * rounds * (int)sizeof *sums, rounds * (int)sizeof *sums);
    bsp_sync();
    if (s == 0) {
        int *seq_dist = malloc((size_t)n * sizeof *seq_dist);
        int *queue = malloc((size_t)n * sizeof *queue);
        if (!seq_dist || !queue)
            bsp_abort("bfs: out of memory for the sequential BFS of %ld vertices", n);
        for (int r = 0; r < rounds; r++)
            check_search(r, n, p, levels[r], reached[r], all_sums, rounds, seq_dist, queue);
        free(queue);
        free(seq_dist);
        printf("bfs: P = %d, n = %ld, %d iterations, OK\n", p, n, rounds);
    }
    bsp_pop_reg(all_sums);
    bsp_pop_reg(&announced);
    bsp_pop_reg(sizes);
    bsp_sync();
    free(in.v);
    free(sorted.v);
    free(remote.v);
    free(all_sums);
    free(reached);
    free(levels);
    free(sums);
    free(count);
    free(sizes);
    free(next);
    free(frontier);
    free(dist);
    bsp_end();
}

/* An integer argument from least to most; -1 if it is not one. */
static int parse(const char *text, long least, long most, int *out)
{
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (end == text || *end != '\0' || errno != 0 || v < least || v > most)
        return -1;
    *out = (int)v;
    return 0;
}

int main(int argc, char **argv)
{
    bsp_init(spmd, argc, argv);
    if (argc > 3) {
        fprintf(stderr, "usage: bfs [SIZE [ITERS]]\n");
        return 2;
    }
    /* Vertices are ints, and a message of them has an int byte count. */
    if (argc > 1 && parse(argv[1], 1, INT_MAX / 16, &args[0]) != 0) {
        fprintf(stderr, "bfs: SIZE must be an integer from 1 to %d, got '%s'\n", INT_MAX / 16,
                argv[1]);
        return 2;
    }
    if (argc > 2 && parse(argv[2], 1, 100000, &args[1]) != 0) {
        fprintf(stderr, "bfs: ITERS must be an integer from 1 to 100000, got '%s'\n", argv[2]);
        return 2;
    }
    spmd();
    return 0;
}
