/* pattern_test — the five patterns are exactly the h-relations they claim to be.
 *
 * For every pattern, P, size and split: max over processes of (in + out) is h and
 * of max(in, out) is h/2 (Exchange, AllToAll) or h (the others); no two messages
 * write the same byte of a receiver; every range lies inside the h-byte buffers;
 * no process sends to itself; the messages keep the paper's shape (who sends).
 */
#include "probe/probe_pattern.h"

#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void check(cost_pattern pat, int P, long h, int split)
{
    probe_msg *m = malloc(probe_max_messages(P, split) * sizeof *m);
    unsigned char *written = calloc((size_t)P * (size_t)h, 1);
    long *out = calloc((size_t)P, sizeof *out), *in = calloc((size_t)P, sizeof *in);
    long *nout = calloc((size_t)P, sizeof *nout);
    if (!m || !written || !out || !in || !nout) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    for (int s = 0; s < P; s++) {
        size_t n = probe_messages(pat, P, s, h, split, m);
        CHECKF(n <= probe_max_messages(P, split), "pattern %d P %d h %ld", pat, P, h);
        for (size_t i = 0; i < n; i++) {
            CHECKF(m[i].dest >= 0 && m[i].dest < P && m[i].dest != s, "dest %d from %d", m[i].dest,
                   s);
            CHECKF(m[i].nbytes > 0, "empty message");
            CHECKF(m[i].src_off >= 0 && m[i].src_off + m[i].nbytes <= h, "source range");
            CHECKF(m[i].dst_off >= 0 && m[i].dst_off + m[i].nbytes <= h, "destination range");
            for (long b = 0; b < m[i].nbytes && m[i].dst_off + m[i].nbytes <= h; b++) {
                unsigned char *w =
                    &written[(size_t)m[i].dest * (size_t)h + (size_t)(m[i].dst_off + b)];
                CHECKF(!*w, "pattern %d P %d h %ld split %d: byte %ld of %d written twice", pat, P,
                       h, split, m[i].dst_off + b, m[i].dest);
                *w = 1;
            }
            out[s] += m[i].nbytes;
            in[m[i].dest] += m[i].nbytes;
            nout[s]++;
        }
    }
    long hsum = 0, hmax = 0;
    for (int s = 0; s < P; s++) {
        hsum = out[s] + in[s] > hsum ? out[s] + in[s] : hsum;
        long mx = out[s] > in[s] ? out[s] : in[s];
        hmax = mx > hmax ? mx : hmax;
    }
    long want_max = pat == COST_EXCHANGE || pat == COST_ALLTOALL ? h / 2 : h;
    CHECKF(hsum == h, "pattern %d P %d h %ld split %d: h with @ = sum is %ld", pat, P, h, split,
           hsum);
    CHECKF(hmax == want_max, "pattern %d P %d h %ld split %d: h with @ = max is %ld", pat, P, h,
           split, hmax);
    long bytes, msgs;
    CHECKF(probe_relation(pat, P, h, split, 1, &bytes, &msgs) == 0 && bytes == h, "relation sum");
    CHECKF(probe_relation(pat, P, h, split, 0, &bytes, &msgs) == 0 && bytes == want_max,
           "relation max");

    /* Who sends, as the paper defines the patterns. */
    for (int s = 0; s < P; s++) {
        int sends = nout[s] > 0;
        switch (pat) {
        case COST_EXCHANGE:
            CHECKF(sends == ((s ^ 1) < P), "Exchange: %d sends %d", s, sends);
            break;
        case COST_PINGPONG:
            CHECKF(sends == (s % 2 == 0 && s + 1 < P), "PingPong: %d sends %d", s, sends);
            break;
        case COST_ONETOALL: CHECKF(sends == (s == 0), "OneToAll: %d sends %d", s, sends); break;
        case COST_ALLTOONE:
            /* Shares of h may be empty only when h < P - 1. */
            CHECKF(s == 0 ? !sends : (sends || h < P - 1), "AllToOne: %d sends %d", s, sends);
            break;
        case COST_ALLTOALL: CHECKF(sends, "AllToAll: %d sends nothing", s); break;
        case COST_NO_PATTERN: CHECKF(!sends, "no pattern: %d sends", s); break;
        }
    }
    free(m);
    free(written);
    free(out);
    free(in);
    free(nout);
}

int main(void)
{
    static const long sizes[] = {2, 4, 8, 14, 64, 512, 1000, 6720};
    static const int splits[] = {1, 3, 16};
    for (int pat = 0; pat < COST_NPATTERNS; pat++)
        for (int P = 2; P <= 9; P++)
            for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++)
                for (size_t j = 0; j < sizeof splits / sizeof splits[0]; j++)
                    check((cost_pattern)pat, P, sizes[k], splits[j]);

    /* BSP*: k pieces per message, k messages each way in an Exchange. */
    long bytes, msgs;
    CHECKF(probe_relation(COST_EXCHANGE, 2, 8192, 64, 1, &bytes, &msgs) == 0 && bytes == 8192 &&
               msgs == 128,
           "Exchange split 64, @ = sum: %ld bytes, %ld messages", bytes, msgs);
    CHECKF(probe_relation(COST_EXCHANGE, 2, 8192, 64, 0, &bytes, &msgs) == 0 && bytes == 4096 &&
               msgs == 64,
           "Exchange split 64, @ = max: %ld bytes, %ld messages", bytes, msgs);
    CHECKF(probe_relation(COST_ALLTOALL, 4, 6720, 1, 1, &bytes, &msgs) == 0 && msgs == 6,
           "AllToAll P 4: %ld messages in and out", msgs);
    if (failures) {
        fprintf(stderr, "%d failures\n", failures);
        return 1;
    }
    printf("pattern_test: OK\n");
    return 0;
}
