/* cost_groups — the models that follow the group structure of a trace: D-BSP
 * (paper 002, with the submachines of paper 003) and the Collective Computing
 * Model (paper 001). docs/models.md has the formulas; in short:
 *
 *   dbsp: a superstep of a group costs W + g_i·h + ℓ_i (W, h the maxima over
 *         the group's members, h = in @ out), i its label: the level of the
 *         smallest cluster of the binary decomposition that holds the group,
 *         which synchronises, and all its traffic (cost_dbsp_label), with
 *         g_i·h read as the busiest cluster's link: its bytes in and out at
 *         the rates its levels' patterns showed (a departure, dbsp_comm);
 *         a partition or rejoin superstep synchronises as the probe's
 *         bsp_partition or bsp_rejoin of its cluster's level did, when the
 *         machine file has them (a departure, cost_dbsp_division); the parts
 *         of a division run in lockstep:
 *         their k-th supersteps form one superstep that costs the most of
 *         them, and the program costs the sum of these.
 *   ccm:  a plain superstep whose relation is one of paper 000's patterns
 *         costs W + T_hrel.PATTERN(P, h) when the machine file has that
 *         function (paper 001's T_f per communication pattern), any other
 *         W + g·h + L (BSP), and every one with COST_CCM_PLAIN_BSP; a collective (its
 *         consecutive supersteps with the same kind and op) costs W + T_f(P, h)
 *         once, W the work before it, h = max_i max(in_i, out_i) over its
 *         supersteps; a division costs W + T_partition(P, h) for the superstep
 *         that ends in bsp_partition, then the slowest part, then
 *         T_rejoin(P, h) with h from the parts' rejoin supersteps; P is the
 *         size of the group the collective or division runs on.
 *
 * CCM keeps a clock per process (D-BSP the lockstep sum): Φ of a record is its process's predicted
 * time when that sync returns, and per_step[s] = M_s − M_{s−1} with M_s the largest Φ up to column
 * s, so the columns add up to the total. A collective of several supersteps shows its whole cost on
 * its last one.
 */
#ifndef POLYBSP_COST_GROUPS_H
#define POLYBSP_COST_GROUPS_H

#include "cost/cost_model.h"
#include "cost/cost_tree.h"

#include <stdint.h>

/* T(P, h) as cost_machine.h defines it (linear by pieces in h), never below 0. */
double cost_ccm_eval(const cost_ccm_fn *f, int P, double h);
/* ceil(log2 P): the rounds of a binomial tree on P processes. */
int cost_rounds(int P);
/* Whether superstep item i of group g continues the collective of item i−1:
 * the same collective kind and op (as its first member's records say;
 * cost_groups_check makes sure the others agree). */
int cost_continues(const cost_trace *t, const cost_group *g, size_t i);
/* The name of record r's CCM cost function: its kind, joined by '.' to the
 * algorithm its caller named ("bcast.twophase"), if any. buf: at least
 * COST_CCM_NAME_MAX bytes. */
const char *cost_ccm_name(const cost_rec *r, char *buf);
/* The machine's T for record r's collective on a group of P processes
 * (cost_machine_ccm: P's own fit first): that of its algorithm (cost_ccm_name)
 * when the machine file has one, else that of its kind (a file probed before
 * the algorithms were calibrated apart), else NULL. */
const cost_ccm_fn *cost_ccm_fn_of(const cost_machine *m, const cost_rec *r, int P);
/* Which of paper 000's five patterns the relation of superstep it of group g
 * is, by who sends to whom (each record's from), whatever the sizes: pairs
 * that swap (EXCHANGE) or send one way (PINGPONG), one member of an odd group
 * left out; one member sending to all others (ONETOALL) or receiving from all
 * (ALLTOONE); every member sending to every other (ALLTOALL). A group of 2 is
 * EXCHANGE or PINGPONG. COST_NO_PATTERN (-1) for any other relation, for
 * none, and for traffic with processes outside g; but with dense not NULL, a
 * relation in which more than half of all ordered pairs communicate is
 * ALLTOALL too, and *dense says whether the relation was such a dense one
 * (rather than every pair). */
int cost_relation_pattern(const cost_trace *t, const cost_group *g, const cost_item *it,
                          int *dense);
/* "hrel." and the pattern's name: the CCM function of a plain superstep of
 * that relation (the probe fits it as it fits the collectives). buf: at least
 * COST_CCM_NAME_MAX bytes. */
const char *cost_hrel_name(cost_pattern p, char *buf);
/* Whether a CCM function's name is a pattern's (cost_hrel_name). */
int cost_is_hrel(const char *name);

/* D-BSP's clusters (paper 002, section 3): the 0-cluster holds all P processes
 * and each i-cluster splits into two (i+1)-clusters, the first with ceil(n/2)
 * of its n processes (as bsp_partition(2, NULL) splits a group), down to
 * clusters of one process at level ceil(log2 P). The level of the smallest
 * cluster holding processes a and b (ceil(log2 P) when a == b). */
int cost_dbsp_pair_level(int P, int a, int b);
/* The label of superstep it of group g: the smallest pair level over its
 * traffic (each record's pid with each pid in its from), ceil(log2 P) for a
 * superstep without traffic; the cluster must also hold the group's members
 * (they synchronise), unless COST_DBSP_TRAFFIC. */
int cost_dbsp_label(const cost_trace *t, const cost_group *g, const cost_item *it, int flags);
/* ceil(P / 2^label): the largest cluster at that level. */
int cost_dbsp_cluster(int P, int label);
/* The machine's level for a label of a P-process trace: the one measured on
 * clusters of the same size, cost_dbsp_cluster(P, label); when the trace's P
 * differs from the machine's and no level has that size, the one with the
 * next larger clusters (a bound: a smaller cluster communicates and
 * synchronises no slower). Clusters of one process (no communication at all)
 * only from a level measured on clusters of one. NULL when there is none. */
const cost_level *cost_dbsp_level(const cost_machine *m, int P, int label);

/* The seconds in place of ℓ that D-BSP charges superstep it of group g for
 * its division (a departure: docs/models.md, "Divisions measured"), g a part
 * of `divided` (NULL at the top): for a partition superstep, the partition
 * time of the level of the smallest cluster holding g; for a part's rejoin
 * superstep, the rejoin time of that of `divided`, the group it rejoins; the
 * level as cost_dbsp_level finds it. 0 for any other superstep and when that
 * level has no partition and rejoin times (cost_level_divides; a machine file
 * written before 2026-11-30): then the superstep synchronises as any other,
 * at its label's ℓ. */
double cost_dbsp_division(const cost_machine *m, const cost_trace *t, const cost_group *g,
                          const cost_item *it, const cost_group *divided);

/* The local work W of one record (flags: COST_USE_OPS, COST_WORK_WHOLE):
 *  - measured, the default: w less the time its put and send calls spent
 *    copying payloads for other processes (the trace's copy): the probe times
 *    whole supersteps, puts included, so g·h already holds that copy, and the
 *    papers' W is the computation alone;
 *  - with COST_WORK_WHOLE, w as measured, copy included;
 *  - with COST_USE_OPS, where the record declares operations, each kind at
 *    the machine's rate for it (W = flops / r + compares / r_compare + words
 *    / r_word; predict refuses a trace that declares a kind the machine file
 *    has no rate for, and a kind never declared counts 0), else measured, as
 *    above; plus the time bsp_trace_begin took making the trace file (setup, which
 *    measured w holds): the tracer's own start delays that process for real,
 *    and the page faults the trace counted during w (w_faults, the first
 *    touch of memory the work made: no operation count holds them) at the
 *    cost predict charges a fault on a fresh page (m->fault[0], 0 with
 *    --faults none).
 * In every case a process's first record adds how much later than the
 * earliest process's its clock started (late): REAL counts from the earliest.
 * Page faults inside the sync are not work: see cost_faults. */
static inline double cost_work(const cost_rec *r, const cost_machine *m, int flags)
{
    if ((flags & COST_USE_OPS) && cost_rec_declares(r)) {
        double w = r->late + r->setup +
                   (r->w_faults > 0 && m->fault[0] > 0 ? (double)r->w_faults * m->fault[0] : 0);
        for (int k = 0; k < CORE_OPS_KINDS; k++)
            if (r->ops[k] > 0 && m->rate[k] > 0)
                w += r->ops[k] / m->rate[k];
        return w;
    }
    return r->late + (flags & COST_WORK_WHOLE ? r->w : r->w - r->copy);
}

/* The seconds of the page faults one record took inside its sync, when predict
 * is asked to charge them (m->fault[0] > 0, --faults), else 0:
 * F_{s,i} = n_{s,i}·t_fresh + (f_{s,i} − n_{s,i})·t_other, with f the faults,
 * n those on pages the trace counted as fresh (at most f; all f when the trace
 * does not count them). Not a term of the papers (docs/models.md, "Page faults
 * in the sync"): the first touch of memory is time that no g or L describes.
 * They are taken where data lands, after the superstep's barrier, and delay
 * that process alone: every model adds F_{s,i} to process i's clock at the
 * superstep's end, so a barrier model's next superstep starts at max_i
 * (F_{s,i} + W_{s+1,i}) after this one's end, and EBSP's Φ_{s,i} holds F_{s,i}.
 * Never max_i (W + F) of one superstep, which under-predicts a superstep
 * whose busiest worker is not its busiest lander, nor max_i W + max_i F, which
 * over-predicts one whose lander is not the next superstep's busiest worker. */
static inline double cost_faults(const cost_rec *r, const cost_machine *m)
{
    if (r->faults <= 0 || !(m->fault[0] > 0))
        return 0;
    long long fresh = r->fresh >= 0 && r->fresh < r->faults ? r->fresh : r->faults;
    return (double)fresh * m->fault[0] + (double)(r->faults - fresh) * m->fault[1];
}

/* in @ out: the machine file says whether a process's incoming and outgoing
 * traffic overlap (max) or queue behind each other (sum). */
static inline double cost_combine(uint64_t in, uint64_t out, int sum)
{
    return sum ? (double)in + (double)out : (double)(in > out ? in : out);
}

/* A record's bytes in and out with each byte moved by bsp_hpput counted k_hp
 * bytes and each byte of a message k_send bytes. */
static inline void cost_hbytes_sides(const cost_rec *r, double k_hp, double k_send, double *in,
                                     double *out)
{
    *in = (double)(r->bytes_in - r->once_in) + k_hp * (double)r->hp_in +
          k_send * (double)(r->once_in - r->hp_in);
    *out = (double)(r->bytes_out - r->once_out) + k_hp * (double)r->hp_out +
           k_send * (double)(r->once_out - r->hp_out);
}

/* A record's h (in @ out, sum or max) of those sides. */
static inline double cost_hbytes_weighed(const cost_rec *r, double k_hp, double k_send, int sum)
{
    double in, out;
    cost_hbytes_sides(r, k_hp, k_send, &in, &out);
    return sum ? in + out : (in > out ? in : out);
}

/* A record's h for g·h (in @ out, sum or max): each byte that bsp_hpput or
 * bsp_send moved counts hp_ratio bytes. Paper 000 fits g apart for bsp_put
 * and bsp_hpput (tables Π.1 and Π.2); the models charge every byte at
 * bsp_put's g, which holds two copies (into the out buffer, out of it) where
 * an hpput makes one, so an hpput byte is g_hpput / g of a put byte (the
 * probe's two overall fits). A message is copied once too: into the out
 * buffer by bsp_send; the sync hands it over in place, and bsp_move's copy
 * or the reads after bsp_hpmove are the receiver's work, in W. A departure
 * from the papers, which have one g per model: without it a program of
 * hpputs or messages was charged twice its copying (docs/models.md, "The
 * quantities"). A collective's own T_f (CCM) takes the bytes as they are, as
 * the probe's samples do; CCM's superstep in one of paper 000's patterns weighs
 * an hpput's bytes by that pattern's own fits (cost_machine_hp_ratio). */
static inline double cost_hbytes(const cost_rec *r, const cost_machine *m, int sum)
{
    double k = cost_machine_hp_ratio(m, COST_NO_PATTERN);
    return cost_hbytes_weighed(r, k, k, sum);
}

/* per_step[s] = M_s − M_{s−1}, M_s the largest phi (one per kept record, as
 * t->recs) up to column s, M_{−1} = base; returns M_last − base. */
double cost_columns(const cost_trace *t, const double *phi, double base, double *per_step);

/* k is COST_DBSP or COST_CCM. */
double cost_groups_predict(cost_model_kind k, const cost_trace *t, const cost_machine *m, int flags,
                           double *per_step);
int cost_groups_check(cost_model_kind k, const cost_trace *t, const cost_machine *m, int flags,
                      const char *trace_name, const char *machine_name, char *err, size_t errlen);

#endif
