/* hpmove.c — bsp_hpmove.
 * bsp_hpmove returns the payload size and pointers to the tag and payload in
 * the queue, and -1 once the queue is empty; the pointers stay valid until the
 * next sync, even after later messages were taken and new ones sent; a
 * bsp_get_tag before bsp_hpmove describes the same message; empty payloads work.
 */
#include "check.h"
#include <string.h>

enum { PER_PAIR = 3 };

static int word(int s, int d, int k, int i) { return s * 100000 + d * 1000 + k * 10 + i; }

static void send_messages(int p, int n)
{
    for (int q = 0; q < n; q++)
        for (int k = 0; k < PER_PAIR; k++) {
            int tag = p * PER_PAIR + k, payload[2 * PER_PAIR];
            for (int i = 0; i < 2 * k; i++)
                payload[i] = word(p, q, k, i);
            bsp_send(q, &tag, payload, 2 * k * sizeof(int));
        }
}

int main(void)
{
    bsp_begin(bsp_nprocs());
    int p = bsp_pid(), n = bsp_nprocs();
    int total = n * PER_PAIR;

    int tagsize = sizeof(int);
    bsp_set_tagsize(&tagsize);
    bsp_sync();
    send_messages(p, n);
    bsp_sync();

    void **tags = check_alloc(total * sizeof *tags);
    void **payloads = check_alloc(total * sizeof *payloads);
    int *sizes = check_alloc(total * sizeof *sizes);
    for (int m = 0; m < total; m++) {
        if (m == 0) {
            int status = -2, tag = -1;
            bsp_get_tag(&status, &tag);
            sizes[0] = bsp_hpmove(&tags[0], &payloads[0]);
            CHECK_EQ(sizes[0], status);
            int held;
            memcpy(&held, tags[0], sizeof held); /* queue storage need not be int-aligned */
            CHECK_EQ(held, tag);
        } else {
            sizes[m] = bsp_hpmove(&tags[m], &payloads[m]);
        }
        CHECK(sizes[m] >= 0);
    }
    void *tp = NULL, *pp = NULL;
    CHECK_EQ(bsp_hpmove(&tp, &pp), -1);
    int nmsg = -1, nbytes = -1;
    bsp_qsize(&nmsg, &nbytes);
    CHECK_EQ(nmsg, 0);
    /* New messages for the next superstep must not disturb the ones still held. */
    send_messages(p, n);

    char *seen = check_alloc(total);
    for (int m = 0; m < total; m++)
        seen[m] = 0;
    for (int m = 0; m < total; m++) {
        int tag;
        memcpy(&tag, tags[m], sizeof tag);
        CHECK(tag >= 0 && tag < total);
        CHECK(!seen[tag]);
        seen[tag] = 1;
        int s = tag / PER_PAIR, k = tag % PER_PAIR;
        CHECK_EQ(sizes[m], 2 * k * sizeof(int));
        for (int i = 0; i < 2 * k; i++) {
            int w;
            memcpy(&w, (char *)payloads[m] + i * sizeof(int), sizeof w);
            CHECK_EQ(w, word(s, p, k, i));
        }
    }
    bsp_sync();

    /* The second batch arrived intact; drain it. */
    int count = 0;
    while (bsp_hpmove(&tp, &pp) != -1)
        count++;
    CHECK_EQ(count, total);
    bsp_sync();

    free(seen);
    free(sizes);
    free(payloads);
    free(tags);
    bsp_end();
    return 0;
}
