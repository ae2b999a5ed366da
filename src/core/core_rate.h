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
 */
#ifndef POLYBSP_CORE_RATE_H
#define POLYBSP_CORE_RATE_H

enum { CORE_DAXPY_N = 1024 };

void core_daxpy(double *y, const double *x, long passes);
double core_rate_here(void);

#endif
