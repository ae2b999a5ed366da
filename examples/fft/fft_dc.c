/* fft_dc.c — see fft_dc.h.
 *
 * Level i (0 <= i < L, P = 2^L) works on vectors of n_i = n / 2^i elements with
 * a group of P / 2^i processes; level L is the local FFT. The result of level i
 * is built in place in its output: bsp_par's results buffer is that output, so
 * the even half lands in its first half and the odd half in its second, and the
 * combination rewrites it. Only the divisions need buffers of their own.
 */
#include "fft_dc.h"

#include <bsp.h>
#include <polybsp.h>

#include <stdio.h>
#include <stdlib.h>

struct fft_dc {
    long n;
    int levels;
    fft_dir dir;
    fftw_complex *x, *y;
    fftw_complex **split; /* split[i]: the even and odd terms of level i's input */
    fftw_complex **tw;    /* tw[i]: the n_i / 2 twiddles of level i's combination */
    fftw_plan leaf;
    /* Where this process's local FFT reads and writes; fixed by the block policy. */
    fftw_complex *leaf_in, *leaf_out;
};

struct level_arg {
    const fft_dc *plan;
    int level;
};

int fft_dc_supported(long n, long p, char *why, size_t size)
{
    if (!fft_is_pow2(n))
        snprintf(why, size, "n = %ld is not a power of two", n);
    else if (n < p)
        snprintf(why, size, "n = %ld is smaller than P = %ld", n, p);
    else if (!fft_is_pow2(p))
        snprintf(why, size, "--algo dc needs P to be a power of two, got P = %ld", p);
    else
        return 1;
    return 0;
}

void fft_dc_split(fftw_complex *a, fftw_complex *e, fftw_complex *o, long m)
{
    for (long k = 0; k < m; k++) {
        e[k][0] = a[2 * k][0];
        e[k][1] = a[2 * k][1];
        o[k][0] = a[2 * k + 1][0];
        o[k][1] = a[2 * k + 1][1];
    }
}

void fft_dc_combine(fftw_complex *y, fftw_complex *w, long m)
{
    fftw_complex *o = y + m;
    for (long k = 0; k < m; k++) {
        double tr = w[k][0] * o[k][0] - w[k][1] * o[k][1];
        double ti = w[k][0] * o[k][1] + w[k][1] * o[k][0];
        double er = y[k][0], ei = y[k][1];
        y[k][0] = er + tr;
        y[k][1] = ei + ti;
        o[k][0] = er - tr;
        o[k][1] = ei - ti;
    }
}

void fft_dc_twiddles(fftw_complex *w, long m, int sign)
{
    for (long k = 0; k < m; k++)
        fft_root(2 * m, sign, (unsigned long long)k, 1.0, w[k]);
}

static void leaf(const fft_dc *pl, fftw_complex *in, fftw_complex *out)
{
    /* The plan was made for the buffers the block policy gives this process. */
    if (in != pl->leaf_in || out != pl->leaf_out)
        bsp_abort("fft: process %d: the group split differs from the block policy", bsp_pid());
    fftw_execute(pl->leaf);
    long m = pl->n >> pl->levels;
    double ops = fft_flops(m);
    if (pl->dir == FFT_INVERSE) {
        double s = 1.0 / (double)pl->n;
        for (long k = 0; k < m; k++) {
            out[k][0] *= s;
            out[k][1] *= s;
        }
        ops += 2.0 * (double)m;
    }
    bsp_trace_ops(ops);
}

static void level_fft(const fft_dc *pl, int i, fftw_complex *in, fftw_complex *out);

static void half_task(int part, void *result, void *arg)
{
    const struct level_arg *a = arg;
    long m = a->plan->n >> (a->level + 1);
    level_fft(a->plan, a->level + 1, a->plan->split[a->level] + part * m, result);
}

static void level_fft(const fft_dc *pl, int i, fftw_complex *in, fftw_complex *out)
{
    if (i == pl->levels) {
        leaf(pl, in, out);
        return;
    }
    long m = pl->n >> (i + 1);
    /* Division superstep: bsp_par's partition ends it. */
    fft_dc_split(in, pl->split[i], pl->split[i] + m, m);
    struct level_arg a = {pl, i};
    bsp_par(2, NULL, half_task, &a, out, (size_t)m * sizeof(fftw_complex));
    /* Combination superstep: ended by the enclosing rejoin, or by the final sync. */
    fft_dc_combine(out, pl->tw[i], m);
    bsp_trace_ops(10.0 * (double)m);
}

void fft_dc_execute(const fft_dc *plan)
{
    level_fft(plan, 0, plan->x, plan->y);
    bsp_sync();
}

fft_dc *fft_dc_create(long n, fft_dir dir, unsigned fftw_flags, fftw_complex *x, fftw_complex *y)
{
    char why[160];
    long p = bsp_nprocs();
    if (!fft_dc_supported(n, p, why, sizeof why))
        bsp_abort("fft: %s", why);
    fft_dc *pl = calloc(1, sizeof *pl);
    int levels = fft_log2(p);
    if (pl) {
        pl->split = calloc((size_t)levels + 1, sizeof *pl->split);
        pl->tw = calloc((size_t)levels + 1, sizeof *pl->tw);
    }
    if (!pl || !pl->split || !pl->tw)
        bsp_abort("fft: out of memory for the plan of the dc FFT");
    pl->n = n;
    pl->levels = levels;
    pl->dir = dir;
    pl->x = x;
    pl->y = y;

    /* Follow the block policy down to this process's leaf: at each level the
     * lower half of the group's pids is part 0 (the even terms). */
    fftw_complex *in = x, *out = y;
    long group = p, q = bsp_pid();
    for (int i = 0; i < levels; i++) {
        long m = n >> (i + 1);
        pl->split[i] = fft_alloc((size_t)(2 * m), "dc division", 1);
        pl->tw[i] = fft_alloc((size_t)m, "dc twiddles", 1);
        fft_dc_twiddles(pl->tw[i], m, dir);
        int part = q >= group / 2;
        q -= part * (group / 2);
        group /= 2;
        in = pl->split[i] + part * m;
        out += part * m;
    }
    pl->leaf_in = in;
    pl->leaf_out = out;
    fft_plan_lock();
    pl->leaf = fftw_plan_dft_1d((int)(n >> levels), in, out, dir, fftw_flags);
    fft_plan_unlock();
    if (!pl->leaf)
        bsp_abort("fft: FFTW could not plan a transform of length %ld", n >> levels);
    return pl;
}

void fft_dc_destroy(fft_dc *plan)
{
    if (!plan)
        return;
    fft_plan_lock();
    fftw_destroy_plan(plan->leaf);
    fft_plan_unlock();
    for (int i = 0; i < plan->levels; i++) {
        fftw_free(plan->split[i]);
        fftw_free(plan->tw[i]);
    }
    free(plan->split);
    free(plan->tw);
    free(plan);
}
