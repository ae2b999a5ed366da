/* par.c — bsp_par (PAR and WEIGHTEDPAR): every process ends with every part's
 * result.
 *
 * Each task learns its part's members by an all-to-all of global pids inside
 * the part, so its result (part index, size, first global pid, sum of global
 * pids) can only be right if the task really ran on that part. Checked for
 * k = 1, 2, 3 parts, equal and weighted (sizes against the hand-computed tables
 * of group_test.h where they have P), with a 4000-byte result whose every byte is
 * checked, with no result at all, nested (a task that runs bsp_par itself), and
 * inside a part of bsp_partition. Afterwards the process is back in the whole
 * group with its pid, an empty message queue and its registrations.
 */
#include "group_test.h"

#include <string.h>

enum { MAXP = 64, BIG = 4000 };

typedef struct result {
    int part, nprocs, first, level;
    long pidsum;
} result;

typedef struct task_arg {
    int gpid;  /* this process in the whole run */
    int level; /* bsp_level() of the group that calls bsp_par */
    int runs;  /* how often the task ran on this process */
} task_arg;

static _Thread_local int gP; /* thread-local: threads share globals */

/* The global pids of the current group's members, which must be consecutive:
 * writes the first and returns their sum. */
static long members(int gpid, int *first)
{
    int n = bsp_nprocs(), me = bsp_pid();
    int all[MAXP];
    bsp_push_reg(all, sizeof all);
    bsp_sync();
    for (int q = 0; q < n; q++)
        bsp_put(q, &gpid, all, me * (int)sizeof(int), sizeof gpid);
    bsp_sync();
    long sum = 0;
    for (int q = 0; q < n; q++) {
        CHECK_EQ(all[q], all[0] + q);
        sum += all[q];
    }
    bsp_pop_reg(all);
    bsp_sync();
    *first = all[0];
    return sum;
}

static long range_sum(int first, int n) { return (long)n * first + (long)n * (n - 1) / 2; }

static void inner_task(int part, void *res, void *argp)
{
    task_arg *a = argp;
    result *r = res;
    CHECK_EQ(bsp_part(), part);
    CHECK_EQ(bsp_level(), a->level + 1);
    a->runs++;
    r->part = part;
    r->nprocs = bsp_nprocs();
    r->level = bsp_level();
    r->pidsum = members(a->gpid, &r->first);
}

/* bsp_par's results, checked: parts tile the calling group [first, first+n) in
 * order, each result is its part's; `size` (or NULL) gives the expected sizes. */
static void check_results(const result *res, int k, int first, int n, int level, const int *size)
{
    int at = first;
    for (int i = 0; i < k; i++) {
        CHECK_EQ(res[i].part, i);
        CHECK_EQ(res[i].first, at);
        CHECK_EQ(res[i].level, level + 1);
        CHECK(res[i].nprocs >= 1);
        if (size)
            CHECK_EQ(res[i].nprocs, size[i]);
        CHECK_EQ(res[i].pidsum, range_sum(at, res[i].nprocs));
        at += res[i].nprocs;
    }
    CHECK_EQ(at, first + n);
}

/* A task that runs a bsp_par of its own over halves of its part. */
static void outer_task(int part, void *res, void *argp)
{
    task_arg *a = argp;
    result *r = res, inner[2];
    int n = bsp_nprocs(), first = a->gpid - bsp_pid(), k = n >= 2 ? 2 : 1;
    task_arg sub = {a->gpid, a->level + 1, 0};
    memset(inner, 0xee, sizeof inner);
    bsp_par(k, NULL, inner_task, &sub, inner, sizeof inner[0]);
    CHECK_EQ(sub.runs, 1);
    CHECK_EQ(bsp_level(), a->level + 1);
    CHECK_EQ(bsp_part(), part);
    int size[2] = {equal_first(n, k, 1), n - equal_first(n, k, 1)};
    check_results(inner, k, first, n, a->level + 1, size);
    a->runs++;
    r->part = part;
    r->nprocs = n;
    r->first = inner[0].first;
    r->level = bsp_level();
    r->pidsum = inner[0].pidsum + (k == 2 ? inner[1].pidsum : 0);
}

static void big_task(int part, void *res, void *argp)
{
    task_arg *a = argp;
    unsigned char *r = res;
    int first;
    members(a->gpid, &first);
    for (int i = 0; i < BIG; i++)
        r[i] = (unsigned char)(part * 31 + first * 7 + i);
    a->runs++;
}

static void no_result_task(int part, void *res, void *argp)
{
    task_arg *a = argp;
    (void)res;
    CHECK_EQ(bsp_part(), part);
    a->runs++;
}

/* Back in the group that called bsp_par: same place, nothing queued, the
 * registration `cell` still works. */
static void after_par(int gpid, int *cell)
{
    CHECK_EQ(bsp_level(), 0);
    CHECK_EQ(bsp_part(), -1);
    CHECK_EQ(bsp_pid(), gpid);
    CHECK_EQ(bsp_nprocs(), gP);
    bsp_nprocs_t nmsgs = 1;
    bsp_size_t nbytes = 1;
    bsp_qsize(&nmsgs, &nbytes);
    CHECK_EQ(nmsgs, 0);
    int v = 500 + gpid;
    *cell = -1;
    bsp_put((gpid + 1) % gP, &v, cell, 0, sizeof v);
    bsp_sync();
    CHECK_EQ(*cell, 500 + (gpid + gP - 1) % gP);
}

int main(void)
{
    bsp_begin(bsp_nprocs());
    int gpid = bsp_pid();
    gP = bsp_nprocs();
    CHECK(gP <= MAXP);
    int cell = -1;
    bsp_push_reg(&cell, sizeof cell);
    bsp_sync();
    result res[3];

    /* Equal parts, k = 1 .. 3. */
    for (int k = 1; k <= 3 && k <= gP; k++) {
        task_arg a = {gpid, 0, 0};
        memset(res, 0xee, sizeof res);
        bsp_par(k, NULL, inner_task, &a, res, sizeof res[0]);
        CHECK_EQ(a.runs, 1);
        int size[3];
        for (int j = 0; j < k; j++)
            size[j] = equal_first(gP, k, j + 1) - equal_first(gP, k, j);
        check_results(res, k, 0, gP, 0, size);
        after_par(gpid, &cell);
    }

    /* Weighted: {1, 2} and {1, 2, 4}. */
    static const double w2[2] = {1, 2}, w3[3] = {1, 2, 4};
    for (int k = 2; k <= 3 && k <= gP; k++) {
        task_arg a = {gpid, 0, 0};
        int size[3];
        memset(res, 0xee, sizeof res);
        bsp_par(k, k == 2 ? w2 : w3, inner_task, &a, res, sizeof res[0]);
        CHECK_EQ(a.runs, 1);
        check_results(res, k, 0, gP, 0, weighted_sizes(gP, k, size) ? size : NULL);
        after_par(gpid, &cell);
    }

    /* A large result, every byte of every part's checked (equal parts, and
     * {1, 2, 4} where the table knows the sizes). */
    for (int k = 1; k <= 3 && k <= gP; k++) {
        task_arg a = {gpid, 0, 0};
        unsigned char *big = check_alloc((size_t)k * BIG);
        memset(big, 0xee, (size_t)k * BIG);
        bsp_par(k, k == 3 ? w3 : NULL, big_task, &a, big, BIG);
        CHECK_EQ(a.runs, 1);
        int size[3], known = 1;
        if (k == 3)
            known = weighted_sizes(gP, 3, size);
        else
            for (int j = 0; j < k; j++)
                size[j] = equal_first(gP, k, j + 1) - equal_first(gP, k, j);
        for (int i = 0, first = 0; known && i < k; first += size[i], i++)
            for (int b = 0; b < BIG; b++)
                CHECK_EQ(big[(size_t)i * BIG + (size_t)b], (unsigned char)(i * 31 + first * 7 + b));
        free(big);
        after_par(gpid, &cell);
    }

    /* No result: only the tasks' side effects. */
    if (gP >= 2) {
        task_arg a = {gpid, 0, 0};
        bsp_par(2, NULL, no_result_task, &a, NULL, 0);
        CHECK_EQ(a.runs, 1);
        after_par(gpid, &cell);
    }

    /* Nested: each task runs bsp_par over halves of its part. */
    for (int k = 1; k <= 3 && k <= gP; k++) {
        task_arg a = {gpid, 0, 0};
        memset(res, 0xee, sizeof res);
        bsp_par(k, k == 2 ? w2 : NULL, outer_task, &a, res, sizeof res[0]);
        CHECK_EQ(a.runs, 1);
        int size[3], known = 1;
        if (k == 2)
            known = weighted_sizes(gP, 2, size);
        else
            for (int j = 0; j < k; j++)
                size[j] = equal_first(gP, k, j + 1) - equal_first(gP, k, j);
        check_results(res, k, 0, gP, 0, known ? size : NULL);
        after_par(gpid, &cell);
    }

    /* Inside a part of bsp_partition: the results are that part's. */
    if (gP >= 2) {
        int part = bsp_partition(2, NULL);
        int n = bsp_nprocs(), first = gpid - bsp_pid(), k = n >= 2 ? 2 : 1;
        task_arg a = {gpid, 1, 0};
        memset(res, 0xee, sizeof res);
        bsp_par(k, NULL, inner_task, &a, res, sizeof res[0]);
        CHECK_EQ(a.runs, 1);
        CHECK_EQ(bsp_level(), 1);
        CHECK_EQ(bsp_part(), part);
        int size[2] = {equal_first(n, k, 1), n - equal_first(n, k, 1)};
        check_results(res, k, first, n, 1, size);
        bsp_rejoin();
        after_par(gpid, &cell);
    }

    bsp_pop_reg(&cell);
    bsp_end();
    return 0;
}
