/* irregular — a BSP program whose communication pattern is irregular, for the
 * cost models: in each of R supersteps every process sends a random number of
 * puts of random sizes to random processes (the same seeded choice on every run)
 * and does local work proportional to what it received in the previous one. Some
 * processes carry far more than others, so h varies between supersteps and the
 * in-partners of EBSP differ per process.
 *
 * usage: irregular [ROUNDS [SEED]]   (default 40 rounds, seed 1)
 * Prints a checksum that the same P, ROUNDS and SEED always reproduce. Each
 * round declares its work as words read (bsp_trace_ops_of, for `predict
 * --work ops`).
 */
#include <bsp.h>
#include <polybsp.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_BYTES = 1 << 16, SLOT = MAX_BYTES }; /* bytes per incoming slot */

static int rounds = 40;
static unsigned seed = 1;

/* xorshift: the same sequence on every process for the same state. */
static unsigned next_random(unsigned *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 17;
    *s ^= *s << 5;
    return *s;
}

static void spmd(void)
{
    bsp_begin(bsp_nprocs());
    int p = bsp_nprocs(), s = bsp_pid();
    int params[2] = {rounds, (int)seed};
    bsp_push_reg(params, sizeof params);
    bsp_sync();
    if (s == 0)
        for (int q = 1; q < p; q++)
            bsp_put(q, params, params, 0, sizeof params);
    bsp_sync();
    int R = params[0];
    unsigned state = (unsigned)params[1] * 2654435761u + (unsigned)s * 40503u + 1u;

    /* One incoming slot per sender, so puts never overlap. */
    unsigned char *in = calloc((size_t)p, SLOT), *out = malloc(MAX_BYTES);
    if (!in || !out)
        bsp_abort("irregular: out of memory");
    for (int i = 0; i < MAX_BYTES; i++)
        out[i] = (unsigned char)(i * 7 + s);
    bsp_push_reg(in, (int)((size_t)p * SLOT));
    bsp_sync();

    unsigned long checksum = 0;
    for (int r = 0; r < R; r++) {
        /* Work: touch what arrived, more for busier processes. */
        for (size_t i = 0; i < (size_t)p * SLOT; i += 16)
            checksum = checksum * 31 + in[i];
        /* one word read (a byte of it) per 16 bytes, with a multiply and an add */
        bsp_trace_ops_of(POLYBSP_OPS_WORD, (double)p * SLOT / 16);
        int heavy = (s + r) % 4 == 0; /* a rotating quarter of the processes is busy */
        int nputs = (int)(next_random(&state) % (heavy ? 8 : 2));
        for (int k = 0; k < nputs; k++) {
            int dest = (int)(next_random(&state) % (unsigned)p);
            int bytes = 8 + (int)(next_random(&state) % (heavy ? MAX_BYTES - 8 : 1024));
            bsp_put(dest, out, in, s * SLOT, bytes);
        }
        bsp_sync();
    }
    unsigned long all = checksum;
    unsigned long *sums = calloc((size_t)p, sizeof *sums);
    bsp_push_reg(sums, (int)(p * sizeof *sums));
    bsp_sync();
    bsp_put(0, &all, sums, s * (int)sizeof all, sizeof all);
    bsp_sync();
    if (s == 0) {
        unsigned long total = 0;
        for (int q = 0; q < p; q++)
            total ^= sums[q];
        printf("irregular: P = %d, %d rounds, checksum %lx\n", p, R, total);
    }
    bsp_pop_reg(sums);
    bsp_pop_reg(in);
    bsp_pop_reg(params);
    bsp_sync();
    free(sums);
    free(in);
    free(out);
    bsp_end();
}

int main(int argc, char **argv)
{
    bsp_init(spmd, argc, argv);
    if (argc > 1)
        rounds = atoi(argv[1]);
    if (argc > 2)
        seed = (unsigned)strtoul(argv[2], NULL, 10);
    if (rounds < 1) {
        fprintf(stderr, "irregular: ROUNDS must be a positive integer\n");
        return 2;
    }
    spmd();
    return 0;
}
