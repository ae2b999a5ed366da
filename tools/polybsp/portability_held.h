/* portability_held — `polybsp portability --held-out TRACE`: η̂ and δ̂ of every
 * model on programs that no model rule was chosen on (examples/validation),
 * reported apart from the calibration suite's families (issue 34, item 3).
 *
 * Contract: held_read reads the traces paths[0..n), each a run on the machine
 * that m (the file machine_name) describes; a trace from another host or
 * engine (cost_trace_elsewhere) is refused, since these estimates compare a
 * model with the machine's own times. Traces with the same program name and P
 * are repeats of one program; their numbers of supersteps must agree (one size
 * per program). From each trace: REAL and each model's time, with flags, as
 * predict makes them (portability_eval) on a copy of m: the line of the
 * trace's P (a file without it is refused), faults charged; both without the
 * trace's set-up (the part of w
 * that bsp_trace_begin spent making the file, taken from every record's w and
 * its largest from REAL; a run traced from bsp_begin by POLYBSP_TRACE has
 * none). Repeats are judged as the suite's (portability_keep: preempted and
 * slow ones left out, counted in left_out) and the medians are the program's
 * T' and T. Each program is a family of its own, so est[k] (paper 002's
 * estimates, cost_portability.h) has eta (1) = delta = max q / min q over the
 * programs, q = T' / T. held_print_table and held_print_json write that
 * section of portability's output. Returns 0, or -1 with one line in err.
 */
#ifndef POLYBSP_PORTABILITY_HELD_H
#define POLYBSP_PORTABILITY_HELD_H

#include "portability_models.h"

#include "cost/cost_machine.h"
#include "cost/cost_portability.h"

#include <stddef.h>
#include <stdio.h>

typedef struct held_program {
    char name[256]; /* the file name of the traces' program */
    int procs;
    unsigned long nsteps;
    int runs, kept; /* traces, and those not left out */
    double real, model[PORTABILITY_NMODELS];
} held_program;

typedef struct held_set {
    size_t n;
    held_program *programs;
    size_t runs, left_out;
    char unavailable[PORTABILITY_NMODELS][1024]; /* the first reason, "" when none */
    cost_portability est[PORTABILITY_NMODELS];
} held_set;

int held_read(held_set *h, const char *const *paths, size_t npaths, const cost_machine *m,
              const char *machine_name, int flags, char *err, size_t errlen);
void held_print_table(const held_set *h);
/* `"held_out": {...}` (no separator around it). */
void held_print_json(FILE *f, const held_set *h);
void held_free(held_set *h);

#endif
