/* shared_heap.c — the simulated ranks' shared malloc arena keeps no fast bins
 * (polybsp-smpirun's GLIBC_TUNABLES): every rank runs on the simulator's one
 * thread, so a rank's larger malloc would consolidate what all the others freed
 * into the fast bins and charge it as that rank's computation.
 * Each rank frees CHUNKS small blocks (beyond tcache's 7 a size, which keeps
 * them otherwise); process 0 then prints how many free blocks the fast bins
 * hold (glibc's mallinfo2 smblks): 0 without fast bins, about P x (CHUNKS - 7)
 * with them (GLIBC_TUNABLES=glibc.malloc.mxfast=64 set by the caller).
 */
#include "../conf/check.h"

/* SMPI's header (included first by the build) renames these by macros, which
 * would break glibc's own declarations; without shared malloc configured, its
 * versions call glibc's. */
#undef malloc
#undef calloc
#undef realloc
#undef free
#include <malloc.h>
#include <stdlib.h>

enum { CHUNKS = 100, SIZE = 24 };

int main(void)
{
    bsp_begin(bsp_nprocs());
    void *block[CHUNKS];
    for (int i = 0; i < CHUNKS; i++)
        block[i] = check_alloc(SIZE);
    for (int i = 0; i < CHUNKS; i++)
        free(block[i]);
    bsp_sync();
    if (bsp_pid() == 0)
        printf("shared_heap: the fast bins hold %s\n",
               mallinfo2().smblks == 0 ? "no block" : "blocks");
    bsp_end();
    return 0;
}
