/* cost_model — the cost models, as pure functions of (trace, machine).
 *
 * Contract: each model fills per_step[0..nsteps) (if not NULL) with its prediction
 * of each column of the trace (cost_trace.h) in seconds and returns the total. W
 * is the measured work w, or ops / machine rate when flags has COST_USE_OPS and
 * the trace declares ops. h never counts a process's traffic to itself. A column counts the records
 * present in it (a process whose group ran fewer supersteps has none in the last columns). real:
 * per column, M_s − M_{s−1} with M_s = max t_exit up to column s (M_{−1} = 0); total = M_last. When
 * tracing started mid-run (first_step > 0), M_{−1} is min_i (t_enter − w) of the first records
 * instead: the moment the traced part began. bsp:    W_s + g·h_s + L, h_s = max_i (bytes_in @
 * bytes_out), @ = sum or max. bspstar: W_s + g*·(s_s + h_s·B) + L, s_s = max_i bytes (in @ out),
 *           h_s = max_i messages (in @ out).
 *   ebsp:   formula (2) of paper 000: Φ_{s,i} = max_{j∈Ω} (Φ_{s−1,j} + w_{s,j})
 *           + g·max_{j∈Ω}(in_j + out_j) + L, Ω = from ∪ {i} (always the sum,
 *           whatever @); total Ψ = max_i Φ_{R,i};
 *           per_step[s] = max_i Φ_{s,i} − max_i Φ_{s−1,i}.
 *   dbsp, ccm: on the group structure (cost_tree.h); see cost_groups.h.
 * The flat models (bsp, bspstar, ebsp) see column s as one superstep of all
 * processes, whatever their groups. Every model adds each process's page
 * faults in a sync (cost_faults, when charged) to that process's clock alone
 * (cost_groups.h). A model the machine or the trace cannot
 * serve returns NaN (per_step all NaN); cost_model_check says why.
 */
#ifndef POLYBSP_COST_MODEL_H
#define POLYBSP_COST_MODEL_H

#include "cost/cost_machine.h"
#include "cost/cost_trace.h"

typedef enum { COST_REAL, COST_BSP, COST_BSPSTAR, COST_EBSP, COST_DBSP, COST_CCM } cost_model_kind;

/* The flags of cost_predict and cost_model_check, or-ed. */
enum {
    COST_USE_OPS = 1,      /* W from declared ops (see above) */
    COST_DBSP_TRAFFIC = 2, /* D-BSP labels hold the superstep's traffic alone (cost_groups.h) */
    COST_WORK_WHOLE = 4,   /* measured W keeps the put calls' copying (cost_work) */
    COST_CCM_PLAIN_BSP = 8 /* CCM charges every plain superstep BSP's g·h + L,
                            * not its pattern's T (cost_groups.h) */
};

const char *cost_model_name(cost_model_kind k);
double cost_predict(cost_model_kind k, const cost_trace *t, const cost_machine *m, int flags,
                    double *per_step);
/* 0 when model k can predict trace t on machine m; else -1 and one line in err
 * naming the file (trace_name or machine_name), the field and what the model
 * needs, e.g. "m.json: field 'dbsp.levels': no level 2 (needed by --model dbsp
 * for t.jsonl:14, ...)". */
int cost_model_check(cost_model_kind k, const cost_trace *t, const cost_machine *m, int flags,
                     const char *trace_name, const char *machine_name, char *err, size_t errlen);
/* ERROR = 100·(REAL − MODEL)/REAL, as table 14 of paper 000; NaN when REAL is 0. */
double cost_error_percent(double real, double model);

#endif
