/* oblsync.c — bsp_oblsync(n): a process's superstep ends once n messages for
 * that superstep have reached it, with no barrier.
 *
 * Checks: a ring of many rounds (each process sends to its right neighbour and
 * waits for 1), with processes falling behind now and then; messages that arrive
 * early (a sender that runs a superstep ahead: what it sends for the later
 * superstep must wait for it, and counts differ per superstep) and late (the
 * receiver already waiting); oblsync with 0 messages; all-to-all rounds with
 * payloads of 0 to 12 bytes; oblsync supersteps mixed with bsp_sync supersteps
 * (puts, gets, registrations and queues carry across); oblsync inside a part
 * while the other part uses bsp_sync; messages of 40000 bytes. Every message
 * names its round and sender, and every queue is checked for exactly what
 * must be in it.
 */
#include "group_test.h"

#include <stdlib.h>
#include <string.h>

enum { MAXP = 128 };

typedef struct msg {
    int round, from;
} msg;

/* This process in the whole run (thread-local: on the threads engine the
 * processes share globals). */
static _Thread_local int gpid, gP;

/* The queue must hold exactly `count` messages of `round`, of size msg, one from
 * each of the global pids in from[0 .. count) (in any order), with tags 3·round
 * when tagged. Empties it. */
static void expect_queue(int count, int round, const int *from, int tagged)
{
    bsp_nprocs_t nmsgs = 0;
    bsp_size_t nbytes = 0;
    bsp_qsize(&nmsgs, &nbytes);
    CHECK_EQ(nmsgs, count);
    CHECK_EQ(nbytes, count * (int)sizeof(msg));
    int seen[MAXP] = {0};
    for (int i = 0; i < count; i++) {
        bsp_size_t status = -1;
        int tag = -1;
        bsp_get_tag(&status, tagged ? &tag : NULL);
        CHECK_EQ(status, (int)sizeof(msg));
        if (tagged)
            CHECK_EQ(tag, 3 * round);
        msg m = {-1, -1};
        bsp_move(&m, sizeof m);
        CHECK_EQ(m.round, round);
        int j = 0;
        while (j < count && from[j] != m.from)
            j++;
        CHECK(j < count);
        CHECK_EQ(seen[j], 0);
        seen[j] = 1;
    }
}

/* Each process sends to its right neighbour and waits for one message, for
 * `rounds` rounds; every 37th round one process (a different one each time)
 * sleeps first, so its neighbours run ahead of it and wait for it. */
static void ring(int rounds)
{
    int right = (gpid + 1) % gP, left = (gpid + gP - 1) % gP;
    bsp_set_tagsize(&(bsp_size_t){sizeof(int)});
    bsp_sync();
    for (int r = 0; r < rounds; r++) {
        unsigned long before = bsp_superstep();
        if (r % 37 == 36 && gpid == (r / 37) % gP)
            sleep_ms(2);
        msg m = {r, gpid};
        int tag = 3 * r;
        bsp_send(right, &tag, &m, sizeof m);
        bsp_oblsync(1);
        CHECK_EQ(bsp_superstep(), before + 1);
        expect_queue(1, r, &left, 1);
    }
    bsp_set_tagsize(&(bsp_size_t){0});
    bsp_sync();
}

/* Process 0 runs ahead: in round r it sends r % 3 + 1 messages to process 1 and
 * ends its superstep at once (oblsync(0)), while process 1 sleeps before
 * waiting for them. Messages for round r + 1 reach process 1 before it has
 * ended round r, and must stay for round r + 1. */
static void early(void)
{
    if (gP < 2)
        return;
    for (int r = 0; r < 12; r++) {
        int count = r % 3 + 1;
        int from[3] = {0, 0, 0};
        if (gpid == 0) {
            for (int i = 0; i < count; i++) {
                msg m = {r, 0};
                bsp_send(1, NULL, &m, sizeof m);
            }
            bsp_oblsync(0);
            expect_queue(0, r, from, 0);
        } else if (gpid == 1) {
            sleep_ms(3);
            bsp_oblsync((size_t)count);
            /* All from process 0: expect_queue wants distinct senders, so the
             * messages are checked here. */
            bsp_nprocs_t nmsgs = 0;
            bsp_size_t nbytes = 0;
            bsp_qsize(&nmsgs, &nbytes);
            CHECK_EQ(nmsgs, count);
            for (int i = 0; i < count; i++) {
                msg m = {-1, -1};
                bsp_move(&m, sizeof m);
                CHECK_EQ(m.round, r);
                CHECK_EQ(m.from, 0);
            }
        } else {
            bsp_oblsync(0);
            expect_queue(0, r, from, 0);
        }
    }
    bsp_sync();
}

/* Process 0 sends to 1 after a sleep, so process 1 waits for a late message;
 * process 1 sends to 0 at once, so 0's message is there before it waits. The
 * roles swap every round. */
static void late(void)
{
    if (gP < 2)
        return;
    for (int r = 0; r < 6; r++) {
        int sleeper = r % 2, other = 1 - sleeper;
        if (gpid == sleeper || gpid == other) {
            int peer = gpid == sleeper ? other : sleeper;
            if (gpid == sleeper)
                sleep_ms(10);
            msg m = {r, gpid};
            bsp_send(peer, NULL, &m, sizeof m);
            bsp_oblsync(1);
            expect_queue(1, r, &peer, 0);
        } else {
            bsp_oblsync(0);
            expect_queue(0, r, NULL, 0);
        }
    }
    bsp_sync();
}

/* Supersteps with nothing to wait for. */
static void zero(void)
{
    unsigned long before = bsp_superstep();
    for (int r = 0; r < 100; r++) {
        bsp_oblsync(0);
        expect_queue(0, r, NULL, 0);
    }
    CHECK_EQ(bsp_superstep(), before + 100);
    bsp_sync();
}

/* Messages of 40000 bytes (which the threads engine may pad in its out
 * buffers, place_payload in core.c) from sources 0, 8, 16 and 2048 bytes into
 * a malloc'd buffer, to the right neighbour: one arrives each superstep, whole. */
static void large(void)
{
    enum { LEN = 40000 };
    unsigned char *out = malloc(LEN + 4096), *in = malloc(LEN);
    CHECK(out && in);
    static const int shifts[] = {0, 8, 16, 2048};
    int left = (gpid + gP - 1) % gP;
    for (int r = 0; r < 4; r++) {
        unsigned char *from = out + shifts[r];
        for (int i = 0; i < LEN; i++)
            from[i] = (unsigned char)(r * 31 + gpid * 7 + i * 13);
        bsp_send((gpid + 1) % gP, NULL, from, LEN);
        bsp_oblsync(1);
        bsp_nprocs_t nmsgs = 0;
        bsp_size_t nbytes = 0;
        bsp_qsize(&nmsgs, &nbytes);
        CHECK_EQ(nmsgs, 1);
        CHECK_EQ(nbytes, LEN);
        bsp_move(in, LEN);
        for (int i = 0; i < LEN; i++)
            if (in[i] != (unsigned char)(r * 31 + left * 7 + i * 13))
                CHECK_EQ(in[i], (unsigned char)(r * 31 + left * 7 + i * 13));
    }
    free(out);
    free(in);
    bsp_sync();
}

/* Every process sends every process (itself too) one message of
 * (r + from + to) % 4 ints, and waits for P. */
static void all_to_all(int rounds)
{
    for (int r = 0; r < rounds; r++) {
        int buf[3];
        for (int q = 0; q < gP; q++) {
            int len = (r + gpid + q) % 4;
            for (int i = 0; i < len; i++)
                buf[i] = r * 1000 + gpid * 10 + i;
            bsp_send(q, NULL, buf, len * (int)sizeof(int));
        }
        bsp_oblsync((size_t)gP);
        bsp_nprocs_t nmsgs = 0;
        bsp_size_t nbytes = 0;
        bsp_qsize(&nmsgs, &nbytes);
        CHECK_EQ(nmsgs, gP);
        int seen[MAXP] = {0};
        for (int m = 0; m < gP; m++) {
            bsp_size_t status = -1;
            bsp_get_tag(&status, NULL);
            CHECK((long long)status >= 0 && (long long)status <= 3 * (long long)sizeof(int));
            int in[4] = {-1, -1, -1, -1};
            bsp_move(in, sizeof in);
            int len = status / (int)sizeof(int);
            /* An empty message does not say who sent it: counted apart. */
            if (len == 0) {
                seen[MAXP - 1]++;
                continue;
            }
            int from = (in[0] - r * 1000) / 10;
            CHECK(from >= 0 && from < gP);
            CHECK_EQ(len, (r + from + gpid) % 4);
            for (int i = 0; i < len; i++)
                CHECK_EQ(in[i], r * 1000 + from * 10 + i);
            CHECK_EQ(seen[from], 0);
            seen[from] = 1;
        }
        int empty = 0;
        for (int q = 0; q < gP; q++)
            empty += (r + q + gpid) % 4 == 0;
        CHECK_EQ(seen[MAXP - 1], empty);
    }
    bsp_sync();
}

/* bsp_sync and bsp_oblsync supersteps alternate; puts, gets and registrations
 * of the bsp_sync supersteps work across them, and each queue holds exactly the
 * messages of the superstep that just ended. */
static void mixed(void)
{
    int right = (gpid + 1) % gP, left = (gpid + gP - 1) % gP;
    int cell = -1, got = -1, late_cell = -1;
    bsp_push_reg(&cell, sizeof cell);
    bsp_sync();
    for (int r = 0; r < 30; r++) {
        unsigned long before = bsp_superstep();
        /* A normal superstep: a put, a get of what the last put left, a message. */
        int v = r * 100 + gpid;
        msg m = {4 * r, gpid};
        bsp_put(right, &v, &cell, 0, sizeof v);
        if (r > 0)
            bsp_get(right, &cell, 0, &got, sizeof got);
        bsp_send(right, NULL, &m, sizeof m);
        if (r == 10)
            bsp_push_reg(&late_cell, sizeof late_cell);
        bsp_sync();
        CHECK_EQ(cell, r * 100 + left);
        if (r > 0)
            CHECK_EQ(got, (r - 1) * 100 + gpid);
        expect_queue(1, 4 * r, &left, 0);
        /* Then r % 3 + 1 oblivious supersteps, leftwards. */
        for (int s = 0; s < r % 3 + 1; s++) {
            msg o = {4 * r + 1 + s, gpid};
            bsp_send(left, NULL, &o, sizeof o);
            bsp_oblsync(1);
            expect_queue(1, 4 * r + 1 + s, &right, 0);
            CHECK_EQ(cell, r * 100 + left);
        }
        CHECK_EQ(bsp_superstep(), before + 1 + (unsigned long)(r % 3 + 1));
        if (r > 10) {
            bsp_put(left, &v, &late_cell, 0, sizeof v);
            bsp_sync();
            CHECK_EQ(late_cell, r * 100 + right);
        }
    }
    /* A bsp_sync right after an oblsync with nothing sent: an empty queue. */
    bsp_oblsync(0);
    bsp_sync();
    expect_queue(0, 0, NULL, 0);
    bsp_pop_reg(&late_cell);
    bsp_pop_reg(&cell);
    bsp_sync();
}

/* Part 0 runs an oblsync ring while part 1 runs bsp_sync supersteps: each
 * part's waits and barriers are its own. */
static void in_parts(void)
{
    if (gP < 2)
        return;
    int part = bsp_partition(2, NULL);
    int n = bsp_nprocs(), me = bsp_pid(), first = gpid - me;
    int left = first + (me + n - 1) % n;
    if (part == 0) {
        for (int r = 0; r < 40; r++) {
            msg m = {r, gpid};
            bsp_send((me + 1) % n, NULL, &m, sizeof m);
            bsp_oblsync(1);
            expect_queue(1, r, &left, 0);
        }
    } else {
        int cell = -1;
        bsp_push_reg(&cell, sizeof cell);
        bsp_sync();
        for (int r = 0; r < 25; r++) {
            int v = r * 100 + gpid;
            bsp_put((me + 1) % n, &v, &cell, 0, sizeof v);
            bsp_sync();
            CHECK_EQ(cell, r * 100 + left);
            bsp_oblsync(0);
        }
        bsp_pop_reg(&cell);
        bsp_sync();
    }
    bsp_rejoin();
    CHECK_EQ(bsp_nprocs(), gP);
    msg m = {7, gpid};
    int gleft = (gpid + gP - 1) % gP;
    bsp_send((gpid + 1) % gP, NULL, &m, sizeof m);
    bsp_oblsync(1);
    expect_queue(1, 7, &gleft, 0);
    bsp_sync();
}

int main(void)
{
    bsp_begin(bsp_nprocs());
    gpid = bsp_pid();
    gP = bsp_nprocs();
    CHECK(gP < MAXP);
    ring(gP > 8 ? 400 : 2000);
    early();
    late();
    zero();
    all_to_all(gP > 8 ? 20 : 100);
    large();
    mixed();
    in_parts();
    bsp_end();
    return 0;
}
