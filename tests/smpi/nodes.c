/* nodes.c — a program whose supersteps stay inside nodes, then cross them, for
 * issue 11's test of D-BSP on a cluster of multi-core nodes (cluster-16x8,
 * P = 16: ranks 0-7 on node-0, 8-15 on node-1).
 *
 * usage: nodes H ROUNDS   (H even: bytes in + out per process and superstep)
 * ROUNDS supersteps in which process s swaps H/2 bytes with s XOR 1 (inside a
 * node: a D-BSP superstep of clusters of two), then ROUNDS in which it swaps
 * with s XOR P/2 (across the halves: level 0), all traced. Checks every byte;
 * prints "nodes: P = p, h = H, R + R rounds, OK".
 */
#include <bsp.h>
#include <polybsp.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    bsp_begin(bsp_nprocs());
    int P = (int)bsp_nprocs(), s = (int)bsp_pid();
    long h = argc > 2 ? atol(argv[1]) : 0, rounds = argc > 2 ? atol(argv[2]) : 0;
    if (h < 2 || h % 2 || rounds < 1 || P < 2 || P % 2) {
        if (s == 0)
            fprintf(stderr, "usage: nodes H ROUNDS (H even, ROUNDS >= 1, P even)\n");
        bsp_end();
        return 2;
    }
    size_t half = (size_t)h / 2;
    char *out = malloc(half), *in = malloc(half);
    if (!out || !in)
        bsp_abort("nodes: out of memory");
    memset(out, 'a' + s % 26, half);
    bsp_push_reg(in, (bsp_size_t)half);
    bsp_sync();
    int bad = 0;
    bsp_trace_begin();
    for (int phase = 0; phase < 2; phase++) {
        int partner = phase == 0 ? s ^ 1 : s ^ (P / 2);
        for (long r = 0; r < rounds; r++) {
            bsp_put(partner, out, in, 0, (bsp_size_t)half);
            bsp_sync();
            bad |= in[0] != 'a' + partner % 26 || in[half - 1] != 'a' + partner % 26;
        }
    }
    bsp_trace_end();
    if (bad)
        bsp_abort("nodes: process %d received wrong bytes", s);
    if (s == 0)
        printf("nodes: P = %d, h = %ld, %ld + %ld rounds, OK\n", P, h, rounds, rounds);
    bsp_pop_reg(in);
    free(out);
    free(in);
    bsp_end();
    return 0;
}
