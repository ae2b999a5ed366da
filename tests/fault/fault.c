/* fault.c — one fault per run, chosen by name: hangs, crashes and lost threads
 * that must end the run with one line (tests/fault/CMakeLists.txt holds each
 * case's line and exit status).
 *
 * Usage: fault CASE [ACTOR [STEP]]. The run asks for 4 processes; all complete
 * STEP supersteps (default 2), each but the first with a put, a get and a
 * message, then process ACTOR (default 1; `all`: every process at once) commits
 * the fault in superstep STEP while the others go on to bsp_sync. Should the library let the run
 * hang, the test's timeout fails it; should the run go on, it ends with status 0 and the test
 * fails. loop         computes forever (the watchdog, POLYBSP_TIMEOUT, must stop it) oblsync every
 * process waits in bsp_oblsync for a message nobody sends sleep        waits in bsp_sync for a
 * while, then goes on (no timeout: the others wait less than POLYBSP_TIMEOUT) pthread_exit ends its
 * thread (threads engine) abort        calls abort() crash        stores through a null pointer
 *  sigkill      raises SIGKILL, which no handler can report
 *  forever      nobody commits a fault: the supersteps go on until the run is
 *               stopped from outside (bench/fault_inject.sh's kill and stop)
 *  overflow     recurses until the stack overflows
 *  return       process 0 returns from the SPMD function at once and main then
 *               computes forever (bsp_init style)
 *  bsp_abort    calls bsp_abort("fault: stopped")
 *  put_null     calls bsp_put with a NULL source
 *  exit         calls exit(3)
 *  (any other)  no fault: a run of STEP supersteps that ends well
 */
#define _DEFAULT_SOURCE 1 /* usleep (1: as smpicc defines it) */
#include <polybsp.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { NPROCS = 4 };

static int actor = 1;          /* set by main, then only read */
static long fault_step = 2;    /* likewise */
static const char *fault;      /* likewise */
static volatile unsigned spin; /* the endless loops write it */

static void loop_forever(void)
{
    for (;;)
        spin++;
}

/* Each frame holds a page the compiler cannot drop; the stack ends long before
 * the depth reaches the limit (the compiler cannot know it). */
static volatile unsigned depth_limit = 1u << 30;

static unsigned recurse(unsigned depth)
{
    volatile char page[4096];
    if (depth == depth_limit)
        return 0;
    page[depth % sizeof page] = (char)depth;
    return recurse(depth + 1) + page[0];
}

static void commit(void)
{
    if (!strcmp(fault, "loop"))
        loop_forever();
    else if (!strcmp(fault, "pthread_exit"))
        pthread_exit(NULL);
    else if (!strcmp(fault, "abort"))
        abort();
    else if (!strcmp(fault, "sigkill"))
        raise(SIGKILL);
    else if (!strcmp(fault, "crash"))
        *(volatile int *)(uintptr_t)spin = 1; /* spin is 0 here */
    else if (!strcmp(fault, "overflow"))
        spin = recurse(0);
    else if (!strcmp(fault, "sleep"))
        usleep(300000);
    else if (!strcmp(fault, "bsp_abort"))
        bsp_abort("fault: stopped");
    else if (!strcmp(fault, "put_null"))
        bsp_put(0, NULL, &actor, 0, sizeof actor);
    else if (!strcmp(fault, "exit"))
        exit(3);
}

static void spmd(void)
{
    bsp_begin(NPROCS);
    int p = (int)bsp_pid(), P = (int)bsp_nprocs();
    int value = p, got = -1;
    bsp_push_reg(&value, sizeof value);
    bsp_sync();
    int forever = !strcmp(fault, "forever");
    if (forever) { /* for bench/fault_inject.sh: the section has started */
        printf("fault: process %d runs\n", p);
        fflush(stdout);
    }
    for (long s = 1; s < fault_step || forever; s++) {
        bsp_put((p + 1) % P, &p, &value, 0, sizeof p);
        bsp_get((p + 1) % P, &value, 0, &got, sizeof got);
        bsp_send((p + 1) % P, NULL, &p, sizeof p);
        bsp_sync();
    }
    if (!strcmp(fault, "return") && p == 0)
        return;
    if (!strcmp(fault, "oblsync"))
        bsp_oblsync(1);
    if (p == actor || actor < 0)
        commit();
    bsp_sync();
    bsp_pop_reg(&value);
    bsp_end();
}

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 4) {
        fprintf(stderr, "usage: %s CASE [ACTOR [STEP]]\n", argv[0]);
        return 2;
    }
    fault = argv[1];
    if (argc >= 3)
        actor = strcmp(argv[2], "all") == 0 ? -1 : atoi(argv[2]);
    if (argc == 4)
        fault_step = atol(argv[3]);
    bsp_init(spmd, argc, argv);
    spmd();
    if (!strcmp(fault, "return"))
        loop_forever();
    return 0;
}
