/* thr_solo — one process of the threads engine computes at a time (POLYBSP_SOLO).
 *
 * Contract: thr_solo_setup, at bsp_begin, reads POLYBSP_SOLO (`off`, the
 * default, `on` or `smpi`; anything else stops the run with one line). With
 * `on` (or `smpi`, below), a
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
 * `smpi` is `on` for a trace meant for a simulated (SMPI) target: a process
 * that takes the token first writes one byte in each cache line of
 * thr_solo_footprint(P) bytes (POLYBSP_SOLO_FOOTPRINT: another size;
 * anything but decimal bytes up to THR_SOLO_FOOTPRINT_MAX stops the run with
 * one line) of the engine's own, outside its traced work. SMPI runs the simulator's own code
 * between two ranks' computations, whose data pushes the next rank's out of the core's caches, and
 * charges the misses that follow to that rank's computation; a solo trace without it keeps a rank's
 * data where the rank before left it (docs/validation.md, "the simulator's footprint", has the
 * measure that chose the size). A solo run's processes all run on one CPU (thr_place_plan; not with
 * POLYBSP_PLACE=none), as SMPI's ranks take turns on one core.
 * A waiter of a solo run sleeps at once (thr_solo_on: the barrier does not
 * spin; thr_solo_await): a waiter that spins or yields takes CPU time, cache
 * and scheduler turns from the one process computing, whose time the trace
 * records (each wait's 64 yields had it preempted about 50 times a superstep).
 */
#ifndef POLYBSP_THR_SOLO_H
#define POLYBSP_THR_SOLO_H

#include <stdatomic.h>
#include <stddef.h>

/* Bytes POLYBSP_SOLO=smpi walks at each take of a run of P processes, unless
 * POLYBSP_SOLO_FOOTPRINT says otherwise: THR_SOLO_FOOTPRINT_AT_32 x sqrt(P /
 * 32), on whole 64-byte lines. SimGrid's own state between two turns of one
 * rank grows with the ranks; on a synthetic sweep (bench/footprint, 2-64 MiB
 * in all; docs/validation.md, session 39) a solo trace came nearest what SMPI
 * (SimGrid 3.32) charged with about 0.5 MiB or less at P = 16, 1 MiB at 32,
 * 1.5 at 64 and 2-2.5 at 128. A fit of those, not a count of what the
 * simulator touches; beyond P = 128 it is extrapolated. */
#define THR_SOLO_FOOTPRINT_AT_32 ((size_t)1 << 20)
/* The most POLYBSP_SOLO_FOOTPRINT may ask (1 GiB). */
#define THR_SOLO_FOOTPRINT_MAX ((size_t)1 << 30)

/* The walk of a run of nprocs processes under POLYBSP_SOLO=smpi by the rule
 * above (POLYBSP_SOLO_FOOTPRINT aside). */
size_t thr_solo_footprint(int nprocs);
/* 0 (off), 1 (on) or 2 (smpi): nonzero when this run of nprocs processes is
 * solo; *footprint is the bytes each take walks (0 unless smpi). */
int thr_solo_setup(int nprocs, size_t *footprint);
/* 1 when this run is solo (0 before thr_solo_setup). */
int thr_solo_on(void);
/* Returns once *done >= step (a process's done_step: it has ended that
 * superstep, eng_superstep_done): at once if it has; else gives the token,
 * waits, yielding the core in each round or, solo, asleep until some process
 * ends a superstep (thr_solo_step_ended), and takes the token back. */
void thr_solo_await(const atomic_ulong *done, unsigned long step);
/* Called by every process at the end of each of its supersteps. */
void thr_solo_step_ended(void);
void thr_solo_take(void);
void thr_solo_give(void);

#endif
