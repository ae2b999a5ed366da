/* cost_repeats — repeats of one run, taken on one machine, predicted for
 * another from their medians: on a loaded machine one process's superstep is
 * now and then slowed (the host's other work, caches emptied), and a model
 * charges each superstep its slowest process, so one slowed record moves a
 * prediction where a median of three would not (docs/models.md, "Repeats").
 *
 * Contract: cost_trace_median(t, reps, n, names, err, errlen) makes each record
 * of trace t the median of its repeats: t and reps[0..n) must be runs of one
 * program shape (the same P and the same number of records for every process;
 * names[0] is t's file name, names[1 + k] reps[k]'s, for messages), each
 * already made a trace for the target (cost_trace_transfer: w is the scaled
 * CPU time). For every record index, the record of the repeat whose w is the
 * median (the lower one of an even count) gives t its w and copy; the other
 * fields are t's own (transfer left no faults, set-up or late start).
 * Returns 0, -1 with one line in err naming the repeat that differs and how,
 * or -2 when memory runs out (cost_eval_run's convention).
 */
#ifndef POLYBSP_COST_REPEATS_H
#define POLYBSP_COST_REPEATS_H

#include "cost/cost_trace.h"

#include <stddef.h>

int cost_trace_median(cost_trace *t, const cost_trace *reps, size_t n, const char *const *names,
                      char *err, size_t errlen);

#endif
