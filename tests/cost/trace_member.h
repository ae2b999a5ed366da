/* trace_member.h — one member of one record of a trace file, for the tests
 * whose program reads its own trace after bsp_end. */
#ifndef POLYBSP_TESTS_TRACE_MEMBER_H
#define POLYBSP_TESTS_TRACE_MEMBER_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Member `key` (with its quotes and colon) of the record of (step, pid): -1
 * without that record, -2 without the member. */
static double trace_member(const char *trace, int step, int pid, const char *key)
{
    FILE *f = fopen(trace, "r");
    char line[4096], want[64];
    double x = -1;
    snprintf(want, sizeof want, "{\"step\":%d,\"pid\":%d,", step, pid);
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, want, strlen(want)) == 0) {
            const char *at = strstr(line, key);
            x = at ? strtod(at + strlen(key), NULL) : -2;
        }
    if (f)
        fclose(f);
    return x;
}

#endif
