/* semantics.c — what a process sees inside the parts of bsp_partition.
 *
 * Checks, at any P: pids and nprocs renumbered from 0 inside each part, with
 * bsp_part and bsp_level; three nested levels and the way back up; repeated
 * halving down to single processes (D-BSP's i-clusters); weighted
 * splits (1/3–2/3 of 7 processes is 2 and 5; a tiny weight still gets one
 * process); registrations, puts, gets and messages inside a part reach only
 * that part even though the parts register differently; parts run different
 * numbers of supersteps; puts and messages issued before bsp_partition are
 * there inside the part; bsp_rejoin restores the parent's pids, registrations
 * and superstep count, and the puts of the part's last superstep land; the same
 * partition repeated, alternated with another and nested inside itself (the MPI
 * engine reuses the last partition's communicators) gives the same parts.
 */
#include "group_test.h"

#include <string.h>

enum { MAXP = 64 };

/* This process in the whole run (thread-local: on the threads engine the
 * processes share globals). */
static _Thread_local int gpid, gP;

/* This process must be member gpid - first of the part [first, first+size) at level
 * `level`, part index `part`. */
static void expect_place(int first, int size, int part, int level)
{
    CHECK_EQ(bsp_pid(), gpid - first);
    CHECK_EQ(bsp_nprocs(), size);
    CHECK_EQ(bsp_part(), part);
    CHECK_EQ(bsp_level(), level);
}

/* A put ring and a get ring inside the current group, whose members are the
 * global pids [first, first+n): each value that arrives names its sender, which
 * must be a member of this group. */
static void ring_in_group(int first)
{
    int n = bsp_nprocs(), me = bsp_pid();
    int box = -1, mine = gpid, got = -1;
    bsp_push_reg(&box, sizeof box);
    bsp_push_reg(&mine, sizeof mine);
    bsp_sync();
    bsp_put((me + 1) % n, &mine, &box, 0, sizeof mine);
    bsp_get((me + 1) % n, &mine, 0, &got, sizeof got);
    bsp_sync();
    CHECK_EQ(box, first + (me + n - 1) % n);
    CHECK_EQ(got, first + (me + 1) % n);
    bsp_pop_reg(&mine);
    bsp_pop_reg(&box);
    bsp_sync();
}

/* Equal splits into k = 1 .. min(P, 4) and k = P parts. */
static void renumbering(void)
{
    int ks[5], nk = 0;
    for (int k = 1; k <= 4 && k <= gP; k++)
        ks[nk++] = k;
    if (gP > 4)
        ks[nk++] = gP;
    for (int i = 0; i < nk; i++) {
        int k = ks[i];
        unsigned long before = bsp_superstep();
        int part = bsp_partition(k, NULL);
        /* A partition ends a superstep. */
        CHECK_EQ(bsp_superstep(), before + 1);
        int want = equal_part_of(gP, k, gpid);
        CHECK_EQ(part, want);
        int first = equal_first(gP, k, part);
        expect_place(first, equal_first(gP, k, part + 1) - first, part, 1);
        ring_in_group(first);
        bsp_rejoin();
        expect_place(0, gP, -1, 0);
    }
}

/* Three levels: halves, halves of those, then thirds (each as far as the group's
 * size allows), checked on the way down and again on the way up. */
static void three_levels(void)
{
    static const int split[3] = {2, 2, 3};
    int first[4] = {0}, size[4] = {gP}, part[4] = {-1};
    for (int l = 1; l <= 3; l++) {
        int k = split[l - 1] < size[l - 1] ? split[l - 1] : size[l - 1];
        int local = gpid - first[l - 1];
        part[l] = bsp_partition(k, NULL);
        CHECK_EQ(part[l], equal_part_of(size[l - 1], k, local));
        first[l] = first[l - 1] + equal_first(size[l - 1], k, part[l]);
        size[l] = equal_first(size[l - 1], k, part[l] + 1) - equal_first(size[l - 1], k, part[l]);
        expect_place(first[l], size[l], part[l], l);
    }
    ring_in_group(first[3]);
    for (int l = 3; l >= 1; l--) {
        bsp_rejoin();
        expect_place(first[l - 1], size[l - 1], part[l - 1], l - 1);
        ring_in_group(first[l - 1]);
    }
}

/* D-BSP's binary decomposition: halve until every part has one process (log2 P
 * levels at a power of two), then climb back; at level i the part is the
 * i-cluster [first, first + size) of the halving. */
static void binary_levels(void)
{
    int first[MAXP] = {0}, size[MAXP] = {gP}, part[MAXP] = {-1}, depth = 0;
    while (size[depth] > 1) {
        int local = gpid - first[depth], half = equal_first(size[depth], 2, 1);
        part[depth + 1] = bsp_partition(2, NULL);
        CHECK_EQ(part[depth + 1], local >= half);
        first[depth + 1] = first[depth] + (local >= half ? half : 0);
        size[depth + 1] = local >= half ? size[depth] - half : half;
        depth++;
        expect_place(first[depth], size[depth], part[depth], depth);
        ring_in_group(first[depth]);
    }
    /* At a power of two every process is as deep as log2 P. */
    if ((gP & (gP - 1)) == 0)
        CHECK_EQ(1 << depth, gP);
    for (; depth > 0; depth--) {
        bsp_rejoin();
        expect_place(first[depth - 1], size[depth - 1], part[depth - 1], depth - 1);
    }
}

/* Weighted splits: part sizes from the hand-computed table where it has P, else
 * within one of the ideal share; then a ring inside each part. */
static void weighted(void)
{
    static const double one_two[2] = {1, 2}, one_two_four[3] = {1, 2, 4};
    const double *weights[2] = {one_two, one_two_four};
    for (int k = 2; k <= 3 && k <= gP; k++) {
        const double *w = weights[k - 2];
        int size[3], known = weighted_sizes(gP, k, size);
        if (gP == 7 && k == 2)
            CHECK(known && size[0] == 2 && size[1] == 5);
        int part = bsp_partition(k, w);
        int n = bsp_nprocs(), first = gpid - bsp_pid();
        int firsts[4] = {0};
        if (known) {
            for (int j = 0; j < k; j++)
                firsts[j + 1] = firsts[j] + size[j];
            CHECK_EQ(n, size[part]);
            CHECK_EQ(first, firsts[part]);
        } else {
            double total = k == 2 ? 3 : 7, ideal = w[part] / total * gP;
            CHECK(n >= 1 && n > ideal - 2 && n < ideal + 2);
        }
        expect_place(first, n, part, 1);
        ring_in_group(first);
        bsp_rejoin();
    }
    /* A weight too small for one process still gets one: {1, 1, 100} on P >= 3
     * is {1, 1, P - 2}. */
    if (gP >= 3) {
        static const double tiny[3] = {1, 1, 100};
        int part = bsp_partition(3, tiny);
        int first = part == 0 ? 0 : part == 1 ? 1 : 2;
        expect_place(first, part == 2 ? gP - 2 : 1, part, 1);
        ring_in_group(first);
        bsp_rejoin();
    }
}

/* Two parts that register differently (part 0 pushes an extra variable first),
 * then put, get and send inside the part only; guard slots show that nothing
 * from the other part arrives. The parts then run different numbers of
 * supersteps before rejoining. */
static void isolation(void)
{
    int k = gP >= 2 ? 2 : 1;
    int part = bsp_partition(k, NULL);
    int n = bsp_nprocs(), me = bsp_pid(), first = gpid - me;
    int extra = 0, mine = gpid, got = -1;
    int box[MAXP];
    for (int i = 0; i < MAXP; i++)
        box[i] = -1;
    if (part == 0)
        bsp_push_reg(&extra, sizeof extra);
    bsp_push_reg(box, sizeof box);
    bsp_push_reg(&mine, sizeof mine);
    bsp_set_tagsize(&(bsp_size_t){sizeof(int)});
    bsp_sync();

    /* Every member writes its global pid into slot `me` of every member's box,
     * gets its right neighbour's pid and sends every member a message. */
    for (int q = 0; q < n; q++) {
        bsp_put(q, &mine, box, (size_t)me * sizeof(int), sizeof mine);
        bsp_send(q, &part, &mine, sizeof mine);
    }
    bsp_get((me + 1) % n, &mine, 0, &got, sizeof got);
    bsp_sync();
    for (int q = 0; q < MAXP; q++)
        CHECK_EQ(box[q], q < n ? first + q : -1);
    CHECK_EQ(got, first + (me + 1) % n);
    bsp_nprocs_t nmsgs = 0;
    bsp_size_t nbytes = 0;
    bsp_qsize(&nmsgs, &nbytes);
    CHECK_EQ(nmsgs, n);
    CHECK_EQ(nbytes, n * (int)sizeof(int));
    int seen[MAXP] = {0};
    for (int i = 0; i < n; i++) {
        int tag = -1, from = -1;
        bsp_size_t status = 0;
        bsp_get_tag(&status, &tag);
        CHECK_EQ(status, sizeof(int));
        CHECK_EQ(tag, part);
        bsp_move(&from, sizeof from);
        CHECK(from >= first && from < first + n);
        seen[from - first]++;
    }
    for (int q = 0; q < n; q++)
        CHECK_EQ(seen[q], 1);

    /* Part j runs 3 + 7j more supersteps, passing a counter round its ring. */
    int count = 0;
    bsp_pop_reg(&mine);
    bsp_sync();
    for (int s = 0; s < 3 + 7 * part; s++) {
        int next = count + 1;
        bsp_put((me + 1) % n, &next, box, 0, sizeof next);
        bsp_sync();
        count = box[0];
        CHECK_EQ(count, s + 1);
    }
    bsp_pop_reg(box);
    if (part == 0)
        bsp_pop_reg(&extra);
    bsp_sync();
    bsp_rejoin();
    expect_place(0, gP, -1, 0);
    bsp_nprocs_t left = 1;
    bsp_qsize(&left, &nbytes);
    CHECK_EQ(left, 0);
}

/* Puts and messages issued in the superstep that bsp_partition ends: the puts
 * have landed and the messages are in the part's queue, even those from
 * processes now in another part. */
static void before_partition(void)
{
    int landed = -1, mine = gpid, from = -1;
    bsp_push_reg(&landed, sizeof landed);
    bsp_set_tagsize(&(bsp_size_t){0});
    bsp_sync();
    int right = (gpid + 1) % gP, left = (gpid + gP - 1) % gP;
    bsp_put(right, &mine, &landed, 0, sizeof mine);
    bsp_send(right, NULL, &mine, sizeof mine);
    bsp_partition(gP >= 2 ? 2 : 1, NULL);
    CHECK_EQ(landed, left);
    bsp_nprocs_t nmsgs = 0;
    bsp_size_t nbytes = 0;
    bsp_qsize(&nmsgs, &nbytes);
    CHECK_EQ(nmsgs, 1);
    bsp_move(&from, sizeof from);
    CHECK_EQ(from, left);
    bsp_sync();
    bsp_qsize(&nmsgs, &nbytes);
    CHECK_EQ(nmsgs, 0);
    bsp_rejoin();
    bsp_pop_reg(&landed);
    bsp_sync();
}

/* A registration pushed in the parent (even in the superstep that the partition
 * ends) survives the part's own pushes and pops and works after bsp_rejoin; the
 * puts of the part's last superstep land; the superstep count goes on. */
static void rejoin_restores(void)
{
    int parent_cell = -1, late_cell = -1, part_cell = -1;
    bsp_push_reg(&parent_cell, sizeof parent_cell);
    bsp_sync();
    bsp_push_reg(&late_cell, sizeof late_cell);
    unsigned long before = bsp_superstep();
    bsp_partition(gP >= 3 ? 3 : gP, NULL);
    int n = bsp_nprocs(), me = bsp_pid(), first = gpid - me;
    bsp_push_reg(&part_cell, sizeof part_cell);
    bsp_sync();
    int v = gpid;
    bsp_put((me + 1) % n, &v, &part_cell, 0, sizeof v);
    bsp_sync();
    CHECK_EQ(part_cell, first + (me + n - 1) % n);
    bsp_pop_reg(&part_cell);
    bsp_sync();
    /* The last superstep of the part: its put lands at bsp_rejoin. */
    int w = 1000 + gpid;
    bsp_push_reg(&part_cell, sizeof part_cell);
    bsp_sync();
    bsp_put((me + 1) % n, &w, &part_cell, 0, sizeof w);
    unsigned long inside = bsp_superstep() - before;
    bsp_rejoin();
    CHECK_EQ(part_cell, 1000 + first + (me + n - 1) % n);
    CHECK_EQ(bsp_superstep(), before + inside + 1);
    expect_place(0, gP, -1, 0);

    int right = (gpid + 1) % gP, left = (gpid + gP - 1) % gP;
    int a = gpid, b = 2000 + gpid;
    bsp_put(right, &a, &parent_cell, 0, sizeof a);
    bsp_put(right, &b, &late_cell, 0, sizeof b);
    bsp_sync();
    CHECK_EQ(parent_cell, left);
    CHECK_EQ(late_cell, 2000 + left);
    bsp_pop_reg(&late_cell);
    bsp_pop_reg(&parent_cell);
    bsp_sync();
}

/* Halves three times in a row, then a weighted split, then halves again, each
 * with halves of the halves inside twice: every time the parts are the ones
 * asked for and communicate only inside. */
static void repeated(void)
{
    const double lopsided[2] = {1, 3};
    for (int round = 0; round < 5; round++) {
        const double *w = round == 3 ? lopsided : NULL;
        int part = bsp_partition(gP >= 2 ? 2 : 1, w);
        int n = bsp_nprocs(), first = gpid - bsp_pid();
        if (!w)
            CHECK_EQ(first, equal_first(gP, gP >= 2 ? 2 : 1, part));
        expect_place(first, n, part, 1);
        ring_in_group(first);
        for (int inner = 0; inner < 2; inner++) {
            int sub = bsp_partition(n >= 2 ? 2 : 1, NULL), m = bsp_nprocs();
            int sub_first = first + equal_first(n, n >= 2 ? 2 : 1, sub);
            expect_place(sub_first, m, sub, 2);
            ring_in_group(sub_first);
            bsp_rejoin();
        }
        bsp_rejoin();
        expect_place(0, gP, -1, 0);
    }
}

int main(void)
{
    bsp_begin(bsp_nprocs());
    gpid = bsp_pid();
    gP = bsp_nprocs();
    CHECK(gP <= MAXP);
    expect_place(0, gP, -1, 0);
    renumbering();
    three_levels();
    binary_levels();
    weighted();
    isolation();
    before_partition();
    rejoin_restores();
    repeated();
    expect_place(0, gP, -1, 0);
    bsp_end();
    return 0;
}
