/* inprod.c — parallel inner product, in the style of BSPedupack's bspinprod.
 *
 * usage: inprod [n]     (n >= 1, default 100000; P from POLYBSP_NPROCS or the cores)
 * The vector x = (1, 2, ..., n) is distributed cyclically: process s owns the
 * x[i] with i mod p = s. Each process sums its part, puts the partial sum into
 * every process, and after one sync every process adds the p partial sums.
 * Process 0 prints x.x and checks it against the closed form n(n+1)(2n+1)/6;
 * the exit status is 1 if they differ. The supersteps declare their flops with
 * bsp_trace_ops, so that `polybsp predict --work ops` can predict a trace of it.
 *
 * As in BSPlib, only process 0 is guaranteed to run main before bsp_begin, so n
 * is read there and sent to the other processes with bsp_put.
 */
#include <bsp.h>
#include <polybsp.h>

#include <errno.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static int n_requested = 100000; /* set by main, valid on process 0 only */
static int check_failed;

/* Number of the n components that process s owns in the cyclic distribution. */
static int nloc(int p, int s, int n) { return (n + p - s - 1) / p; }

static double local_inprod(int nlocal, const double *x, const double *y)
{
    double sum = 0.0;
    for (int i = 0; i < nlocal; i++)
        sum += x[i] * y[i];
    return sum;
}

static void spmd(void)
{
    bsp_begin(bsp_nprocs());
    int p = bsp_nprocs();
    int s = bsp_pid();

    /* Superstep 0: process 0 broadcasts n. */
    int n = 0;
    bsp_push_reg(&n, sizeof n);
    bsp_sync();
    if (s == 0) {
        for (int t = 0; t < p; t++)
            bsp_put(t, &n_requested, &n, 0, sizeof n);
    }
    bsp_sync();
    bsp_pop_reg(&n);

    /* Superstep 1: local sums, sent to every process. */
    int nlocal = nloc(p, s, n);
    double *x = malloc((nlocal > 0 ? (size_t)nlocal : 1) * sizeof *x);
    double *partial = malloc((size_t)p * sizeof *partial);
    if (x == NULL || partial == NULL)
        bsp_abort("inprod: out of memory for %d components", nlocal);
    bsp_push_reg(partial, p * (int)sizeof *partial);
    bsp_sync();

    double start = bsp_time();
    for (int i = 0; i < nlocal; i++)
        x[i] = (double)i * p + s + 1; /* global index i*p+s holds the value i*p+s+1 */
    double mine = local_inprod(nlocal, x, x);
    bsp_trace_ops(4.0 * nlocal); /* a multiply and an add per component, to fill x and to sum */
    for (int t = 0; t < p; t++)
        bsp_put(t, &mine, partial, s * (int)sizeof mine, sizeof mine);
    bsp_sync();

    /* Superstep 2: every process adds the partial sums, in pid order. */
    double alpha = 0.0;
    for (int t = 0; t < p; t++)
        alpha += partial[t];
    bsp_trace_ops(p);
    double elapsed = bsp_time() - start;
    bsp_pop_reg(partial);
    bsp_sync();

    if (s == 0) {
        double dn = (double)n;
        double exact = dn * (dn + 1.0) * (2.0 * dn + 1.0) / 6.0;
        /* Summing n positive terms in any order is exact to within n rounding
         * errors, so a correct result differs by at most n * DBL_EPSILON * exact
         * (and is exact while the sums stay below 2^53, i.e. n up to 300000). */
        int ok = fabs(alpha - exact) <= dn * DBL_EPSILON * exact;
        printf("inprod: n = %d, p = %d\n", n, p);
        printf("inprod: x.x = %.0f\n", alpha);
        printf("inprod: closed form n(n+1)(2n+1)/6 = %.0f\n", exact);
        printf("inprod: %s\n", ok ? "OK" : "WRONG");
        printf("inprod: time %.6f s\n", elapsed);
        check_failed = !ok;
    }
    free(partial);
    free(x);
    bsp_end();
}

int main(int argc, char **argv)
{
    bsp_init(spmd, argc, argv);
    if (argc > 2) {
        fprintf(stderr, "usage: inprod [n]\n");
        return 2;
    }
    if (argc == 2) {
        char *end;
        errno = 0;
        long value = strtol(argv[1], &end, 10);
        if (end == argv[1] || *end != '\0' || errno != 0 || value < 1 || value > INT_MAX) {
            fprintf(stderr, "inprod: n must be an integer >= 1, got '%s'\n", argv[1]);
            return 2;
        }
        n_requested = (int)value;
    }
    spmd();
    return check_failed ? 1 : 0;
}
