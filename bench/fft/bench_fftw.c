/* bench_fftw.c — the anchor of the FFT benchmark: FFTW itself, on T threads, on
 * the same input, lengths and timing rule as `fft --time` (bench/fft/run_fft.sh).
 *
 * usage: bench_fftw [-n N] [--threads T] [--reps R] [--measure] [--wisdom FILE]
 * Prints "time: median S s over R runs (...)" as fft does: the median over R
 * timed out-of-place transforms, after one untimed one. Planning is not timed.
 * Exit status 2 on bad arguments (one line "bench_fftw: ...").
 */
#include "bench_util.h"
#include "fft_util.h"

#include <fftw3.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long count(const char *option, const char *text)
{
    char *end;
    errno = 0;
    long v = strncmp(text, "2^", 2) == 0 ? strtol(text + 2, &end, 10) : strtol(text, &end, 10);
    int ok = end != text && !*end && !errno;
    if (ok && strncmp(text, "2^", 2) == 0)
        v = v >= 0 && v <= FFT_MAX_LOG2 ? 1L << v : 0;
    if (!ok || v < 1) {
        fprintf(stderr, "bench_fftw: %s expects a positive integer, got '%s'\n", option, text);
        exit(2);
    }
    return v;
}

int main(int argc, char **argv)
{
    long n = 1L << 20, threads = 1, reps = 11;
    unsigned flags = FFTW_ESTIMATE;
    const char *wisdom = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int valued = !strcmp(a, "-n") || !strcmp(a, "--threads") || !strcmp(a, "--reps") ||
                     !strcmp(a, "--wisdom");
        if (valued && i + 1 >= argc) {
            fprintf(stderr, "bench_fftw: option %s needs a value\n", a);
            return 2;
        }
        if (!strcmp(a, "-n"))
            n = count(a, argv[++i]);
        else if (!strcmp(a, "--threads"))
            threads = count(a, argv[++i]);
        else if (!strcmp(a, "--reps"))
            reps = count(a, argv[++i]);
        else if (!strcmp(a, "--wisdom"))
            wisdom = argv[++i];
        else if (!strcmp(a, "--measure"))
            flags = FFTW_MEASURE;
        else {
            fprintf(stderr, "bench_fftw: unknown option '%s'\n", a);
            return 2;
        }
    }
    if (!fft_is_pow2(n) || n > (1L << FFT_MAX_LOG2) || threads > 1024 || reps > 100000) {
        fprintf(stderr,
                "bench_fftw: need n a power of two <= 2^%d, threads <= 1024, reps <= "
                "100000\n",
                FFT_MAX_LOG2);
        return 2;
    }

    /* fftw_init_threads must precede every other FFTW call, wisdom included. */
    if (!fftw_init_threads()) {
        fprintf(stderr, "bench_fftw: fftw_init_threads failed\n");
        return 1;
    }
    fftw_plan_with_nthreads((int)threads);
    if (wisdom)
        fftw_import_wisdom_from_filename(wisdom);
    fftw_complex *x = fft_alloc((size_t)n, "input", 0);
    fftw_complex *y = fft_alloc((size_t)n, "output", 0);
    double *t = malloc((size_t)reps * sizeof *t);
    fftw_plan plan = fftw_plan_dft_1d((int)n, x, y, FFTW_FORWARD, flags);
    if (!t || !plan) {
        fprintf(stderr, "bench_fftw: cannot plan or allocate for n = %ld\n", n);
        return 1;
    }
    for (long j = 0; j < n; j++)
        fft_input(1, j, x[j]);
    fftw_execute(plan);
    for (long r = 0; r < reps; r++) {
        double t0 = bench_now();
        fftw_execute(plan);
        t[r] = bench_now() - t0;
    }
    double median = bench_median(t, (size_t)reps); /* sorts t */
    printf("fftw: n = %ld, %ld thread%s, FFTW_%s\n", n, threads, threads > 1 ? "s" : "",
           flags == FFTW_MEASURE ? "MEASURE" : "ESTIMATE");
    printf("time: median %.6e s over %ld runs (min %.6e s, max %.6e s)\n", median, reps, t[0],
           t[reps - 1]);
    if (wisdom && !fftw_export_wisdom_to_filename(wisdom)) {
        fprintf(stderr, "bench_fftw: cannot write FFTW wisdom to %s\n", wisdom);
        return 1;
    }
    fftw_destroy_plan(plan);
    fftw_free(x);
    fftw_free(y);
    free(t);
    fftw_cleanup_threads();
    return 0;
}
