/* check.h — assertions for the SPMD conformance programs.
 *
 * A failed check stops the whole run through bsp_abort with the file, line,
 * expression and values (bsp_abort adds the process and superstep), so the run
 * exits non-zero. Every message also carries the marker "CONFORMANCE FAILURE",
 * which ctest treats as a failure by itself: a check must be able to fail even
 * if bsp_abort were to exit with status 0.
 * Outside the SPMD section (before bsp_begin, after bsp_end) use CHECK_MAIN.
 */
#ifndef POLYBSP_TESTS_CHECK_H
#define POLYBSP_TESTS_CHECK_H

#include <bsp.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK(cond)                                                                                \
    ((cond) ? (void)0 : bsp_abort("CONFORMANCE FAILURE %s:%d: %s", __FILE__, __LINE__, #cond))

/* Both sides are converted to long long, which holds every int and size this suite uses. */
#define CHECK_EQ(actual, expected)                                                                 \
    do {                                                                                           \
        long long check_a_ = (long long)(actual), check_e_ = (long long)(expected);                \
        if (check_a_ != check_e_)                                                                  \
            bsp_abort("CONFORMANCE FAILURE %s:%d: %s is %lld, expected %lld (%s)", __FILE__,       \
                      __LINE__, #actual, check_a_, check_e_, #expected);                           \
    } while (0)

#define CHECK_MAIN(cond)                                                                           \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "CONFORMANCE FAILURE %s:%d: %s\n", __FILE__, __LINE__, #cond);         \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

/* malloc that never returns NULL, so the tests need no error paths of their own. */
static inline void *check_alloc(size_t nbytes)
{
    void *p = malloc(nbytes ? nbytes : 1);
    if (!p) {
        fprintf(stderr, "CONFORMANCE FAILURE: out of memory (%zu bytes)\n", nbytes);
        exit(1);
    }
    return p;
}

#endif
