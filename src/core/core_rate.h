/* core_rate — this machine's speed at floating point, as the trace records it
 * and as the probe's rate r measures it: DAXPY (y += a·x) on vectors of
 * CORE_DAXPY_N doubles, 2 CORE_DAXPY_N flops a pass.
 *
 * Contract: core_daxpy runs `passes` passes (a alternates in sign so that y
 * stays bounded). core_rate_here returns flop/s on the calling thread's CPU
 * clock (so that other work on the machine does not lower it), the median of
 * a few timings of about a millisecond each, measured at its first call and
 * remembered, or POLYBSP_RATE when set (docs/env.md); under SMPI, the
 * simulated host's speed, which is what a DAXPY
 * measures there (the library charges computation at smpi/host-speed over it).
 * 0 when it cannot be measured.
 *
 * core_rate_measure returns a fresh DAXPY reading on the calling thread's CPU
 * clock, as core_rate_here's first one (POLYBSP_RATE aside); 0 under SMPI.
 *
 * core_clock_measure returns the speed of a chain of dependent multiply-adds
 * (a = a·c + d, each waiting for the last), in chained operations per second
 * on the calling thread's CPU clock, the median of a few timings of about a
 * millisecond (7 ms in all); 0 under SMPI (a simulated host has no clock but
 * its speed) or when it cannot be measured. core_clock_here is its first
 * reading, remembered (a trace's: the state its run computed in).
 * Why beside the DAXPY: the chain's time is the core's clock times the
 * latency of two instructions, which no state of the load and store pipes
 * changes, while the DAXPY, bound by its stores, reads two modes about 2x
 * apart from one run to the next on the machines measured (docs/validation.md,
 * "A real second machine"); predict --scale clock scales work by it.
 */
#ifndef POLYBSP_CORE_RATE_H
#define POLYBSP_CORE_RATE_H

enum { CORE_DAXPY_N = 1024 };

void core_daxpy(double *y, const double *x, long passes);
double core_rate_here(void);
double core_rate_measure(void);
double core_clock_measure(void);
double core_clock_here(void);

#endif
