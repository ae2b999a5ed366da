/* formula3_test — formula (3) of seeds/000, the MODEL row of the demo's table 14,
 * against sums done by hand.
 *
 * With D = 1e-9, F = 2e-9, V = 3e-9 (seconds), g = 1e-10 s/byte, L = 1e-5 s and
 * n = 1024 complex numbers (16 bytes each):
 *   P = 1: D·1024 + F·1024·10                     = 1.024e-6 + 2.048e-5 = 2.1504e-5
 *   P = 2: D·512 + F·512·9 + (L + g·16·512 + V·512)
 *        = 5.12e-7 + 9.216e-6 + (1e-5 + 8.192e-7 + 1.536e-6)       = 2.20832e-5
 *   P = 4: D·256 + F·256·8 + Σ over parts 256 and 512 of (L + g·16·part + V·part)
 *        = 2.56e-7 + 4.096e-6 + 2e-5 + g·16·768 + V·768
 *        = 2.56e-7 + 4.096e-6 + 2e-5 + 1.2288e-6 + 2.304e-6         = 2.78848e-5
 */
#include "fft_calib.h"

#include <math.h>
#include <stdio.h>

static int failures;

static void check(double got, double want, int P)
{
    if (!(fabs(got - want) <= 1e-12 * want)) {
        fprintf(stderr, "FAIL: formula (3) at P = %d is %.10g, expected %.10g\n", P, got, want);
        failures++;
    }
}

int main(void)
{
    fft_constants c = {.value = {[FFT_D] = 1e-9, [FFT_F] = 2e-9, [FFT_V] = 3e-9}};
    check(fft_formula3(&c, 1e-10, 1e-5, 1024, 1), 2.1504e-5, 1);
    check(fft_formula3(&c, 1e-10, 1e-5, 1024, 2), 2.20832e-5, 2);
    check(fft_formula3(&c, 1e-10, 1e-5, 1024, 4), 2.78848e-5, 4);
    if (failures)
        return 1;
    printf("formula3_test: OK\n");
    return 0;
}
