/* mcbsp_dialect.c — the MulticoreBSP-style dialect (compiled with -DPOLYBSP_MCBSP).
 * A MulticoreBSP for C program uses unsigned pids and size_t sizes and must
 * build without warnings and run like a classic one. Empty-queue results are
 * SIZE_MAX (the size_t form of -1) for bsp_get_tag's status and bsp_hpmove.
 */
#include "check.h"
#include <stdint.h>
#include <string.h>

int main(void)
{
    bsp_begin(bsp_nprocs());
    unsigned int p = bsp_pid(), n = bsp_nprocs();
    CHECK(n >= 1);
    unsigned int next = (p + 1) % n, prev = (p + n - 1) % n;

    size_t *x = check_alloc(2 * sizeof(size_t));
    x[0] = x[1] = 0;
    bsp_push_reg(x, 2 * sizeof(size_t));
    size_t tagsize = sizeof(unsigned int);
    bsp_set_tagsize(&tagsize);
    CHECK_EQ(tagsize, 0);
    bsp_sync();

    size_t v = 1000u + p;
    bsp_put(next, &v, x, sizeof(size_t), sizeof v);
    bsp_hpput(next, &v, x, 0, sizeof v);
    size_t got = 0, hpgot = 0;
    bsp_get(next, x, 0, &got, sizeof got);
    bsp_hpget(next, x, 0, &hpgot, sizeof hpgot);
    x[0] = 7u + p;
    size_t payload = 5000u + p;
    bsp_send(next, &p, &payload, sizeof payload);
    bsp_send(prev, &p, &payload, sizeof payload);
    bsp_sync();

    CHECK_EQ(x[0], 1000u + prev);
    CHECK_EQ(x[1], 1000u + prev);
    CHECK_EQ(got, 7u + next);
    CHECK_EQ(hpgot, 7u + next);
    unsigned int nmsg = 0;
    size_t nbytes = 0;
    bsp_qsize(&nmsg, &nbytes);
    CHECK_EQ(nmsg, 2);
    CHECK_EQ(nbytes, 2 * sizeof(size_t));
    size_t status = 0;
    unsigned int tag = 0;
    bsp_get_tag(&status, &tag);
    CHECK_EQ(status, sizeof(size_t));
    CHECK(tag == next || tag == prev);
    size_t in = 0;
    bsp_move(&in, sizeof in);
    CHECK_EQ(in, 5000u + tag);
    void *tp = NULL, *pp = NULL;
    CHECK_EQ(bsp_hpmove(&tp, &pp), sizeof(size_t));
    memcpy(&tag, tp, sizeof tag);
    memcpy(&in, pp, sizeof in);
    CHECK(tag == next || tag == prev);
    CHECK_EQ(in, 5000u + tag);
    bsp_get_tag(&status, &tag);
    CHECK(status == SIZE_MAX);
    CHECK(bsp_hpmove(&tp, &pp) == SIZE_MAX);

    bsp_pop_reg(x);
    bsp_sync();
    free(x);
    bsp_end();
    return 0;
}
