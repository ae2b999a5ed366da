/* bench_copy.c — the 4K-aliasing cliff (issue 13, item 2): glibc's memcpy, the
 * anchor, against core_copy (src/core/core_copy.h), the copy every put, get,
 * send and collective of the library makes, over the distance between the
 * addresses.
 *
 * Usage: bench_copy [--sweep] [SIZE ...]   (default sizes 6720 107520 430080 1720320)
 * For each size and each relative offset d = (dst - src) mod 4096 (0 to 256 by
 * 8, then 512 to 4088 by larger steps; --sweep: every multiple of 8), the
 * median over 15 rounds, memcpy and core_copy alternating, of the time of one
 * copy, printed as
 *   result copy_<size>_d<d>_memcpy_gbs / _ours_gbs GB/s, and their ratio;
 * then per size the worst offset of each and the worst-case ratio, the
 * figure issue 13 asks about: ours must never fall to memcpy's worst, nor
 * below memcpy where memcpy has no cliff. First it prints what core_copy's
 * measurement of the window chose on this CPU. */
#include "bench_util.h"

#include "core/core_copy.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ROUNDS 15

static double time_copy(int ours, char *dst, const char *src, size_t n)
{
    int reps = n < 100000 ? 64 : 8;
    double t = bench_now();
    for (int r = 0; r < reps; r++) {
        if (ours)
            core_copy(dst, src, n);
        else
            memcpy(dst, src, n);
        __asm__ volatile("" ::"r"(dst) : "memory"); /* keep every copy */
    }
    return (bench_now() - t) / reps;
}

int main(int argc, char **argv)
{
    size_t sizes[16] = {6720, 107520, 430080, 1720320};
    int nsizes = 4, sweep = 0, given = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--sweep") == 0) {
            sweep = 1;
            continue;
        }
        char *end;
        long v = strtol(argv[i], &end, 10);
        if (*end || v < 1 || v > (1L << 28) || given == 16) {
            fprintf(stderr,
                    "usage: bench_copy [--sweep] [SIZE ...]  (1 <= SIZE <= 2^28, at most 16)\n");
            return 2;
        }
        sizes[given++] = (size_t)v;
    }
    if (given)
        nsizes = given;
    printf("# bench_copy: median of %d rounds, memcpy and core_copy alternating\n", ROUNDS);
    uint64_t probe[2];
    int blocks = core_copy_window_measure(probe) == CORE_COPY_WINDOW_BLOCKS;
    printf("# window: core_copy takes %s there (%d bytes at d = 8: memcpy %llu ticks, "
           "blocks %llu)\n",
           blocks ? "64-byte blocks" : "memcpy", CORE_COPY_WINDOW_PROBE,
           (unsigned long long)probe[0], (unsigned long long)probe[1]);
    for (int k = 0; k < nsizes; k++) {
        size_t n = sizes[k];
        char *src = aligned_alloc(4096, n + 8192), *buf = aligned_alloc(4096, n + 8192);
        if (!src || !buf) {
            fprintf(stderr, "bench_copy: out of memory for %zu bytes\n", n);
            return 1;
        }
        memset(src, 1, n + 8192);
        memset(buf, 2, n + 8192);
        double worst[2] = {1e30, 1e30};
        int worst_at[2] = {0, 0};
        for (int d = 0; d < 4096; d += sweep || d < 256 ? 8 : (d < 1024 ? 128 : 512)) {
            double t[2][ROUNDS];
            for (int r = 0; r < ROUNDS; r++)
                for (int ours = 0; ours < 2; ours++)
                    t[ours][r] = time_copy(ours, buf + d, src, n);
            double gbs[2];
            for (int ours = 0; ours < 2; ours++) {
                gbs[ours] = (double)n / bench_median(t[ours], ROUNDS) / 1e9;
                if (gbs[ours] < worst[ours]) {
                    worst[ours] = gbs[ours];
                    worst_at[ours] = d;
                }
            }
            printf("result copy_%zu_d%d_memcpy_gbs %.3g GB/s\n", n, d, gbs[0]);
            printf("result copy_%zu_d%d_ours_gbs %.3g GB/s\n", n, d, gbs[1]);
            printf("ratio  copy_%zu_d%d ours/memcpy %.2f\n", n, d, gbs[1] / gbs[0]);
        }
        printf("worst  copy_%zu memcpy %.3g GB/s at d = %d, core_copy %.3g GB/s at d = %d, "
               "ratio of the worst %.2f\n",
               n, worst[0], worst_at[0], worst[1], worst_at[1], worst[1] / worst[0]);
        free(src);
        free(buf);
    }
    return 0;
}
