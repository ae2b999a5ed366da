/* core_copy — how the library copies its users' data (puts, gets, sends, the
 * collectives' internal copies).
 *
 * Contract: core_copy(dst, src, n) is memcpy (no overlap) that never falls off
 * the 4K-aliasing cliff; core_copy_small(dst, src, n) copies n <= 64 bytes with
 * a few fixed-size moves instead of a call.
 *
 * Why: glibc 2.36's memcpy copies large blocks with `rep movsb`, and on AMD Zen
 * that runs about 15 times slower (3.5 GB/s against 54 for 430080 bytes, and
 * the same at 6720) when (dst - src) mod 4096 is a small positive number (8 is
 * the worst; 16 to 56 lose up to 30 %): each store then seems to overlap the
 * next load. Where the addresses land is the user's and malloc's doing, so a
 * benchmark's speed used to depend on the run. In that window core_copy moves
 * 64-byte blocks with vector loads and stores instead (42 GB/s at 8, never
 * slower than memcpy there), on a CPU where that was measured to pay (below);
 * everywhere else it is memcpy. bench_copy measures both over the offsets.
 *
 * core_copy_stream(dst, src, n) is memcpy for data another core reads next
 * (a put's payload in the out buffer): its stores bypass this core's caches.
 * core_copy_pick(pick, dst, src, n) does whichever of core_copy and
 * core_copy_stream has cost this process less per byte lately.
 * Why: the reader of the last superstep still holds those lines, and a
 * cached store must first take each line back from it. How long that takes
 * is the machine's: on this virtual machine (2 vCPUs of an AMD EPYC) the copy
 * of a 430080-byte put took 10 us for minutes on end, then 47-190 us for
 * minutes (issue 13's bimodal Exchange), depending on where the host ran the
 * two vCPUs; streamed, it takes 18-20 us in both states (the reader then
 * reads from memory: 18 us instead of 11). No fixed choice is right in both,
 * so the choice is measured: each copy of CORE_COPY_STREAM_MIN bytes or more
 * is timed, streaming wins when it cost at least a quarter less (its reader's
 * extra trip to memory is not on the writer's clock: at 1.7 MB the two
 * writes cost the same, and cached is then 1.5 times faster for the pair),
 * and one copy in CORE_COPY_PICK_RETRY tries the other way, so that a change
 * of state is noticed within that many puts. Two processes on one
 * core would only lose by streaming (the reader's cache had the data), so the
 * threads engine measures only when every process has a core of its own
 * (thr_place_streams).  */
#ifndef POLYBSP_CORE_COPY_H
#define POLYBSP_CORE_COPY_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

/* Copies of fewer bytes take glibc's vector path, and copies of more its
 * non-temporal stores (from about 1.1 MB here): neither has the cliff, and the
 * non-temporal path beats the blocks by 15 % at 1.7 MB. */
#define CORE_COPY_CLIFF_MIN 1024
#define CORE_COPY_CLIFF_MAX (1024 * 1024)
/* (dst - src) mod 4096 below this (and above 0) is the slow window. */
#define CORE_COPY_CLIFF_WINDOW 64
/* Up to this size both buffers fit in the 32 KB L1, where memcpy runs at
 * about 100 GB/s at distances 32 to 56 and the blocks at 55-59 only: there the
 * window is the three distances that are slow for memcpy too (8, 16, 24). */
#define CORE_COPY_L1_MAX 16384
#define CORE_COPY_L1_WINDOW 32

/* Put and send payloads of this size or more (where the window starts) are
 * placed in the out buffer (core.c, place_payload) so that (payload - source)
 * mod 4096 is near 2048, unless it is already at least CORE_COPY_PLACE_NEAR
 * from 0. glibc's malloc returns large blocks 16 bytes into a page, as it does
 * the out buffers, so a payload right after its 16-byte record header sat 16
 * bytes above its source mod 4096: the window, for the writer, and 16 below
 * for the reader. A 1 MiB two-phase broadcast at P = 2 took 23-25 us a call
 * there, 17.5 at a distance of 700; with cached stores on a VM whose vCPUs
 * were far apart, 183 against 28; an Exchange of 6720 bytes ran at 13.4 GB/s
 * there, 15.1 placed. The padding costs the out buffer up to 4 KiB a put, and
 * nothing is copied. */
#define CORE_COPY_PLACE_MIN 1024
#define CORE_COPY_PLACE_NEAR 256

/* Where a payload goes whose source is src and which would land at at (8-byte
 * aligned, as records are): 0 when at is at least CORE_COPY_PLACE_NEAR from src
 * mod 4096 either way; else the bytes to skip first (a padding record: its
 * header bytes, then 8-byte steps), which put it 2041 to 2048 bytes above src
 * mod 4096, as far from the window as a reader's destination that shares the
 * source's offset in its page can be. */
static inline size_t core_copy_place(uintptr_t at, uintptr_t src, size_t header)
{
    size_t delta = (at - src) & 4095u;
    if (delta >= CORE_COPY_PLACE_NEAR && delta <= 4096 - CORE_COPY_PLACE_NEAR)
        return 0;
    return header + ((src + 2048 - at - header) & 4095u & ~(size_t)7);
}

/* Streamed copies start here: below, the reader's extra trip to memory costs
 * about what the stores save (break-even 8-16 KB here, bench_exchange). */
#define CORE_COPY_STREAM_MIN 16384
/* One copy in this many takes the way that looked slower (a power of 2). */
#define CORE_COPY_PICK_RETRY 64u

/* The copy in 64-byte blocks, for the window (core_copy.c). */
void core_copy_blocks(void *restrict dst, const void *restrict src, size_t n);

/* Whether this CPU has the cliff is measured, not assumed: it is one CPU's
 * `rep movsb` under one glibc. On the Intel Xeon VM of 2026-11-28 (FSRM)
 * memcpy has none (38 GB/s at d = 8 for 107520 bytes, as at d = 0), while the
 * blocks, going down, ran at 16: taken there, they were the cliff. So the
 * first copy that falls in the window times memcpy and the blocks once, on
 * CORE_COPY_WINDOW_PROBE bytes at d = 8 (best of a few rounds, microseconds),
 * and the process keeps the answer: the blocks only where they cost less than
 * half of memcpy (15 times less on the AMD EPYC, 3 times more on the Xeon). */
#define CORE_COPY_WINDOW_PROBE 8192
enum { CORE_COPY_WINDOW_UNKNOWN, CORE_COPY_WINDOW_BLOCKS, CORE_COPY_WINDOW_MEMCPY };
extern int core_copy_window_state;

/* The rule, given the best times of each (any one unit). */
static inline int core_copy_window_rule(uint64_t memcpy_time, uint64_t blocks_time)
{
    return 2 * blocks_time < memcpy_time ? CORE_COPY_WINDOW_BLOCKS : CORE_COPY_WINDOW_MEMCPY;
}

/* Measures (every call does), keeps and returns the answer; times[0] and
 * times[1] get memcpy's and the blocks' best ticks when times is not NULL. */
int core_copy_window_measure(uint64_t times[2]);

static inline void core_copy(void *restrict dst, const void *restrict src, size_t n)
{
    uintptr_t delta = ((uintptr_t)dst - (uintptr_t)src) & 4095;
    if (n >= CORE_COPY_CLIFF_MIN && n < CORE_COPY_CLIFF_MAX && delta != 0 &&
        delta < (n <= CORE_COPY_L1_MAX ? CORE_COPY_L1_WINDOW : CORE_COPY_CLIFF_WINDOW)) {
        int state = __atomic_load_n(&core_copy_window_state, __ATOMIC_RELAXED);
        if (state == CORE_COPY_WINDOW_UNKNOWN)
            state = core_copy_window_measure(NULL);
        if (state == CORE_COPY_WINDOW_BLOCKS) {
            core_copy_blocks(dst, src, n);
            return;
        }
    }
    memcpy(dst, src, n);
}

/* Non-temporal stores, then a store fence (core_copy.c); memcpy's plain
 * stores where the target has no such stores. */
void core_copy_stream(void *restrict dst, const void *restrict src, size_t n);

/* How a library copies payloads that other cores read (core_run.stream_out). */
typedef enum {
    CORE_STREAM_NEVER,   /* core_copy */
    CORE_STREAM_ALWAYS,  /* core_copy_stream */
    CORE_STREAM_MEASURED /* core_copy_picked: whichever costs less lately */
} core_stream;

/* What one process has measured of its two ways (zero: not yet tried). */
typedef struct core_copy_pick {
    uint64_t cost[2]; /* recent ticks per KiB: [0] core_copy, [1] core_copy_stream */
    uint32_t copies;
} core_copy_pick;

void core_copy_picked(core_copy_pick *pick, void *restrict dst, const void *restrict src, size_t n);

/* A cheap clock for timing copies: the TSC where there is one (a few ns to
 * read), else nanoseconds. Ticks compare within a process; core_trace turns them
 * into seconds against the real clock. */
static inline uint64_t core_ticks(void)
{
#if defined(__x86_64__) || defined(__i386__)
    return __rdtsc();
#else
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
#endif
}

static inline void core_copy_small(void *dst, const void *src, size_t n)
{
    char *d = dst;
    const char *s = src;
    if (n >= 8) {
        size_t i = 0;
        for (; i + 8 <= n; i += 8)
            __builtin_memcpy(d + i, s + i, 8);
        if (i < n)
            __builtin_memcpy(d + n - 8, s + n - 8, 8);
    } else if (n >= 4) {
        __builtin_memcpy(d, s, 4);
        __builtin_memcpy(d + n - 4, s + n - 4, 4);
    } else {
        for (size_t i = 0; i < n; i++)
            d[i] = s[i];
    }
}

#endif /* POLYBSP_CORE_COPY_H */
