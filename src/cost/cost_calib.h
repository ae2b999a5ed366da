/* cost_calib — calibrating the CCM cost functions from traced runs.
 *
 * Contract: cost_ccm_samples lists every collective, partition and rejoin of a
 * trace, and every plain superstep whose relation is one of paper 000's
 * patterns (kind "hrel.PATTERN", cost_relation_pattern), exactly as the CCM
 * model charges them (cost_groups.h): the kind, the
 * size P of the group it ran on, its h, and the time it took, measured from the
 * last process entering its first sync to the last leaving its last one (for a
 * rejoin: the rejoin supersteps of all parts). So the probe fits T_f on the
 * same h that predict later feeds it. cost_ccm_fit fits one kind's T(P, h),
 * linear by pieces in h (cost_machine.h), with every coefficient >= 0, so that
 * T is never negative. Pure functions; no I/O.
 */
#ifndef POLYBSP_COST_CALIB_H
#define POLYBSP_COST_CALIB_H

#include "cost/cost_machine.h"
#include "cost/cost_trace.h"

#include <stddef.h>

typedef struct cost_ccm_sample {
    char kind[COST_CCM_NAME_MAX]; /* a collective (cost_ccm_name), "partition", "rejoin" or
                                   * a pattern (cost_hrel_name) */
    int P;                        /* processes of the group it ran on */
    double h;                     /* bytes: max over processes of max(bytes in, bytes out) */
    double time;                  /* seconds */
    size_t line;                  /* the trace line of its first record, for messages */
} cost_ccm_sample;

/* Stores up to cap samples in out (in the order of the group structure) and
 * returns how many the trace has; call with cap 0 to count them. */
size_t cost_ccm_samples(const cost_trace *t, cost_ccm_sample *out, size_t cap);
/* Fits the samples of one kind by non-negative least squares of the relative
 * errors (T − time) / time: a, b, c >= 0 in one piece, and for each measured
 * size h_break with two other sizes below it and two above, a, b, c, c_above
 * >= 0 in two; the break point is the one with the smallest sum of squared relative
 * errors, one piece unless two do better. A coefficient whose column does not
 * vary (b at a single P) is 0. -1 (f untouched) when there is no sample of
 * kind. */
int cost_ccm_fit(const cost_ccm_sample *s, size_t n, const char *kind, cost_ccm_fn *f);

#endif
