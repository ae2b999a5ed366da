/* qsize.c — bsp_qsize.
 * It counts the messages still in the queue and the sum of their payload sizes
 * (tags excluded): zero before anything arrives, the full count in the
 * superstep after the sends, one message and its payload less after each
 * bsp_move or bsp_hpmove, and zero again after a sync without sends.
 */
#include "check.h"

/* Process s sends s+1 messages to every process; message k carries k+1 ints. */
static int expected_count(int n) { return n * (n + 1) / 2; }
static int expected_bytes(int n)
{
    int total = 0;
    for (int s = 0; s < n; s++)
        total += (s + 1) * (s + 2) / 2 * (int)sizeof(int);
    return total;
}

int main(void)
{
    bsp_begin(bsp_nprocs());
    int p = bsp_pid(), n = bsp_nprocs();

    int tagsize = sizeof(int);
    bsp_set_tagsize(&tagsize);
    bsp_sync();

    int payload[64] = {0};
    for (int q = 0; q < n; q++)
        for (int k = 0; k <= p; k++)
            bsp_send(q, &k, payload, (k + 1) * sizeof(int));
    int nmsg = -1, nbytes = -1;
    bsp_qsize(&nmsg, &nbytes);
    CHECK_EQ(nmsg, 0);
    CHECK_EQ(nbytes, 0);
    bsp_sync();

    int left = expected_count(n), bytes = expected_bytes(n);
    bsp_qsize(&nmsg, &nbytes);
    CHECK_EQ(nmsg, left);
    CHECK_EQ(nbytes, bytes);
    for (int m = 0; left > 0; m++) {
        int status = -2, tag = -1;
        bsp_get_tag(&status, &tag);
        CHECK_EQ(status, (tag + 1) * sizeof(int));
        if (m % 2) {
            void *tp, *pp;
            CHECK_EQ(bsp_hpmove(&tp, &pp), status);
        } else {
            bsp_move(payload, sizeof payload);
        }
        left--;
        bytes -= status;
        bsp_qsize(&nmsg, &nbytes);
        CHECK_EQ(nmsg, left);
        CHECK_EQ(nbytes, bytes);
    }
    bsp_sync();

    bsp_qsize(&nmsg, &nbytes);
    CHECK_EQ(nmsg, 0);
    CHECK_EQ(nbytes, 0);
    bsp_end();
    return 0;
}
