/* fft_calib.h — the constants of the dc FFT's cost formula, fitted by timing its
 * phases on one process at several sizes (least squares, as table 13 of seeds/000).
 *
 * Contract:
 *  - fft_calibrate times, for m = 2^lo, 2^(lo+1), ..., 2^hi with lo = max(hi-6, 4)
 *    (the lengths from a vector of n = 2^hi down to the leaves of P = 64):
 *      D: fft_dc_split of a vector of m elements      (seconds per element divided)
 *      F: an FFTW transform of length m (fftw_flags)  (seconds per m log2 m)
 *      V: fft_dc_combine of m elements, m/2 butterflies (seconds per butterfly)
 *    each as the median of several batches, and fits each constant c of t = c*x
 *    by least squares through the origin. It runs on the calling thread only
 *    (no BSP calls); it returns 0, or -1 after printing one line if memory ran out.
 *  - fft_constants_json prints the JSON file described in docs/fft.md to f;
 *    fft_constants_write writes it to path: 0 on success, -1 with the reason in
 *    why.
 */
#ifndef POLYBSP_FFT_CALIB_H
#define POLYBSP_FFT_CALIB_H

#include <stddef.h>
#include <stdio.h>

#define FFT_CALIB_MAX_SIZES 16

enum { FFT_D, FFT_F, FFT_V, FFT_NCONST };

typedef struct {
    unsigned fftw_flags;
    int nsizes;
    long size[FFT_CALIB_MAX_SIZES];
    double x[FFT_NCONST][FFT_CALIB_MAX_SIZES];       /* the work measure of each sample */
    double seconds[FFT_NCONST][FFT_CALIB_MAX_SIZES]; /* median time of one call */
    double value[FFT_NCONST];                        /* the fitted constants */
    double max_rel_error[FFT_NCONST];                /* max |t - c x| / t over the sizes */
} fft_constants;

int fft_calibrate(int hi, unsigned fftw_flags, fft_constants *c);
/* Formula (3) of seeds/000, the time of the dc FFT of n elements on P = 2^k
 * processes, from the constants alone (nothing measured from a run):
 *     T = D·(n/P) + F·(n/P)·log2(n/P) + Σ_{i=0}^{log2 P − 1} (L + g·h_i + V·n·2^i/P)
 * with h_i = n·2^i/P elements of FFT_ELEMENT_BYTES each (g is per byte). */
double fft_formula3(const fft_constants *c, double g, double L, long n, int P);

#define FFT_ELEMENT_BYTES 16 /* one complex double */
void fft_constants_print(FILE *out, const fft_constants *c);
void fft_constants_json(FILE *f, const fft_constants *c);
int fft_constants_write(const char *path, const fft_constants *c, char *why, size_t size);

#endif /* POLYBSP_FFT_CALIB_H */
