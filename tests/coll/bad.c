/* bad.c — one misuse of a collective per run, chosen by argv[1], at P = 4.
 * Every case first completes two supersteps, so reports name superstep 2 (or
 * later); CMakeLists.txt gives the exact line each case must print.
 */
#include <polybsp.h>
#include <polybsp_coll.h>

#include <stdio.h>
#include <string.h>

static void sum(void *acc, const void *in, size_t nbytes)
{
    for (size_t i = 0; i < nbytes; i++)
        ((unsigned char *)acc)[i] += ((const unsigned char *)in)[i];
}

int main(int argc, char **argv)
{
    bsp_begin(bsp_nprocs());
    const char *c = argc > 1 ? argv[1] : "";
    int me = bsp_pid();
    char buf[64] = {0}, out[256];
    size_t sc[4] = {8, 8, 8, 8}, sd[4] = {0, 8, 16, 24}, rc[4] = {8, 8, 8, 8};
    bsp_sync();
    bsp_sync();

    if (!strcmp(c, "only_root")) { /* process 0 broadcasts, the others sync */
        if (me == 0)
            bsp_bcast(0, buf, 8);
        else
            bsp_sync();
    } else if (!strcmp(c, "one_syncs")) { /* process 2 syncs, the others reduce */
        if (me == 2)
            bsp_sync();
        else
            bsp_reduce(0, buf, out, 8, sum);
    } else if (!strcmp(c, "one_calls")) { /* only process 3 calls bsp_allreduce */
        if (me == 3)
            bsp_allreduce(buf, out, 8, sum);
        else
            bsp_sync();
    } else if (!strcmp(c, "other_collective")) {
        if (me == 1)
            bsp_scatter(0, buf, out, 8);
        else
            bsp_gather(0, buf, out, 8);
    } else if (!strcmp(c, "root_differs")) {
        bsp_bcast(me == 1 ? 1 : 0, buf, 8);
    } else if (!strcmp(c, "size_differs")) {
        bsp_allgather(buf, out, me == 2 ? 16 : 8);
    } else if (!strcmp(c, "root_range")) {
        bsp_bcast(me == 1 ? 4 : 0, buf, 8);
    } else if (!strcmp(c, "root_negative")) {
        bsp_reduce(me == 1 ? -1 : 0, buf, out, 8, sum);
    } else if (!strcmp(c, "null_buf")) {
        bsp_bcast(0, me == 1 ? NULL : buf, 8);
    } else if (!strcmp(c, "null_root_dst")) {
        bsp_gather(1, buf, me == 1 ? NULL : out, 8);
    } else if (!strcmp(c, "null_fn")) {
        bsp_allreduce(buf, out, 8, me == 1 ? NULL : sum);
    } else if (!strcmp(c, "unknown_alg")) {
        bsp_bcast_with(me == 1 ? (bsp_bcast_alg)9 : BSP_BCAST_AUTO, 0, buf, 8);
    } else if (!strcmp(c, "alltoallv_counts")) { /* 1 sends 8 bytes to 2, which expects 4 */
        if (me == 1)
            sc[2] = 8;
        if (me == 2)
            rc[1] = 4;
        bsp_alltoallv(out, sc, sd, out + 64, rc, sd);
    } else if (!strcmp(c, "alltoallv_null")) {
        bsp_alltoallv(out, sc, sd, out + 64, me == 1 ? NULL : rc, sd);
    } else if (!strcmp(c, "in_part")) { /* parts {0,1} and {2,3}: 3 broadcasts, 2 syncs */
        bsp_partition(2, NULL);
        if (me == 2)
            bsp_sync();
        else
            bsp_bcast(bsp_nprocs() - 1, buf, 8);
        bsp_rejoin();
    } else {
        fprintf(stderr, "bad: unknown case '%s'\n", c);
    }
    bsp_end();
    return 0;
}
