/* fft_bsp.h — a BSP FFT on the cyclic distribution: two phases of local FFTW
 * transforms with one all-to-all redistribution between them (the four-step or
 * "transpose" algorithm, with n = n1 * n2 for n1 = n/P and n2 = P).
 *
 * Contract:
 *  - n = 2^k and P = bsp_nprocs() with P dividing both n1 = n/P and n2 = P, that
 *    is P*P dividing n (fft_bsp_supported says why not).
 *  - Input and output are in the cyclic distribution: process s holds global
 *    elements s, s+P, s+2P, ...; its local element t is global element t*P + s.
 *    x and y are the local arrays of n/P elements; x is not modified unless
 *    x == y, which is allowed.
 *  - fft_bsp_create is collective and ends with bsp_sync (it registers the
 *    receive buffer); call it outside any timed region. With FFTW_MEASURE,
 *    planning overwrites x and y: plan before filling x.
 *  - fft_bsp_execute is collective and made of two supersteps: (1) one local FFT
 *    of length n/P, the twiddles, and P puts of n/P^2 elements; (2) n/P^2 local
 *    FFTs of length P. Each declares its flops with bsp_trace_ops; the call ends
 *    with bsp_sync.
 *  - fft_bsp_destroy is collective (it pops the registration and syncs).
 */
#ifndef POLYBSP_FFT_BSP_H
#define POLYBSP_FFT_BSP_H

#include "fft_util.h"

#include <stddef.h>

typedef struct fft_bsp fft_bsp;

/* 1 if the algorithm supports (n, p); else 0 with the reason in why (the text
 * after "fft: "). */
int fft_bsp_supported(long n, long p, char *why, size_t size);

fft_bsp *fft_bsp_create(long n, fft_dir dir, unsigned fftw_flags, fftw_complex *x, fftw_complex *y);
void fft_bsp_execute(const fft_bsp *plan);
void fft_bsp_destroy(fft_bsp *plan);

#endif /* POLYBSP_FFT_BSP_H */
