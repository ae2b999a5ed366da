/* fft_dc.h — the divide-and-conquer FFT of the Collective Computing Model paper
 * (seeds/001, figure 4) on polybsp's groups.
 *
 * Contract:
 *  - Common-common: every process of the current group holds the whole input x
 *    (n elements) and receives the whole transform in y. Needs n = 2^k,
 *    P = bsp_nprocs() a power of two and n >= P (fft_dc_supported says why not).
 *  - fft_dc_create is called by every process of the group, outside any timed
 *    region: it allocates the division buffers and the twiddles and makes the
 *    FFTW plan of the local transform, bound to x and y like an FFTW plan.
 *    With FFTW_MEASURE, planning overwrites x and y: plan before filling x.
 *  - fft_dc_execute is collective. For a group of more than one process it
 *    splits x into even and odd terms (the division, D), runs the two halves on
 *    the two halves of the group with bsp_par (whose partners exchange the halves
 *    of the result, g and L) and combines them with the twiddles (V); a group of
 *    one process runs FFTW (F). Each phase is its own superstep and declares its
 *    flops with bsp_trace_ops; the call ends with bsp_sync. x is not modified;
 *    x == y is allowed.
 *  - The phase kernels are exposed so that calibration times the code that runs.
 */
#ifndef POLYBSP_FFT_DC_H
#define POLYBSP_FFT_DC_H

#include "fft_util.h"

#include <stddef.h>

typedef struct fft_dc fft_dc;

/* 1 if the algorithm supports (n, p); else 0 with the reason in why (the text
 * after "fft: "). */
int fft_dc_supported(long n, long p, char *why, size_t size);

fft_dc *fft_dc_create(long n, fft_dir dir, unsigned fftw_flags, fftw_complex *x, fftw_complex *y);
void fft_dc_execute(const fft_dc *plan);
void fft_dc_destroy(fft_dc *plan);

/* Division of a[0 .. 2m) into its even terms e[0 .. m) and odd terms o[0 .. m). */
void fft_dc_split(fftw_complex *a, fftw_complex *e, fftw_complex *o, long m);
/* Combination, in place: y[0 .. m) holds the transform E of the even terms,
 * y[m .. 2m) that O of the odd terms; afterwards y[k] = E[k] + w[k] O[k] and
 * y[k + m] = E[k] - w[k] O[k] (m butterflies, 10 flops each). */
void fft_dc_combine(fftw_complex *y, fftw_complex *w, long m);
/* w[k] = e^{sign 2 pi i k / (2m)} for k < m: the twiddles of a combination. */
void fft_dc_twiddles(fftw_complex *w, long m, int sign);

#endif /* POLYBSP_FFT_DC_H */
