/* semantics.c — how collectives fit into BSPlib supersteps:
 *  - a collective ends the caller's superstep: puts and registrations issued
 *    before it take effect at its first sync;
 *  - messages sent before a one-superstep collective are in the queue after it;
 *    after a collective of more than one superstep the queue is empty
 *    (documented in docs/collectives.md);
 *  - the trace labels every superstep of a collective with its name (and the
 *    next superstep "normal"), and those of a broadcast whose algorithm the
 *    caller named with "alg" (bsp_bcast's own choice stays unnamed). Run with
 *    POLYBSP_TRACE=FILE; process 0 reads the file after bsp_end.
 */
#include "coll_test.h"

#include <stdio.h>
#include <stdlib.h>

static int ceil_log2(int n)
{
    int d = 0;
    while ((1 << d) < n)
        d++;
    return d;
}

/* Records of the trace that hold `key`:"value" (value NULL: key alone). */
static long count_field(const char *path, const char *key, const char *value)
{
    FILE *f = fopen(path, "r");
    CHECK_MAIN(f != NULL);
    char pattern[64], line[4096];
    if (value)
        snprintf(pattern, sizeof pattern, "\"%s\":\"%s\"", key, value);
    else
        snprintf(pattern, sizeof pattern, "\"%s\":", key);
    long n = 0;
    while (fgets(line, sizeof line, f))
        n += strstr(line, pattern) != NULL;
    fclose(f);
    return n;
}

static long count_kind(const char *path, const char *kind)
{
    return count_field(path, "kind", kind);
}

int main(void)
{
    bsp_begin(bsp_nprocs());
    int p = bsp_nprocs(), me = bsp_pid();
    int left = (me + p - 1) % p, right = (me + 1) % p;
    uint64_t word = 0, x = 0, y = 0;
    bsp_push_reg(&x, sizeof x);
    bsp_sync();

    /* A put issued before a (multi-superstep) broadcast lands at its first sync. */
    x = 99;
    uint64_t mine = (uint64_t)me;
    bsp_put(right, &mine, &x, 0, sizeof mine);
    unsigned long before = bsp_superstep();
    bsp_bcast_with(BSP_BCAST_BINOMIAL, 0, &word, sizeof word);
    CHECK_EQ(bsp_superstep() - before, p == 1 ? 1 : ceil_log2(p));
    CHECK_EQ(x, left);
    bsp_bcast(0, &word, sizeof word); /* the library's choice: one superstep here */

    /* A registration made before a collective is usable right after it. */
    bsp_push_reg(&y, sizeof y);
    uint64_t *all = check_alloc((size_t)p * sizeof *all);
    bsp_allgather(&mine, all, sizeof mine);
    bsp_put(right, &mine, &y, 0, sizeof mine);
    bsp_sync();
    CHECK_EQ(y, left);

    /* Messages and collectives. */
    bsp_send(right, NULL, &mine, sizeof mine);
    bsp_gather(0, &mine, me == 0 ? all : NULL, sizeof mine);
    int nmsg;
    bsp_size_t nbytes;
    bsp_qsize(&nmsg, &nbytes);
    CHECK_EQ(nmsg, 1);
    uint64_t got = 0;
    bsp_move(&got, sizeof got);
    CHECK_EQ(got, left);
    bsp_send(right, NULL, &mine, sizeof mine);
    size_t counts[64] = {0}, displs[64] = {0};
    CHECK(p <= 64);
    bsp_alltoallv(all, counts, displs, all, counts, displs);
    bsp_qsize(&nmsg, &nbytes);
    CHECK_EQ(nmsg, p == 1 ? 1 : 0);
    bsp_sync();

    bsp_pop_reg(&y);
    bsp_pop_reg(&x);
    bsp_sync();
    free(all);
    bsp_end();

    /* Only process 0 gets here: check the trace labels. */
    const char *trace = getenv("POLYBSP_TRACE");
    if (trace) {
        long bcast = count_kind(trace, "bcast"), gather = count_kind(trace, "gather");
        long allgather = count_kind(trace, "allgather"), v = count_kind(trace, "alltoallv");
        long normal = count_kind(trace, "normal");
        long binomial = (long)p * (p == 1 ? 1 : ceil_log2(p));
        CHECK_MAIN(bcast == binomial + p);
        CHECK_MAIN(count_field(trace, "alg", "binomial") == binomial);
        CHECK_MAIN(count_field(trace, "alg", NULL) == binomial);
        CHECK_MAIN(allgather == p && gather == p);
        CHECK_MAIN(v == (long)p * (p == 1 ? 1 : 2));
        /* The syncs of this program that are not collectives. */
        CHECK_MAIN(normal == 4L * p);
    }
    return 0;
}
