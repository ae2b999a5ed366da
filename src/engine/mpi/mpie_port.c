/* mpie_port — what the engine does differently under SMPI (POLYBSP_SMPI): the
 * probe then receive of one message, blocking waits, waiting to be stopped, and
 * which ranks the job's end waits for (see mpie.h). */
#include "engine/mpi/mpie.h"

#include "core/core_cpuclock.h"

#include <bsp.h>

#include <unistd.h>

#ifdef POLYBSP_SMPI
#include <simgrid/actor.h>
#include <smpi/smpi.h>
#include <xbt/config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>

enum { PROGRESS_EVERY_STEPS = 64 };

/* POLYBSP_SMPI_PROGRESS: seconds between lines (default 60; 0: none). */
static double progress_seconds(void)
{
    const char *v = getenv("POLYBSP_SMPI_PROGRESS");
    char *end;
    double s = v && *v ? strtod(v, &end) : 60;
    return v && *v && (*end != '\0' || !(s >= 0)) ? 60 : s;
}

/* This machine's clock: SMPI's smpi_helpers.h makes clock_gettime the
 * simulated one, the system call is not. */
static double wall_now(void)
{
    struct timespec ts;
    syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Every PROGRESS_EVERY_STEPS supersteps only: the clock's read is computation
 * that SMPI charges to the simulated host. Only pid 0 keeps these counters
 * (globals are per rank under SMPI). */
void mpie_progress(const core_ctx *c)
{
    static unsigned long steps;
    static double every = -1, next;
    if (c->proc->pid != 0 || ++steps % PROGRESS_EVERY_STEPS != 0)
        return;
    if (every < 0)
        every = progress_seconds();
    if (every == 0)
        return;
    double now = wall_now();
    if (next == 0)
        next = now + every;
    if (now < next)
        return;
    next = now + every;
    fprintf(stderr, "polybsp: smpi: pid 0 at superstep %lu, simulated time %.6g s\n", c->proc->step,
            core_now() - c->proc->run->t0);
}

/* smpi/cpu-threshold, read once. */
static double cpu_threshold(void)
{
    static double least = -1;
    if (least < 0)
        least = sg_cfg_get_double("smpi/cpu-threshold");
    return least;
}

/* The program's computation adds up over a superstep's stretches (a loop of
 * bsp_send calls computes between them) and is charged once it reaches
 * smpi/cpu-threshold (1 us by default, the least computation SMPI charges);
 * what is left below it when a call that communicates or reads the clock
 * begins (flush) is dropped, as
 * SMPI drops a shorter computation: a program of communication alone then
 * takes the same simulated time at every run, unless a stretch of its own
 * (a first call through the dynamic linker, caches cold after other ranks
 * ran) reaches the threshold. */
/* Whether the library charges computation: polybsp-smpirun says so
 * (POLYBSP_SMPI_CHARGE=1) unless POLYBSP_SMPI_FLAGS set
 * smpi/simulate-computation, which leaves the charging to SMPI or to no one. */
static int charging(void)
{
    static int on = -1;
    if (on < 0) {
        const char *v = getenv("POLYBSP_SMPI_CHARGE");
        on = v != NULL && strcmp(v, "1") == 0;
    }
    return on;
}

/* eng_charge_program's switch; per rank, as every global under SMPI. */
static int program_uncharged;

void eng_charge_program(int on) { program_uncharged = !on; }

/* The thread CPU clock times a rank's computation: every rank runs on the
 * simulator's thread, but between two BSPlib calls of a rank no other runs (the
 * simulator switches only inside MPI calls). One read's cost is taken off each
 * stretch: the reads are the library's (core_cpuclock.h). */
void eng_work_pause(core_proc *p, int flush)
{
    if (!charging() || program_uncharged)
        return;
    double now = core_thread_cpu(), d = now - p->work_mark - core_thread_cpu_cost();
    if (d > 0)
        p->work_pending += d;
    /* A call nested in another's user code (bsp_par's tasks) counts from here. */
    p->work_mark = now;
    if (flush || p->work_pending >= cpu_threshold()) {
        smpi_execute(p->work_pending);
        p->work_pending = 0;
    }
}

void eng_work_resume(core_proc *p) { p->work_mark = core_thread_cpu(); }

/* SMPI (SimGrid 3.32) has no matched probe. A plain probe then a receive on the
 * probed source and tag takes the same message: each rank has one thread that
 * receives, and MPI keeps messages of one source and tag in order. */
int mpie_improbe(int source, int tag, MPI_Comm comm, mpie_message *msg, MPI_Status *st)
{
    int found;
    MPI_Iprobe(source, tag, comm, &found, st);
    if (found)
        *msg = (mpie_message){st->MPI_SOURCE, st->MPI_TAG, comm};
    return found;
}

void mpie_imrecv(void *buf, int len, mpie_message *msg, MPI_Request *req)
{
    MPI_Irecv(buf, len, MPI_BYTE, msg->source, msg->tag, msg->comm, req);
}

/* Polling costs simulated time under SMPI (each failed MPI_Test or MPI_Iprobe
 * advances the rank's clock by smpi/test or smpi/iprobe, 0.1 ms by default), and
 * there is no processor to leave to others: the waits block. */
void mpie_wait(int n, MPI_Request *reqs, long nap_ns)
{
    (void)nap_ns;
    MPI_Waitall(n, reqs, MPI_STATUSES_IGNORE);
}

void mpie_mprobe(int source, int tag, MPI_Comm comm, mpie_message *msg, MPI_Status *st)
{
    MPI_Probe(source, tag, comm, st);
    *msg = (mpie_message){st->MPI_SOURCE, st->MPI_TAG, comm};
}

void bsp_smpi_exit(int status)
{
    core_report_exit(status);
    smpi_exit(status);
}

/* Every rank is an actor of one process, so pause() would stop them all; the
 * simulator's sleep lets the others run (one of them stops the job). */
void mpie_await_stop(void)
{
    for (;;)
        sleep(1);
}

void mpie_follow_rank0(int rank)
{
    if (rank != 0)
        sg_actor_daemonize(sg_actor_self());
}
#else
int mpie_improbe(int source, int tag, MPI_Comm comm, mpie_message *msg, MPI_Status *st)
{
    int found;
    MPI_Improbe(source, tag, comm, &found, msg, st);
    return found;
}

void mpie_imrecv(void *buf, int len, mpie_message *msg, MPI_Request *req)
{
    MPI_Imrecv(buf, len, MPI_BYTE, msg, req);
}

void mpie_await_stop(void)
{
    for (;;)
        pause();
}

void mpie_progress(const core_ctx *c) { (void)c; }

void eng_charge_program(int on) { (void)on; }
#endif
