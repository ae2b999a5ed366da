/* patterns.c — h-relations of two of paper 000's patterns, repeated: a program
 * whose cost is all communication and synchronisation, for the cost models.
 *
 * usage: patterns exchange|pingpong H [ROUNDS]   (H even, >= 2; default 20 rounds)
 *   exchange  processes 0 and 1, 2 and 3, ... swap H/2 bytes (an odd P leaves
 *             the last one idle): in + out = H on every busy process;
 *   pingpong  processes 0, 2, 4, ... send H bytes to the next one.
 * Each round is one superstep of bsp_put. P from POLYBSP_NPROCS or the cores.
 * Prints "patterns: PATTERN, P = p, h = H, R rounds, OK" when every byte
 * arrived; exit status 1 otherwise, 2 on bad arguments.
 *
 * As in BSPlib, only process 0 is guaranteed to run main before bsp_begin, so
 * the arguments are sent to the other processes with bsp_put.
 */
#include <bsp.h>
#include <polybsp.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int args[3] = {0, 0, 20}; /* pattern (0 exchange, 1 pingpong), H, rounds: process 0's */
static int failed;

static void spmd(void)
{
    bsp_begin(bsp_nprocs());
    int p = bsp_nprocs(), s = bsp_pid();
    int mine[3];
    bsp_push_reg(mine, sizeof mine);
    bsp_sync();
    if (s == 0)
        for (int t = 0; t < p; t++)
            bsp_put(t, args, mine, 0, sizeof args);
    bsp_sync();
    bsp_pop_reg(mine);
    int pingpong = mine[0], h = mine[1], rounds = mine[2];

    /* Who sends how much to whom: the partner, or nobody. */
    int partner = pingpong ? (s % 2 == 0 ? s + 1 : -1) : s ^ 1;
    int bytes = partner >= 0 && partner < p ? (pingpong ? h : h / 2) : 0;
    int from = pingpong ? (s % 2 == 1 ? s - 1 : -1) : s ^ 1;
    int expect = from >= 0 && from < p ? (pingpong ? h : h / 2) : 0;
    char *out = malloc((size_t)h), *in = calloc(1, (size_t)h);
    if (!out || !in)
        bsp_abort("patterns: out of memory for %d bytes", h);
    memset(out, s + 1, (size_t)h);
    bsp_push_reg(in, h);
    bsp_sync();
    for (int r = 0; r < rounds; r++) {
        if (bytes > 0)
            bsp_put(partner, out, in, 0, bytes);
        bsp_trace_ops(0); /* all communication: `predict --work ops` charges no work */
        bsp_sync();
    }
    int ok = 1;
    for (int i = 0; i < expect; i++)
        ok &= in[i] == (char)(from + 1);
    int verdict = 1, zero = 0; /* process 0's verdict; a process that misses bytes clears it */
    bsp_push_reg(&verdict, sizeof verdict);
    bsp_sync();
    if (!ok)
        bsp_put(0, &zero, &verdict, 0, sizeof zero);
    bsp_sync();
    if (s == 0) {
        failed = !verdict;
        printf("patterns: %s, P = %d, h = %d, %d rounds, %s\n", pingpong ? "pingpong" : "exchange",
               p, h, rounds, failed ? "WRONG" : "OK");
    }
    bsp_pop_reg(&verdict);
    bsp_pop_reg(in);
    bsp_sync();
    free(out);
    free(in);
    bsp_end();
}

static int parse(const char *text, long least, int *out)
{
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (end == text || *end != '\0' || errno != 0 || v < least || v > INT_MAX)
        return -1;
    *out = (int)v;
    return 0;
}

int main(int argc, char **argv)
{
    bsp_init(spmd, argc, argv);
    if (argc < 3 || argc > 4 || (strcmp(argv[1], "exchange") != 0 && strcmp(argv[1], "pingpong"))) {
        fprintf(stderr, "usage: patterns exchange|pingpong H [ROUNDS]\n");
        return 2;
    }
    args[0] = strcmp(argv[1], "pingpong") == 0;
    if (parse(argv[2], 2, &args[1]) != 0 || args[1] % 2 != 0) {
        fprintf(stderr, "patterns: H must be an even integer >= 2, got '%s'\n", argv[2]);
        return 2;
    }
    if (argc == 4 && parse(argv[3], 1, &args[2]) != 0) {
        fprintf(stderr, "patterns: ROUNDS must be an integer >= 1, got '%s'\n", argv[3]);
        return 2;
    }
    spmd();
    return failed ? 1 : 0;
}
