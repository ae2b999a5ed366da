/* bench_mpi — polybsp's MPI engine against raw MPI, measured in the same job.
 *
 * Usage: mpirun -np P bench_mpi sync
 *        mpirun -np P bench_mpi reg
 *        mpirun -np P bench_mpi exchange [m ...]   (P even)
 *        mpirun -np P bench_mpi alltoall [m ...]
 *        mpirun -np P bench_mpi puts [h]
 *        mpirun -np P bench_mpi rma [m ...]        (P even)
 * Sizes default to paper 000's 6720 26880 107520 430080 1720320 bytes, h to 65536.
 *
 *   sync:     an empty superstep (bsp_sync, nothing sent) vs MPI_Barrier; ns.
 *   reg:      a registration superstep (one bsp_push_reg, or the bsp_pop_reg of
 *             the last one, then bsp_sync) vs MPI_Barrier; ns.
 *   exchange: processes s and s^1 swap m bytes: one bsp_put (or bsp_hpput) + bsp_sync
 *             vs one MPI_Sendrecv; throughput m / time in GB/s.
 *   alltoall: every process sends m bytes to every other one (paper 000's
 *             personalized AllToAll): P-1 puts (or hpputs) + bsp_sync vs one
 *             MPI_Alltoallv; throughput (P-1) m / time in GB/s.
 *   Both also time bsp_put against the MPI program that does what bsp_put
 *   promises: the data is taken at the call, so it copies the source (memcpy into
 *   one of two buffers, as polybsp's out buffers alternate) before sending it.
 *   puts:     h 8-byte bsp_puts per process and superstep, spread over the others
 *             as BSPedupack's bspbench does, vs what an MPI programmer writes for the
 *             same h-relation: pack the values per destination, one MPI_Alltoallv,
 *             unpack them into place; ns per put.
 *   rma:      the exchange with bsp_hpput against one-sided MPI_Put exchanges
 *             (bm_rma.c): is a one-sided engine worth building?
 * Each figure is a median over pairs of single calls, ours and MPI's alternately
 * (bm.h), with the median ratio of ours to MPI's; "result" lines are for scripts
 * (bench/mpi/run.sh).
 */
#include "bench_util.h"
#include "bm.h"

#include <bsp.h>
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SIZES 32

static const long default_sizes[] = {6720, 26880, 107520, 430080, 1720320};

typedef struct bench {
    int s, P;
    long m;
    char *src, *dst; /* dst is registered */
    int *counts, *displs;
    char *packed, *unpacked; /* the MPI side of "puts" */
    long h;
    char *copy[2]; /* the MPI side of bsp_put's copy */
    int turn;
} bench;

static void die(const char *what)
{
    fprintf(stderr, "bench_mpi: %s\n", what);
    MPI_Abort(MPI_COMM_WORLD, 2);
}

static void *alloc(size_t n)
{
    void *p = calloc(n ? n : 1, 1);
    if (!p)
        die("out of memory");
    return p;
}

static void sync_ours(void *a)
{
    (void)a;
    bsp_sync();
}

static void sync_mpi(void *a)
{
    (void)a;
    MPI_Barrier(MPI_COMM_WORLD);
}

/* Pushes the area in one call, pops it in the next: every call is a
 * registration superstep. */
static void reg_ours(void *a)
{
    (void)a;
    static double area;
    static int pushed;
    if (pushed)
        bsp_pop_reg(&area);
    else
        bsp_push_reg(&area, sizeof area);
    pushed = !pushed;
    bsp_sync();
}

static void exch_put(void *a)
{
    bench *b = a;
    bsp_put(b->s ^ 1, b->src, b->dst, 0, (int)b->m);
    bsp_sync();
}

static void exch_hpput(void *a)
{
    bench *b = a;
    bsp_hpput(b->s ^ 1, b->src, b->dst, 0, (int)b->m);
    bsp_sync();
}

static void exch_mpi(void *a)
{
    bench *b = a;
    MPI_Sendrecv(b->src, (int)b->m, MPI_BYTE, b->s ^ 1, 0, b->dst, (int)b->m, MPI_BYTE, b->s ^ 1, 0,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

/* The source copied first, into the buffer not used last time. */
static const char *copied(bench *b, size_t n)
{
    b->turn ^= 1;
    memcpy(b->copy[b->turn], b->src, n);
    return b->copy[b->turn];
}

static void exch_mpi_copy(void *a)
{
    bench *b = a;
    MPI_Sendrecv(copied(b, (size_t)b->m), (int)b->m, MPI_BYTE, b->s ^ 1, 0, b->dst, (int)b->m,
                 MPI_BYTE, b->s ^ 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

/* The paper's cyclic order: s+1, s+2, ..., s-1; s's block lands at s*m. */
static void a2a_ours(bench *b, int hp)
{
    for (int k = 1; k < b->P; k++) {
        int d = (b->s + k) % b->P;
        if (hp)
            bsp_hpput(d, b->src + d * b->m, b->dst, (int)(b->s * b->m), (int)b->m);
        else
            bsp_put(d, b->src + d * b->m, b->dst, (int)(b->s * b->m), (int)b->m);
    }
    bsp_sync();
}

static void a2a_put(void *a) { a2a_ours(a, 0); }

static void a2a_hpput(void *a) { a2a_ours(a, 1); }

static void a2a_mpi(void *a)
{
    bench *b = a;
    MPI_Alltoallv(b->src, b->counts, b->displs, MPI_BYTE, b->dst, b->counts, b->displs, MPI_BYTE,
                  MPI_COMM_WORLD);
}

static void a2a_mpi_copy(void *a)
{
    bench *b = a;
    MPI_Alltoallv(copied(b, (size_t)(b->P * b->m)), b->counts, b->displs, MPI_BYTE, b->dst,
                  b->counts, b->displs, MPI_BYTE, MPI_COMM_WORLD);
}

/* Put i goes to process (s+1+i%(P-1))%P, at index s+(i/(P-1))*P there. */
static void puts_ours(void *a)
{
    bench *b = a;
    const double *src = (const double *)b->src;
    for (long i = 0; i < b->h; i++) {
        long q = i % (b->P - 1), j = i / (b->P - 1);
        bsp_put((int)((b->s + 1 + q) % b->P), &src[i], b->dst,
                (int)((b->s + j * b->P) * (long)sizeof(double)), sizeof(double));
    }
    bsp_sync();
}

static void puts_mpi(void *a)
{
    bench *b = a;
    const double *src = (const double *)b->src;
    double *packed = (double *)b->packed, *unpacked = (double *)b->unpacked;
    double *dst = (double *)b->dst;
    long per = b->h / (b->P - 1) + 1; /* values per destination, at most */
    for (long i = 0; i < b->h; i++) {
        long q = i % (b->P - 1), j = i / (b->P - 1);
        packed[(b->s + 1 + q) % b->P * per + j] = src[i];
    }
    MPI_Alltoallv(packed, b->counts, b->displs, MPI_BYTE, unpacked, b->counts, b->displs, MPI_BYTE,
                  MPI_COMM_WORLD);
    for (int q = 0; q < b->P; q++) {
        long n = b->counts[q] / (long)sizeof(double);
        for (long j = 0; j < n; j++)
            dst[q + j * b->P] = unpacked[q * per + j];
    }
}

/* A whole-buffer check after the timing: every byte from process q is q+1. */
static void check_block(const char *p, long m, int q, const char *what)
{
    for (long i = 0; i < m; i++)
        if (p[i] != (char)(q + 1))
            die(what);
}

/* The comparisons of one pattern: bsp_put and bsp_hpput against MPI, and bsp_put
 * against MPI with the copy bsp_put makes. */
typedef struct case3 {
    const char *name, *anchor;
    bm_fn ours, mpi;
} case3;

static void run_exchange(bench *b, const long *sizes, int nsizes)
{
    if (b->P % 2)
        die("exchange needs an even number of processes");
    for (int i = 0; i < nsizes; i++) {
        b->m = sizes[i];
        b->src = alloc((size_t)b->m);
        b->dst = alloc((size_t)b->m);
        b->copy[0] = alloc((size_t)b->m);
        b->copy[1] = alloc((size_t)b->m);
        memset(b->src, b->s + 1, (size_t)b->m);
        bsp_push_reg(b->dst, (int)b->m);
        bsp_sync();
        const case3 cases[3] = {{"put", "MPI_Sendrecv", exch_put, exch_mpi},
                                {"hpput", "MPI_Sendrecv", exch_hpput, exch_mpi},
                                {"put", "memcpy+Sendrecv", exch_put, exch_mpi_copy}};
        for (int k = 0; k < 3; k++) {
            bm_result r;
            char key[64], what[64];
            memset(b->dst, 0, (size_t)b->m);
            bm_compare(cases[k].ours, cases[k].mpi, b, &r);
            check_block(b->dst, b->m, b->s ^ 1, "exchange delivered wrong bytes");
            snprintf(key, sizeof key, "exch_%s%s_%ld_gbs", cases[k].name, k == 2 ? "_copy" : "",
                     b->m);
            snprintf(what, sizeof what, "exchange %s m=%ld", cases[k].name, b->m);
            bm_report(key, what, cases[k].anchor, &r, (double)b->m / 1e9, "GB/s", 1);
        }
        bsp_pop_reg(b->dst);
        bsp_sync();
        free(b->src);
        free(b->dst);
        free(b->copy[0]);
        free(b->copy[1]);
    }
}

static void run_alltoall(bench *b, const long *sizes, int nsizes)
{
    b->counts = alloc((size_t)b->P * sizeof *b->counts);
    b->displs = alloc((size_t)b->P * sizeof *b->displs);
    for (int i = 0; i < nsizes; i++) {
        b->m = sizes[i];
        if ((long)b->P * b->m > 0x7fffffffL)
            die("P * m exceeds 2^31 bytes");
        for (int q = 0; q < b->P; q++) {
            b->counts[q] = q == b->s ? 0 : (int)b->m;
            b->displs[q] = (int)(q * b->m);
        }
        b->src = alloc((size_t)(b->P * b->m));
        b->dst = alloc((size_t)(b->P * b->m));
        b->copy[0] = alloc((size_t)(b->P * b->m));
        b->copy[1] = alloc((size_t)(b->P * b->m));
        memset(b->src, b->s + 1, (size_t)(b->P * b->m));
        bsp_push_reg(b->dst, (int)(b->P * b->m));
        bsp_sync();
        const case3 cases[3] = {{"put", "MPI_Alltoallv", a2a_put, a2a_mpi},
                                {"hpput", "MPI_Alltoallv", a2a_hpput, a2a_mpi},
                                {"put", "memcpy+Alltoallv", a2a_put, a2a_mpi_copy}};
        for (int k = 0; k < 3; k++) {
            bm_result r;
            char key[64], what[64];
            memset(b->dst, 0, (size_t)(b->P * b->m));
            bm_compare(cases[k].ours, cases[k].mpi, b, &r);
            for (int q = 0; q < b->P; q++)
                if (q != b->s)
                    check_block(b->dst + q * b->m, b->m, q, "alltoall delivered wrong bytes");
            snprintf(key, sizeof key, "a2a_%s%s_%ld_gbs", cases[k].name, k == 2 ? "_copy" : "",
                     b->m);
            snprintf(what, sizeof what, "alltoall %s m=%ld", cases[k].name, b->m);
            bm_report(key, what, cases[k].anchor, &r, (double)(b->P - 1) * (double)b->m / 1e9,
                      "GB/s", 1);
        }
        bsp_pop_reg(b->dst);
        bsp_sync();
        free(b->src);
        free(b->dst);
        free(b->copy[0]);
        free(b->copy[1]);
    }
    free(b->counts);
    free(b->displs);
}

static void run_puts(bench *b, long h)
{
    if (b->P < 2)
        die("puts needs at least 2 processes");
    b->h = h;
    long per = h / (b->P - 1) + 1, len = (per + 1) * b->P;
    b->src = alloc((size_t)h * sizeof(double));
    b->dst = alloc((size_t)len * sizeof(double));
    b->packed = alloc((size_t)(per * b->P) * sizeof(double));
    b->unpacked = alloc((size_t)(per * b->P) * sizeof(double));
    b->counts = alloc((size_t)b->P * sizeof *b->counts);
    b->displs = alloc((size_t)b->P * sizeof *b->displs);
    for (int q = 0; q < b->P; q++) {
        /* Puts from or to q = (s+1+k)%P number h/(P-1), one more for the first h%(P-1). */
        int k = ((q - b->s - 1) % b->P + b->P) % b->P;
        long n = q == b->s ? 0 : h / (b->P - 1) + (k < h % (b->P - 1));
        int kin = ((b->s - q - 1) % b->P + b->P) % b->P;
        long nin = q == b->s ? 0 : h / (b->P - 1) + (kin < h % (b->P - 1));
        if (n != nin)
            die("puts: the pattern is not symmetric");
        b->counts[q] = (int)(n * (long)sizeof(double));
        b->displs[q] = (int)(q * per * (long)sizeof(double));
    }
    double *src = (double *)b->src;
    for (long i = 0; i < h; i++)
        src[i] = (double)(b->s + 1);
    bsp_push_reg(b->dst, (int)(len * (long)sizeof(double)));
    bsp_sync();
    bm_result r;
    bm_compare(puts_ours, puts_mpi, b, &r);
    bm_report("puts_ns", "8-byte puts (per put)", "pack+Alltoallv", &r, 1e9 / (double)h, "ns", 0);
    bsp_pop_reg(b->dst);
    bsp_sync();
    free(b->src);
    free(b->dst);
    free(b->packed);
    free(b->unpacked);
    free(b->counts);
    free(b->displs);
}

int main(int argc, char **argv)
{
    /* All ranks take part: P is the job's size. */
    bsp_begin(bsp_nprocs());
    bench b = {.s = bsp_pid(), .P = bsp_nprocs()};
    const char *what = argc > 1 ? argv[1] : "";
    long sizes[MAX_SIZES];
    int nsizes = 0;
    for (int i = 2; i < argc && nsizes < MAX_SIZES; i++) {
        sizes[nsizes] = atol(argv[i]);
        if (sizes[nsizes] < 1 || sizes[nsizes] > (1L << 30))
            die("a size must be in [1, 2^30]");
        nsizes++;
    }
    if (!nsizes) {
        nsizes = (int)(sizeof default_sizes / sizeof *default_sizes);
        memcpy(sizes, default_sizes, sizeof default_sizes);
    }
    if (b.s == 0)
        printf("# bench_mpi %s: P=%d; medians over pairs of single calls (bm.h)\n", what, b.P);
    if (strcmp(what, "sync") == 0) {
        bm_result r;
        bm_compare(sync_ours, sync_mpi, &b, &r);
        bm_report("sync_ns", "empty superstep", "MPI_Barrier", &r, 1e9, "ns", 0);
    } else if (strcmp(what, "reg") == 0) {
        bm_result r;
        bm_compare(reg_ours, sync_mpi, &b, &r);
        bm_report("reg_ns", "registration superstep", "MPI_Barrier", &r, 1e9, "ns", 0);
    } else if (strcmp(what, "exchange") == 0) {
        run_exchange(&b, sizes, nsizes);
    } else if (strcmp(what, "alltoall") == 0) {
        run_alltoall(&b, sizes, nsizes);
    } else if (strcmp(what, "rma") == 0) {
        bm_rma(sizes, nsizes);
    } else if (strcmp(what, "puts") == 0) {
        run_puts(&b, argc > 2 ? sizes[0] : 65536);
    } else {
        die("usage: mpirun -np P bench_mpi sync | reg | exchange [m ...] | alltoall [m ...] | "
            "puts [h] | rma [m ...]");
    }
    bsp_end();
    return 0;
}
