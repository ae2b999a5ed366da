/* cost_groups — the models that follow the group structure of a trace: D-BSP
 * (paper 002, with the submachines of paper 003) and the Collective Computing
 * Model (paper 001). docs/models.md has the formulas; in short:
 *
 *   dbsp: a superstep of a group at level i costs W + g_i·h + L_i (W, h the
 *         maxima over the group's members, h = in @ out); the parts of a
 *         division run independently and the division ends when its slowest
 *         part does.
 *   ccm:  a plain superstep costs W + g·h + L (BSP); a collective (its
 *         consecutive supersteps with the same kind and op) costs W + T_f(P, h)
 *         once, W the work before it, h = max_i max(in_i, out_i) over its
 *         supersteps; a division costs W + T_partition(P, h) for the superstep
 *         that ends in bsp_partition, then the slowest part, then
 *         T_rejoin(P, h) with h from the parts' rejoin supersteps; P is the
 *         size of the group the collective or division runs on.
 *
 * Both keep a clock per process: Φ of a record is its process's predicted time
 * when that sync returns, and per_step[s] = M_s − M_{s−1} with M_s the largest Φ
 * up to column s, so the columns add up to the total. A collective of several
 * supersteps shows its whole cost on its last one.
 */
#ifndef POLYBSP_COST_GROUPS_H
#define POLYBSP_COST_GROUPS_H

#include "cost/cost_model.h"
#include "cost/cost_tree.h"

#include <stdint.h>

/* T(P, h) = a + b·ceil(log2 P) + c·h. */
double cost_ccm_eval(const cost_ccm_fn *f, int P, double h);
/* ceil(log2 P): the rounds of a binomial tree on P processes. */
int cost_rounds(int P);
/* Whether superstep item i of group g continues the collective of item i−1:
 * the same collective kind and op (as its first member's records say;
 * cost_groups_check makes sure the others agree). */
int cost_continues(const cost_trace *t, const cost_group *g, size_t i);
/* Whether kind is a collective for CCM: not "normal", "oblivious", "partition"
 * or "rejoin". */
int cost_is_collective(const char *kind);

/* The local work of one record: measured seconds, or declared operations at the
 * machine's rate when asked for and available (a record without ops keeps w). */
static inline double cost_work(const cost_rec *r, const cost_machine *m, int use_ops)
{
    return use_ops && r->ops >= 0 && m->rate > 0 ? r->ops / m->rate : r->w;
}

/* in @ out: the machine file says whether a process's incoming and outgoing
 * traffic overlap (max) or queue behind each other (sum). */
static inline double cost_combine(uint64_t in, uint64_t out, int sum)
{
    return sum ? (double)in + (double)out : (double)(in > out ? in : out);
}

/* per_step[s] = M_s − M_{s−1}, M_s the largest phi (one per kept record, as
 * t->recs) up to column s, M_{−1} = base; returns M_last − base. */
double cost_columns(const cost_trace *t, const double *phi, double base, double *per_step);

/* k is COST_DBSP or COST_CCM. */
double cost_groups_predict(cost_model_kind k, const cost_trace *t, const cost_machine *m,
                           int use_ops, double *per_step);
int cost_groups_check(cost_model_kind k, const cost_trace *t, const cost_machine *m,
                      const char *trace_name, const char *machine_name, char *err, size_t errlen);

#endif
