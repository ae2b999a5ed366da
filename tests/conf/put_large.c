/* put_large.c — bsp_put and bsp_send of payloads around and above
 * CORE_COPY_STREAM_MIN (16 KiB), which the threads engine copies with streaming
 * stores when every process has a core of its own (POLYBSP_STREAM, docs/env.md;
 * the tests also force it on and off). Checks: each process puts blocks of
 * 16383, 16384, 16385 and 100003 bytes at odd offsets into the next process
 * and one into itself, overwrites its sources right after the puts (the data
 * must be what they held at the call), sends a 70001-byte message to the
 * previous process, and every byte arrives, nothing around the blocks changes,
 * over three supersteps with different contents. The blocks' sources lie 0, 24,
 * 2048 and 4000 bytes into a malloc'd buffer, so that the threads engine pads
 * some of them in the out buffer (place_payload, core.c) and not others. */
#include "check.h"

#include <string.h>

static const int sizes[] = {16383, 16384, 16385, 100003};
static const int shifts[] = {0, 24, 2048, 4000};
enum { NSIZES = 4, MSG = 70001, AREA = 16383 + 16384 + 16385 + 100003 + 64, SHIFT_MAX = 4096 };

static unsigned char byte(int src, int round, long i)
{
    return (unsigned char)(src * 37 + round * 101 + i * 13 + (i >> 8));
}

int main(void)
{
    bsp_begin(bsp_nprocs());
    int p = bsp_pid(), n = bsp_nprocs();
    int next = (p + 1) % n, prev = (p + n - 1) % n;
    unsigned char *area = check_alloc(AREA), *self = check_alloc(AREA);
    unsigned char *src = check_alloc(AREA + SHIFT_MAX), *msg = check_alloc(MSG);
    int tagsize = (int)sizeof(int);
    bsp_set_tagsize(&tagsize);
    bsp_push_reg(area, AREA);
    bsp_push_reg(self, AREA);
    bsp_sync();

    for (int round = 0; round < 3; round++) {
        memset(area, 0xEE, AREA);
        memset(self, 0xEE, AREA);
        bsp_sync();   /* nobody puts into an area before its owner cleared it */
        long off = 1; /* odd: the out buffer and the destination are not 16-byte aligned */
        for (int k = 0; k < NSIZES; k++) {
            unsigned char *from = src + shifts[k];
            for (long i = 0; i < sizes[k]; i++)
                from[i] = byte(p, round, off + i);
            bsp_put(next, from, area, (int)off, sizes[k]);
            memset(from, 0, (size_t)sizes[k]); /* buffered: the put took the values already */
            off += sizes[k] + 8;
        }
        for (long i = 0; i < sizes[NSIZES - 1]; i++)
            src[i] = byte(p, round + 7, i);
        bsp_put(p, src, self, 3, sizes[NSIZES - 1]);
        for (long i = 0; i < MSG; i++)
            msg[i] = byte(p, round + 3, i);
        int tag = round;
        bsp_send(prev, &tag, msg, MSG);
        memset(msg, 0, MSG);
        bsp_sync();

        off = 1;
        for (int k = 0; k < NSIZES; k++) {
            CHECK_EQ(area[off - 1], 0xEE);
            for (long i = 0; i < sizes[k]; i++)
                if (area[off + i] != byte(prev, round, off + i))
                    CHECK_EQ(area[off + i], byte(prev, round, off + i));
            CHECK_EQ(area[off + sizes[k]], 0xEE);
            off += sizes[k] + 8;
        }
        for (long i = 0; i < sizes[NSIZES - 1]; i++)
            if (self[3 + i] != byte(p, round + 7, i))
                CHECK_EQ(self[3 + i], byte(p, round + 7, i));
        int count, bytes, status;
        bsp_qsize(&count, &bytes);
        CHECK_EQ(count, 1);
        bsp_get_tag(&status, &tag);
        CHECK_EQ(status, MSG);
        CHECK_EQ(tag, round);
        bsp_move(msg, MSG);
        for (long i = 0; i < MSG; i++)
            if (msg[i] != byte(next, round + 3, i))
                CHECK_EQ(msg[i], byte(next, round + 3, i));
    }
    bsp_pop_reg(self);
    bsp_pop_reg(area);
    bsp_sync();
    free(area), free(self), free(src), free(msg);
    bsp_end();
    return 0;
}
