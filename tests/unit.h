/* unit.h — the checks the unit test programs share (tests/probe, tests/cost).
 *
 * CHECK(cond) counts a failure in `failures` and prints
 * "FAIL file:line: cond" on stderr; CHECKF(cond, format, ...) adds a detail
 * after the condition. CHECK_NEAR(actual, expected, tol) counts a failure
 * when |actual − expected| > tol·|expected|, or > tol when expected is 0 (a
 * relative tolerance has no scale there), and prints both values in full;
 * check_near_at is the same check named by `what` (for values in a loop).
 * A program's main returns 1 when failures is not 0.
 * Include it once per program: each program has its own counter. The
 * conformance suites check inside SPMD sections and stop the run instead
 * (tests/conf/check.h).
 */
#ifndef POLYBSP_TESTS_UNIT_H
#define POLYBSP_TESTS_UNIT_H

#include <math.h>
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

static inline void check_near_at(const char *file, int line, const char *what, double actual,
                                 double expected, double tol)
{
    double scale = expected != 0 ? fabs(expected) : 1.0;
    if (!(fabs(actual - expected) <= tol * scale)) {
        failures++;
        fprintf(stderr, "FAIL %s:%d: %s is %.17g, expected %.17g\n", file, line, what, actual,
                expected);
    }
}

#define CHECK_NEAR(actual, expected, tol)                                                          \
    check_near_at(__FILE__, __LINE__, #actual, (actual), (expected), (tol))

#endif
