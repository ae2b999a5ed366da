/* fft_util.h — pieces shared by the parallel FFTs of examples/fft.
 *
 * Contract:
 *  - Vectors are fftw_complex arrays of length n = 2^k. A direction is
 *    FFT_FORWARD, y_k = sum_j x_j e^{-2 pi i jk/n}, or FFT_INVERSE,
 *    x_j = (1/n) sum_k y_k e^{+2 pi i jk/n}, so that the inverse undoes the forward
 *    transform (FFTW's backward transform is not scaled; ours is).
 *  - Read-only vectors are passed as plain fftw_complex pointers (as FFTW does):
 *    C11 cannot convert double (*)[2] to const double (*)[2] implicitly.
 *  - fft_plan_lock / fft_plan_unlock serialise FFTW's planner, which is not
 *    thread-safe, across the processes of a threads-engine run. Executing a plan
 *    needs no lock.
 *  - fft_input(seed, j) is element j of the deterministic test vector, uniform in
 *    [-1,1)^2: every process computes any element without communication, so each
 *    distribution generates its own share.
 *  - fft_alloc never returns NULL: it stops the run (bsp_abort inside the SPMD
 *    section, exit status 1 outside) with a line naming `what`.
 */
#ifndef POLYBSP_FFT_UTIL_H
#define POLYBSP_FFT_UTIL_H

#include <fftw3.h>
#include <stddef.h>

typedef enum { FFT_FORWARD = FFTW_FORWARD, FFT_INVERSE = FFTW_BACKWARD } fft_dir;

/* The largest supported length: 2^26 elements (1 GiB per vector). */
#define FFT_MAX_LOG2 26

void fft_plan_lock(void);
void fft_plan_unlock(void);

fftw_complex *fft_alloc(size_t count, const char *what, int in_spmd);

/* 1 if n is 2^k for some k >= 0. */
int fft_is_pow2(long n);
/* k for n = 2^k. */
int fft_log2(long n);

void fft_input(unsigned long seed, long j, fftw_complex out);

/* ||a - b||_2 / ||b||_2 over n elements (||a - b||_2 when b is zero). */
double fft_rel_error(fftw_complex *a, fftw_complex *b, long n);

/* w^e for w = e^{sign 2 pi i / n}, scaled by `scale`: e is reduced modulo n
 * before the angle is formed, so the result is accurate to a rounding error. */
void fft_root(long n, int sign, unsigned long long e, double scale, fftw_complex out);

/* Sorts v[0..n) in ascending order (timings: their median and extremes). */
void fft_sort(double *v, size_t n);

/* Flops of a radix-2 FFT of length m, as BSPedupack counts them: 5 m log2 m. */
double fft_flops(long m);

#endif /* POLYBSP_FFT_UTIL_H */
