/* coll_test.h — helpers shared by the collective tests.
 *
 * The assertions are the conformance suite's (CHECK, CHECK_EQ: bsp_abort with
 * the marker "CONFORMANCE FAILURE"). On top: a deterministic byte pattern every
 * process can recompute for any (source, index, salt), and a check of a byte
 * range against it that names the first wrong byte.
 */
#ifndef POLYBSP_TESTS_COLL_TEST_H
#define POLYBSP_TESTS_COLL_TEST_H

#include "../conf/check.h"

#include <polybsp.h>
#include <polybsp_coll.h>

#include <stdint.h>
#include <string.h>

/* Garbage that the collectives must overwrite (or, in guards, leave alone). */
#define COLL_JUNK 0xEE

static inline unsigned char coll_byte(long src, size_t i, long salt)
{
    uint64_t x = (uint64_t)src * 0x9E3779B97F4A7C15u ^ (uint64_t)i * 0xBF58476D1CE4E5B9u ^
                 (uint64_t)salt * 0x94D049BB133111EBu;
    x ^= x >> 29;
    return (unsigned char)(x * 0x2545F4914F6CDD1Du >> 56);
}

static inline void coll_fill(void *buf, size_t n, long src, size_t first, long salt)
{
    unsigned char *b = buf;
    for (size_t i = 0; i < n; i++)
        b[i] = coll_byte(src, first + i, salt);
}

/* buf[0, n) must hold the pattern of src from index first. */
#define COLL_CHECK_PATTERN(buf, n, src, first, salt, what)                                         \
    do {                                                                                           \
        const unsigned char *cb_ = (const unsigned char *)(buf);                                   \
        for (size_t ci_ = 0; ci_ < (size_t)(n); ci_++)                                             \
            if (cb_[ci_] != coll_byte((src), (first) + ci_, (salt)))                               \
                bsp_abort("CONFORMANCE FAILURE %s:%d: %s: byte %zu of %zu is %u, expected %u",     \
                          __FILE__, __LINE__, (what), ci_, (size_t)(n), cb_[ci_],                  \
                          coll_byte((src), (first) + ci_, (salt)));                                \
    } while (0)

/* buf[0, n) must be all `value` (guards and untouched areas). */
#define COLL_CHECK_BYTES(buf, n, value, what)                                                      \
    do {                                                                                           \
        const unsigned char *cb_ = (const unsigned char *)(buf);                                   \
        for (size_t ci_ = 0; ci_ < (size_t)(n); ci_++)                                             \
            if (cb_[ci_] != (unsigned char)(value))                                                \
                bsp_abort("CONFORMANCE FAILURE %s:%d: %s: byte %zu of %zu is %u, expected %u",     \
                          __FILE__, __LINE__, (what), ci_, (size_t)(n), cb_[ci_],                  \
                          (unsigned)(unsigned char)(value));                                       \
    } while (0)

#endif
