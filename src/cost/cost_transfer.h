/* cost_transfer — a trace taken on one machine, made a trace of the same
 * program on another: the "predict elsewhere" of docs/models.md.
 *
 * The papers' models are W + (communication) per superstep; W is the one term
 * that a machine file does not give, so to predict a machine a program has
 * not run on, the work measured where it ran is scaled by the ratio of the
 * two machines' rates (the papers' r: paper 000 writes W in flops over r).
 *
 * Contract: cost_trace_elsewhere says whether trace t comes from another
 * machine than the machine file m describes: another host (the platform under
 * smpi), another engine, or on the threads engine another number of cores
 * (when both say it: host names repeat between virtual machines); 0 for a
 * trace that does not name its machine (a
 * writer before 2026-11-28: it can only be explained where it ran).
 * cost_trace_transfer rewrites every record of t for machine m: w = cpu ·
 * source / target, the two figures of scale s (below), the copy time scaled
 * alike, and nothing of the source machine
 * left in it (no set-up of the trace, no late start, no page faults: they
 * belong to the machine and load of the run, and the target's models charge
 * their own g and L; instead every process's first record starts late by the
 * target's start of t's P, m's by_procs start, when m has it: the engine's
 * cost of starting P processes, which the target's REAL holds and no model
 * term does). Returns 0, or -1 with one line in err naming what is
 * missing and how to get it (a trace without the figure or cpu, a target
 * without its figure). t's rate and clock become m's.
 *
 * What the work is scaled by (cost_scale): the two machines' DAXPY rates (the
 * papers' r, the default) or their clocks (core_rate.h: a chain of dependent
 * multiply-adds, whose reading has no modes where the DAXPY's has two;
 * docs/models.md). cost_scale_source and cost_scale_target give the two
 * figures (0 where the trace or machine file lacks it).
 */
#ifndef POLYBSP_COST_TRANSFER_H
#define POLYBSP_COST_TRANSFER_H

#include "cost/cost_machine.h"
#include "cost/cost_trace.h"

typedef enum { COST_SCALE_RATE, COST_SCALE_CLOCK, COST_NSCALES } cost_scale;
extern const char *const cost_scale_names[COST_NSCALES]; /* "rate", "clock" */

int cost_trace_elsewhere(const cost_trace *t, const cost_machine *m);
/* m's rate as a trace there would record it (trace_rate), else its probe's. */
double cost_machine_trace_rate(const cost_machine *m);
double cost_scale_source(const cost_trace *t, cost_scale s);
double cost_scale_target(const cost_machine *m, cost_scale s);
/* m's start of P processes (by_procs start), 0 when m has none for P. */
double cost_machine_start(const cost_machine *m, int P);
int cost_trace_transfer(cost_trace *t, const char *trace_name, const cost_machine *m,
                        const char *machine_name, cost_scale s, char *err, size_t errlen);

#endif
