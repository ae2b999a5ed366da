/* put_conflict_order.c — the conflicting-writes rule for bsp_put and bsp_get.
 * In one superstep, gets land first, then puts by increasing source pid, each
 * source's puts in the order it issued them; the last write wins.
 * Lower pids wait before issuing, so that a library applying puts in arrival
 * order would fail rather than pass by luck.
 */
#include "check.h"
#include <time.h>

static void stagger(int p, int n)
{
    struct timespec ts = {0, (long)(n - 1 - p) * 2000000L};
    nanosleep(&ts, NULL);
}

int main(void)
{
    bsp_begin(bsp_nprocs());
    int p = bsp_pid(), n = bsp_nprocs();

    int *x = check_alloc(sizeof(int));
    int *a = check_alloc((n + 3) * sizeof(int));
    int *y = check_alloc(sizeof(int));
    int *w = check_alloc(sizeof(int));
    *x = -1;
    for (int i = 0; i < n + 3; i++)
        a[i] = -1;
    *y = -1;
    *w = 7000 + p;
    bsp_push_reg(x, sizeof(int));
    bsp_push_reg(a, (n + 3) * sizeof(int));
    bsp_push_reg(y, sizeof(int));
    bsp_push_reg(w, sizeof(int));
    bsp_sync();

    stagger(p, n);
    /* Everyone writes x everywhere twice: the second put of the highest pid wins. */
    for (int q = 0; q < n; q++) {
        int first = p * 10, second = p * 10 + 1;
        bsp_put(q, &first, x, 0, sizeof(int));
        bsp_put(q, &second, x, 0, sizeof(int));
    }
    /* Overlapping ranges: p writes four copies of p at a[p..p+3]; a[i] ends as min(i, n-1). */
    int four[4] = {p, p, p, p};
    for (int q = 0; q < n; q++)
        bsp_put(q, four, a, p * sizeof(int), sizeof four);
    /* y: this process puts into its own y, then gets into it; the predecessor also
       puts into it. The get lands first whatever the issue order, then the puts
       by source pid. */
    int next = (p + 1) % n, prev = (p + n - 1) % n;
    int self = 100 + p, other = 200 + p;
    bsp_put(p, &self, y, 0, sizeof(int));
    bsp_get(next, w, 0, y, sizeof(int));
    bsp_put(next, &other, y, 0, sizeof(int));
    bsp_sync();

    CHECK_EQ(*x, (n - 1) * 10 + 1);
    for (int i = 0; i < n + 3; i++)
        CHECK_EQ(a[i], i < n - 1 ? i : n - 1);
    /* Puts into y come from p (self) and prev; the higher source pid wins, and
       with one process the later of its two puts. */
    CHECK_EQ(*y, n == 1 ? 200 + p : prev > p ? 200 + prev : 100 + p);

    bsp_pop_reg(w);
    bsp_pop_reg(y);
    bsp_pop_reg(a);
    bsp_pop_reg(x);
    bsp_sync();
    free(w);
    free(y);
    free(a);
    free(x);
    bsp_end();
    return 0;
}
