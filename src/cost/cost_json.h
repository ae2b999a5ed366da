/* cost_json — field checks shared by the trace and machine readers.
 *
 * Contract: each check reads one member of a JSON object and, on a defect,
 * writes exactly one line "WHERE: field 'PATHKEY': missing (expected WHAT)" or
 * "WHERE: field 'PATHKEY': expected WHAT" into the context's buffer and returns
 * -1; on success it stores the value and returns 0. Both readers thus word their
 * errors the same way, and the tests can assert them exactly.
 */
#ifndef POLYBSP_COST_JSON_H
#define POLYBSP_COST_JSON_H

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

typedef struct cost_jctx {
    char *err;
    size_t errlen;
    const char *where; /* "FILE:LINE" or "FILE" */
    char path[128];    /* prefix of the field names, e.g. "patterns.put.exchange." */
} cost_jctx;

typedef enum { COST_ANY, COST_NONNEG, COST_POS } cost_bound;

/* Writes "WHERE: field 'PATHKEY': " followed by the formatted text; returns -1. */
int cost_jfail(cost_jctx *c, const char *key, const char *format, ...)
    __attribute__((format(printf, 3, 4)));
/* Writes "WHERE: " followed by the formatted text (a defect of no single field); returns -1. */
int cost_jfail_line(cost_jctx *c, const char *format, ...) __attribute__((format(printf, 2, 3)));

/* The member key, or NULL after reporting it missing with what was expected. */
json_t *cost_jget(cost_jctx *c, const json_t *obj, const char *key, const char *expected);
int cost_jnum(cost_jctx *c, const json_t *obj, const char *key, cost_bound b, double *out);
int cost_jint(cost_jctx *c, const json_t *obj, const char *key, long long lo, long long hi,
              long long *out);
/* A string that fits in cap bytes with its terminating NUL. */
int cost_jstr(cost_jctx *c, const json_t *obj, const char *key, char *dst, size_t cap);
/* Writes "WHERE: invalid JSON at column C: TEXT" for a parse error; returns -1.
 * The parser quotes the input near the error, which may hold a newline or other
 * control bytes: they are shown as \n or \xNN so the message stays one line. */
int cost_jfail_syntax(cost_jctx *c, const json_error_t *je);
/* What a number with bound b is described as in errors: "a number >= 0" etc. */
const char *cost_jbound_text(cost_bound b);
/* Whether v is a number within bound b (JSON numbers are always finite). */
int cost_jnum_ok(const json_t *v, cost_bound b);

/* Writing JSON by hand (the machine file, predict's output) keeps the layout
 * readable; these print one value. A number is the shortest decimal that reads
 * back as the same double ("1.2e-10", not "1.2000000000000001e-10"), or null
 * when it is not finite. A string is escaped; -1 (nothing printed) if it is not
 * UTF-8 or not terminated within cap bytes. */
void cost_jput_num(FILE *f, double x);
int cost_jput_str(FILE *f, const char *s, size_t cap);
/* n when it is above 0, else null: a P or a count a file may not have. */
void cost_jput_pos(FILE *f, long long n);

#endif
