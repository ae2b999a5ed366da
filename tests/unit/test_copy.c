/* test_copy — core_copy (src/core/core_copy.h) copies exactly what memcpy does,
 * inside the 4K-aliasing window and outside, for
 * sizes around its thresholds and its 64-byte blocks, and every alignment of
 * source and destination, and so do the window's blocks themselves (which
 * core_copy takes only on a CPU where they were measured to pay);
 * core_copy_small likewise for n <= 64, and
 * core_copy_stream (streaming stores after a plain head up to a 16-byte
 * boundary) for every case. Bytes around the destination must stay untouched.
 * core_copy_picked: the first copy takes core_copy, the second the stream, then
 * the way that cost less (the stream only when a quarter less), and copy
 * CORE_COPY_PICK_RETRY the other one. core_copy_place: the padding before a
 * payload, and the window's rule, by hand; the window's measurement keeps the
 * answer its rule gives. Prints "test_copy: N cases OK". */
#include "core/core_copy.h"

#include <stdint.h>
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
                for (int way = 0; way < 3; way++) {
                    memset(dst, 0xEE, SPAN + 8192);
                    if (way == 2)
                        core_copy_blocks(d, s, n);
                    else if (way == 1)
                        core_copy_stream(d, s, n);
                    else if (n <= 64 && (a + di) % 2)
                        core_copy_small(d, s, n);
                    else
                        core_copy(d, s, n);
                    if (memcmp(d, s, n) != 0 || d[-1] != 0xEE || d[n] != 0xEE) {
                        static const char *const names[] = {"core_copy", "core_copy_stream",
                                                            "core_copy_blocks"};
                        printf("test_copy: FAILED: %s, n = %zu, source offset %zu, delta %zu\n",
                               names[way], n, a, deltas[di]);
                        return 1;
                    }
                    cases++;
                }
            }
    /* The window's rule, by hand: the blocks only at less than half memcpy's time
     * (the AMD EPYC's 15x cliff: blocks; the Xeon's blocks at 2.4x: memcpy); the
     * measurement keeps its answer, which the next copy in the window reads. */
    if (core_copy_window_rule(1500, 100) != CORE_COPY_WINDOW_BLOCKS ||
        core_copy_window_rule(201, 100) != CORE_COPY_WINDOW_BLOCKS ||
        core_copy_window_rule(200, 100) != CORE_COPY_WINDOW_MEMCPY ||
        core_copy_window_rule(100, 240) != CORE_COPY_WINDOW_MEMCPY) {
        printf("test_copy: FAILED: the window's rule\n");
        return 1;
    }
    uint64_t times[2] = {0, 0};
    int state = core_copy_window_measure(times);
    if (state != core_copy_window_rule(times[0], times[1]) || !times[0] || !times[1] ||
        core_copy_window_state != state) {
        printf("test_copy: FAILED: the window's measurement (state %d, times %llu, %llu)\n", state,
               (unsigned long long)times[0], (unsigned long long)times[1]);
        return 1;
    }
    cases += 5;
    /* The way a copy took is the cost that changed. */
    enum { N = 65536 };
    core_copy_pick pick = {{0, 0}, 0};
    core_copy_picked(&pick, dst, src, N);
    if (!pick.cost[0] || pick.cost[1] || memcmp(dst, src, N) != 0) {
        printf("test_copy: FAILED: the first picked copy should be core_copy\n");
        return 1;
    }
    core_copy_picked(&pick, dst + 8, src, N);
    if (!pick.cost[1] || memcmp(dst + 8, src, N) != 0) {
        printf("test_copy: FAILED: the second picked copy should be streamed\n");
        return 1;
    }
    const uint64_t slow = UINT64_MAX / 8; /* no copy measures that much */
    pick = (core_copy_pick){{slow, 1}, 0};
    for (unsigned k = 1; k < CORE_COPY_PICK_RETRY; k++) {
        memset(dst, 0, N);
        core_copy_picked(&pick, dst, src + k, N);
        if (pick.cost[0] != slow || memcmp(dst, src + k, N) != 0) {
            printf("test_copy: FAILED: copy %u took the slower way or copied wrong\n", k);
            return 1;
        }
    }
    core_copy_picked(&pick, dst, src, N);
    if (pick.cost[0] == slow || memcmp(dst, src, N) != 0) {
        printf("test_copy: FAILED: copy %u should retry the slower way\n", CORE_COPY_PICK_RETRY);
        return 1;
    }
    /* Streaming 20 % cheaper is not enough (the cached way runs), 50 % is. */
    const uint64_t big = (uint64_t)1 << 40;
    pick = (core_copy_pick){{big, big / 5 * 4}, 1};
    core_copy_picked(&pick, dst, src, N);
    if (pick.cost[1] != big / 5 * 4 || pick.cost[0] == big) {
        printf("test_copy: FAILED: streaming 20 %% cheaper should not be picked\n");
        return 1;
    }
    pick = (core_copy_pick){{big, big / 2}, 1};
    core_copy_picked(&pick, dst, src, N);
    if (pick.cost[1] == big / 2 || pick.cost[0] != big) {
        printf("test_copy: FAILED: streaming 50 %% cheaper should be picked\n");
        return 1;
    }
    cases += CORE_COPY_PICK_RETRY + 4;
    /* core_copy_place, by hand (16-byte headers): a payload 0 or 16 bytes above
     * its source (mod 4096) moves to 2048 above it; 3 above (an odd source)
     * skips 16 + 2024 and lands 2043 above; 300 and 3796 above stay. */
    static const struct {
        uintptr_t at, src;
        size_t skip;
    } places[] = {{0x1010, 0x2010, 2048},
                  {0x1020, 0x0010, 2032},
                  {0x1000, 0x0ffd, 2040},
                  {0x1000 + 300, 0x5000, 0},
                  {0x1000 + 3796, 0x5000, 0},
                  {0x1000 + 4090, 0x5000, 16 + ((0x5000 + 2048 - 0x1000 - 4090 - 16) & 4088)}};
    for (size_t k = 0; k < sizeof places / sizeof *places; k++) {
        size_t skip = core_copy_place(places[k].at, places[k].src, 16);
        size_t now = (places[k].at + skip - places[k].src) & 4095;
        if (skip != places[k].skip || (skip && (now < 2041 || now > 2048))) {
            printf("test_copy: FAILED: core_copy_place case %zu skipped %zu (%zu expected)\n", k,
                   skip, places[k].skip);
            return 1;
        }
        cases++;
    }
    printf("test_copy: %ld cases OK\n", cases);
    free(src);
    free(dst);
    return 0;
}
