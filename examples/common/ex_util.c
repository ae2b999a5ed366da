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

unsigned long ex_parse_seed(const char *option, const char *text)
{
    char *end;
    errno = 0;
    unsigned long v = strtoul(text, &end, 10);
    if (end == text || *end || errno || strchr(text, '-'))
        ex_usage_error("%s expects an integer >= 0, got '%s'", option, text);
    return v;
}

uint64_t ex_mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double ex_median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void max_double(void *acc, const void *in, size_t nbytes)
{
    (void)nbytes;
    double *a = acc;
    const double *b = in;
    if (*b > *a)
        *a = *b;
}

double ex_max_over_procs(double mine)
{
    double all;
    bsp_allreduce(&mine, &all, sizeof mine, max_double);
    return all;
}
