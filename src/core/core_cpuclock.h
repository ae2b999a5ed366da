/* core_cpuclock — the calling thread's CPU clock, as the library reads it to
 * time a program's own computation (the trace's cpu, the simulator's charge,
 * the rate's DAXPY).
 *
 * Contract: core_thread_cpu() is this thread's CPU time in seconds (-1 if the
 * clock cannot be read). core_thread_cpu_cost() is what one read costs on this
 * machine: the least of a few back-to-back reads, measured at the first call
 * and remembered (any thread may call it). A stretch of computation timed by
 * two reads holds about one read's cost that is the library's, not the
 * program's: the trace and the simulator's charge take it off.
 *
 * Why a system call: under SMPI, smpicc turns clock_gettime into the
 * simulator's clock; the CPU time of the host is read past it. The thread CPU
 * clock has no vDSO path anyway (about 0.7 us a read on the development VM).
 */
#ifndef POLYBSP_CORE_CPUCLOCK_H
#define POLYBSP_CORE_CPUCLOCK_H

double core_thread_cpu(void);
double core_thread_cpu_cost(void);

#endif
