/* api_machine — calibrated machine parameters at run time (bsp_g and friends).
 *
 * The machine file named by POLYBSP_MACHINE is read once, on the first call from
 * any process; a missing variable or a bad file stops the run with one line, and
 * so does bsp_r when the file has no rate (it is optional in the format).
 */
#include "api/api.h"

#include "core/core_error.h"
#include "cost/cost_machine.h"

#include <polybsp.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static cost_machine machine;
static char machine_error[512];
static pthread_once_t machine_once = PTHREAD_ONCE_INIT;

static void read_machine(void)
{
    const char *path = getenv("POLYBSP_MACHINE");
    if (!path || !*path)
        snprintf(machine_error, sizeof machine_error,
                 "POLYBSP_MACHINE is not set (make a machine file with `polybsp probe`)");
    else
        cost_machine_read(path, &machine, machine_error, sizeof machine_error);
}

static const cost_machine *api_machine(const char *call)
{
    pthread_once(&machine_once, read_machine);
    if (machine_error[0])
        core_fatal(call, "%s", machine_error);
    return &machine;
}

/* The machine's BSP line for the running P: its own (by_procs) when the file
 * has one, else the overall one, as `polybsp predict` chooses. */
static const cost_procs_fit *line_of_run(const cost_machine *m)
{
    return cost_machine_procs_fit(m, (int)bsp_nprocs());
}

double bsp_g(void)
{
    const cost_machine *m = api_machine("bsp_g");
    const cost_procs_fit *f = line_of_run(m);
    return f ? f->g : m->g;
}

double bsp_L(void)
{
    const cost_machine *m = api_machine("bsp_L");
    const cost_procs_fit *f = line_of_run(m);
    return f ? f->L : m->L;
}

double bsp_gstar(void) { return api_machine("bsp_gstar")->gstar; }

double bsp_B(void) { return api_machine("bsp_B")->B; }

double bsp_r(void)
{
    const cost_machine *m = api_machine("bsp_r");
    if (!(m->rate[0] > 0))
        core_fatal("bsp_r", "%s: field 'rate.ops_per_second': missing", getenv("POLYBSP_MACHINE"));
    return m->rate[0];
}
