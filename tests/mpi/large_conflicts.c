/* large_conflicts — random supersteps of puts and hpputs (1 byte to 200 KB, crossing
 * the MPI engine's thresholds), conflicting offsets, gets and sends; prints a checksum
 * per process. Both engines must print the same: the conflict rule is the same. */
#include <bsp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
enum { N = 400000 };
static uint64_t rng(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}
static uint64_t sum(const unsigned char *p, size_t n)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 1099511628211ull;
    }
    return h;
}
int main(void)
{
    bsp_begin(bsp_nprocs());
    int p = bsp_pid(), P = bsp_nprocs();
    unsigned char *A = calloc(N, 1), *S = malloc(N), *G = calloc(N, 1), *M = malloc(N);
    bsp_push_reg(A, N);
    int ts = 8;
    bsp_set_tagsize(&ts);
    bsp_sync();
    static const long sizes[] = {1,    8,     64,    100,   4096,  8191,   8192,
                                 9000, 30000, 65535, 65536, 70000, 150000, N / 2};
    for (int step = 0; step < 40; step++) {
        uint64_t st = 0x9e3779b97f4a7c15ull * (uint64_t)(p + 1) + (uint64_t)step * 7919u + 1;
        for (int i = 0; i < N; i++)
            S[i] = (unsigned char)(i * 31 + p * 7 + step);
        int nops = 1 + rng(&st) % 12;
        for (int k = 0; k < nops; k++) {
            int kind = rng(&st) % 4;
            int q = rng(&st) % P;
            long n = sizes[rng(&st) % 14];
            long off = rng(&st) % (N - n + 1);
            long so = rng(&st) % (N - n + 1);
            if (kind == 0)
                bsp_put(q, S + so, A, off, n);
            else if (kind == 1)
                bsp_hpput(q, S + so, A, off, n);
            else if (kind == 2) {
                if (rng(&st) % 2)
                    bsp_get(q, A, so, G + off, n);
                else
                    bsp_hpget(q, A, so, G + off, n);
            } else {
                uint64_t tag = step * 1000 + k;
                bsp_send(q, &tag, S + so, n > 70000 ? 70000 : n);
            }
        }

        bsp_sync();
        int nm, nb;
        bsp_qsize(&nm, &nb);
        uint64_t qh = 0;
        for (int m = 0; m < nm; m++) {
            int len;
            uint64_t tag;
            bsp_get_tag(&len, &tag);
            bsp_move(M, len);
            qh = qh * 31 + sum(M, len) + tag;
        }
        printf("step %d pid %d A %016llx G %016llx Q %d %016llx\n", step, p,
               (unsigned long long)sum(A, N), (unsigned long long)sum(G, N), nm,
               (unsigned long long)qh);
    }
    bsp_end();
    return 0;
}
