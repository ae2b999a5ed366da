/* soak — does memory stay flat over a million supersteps?
 *
 * Usage: soak [SUPERSTEPS] (default 1000000), at P = POLYBSP_NPROCS (4 unless
 * set). Every superstep each process puts 64 bytes to its right neighbour, gets
 * 64 bytes from its left one and sends it a 16-byte message with a 4-byte tag,
 * then reads the message at the next. The resident set size (VmRSS of
 * /proc/self/status: the whole program on threads, each rank on MPI, where the
 * largest of the ranks is shown) is sampled at every tenth of the run. The
 * baseline is the sample after the first tenth (buffers have grown to their
 * working size by then); the run is flat when no later sample exceeds it by more
 * than 5 %. Prints the samples, the verdict, and exits 0 (flat) or 1 (grew).
 */
#include <polybsp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { SAMPLES = 10, BYTES = 64, PAYLOAD = 16 };

static long steps = 1000000;

/* kB resident, or -1 when /proc cannot tell. */
static long rss_kb(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    if (!f)
        return -1;
    char line[256];
    long kb = -1;
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, "VmRSS:", 6))
            kb = atol(line + 6);
    fclose(f);
    return kb;
}

/* The largest RSS of the processes (on threads all see the same); a superstep. */
static long largest_rss(long *all, int p, int P)
{
    long kb = rss_kb(), top = 0;
    for (int q = 0; q < P; q++)
        bsp_put(q, &kb, all, (size_t)p * sizeof kb, sizeof kb);
    bsp_sync();
    for (int q = 0; q < P; q++)
        top = all[q] > top ? all[q] : top;
    return top;
}

static void spmd(void)
{
    bsp_begin(getenv("POLYBSP_NPROCS") ? bsp_nprocs() : 4);
    int p = (int)bsp_pid(), P = (int)bsp_nprocs();
    char *in = calloc(BYTES, 1), *out = calloc(BYTES, 1), *got = calloc(BYTES, 1);
    long *rss = calloc(SAMPLES + 1, sizeof *rss);
    long *all = calloc((size_t)P, sizeof *all);
    if (!in || !out || !got || !rss || !all)
        bsp_abort("soak: out of memory");
    bsp_push_reg(in, BYTES);
    bsp_push_reg(out, BYTES);
    bsp_push_reg(all, (size_t)P * sizeof *all);
    bsp_size_t tag = sizeof(int);
    bsp_set_tagsize(&tag);
    bsp_sync();
    double t0 = bsp_time();
    for (long s = 0, next = 0; s < steps; s++) {
        if (s == next * (steps / SAMPLES))
            rss[next++] = largest_rss(all, p, P);
        memset(out, (int)(s & 0xff), BYTES);
        bsp_put((p + 1) % P, out, in, 0, BYTES);
        bsp_get((p + P - 1) % P, out, 0, got, BYTES);
        int key = (int)s;
        char payload[PAYLOAD] = {0};
        bsp_send((p + P - 1) % P, &key, payload, PAYLOAD);
        /* The get reads the left neighbour's out before this superstep's puts
         * land; the message arrives at the sync. */
        bsp_sync();
        bsp_nprocs_t nmsgs;
        bsp_size_t nbytes;
        bsp_qsize(&nmsgs, &nbytes);
        if (nmsgs != 1)
            bsp_abort("soak: superstep %ld brought %d messages, not 1", s, (int)nmsgs);
        bsp_move(payload, PAYLOAD);
    }
    rss[SAMPLES] = largest_rss(all, p, P);
    double t = bsp_time() - t0;
    if (p == 0) {
        printf("soak: %ld supersteps at P = %d on the %s engine in %.1f s (%.2f us each)\n", steps,
               P, SOAK_ENGINE, t, 1e6 * t / (double)steps);
        printf("soak: RSS (kB, largest process) at each tenth:");
        for (int i = 0; i <= SAMPLES; i++)
            printf(" %ld", rss[i]);
        long base = rss[1], top = base;
        for (int i = 2; i <= SAMPLES; i++)
            top = rss[i] > top ? rss[i] : top;
        double growth = base > 0 ? 100.0 * (double)(top - base) / (double)base : 0;
        printf("\nsoak: from the first tenth on, RSS grew by %.2f %% (%ld kB): %s\n", growth,
               top - base, growth <= 5 ? "flat within 5 %" : "NOT flat within 5 %");
        fflush(stdout);
        if (growth > 5)
            bsp_abort("soak: memory grew by %.2f %%", growth);
    }
    bsp_pop_reg(all);
    bsp_pop_reg(out);
    bsp_pop_reg(in);
    bsp_sync();
    free(all);
    free(rss);
    free(got);
    free(out);
    free(in);
    bsp_end();
}

int main(int argc, char **argv)
{
    if (argc > 2 || (argc == 2 && (steps = atol(argv[1])) < SAMPLES)) {
        fprintf(stderr, "usage: %s [SUPERSTEPS >= %d]\n", argv[0], SAMPLES);
        return 2;
    }
    bsp_init(spmd, argc, argv);
    spmd();
    return 0;
}
