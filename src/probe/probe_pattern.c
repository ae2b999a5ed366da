/* probe_pattern — the five patterns as lists of messages (contract in probe_pattern.h). */
#include "probe/probe_pattern.h"

#include <stdlib.h>

/* Share k of total cut into n parts that differ by at most one byte, and where it starts. */
static long share(long total, long n, long k) { return total / n + (k < total % n); }
static long share_start(long total, long n, long k)
{
    return k * (total / n) + (k < total % n ? k : total % n);
}

/* Appends one logical message of nbytes, cut into split pieces. */
static size_t emit(probe_msg *out, size_t n, int dest, long src, long dst, long nbytes, int split)
{
    for (int k = 0; k < split; k++) {
        long piece = share(nbytes, split, k), at = share_start(nbytes, split, k);
        if (piece > 0)
            out[n++] = (probe_msg){dest, src + at, dst + at, piece};
    }
    return n;
}

size_t probe_max_messages(int P, int split) { return (size_t)(P - 1) * (size_t)split; }

size_t probe_messages(cost_pattern pattern, int P, int pid, long h, int split, probe_msg *out)
{
    size_t n = 0;
    switch (pattern) {
    case COST_EXCHANGE:
        if ((pid ^ 1) < P)
            n = emit(out, n, pid ^ 1, 0, 0, h / 2, split);
        break;
    case COST_PINGPONG:
        if (pid % 2 == 0 && pid + 1 < P)
            n = emit(out, n, pid + 1, 0, 0, h, split);
        break;
    case COST_ONETOALL:
        if (pid == 0)
            for (int j = 1; j < P; j++)
                n = emit(out, n, j, share_start(h, P - 1, j - 1), 0, share(h, P - 1, j - 1), split);
        break;
    case COST_ALLTOONE:
        if (pid != 0)
            n = emit(out, n, 0, 0, share_start(h, P - 1, pid - 1), share(h, P - 1, pid - 1), split);
        break;
    case COST_ALLTOALL:
        /* The paper's cyclic order i+1, i+2, ...; a receiver keeps the message from
         * distance k at the k-th share's place, so no two senders overlap. */
        for (int k = 1; k < P; k++) {
            long at = share_start(h / 2, P - 1, k - 1);
            n = emit(out, n, (pid + k) % P, at, at, share(h / 2, P - 1, k - 1), split);
        }
        break;
    case COST_NO_PATTERN: /* no messages */ break;
    }
    return n;
}

int probe_relation(cost_pattern pattern, int P, long h, int split, int sum, long *bytes, long *msgs)
{
    probe_msg *m = malloc(probe_max_messages(P, split) * sizeof *m + 1);
    long *count = calloc(4 * (size_t)P, sizeof *count); /* bytes out, in; messages out, in */
    if (m == NULL || count == NULL) {
        free(m);
        free(count);
        return -1;
    }
    for (int s = 0; s < P; s++) {
        size_t n = probe_messages(pattern, P, s, h, split, m);
        for (size_t i = 0; i < n; i++) {
            count[4 * s] += m[i].nbytes;
            count[4 * m[i].dest + 1] += m[i].nbytes;
            count[4 * s + 2]++;
            count[4 * m[i].dest + 3]++;
        }
    }
    *bytes = *msgs = 0;
    for (int s = 0; s < P; s++) {
        const long *c = count + 4 * s;
        long b = sum ? c[0] + c[1] : (c[0] > c[1] ? c[0] : c[1]);
        long k = sum ? c[2] + c[3] : (c[2] > c[3] ? c[2] : c[3]);
        if (b > *bytes)
            *bytes = b;
        if (k > *msgs)
            *msgs = k;
    }
    free(m);
    free(count);
    return 0;
}
