/* bench_mapped — what calls between a program and its libraries cost where the
 * program is mapped. The same two loops (mapped_kernel.c) run from this
 * executable's own copy and from a copy in a shared object that it dlopens,
 * as SMPI loads a program (the anchor: the cost the simulator charges); the
 * ratio own / shared is 1 when the mapping does not matter.
 *
 * usage: bench_mapped SHARED_OBJECT [REPS]
 * Prints, per loop, the medians over REPS (default 101) timed runs on this
 * thread's CPU clock, then "where: near|far", whether this executable lies
 * within 4 GiB of the C library (near when started by its loader, as
 * `polybsp run` does under POLYBSP_SOLO=smpi; bench/mapped/mapped.sh runs both). */
#define _GNU_SOURCE /* dladdr */
#include "bench_util.h"
#include "mapped_kernel.h"

#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { N = 1 << 17, SORTED = 1 << 15 };

static double cpu_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Where the loops' results go, so that the compiler keeps them. */
static volatile double sink;

typedef double (*chain_fn)(const double *, const double *, long);
typedef void (*sort_fn)(double *, long);

/* The median over reps runs of chain (which == 0) or sort (which == 1), in µs. */
static double median_us(int which, chain_fn chain, sort_fn sort, const double *a, const double *b,
                        double *scratch, int reps)
{
    double *t = malloc((size_t)reps * sizeof *t);
    if (t == NULL) {
        fprintf(stderr, "bench_mapped: out of memory\n");
        exit(1);
    }
    for (int r = 0; r < reps; r++) {
        if (which == 1)
            memcpy(scratch, a, SORTED * sizeof *scratch);
        double t0 = cpu_now();
        if (which == 0)
            sink = chain(a, b, N);
        else
            sort(scratch, SORTED);
        t[r] = cpu_now() - t0;
    }
    double m = bench_median(t, (size_t)reps) * 1e6;
    free(t);
    return m;
}

int main(int argc, char **argv)
{
    int reps = argc > 2 ? atoi(argv[2]) : 101;
    if (argc < 2 || argc > 3 || reps < 1 || reps > 100000) {
        fprintf(stderr, "usage: bench_mapped SHARED_OBJECT [REPS 1..100000]\n");
        return 2;
    }
    void *so = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    chain_fn so_chain = so ? (chain_fn)(uintptr_t)dlsym(so, "mapped_fmax_chain") : NULL;
    sort_fn so_sort = so ? (sort_fn)(uintptr_t)dlsym(so, "mapped_sort") : NULL;
    if (so_chain == NULL || so_sort == NULL) {
        fprintf(stderr, "bench_mapped: cannot load the loops from '%s': %s\n", argv[1],
                so ? "no mapped_fmax_chain or mapped_sort" : dlerror());
        return 2;
    }
    double *a = malloc(N * sizeof *a), *b = malloc(N * sizeof *b), *s = malloc(N * sizeof *s);
    if (!a || !b || !s) {
        fprintf(stderr, "bench_mapped: out of memory\n");
        return 1;
    }
    uint64_t x = 88172645463325252u;
    for (long i = 0; i < N; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        a[i] = (double)(x >> 11) * 0x1p-53;
        b[i] = a[i] * 0.5;
    }
    static const char *const names[2] = {"fmax chain (131072 calls)", "qsort (32768 values)"};
    printf("%-28s %12s %12s %8s\n", "loop", "own (us)", "shared (us)", "ratio");
    for (int which = 0; which < 2; which++) {
        double own = median_us(which, mapped_fmax_chain, mapped_sort, a, b, s, reps);
        double shared = median_us(which, so_chain, so_sort, a, b, s, reps);
        printf("%-28s %12.1f %12.1f %8.2f\n", names[which], own, shared, own / shared);
    }
    uintptr_t self = (uintptr_t)&mapped_fmax_chain, libc = (uintptr_t)&qsort;
    uintptr_t gap = self > libc ? self - libc : libc - self;
    int near = gap < (uintptr_t)1 << 32;
    printf("where: %s (this executable %s 4 GiB of the C library)\n", near ? "near" : "far",
           near ? "within" : "beyond");
    free(a), free(b), free(s);
    dlclose(so);
    return 0;
}
