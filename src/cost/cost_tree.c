/* cost_tree — the group structure of a trace (see cost_tree.h).
 *
 * One cursor per process moves along its records; a group's walk consumes one
 * record of each member per superstep and hands its members to the parts'
 * walks at a division. Members of one superstep are compared with the lowest
 * pid among them, so an error names the record that differs and the one it
 * differs from.
 */
#include "cost/cost_tree.h"

#include "cost/cost_json.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { WALK_ERROR = -1, WALK_DONE = 0, WALK_STOPPED = 1 };
enum { AT, BELOW, OUT };

typedef struct walker {
    const cost_rec *const *seq;
    const size_t *len;
    size_t *cur;
    const char *name;
    char *err;
    size_t errlen;
    char where[64 + 4096];
} walker;

static const cost_rec *next_rec(const walker *w, int pid) { return &w->seq[pid][w->cur[pid]]; }

/* Formats "NAME:LINE: " + the message for the record r. */
static int fail_at(walker *w, const cost_rec *r, const char *key, const char *format, ...)
    __attribute__((format(printf, 4, 5)));

static int fail_at(walker *w, const cost_rec *r, const char *key, const char *format, ...)
{
    char text[4096 + 512];
    va_list ap;
    va_start(ap, format);
    vsnprintf(text, sizeof text, format, ap);
    va_end(ap);
    snprintf(w->where, sizeof w->where, "%s:%zu", w->name, r->line);
    cost_jctx c = {.err = w->err, .errlen = w->errlen, .where = w->where};
    cost_jfail(&c, key, "%s", text);
    return WALK_ERROR;
}

static int fail_oom(walker *w)
{
    snprintf(w->err, w->errlen, "%s: out of memory", w->name);
    return WALK_ERROR;
}

/* Where record r is relative to the group at path: in it, in one of its parts
 * (*part = the index), or outside. */
static int classify(const char *path, const cost_rec *r, long *part)
{
    const char *g = cost_rec_group(r);
    size_t n = strlen(path);
    if (strcmp(g, path) == 0)
        return AT;
    if (n == 0 || (strncmp(g, path, n) == 0 && g[n] == '/')) {
        *part = strtol(g + (n == 0 ? 0 : n + 1), NULL, 10);
        return BELOW;
    }
    return OUT;
}

/* What a record of class c relative to path is called in messages. */
static void describe(char *buf, size_t cap, int c, const char *path)
{
    if (c == AT)
        snprintf(buf, cap, *path ? "\"%s\"" : "no group", path);
    else
        snprintf(buf, cap, *path ? "a part of \"%s\"" : "a group", path);
}

static int is_structural(core_step_kind k)
{
    return k == CORE_KIND_PARTITION || k == CORE_KIND_REJOIN;
}

static cost_item *add_item(cost_group *g)
{
    cost_item *items = realloc(g->items, (g->nitems + 1) * sizeof *items);
    if (items == NULL)
        return NULL;
    g->items = items;
    memset(&items[g->nitems], 0, sizeof items[0]);
    return &items[g->nitems++];
}

/* All members' next records are in g: one superstep. Returns 1 when it is the
 * part's "rejoin", 0 otherwise, WALK_ERROR on a defect. */
static int take_superstep(walker *w, cost_group *g, int top)
{
    const cost_rec *r0 = next_rec(w, g->members[0]);
    for (int j = 1; j < g->nmembers; j++) {
        const cost_rec *r = next_rec(w, g->members[j]);
        if ((is_structural(r->step_kind) || is_structural(r0->step_kind)) &&
            r->step_kind != r0->step_kind)
            return fail_at(w, r, "kind",
                           "expected \"%s\" like pid %d's record of the same superstep, line %zu",
                           r0->kind, r0->pid, r0->line);
    }
    if (top && r0->step_kind == CORE_KIND_REJOIN)
        return fail_at(w, r0, "kind",
                       "expected no \"rejoin\" at the top level (it ends a part of a partition)");
    cost_item *it = add_item(g);
    if (it == NULL || (it->cols = malloc((size_t)g->nmembers * sizeof *it->cols)) == NULL)
        return fail_oom(w);
    for (int j = 0; j < g->nmembers; j++)
        it->cols[j] = (unsigned long)w->cur[g->members[j]]++;
    return r0->step_kind == CORE_KIND_REJOIN;
}

static int walk(walker *w, cost_group *g, int implicit_ok);

static int by_long(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

/* All members' next records are in parts of g: one division; walks each part.
 * implicit: the trace began inside this partition. */
static int take_division(walker *w, cost_group *g, int implicit)
{
    int n = g->nmembers;
    long *part = malloc((size_t)n * sizeof *part), *order = malloc((size_t)n * sizeof *order);
    cost_item *it = part != NULL && order != NULL ? add_item(g) : NULL;
    if (it == NULL) {
        free(part);
        free(order);
        return fail_oom(w);
    }
    for (int j = 0; j < n; j++)
        classify(g->path, next_rec(w, g->members[j]), &part[j]);
    memcpy(order, part, (size_t)n * sizeof *order);
    qsort(order, (size_t)n, sizeof *order, by_long);
    size_t nparts = 0;
    for (int j = 0; j < n; j++)
        if (j == 0 || order[j] != order[j - 1])
            order[nparts++] = order[j];
    it->parts = calloc(nparts, sizeof *it->parts);
    int rc = it->parts != NULL ? WALK_DONE : fail_oom(w);
    if (rc == WALK_DONE)
        it->nparts = nparts;
    for (size_t k = 0; rc != WALK_ERROR && k < nparts; k++) {
        cost_group *p = &it->parts[k];
        size_t plen = strlen(g->path) + 24;
        p->path = malloc(plen);
        p->members = malloc((size_t)n * sizeof *p->members);
        if (p->path == NULL || p->members == NULL) {
            rc = fail_oom(w);
            break;
        }
        snprintf(p->path, plen, *g->path ? "%s/%ld" : "%s%ld", g->path, order[k]);
        for (int j = 0; j < n; j++)
            if (part[j] == order[k])
                p->members[p->nmembers++] = g->members[j];
        /* A part that stopped does not stop its siblings: their supersteps
         * happened and are kept; the caller stops after the division. */
        int prc = walk(w, p, implicit);
        if (prc != WALK_DONE)
            rc = prc;
    }
    free(part);
    free(order);
    return rc;
}

/* Walks group g until it ends (WALK_DONE: the top group's records ran out, or a
 * part rejoined) or stops (WALK_STOPPED: a member has no record for the next
 * superstep). implicit_ok: its first item may be a division without a
 * partition superstep before it (the trace began inside that partition). */
static int walk(walker *w, cost_group *g, int implicit_ok)
{
    int top = *g->path == '\0', after_partition = 0;
    for (int first = 1;; first = 0) {
        int exhausted = 0;
        for (int j = 0; j < g->nmembers; j++)
            exhausted += w->cur[g->members[j]] == w->len[g->members[j]];
        if (exhausted > 0)
            return exhausted == g->nmembers && top ? WALK_DONE : WALK_STOPPED;

        long k;
        char want[4200];
        if (after_partition) {
            /* Every member must be in a part now. */
            describe(want, sizeof want, BELOW, g->path);
            for (int j = 0; j < g->nmembers; j++) {
                const cost_rec *r = next_rec(w, g->members[j]);
                if (classify(g->path, r, &k) != BELOW)
                    return fail_at(w, r, "group", "expected %s (line %zu ends a partition)", want,
                                   (r - 1)->line);
            }
        }
        const cost_rec *r0 = next_rec(w, g->members[0]);
        int c0 = classify(g->path, r0, &k);
        for (int j = 1; j < g->nmembers; j++) {
            const cost_rec *r = next_rec(w, g->members[j]);
            int c = classify(g->path, r, &k);
            if (c == c0)
                continue;
            /* Name the record that differs from one that is where it should be. */
            const cost_rec *ref = c0 != OUT ? r0 : r, *odd = c0 != OUT ? r : r0;
            describe(want, sizeof want, c0 != OUT ? c0 : c, g->path);
            return fail_at(w, odd, "group",
                           "expected %s like pid %d's record of the same superstep, line %zu", want,
                           ref->pid, ref->line);
        }
        if (c0 == OUT) /* only a part can be left: top-level paths are all inside "" */
            return fail_at(w, r0, "group",
                           "expected \"%s\" or a part of it (the part's last superstep, line %zu, "
                           "is not a \"rejoin\")",
                           g->path, (r0 - 1)->line);
        if (c0 == BELOW && !after_partition && !(implicit_ok && first)) {
            describe(want, sizeof want, AT, g->path);
            return fail_at(w, r0, "group",
                           "expected %s (no \"partition\" superstep comes before it)", want);
        }
        int rc;
        if (c0 == AT) {
            rc = take_superstep(w, g, top);
            if (rc == 1) {
                g->rejoined = 1;
                return WALK_DONE;
            }
            after_partition = rc == 0 && r0->step_kind == CORE_KIND_PARTITION;
        } else {
            rc = take_division(w, g, !after_partition);
            after_partition = 0;
        }
        if (rc != 0)
            return rc;
    }
}

int cost_tree_build(const cost_rec *const *seq, const size_t *len, int nprocs, const char *name,
                    cost_group **root, size_t *kept, char *err, size_t errlen)
{
    walker w = {.seq = seq, .len = len, .name = name, .err = err, .errlen = errlen};
    cost_group *g = calloc(1, sizeof *g);
    w.cur = calloc((size_t)nprocs, sizeof *w.cur);
    int rc;
    if (g == NULL || w.cur == NULL || (g->path = calloc(1, 1)) == NULL ||
        (g->members = malloc((size_t)nprocs * sizeof *g->members)) == NULL) {
        rc = fail_oom(&w);
    } else {
        g->nmembers = nprocs;
        for (int i = 0; i < nprocs; i++)
            g->members[i] = i;
        rc = walk(&w, g, 1);
    }
    if (rc == WALK_ERROR) {
        cost_tree_free(g);
        free(w.cur);
        *root = NULL;
        return -1;
    }
    memcpy(kept, w.cur, (size_t)nprocs * sizeof *kept);
    free(w.cur);
    *root = g;
    return 0;
}

static void free_group(cost_group *g)
{
    for (size_t i = 0; i < g->nitems; i++) {
        cost_item *it = &g->items[i];
        free(it->cols);
        for (size_t k = 0; k < it->nparts; k++)
            free_group(&it->parts[k]);
        free(it->parts);
    }
    free(g->items);
    free(g->members);
    free(g->path);
}

void cost_tree_free(cost_group *root)
{
    if (root == NULL)
        return;
    free_group(root);
    free(root);
}

int cost_division_complete(const cost_item *it)
{
    for (size_t k = 0; k < it->nparts; k++)
        if (!it->parts[k].rejoined)
            return 0;
    return it->nparts > 0;
}
