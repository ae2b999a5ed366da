/* fft_bsp.c — see fft_bsp.h.
 *
 * Process s holds x_s[t] = x[t*P + s], t < N = n/P. For k < N and q < P,
 *   y[k + N q] = sum_s w_P^(s q) (w_n^(s k) Y_s[k]),   Y_s = DFT_N(x_s):
 * phase 1 is one contiguous FFT of length N per process, and phase 2 DFTs of
 * length P across the processes. Because P divides N, y[k + N q] lies on process
 * k mod P in the cyclic distribution, at local index u + M q for k = u P + t and
 * M = N/P. So process s sends to process t the twiddled Y_s[u P + t], u < M: the
 * twiddle pass writes them packed as S[t][u], and one put per destination moves
 * each block to R[s][u] on t. Phase 2 reads R[.][u] with stride M and writes y
 * with stride M: M FFTW transforms of length P. Choosing n1 = n/P (rather than
 * n1 = n2 = sqrt n) keeps the large transform contiguous and the puts few.
 */
#include "fft_bsp.h"

#include <bsp.h>
#include <polybsp.h>

#include <stdio.h>
#include <stdlib.h>

struct fft_bsp {
    long nloc, m; /* nloc = N = n/P elements per process; m = M = N/P per destination */
    int p;
    fftw_complex *y;
    fftw_complex *s;  /* the packed, twiddled phase-1 result: source of the puts */
    fftw_complex *r;  /* registered: R[src][u] */
    fftw_complex *tw; /* tw[k] = w_n^(s k), times 1/n for the inverse */
    fftw_plan local, across;
    double ops1, ops2;
};

int fft_bsp_supported(long n, long p, char *why, size_t size)
{
    if (!fft_is_pow2(n))
        snprintf(why, size, "n = %ld is not a power of two", n);
    else if (n < p)
        snprintf(why, size, "n = %ld is smaller than P = %ld", n, p);
    else if (n % (p * p) != 0)
        snprintf(why, size, "--algo bsp needs n to be a multiple of P*P = %ld, got n = %ld", p * p,
                 n);
    else
        return 1;
    return 0;
}

fft_bsp *fft_bsp_create(long n, fft_dir dir, unsigned fftw_flags, fftw_complex *x, fftw_complex *y)
{
    char why[160];
    int p = bsp_nprocs(), s = bsp_pid();
    if (!fft_bsp_supported(n, p, why, sizeof why))
        bsp_abort("fft: %s", why);
    fft_bsp *pl = calloc(1, sizeof *pl);
    if (!pl)
        bsp_abort("fft: out of memory for the plan of the bsp FFT");
    long nloc = n / p, m = nloc / p;
    pl->nloc = nloc;
    pl->m = m;
    pl->p = p;
    pl->y = y;
    pl->s = fft_alloc((size_t)nloc, "bsp send", 1);
    pl->r = fft_alloc((size_t)nloc, "bsp receive", 1);
    pl->tw = fft_alloc((size_t)nloc, "bsp twiddles", 1);
    double scale = dir == FFT_INVERSE ? 1.0 / (double)n : 1.0;
    for (long k = 0; k < nloc; k++)
        fft_root(n, dir, (unsigned long long)s * (unsigned long long)k, scale, pl->tw[k]);

    /* Phase 1 writes y, which is free until phase 2 writes the result. */
    int len = (int)nloc, howmany = (int)m;
    fft_plan_lock();
    pl->local = fftw_plan_dft_1d(len, x, y, dir, fftw_flags);
    pl->across = fftw_plan_many_dft(1, &p, howmany, pl->r, NULL, howmany, 1, y, NULL, howmany, 1,
                                    dir, fftw_flags);
    fft_plan_unlock();
    if (!pl->local || !pl->across)
        bsp_abort("fft: FFTW could not plan the local transforms of lengths %d and %d", len, p);
    pl->ops1 = fft_flops(nloc) + 6.0 * (double)nloc;
    pl->ops2 = (double)m * fft_flops(p);

    bsp_push_reg(pl->r, (int)((size_t)nloc * sizeof *pl->r));
    bsp_sync();
    return pl;
}

void fft_bsp_execute(const fft_bsp *pl)
{
    const long m = pl->m;
    const int p = pl->p, s = bsp_pid();
    const int block = (int)(m * (long)sizeof(fftw_complex));

    /* Superstep 1: the local FFT, then S[t][u] = Y[u P + t] * tw[u P + t], then
     * one bsp_hpput per destination (S is not touched again before the sync). */
    fftw_execute(pl->local);
    fftw_complex *yv = pl->y;
    for (long u = 0, k = 0; u < m; u++)
        for (int t = 0; t < p; t++, k++) {
            fftw_complex *d = pl->s + t * m + u;
            (*d)[0] = yv[k][0] * pl->tw[k][0] - yv[k][1] * pl->tw[k][1];
            (*d)[1] = yv[k][0] * pl->tw[k][1] + yv[k][1] * pl->tw[k][0];
        }
    bsp_trace_ops(pl->ops1);
    for (int t = 0; t < p; t++)
        bsp_hpput(t, pl->s + t * m, pl->r, s * block, block);
    bsp_sync();

    /* Superstep 2: the DFTs of length P across the processes. */
    fftw_execute(pl->across);
    bsp_trace_ops(pl->ops2);
    bsp_sync();
}

void fft_bsp_destroy(fft_bsp *pl)
{
    if (!pl)
        return;
    bsp_pop_reg(pl->r);
    bsp_sync();
    fft_plan_lock();
    fftw_destroy_plan(pl->local);
    fftw_destroy_plan(pl->across);
    fft_plan_unlock();
    fftw_free(pl->s);
    fftw_free(pl->r);
    fftw_free(pl->tw);
    free(pl);
}
