/* tagsize.c — bsp_set_tagsize.
 * The default tag size is 0; bsp_set_tagsize returns the size in force through
 * its argument; a new size applies from the next superstep: messages sent in
 * the superstep of the call still carry tags of the old size, so their
 * receivers get no tag bytes, and later messages carry the new size exactly
 * (a smaller tag leaves the rest of the receiver's buffer alone).
 */
#include "check.h"
#include <string.h>

enum { WIDE = 8, NARROW = 2 };

/* One message to every process: payload = sender pid, tag bytes = 0x40 + sender pid. */
static void send_all(int p, int n)
{
    unsigned char tag[WIDE];
    memset(tag, 0x40 + p, sizeof tag);
    for (int q = 0; q < n; q++)
        bsp_send(q, tag, &p, sizeof p);
}

/* Receives n messages whose tags should carry `tagbytes` bytes. */
static void receive_all(int n, int tagbytes)
{
    for (int k = 0; k < n; k++) {
        unsigned char tag[WIDE];
        memset(tag, 0x11, sizeof tag);
        int status = -2, src = -1;
        bsp_get_tag(&status, tag);
        CHECK_EQ(status, sizeof(int));
        bsp_move(&src, sizeof src);
        CHECK(src >= 0 && src < n);
        for (int i = 0; i < WIDE; i++)
            CHECK_EQ(tag[i], i < tagbytes ? 0x40 + src : 0x11);
    }
    int status = 0;
    unsigned char tag[WIDE];
    bsp_get_tag(&status, tag);
    CHECK_EQ(status, -1);
}

int main(void)
{
    bsp_begin(bsp_nprocs());
    int p = bsp_pid(), n = bsp_nprocs();

    int size = WIDE;
    bsp_set_tagsize(&size);
    CHECK_EQ(size, 0);
    send_all(p, n); /* still tag size 0 */
    bsp_sync();

    receive_all(n, 0);
    size = NARROW;
    bsp_set_tagsize(&size);
    CHECK_EQ(size, WIDE);
    send_all(p, n); /* tag size WIDE */
    bsp_sync();

    receive_all(n, WIDE);
    send_all(p, n); /* tag size NARROW */
    bsp_sync();

    receive_all(n, NARROW);
    size = 0;
    bsp_set_tagsize(&size);
    CHECK_EQ(size, NARROW);
    bsp_sync();

    bsp_end();
    return 0;
}
