/* scale_perm — the random destination of each superstep of bench/smpi's
 * sparse program, shared by scale_bsp.c and its plain-MPI twin scale_mpi.c,
 * which must draw the same.
 *
 * Contract: perm_of fills perm[0..P) with the permutation of superstep k
 * (xorshift, Fisher-Yates), the same on every process and in both programs.
 */
#ifndef POLYBSP_SCALE_PERM_H
#define POLYBSP_SCALE_PERM_H

#include <stdint.h>

static inline void perm_of(int P, unsigned k, int *perm)
{
    uint64_t x = 0x9e3779b97f4a7c15u ^ ((uint64_t)k * 0x2545f4914f6cdd1du);
    for (int i = 0; i < P; i++)
        perm[i] = i;
    for (int i = P - 1; i > 0; i--) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        int j = (int)(x % (uint64_t)(i + 1));
        int t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
}

#endif
