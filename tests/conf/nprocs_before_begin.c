/* nprocs_before_begin.c — bsp_nprocs before bsp_begin, and bsp_pid/bsp_nprocs inside.
 * Before bsp_begin, bsp_nprocs is POLYBSP_NPROCS when set (else the number of
 * cores, at least 1). Inside, every process sees that count and the pids are
 * exactly 0..P-1, each once (gathered on process 0).
 * Code before bsp_begin needs the bsp_init structure: without bsp_init,
 * bsp_begin must be the first statement of main.
 */
#include "check.h"

static int avail; /* set by main before spmd(), then only read */

static void spmd(void)
{
    bsp_begin(avail);
    int p = bsp_pid(), n = bsp_nprocs();
    CHECK_EQ(n, avail);
    CHECK(p >= 0 && p < n);

    int *pids = check_alloc(n * sizeof(int));
    for (int i = 0; i < n; i++)
        pids[i] = -1;
    bsp_push_reg(pids, n * sizeof(int));
    bsp_sync();
    /* Each process writes its pid into slot pid, and counts itself in a message. */
    bsp_put(0, &p, pids, p * sizeof(int), sizeof(int));
    bsp_send(0, &n, &n, sizeof n); /* tag size 0: the tag is not read */
    bsp_sync();
    if (p == 0) {
        for (int i = 0; i < n; i++)
            CHECK_EQ(pids[i], i);
        int nmsg = -1, nbytes = -1;
        bsp_qsize(&nmsg, &nbytes);
        CHECK_EQ(nmsg, n);
        for (int i = 0; i < n; i++) {
            int seen_n = -1;
            bsp_move(&seen_n, sizeof seen_n);
            CHECK_EQ(seen_n, n);
        }
    }
    bsp_pop_reg(pids);
    bsp_sync();
    free(pids);
    bsp_end();
}

int main(int argc, char **argv)
{
    bsp_init(spmd, argc, argv);
    avail = bsp_nprocs();
    const char *env = getenv("POLYBSP_NPROCS");
    if (env)
        CHECK_MAIN(avail == atoi(env));
    CHECK_MAIN(avail >= 1);
    spmd();
    return 0;
}
