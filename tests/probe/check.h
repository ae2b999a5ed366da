/* check.h — the check the unit tests of src/probe share: CHECK(cond) counts a
 * failure in `failures` and prints "FAIL file:line: cond" to stderr; a test's
 * main returns 1 when failures is not 0. One header per test program (each
 * gets its own counter). */
#ifndef POLYBSP_TESTS_PROBE_CHECK_H
#define POLYBSP_TESTS_PROBE_CHECK_H

#include <stdio.h>

static int failures;

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            failures++;                                                                            \
            fprintf(stderr, "FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);                        \
        }                                                                                          \
    } while (0)

#endif
