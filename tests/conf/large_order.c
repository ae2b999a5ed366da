/* large_order.c — the conflicting-writes rule for large puts and hpputs, whose
 * data an engine may move apart from the records (the MPI engine: puts from
 * 32 KiB, hpputs from 16 KiB). Puts land by increasing source pid, each
 * source's in issue order, the last write winning, whatever their size; where
 * no two writes meet, an engine may land them in any order (the MPI engine
 * then receives them all at once), so every superstep below checks each byte.
 *   1. a total exchange of 20000-byte hpputs and 40000-byte puts, every write
 *      in a place of its own;
 *   2. every process hpputs to the same place, shorter the higher its pid:
 *      byte i ends as the highest pid whose write covers it;
 *   3. disjoint large hpputs, met by small puts: one from the highest pid (it
 *      wins), one from pid 0 into pid 1's place (pid 1's hpput wins), each also
 *      landing on the process that issued it.
 * Lower pids wait before issuing, so that landing in arrival order would fail.
 */
#include "check.h"
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { BLOCK = 40960, HP = 20000, BIG = 40000, SMALL = 8 };

static void stagger(int p, int n)
{
    struct timespec ts = {0, (long)(n - 1 - p) * 2000000L};
    nanosleep(&ts, NULL);
}

/* Checks that bytes [from, to) of x all hold value (memcmp-fast: at P = 16
 * every process checks a few MB). */
static void check_run(const unsigned char *x, long from, long to, int value)
{
    for (long i = from; i < to; i++)
        if (x[i] != value)
            CHECK_EQ(x[i], value);
}

/* The process whose write byte i of superstep 2's place ends with. */
static int last_writer(long i, int n)
{
    for (int s = n - 1; s >= 0; s--)
        if (i < HP + 1000L * (n - 1 - s))
            return s;
    return -1;
}

int main(void)
{
    bsp_begin(bsp_nprocs());
    int p = bsp_pid(), n = bsp_nprocs();
    size_t area = (size_t)n * BLOCK;
    unsigned char *a = check_alloc(area), *b = check_alloc(area);
    unsigned char *hp = check_alloc(HP + 1000L * n), *big = check_alloc(BIG);
    memset(a, 0xff, area);
    memset(b, 0xff, area);
    memset(hp, p + 1, HP + 1000L * n);
    memset(big, 0x80 + p, BIG);
    bsp_push_reg(a, area);
    bsp_push_reg(b, area);
    bsp_sync();

    stagger(p, n);
    for (int q = 0; q < n; q++) {
        bsp_hpput(q, hp, a, (size_t)p * BLOCK, HP);
        bsp_put(q, big, b, (size_t)p * BLOCK, BIG);
    }
    bsp_sync();
    for (long s = 0; s < n; s++) {
        check_run(a, s * BLOCK, s * BLOCK + HP, (int)s + 1);
        check_run(a, s * BLOCK + HP, (s + 1) * BLOCK, 0xff);
        check_run(b, s * BLOCK, s * BLOCK + BIG, 0x80 + (int)s);
        check_run(b, s * BLOCK + BIG, (s + 1) * BLOCK, 0xff);
    }

    memset(a, 0xff, area);
    bsp_sync();
    stagger(p, n);
    for (int q = 0; q < n; q++)
        bsp_hpput(q, hp, a, 0, HP + 1000L * (n - 1 - p));
    bsp_sync();
    for (long i = 0; i < HP + 1000L * n; i++) {
        int s = last_writer(i, n);
        check_run(a, i, i + 1, s < 0 ? 0xff : s + 1);
    }

    memset(a, 0xff, area);
    bsp_sync();
    stagger(p, n);
    unsigned char top[SMALL], low[SMALL];
    memset(top, 0xee, SMALL);
    memset(low, 0xdd, SMALL);
    for (int q = 0; q < n; q++) {
        if (p < n - 1)
            bsp_hpput(q, hp, a, (size_t)p * BLOCK, HP);
        if (p == n - 1 && n > 1)
            bsp_put(q, top, a, 100, SMALL);
        if (p == 0 && n > 2)
            bsp_put(q, low, a, BLOCK + 100, SMALL);
    }
    bsp_sync();
    /* The highest pid's small put wins over pid 0's hpput; pid 1's hpput over
     * pid 0's small put. */
    for (long s = 1; s < n - 1; s++)
        check_run(a, s * BLOCK, s * BLOCK + HP, (int)s + 1);
    if (n > 1) {
        check_run(a, 0, 100, 1);
        check_run(a, 100, 100 + SMALL, 0xee);
        check_run(a, 100 + SMALL, HP, 1);
    }
    bsp_pop_reg(b);
    bsp_pop_reg(a);
    bsp_sync();
    free(a);
    free(b);
    free(hp);
    free(big);
    bsp_end();
    return 0;
}
