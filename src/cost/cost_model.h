/* cost_model — the cost models, as pure functions of (trace, machine).
 *
 * Contract: each model fills per_step[0..nsteps) (if not NULL) with its prediction
 * of each superstep in seconds and returns the total. W is the measured work w,
 * or ops / machine rate when use_ops is set and the trace declares ops.
 *   real:   per step, max t_exit(s) − max t_exit(s−1) (t_exit(−1) = 0);
 *           total = max t_exit of the last step. When tracing started mid-run
 *           (first_step > 0), t_exit(−1) is min_i (t_enter − w) of the first
 *           traced step instead: the moment the traced part began.
 *   bsp:    W_s + g·h_s + L, h_s = max_i (bytes_in @ bytes_out), @ = sum or max.
 *   bspstar: W_s + g*·(s_s + h_s·B) + L, s_s = max_i bytes (in @ out),
 *           h_s = max_i messages (in @ out).
 *   ebsp:   formula (2) of paper 000: Φ_{s,i} = max_{j∈Ω} (Φ_{s−1,j} + w_{s,j})
 *           + g·max_{j∈Ω}(in_j @ out_j) + L, Ω = from ∪ {i}; total Ψ = max_i Φ_{R,i};
 *           per_step[s] = max_i Φ_{s,i} − max_i Φ_{s−1,i}.
 * Here s indexes the kept supersteps (0..nsteps−1). A model the machine lacks
 * the parameters for (bspstar without "bspstar", or m NULL) returns NaN.
 */
#ifndef POLYBSP_COST_MODEL_H
#define POLYBSP_COST_MODEL_H

#include "cost/cost_machine.h"
#include "cost/cost_trace.h"

typedef enum { COST_REAL, COST_BSP, COST_BSPSTAR, COST_EBSP } cost_model_kind;

const char *cost_model_name(cost_model_kind k);
double cost_predict(cost_model_kind k, const cost_trace *t, const cost_machine *m, int use_ops,
                    double *per_step);
/* ERROR = 100·(REAL − MODEL)/REAL, as table 14 of paper 000; NaN when REAL is 0. */
double cost_error_percent(double real, double model);

#endif
