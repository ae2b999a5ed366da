/* test_group — the blocks of a partition (grp_part_bounds) with hand-computed
 * answers: sizes P·w/Σw (weights of Σw a power of two, so the shares are
 * exact), the remainders rounded by largest remainder, every part at least one
 * process (taken back from the most over-served parts), and ties to the lowest
 * index. Prints "test_group: OK" or a FAIL line per failed check. */
#include "group/grp.h"

#include "unit.h"

#include <string.h>

enum { MAXPARTS = 8 };

/* Checks first[0..nparts] for P processes against want. */
static void expect_bounds(int P, int nparts, const double *weights, const int *want)
{
    int first[MAXPARTS + 1];
    grp_part_bounds(P, nparts, weights, first);
    CHECKF(memcmp(first, want, ((size_t)nparts + 1) * sizeof *first) == 0,
           "P = %d, %d parts: got first[1] = %d, first[%d] = %d", P, nparts, first[1], nparts - 1,
           first[nparts - 1]);
}

int main(void)
{
    /* One part, and as many parts as processes. */
    expect_bounds(5, 1, NULL, (const int[]){0, 5});
    expect_bounds(4, 4, NULL, (const int[]){0, 1, 2, 3, 4});
    /* Equal parts, 7 / 3 = 2.33 each: the one process left goes to the tie's
     * lowest index. */
    expect_bounds(7, 3, NULL, (const int[]){0, 3, 5, 7});
    /* Exact shares: weights 1, 1, 2 of P = 8 are 2, 2, 4. */
    expect_bounds(8, 3, (const double[]){1, 1, 2}, (const int[]){0, 2, 4, 8});
    /* Largest remainder: of P = 5 the shares are 1.25, 1.25, 2.5; the floors
     * 1, 1, 2 leave one process, for the largest remainder (0.5, part 2). */
    expect_bounds(5, 3, (const double[]){1, 1, 2}, (const int[]){0, 1, 2, 5});
    /* Every part at least one: shares 0.25, 0.25, 3.5 of P = 4 start as
     * 1, 1, 3 (5 > 4); the one over-served part gives one back: 1, 1, 2. */
    expect_bounds(4, 3, (const double[]){1, 1, 14}, (const int[]){0, 1, 2, 4});
    /* Two over-served parts: shares 0.5 × 4, 3, 3 of P = 8 start as
     * 1, 1, 1, 1, 3, 3 (10). Parts 4 and 5 are equally served (share − size =
     * 0): the lower, 4, gives first (2); then 5 is the more over-served (0
     * against 1) and gives the second: 1, 1, 1, 1, 2, 2. */
    expect_bounds(8, 6, (const double[]){1, 1, 1, 1, 6, 6}, (const int[]){0, 1, 2, 3, 4, 6, 8});
    /* Weighted shares 1.5, 4.5 of P = 6: their remainders tie at 0.5, and part
     * 0 takes the process left: 2, 4. */
    expect_bounds(6, 2, (const double[]){1, 3}, (const int[]){0, 2, 6});
    if (failures == 0)
        printf("test_group: OK\n");
    return failures != 0;
}
