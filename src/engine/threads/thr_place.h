/* thr_place — which CPU each process of the threads engine runs on.
 *
 * Contract: thr_place_plan(P, solo, cpu) fills cpu[0 .. P) with the operating system's
 * number of the logical CPU (hardware thread) process i is bound to, or -1 for
 * "not bound", and returns the policy used. The policy is POLYBSP_PLACE:
 *   compact  (the default) one process per core, cores in the machine's order,
 *            a core's second hardware thread only once every core has one;
 *   spread   the same, but consecutive processes on different packages first;
 *   none     no binding (the kernel places and moves the threads).
 * Only the CPUs this process may use count (taskset, cgroups). With more processes
 * than those CPUs (oversubscription) no process is bound: threads that wait by
 * yielding run better where the kernel can move them. A solo run (thr_solo.h)
 * puts every one of P >= 2 processes on one CPU, the last this process may use
 * in the compact order, as SMPI runs its ranks in turn on one core (no
 * migration between the turns, the same caches); not with `none`. A single process is not
 * bound either: it has no partner to meet, and programs run side by side (a
 * test suite, a batch of P = 1 runs) would all be put on the first CPU. An unknown POLYBSP_PLACE
 * stops the run with bsp_begin's one line. The machine's CPU order is read once
 * (hwloc) and kept.
 * thr_place_bind(cpu) binds the calling thread to cpu (-1: leaves it as it is);
 * thr_place_attr(attr, cpu) sets the same on a thread to be created. Both
 * return 0, or an errno value when the kernel refuses (the run goes on unbound). */
#ifndef POLYBSP_THR_PLACE_H
#define POLYBSP_THR_PLACE_H

#include "core/core_copy.h"

#include <pthread.h>

typedef enum { THR_PLACE_COMPACT, THR_PLACE_SPREAD, THR_PLACE_NONE } thr_place_policy;

/* The policy's name, as POLYBSP_PLACE spells it. */
const char *thr_place_name(thr_place_policy policy);

/* The index of environment variable name's value among the n words (unset or
 * empty: 0, the default); -1 with "NAME=VALUE is not a KIND (w0, w1 or w2)" in
 * err otherwise: the threads engine's settings (POLYBSP_PLACE, POLYBSP_STREAM,
 * POLYBSP_SOLO). */
int thr_env_choice(const char *name, const char *const *words, int n, const char *kind, char *err,
                   size_t size);

/* The policy POLYBSP_PLACE asks for; -1 (after writing why into err) when it is
 * not a policy. */
int thr_place_policy_from_env(char *err, size_t size);

/* The CPUs a policy gives P processes (see the contract); the number of CPUs
 * this process may use in *ncpus. */
void thr_place_cpus(thr_place_policy policy, int P, int *cpu, int *ncpus);

/* thr_place_policy_from_env, thr_place_cpus (one CPU for all when solo) and
 * thr_place_streams (into *stream) for bsp_begin: a bad POLYBSP_PLACE or
 * POLYBSP_STREAM stops the run. */
thr_place_policy thr_place_plan(int P, int solo, int *cpu, core_stream *stream);

/* How a payload of CORE_COPY_STREAM_MIN bytes or more for another process goes
 * into the out buffer (core_run.stream_out), as POLYBSP_STREAM says: on
 * (streamed), off (cached), or auto (the default): measured, when the plan in
 * cpu gives each of the P processes a core of its own, else cached. */
typedef enum { THR_STREAM_AUTO, THR_STREAM_ON, THR_STREAM_OFF } thr_place_stream;
int thr_place_stream_from_env(char *err, size_t size);
core_stream thr_place_streams(thr_place_stream mode, int P, const int *cpu);

/* The number of CPUs online (sysconf), or -1 when unknown. */
long thr_place_cores_online(void);

int thr_place_bind(int cpu);
int thr_place_attr(pthread_attr_t *attr, int cpu);

/* Process 0 runs on the program's own thread: bsp_begin binds it and bsp_end
 * gives it back the CPUs it had (thr_place_hold before binding, then
 * thr_place_release). */
void thr_place_hold(void);
void thr_place_release(void);

#endif /* POLYBSP_THR_PLACE_H */
