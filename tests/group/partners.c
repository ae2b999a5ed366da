/* partners.c — the partner relation of bsp_partners between the parts of a
 * partition: exhaustive (every process of part j is a partner of some process of
 * part i) and injective (each process of part j has exactly one partner in part
 * i), for every i != j.
 *
 * For each list of part sizes (every pair (a, b) with a + b <= min(P, 16), every
 * triple up to 9 processes, some larger splits of 3 to 16 parts), the first
 * a + b + ... processes split off (weights equal to the sizes, so the sizes are
 * exact), split again by the sizes, and every process asks bsp_partners for its
 * partners in every part. After bsp_rejoin each sends its lists to process 0,
 * which counts, for every receiver y and every other part i, the processes of i
 * that name y. Each process also checks its own lists: partners in range, no
 * duplicates, itself as its only partner in its own part, and the same count
 * whatever the size of the array it passes.
 */
#include "group_test.h"

#include <string.h>

enum { MAXP = 16 };

typedef struct report {
    int x;         /* the sender's pid in the split group */
    int rel[MAXP]; /* rel[y] = 1: y, in another part, is a partner of x */
} report;

static _Thread_local int gP; /* thread-local: threads share globals */

static void describe(char *buf, size_t len, int k, const int *sizes)
{
    size_t at = 0;
    for (int j = 0; j < k && at < len; j++)
        at += (size_t)snprintf(buf + at, len - at, "%s%d", j ? "," : "{", sizes[j]);
    if (at < len)
        snprintf(buf + at, len - at, "}");
}

/* Process 0 of the split group: the reports of all T members, checked. */
static void collect(int k, const int *sizes, const int *first, int T)
{
    int rel[MAXP][MAXP];
    bsp_nprocs_t nmsgs = 0;
    bsp_size_t nbytes = 0;
    char what[96];
    describe(what, sizeof what, k, sizes);
    bsp_qsize(&nmsgs, &nbytes);
    if ((int)nmsgs != T)
        bsp_abort("CONFORMANCE FAILURE %s:%d: sizes %s: %d reports, expected %d", __FILE__,
                  __LINE__, what, (int)nmsgs, T);
    memset(rel, 0xff, sizeof rel);
    for (int m = 0; m < T; m++) {
        report r;
        bsp_move(&r, sizeof r);
        CHECK(r.x >= 0 && r.x < T && rel[r.x][0] == -1);
        memcpy(rel[r.x], r.rel, sizeof r.rel);
    }
    int part_of[MAXP];
    for (int j = 0; j < k; j++)
        for (int y = first[j]; y < first[j + 1]; y++)
            part_of[y] = j;
    for (int y = 0; y < T; y++)
        for (int i = 0; i < k; i++) {
            if (i == part_of[y])
                continue;
            int senders = 0;
            for (int x = first[i]; x < first[i + 1]; x++)
                senders += rel[x][y];
            if (senders != 1)
                bsp_abort("CONFORMANCE FAILURE %s:%d: sizes %s: process %d of part %d is a "
                          "partner of %d processes of part %d, expected exactly 1",
                          __FILE__, __LINE__, what, y, part_of[y], senders, i);
        }
}

static void check_split(int k, const int *sizes)
{
    int T = 0, first[MAXP + 1] = {0};
    for (int j = 0; j < k; j++) {
        T += sizes[j];
        first[j + 1] = first[j] + sizes[j];
    }
    if (T > gP)
        return;
    if (T < gP) {
        double outer[2] = {T, gP - T};
        int op = bsp_partition(2, outer);
        CHECK_EQ(bsp_nprocs(), op == 0 ? T : gP - T);
        if (op == 1) {
            bsp_rejoin();
            return;
        }
    }
    int x = bsp_pid();
    double w[MAXP];
    for (int j = 0; j < k; j++)
        w[j] = sizes[j];
    int part = bsp_partition(k, w);
    CHECK_EQ(bsp_nprocs(), sizes[part]);
    CHECK_EQ(x - bsp_pid(), first[part]);

    report r;
    memset(&r, 0, sizeof r);
    r.x = x;
    for (int j = 0; j < k; j++) {
        int list[MAXP], one = -1;
        int n = bsp_partners(j, list, MAXP);
        CHECK_EQ(bsp_partners(j, NULL, 0), n);
        if (n > 0) {
            CHECK_EQ(bsp_partners(j, &one, 1), n);
            CHECK_EQ(one, list[0]);
        }
        if (j == part) {
            CHECK_EQ(n, 1);
            CHECK_EQ(list[0], x);
            continue;
        }
        CHECK(n >= 0 && n <= sizes[j]);
        for (int i = 0; i < n; i++) {
            CHECK(list[i] >= first[j] && list[i] < first[j + 1]);
            CHECK_EQ(r.rel[list[i]], 0);
            r.rel[list[i]] = 1;
        }
    }
    bsp_rejoin();
    bsp_send(0, NULL, &r, sizeof r);
    bsp_sync();
    if (x == 0)
        collect(k, sizes, first, T);
    if (T < gP)
        bsp_rejoin();
}

int main(void)
{
    bsp_begin(bsp_nprocs());
    gP = bsp_nprocs();
    bsp_set_tagsize(&(bsp_size_t){0});
    bsp_sync();
    int top = gP < MAXP ? gP : MAXP;

    check_split(1, &top);
    for (int a = 1; a < top; a++)
        for (int b = 1; a + b <= top; b++)
            check_split(2, (int[]){a, b});
    for (int a = 1; a <= 7; a++)
        for (int b = 1; a + b <= 8; b++)
            for (int c = 1; a + b + c <= 9; c++)
                check_split(3, (int[]){a, b, c});
    static const int larger[][MAXP] = {{1, 1, 14}, {5, 5, 6},    {2, 7, 7},
                                       {1, 8, 7},  {3, 4, 9},    {4, 4, 8},
                                       {9, 1, 1},  {1, 2, 3, 4}, {4, 3, 2, 1, 6}};
    static const int nlarger[] = {3, 3, 3, 3, 3, 3, 3, 4, 5};
    for (size_t i = 0; i < sizeof nlarger / sizeof nlarger[0]; i++)
        check_split(nlarger[i], larger[i]);
    /* Every process a part of its own. */
    int ones[MAXP];
    for (int j = 0; j < top; j++)
        ones[j] = 1;
    check_split(top, ones);

    CHECK_EQ(bsp_level(), 0);
    bsp_end();
    return 0;
}
