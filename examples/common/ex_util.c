/* ex_util.c — see ex_util.h. */
#include "ex_util.h"

#include <polybsp.h>

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *program = "example";

void ex_set_name(const char *name) { program = name; }

void ex_usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: ", program);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(2);
}

const char *ex_value(int argc, char **argv, int *i)
{
    if (*i + 1 >= argc)
        ex_usage_error("option %s needs a value", argv[*i]);
    return argv[++*i];
}

long ex_parse_long(const char *option, const char *text, long min, long max)
{
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (end == text || *end || errno || v < min || v > max)
        ex_usage_error("%s expects an integer in [%ld, %ld], got '%s'", option, min, max, text);
    return v;
}

int ex_parse_choice(const char *option, const char *text, const char *const *names)
{
    int n = 0;
    while (names[n] && strcmp(names[n], text))
        n++;
    if (names[n])
        return n;
    char list[256] = "";
    for (int k = 0; k < n; k++) {
        const char *sep = k == 0 ? "" : k == n - 1 ? " or " : ", ";
        size_t used = strlen(list);
        snprintf(list + used, sizeof list - used, "%s%s", sep, names[k]);
    }
    ex_usage_error("%s expects %s, got '%s'", option, list, text);
}

unsigned long ex_parse_seed(const char *option, const char *text)
{
    char *end;
    errno = 0;
    unsigned long v = strtoul(text, &end, 10);
    if (end == text || *end || errno || strchr(text, '-'))
        ex_usage_error("%s expects an integer >= 0, got '%s'", option, text);
    return v;
}

int ex_common_option(int argc, char **argv, int *i, ex_common *c, const char *usage)
{
    const char *a = argv[*i];
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
        fputs(usage, stdout);
        exit(0);
    } else if (!strcmp(a, "-p")) {
        c->p = ex_parse_long(a, ex_value(argc, argv, i), 1, 1 << 20);
    } else if (!strcmp(a, "--reps")) {
        c->reps = ex_parse_long(a, ex_value(argc, argv, i), 1, 100000);
    } else if (!strcmp(a, "--seed")) {
        c->seed = ex_parse_seed(a, ex_value(argc, argv, i));
    } else if (!strcmp(a, "--trace")) {
        c->trace = 1;
    } else {
        return 0;
    }
    return 1;
}

void ex_permutation(int32_t *perm, int p, uint64_t seed)
{
    for (int i = 0; i < p; i++)
        perm[i] = i;
    for (int i = p - 1; i > 0; i--) {
        int j = (int)(ex_mix(seed * 131 + (uint64_t)i) % (uint64_t)(i + 1));
        int32_t t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
}

uint64_t ex_mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

void ex_buf_add(ex_buf *b, const void *data, size_t n)
{
    if (b->len + n > b->cap) {
        size_t cap = b->cap ? 2 * b->cap : 256;
        while (cap < b->len + n)
            cap *= 2;
        unsigned char *grown = realloc(b->data, cap);
        if (!grown)
            bsp_abort("%s: out of memory for %zu bytes of records", program, cap);
        b->data = grown;
        b->cap = cap;
    }
    if (n)
        memcpy(b->data + b->len, data, n);
    b->len += n;
}

void ex_buf_free(ex_buf *b)
{
    free(b->data);
    *b = (ex_buf){0};
}

long ex_send_batches(const ex_buf *to, const void *tag)
{
    long sent = 0;
    int p = (int)bsp_nprocs(), s = (int)bsp_pid();
    for (int q = 0; q < p; q++)
        if (to[q].len && q != s) {
            bsp_send((bsp_pid_t)q, tag, to[q].data, (bsp_size_t)to[q].len);
            sent++;
        }
    return sent;
}

void ex_each_message(void (*fn)(void *ctx, const void *tag, const void *payload, size_t nbytes),
                     void *ctx)
{
    bsp_nprocs_t n;
    bsp_size_t bytes;
    bsp_qsize(&n, &bytes);
    for (bsp_nprocs_t i = 0; i < n; i++) {
        void *tag, *payload;
        bsp_size_t len = bsp_hpmove(&tag, &payload);
        fn(ctx, tag, payload, (size_t)len);
    }
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void ex_trace_begin(void)
{
    bsp_trace_begin();
    bsp_trace_end();
    bsp_sync();
    bsp_trace_begin();
}

static void max_each(void *acc, const void *in, size_t nbytes)
{
    double *a = acc;
    const double *b = in;
    for (size_t i = 0; i < nbytes / sizeof *a; i++)
        if (b[i] > a[i])
            a[i] = b[i];
}

void ex_report_times(const double *t, int n)
{
    double *all = malloc((size_t)n * sizeof *all);
    if (!all)
        bsp_abort("%s: out of memory for %d timings", program, n);
    bsp_allreduce(t, all, (size_t)n * sizeof *all, max_each);
    if (bsp_pid() == 0) {
        qsort(all, (size_t)n, sizeof *all, cmp_double);
        double median = n % 2 ? all[n / 2] : (all[n / 2 - 1] + all[n / 2]) / 2;
        printf("time: median %.6e s over %d runs (min %.6e s, max %.6e s)\n", median, n, all[0],
               all[n - 1]);
    }
    free(all);
}
