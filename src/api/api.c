/* api — the dialect-independent BSPlib calls and the <polybsp.h> extensions. */
#define _DEFAULT_SOURCE 1 /* on_exit (glibc) */
#include "api/api.h"

#include "core/core_error.h"
#include "engine/engine.h"
#include "group/grp.h"

#include <bsp.h>
#include <polybsp.h>

#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static atomic_int api_offered; /* what bsp_nprocs() last gave before bsp_begin */

#ifdef __GLIBC__
/* The program asked how many processes it may have, was offered the default
 * (POLYBSP_NPROCS unset: a user who set it knows the way), then failed
 * without ever starting: most likely it wanted more than it was offered, and
 * its own message cannot say how to get them. Not after status 2, bad usage
 * by convention, which the program has explained. Once per job, not per MPI
 * rank. */
static void hint_more_procs(int status, void *unused)
{
    (void)unused;
    int n = atomic_load(&api_offered);
    const char *chosen = getenv("POLYBSP_NPROCS");
    if (status != 0 && status != 2 && eng_section_state() == ENG_BEFORE && eng_rank() == 0 &&
        (chosen == NULL || *chosen == '\0'))
        fprintf(stderr,
                "polybsp: note: bsp_nprocs() offered %d process%s and the program stopped before "
                "bsp_begin; for more, run it with bsprun -n P or set POLYBSP_NPROCS=P\n",
                n, n == 1 ? "" : "es");
}
#endif

int api_available(void)
{
    int n = eng_available();
#ifdef __GLIBC__
    if (atomic_exchange(&api_offered, n) == 0)
        on_exit(hint_more_procs, NULL);
#else
    atomic_store(&api_offered, n);
#endif
    return n;
}

core_proc *api_self_slow(const char *call)
{
    switch (eng_section_state()) {
    case ENG_BEFORE: core_fatal(call, "called before bsp_begin");
    case ENG_AFTER: core_fatal(call, "called after bsp_end");
    default: core_fatal(call, "called from a thread that is not a BSP process");
    }
}

void bsp_init(void (*spmd)(void), int argc, char **argv) { eng_init(spmd, argc, argv); }

void bsp_end(void)
{
    if (api_enter("bsp_end")->ctx->parent)
        core_fatal("bsp_end", "called inside a partition (call bsp_rejoin first)");
    eng_end();
}

double bsp_time(void)
{
    core_proc *p = api_enter("bsp_time");
    double t = core_now() - p->run->t0;
    api_leave(p);
    return t;
}

void bsp_sync(void)
{
    core_proc *p = api_enter("bsp_sync");
    core_sync(p);
    api_leave(p);
}

/* The error line stays one line: trailing line ends are dropped, and any other
 * control character but tab is written as an escape (\n, \r, \xHH). */
void bsp_abort(const char *format, ...)
{
    core_proc *p = core_self;
    char text[1024], line[1024];
    va_list ap;
    va_start(ap, format);
    vsnprintf(text, sizeof text, format ? format : "(no message)", ap);
    va_end(ap);
    size_t len = strlen(text), at = 0;
    while (len && (text[len - 1] == '\n' || text[len - 1] == '\r'))
        len--;
    for (size_t i = 0; i < len && at + 5 < sizeof line; i++) {
        unsigned char ch = (unsigned char)text[i];
        if (ch == '\n' || ch == '\r')
            at += (size_t)snprintf(line + at, sizeof line - at, "\\%c", ch == '\n' ? 'n' : 'r');
        else if ((ch < 0x20 && ch != '\t') || ch == 0x7f)
            at += (size_t)snprintf(line + at, sizeof line - at, "\\x%02x", ch);
        else
            line[at++] = (char)ch;
    }
    line[at] = '\0';
    core_fatal_as(p ? p->pid : -1, p ? p->step : 0, "bsp_abort", "%s", line);
}

const char *bsp_polybsp_version(void) { return POLYBSP_VERSION_STRING; }

const char *bsp_engine_name(void) { return eng_name(); }

unsigned long bsp_superstep(void) { return api_self("bsp_superstep")->step; }

/* Under POLYBSP_TRACE every superstep is recorded from bsp_begin, as documented:
 * a program's own begin/end would cut a gap into the trace that the reader
 * cannot walk over. */
void bsp_trace_begin(void)
{
    core_proc *p = api_enter("bsp_trace_begin");
    if (!p->run->trace_all)
        core_trace_start(p);
    api_leave(p);
}

void bsp_trace_end(void)
{
    core_proc *p = api_enter("bsp_trace_end");
    if (!p->run->trace_all)
        core_trace_stop(p);
    api_leave(p);
}

_Static_assert(POLYBSP_OPS_WORD + 1 == CORE_OPS_KINDS, "a kind of operations without its key");

static void declare_ops(const char *call, int kind, double ops)
{
    core_proc *p = api_self(call);
    if (!(ops >= 0))
        core_fatal(call, "operation count %g is not a number >= 0", ops);
    /* A declared 0 (a superstep of pure communication) is written as such:
     * `predict --work ops` then charges no work, not the measured w. */
    p->tr.ops[kind] = (p->tr.ops[kind] > 0 ? p->tr.ops[kind] : 0) + ops;
}

void bsp_trace_ops(double ops) { declare_ops("bsp_trace_ops", POLYBSP_OPS_FLOP, ops); }

void bsp_trace_ops_of(polybsp_ops_kind kind, double ops)
{
    if ((unsigned)kind >= CORE_OPS_KINDS)
        core_fatal("bsp_trace_ops_of",
                   "unknown kind %d (expected POLYBSP_OPS_FLOP, POLYBSP_OPS_COMPARE or "
                   "POLYBSP_OPS_WORD)",
                   (int)kind);
    declare_ops("bsp_trace_ops_of", (int)kind, ops);
}

int bsp_partition(int nparts, const double *weights)
{
    core_proc *p = api_enter("bsp_partition");
    int part = grp_partition(p, nparts, weights);
    api_leave(p);
    return part;
}

void bsp_rejoin(void)
{
    core_proc *p = api_enter("bsp_rejoin");
    grp_rejoin(p);
    api_leave(p);
}

int bsp_partners(int part, int *pids, int max)
{
    if (max < 0)
        core_fatal("bsp_partners", "negative size %d", max);
    return grp_partners(api_self("bsp_partners"), part, pids, max);
}

int bsp_part(void)
{
    const core_ctx *c = api_self("bsp_part")->ctx;
    return c->parent ? c->part : -1;
}

int bsp_level(void) { return api_self("bsp_level")->ctx->group->depth; }

void bsp_par(int nparts, const double *weights, void (*task)(int part, void *result, void *arg),
             void *arg, void *results, size_t result_bytes)
{
    core_proc *p = api_enter("bsp_par");
    if (!task)
        core_fatal("bsp_par", "no task function");
    grp_par(p, nparts, weights, task, arg, results, result_bytes);
    api_leave(p);
}

void bsp_oblsync(size_t nmessages)
{
    core_proc *p = api_enter("bsp_oblsync");
    core_oblsync(p, nmessages);
    api_leave(p);
}
