/* thr_engine — runs the SPMD section as POSIX threads in one process.
 *
 * Contract: thr_begin(P) on the program's first caller starts P-1 more threads
 * (they run the function given to thr_init, or main() when there was none) and
 * makes the caller process 0; called again by those threads it only returns.
 * thr_end is the section's closing barrier: process 0 returns from it, the others
 * end their thread there. A worker whose SPMD function returns without bsp_end
 * ends as if it had called it.
 */
#ifndef POLYBSP_THR_ENGINE_H
#define POLYBSP_THR_ENGINE_H

typedef enum { THR_BEFORE = 0, THR_RUNNING = 1, THR_AFTER = 2 } thr_state;

void thr_init(void (*spmd)(void), int argc, char **argv);
void thr_begin(long long nprocs);
void thr_end(void);
thr_state thr_section_state(void);
/* Processors available before the section: POLYBSP_NPROCS, else the online cores. */
int thr_available(void);

#endif
