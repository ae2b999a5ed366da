/* thr_solo — one process of the threads engine computes at a time (POLYBSP_SOLO).
 *
 * Contract: thr_solo_setup, at bsp_begin, reads POLYBSP_SOLO (`off`, the
 * default, or `on`; anything else stops the run with one line). With `on`, a
 * process holds one token, shared by the run, from its start until bsp_end,
 * except while it waits for other processes: every wait of the engine (a
 * barrier, an oblivious sync's messages, a get's owner) gives the token before
 * it waits (thr_solo_give) and takes it back after (thr_solo_take). So no
 * process holds the token while it waits for another, and only one computes at
 * any time: each superstep's CPU time is then the work of a process that had a
 * core to itself, as SMPI charges computation (it runs one rank at a time) and
 * as a machine with a core per process runs it, instead of a share of 2 cores
 * cut into slices among P threads (docs/validation.md says what it changed).
 * The run's wall time is then that of P processes taking turns: a solo trace
 * is for predicting another machine, not for explaining its own run. With
 * `off` the calls do nothing.
 */
#ifndef POLYBSP_THR_SOLO_H
#define POLYBSP_THR_SOLO_H

/* 1 when this run is solo (after thr_solo_setup). */
int thr_solo_setup(void);
void thr_solo_take(void);
void thr_solo_give(void);

#endif
