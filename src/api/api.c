/* api — the dialect-independent BSPlib calls and the <polybsp.h> extensions. */
#include "api/api.h"

#include "core/core_error.h"
#include "engine/threads/thr_engine.h"

#include <bsp.h>
#include <polybsp.h>

#include <stdarg.h>

core_proc *api_self_slow(const char *call)
{
    switch (thr_section_state()) {
    case THR_BEFORE: core_fatal(call, "called before bsp_begin");
    case THR_AFTER: core_fatal(call, "called after bsp_end");
    default: core_fatal(call, "called from a thread that is not a BSP process");
    }
}

void bsp_init(void (*spmd)(void), int argc, char **argv) { thr_init(spmd, argc, argv); }

void bsp_end(void)
{
    api_self("bsp_end");
    thr_end();
}

double bsp_time(void)
{
    core_proc *p = api_self("bsp_time");
    return core_now() - p->run->t0;
}

void bsp_sync(void) { core_sync(api_self("bsp_sync")); }

void bsp_abort(const char *format, ...)
{
    core_proc *p = core_self;
    va_list ap;
    va_start(ap, format);
    core_vfatal_as(p ? p->pid : -1, p ? p->step : 0, "bsp_abort", format, ap);
}

const char *bsp_polybsp_version(void) { return POLYBSP_VERSION_STRING; }

const char *bsp_engine_name(void) { return "threads"; }

unsigned long bsp_superstep(void) { return api_self("bsp_superstep")->step; }

void bsp_trace_begin(void) { core_trace_start(api_self("bsp_trace_begin")); }

void bsp_trace_end(void) { core_trace_stop(api_self("bsp_trace_end")); }

void bsp_trace_ops(double ops)
{
    core_proc *p = api_self("bsp_trace_ops");
    if (!(ops >= 0))
        core_fatal("bsp_trace_ops", "operation count %g is not a number >= 0", ops);
    p->tr.ops += ops;
}
