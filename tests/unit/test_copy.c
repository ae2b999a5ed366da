/* test_copy — core_copy (src/core/core_copy.h) copies exactly what memcpy does,
 * inside the 4K-aliasing window (where it takes its own path) and outside, for
 * sizes around its thresholds and its 64-byte blocks, and every alignment of
 * source and destination; core_copy_small likewise for n <= 64. Bytes around
 * the destination must stay untouched. Prints "test_copy: N cases OK". */
#include "core/core_copy.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned char pattern(size_t i) { return (unsigned char)(i * 131 + 7); }

int main(void)
{
    enum { SPAN = 3 * 4096 + (1 << 20) + 4096 };
    unsigned char *src = aligned_alloc(4096, SPAN), *dst = aligned_alloc(4096, SPAN + 8192);
    if (!src || !dst)
        return 1;
    for (size_t i = 0; i < SPAN; i++)
        src[i] = pattern(i);
    static const size_t sizes[] = {0,    1,    7,     63,    64,         65,
                                   1023, 1024, 1025,  1087,  4095,       4096,
                                   4097, 6720, 16384, 16385, 65536 + 13, (1 << 20) + 24};
    static const size_t deltas[] = {0, 1, 8, 16, 24, 31, 32, 40, 56, 63, 64, 65, 2048, 4088, 4095};
    long cases = 0;
    for (size_t a = 0; a < 9; a++) /* source misalignment */
        for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++)
            for (size_t di = 0; di < sizeof deltas / sizeof *deltas; di++) {
                size_t n = sizes[si];
                /* dst - src ≡ deltas[di] (mod 4096), with a guard byte each side. */
                unsigned char *s = src + a;
                size_t at = ((size_t)(s - src) + deltas[di]) % 4096 + 4096;
                unsigned char *d = dst + at;
                memset(dst, 0xEE, SPAN + 8192);
                if (n <= 64 && (a + di) % 2)
                    core_copy_small(d, s, n);
                else
                    core_copy(d, s, n);
                if (memcmp(d, s, n) != 0 || d[-1] != 0xEE || d[n] != 0xEE) {
                    printf("test_copy: FAILED: n = %zu, source offset %zu, delta %zu\n", n, a,
                           deltas[di]);
                    return 1;
                }
                cases++;
            }
    printf("test_copy: %ld cases OK\n", cases);
    free(src);
    free(dst);
    return 0;
}
