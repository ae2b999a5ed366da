/* thr_watch — the watchdog of the threads engine: a monitor thread.
 *
 * Contract: thr_watch_start(run, timeout) gives every process of the run a
 * core_watch slot and starts a thread that looks at the slots every quarter of
 * the timeout (at most every second, at least every 10 ms). Once a process has
 * been in one wait for `timeout` seconds, it stops the run with core_watch_report
 * naming the processes that are not waiting (computing) or, when every process
 * waits, all of them with their calls. thr_watch_slot(pid) is the slot a process's
 * thread sets as its core_watch_me (NULL without a watchdog); thr_watch_stop, after
 * the run's last barrier, stops the thread and frees the slots.
 */
#ifndef POLYBSP_THR_WATCH_H
#define POLYBSP_THR_WATCH_H

#include "core/core_watch.h"

struct core_run;

void thr_watch_start(struct core_run *run, double timeout);
core_watch_slot *thr_watch_slot(int pid);
void thr_watch_stop(void);

#endif
