/* dense_mixed.c — supersteps in which every process writes to every other
 * (the MPI engine's dense exchange from 10 processes on), mixing bsp_hpput,
 * bsp_put, bsp_get and bsp_send. Checks: small hpputs' data arrives as the
 * source held it at the sync (changed after the call), hpputs and puts to one
 * place land in issue order (the last wins), gets and messages arrive; in
 * rounds where the heads are of like sizes, of very unlike sizes (one
 * destination gets ten times the data), and where one process's hpput is large
 * enough (64 KiB) to travel apart from the records (no dense exchange then).
 */
#include "check.h"
#include <string.h>

/* STRIDE ints of area per source; BIG ints: round 2's large hpput, from 0 to 1. */
enum { ROUNDS = 3, STRIDE = 512, BIG = 16384 };

static int value(int round, int src, int dst, int i)
{
    return (round * 1000003 + src * 7919 + dst * 31 + i) % 2000003;
}

/* Ints process src hpputs to dst's area in a round. */
static int count(int round, int src, int dst, int n)
{
    if (round == 1 && dst == (src + 1) % n)
        return 400; /* ten times the others: sizes unlike */
    return 40 + (src + dst) % 4;
}

static int sends_big(int round, int src, int dst) { return round == 2 && src == 0 && dst == 1; }

int main(void)
{
    bsp_begin(bsp_nprocs());
    int p = bsp_pid(), n = bsp_nprocs();
    size_t stride = STRIDE;
    int *area = check_alloc((size_t)n * stride * sizeof(int));
    int *big = check_alloc(BIG * sizeof(int));
    int *big_out = check_alloc(BIG * sizeof(int));
    int *hsrc = check_alloc(2 * (size_t)n * sizeof(int)); /* the one-int hpputs' sources */
    int *last = check_alloc(2 * (size_t)n * sizeof(int)); /* two words per source */
    int *mine = check_alloc(sizeof(int));
    int *got = check_alloc((size_t)n * sizeof(int));
    bsp_push_reg(area, (bsp_size_t)((size_t)n * stride * sizeof(int)));
    bsp_push_reg(big, BIG * sizeof(int));
    bsp_push_reg(last, (bsp_size_t)(2 * (size_t)n * sizeof(int)));
    bsp_push_reg(mine, sizeof(int));
    bsp_size_t tag = sizeof(int);
    bsp_set_tagsize(&tag);
    bsp_sync();

    int *out = check_alloc((size_t)n * stride * sizeof(int));
    for (int round = 0; round < ROUNDS; round++) {
        memset(area, 0xff, (size_t)n * stride * sizeof(int));
        memset(big, 0xff, BIG * sizeof(int));
        *mine = 777 * round + p;
        bsp_sync();
        for (int q = 0; q < n; q++) {
            int k = count(round, p, q, n);
            for (int i = 0; i < k; i++)
                out[(size_t)q * stride + i] = -1; /* what the call sees: changed below */
            bsp_hpput(q, out + (size_t)q * stride, area,
                      (bsp_size_t)((size_t)p * stride * sizeof(int)),
                      (bsp_size_t)(k * (int)sizeof(int)));
            if (sends_big(round, p, q)) {
                for (int i = 0; i < BIG; i++)
                    big_out[i] = value(round, p, q, i);
                bsp_hpput(q, big_out, big, 0, BIG * sizeof(int));
            }
            int b = value(round, p, q, -2), c2 = value(round, p, q, -3);
            hsrc[2 * q] = value(round, p, q, -1);
            hsrc[2 * q + 1] = value(round, p, q, -4);
            /* last[2p]: hpput then put (the put wins); last[2p + 1]: put then hpput. */
            bsp_hpput(q, &hsrc[2 * q], last, (bsp_size_t)(2 * p * (int)sizeof(int)), sizeof(int));
            bsp_put(q, &b, last, (bsp_size_t)(2 * p * (int)sizeof(int)), sizeof(int));
            bsp_put(q, &c2, last, (bsp_size_t)((2 * p + 1) * (int)sizeof(int)), sizeof(int));
            bsp_hpput(q, &hsrc[2 * q + 1], last, (bsp_size_t)((2 * p + 1) * (int)sizeof(int)),
                      sizeof(int));
            bsp_get(q, mine, 0, &got[q], sizeof(int));
            int msg = value(round, p, q, -5);
            bsp_send(q, &p, &msg, sizeof msg);
        }
        /* The hpputs read their sources at the sync. */
        for (int q = 0; q < n; q++)
            for (int i = 0; i < count(round, p, q, n); i++)
                out[(size_t)q * stride + i] = value(round, p, q, i);
        bsp_sync();
        for (int s = 0; s < n; s++) {
            int k = count(round, s, p, n);
            for (int i = 0; i < k; i++)
                if (area[(size_t)s * stride + i] != value(round, s, p, i))
                    bsp_abort("CONFORMANCE FAILURE %s:%d: round %d: int %d from %d is %d, "
                              "expected %d",
                              __FILE__, __LINE__, round, i, s, area[(size_t)s * stride + i],
                              value(round, s, p, i));
            if ((size_t)k < stride)
                CHECK_EQ(area[(size_t)s * stride + k], -1);
            CHECK_EQ(last[2 * s], value(round, s, p, -2));
            CHECK_EQ(last[2 * s + 1], value(round, s, p, -4));
            CHECK_EQ(got[s], 777 * round + s);
        }
        for (int i = 0; i < BIG; i++)
            CHECK_EQ(big[i], sends_big(round, 0, p) ? value(round, 0, p, i) : -1);
        int packets, accum;
        bsp_qsize(&packets, &accum);
        CHECK_EQ(packets, n);
        for (int k = 0; k < n; k++) {
            int src, msg;
            bsp_size_t status;
            bsp_get_tag(&status, &src);
            CHECK_EQ(status, sizeof msg);
            bsp_move(&msg, sizeof msg);
            CHECK_EQ(msg, value(round, src, p, -5));
        }
    }
    bsp_pop_reg(mine);
    bsp_pop_reg(last);
    bsp_pop_reg(big);
    bsp_pop_reg(area);
    bsp_sync();
    free(out);
    free(hsrc);
    free(big_out);
    free(big);
    free(got);
    free(mine);
    free(last);
    free(area);
    bsp_end();
    return 0;
}
