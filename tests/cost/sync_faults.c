/* sync_faults — the trace counts the page faults a process takes inside a sync.
 *
 * Process 0 maps PAGES fresh pages, reads each (which maps the kernel's zero
 * page) and registers them; in the next superstep process 1 puts one byte into
 * every page, so process 0 takes a fault per page while the sync lands the puts.
 * After bsp_end the program reads the trace (POLYBSP_TRACE) and checks that
 * process 0's record of that superstep has "faults" of at least PAGES, and that
 * every record of the superstep before (no traffic, nothing new touched) stays
 * below it, and that the put calls' copying time ("copy") is recorded. Prints
 * one line and exits 1 on a failed check. Threads engine: the
 * counts are per thread (RUSAGE_THREAD), which is each BSP process here.
 */
#define _DEFAULT_SOURCE 1 /* MAP_ANONYMOUS */
#include <bsp.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

enum { PAGES = 64 };

/* The integer part of member `key` (with its quotes and colon) in the record
 * of (step, pid): -1 without that record, -2 without the member. */
static long member_of(const char *trace, int step, int pid, const char *key)
{
    FILE *f = fopen(trace, "r");
    char line[4096], want[64];
    long n = -1;
    snprintf(want, sizeof want, "{\"step\":%d,\"pid\":%d,", step, pid);
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, want, strlen(want)) == 0) {
            const char *at = strstr(line, key);
            n = at ? strtol(at + strlen(key), NULL, 10) : -2;
        }
    if (f)
        fclose(f);
    return n;
}

static long faults_of(const char *trace, int step, int pid)
{
    return member_of(trace, step, pid, "\"faults\":");
}

int main(void)
{
    const char *trace = getenv("POLYBSP_TRACE");
    if (!trace) {
        fprintf(stderr, "sync_faults: set POLYBSP_TRACE\n");
        return 2;
    }
    size_t page = (size_t)sysconf(_SC_PAGESIZE), len = PAGES * page;
    bsp_begin(2);
    char *area = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (area == MAP_FAILED)
        bsp_abort("sync_faults: mmap failed");
    /* Reads through a volatile pointer, so that the compiler keeps them. */
    const volatile char *look = area;
    for (size_t i = 0; i < len && bsp_pid() == 0; i += page)
        (void)look[i];
    bsp_push_reg(area, (bsp_size_t)len);
    bsp_sync(); /* superstep 0 */
    bsp_sync(); /* superstep 1: nothing moves */
    char one = 1;
    if (bsp_pid() == 1)
        for (size_t i = 0; i < len; i += page)
            bsp_put(0, &one, area, (bsp_size_t)i, 1);
    bsp_sync(); /* superstep 2: PAGES faults on process 0 */
    int landed = 1;
    for (size_t i = 0; i < len && bsp_pid() == 0; i += page)
        landed &= area[i] == 1;
    bsp_pop_reg(area);
    bsp_sync();
    bsp_end();
    long quiet[2] = {faults_of(trace, 1, 0), faults_of(trace, 1, 1)};
    /* The put calls' copying is timed apart from w (small puts: not at all). */
    long copy = member_of(trace, 2, 1, "\"copy\":");
    long busy = faults_of(trace, 2, 0);
    if (!landed || copy < 0 || busy < PAGES || quiet[0] < 0 || quiet[1] < 0 || quiet[0] >= PAGES ||
        quiet[1] >= PAGES) {
        printf(
            "sync_faults: FAIL: landed %d, superstep 2 of process 0 has %ld faults (want >= %d), "
            "superstep 1 %ld and %ld (want < %d)\n",
            landed, busy, PAGES, quiet[0], quiet[1], PAGES);
        return 1;
    }
    printf("sync_faults: superstep 2 of process 0 took %ld page faults in its sync\n", busy);
    return 0;
}
