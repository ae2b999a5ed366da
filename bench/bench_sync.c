/* bench_sync.c — latency of an empty superstep (bsp_sync with nothing to send).
 *
 * Usage: bench_sync [P]    (P defaults to bsp_nprocs(): POLYBSP_NPROCS or the cores)
 *
 * In the same run, interleaved batch by batch with bsp_sync, it times two anchors
 * executed by the very same threads that run the BSP processes (so placement and
 * scheduling are identical):
 *   - pthread_barrier_wait with P threads (any P; the blocking barrier of libc);
 *   - at P = 2 only, a minimal two-thread sense-reversing spin barrier (the floor
 *     for a barrier between two cores).
 * Both anchors share memory between processes, which only the threads engine
 * offers; on another engine they are skipped.
 * Prints medians (ns per barrier) as "result" lines; MPI_Barrier is mpi_anchor's job.
 */
#include "bench_bsp.h"
#include "bench_spin.h"
#include "bench_util.h"

#include <bsp.h>
#include <polybsp.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TARGET_SECONDS 0.01

static int nprocs_wanted;

/* Shared by the BSP processes on purpose: the anchor's barrier. */
static pthread_barrier_t libc_barrier;

static void libc_barrier_wait(void *unused)
{
    (void)unused;
    pthread_barrier_wait(&libc_barrier);
}

static void empty_superstep(void *unused)
{
    (void)unused;
    bsp_sync();
}

static void spmd(void)
{
    bsp_begin(nprocs_wanted);
    int P = (int)bsp_nprocs(), s = (int)bsp_pid();
    int shared = strcmp(bsp_engine_name(), "threads") == 0;
    int reps = bench_reps();

    if (shared && s == 0)
        pthread_barrier_init(&libc_barrier, NULL, (unsigned)P);
    bsp_sync(); /* nobody waits on libc_barrier before it is set up */
    struct bench_spin spin;
    int with_spin = bench_spin_init(&spin);

    long n_bsp = bench_bsp_calibrate(empty_superstep, NULL, TARGET_SECONDS);
    long n_libc = shared ? bench_bsp_calibrate(libc_barrier_wait, NULL, TARGET_SECONDS) : 0;
    long n_spin = with_spin ? bench_bsp_calibrate(bench_spin_wait, &spin, TARGET_SECONDS) : 0;

    double *t_bsp = calloc((size_t)reps, sizeof *t_bsp);
    double *t_libc = calloc((size_t)reps, sizeof *t_libc);
    double *t_spin = calloc((size_t)reps, sizeof *t_spin);
    if (!t_bsp || !t_libc || !t_spin)
        bsp_abort("bench_sync: out of memory");
    for (int r = 0; r < reps; r++) {
        t_bsp[r] = bench_bsp_batch(empty_superstep, NULL, n_bsp);
        if (shared)
            t_libc[r] = bench_bsp_batch(libc_barrier_wait, NULL, n_libc);
        if (with_spin)
            t_spin[r] = bench_bsp_batch(bench_spin_wait, &spin, n_spin);
    }

    if (s == 0) {
        char key[64];
        printf("# bench_sync: P=%d engine=%s reps=%d batches of %ld supersteps\n", P,
               bsp_engine_name(), reps, n_bsp);
        snprintf(key, sizeof key, "sync_p%d_ns", P);
        bench_result(key, 1e9 * bench_median(t_bsp, (size_t)reps), "ns");
        if (shared) {
            snprintf(key, sizeof key, "pthread_barrier_p%d_ns", P);
            bench_result(key, 1e9 * bench_median(t_libc, (size_t)reps), "ns");
        }
        if (with_spin) {
            snprintf(key, sizeof key, "spin_barrier_p%d_ns", P);
            bench_result(key, 1e9 * bench_median(t_spin, (size_t)reps), "ns");
        }
    }
    bsp_sync();
    if (shared && s == 0)
        pthread_barrier_destroy(&libc_barrier);
    free(t_bsp);
    free(t_libc);
    free(t_spin);
    bsp_end();
}

int main(int argc, char **argv)
{
    bsp_init(spmd, argc, argv);
    nprocs_wanted = argc > 1 ? atoi(argv[1]) : (int)bsp_nprocs();
    if (nprocs_wanted < 1) {
        fprintf(stderr, "usage: bench_sync [P >= 1]\n");
        return 2;
    }
    spmd();
    return 0;
}
