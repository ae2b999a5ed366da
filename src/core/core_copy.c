/* core_copy — the copy that avoids the 4K-aliasing window (core_copy.h). */
#include "core/core_copy.h"

#include <stdlib.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

void core_copy_blocks(void *restrict dst, const void *restrict src, size_t n)
{
    char *d = dst;
    const char *s = src;
    /* Fixed-size moves the compiler turns into vector loads and stores (no
     * `rep movsb`, which is what the window slows down), from the end down:
     * with dst a little above src (mod 4096), a forward loop's next loads
     * fall just above its last stores and wait for them (the false
     * dependence); going down, every load is below the stores in flight. */
    size_t i = n;
    while (i >= 64) {
        i -= 64;
        __builtin_memcpy(d + i, s + i, 64);
    }
    memcpy(d, s, i);
}

int core_copy_window_state = CORE_COPY_WINDOW_UNKNOWN;

int core_copy_window_measure(uint64_t times[2])
{
    /* Source page-aligned, destination 8 bytes above it mod 4096: the worst
     * distance of the cliff. If there is no memory to measure with, the blocks
     * are the safe side (never worse than 3 times memcpy; the cliff is 15). */
    /* Up to a page to align src, then src's bytes, a page and 8, dst's bytes. */
    char *buf = malloc(2 * CORE_COPY_WINDOW_PROBE + 3 * 4096);
    if (!buf) {
        __atomic_store_n(&core_copy_window_state, CORE_COPY_WINDOW_BLOCKS, __ATOMIC_RELAXED);
        return CORE_COPY_WINDOW_BLOCKS;
    }
    char *src = (char *)(((uintptr_t)buf + 4095) & ~(uintptr_t)4095);
    char *dst = src + CORE_COPY_WINDOW_PROBE + 4096 + 8;
    memset(src, 1, CORE_COPY_WINDOW_PROBE);
    uint64_t best[2] = {UINT64_MAX, UINT64_MAX};
    for (int round = 0; round < 6; round++) /* the first round warms both up */
        for (int way = 0; way < 2; way++) {
            uint64_t t0 = core_ticks();
            for (int k = 0; k < 4; k++) { /* 4 copies: the clock's cost is small beside them */
                if (way)
                    core_copy_blocks(dst, src, CORE_COPY_WINDOW_PROBE);
                else
                    memcpy(dst, src, CORE_COPY_WINDOW_PROBE);
                __asm__ volatile("" ::"r"(dst) : "memory"); /* the copy is not dead */
            }
            uint64_t t = core_ticks() - t0;
            if (round && t < best[way])
                best[way] = t;
        }
    free(buf);
    int state = core_copy_window_rule(best[0], best[1]);
    __atomic_store_n(&core_copy_window_state, state, __ATOMIC_RELAXED);
    if (times)
        times[0] = best[0], times[1] = best[1];
    return state;
}

void core_copy_stream(void *restrict dst, const void *restrict src, size_t n)
{
#if defined(__SSE2__)
    char *d = dst;
    const char *s = src;
    /* Streaming stores need 16-byte aligned targets: the first bytes up to
     * the boundary go the plain way. */
    size_t head = (size_t)(-(uintptr_t)d & 15u);
    if (head > n)
        head = n;
    memcpy(d, s, head);
    d += head, s += head, n -= head;
    for (; n >= 64; n -= 64, d += 64, s += 64) {
        __m128i a = _mm_loadu_si128((const __m128i *)s);
        __m128i b = _mm_loadu_si128((const __m128i *)(s + 16));
        __m128i c = _mm_loadu_si128((const __m128i *)(s + 32));
        __m128i e = _mm_loadu_si128((const __m128i *)(s + 48));
        _mm_stream_si128((__m128i *)d, a);
        _mm_stream_si128((__m128i *)(d + 16), b);
        _mm_stream_si128((__m128i *)(d + 32), c);
        _mm_stream_si128((__m128i *)(d + 48), e);
    }
    memcpy(d, s, n);
    /* Streaming stores are not ordered by the release that later tells the
     * reader the data is there: the fence makes them visible first. */
    _mm_sfence();
#else
    core_copy(dst, src, n);
#endif
}

void core_copy_picked(core_copy_pick *pick, void *restrict dst, const void *restrict src, size_t n)
{
    unsigned way;
    if (!pick->cost[0] || !pick->cost[1]) /* try each once first */
        way = pick->cost[0] != 0;
    else /* streaming must save a quarter: its reader's trip to memory is not on this clock */
        way = (pick->cost[1] * 4 < pick->cost[0] * 3) ^
              ((++pick->copies & (CORE_COPY_PICK_RETRY - 1)) == 0);
    uint64_t t0 = core_ticks();
    if (way)
        core_copy_stream(dst, src, n);
    else
        core_copy(dst, src, n);
    uint64_t per_kib = ((core_ticks() - t0) << 10) / n + 1, was = pick->cost[way];
    /* Recent copies weigh most; one preempted copy counts as at most twice the
     * average (a quarter more), so a busy machine's interruptions do not flip
     * the choice for the CORE_COPY_PICK_RETRY copies until the next retry,
     * while a real change (5 to 9 times here) wins within about ten. */
    if (was && per_kib > 2 * was)
        per_kib = 2 * was;
    pick->cost[way] = was ? (3 * was + per_kib) / 4 : per_kib;
}
