/* cost_json — field checks shared by the trace and machine readers (see cost_json.h). */
#include "cost/cost_json.h"

#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int vfail(cost_jctx *c, const char *key, const char *format, va_list ap)
{
    if (c->errlen == 0)
        return -1;
    int n;
    if (key != NULL)
        n = snprintf(c->err, c->errlen, "%s: field '%s%s': ", c->where, c->path, key);
    else
        n = snprintf(c->err, c->errlen, "%s: ", c->where);
    if (n >= 0 && (size_t)n < c->errlen)
        vsnprintf(c->err + n, c->errlen - (size_t)n, format, ap);
    return -1;
}

int cost_jfail(cost_jctx *c, const char *key, const char *format, ...)
{
    va_list ap;
    va_start(ap, format);
    vfail(c, key, format, ap);
    va_end(ap);
    return -1;
}

int cost_jfail_line(cost_jctx *c, const char *format, ...)
{
    va_list ap;
    va_start(ap, format);
    vfail(c, NULL, format, ap);
    va_end(ap);
    return -1;
}

int cost_jfail_syntax(cost_jctx *c, const json_error_t *je)
{
    char text[4 * JSON_ERROR_TEXT_LENGTH];
    size_t n = 0;
    for (const char *p = je->text; *p != '\0' && n + 5 < sizeof text; p++) {
        unsigned char b = (unsigned char)*p;
        if (b == '\n')
            n += (size_t)snprintf(text + n, sizeof text - n, "\\n");
        else if (b < 0x20 || b == 0x7f)
            n += (size_t)snprintf(text + n, sizeof text - n, "\\x%02x", b);
        else
            text[n++] = (char)b;
    }
    text[n] = '\0';
    return cost_jfail_line(c, "invalid JSON at column %d: %s", je->column, text);
}

json_t *cost_jget(cost_jctx *c, const json_t *obj, const char *key, const char *expected)
{
    json_t *v = json_object_get(obj, key);
    if (v == NULL)
        cost_jfail(c, key, "missing (expected %s)", expected);
    return v;
}

const char *cost_jbound_text(cost_bound b)
{
    switch (b) {
    case COST_NONNEG: return "a number >= 0";
    case COST_POS: return "a number > 0";
    default: return "a number";
    }
}

int cost_jnum_ok(const json_t *v, cost_bound b)
{
    if (!json_is_number(v))
        return 0;
    double x = json_number_value(v);
    return b == COST_ANY || (b == COST_NONNEG && x >= 0) || (b == COST_POS && x > 0);
}

int cost_jnum(cost_jctx *c, const json_t *obj, const char *key, cost_bound b, double *out)
{
    const char *want = cost_jbound_text(b);
    json_t *v = cost_jget(c, obj, key, want);
    if (v == NULL)
        return -1;
    if (!cost_jnum_ok(v, b))
        return cost_jfail(c, key, "expected %s", want);
    *out = json_number_value(v);
    return 0;
}

int cost_jint(cost_jctx *c, const json_t *obj, const char *key, long long lo, long long hi,
              long long *out)
{
    char want[80];
    if (hi == LLONG_MAX)
        snprintf(want, sizeof want, "an integer >= %lld", lo);
    else
        snprintf(want, sizeof want, "an integer in [%lld,%lld]", lo, hi);
    json_t *v = cost_jget(c, obj, key, want);
    if (v == NULL)
        return -1;
    /* 8.0 is a real in JSON: counts and indices must be written as integers, so
     * a writer that produced one has a bug worth reporting. */
    if (!json_is_integer(v) || json_integer_value(v) < lo || json_integer_value(v) > hi)
        return cost_jfail(c, key, "expected %s", want);
    *out = json_integer_value(v);
    return 0;
}

int cost_jstr(cost_jctx *c, const json_t *obj, const char *key, char *dst, size_t cap)
{
    char want[64];
    snprintf(want, sizeof want, "a string of at most %zu bytes", cap - 1);
    json_t *v = cost_jget(c, obj, key, want);
    if (v == NULL)
        return -1;
    if (!json_is_string(v) || json_string_length(v) >= cap)
        return cost_jfail(c, key, "expected %s", want);
    memcpy(dst, json_string_value(v), json_string_length(v) + 1);
    return 0;
}

void cost_jput_num(FILE *f, double x)
{
    if (!isfinite(x)) {
        fputs("null", f);
        return;
    }
    char buf[40];
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(buf, sizeof buf, "%.*g", prec, x);
        if (strtod(buf, NULL) == x)
            break;
    }
    fputs(buf, f);
}

void cost_jput_pos(FILE *f, long long n)
{
    if (n > 0)
        fprintf(f, "%lld", n);
    else
        fputs("null", f);
}

int cost_jput_str(FILE *f, const char *s, size_t cap)
{
    size_t len = strnlen(s, cap);
    if (len == cap)
        return -1;
    json_t *j = json_stringn(s, len);
    char *text = j != NULL ? json_dumps(j, JSON_ENCODE_ANY) : NULL;
    json_decref(j);
    if (text == NULL)
        return -1;
    fputs(text, f);
    free(text);
    return 0;
}
