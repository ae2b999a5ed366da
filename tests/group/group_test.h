/* group_test.h — helpers shared by the processor-group tests.
 *
 * The assertions are the conformance suite's (CHECK, CHECK_EQ: bsp_abort with
 * the marker "CONFORMANCE FAILURE"). On top: the part bounds the tests expect,
 * written out independently of the library (an equal split gives the first
 * P mod k parts one process more; weighted splits are hand-computed tables), and
 * a sleep that lets one process fall behind the others on purpose.
 */
#ifndef POLYBSP_TESTS_GROUP_TEST_H
#define POLYBSP_TESTS_GROUP_TEST_H

#include "../conf/check.h"

#include <polybsp.h>

#include <time.h>

/* The first pid of part `part` when P processes split into k equal parts. */
static inline int equal_first(int P, int k, int part)
{
    int q = P / k, r = P % k;
    return part * q + (part < r ? part : r);
}

/* The part of pid `pid` in that split. */
static inline int equal_part_of(int P, int k, int pid)
{
    int part = 0;
    while (pid >= equal_first(P, k, part + 1))
        part++;
    return part;
}

/* Part sizes, by largest remainders, worked out by hand for the weights
 * {1, 2} (the 1/3–2/3 split) and {1, 2, 4} at the P the suite runs. Writes k
 * sizes to size and returns 1, or returns 0 for a P not in the table. */
static inline int weighted_sizes(int P, int k, int *size)
{
    static const int one_two[][3] = {{2, 1, 1}, {3, 1, 2}, {4, 1, 3},
                                     {7, 2, 5}, {8, 3, 5}, {16, 5, 11}};
    static const int one_two_four[][4] = {
        {3, 1, 1, 1}, {4, 1, 1, 2}, {7, 1, 2, 4}, {8, 1, 2, 5}, {16, 2, 5, 9}};
    if (k == 2) {
        for (size_t i = 0; i < sizeof one_two / sizeof one_two[0]; i++)
            if (one_two[i][0] == P) {
                size[0] = one_two[i][1];
                size[1] = one_two[i][2];
                return 1;
            }
    } else if (k == 3) {
        for (size_t i = 0; i < sizeof one_two_four / sizeof one_two_four[0]; i++)
            if (one_two_four[i][0] == P) {
                for (int j = 0; j < 3; j++)
                    size[j] = one_two_four[i][j + 1];
                return 1;
            }
    }
    return 0;
}

static inline void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts))
        ;
}

#endif
