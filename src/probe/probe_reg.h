/* probe_reg — what a sync that puts registrations into effect costs beyond an
 * empty one, at one P.
 *
 * Contract: probe_reg_measure(P, reps) runs one section of P processes
 * (probe_section) in which every process times, on its own clock, reps empty
 * supersteps and reps supersteps that each push (and the next pops) one
 * 8-byte area, in three rounds that alternate the two kinds; it returns
 * process 0's median registration superstep less its median empty one, at
 * least 0 (seconds). What the models charge to a sync whose trace record has
 * `regs` (docs/models.md, "Registration supersteps"). probe_reg_body is the
 * section's body, for probe_measure.c's table of bodies.
 */
#ifndef POLYBSP_PROBE_REG_H
#define POLYBSP_PROBE_REG_H

void probe_reg_body(void *arg);
double probe_reg_measure(int nprocs, int reps);

#endif
