/* send_move.c — bulk synchronous message passing: bsp_send, bsp_get_tag, bsp_move.
 * Checks: messages sent in a superstep are in the queue in the next one and not
 * before (not even on the sender or in the sending superstep); tag and payload
 * are copied at the call; bsp_get_tag gives the payload size (0 for an empty
 * payload) and the tag, and -1 once the queue is empty; bsp_move copies at most
 * reception_nbytes; messages sent while a queue is being read do not join it;
 * messages left unread are gone after the following sync.
 */
#include "check.h"
#include <string.h>

/* Payload length in ints of the message from s to d in a round: 0 to 4. */
static int len(int s, int d, int round) { return (s + 2 * d + round) % 5; }
static int word(int s, int d, int round, int i) { return s * 10000 + d * 100 + round * 10 + i; }

static void send_round(int p, int n, int round)
{
    int tag, payload[4];
    for (int q = 0; q < n; q++) {
        tag = p * 10 + round;
        for (int i = 0; i < len(p, q, round); i++)
            payload[i] = word(p, q, round, i);
        bsp_send(q, &tag, payload, len(p, q, round) * sizeof(int));
        tag = -1; /* the send has copied both */
        memset(payload, 0xff, sizeof payload);
    }
}

static int expected_bytes(int p, int n, int round)
{
    int total = 0;
    for (int s = 0; s < n; s++)
        total += len(s, p, round) * sizeof(int);
    return total;
}

/* Reads `count` messages of `round`, each from a source not yet in `seen`. */
static void receive(int p, int n, int round, char *seen, int count)
{
    for (int k = 0; k < count; k++) {
        int status = -2, tag = -1;
        bsp_get_tag(&status, &tag);
        int s = tag / 10;
        CHECK(s >= 0 && s < n);
        CHECK_EQ(tag % 10, round);
        CHECK(!seen[s]);
        seen[s] = 1;
        CHECK_EQ(status, len(s, p, round) * sizeof(int));
        int buf[6];
        for (int i = 0; i < 6; i++)
            buf[i] = -3;
        if (status >= 2 * (int)sizeof(int)) {
            /* A short reception buffer: only the first int is copied. */
            bsp_move(buf, sizeof(int));
            CHECK_EQ(buf[0], word(s, p, round, 0));
            CHECK_EQ(buf[1], -3);
        } else {
            bsp_move(buf, sizeof buf);
            for (int i = 0; i < status / (int)sizeof(int); i++)
                CHECK_EQ(buf[i], word(s, p, round, i));
            CHECK_EQ(buf[status / (int)sizeof(int)], -3);
        }
    }
}

static void check_empty(void)
{
    int nmsg = -1, nbytes = -1, status = 0, tag = 12345;
    bsp_qsize(&nmsg, &nbytes);
    CHECK_EQ(nmsg, 0);
    CHECK_EQ(nbytes, 0);
    bsp_get_tag(&status, &tag);
    CHECK_EQ(status, -1);
}

int main(void)
{
    bsp_begin(bsp_nprocs());
    int p = bsp_pid(), n = bsp_nprocs();
    char *seen = check_alloc(n);

    int tagsize = sizeof(int);
    bsp_set_tagsize(&tagsize);
    CHECK_EQ(tagsize, 0);
    check_empty();
    bsp_sync();

    /* Superstep 1: send round 1; nothing has arrived yet, not even our own messages. */
    send_round(p, n, 1);
    check_empty();
    bsp_sync();

    /* Superstep 2: round 1 is here; round 2 is sent halfway through reading it. */
    int nmsg = -1, nbytes = -1;
    bsp_qsize(&nmsg, &nbytes);
    CHECK_EQ(nmsg, n);
    CHECK_EQ(nbytes, expected_bytes(p, n, 1));
    memset(seen, 0, n);
    receive(p, n, 1, seen, n / 2);
    send_round(p, n, 2);
    bsp_qsize(&nmsg, &nbytes);
    CHECK_EQ(nmsg, n - n / 2);
    receive(p, n, 1, seen, n - n / 2);
    for (int s = 0; s < n; s++)
        CHECK(seen[s]);
    check_empty();
    bsp_sync();

    /* Superstep 3: round 2 is here; leave it unread. */
    bsp_qsize(&nmsg, &nbytes);
    CHECK_EQ(nmsg, n);
    CHECK_EQ(nbytes, expected_bytes(p, n, 2));
    bsp_sync();

    /* Superstep 4: the unread messages are gone. */
    check_empty();
    send_round(p, n, 3);
    bsp_sync();
    memset(seen, 0, n);
    receive(p, n, 3, seen, n);
    check_empty();
    bsp_sync();

    free(seen);
    bsp_end();
    return 0;
}
