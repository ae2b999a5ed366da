/* sections.c — several SPMD sections in one program, started through bsp_init,
 * with process 0 working alone between them. With N = bsp_nprocs() before the
 * first section, the sections have 1, N, (N+1)/2 and N processes. Process 0 hands
 * each section its number, its size and a running sum by a put, the portable way
 * (on MPI the other processes do not share main's variables); every process
 * checks its count and pid and passes a token round a ring; process 0 adds what
 * the processes contributed and, after the last section, checks the total.
 */
#include "check.h"

enum { NSECTIONS = 4 };

/* Process 0's: what main decides before each section and learns after it. */
static long section_no, section_procs, total;

static void spmd(void)
{
    bsp_begin((int)section_procs);
    int P = bsp_nprocs(), s = bsp_pid();
    long info[3] = {section_no, section_procs, total}, token = -1,
         *contrib = check_alloc((size_t)P * sizeof *contrib);
    bsp_push_reg(info, sizeof info);
    bsp_push_reg(&token, sizeof token);
    bsp_push_reg(contrib, (int)((size_t)P * sizeof *contrib));
    bsp_sync();
    if (s == 0)
        for (int q = 1; q < P; q++)
            bsp_put(q, info, info, 0, sizeof info);
    bsp_sync();
    CHECK_EQ(P, info[1]);
    CHECK(s >= 0 && s < P);
    long mine = 1000 * info[0] + s;
    bsp_put((s + 1) % P, &mine, &token, 0, sizeof mine);
    bsp_sync();
    CHECK_EQ(token, 1000 * info[0] + (s + P - 1) % P);
    /* Each process adds the running sum it was given, so a process that missed
     * the put from process 0 spoils the total. */
    long add = info[2] + s + 1;
    bsp_put(0, &add, contrib, (int)((size_t)s * sizeof add), sizeof add);
    bsp_sync();
    if (s == 0) {
        long sum = 0;
        for (int q = 0; q < P; q++)
            sum += contrib[q];
        total = sum;
    }
    bsp_pop_reg(contrib);
    bsp_pop_reg(&token);
    bsp_pop_reg(info);
    bsp_sync();
    free(contrib);
    bsp_end();
}

int main(int argc, char **argv)
{
    bsp_init(spmd, argc, argv);
    long N = bsp_nprocs(), sizes[NSECTIONS] = {1, N, (N + 1) / 2, N}, expect = 0;
    for (section_no = 0; section_no < NSECTIONS; section_no++) {
        section_procs = sizes[section_no];
        /* The section's sum: every process adds the total so far and its pid + 1. */
        expect = section_procs * expect + section_procs * (section_procs + 1) / 2;
        spmd();
        CHECK_MAIN(total == expect);
    }
    printf("sections: %d sections, total %ld: OK\n", NSECTIONS, total);
    return 0;
}
