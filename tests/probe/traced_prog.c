/* traced_prog — a small program with every structure D-BSP and CCM charge, for
 * `polybsp predict --model dbsp|ccm` against a machine file the probe wrote.
 *
 * On 4 processes (run with POLYBSP_TRACE set): a plain superstep with puts, a
 * partition into 2 parts of 2 (level 1) in which each part runs an allreduce
 * and a plain superstep, the rejoin, a broadcast and a bsp_par on 2 parts.
 * Prints "traced_prog: OK" when the collectives gave the right values.
 */
#include <polybsp.h>

#include <stdio.h>
#include <string.h>

static void add_longs(void *acc, const void *in, size_t nbytes)
{
    long a, b;
    for (size_t at = 0; at + sizeof a <= nbytes; at += sizeof a) {
        memcpy(&a, (char *)acc + at, sizeof a);
        memcpy(&b, (const char *)in + at, sizeof b);
        a += b;
        memcpy((char *)acc + at, &a, sizeof a);
    }
}

static void task(int part, void *result, void *arg)
{
    (void)arg;
    long v = 10 + part;
    memcpy(result, &v, sizeof v);
}

static void spmd(void)
{
    bsp_begin(4);
    int s = (int)bsp_pid(), P = (int)bsp_nprocs(), ok = 1;
    long x = s, left = -1;
    bsp_push_reg(&left, (bsp_size_t)sizeof left);
    bsp_sync();
    bsp_put((bsp_pid_t)((s + 1) % P), &x, &left, 0, (bsp_size_t)sizeof x);
    bsp_sync();
    ok &= left == (s + P - 1) % P;

    int part = bsp_partition(2, NULL);
    long sum = 0;
    bsp_allreduce(&x, &sum, sizeof x, add_longs);
    ok &= sum == (part == 0 ? 0 + 1 : 2 + 3);
    bsp_sync();
    bsp_rejoin();

    char buf[64];
    memset(buf, s == 0 ? 'b' : 0, sizeof buf);
    bsp_bcast(0, buf, sizeof buf);
    ok &= buf[63] == 'b';

    long results[2] = {0, 0};
    bsp_par(2, NULL, task, NULL, results, sizeof(long));
    ok &= results[0] == 10 && results[1] == 11;
    bsp_pop_reg(&left);
    if (!ok)
        bsp_abort("traced_prog: wrong result on process %d", s);
    bsp_sync();
    if (s == 0)
        printf("traced_prog: OK\n");
    bsp_end();
}

int main(int argc, char **argv)
{
    bsp_init(spmd, argc, argv);
    spmd();
    return 0;
}
