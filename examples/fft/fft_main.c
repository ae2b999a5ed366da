/* fft_main.c — the `fft` program: runs, checks, times and calibrates the parallel
 * FFTs of examples/fft (docs/fft.md).
 *
 * usage: fft [--algo dc|bsp] [-n N] [-p P] [--inverse] [--check] [--time]
 *            [--reps R] [--seed S] [--measure] [--wisdom FILE] [--trace]
 *        fft --calibrate [-n NMAX] [--measure] [--constants FILE]
 * N may be written 2^K. Without -p, P is bsp_nprocs() (POLYBSP_NPROCS or the cores).
 * Exit status: 0; 1 if --check finds an error above 1e-9 (or the library stops
 * the run); 2 on bad arguments, with one line "fft: ..." on stderr before any
 * process starts.
 *
 * The options are parsed by main before bsp_begin and read by every process
 * from a global: the threads engine shares it, and the MPI engine runs main on
 * every process.
 */
#include "fft_bsp.h"
#include "fft_calib.h"
#include "fft_dc.h"
#include "fft_util.h"

#include <bsp.h>
#include <polybsp.h>

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK_LIMIT 1e-9

enum algo { ALGO_DC, ALGO_BSP };

static struct options {
    enum algo algo;
    long n;
    long p; /* 0: bsp_nprocs() */
    fft_dir dir;
    int check, time, trace, calibrate, reps;
    unsigned long seed;
    unsigned fftw_flags;
    const char *constants, *wisdom;
    int n_given;
} opt = {ALGO_DC, 1L << 20, 0, FFT_FORWARD, 0, 0, 0, 0, 11, 1, FFTW_ESTIMATE, NULL, NULL, 0};

static int exit_status; /* set by process 0 */

static const char usage[] =
    "usage: fft [--algo dc|bsp] [-n N] [-p P] [--inverse] [--check] [--time]\n"
    "           [--reps R] [--seed S] [--measure] [--wisdom FILE] [--trace]\n"
    "       fft --calibrate [-n NMAX] [--measure] [--constants FILE]\n"
    "  --algo dc    divide and conquer with bsp_par (common-common: every process\n"
    "               holds the whole vector); P a power of two, n >= P (default)\n"
    "  --algo bsp   four-step FFT on the cyclic distribution; P*P divides n\n"
    "  -n N         length, a power of two (2^K allowed; default 2^20)\n"
    "  -p P         number of processes (default: bsp_nprocs())\n"
    "  --inverse    the inverse transform, scaled by 1/n\n"
    "  --check      compare with FFTW on one process, transform back to the input,\n"
    "               and fail (exit status 1) above a relative error of 1e-9\n"
    "  --time       median over R runs of the max over processes of the time from\n"
    "               the first to the last sync of the transform\n"
    "  --reps R     timed runs (default 11)\n"
    "  --seed S     seed of the pseudo-random input (default 1)\n"
    "  --measure    plan with FFTW_MEASURE instead of FFTW_ESTIMATE\n"
    "  --wisdom F   read FFTW wisdom from F if it exists, and write it back at the end\n"
    "  --trace      trace one more transform with bsp_trace_begin/end, into\n"
    "               polybsp-trace.jsonl (POLYBSP_TRACE traces the whole run instead)\n"
    "  --calibrate  fit the constants D, F, V of the dc cost formula on one process,\n"
    "               sizes NMAX/64 .. NMAX (default 2^22); --constants FILE writes them\n";

static void bad_usage(const char *fmt, ...) POLYBSP_PRINTF(1, 2) POLYBSP_NORETURN;

/* One line "fft: ..." and exit status 2. */
static void bad_usage(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("fft: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(2);
}

/* A positive integer, or 2^K when pow2 is set. */
static long parse_count(const char *option, const char *text, int pow2)
{
    char *end;
    errno = 0;
    long v;
    if (pow2 && strncmp(text, "2^", 2) == 0) {
        v = strtol(text + 2, &end, 10);
        if (end == text + 2 || *end || errno || v < 0 || v > 62)
            bad_usage("%s expects a positive integer, got '%s'", option, text);
        return 1L << v;
    }
    v = strtol(text, &end, 10);
    if (end == text || *end || errno || v < 1)
        bad_usage("%s expects a positive integer, got '%s'", option, text);
    return v;
}

static void parse(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int has_value = !strcmp(a, "--algo") || !strcmp(a, "-n") || !strcmp(a, "-p") ||
                        !strcmp(a, "--reps") || !strcmp(a, "--seed") || !strcmp(a, "--constants") ||
                        !strcmp(a, "--wisdom");
        if (has_value && i + 1 >= argc)
            bad_usage("option %s needs a value", a);
        const char *v = has_value ? argv[++i] : NULL;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(usage, stdout);
            exit(0);
        } else if (!strcmp(a, "--algo")) {
            if (!strcmp(v, "dc"))
                opt.algo = ALGO_DC;
            else if (!strcmp(v, "bsp"))
                opt.algo = ALGO_BSP;
            else
                bad_usage("--algo expects dc or bsp, got '%s'", v);
        } else if (!strcmp(a, "-n")) {
            opt.n = parse_count("-n", v, 1);
            opt.n_given = 1;
        } else if (!strcmp(a, "-p")) {
            long p = parse_count("-p", v, 0);
            if (p > INT_MAX)
                bad_usage("%s expects a positive integer, got '%s'", "-p", v);
            opt.p = p;
        } else if (!strcmp(a, "--reps")) {
            long r = parse_count("--reps", v, 0);
            if (r > 100000)
                bad_usage("--reps expects at most 100000, got '%s'", v);
            opt.reps = (int)r;
        } else if (!strcmp(a, "--seed")) {
            char *end;
            errno = 0;
            opt.seed = strtoul(v, &end, 10);
            if (end == v || *end || errno || *v == '-')
                bad_usage("--seed expects an integer >= 0, got '%s'", v);
        } else if (!strcmp(a, "--constants")) {
            opt.constants = v;
        } else if (!strcmp(a, "--wisdom")) {
            opt.wisdom = v;
        } else if (!strcmp(a, "--inverse")) {
            opt.dir = FFT_INVERSE;
        } else if (!strcmp(a, "--check")) {
            opt.check = 1;
        } else if (!strcmp(a, "--time")) {
            opt.time = 1;
        } else if (!strcmp(a, "--trace")) {
            opt.trace = 1;
        } else if (!strcmp(a, "--measure")) {
            opt.fftw_flags = FFTW_MEASURE;
        } else if (!strcmp(a, "--calibrate")) {
            opt.calibrate = 1;
        } else {
            bad_usage("unknown option '%s' (see fft --help)", a);
        }
    }
}

/* The checks of fft_dc_supported / fft_bsp_supported, before any process starts. */
static void validate(void)
{
    char why[160];
    if (opt.constants && !opt.calibrate)
        bad_usage("--constants needs --calibrate");
    if (!fft_is_pow2(opt.n))
        bad_usage("n = %ld is not a power of two", opt.n);
    if (opt.n > (1L << FFT_MAX_LOG2))
        bad_usage("n = %ld exceeds the largest supported length 2^%d = %ld", opt.n, FFT_MAX_LOG2,
                  1L << FFT_MAX_LOG2);
    if (opt.calibrate)
        return;
    if (opt.p == 0)
        opt.p = bsp_nprocs();
    int ok = opt.algo == ALGO_DC ? fft_dc_supported(opt.n, opt.p, why, sizeof why)
                                 : fft_bsp_supported(opt.n, opt.p, why, sizeof why);
    if (!ok)
        bad_usage("%s", why);
}

/* ------------------------------------------------------------------ transforms */

typedef struct {
    fft_dc *dc;
    fft_bsp *bsp;
} transform;

static transform make(fft_dir dir, fftw_complex *x, fftw_complex *y)
{
    transform t = {NULL, NULL};
    if (opt.algo == ALGO_DC)
        t.dc = fft_dc_create(opt.n, dir, opt.fftw_flags, x, y);
    else
        t.bsp = fft_bsp_create(opt.n, dir, opt.fftw_flags, x, y);
    return t;
}

static void execute(transform t)
{
    if (t.dc)
        fft_dc_execute(t.dc);
    else
        fft_bsp_execute(t.bsp);
}

static void destroy(transform t)
{
    fft_dc_destroy(t.dc);
    fft_bsp_destroy(t.bsp);
}

/* The global index of local element t on process s. */
static long global_index(long t, int s, int p) { return opt.algo == ALGO_DC ? t : t * p + s; }

/* The whole vector on process 0 (NULL elsewhere): the dc algorithm already has
 * it; the bsp algorithm's cyclic pieces are fetched with bsp_hpget. */
static fftw_complex *whole_on_0(fftw_complex *local, long nlocal)
{
    int s = bsp_pid(), p = bsp_nprocs();
    if (opt.algo == ALGO_DC)
        return s == 0 ? local : NULL;
    fftw_complex *tmp = s == 0 ? fft_alloc((size_t)opt.n, "gather", 1) : NULL;
    int bytes = (int)(nlocal * (long)sizeof *local);
    bsp_push_reg(local, bytes);
    bsp_sync();
    for (int t = 0; s == 0 && t < p; t++)
        bsp_hpget(t, local, 0, tmp + t * nlocal, bytes);
    bsp_sync();
    bsp_pop_reg(local);
    if (s != 0)
        return NULL;
    fftw_complex *whole = fft_alloc((size_t)opt.n, "gather", 1);
    for (int t = 0; t < p; t++)
        for (long u = 0; u < nlocal; u++) {
            whole[u * p + t][0] = tmp[t * nlocal + u][0];
            whole[u * p + t][1] = tmp[t * nlocal + u][1];
        }
    fftw_free(tmp);
    return whole;
}

/* FNV-1a of the bytes of v: the dc result must be bitwise the same everywhere,
 * because partners copy results and every process combines the same data. */
static uint64_t hash(fftw_complex *v, long n)
{
    const unsigned char *b = (const unsigned char *)v;
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < (size_t)n * sizeof *v; i++)
        h = (h ^ b[i]) * 1099511628211ULL;
    return h;
}

/* 1 if every process's dc result equals process 0's (always 1 for bsp). */
static int same_everywhere(fftw_complex *y, long nlocal)
{
    if (opt.algo != ALGO_DC)
        return 1;
    int s = bsp_pid(), p = bsp_nprocs();
    uint64_t mine = hash(y, nlocal);
    uint64_t *all = malloc((size_t)p * sizeof *all);
    if (!all)
        bsp_abort("fft: out of memory for %d hashes", p);
    bsp_push_reg(all, p * (int)sizeof *all);
    bsp_sync();
    bsp_put(0, &mine, all, s * (int)sizeof mine, sizeof mine);
    bsp_sync();
    bsp_pop_reg(all);
    int same = 1;
    for (int t = 1; s == 0 && t < p; t++)
        same &= all[t] == all[0];
    free(all);
    return same;
}

/* Process 0 compares y with FFTW's transform of the whole input, and z (the
 * result transformed back) with the input. */
static void check(fftw_complex *y, fftw_complex *z, long nlocal)
{
    int same = same_everywhere(y, nlocal);
    fftw_complex *yw = whole_on_0(y, nlocal);
    fftw_complex *zw = whole_on_0(z, nlocal);
    if (bsp_pid() != 0)
        return;
    long n = opt.n;
    fftw_complex *x = fft_alloc((size_t)n, "reference input", 1);
    fftw_complex *ref = fft_alloc((size_t)n, "reference output", 1);
    fft_plan_lock();
    fftw_plan plan = fftw_plan_dft_1d((int)n, x, ref, opt.dir, FFTW_ESTIMATE);
    fft_plan_unlock();
    for (long j = 0; j < n; j++)
        fft_input(opt.seed, j, x[j]);
    fftw_execute(plan);
    if (opt.dir == FFT_INVERSE)
        for (long k = 0; k < n; k++) {
            ref[k][0] /= (double)n;
            ref[k][1] /= (double)n;
        }
    double err = fft_rel_error(yw, ref, n);
    double back = fft_rel_error(zw, x, n);
    int ok = err <= CHECK_LIMIT && back <= CHECK_LIMIT && same;
    printf("check: relative error vs FFTW %.3e (limit %.0e)\n", err, CHECK_LIMIT);
    printf("check: relative error of the round trip to the input %.3e (limit %.0e)\n", back,
           CHECK_LIMIT);
    if (opt.algo == ALGO_DC)
        printf("check: %s result on all P = %d processes\n", same ? "same" : "NOT the same",
               bsp_nprocs());
    printf("check: %s\n", ok ? "OK" : "FAILED");
    exit_status = ok ? 0 : 1;
    fft_plan_lock();
    fftw_destroy_plan(plan);
    fft_plan_unlock();
    fftw_free(x);
    fftw_free(ref);
    if (yw != y)
        fftw_free(yw);
    if (zw != z)
        fftw_free(zw);
}

/* Each run is timed from the sync before it to its own final sync; process 0
 * takes, per run, the max over processes, and prints the median over runs. */
static void time_runs(transform t)
{
    int s = bsp_pid(), p = bsp_nprocs(), reps = opt.reps;
    double *mine = malloc((size_t)reps * sizeof *mine);
    double *all = malloc((size_t)reps * (size_t)p * sizeof *all);
    if (!mine || !all)
        bsp_abort("fft: out of memory for %d timings", reps);
    execute(t); /* untimed: first touches of buffers and caches */
    for (int r = 0; r < reps; r++) {
        bsp_sync();
        double t0 = bsp_time();
        execute(t);
        mine[r] = bsp_time() - t0;
    }
    bsp_push_reg(all, reps * p * (int)sizeof *all);
    bsp_sync();
    bsp_put(0, mine, all, s * reps * (int)sizeof *all, reps * (int)sizeof *all);
    bsp_sync();
    bsp_pop_reg(all);
    if (s == 0) {
        for (int r = 0; r < reps; r++)
            for (int q = 1; q < p; q++)
                if (all[q * reps + r] > all[r])
                    all[r] = all[q * reps + r];
        fft_sort(all, (size_t)reps);
        printf("time: median %.6e s over %d runs (min %.6e s, max %.6e s)\n", all[reps / 2], reps,
               all[0], all[reps - 1]);
    }
    free(mine);
    free(all);
}

static void spmd(void)
{
    bsp_begin((int)opt.p);
    int s = bsp_pid(), p = bsp_nprocs();
    long nlocal = opt.algo == ALGO_DC ? opt.n : opt.n / p;
    fftw_complex *x = fft_alloc((size_t)nlocal, "input", 1);
    fftw_complex *y = fft_alloc((size_t)nlocal, "output", 1);
    fftw_complex *z = opt.check ? fft_alloc((size_t)nlocal, "round trip", 1) : NULL;

    /* Plans first: FFTW_MEASURE overwrites the arrays it plans for. */
    transform fwd = make(opt.dir, x, y);
    transform back = {NULL, NULL};
    if (opt.check)
        back = make(opt.dir == FFT_FORWARD ? FFT_INVERSE : FFT_FORWARD, y, z);
    for (long t = 0; t < nlocal; t++)
        fft_input(opt.seed, global_index(t, s, p), x[t]);
    if (s == 0)
        printf("fft: %s, n = %ld, P = %d, %s, FFTW_%s, seed %lu\n",
               opt.algo == ALGO_DC ? "dc" : "bsp", opt.n, p,
               opt.dir == FFT_FORWARD ? "forward" : "inverse",
               opt.fftw_flags == FFTW_MEASURE ? "MEASURE" : "ESTIMATE", opt.seed);

    bsp_sync();
    if (opt.time)
        time_runs(fwd);
    else
        execute(fwd);
    if (opt.trace) {
        bsp_sync();
        bsp_trace_begin();
        execute(fwd);
        bsp_trace_end();
    }
    if (opt.check) {
        execute(back);
        check(y, z, nlocal);
    }
    destroy(fwd);
    destroy(back);
    fftw_free(x);
    fftw_free(y);
    fftw_free(z);
    bsp_end();
}

static int calibrate(void)
{
    fft_constants c;
    if (fft_calibrate(opt.n_given ? fft_log2(opt.n) : 22, opt.fftw_flags, &c) != 0)
        return 1;
    fft_constants_print(stdout, &c);
    if (opt.constants) {
        char why[300];
        if (fft_constants_write(opt.constants, &c, why, sizeof why) != 0) {
            fprintf(stderr, "fft: %s\n", why);
            return 1;
        }
        printf("calibrate: constants written to %s\n", opt.constants);
    }
    return 0;
}

int main(int argc, char **argv)
{
    bsp_init(spmd, argc, argv);
    parse(argc, argv);
    validate();
    /* Wisdom is global to FFTW, so planning inside the SPMD section uses it;
     * a missing file is not an error (it is written at the end). */
    if (opt.wisdom)
        fftw_import_wisdom_from_filename(opt.wisdom);
    int status;
    if (opt.calibrate) {
        status = calibrate();
    } else {
        spmd();
        status = exit_status;
    }
    if (opt.wisdom && !fftw_export_wisdom_to_filename(opt.wisdom)) {
        fprintf(stderr, "fft: cannot write FFTW wisdom to %s\n", opt.wisdom);
        return 1;
    }
    return status;
}
