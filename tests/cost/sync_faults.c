/* sync_faults — the trace counts the page faults a process takes inside a sync.
 *
 * Process 0 maps PAGES fresh pages, reads each (which maps the kernel's zero
 * page) and registers them; in the next superstep process 1 puts one byte into
 * every page, so process 0 takes a fault per page while the sync lands the puts.
 * After bsp_end the program reads the trace (POLYBSP_TRACE) and checks that
 * process 0's record of that superstep has "faults" of at least PAGES, and that
 * every record of the superstep before (no traffic, nothing new touched) stays
 * below it, and that the put calls' copying time ("copy") is recorded. Those
 * pages were read first, so the record's "fresh" (pages never touched) stays
 * below PAGES; in superstep 3 process 1 puts into a second area of PAGES pages
 * that nobody touched, and "fresh" of process 0 must count all of them; in
 * superstep 4 process 0 gets a byte into every page of a third untouched area
 * (counted when the gets are made), and "fresh" must count those. In the
 * work before superstep 5 process 1 writes PAGES fresh pages of its own: that
 * record's "w_faults" (faults during w) must count them, and those of process
 * 1's supersteps 0 and 1 stay below PAGES (it runs on a thread of its own,
 * whose count must start there, not on the thread that started the tracer). Prints one line and
 * exits 1 on a failed check. Threads engine: the counts are per thread (RUSAGE_THREAD), which is
 * each BSP process here.
 */
#define _DEFAULT_SOURCE 1 /* MAP_ANONYMOUS */
#include <bsp.h>

#include "trace_member.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

enum { PAGES = 64 };

/* The integer part of member `key` of the record of (step, pid): -1 without
 * that record, -2 without the member. */
static long member_of(const char *trace, int step, int pid, const char *key)
{
    return (long)trace_member(trace, step, pid, key);
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
    char *untouched = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (untouched == MAP_FAILED)
        bsp_abort("sync_faults: mmap failed");
    bsp_push_reg(area, (bsp_size_t)len);
    bsp_push_reg(untouched, (bsp_size_t)len);
    bsp_sync(); /* superstep 0 */
    bsp_sync(); /* superstep 1: nothing moves */
    char one = 1;
    if (bsp_pid() == 1)
        for (size_t i = 0; i < len; i += page)
            bsp_put(0, &one, area, (bsp_size_t)i, 1);
    bsp_sync(); /* superstep 2: PAGES faults on process 0 */
    if (bsp_pid() == 1)
        for (size_t i = 0; i < len; i += page)
            bsp_put(0, &one, untouched, (bsp_size_t)i, 1);
    bsp_sync(); /* superstep 3: PAGES fresh pages on process 0 */
    int landed = 1;
    for (size_t i = 0; i < len && bsp_pid() == 0; i += page)
        landed &= area[i] == 1 && untouched[i] == 1;
    char *got = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (got == MAP_FAILED)
        bsp_abort("sync_faults: mmap failed");
    for (size_t i = 0; i < len && bsp_pid() == 0; i += page)
        bsp_get(1, area, (bsp_size_t)i, got + i, 1);
    bsp_sync(); /* superstep 4: process 0's gets write PAGES fresh pages */
    char *worked = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (worked == MAP_FAILED)
        bsp_abort("sync_faults: mmap failed");
    for (size_t i = 0; i < len && bsp_pid() == 1; i += page)
        worked[i] = 1;
    bsp_pop_reg(untouched);
    bsp_pop_reg(area);
    bsp_sync(); /* superstep 5: process 1 took PAGES faults in its work */
    bsp_end();
    long quiet[2] = {faults_of(trace, 1, 0), faults_of(trace, 1, 1)};
    /* The put calls' copying is timed apart from w (small puts: not at all). */
    long copy = member_of(trace, 2, 1, "\"copy\":");
    long busy = faults_of(trace, 2, 0);
    long read_first = member_of(trace, 2, 0, "\"fresh\":");
    long fresh = member_of(trace, 3, 0, "\"fresh\":");
    long got_fresh = member_of(trace, 4, 0, "\"fresh\":");
    long quiet_w[2] = {member_of(trace, 0, 1, "\"w_faults\":"),
                       member_of(trace, 1, 1, "\"w_faults\":")};
    long working = member_of(trace, 5, 1, "\"w_faults\":");
    if (!landed || copy < 0 || busy < PAGES || quiet[0] < 0 || quiet[1] < 0 || quiet[0] >= PAGES ||
        quiet[1] >= PAGES || read_first < 0 || read_first >= PAGES || fresh < PAGES ||
        quiet_w[0] < 0 || quiet_w[1] < 0 || quiet_w[0] >= PAGES || quiet_w[1] >= PAGES ||
        working < PAGES || got_fresh < PAGES) {
        printf("sync_faults: FAIL: landed %d, superstep 2 of process 0 has %ld faults (want >= "
               "%d) and %ld fresh pages (want < %d), superstep 1 %ld and %ld faults (want < %d), "
               "superstep 3 %ld fresh pages (want >= %d), process 1's w_faults %ld and %ld in "
               "supersteps 0 and 1 (want 0 to %d), %ld in superstep 5 (want >= %d), superstep 4 "
               "(gets) %ld fresh pages (want >= %d)\n",
               landed, busy, PAGES, read_first, PAGES, quiet[0], quiet[1], PAGES, fresh, PAGES,
               quiet_w[0], quiet_w[1], PAGES - 1, working, PAGES, got_fresh, PAGES);
        return 1;
    }
    printf("sync_faults: superstep 2 of process 0 took %ld page faults in its sync (%ld on fresh "
           "pages); superstep 3 wrote %ld fresh pages, superstep 4's gets %ld\n",
           busy, read_first, fresh, got_fresh);
    return 0;
}
