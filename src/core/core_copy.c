/* core_copy — the copy that avoids the 4K-aliasing window (core_copy.h). */
#include "core/core_copy.h"

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
