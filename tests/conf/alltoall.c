/* alltoall.c — larger h-relations, without aborts.
 * Each process exchanges a few hundred KB with all others (itself included),
 * once by bsp_put, once by bsp_get, once by bsp_send/bsp_move and once by
 * bsp_hpput, and then all processes send a block to process 0 at once
 * (an unbalanced h-relation). Every word is checked.
 */
#include "check.h"
#include <string.h>

enum { TOTAL = 384 * 1024 }; /* bytes each process sends per exchange */

static unsigned word(int s, int d, int i, int round)
{
    return (unsigned)s * 2654435761u ^ (unsigned)d * 40503u ^ (unsigned)i * 7u ^ (unsigned)round;
}

static void fill(unsigned *out, int p, int n, int per, int round)
{
    for (int q = 0; q < n; q++)
        for (int i = 0; i < per; i++)
            out[q * per + i] = word(p, q, i, round);
}

static void check_in(const unsigned *in, int p, int n, int per, int round)
{
    for (int s = 0; s < n; s++)
        for (int i = 0; i < per; i++)
            if (in[s * per + i] != word(s, p, i, round))
                bsp_abort("CONFORMANCE FAILURE %s:%d: round %d: word %d from %d is %u, expected %u",
                          __FILE__, __LINE__, round, i, s, in[s * per + i], word(s, p, i, round));
}

int main(void)
{
    bsp_begin(bsp_nprocs());
    int p = bsp_pid(), n = bsp_nprocs();
    int per = TOTAL / (int)sizeof(unsigned) / n; /* words per destination */
    int bytes = per * (int)sizeof(unsigned);
    unsigned *out = check_alloc((size_t)n * bytes);
    unsigned *in = check_alloc((size_t)n * bytes);
    bsp_push_reg(out, n * bytes);
    bsp_push_reg(in, n * bytes);
    bsp_sync();

    /* Round 1: puts, source p's block lands at in[p]. */
    fill(out, p, n, per, 1);
    for (int q = 0; q < n; q++)
        bsp_put(q, out + q * per, in, p * bytes, bytes);
    memset(out, 0, (size_t)n * bytes); /* puts copied at the call */
    bsp_sync();
    check_in(in, p, n, per, 1);

    /* Round 2: gets, reading block p of every process's out. */
    fill(out, p, n, per, 2);
    for (int q = 0; q < n; q++)
        bsp_get(q, out, p * bytes, in + q * per, bytes);
    bsp_sync();
    check_in(in, p, n, per, 2);

    /* Round 3: messages, tagged with the source. */
    int tagsize = sizeof(int);
    bsp_set_tagsize(&tagsize);
    fill(out, p, n, per, 3);
    bsp_sync();
    for (int q = 0; q < n; q++)
        bsp_send(q, &p, out + q * per, bytes);
    bsp_sync();
    memset(in, 0, (size_t)n * bytes);
    for (int m = 0; m < n; m++) {
        int status = -1, s = -1;
        bsp_get_tag(&status, &s);
        CHECK_EQ(status, bytes);
        CHECK(s >= 0 && s < n);
        bsp_move(in + s * per, bytes);
    }
    check_in(in, p, n, per, 3);

    /* Round 4: hpputs. */
    fill(out, p, n, per, 4);
    for (int q = 0; q < n; q++)
        bsp_hpput(q, out + q * per, in, p * bytes, bytes);
    bsp_sync();
    check_in(in, p, n, per, 4);

    /* Round 5: everyone puts `per` words into process 0 at once. */
    fill(out, p, n, per, 5);
    bsp_put(0, out, in, p * bytes, bytes);
    bsp_sync();
    if (p == 0)
        for (int s = 0; s < n; s++)
            for (int i = 0; i < per; i++)
                CHECK_EQ(in[s * per + i], word(s, 0, i, 5));

    bsp_pop_reg(in);
    bsp_pop_reg(out);
    bsp_sync();
    free(in);
    free(out);
    bsp_end();
    return 0;
}
