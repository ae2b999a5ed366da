/* bm_rma — would an exchange built on MPI-3 one-sided communication be faster?
 *
 * The engine's exchange is two-sided (src/engine/mpi/mpie_sync.c). Here the
 * Exchange pattern (s and s^1 swap m bytes) by bsp_hpput + bsp_sync is timed
 * against two one-sided exchanges of the same bytes into the same registered
 * memory, through a window created once over it:
 *   fence: MPI_Put between two MPI_Win_fence calls (active target);
 *   flush: MPI_Put in a passive epoch opened once (MPI_Win_lock_all), then
 *          MPI_Win_flush_all and an MPI_Barrier so that the target knows.
 * Both are idealised: a one-sided engine would add what the two-sided one pays
 * for already: the barrier's traffic bits, a window attach and address exchange
 * per registration, an order for overlapping puts (MPI leaves puts from
 * different origins to the same bytes undefined), and message queues. If ours
 * keeps up with them, one-sided communication cannot win.
 */
#include "bench_util.h"
#include "bm.h"

#include <bsp.h>
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct rma {
    int partner;
    long m;
    char *src, *dst;
    MPI_Win win;
} rma;

static void ours(void *a)
{
    rma *x = a;
    bsp_hpput(x->partner, x->src, x->dst, 0, (int)x->m);
    bsp_sync();
}

static void fence(void *a)
{
    rma *x = a;
    MPI_Win_fence(MPI_MODE_NOPRECEDE, x->win);
    MPI_Put(x->src, (int)x->m, MPI_BYTE, x->partner, 0, (int)x->m, MPI_BYTE, x->win);
    MPI_Win_fence(MPI_MODE_NOSUCCEED, x->win);
}

static void flush(void *a)
{
    rma *x = a;
    MPI_Put(x->src, (int)x->m, MPI_BYTE, x->partner, 0, (int)x->m, MPI_BYTE, x->win);
    MPI_Win_flush_all(x->win);
    MPI_Barrier(MPI_COMM_WORLD);
}

void bm_rma(const long *sizes, int nsizes)
{
    int s = bsp_pid();
    if (bsp_nprocs() % 2) {
        fprintf(stderr, "bench_mpi: rma needs an even number of processes\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    for (int i = 0; i < nsizes; i++) {
        rma x = {s ^ 1, sizes[i], malloc((size_t)sizes[i]), calloc((size_t)sizes[i], 1),
                 MPI_WIN_NULL};
        if (!x.src || !x.dst)
            MPI_Abort(MPI_COMM_WORLD, 1);
        memset(x.src, s + 1, (size_t)x.m);
        bsp_push_reg(x.dst, (int)x.m);
        bsp_sync();
        MPI_Win_create(x.dst, x.m, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &x.win);
        bm_result r;
        char key[64], what[64];
        bm_compare(ours, fence, &x, &r);
        snprintf(key, sizeof key, "rma_fence_%ld_gbs", x.m);
        snprintf(what, sizeof what, "hpput vs fence m=%ld", x.m);
        bm_report(key, what, "MPI_Put+fence", &r, (double)x.m / 1e9, "GB/s", 1);
        MPI_Win_lock_all(MPI_MODE_NOCHECK, x.win);
        bm_compare(ours, flush, &x, &r);
        MPI_Win_unlock_all(x.win);
        snprintf(key, sizeof key, "rma_flush_%ld_gbs", x.m);
        snprintf(what, sizeof what, "hpput vs flush m=%ld", x.m);
        bm_report(key, what, "MPI_Put+flush", &r, (double)x.m / 1e9, "GB/s", 1);
        for (long k = 0; k < x.m; k++)
            if (x.dst[k] != (char)(x.partner + 1)) {
                fprintf(stderr, "bench_mpi: rma delivered wrong bytes\n");
                MPI_Abort(MPI_COMM_WORLD, 1);
            }
        MPI_Win_free(&x.win);
        bsp_pop_reg(x.dst);
        bsp_sync();
        free(x.src);
        free(x.dst);
    }
}
