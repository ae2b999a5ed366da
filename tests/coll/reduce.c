/* reduce.c — bsp_reduce (every root), bsp_allreduce and bsp_scan against a
 * sequential reference, for vectors from 0 elements to sizes that take the tree
 * algorithms, with user combine functions: 64-bit sum, double max, and 2x2
 * integer matrix product (associative, not commutative: checks pid order).
 * Also: in place (src == dst), non-root dst untouched or NULL, fn always called
 * with the whole nbytes, and floating-point allreduce results bitwise identical
 * on every process.
 */
#include "coll_test.h"

#include <math.h>
#include <stdio.h>

static _Thread_local size_t expect_nbytes;
static _Thread_local int bad_nbytes;

static void sum_u64(void *acc, const void *in, size_t nbytes)
{
    bad_nbytes |= nbytes != expect_nbytes;
    uint64_t *a = acc;
    const uint64_t *b = in;
    for (size_t i = 0; i < nbytes / 8; i++)
        a[i] += b[i];
}

static void max_f64(void *acc, const void *in, size_t nbytes)
{
    bad_nbytes |= nbytes != expect_nbytes;
    double *a = acc;
    const double *b = in;
    for (size_t i = 0; i < nbytes / 8; i++)
        if (b[i] > a[i])
            a[i] = b[i];
}

/* Elements are 2x2 matrices (a b; c d) of uint64 (arithmetic mod 2^64). */
static void matmul(void *acc, const void *in, size_t nbytes)
{
    bad_nbytes |= nbytes != expect_nbytes;
    uint64_t *a = acc;
    const uint64_t *b = in;
    for (size_t i = 0; i + 4 <= nbytes / 8; i += 4) {
        uint64_t r0 = a[i] * b[i] + a[i + 1] * b[i + 2], r1 = a[i] * b[i + 1] + a[i + 1] * b[i + 3];
        uint64_t r2 = a[i + 2] * b[i] + a[i + 3] * b[i + 2];
        uint64_t r3 = a[i + 2] * b[i + 1] + a[i + 3] * b[i + 3];
        a[i] = r0, a[i + 1] = r1, a[i + 2] = r2, a[i + 3] = r3;
    }
}

static void sum_f64(void *acc, const void *in, size_t nbytes)
{
    bad_nbytes |= nbytes != expect_nbytes;
    double *a = acc;
    const double *b = in;
    for (size_t i = 0; i < nbytes / 8; i++)
        a[i] += b[i];
}

typedef struct op {
    const char *name;
    bsp_combine_fn fn;
    size_t elem; /* bytes per element */
} op;

static const op ops[] = {{"sum_u64", sum_u64, 8}, {"max_f64", max_f64, 8}, {"matmul", matmul, 32}};
/* Element counts; after them, one that puts (P-1)*n just above 4 MiB, so that
 * every algorithm shape of docs/collectives.md, section 4, runs at every P. */
static const size_t counts[] = {0, 1, 3, 17, 64, 700, 20000};
enum { NCOUNTS = sizeof counts / sizeof counts[0] };

/* Process q's operand: 64-bit words every process can recompute. */
static void operand(const op *o, void *buf, size_t n, int q, long salt)
{
    uint64_t *w = buf;
    for (size_t i = 0; i < n / 8; i++) {
        uint64_t x = ((uint64_t)q << 40 ^ (uint64_t)i << 8 ^ (uint64_t)salt) * 0x9E3779B97F4A7C15u;
        x ^= x >> 31;
        if (o->fn == max_f64) {
            double d = (double)(x >> 11) * (q % 2 ? -1.0 : 1.0);
            memcpy(&w[i], &d, 8);
        } else {
            w[i] = x;
        }
    }
}

/* src(0) (+) ... (+) src(last), folded left in pid order. */
static void reference(const op *o, void *ref, void *tmp, size_t n, int last, long salt)
{
    operand(o, ref, n, 0, salt);
    for (int q = 1; q <= last; q++) {
        operand(o, tmp, n, q, salt);
        o->fn(ref, tmp, n);
    }
}

static void check_same(const void *got, const void *want, size_t n, const char *what)
{
    if (n && memcmp(got, want, n) != 0)
        bsp_abort("CONFORMANCE FAILURE %s:%d: %s differs from the reference", __FILE__, __LINE__,
                  what);
}

int main(void)
{
    bsp_begin(bsp_nprocs());
    int p = bsp_nprocs(), me = bsp_pid();
    size_t big = ((size_t)4 << 20) / (size_t)(p > 1 ? p - 1 : 1) + 32;
    size_t max = big > 20000 * 32 ? big : 20000 * 32;
    char *src = check_alloc(max), *dst = check_alloc(max), *ref = check_alloc(max);
    char *tmp = check_alloc(max), *all = check_alloc(20000 * 8 * (size_t)p);
    char what[96];
    for (size_t oi = 0; oi < sizeof ops / sizeof ops[0]; oi++)
        for (size_t ci = 0; ci <= NCOUNTS; ci++) {
            const op *o = &ops[oi];
            size_t n = ci < NCOUNTS ? counts[ci] * o->elem : big / o->elem * o->elem;
            long salt = (long)(oi * 10 + ci);
            expect_nbytes = n;
            bad_nbytes = 0;

            reference(o, ref, tmp, n, p - 1, salt);
            for (int root = 0; root < p; root++) {
                for (int inplace = 0; inplace < 2; inplace++) {
                    operand(o, src, n, me, salt);
                    memset(dst, COLL_JUNK, n);
                    void *d = inplace ? src : dst;
                    /* Non-roots: dst ignored, whether NULL or not. */
                    if (me != root && (root + inplace) % 2)
                        d = NULL;
                    bsp_reduce(root, src, d, n, o->fn);
                    snprintf(what, sizeof what, "%s reduce root %d n %zu%s", o->name, root, n,
                             inplace ? " in place" : "");
                    if (me == root)
                        check_same(d, ref, n, what);
                    else if (!inplace && d)
                        COLL_CHECK_BYTES(dst, n, COLL_JUNK, what);
                    if (!inplace || me != root) {
                        operand(o, tmp, n, me, salt);
                        check_same(src, tmp, n, "reduce changed src");
                    }
                }
            }

            for (int inplace = 0; inplace < 2; inplace++) {
                operand(o, src, n, me, salt);
                memset(dst, COLL_JUNK, n);
                void *d = inplace ? src : dst;
                bsp_allreduce(src, d, n, o->fn);
                snprintf(what, sizeof what, "%s allreduce n %zu%s", o->name, n,
                         inplace ? " in place" : "");
                check_same(d, ref, n, what);
            }

            reference(o, ref, tmp, n, me, salt);
            for (int inplace = 0; inplace < 2; inplace++) {
                operand(o, src, n, me, salt);
                memset(dst, COLL_JUNK, n);
                void *d = inplace ? src : dst;
                bsp_scan(src, d, n, o->fn);
                snprintf(what, sizeof what, "%s scan n %zu%s", o->name, n,
                         inplace ? " in place" : "");
                check_same(d, ref, n, what);
            }
            if (bad_nbytes)
                bsp_abort("CONFORMANCE FAILURE %s:%d: %s called with nbytes other than %zu",
                          __FILE__, __LINE__, o->name, n);
        }

    /* Floating-point sums depend on the grouping: every process must still get
     * the very same bits, and close to the sequential sum. */
    for (size_t ci = 0; ci < NCOUNTS; ci++) {
        size_t k = counts[ci], n = k * 8;
        double *v = (double *)src, *r = (double *)dst;
        for (size_t i = 0; i < k; i++)
            v[i] = 1.0 / (double)(me * 7 + (int)i % 13 + 3);
        expect_nbytes = n;
        bsp_allreduce(v, r, n, sum_f64);
        bsp_allgather(r, all, n);
        for (int q = 0; q < p; q++)
            check_same(all + (size_t)q * n, r, n, "floating-point allreduce across processes");
        for (size_t i = 0; i < k; i++) {
            double want = 0;
            for (int q = 0; q < p; q++)
                want += 1.0 / (double)(q * 7 + (int)i % 13 + 3);
            CHECK(fabs(r[i] - want) <= 1e-12 * want);
        }
    }

    free(src), free(dst), free(ref), free(tmp), free(all);
    bsp_end();
    return 0;
}
