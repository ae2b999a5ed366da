/* unit.h — the checks the unit test programs share (tests/probe, tests/cost).
 *
 * CHECK(cond) counts a failure in `failures` and prints
 * "FAIL file:line: cond" on stderr; CHECKF(cond, format, ...) adds a detail
 * after the condition. A program's main returns 1 when failures is not 0.
 * Include it once per program: each program has its own counter. The
 * conformance suites check inside SPMD sections and stop the run instead
 * (tests/conf/check.h).
 */
#ifndef POLYBSP_TESTS_UNIT_H
#define POLYBSP_TESTS_UNIT_H

#include <stdio.h>

static int failures;

#define CHECKF(cond, ...)                                                                          \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            failures++;                                                                            \
            fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);                        \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fputc('\n', stderr);                                                                   \
        }                                                                                          \
    } while (0)

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            failures++;                                                                            \
            fprintf(stderr, "FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);                        \
        }                                                                                          \
    } while (0)

#endif
