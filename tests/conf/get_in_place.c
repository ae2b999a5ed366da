/* get_in_place.c — bsp_get reads every source before any get writes (BSPlib).
 * The standard says a get reads the value its source holds at the end of the
 * superstep, before any get of that superstep writes its destination, "including
 * those due to the bsp_get of the process on which the source resides".
 * Checks, each in one superstep:
 *  - reversal in place: a block-distributed array of P*N ints is reversed with one
 *    get per element into the same registered array (the standard's example);
 *  - swap: each process gets its neighbour's value into the registered variable
 *    the neighbour reads from it, and the two halves of a local array are swapped
 *    by two gets from oneself;
 *  - shift: a get from oneself whose destination overlaps its own source reads the
 *    source as it was (memmove-like, not a forward copy);
 *  - issue order: two gets to one destination, the later one wins, even when the
 *    superstep also has conflicting gets;
 *  - gets and puts: the puts of the superstep still land after the gets' values.
 */
#include "check.h"

enum { N = 1000, HALF = 64 };

static int original(int global_index) { return 7 * global_index + 3; }

static void check_reversal(int p, int n)
{
    int *a = check_alloc(N * sizeof(int));
    for (int j = 0; j < N; j++)
        a[j] = original(p * N + j);
    bsp_push_reg(a, N * sizeof(int));
    bsp_sync();

    int total = n * N;
    for (int j = 0; j < N; j++) {
        int from = total - 1 - (p * N + j);
        bsp_get(from / N, a, (size_t)(from % N) * sizeof(int), a + j, sizeof(int));
    }
    bsp_sync();
    for (int j = 0; j < N; j++)
        CHECK_EQ(a[j], original(total - 1 - (p * N + j)));

    bsp_pop_reg(a);
    bsp_sync();
    free(a);
}

static void check_swaps(int p, int n)
{
    int x = 100 + p;
    int *halves = check_alloc(2 * HALF * sizeof(int));
    for (int i = 0; i < 2 * HALF; i++)
        halves[i] = 1000 * p + i;
    bsp_push_reg(&x, sizeof x);
    bsp_push_reg(halves, 2 * HALF * sizeof(int));
    bsp_sync();

    /* A ring of swaps: every process reads the variable the previous one writes. */
    bsp_get((p + 1) % n, &x, 0, &x, sizeof x);
    bsp_get(p, halves, HALF * sizeof(int), halves, HALF * sizeof(int));
    bsp_get(p, halves, 0, halves + HALF, HALF * sizeof(int));
    bsp_sync();
    CHECK_EQ(x, 100 + (p + 1) % n);
    for (int i = 0; i < HALF; i++) {
        CHECK_EQ(halves[i], 1000 * p + HALF + i);
        CHECK_EQ(halves[HALF + i], 1000 * p + i);
    }

    bsp_pop_reg(halves);
    bsp_pop_reg(&x);
    bsp_sync();
    free(halves);
}

static void check_shift_order_and_puts(int p, int n)
{
    int *a = check_alloc(N * sizeof(int));
    int *target = check_alloc(sizeof(int));
    for (int j = 0; j < N; j++)
        a[j] = j;
    *target = -1;
    bsp_push_reg(a, N * sizeof(int));
    bsp_push_reg(target, sizeof(int));
    bsp_sync();

    /* a[1..N) <- old a[0..N-1): a forward copy would smear a[0] everywhere. */
    bsp_get(p, a, 0, a + 1, (N - 1) * sizeof(int));
    /* Two gets into one local variable: the later one (issue order) wins. */
    int last = -1;
    bsp_get(p, a, 10 * sizeof(int), &last, sizeof(int));
    bsp_get(p, a, 20 * sizeof(int), &last, sizeof(int));
    /* A put into a[0] lands after the gets have read it. */
    int marker = -7;
    bsp_put(p, &marker, a, 0, sizeof(int));
    /* The next process reads our target before our put to it lands. */
    bsp_get((p + 1) % n, target, 0, target, sizeof(int));
    int mine = 500 + p;
    bsp_put((p + 1) % n, &mine, target, 0, sizeof(int));
    bsp_sync();

    CHECK_EQ(a[0], -7);
    for (int j = 1; j < N; j++)
        CHECK_EQ(a[j], j - 1);
    CHECK_EQ(last, 20);
    /* Our get wrote -1 (the neighbour's old value), then the put from p-1 landed. */
    CHECK_EQ(*target, 500 + (p + n - 1) % n);

    bsp_pop_reg(target);
    bsp_pop_reg(a);
    bsp_sync();
    free(target);
    free(a);
}

int main(void)
{
    bsp_begin(bsp_nprocs());
    int p = bsp_pid(), n = bsp_nprocs();
    check_reversal(p, n);
    check_swaps(p, n);
    check_shift_order_and_puts(p, n);
    bsp_end();
    return 0;
}
