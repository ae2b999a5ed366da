/* api — argument checks between the public BSPlib names and the core.
 *
 * Contract: api_self(call) returns the calling process, or stops the run with
 * "called before bsp_begin" / "called after bsp_end" / "called from a thread that
 * is not a BSP process". api_need stops the run with "NAME is NULL"
 * when a pointer the call must read or write through is NULL. The dialect
 * files (api_classic.c, api_mc.c) share one body, api_dialect_body.inc, and differ
 * only in their types and in the sign check. api_enter / api_enter_local and
 * api_leave bracket the calls that do the library's work (eng_work_pause).
 */
#ifndef POLYBSP_API_H
#define POLYBSP_API_H

#include "core/core.h"
#include "engine/engine.h"

core_proc *api_self_slow(const char *call);

/* bsp_nprocs() before bsp_begin: the processes available. A program that asks
 * without POLYBSP_NPROCS set, then ends with a status other than 0 and 2 before
 * bsp_begin (BSPedupack's "Sorry, only 2 processors available") gets one line
 * on stderr naming the ways to offer more (where the C library tells the exit
 * status: glibc's on_exit). */
int api_available(void);

static inline core_proc *api_self(const char *call)
{
    core_proc *p = core_self;
    return p ? p : api_self_slow(call);
}

/* The calls that do the library's work (communicate, buffer, synchronise,
 * read the clock) are bracketed by these, so that a simulated clock charges
 * the program's computation alone (eng_work_pause). */
static inline core_proc *api_enter(const char *call)
{
    core_proc *p = api_self(call);
    eng_work_pause(p, 1);
    return p;
}

/* The same for a call that only buffers (puts, gets, sends, registrations):
 * the computation around it may go on adding up. */
static inline core_proc *api_enter_local(const char *call)
{
    core_proc *p = api_self(call);
    eng_work_pause(p, 0);
    return p;
}

static inline void api_leave(core_proc *p) { eng_work_resume(p); }

static inline void api_need(const void *ptr, const char *call, const char *name)
{
    if (!ptr)
        core_fatal(call, "%s is NULL", name);
}

#endif
