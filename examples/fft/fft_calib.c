/* fft_calib.c — see fft_calib.h. */
#include "fft_calib.h"

#include "fft_dc.h"
#include "fft_util.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define BATCHES 9
#define MIN_BATCH_SECONDS 10e-3

static const char *const names[FFT_NCONST] = {"D", "F", "V"};
static const char *const units[FFT_NCONST] = {"seconds per element divided",
                                              "seconds per m*log2(m) of a local FFT of length m",
                                              "seconds per butterfly of a combination"};

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

struct kernel {
    int which;
    long m;
    fftw_complex *a, *b, *w;
    fftw_plan plan;
};

static void run(const struct kernel *k)
{
    switch (k->which) {
    case FFT_D: fft_dc_split(k->a, k->b, k->b + k->m / 2, k->m / 2); break;
    case FFT_F: fftw_execute(k->plan); break;
    default: fft_dc_combine(k->b, k->w, k->m / 2); break;
    }
}

/* Median over BATCHES of the time per call, with batches long enough for the
 * clock; one untimed call first so that page faults are not measured. */
static double time_kernel(const struct kernel *k)
{
    run(k);
    long calls = 1;
    for (;;) {
        double t0 = now();
        for (long i = 0; i < calls; i++)
            run(k);
        if (now() - t0 >= MIN_BATCH_SECONDS || calls >= (1L << 24))
            break;
        calls *= 2;
    }
    double t[BATCHES];
    for (int b = 0; b < BATCHES; b++) {
        double t0 = now();
        for (long i = 0; i < calls; i++)
            run(k);
        t[b] = (now() - t0) / (double)calls;
    }
    fft_sort(t, BATCHES);
    return t[BATCHES / 2];
}

int fft_calibrate(int hi, unsigned fftw_flags, fft_constants *c)
{
    memset(c, 0, sizeof *c);
    c->fftw_flags = fftw_flags;
    int lo = hi - 6 > 4 ? hi - 6 : (hi < 4 ? hi : 4);
    long max = 1L << hi;
    fftw_complex *a = fftw_malloc((size_t)max * sizeof *a);
    fftw_complex *b = fftw_malloc((size_t)max * sizeof *b);
    fftw_complex *w = fftw_malloc((size_t)(max / 2 + 1) * sizeof *w);
    if (!a || !b || !w) {
        fprintf(stderr, "fft: out of memory for calibration vectors of %ld elements\n", max);
        fftw_free(a);
        fftw_free(b);
        fftw_free(w);
        return -1;
    }
    for (int e = lo; e <= hi && c->nsizes < FFT_CALIB_MAX_SIZES; e++) {
        long m = 1L << e;
        int i = c->nsizes++;
        c->size[i] = m;
        struct kernel k = {0, m, a, b, w, NULL};
        /* FFTW_MEASURE overwrites the arrays while planning: plan first. */
        k.plan = fftw_plan_dft_1d((int)m, a, b, FFTW_FORWARD, fftw_flags);
        for (long j = 0; j < m; j++)
            fft_input(1, j, a[j]);
        /* The combination's time does not depend on the twiddles' values. True
         * twiddles would grow the data by sqrt(2) per call, to overflow over a
         * long batch; with w = -1/2 each butterfly has eigenvalues on the unit
         * circle, so repeated calls keep the data bounded. */
        for (long j = 0; j < m / 2; j++) {
            w[j][0] = -0.5;
            w[j][1] = 0.0;
        }
        for (int which = 0; which < FFT_NCONST; which++) {
            k.which = which;
            c->seconds[which][i] = time_kernel(&k);
        }
        c->x[FFT_D][i] = (double)m;
        c->x[FFT_F][i] = (double)m * e;
        c->x[FFT_V][i] = (double)m / 2;
        fftw_destroy_plan(k.plan);
    }
    fftw_free(a);
    fftw_free(b);
    fftw_free(w);

    for (int which = 0; which < FFT_NCONST; which++) {
        double sxt = 0, sxx = 0;
        for (int i = 0; i < c->nsizes; i++) {
            sxt += c->x[which][i] * c->seconds[which][i];
            sxx += c->x[which][i] * c->x[which][i];
        }
        double v = sxx > 0 ? sxt / sxx : 0;
        c->value[which] = v;
        for (int i = 0; i < c->nsizes; i++) {
            double t = c->seconds[which][i];
            double err = t > 0 ? fabs(t - v * c->x[which][i]) / t : 0;
            if (err > c->max_rel_error[which])
                c->max_rel_error[which] = err;
        }
    }
    return 0;
}

/* FFTW_MEASURE is 0: the planning flag is "measure" unless FFTW_ESTIMATE is set. */
static const char *flag_name(const fft_constants *c, int upper)
{
    int estimate = (c->fftw_flags & FFTW_ESTIMATE) != 0;
    return upper ? (estimate ? "ESTIMATE" : "MEASURE") : (estimate ? "estimate" : "measure");
}

double fft_formula3(const fft_constants *c, double g, double L, long n, int P)
{
    double m = (double)n / P;
    double t = c->value[FFT_D] * m + c->value[FFT_F] * m * log2(m);
    for (double part = m; part < (double)n; part *= 2) /* part = n·2^i/P */
        t += L + g * FFT_ELEMENT_BYTES * part + c->value[FFT_V] * part;
    return t;
}

void fft_constants_print(FILE *out, const fft_constants *c)
{
    fprintf(out, "calibrate: one process, FFTW_%s, sizes 2^%d .. 2^%d\n", flag_name(c, 1),
            fft_log2(c->size[0]), fft_log2(c->size[c->nsizes - 1]));
    fprintf(out, "calibrate: %10s %12s %6s %12s %6s %12s %6s\n", "m", "D phase (s)", "fit",
            "F phase (s)", "fit", "V phase (s)", "fit");
    for (int i = 0; i < c->nsizes; i++) {
        fprintf(out, "calibrate: %10ld", c->size[i]);
        /* fit: how far the fitted line is from this sample, relative to it */
        for (int which = 0; which < FFT_NCONST; which++) {
            double t = c->seconds[which][i], model = c->value[which] * c->x[which][i];
            fprintf(out, " %12.4e %+5.0f%%", t, t > 0 ? 100 * (model - t) / t : 0.0);
        }
        fputc('\n', out);
    }
    for (int which = 0; which < FFT_NCONST; which++)
        fprintf(out, "calibrate: %s = %.4e %s (largest fit error %.0f%%)\n", names[which],
                c->value[which], units[which], 100 * c->max_rel_error[which]);
}

void fft_constants_json(FILE *f, const fft_constants *c)
{
    char host[256] = "unknown", date[64] = "unknown";
    if (gethostname(host, sizeof host) != 0)
        strcpy(host, "unknown");
    host[sizeof host - 1] = '\0';
    time_t t = time(NULL);
    struct tm tm;
    if (gmtime_r(&t, &tm))
        strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &tm);

    fprintf(f, "{\n  \"format\": \"polybsp-fft-constants\",\n  \"version\": 1,\n");
    fprintf(f, "  \"host\": \"");
    for (const char *h = host; *h; h++) /* host names need no escaping, but be safe */
        fputc(*h == '"' || *h == '\\' ? '_' : *h, f);
    fprintf(f, "\",\n  \"date\": \"%s\",\n", date);
    fprintf(f, "  \"fftw_flags\": \"%s\",\n", flag_name(c, 0));
    for (int which = 0; which < FFT_NCONST; which++)
        fprintf(f, "  \"%s\": %.6e,\n", names[which], c->value[which]);
    fprintf(f, "  \"units\": {");
    for (int which = 0; which < FFT_NCONST; which++)
        fprintf(f, "%s\"%s\": \"%s\"", which ? ", " : "", names[which], units[which]);
    fprintf(f, "},\n  \"max_rel_error\": {");
    for (int which = 0; which < FFT_NCONST; which++)
        fprintf(f, "%s\"%s\": %.4f", which ? ", " : "", names[which], c->max_rel_error[which]);
    fprintf(f, "},\n  \"samples\": [\n");
    for (int i = 0; i < c->nsizes; i++)
        fprintf(f, "    {\"m\": %ld, \"D\": %.6e, \"F\": %.6e, \"V\": %.6e}%s\n", c->size[i],
                c->seconds[FFT_D][i], c->seconds[FFT_F][i], c->seconds[FFT_V][i],
                i + 1 < c->nsizes ? "," : "");
    fprintf(f, "  ]\n}\n");
}

int fft_constants_write(const char *path, const fft_constants *c, char *why, size_t size)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        snprintf(why, size, "cannot write %s: %s", path, strerror(errno));
        return -1;
    }
    fft_constants_json(f, c);
    int failed = ferror(f);
    if (fclose(f) != 0 || failed) {
        snprintf(why, size, "cannot write %s: %s", path, strerror(errno));
        return -1;
    }
    return 0;
}
