/* core_watch — the timeout, the slots' reading and the report. */
#include "core/core_watch.h"

#include "core/core.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Thread_local core_watch_slot *core_watch_me;

int core_watch_parse(const char *text, double *seconds)
{
    /* The syntax first: strtod would take signs, blanks, exponents, hex, inf. */
    size_t digits = strspn(text, "0123456789"), at = digits;
    if (text[at] == '.') {
        size_t fraction = strspn(text + at + 1, "0123456789");
        digits += fraction;
        at += 1 + fraction;
    }
    if (digits == 0 || text[at] != '\0' || at > 32)
        return -1;
    double s = strtod(text, NULL);
    if (s != 0 && (s < 0.001 || s > 1e6))
        return -1;
    *seconds = s;
    return 0;
}

double core_watch_timeout(void)
{
    const char *env = getenv("POLYBSP_TIMEOUT");
    double s;
    if (!env || !*env)
        return 0;
    if (core_watch_parse(env, &s) != 0)
        core_fatal_as(-1, 0, "POLYBSP_TIMEOUT", "'%s' is not a number of seconds (expected %s)",
                      env, CORE_WATCH_EXPECTED);
    return s;
}

int core_watch_read(const core_watch_slot *s, unsigned long *seq, core_watch_late *out)
{
    unsigned long before, after;
    do {
        before = atomic_load_explicit(&s->seq, memory_order_acquire);
        out->at = atomic_load_explicit(&s->at, memory_order_relaxed);
        out->step = atomic_load_explicit(&s->step, memory_order_relaxed);
        atomic_thread_fence(memory_order_acquire);
        after = atomic_load_explicit(&s->seq, memory_order_relaxed);
    } while (before != after);
    *seq = before;
    if (!(before & 1))
        out->at = CORE_WATCH_COMPUTING;
    return (int)(before & 1);
}

static const char *doing(unsigned at)
{
    switch (at) {
    case CORE_WATCH_COMPUTING: return "computing";
    case CORE_WATCH_SILENT: return "not answering";
    case CORE_WATCH_OBLSYNC: return "in bsp_oblsync";
    case CORE_AT_END: return "in bsp_end";
    case CORE_AT_PARTITION: return "in bsp_partition";
    case CORE_AT_REJOIN: return "in bsp_rejoin";
    default: return "in bsp_sync";
    }
}

/* A long list names the first few: the line must stay one line. */
#define LISTED 8

void core_watch_report(double timeout, const core_watch_late *late, size_t n)
{
    char list[768];
    size_t at = 0;
    for (size_t i = 0; i < n && i < LISTED && at < sizeof list; i++)
        at += (size_t)snprintf(list + at, sizeof list - at, "%s%ld (%s in superstep %lu)",
                               i ? ", " : "", late[i].pid, doing(late[i].at), late[i].step);
    if (n > LISTED && at < sizeof list)
        snprintf(list + at, sizeof list - at, " and %zu more", n - LISTED);
    core_fatal_as(-1, 0, "timeout", "waited %g s for process%s %s", timeout, n == 1 ? "" : "es",
                  list);
}
