/* api — argument checks between the public BSPlib names and the core.
 *
 * Contract: api_self(call) returns the calling process, or stops the run with
 * "called before bsp_begin" / "called after bsp_end" / "called from a thread that
 * is not a BSP process". api_need stops the run with "NAME is NULL"
 * when a pointer the call must read or write through is NULL. The dialect
 * files (api_classic.c, api_mc.c) share one body, api_dialect_body.inc, and differ
 * only in their types and in the sign check.
 */
#ifndef POLYBSP_API_H
#define POLYBSP_API_H

#include "core/core.h"

core_proc *api_self_slow(const char *call);

static inline core_proc *api_self(const char *call)
{
    core_proc *p = core_self;
    return p ? p : api_self_slow(call);
}

static inline void api_need(const void *ptr, const char *call, const char *name)
{
    if (!ptr)
        core_fatal(call, "%s is NULL", name);
}

#endif
