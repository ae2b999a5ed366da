/* cost_trace — the trace reader (docs/formats.md, "Trace file").
 *
 * Contract: see cost_trace.h. Each record line is read against the schema by
 * cost_trace_record.c. Records may come in any order, so they are first
 * collected with their line numbers, then sorted by (pid, step) to find
 * duplicates and each process's sequence of supersteps; cost_tree then decides
 * which of them form complete supersteps of their groups. Memory is
 * proportional to the file, never to the step numbers or nprocs it claims, so a
 * corrupt header cannot make the reader allocate gigabytes.
 */
#include "cost/cost_trace.h"

#include "core/core_file.h"
#include "cost/cost_json.h"
#include "cost/cost_trace_record.h"
#include "cost/cost_tree.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct reader {
    const char *name;
    char *err;
    size_t errlen;
    char where[64 + 4096]; /* "FILE:LINE" of the line being read */
    size_t line;
    cost_trace *t;
    cost_rec *recs; /* every record read, until the file is known to be valid */
    size_t n, cap;
    int ended;    /* an "end" line was read */
    size_t taken; /* bytes read so far */
    size_t limit; /* the most bytes to read: unbounded for a regular file */
} reader;

static void free_rec(cost_rec *r)
{
    free(r->from);
    free(r->from_bytes);
    free(r->group);
    r->from = NULL;
    r->from_bytes = NULL;
    r->group = NULL;
}

static void free_pending(reader *rd)
{
    for (size_t i = 0; i < rd->n; i++)
        free_rec(&rd->recs[i]);
    free(rd->recs);
    rd->recs = NULL;
    rd->n = rd->cap = 0;
}

static cost_jctx ctx_for(reader *rd)
{
    snprintf(rd->where, sizeof rd->where, "%s:%zu", rd->name, rd->line);
    cost_jctx c = {.err = rd->err, .errlen = rd->errlen, .where = rd->where};
    return c;
}

/* Copies a string that may be longer than the destination, cutting it at a UTF-8
 * character boundary: program names are for display, so a long path is kept
 * readable rather than refused. */
static void copy_cut(char *dst, size_t cap, const char *src)
{
    size_t n = strlen(src);
    if (n >= cap) {
        n = cap - 1;
        while (n > 0 && ((unsigned char)src[n] & 0xC0) == 0x80)
            n--;
    }
    memcpy(dst, src, n);
    dst[n] = '\0';
}

/* The header as the schema reads it; of the machine the run took place on
 * (writers before 2026-11-28 did not say), "", 0 and 0 when absent. */
static int read_header(reader *rd, const json_t *obj)
{
    cost_jctx c = ctx_for(rd);
    core_trace_value v[CORE_TH_COUNT];
    if (cost_trace_read_header(&c, obj, v) < 0)
        return -1;
    cost_trace *t = rd->t;
    t->version = CORE_TRACE_VERSION;
    t->nprocs = (int)v[CORE_TH_NPROCS].v.n;
    copy_cut(t->engine, sizeof t->engine, v[CORE_TH_ENGINE].v.s); /* it fits */
    copy_cut(t->program, sizeof t->program, v[CORE_TH_PROGRAM].v.s);
    copy_cut(t->host, sizeof t->host, v[CORE_TH_HOST].present ? v[CORE_TH_HOST].v.s : "");
    t->cores = v[CORE_TH_CORES].present ? (int)v[CORE_TH_CORES].v.n : 0;
    t->rate = v[CORE_TH_RATE].present ? v[CORE_TH_RATE].v.x : 0;
    t->clock = v[CORE_TH_CLOCK].present ? v[CORE_TH_CLOCK].v.x : 0;
    t->solo = v[CORE_TH_SOLO].present && v[CORE_TH_SOLO].v.n > 0;
    return 0;
}

static int read_end(reader *rd, const json_t *obj)
{
    cost_jctx c = ctx_for(rd);
    const json_t *v = json_object_get(obj, "end");
    const char *s = json_is_string(v) ? json_string_value(v) : "";
    if (strcmp(s, "complete") == 0) {
        rd->t->complete = 1;
    } else if (strcmp(s, "aborted") == 0) {
        v = cost_jget(&c, obj, "reason", "a string");
        if (v == NULL)
            return -1;
        if (!json_is_string(v))
            return cost_jfail(&c, "reason", "expected a string");
        copy_cut(rd->t->reason, sizeof rd->t->reason, json_string_value(v));
    } else {
        return cost_jfail(&c, "end", "expected \"complete\" or \"aborted\"");
    }
    rd->ended = 1;
    return 0;
}

static int add_record(reader *rd, const json_t *obj)
{
    if (rd->n == rd->cap) {
        size_t cap = rd->cap ? 2 * rd->cap : 64;
        cost_rec *p = realloc(rd->recs, cap * sizeof *p);
        if (p == NULL) {
            cost_jctx c = ctx_for(rd);
            return cost_jfail_line(&c, "out of memory");
        }
        rd->recs = p;
        rd->cap = cap;
    }
    cost_rec *r = &rd->recs[rd->n++];
    memset(r, 0, sizeof *r);
    r->line = rd->line;
    cost_jctx c = ctx_for(rd);
    return cost_trace_read_record(&c, obj, rd->t->nprocs, r, &rd->t->self_unknown);
}

static int all_blank(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r')
            return 0;
    return 1;
}

static int read_line(reader *rd, const char *text, size_t len)
{
    cost_jctx c = ctx_for(rd);
    if (rd->ended)
        return cost_jfail_line(&c, "a line after the \"end\" line (expected the end of the file)");
    if (all_blank(text, len))
        return cost_jfail_line(&c, "empty line (expected a JSON object)");
    json_error_t je;
    json_t *obj = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
    if (obj == NULL) {
        /* A writer killed mid-line leaves an object that is never closed; say so
         * rather than quoting the parser, since that is the likely cause. */
        if (json_error_code(&je) == json_error_premature_end_of_input)
            return cost_jfail_line(&c, "truncated line (the JSON object is not closed)");
        return cost_jfail_syntax(&c, &je);
    }
    int rc;
    if (!json_is_object(obj))
        rc = cost_jfail_line(&c, "expected a JSON object");
    else if (rd->line == 1)
        rc = read_header(rd, obj);
    else if (json_object_get(obj, "end") != NULL)
        rc = read_end(rd, obj);
    else
        rc = add_record(rd, obj);
    json_decref(obj);
    return rc;
}

static int by_pid_step_line(const void *a, const void *b)
{
    const cost_rec *x = a, *y = b;
    if (x->pid != y->pid)
        return x->pid < y->pid ? -1 : 1;
    if (x->step != y->step)
        return x->step < y->step ? -1 : 1;
    return x->line < y->line ? -1 : x->line > y->line;
}

/* After sorting: reports the duplicate whose second occurrence comes first in the
 * file, so that the error does not depend on the sort. */
static int check_duplicates(reader *rd)
{
    size_t worst = 0;
    for (size_t i = 1; i < rd->n; i++) {
        const cost_rec *a = &rd->recs[i - 1], *b = &rd->recs[i];
        if (a->step == b->step && a->pid == b->pid &&
            (worst == 0 || b->line < rd->recs[worst].line))
            worst = i;
    }
    if (worst == 0)
        return 0;
    const cost_rec *first = &rd->recs[worst - 1], *dup = &rd->recs[worst];
    rd->line = dup->line;
    cost_jctx c = ctx_for(rd);
    return cost_jfail_line(&c, "duplicate record for step %lu, pid %d (first at line %zu)",
                           dup->step, dup->pid, first->line);
}

static int by_ulong(const void *a, const void *b)
{
    unsigned long x = *(const unsigned long *)a, y = *(const unsigned long *)b;
    return (x > y) - (x < y);
}

/* Tracing began at the earliest t_enter - w of the first column (t->began);
 * a process whose clock started after that one's (the threads engine makes
 * the threads of processes 1 ... P-1 after process 0 runs; 75 us here) could
 * not work before, so its first superstep carries the difference (late). */
static void note_late_starts(cost_trace *t)
{
    double began = INFINITY;
    for (int i = 0; i < t->nprocs; i++) {
        const cost_rec *r = cost_trace_rec(t, 0, i);
        if (r != NULL)
            began = fmin(began, r->t_enter - r->w);
    }
    t->began = isfinite(began) ? began : 0;
    for (int i = 0; i < t->nprocs; i++) {
        cost_rec *r = cost_trace_rec(t, 0, i);
        if (r != NULL)
            r->late = r->t_enter - r->w - t->began;
    }
}

/* Moves the kept records (a prefix of each process's sequence) into t and
 * counts the distinct steps of the others. */
static int keep(reader *rd, const size_t *begin, const size_t *kept)
{
    cost_trace *t = rd->t;
    size_t np = (size_t)t->nprocs, total = 0;
    for (size_t i = 0; i < np; i++)
        total += kept[i];
    t->recs = malloc(total * sizeof *t->recs);
    t->start = malloc((np + 1) * sizeof *t->start);
    unsigned long *lost = malloc((rd->n - total + 1) * sizeof *lost);
    if (t->recs == NULL || t->start == NULL || lost == NULL) {
        free(lost);
        cost_jctx c = ctx_for(rd);
        return cost_jfail_line(&c, "out of memory");
    }
    t->first_step = ULONG_MAX;
    for (size_t i = 0; i < np; i++)
        if (kept[i] > 0 && rd->recs[begin[i]].step < t->first_step)
            t->first_step = rd->recs[begin[i]].step;
    size_t at = 0, nlost = 0;
    t->same_start = 1;
    for (size_t i = 0; i < np; i++) {
        t->start[i] = at;
        for (size_t k = 0; k < kept[i]; k++) {
            cost_rec *r = &rd->recs[begin[i] + k];
            t->recs[at++] = *r;
            r->from = NULL; /* now owned by t */
            r->from_bytes = NULL;
            r->group = NULL;
        }
        if (kept[i] > t->nsteps)
            t->nsteps = kept[i];
        if (kept[i] > 0 && rd->recs[begin[i]].step != t->first_step)
            t->same_start = 0;
    }
    t->start[np] = at;
    note_late_starts(t);
    for (size_t i = 0; i < rd->n; i++) {
        int pid = rd->recs[i].pid;
        if (i < begin[pid] || i >= begin[pid] + kept[pid])
            lost[nlost++] = rd->recs[i].step;
    }
    qsort(lost, nlost, sizeof *lost, by_ulong);
    for (size_t k = 0; k < nlost; k++)
        if (k == 0 || lost[k] != lost[k - 1])
            t->dropped++;
    free(lost);
    return 0;
}

static int none_complete(cost_jctx *c, int nprocs)
{
    return cost_jfail_line(c,
                           "no superstep has a record from each of the %d processes "
                           "(expected at least one complete superstep)",
                           nprocs);
}

/* Finds each process's sequence (its records from its first one, up to a gap
 * in the step numbers), lets cost_tree decide what forms complete supersteps,
 * and keeps those. */
static int build(reader *rd)
{
    cost_trace *t = rd->t;
    cost_jctx c = ctx_for(rd);
    if (rd->n == 0)
        return cost_jfail_line(&c, "no superstep records (expected at least one line per "
                                   "process per superstep after the header)");
    qsort(rd->recs, rd->n, sizeof *rd->recs, by_pid_step_line);
    if (check_duplicates(rd) < 0)
        return -1;
    size_t np = (size_t)t->nprocs;
    /* Fewer records than processes: no superstep can be complete, and the tables
     * below would be sized by the header's word alone. */
    if (np > rd->n)
        return none_complete(&c, t->nprocs);
    size_t *begin = calloc(np, sizeof *begin), *len = calloc(np, sizeof *len);
    size_t *kept = calloc(np, sizeof *kept);
    const cost_rec **seq = calloc(np, sizeof *seq);
    int rc = -1;
    if (begin == NULL || len == NULL || kept == NULL || seq == NULL) {
        cost_jfail_line(&c, "out of memory");
        goto out;
    }
    for (size_t i = rd->n; i-- > 0;)
        begin[rd->recs[i].pid] = i;
    for (size_t p = 0; p < np; p++) {
        seq[p] = &rd->recs[begin[p]];
        while (begin[p] + len[p] < rd->n && seq[p][len[p]].pid == (int)p &&
               seq[p][len[p]].step == seq[p][0].step + len[p])
            len[p]++;
    }
    if (cost_tree_build(seq, len, t->nprocs, rd->name, &t->root, kept, rd->err, rd->errlen) < 0)
        goto out;
    size_t total = 0;
    for (size_t p = 0; p < np; p++)
        total += kept[p];
    if (total == 0)
        none_complete(&c, t->nprocs);
    else
        rc = keep(rd, begin, kept);
out:
    free(begin);
    free(len);
    free(kept);
    free(seq);
    return rc;
}

/* The next line of f, without its '\n', into *buf: its length, -1 at the end of
 * the file, or -2 with the reason in err (a line or a stream over its limit, no
 * memory, a read error). Memory grows with the bytes read, never beyond them. */
static ssize_t next_line(reader *rd, FILE *f, char **buf, size_t *cap)
{
    size_t n = 0;
    int c;
    errno = 0;
    while ((c = getc_unlocked(f)) != EOF && c != '\n') {
        if (++rd->taken > rd->limit) {
            snprintf(rd->err, rd->errlen,
                     "%s: more than %zu bytes from a file that is not a regular file (a longer "
                     "trace must be read from a regular file)",
                     rd->name, rd->limit);
            return -2;
        }
        if (n == *cap) {
            cost_jctx ctx = ctx_for(rd);
            if (n == COST_TRACE_LINE_MAX) {
                cost_jfail_line(&ctx, "line longer than %d bytes (expected a JSON object)",
                                COST_TRACE_LINE_MAX);
                return -2;
            }
            size_t more = n ? 2 * n : 4096;
            if (more > COST_TRACE_LINE_MAX)
                more = COST_TRACE_LINE_MAX;
            char *bigger = realloc(*buf, more);
            if (bigger == NULL) {
                cost_jfail_line(&ctx, "out of memory");
                return -2;
            }
            *buf = bigger;
            *cap = more;
        }
        (*buf)[n++] = (char)c;
    }
    if (c == EOF && ferror(f)) {
        snprintf(rd->err, rd->errlen, "%s: cannot read: %s", rd->name,
                 strerror(errno ? errno : EIO));
        return -2;
    }
    rd->taken++; /* the '\n' */
    return c == EOF && n == 0 ? -1 : (ssize_t)n;
}

int cost_trace_read_stream(FILE *f, const char *name, cost_trace *t, char *err, size_t errlen)
{
    memset(t, 0, sizeof *t);
    reader rd = {.name = name, .err = err, .errlen = errlen, .t = t};
    rd.limit = core_file_is_regular(f) ? SIZE_MAX : COST_TRACE_STREAM_MAX;
    char *buf = NULL;
    size_t bufcap = 0;
    ssize_t len;
    int rc = 0;
    flockfile(f);
    while (rc == 0) {
        rd.line++;
        len = next_line(&rd, f, &buf, &bufcap);
        if (len < 0) {
            rd.line--;
            rc = len == -1 ? 0 : -1;
            break;
        }
        rc = read_line(&rd, buf, (size_t)len);
    }
    funlockfile(f);
    free(buf);
    if (rc == 0 && rd.line == 0) {
        rd.line = 1;
        cost_jctx c = ctx_for(&rd);
        rc = cost_jfail_line(&c, "empty file (expected the header line "
                                 "{\"format\":\"polybsp-trace\",\"version\":1,...})");
    }
    if (rc == 0)
        rc = build(&rd);
    free_pending(&rd);
    if (rc < 0)
        cost_trace_free(t);
    return rc;
}

int cost_trace_read(const char *path, cost_trace *t, char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        memset(t, 0, sizeof *t);
        snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    int rc = cost_trace_read_stream(f, path, t, err, errlen);
    fclose(f);
    return rc;
}

void cost_trace_free(cost_trace *t)
{
    size_t n = t->start != NULL ? t->start[t->nprocs] : 0;
    for (size_t i = 0; i < n; i++)
        free_rec(&t->recs[i]);
    free(t->recs);
    free(t->start);
    cost_tree_free(t->root);
    memset(t, 0, sizeof *t);
}
