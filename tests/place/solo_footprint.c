/* solo_footprint.c — POLYBSP_SOLO=smpi walks POLYBSP_SOLO_FOOTPRINT bytes at
 * each take (thr_solo.h). The walk writes one byte in each 64-byte line, so
 * every page of it becomes resident: process 0 reads the program's resident
 * memory after a superstep and prints "solo_footprint: at least 64 MiB
 * resident" or "solo_footprint: less than 64 MiB resident" (this program's own
 * data is a few pages, the library's some MiB). */
#include <bsp.h>

#include <stdio.h>
#include <string.h>

/* VmRSS of /proc/self/status in KiB; -1 when unknown. */
static long resident_kib(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long kib = -1;
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, "VmRSS:", 6) == 0)
            sscanf(line + 6, "%ld", &kib);
    if (f)
        fclose(f);
    return kib;
}

int main(void)
{
    bsp_begin(bsp_nprocs());
    bsp_sync();
    if (bsp_pid() == 0) {
        long kib = resident_kib();
        if (kib < 0)
            bsp_abort("solo_footprint: no VmRSS in /proc/self/status");
        printf("solo_footprint: %s 64 MiB resident\n", kib >= 64 * 1024 ? "at least" : "less than");
    }
    bsp_end();
    return 0;
}
