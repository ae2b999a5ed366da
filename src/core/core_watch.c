/* core_watch — the timeout, the slots' reading and the report. */
#include "core/core_watch.h"

#include "core/core.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

_Thread_local core_watch_slot *core_watch_me;

double core_watch_timeout(void)
{
    const char *env = getenv("POLYBSP_TIMEOUT");
    if (!env || !*env)
        return 0;
    char *end;
    errno = 0;
    double s = strtod(env, &end);
    if (errno || *end || !isfinite(s) || s < 0)
        core_fatal_as(-1, 0, "POLYBSP_TIMEOUT", "'%s' is not a number of seconds >= 0", env);
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
