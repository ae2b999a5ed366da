/* mpie_port — what the engine does differently under SMPI (POLYBSP_SMPI): the
 * probe then receive of one message, blocking waits, waiting to be stopped, and
 * which ranks the job's end waits for (see mpie.h). */
#include "engine/mpi/mpie.h"

#include <bsp.h>

#include <unistd.h>

#ifdef POLYBSP_SMPI
#include <simgrid/actor.h>

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

void mpie_mrecv(void *buf, int len, mpie_message *msg)
{
    MPI_Recv(buf, len, MPI_BYTE, msg->source, msg->tag, msg->comm, MPI_STATUS_IGNORE);
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

void mpie_mrecv(void *buf, int len, mpie_message *msg)
{
    MPI_Mrecv(buf, len, MPI_BYTE, msg, MPI_STATUS_IGNORE);
}

void mpie_await_stop(void)
{
    for (;;)
        pause();
}
#endif
