/* cost_machine — the machine file's reader and writer (docs/formats.md, "Machine file").
 *
 * Contract: see cost_machine.h. The writer emits the JSON text and then runs the
 * reader's validation on it before anything reaches the disk, so a file the probe
 * writes is always one that predict and bsp_g() accept, and the two cannot drift.
 * The file is replaced whole (core_file), so a program reading it meanwhile never
 * sees half of it, and a device or directory at the path is never written to.
 */
#include "cost/cost_machine.h"

#include "core/core_file.h"
#include "cost/cost_json.h"

#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

static const char *const pattern_names[COST_NPATTERNS] = {"exchange", "pingpong", "onetoall",
                                                          "alltoone", "alltoall"};

const char *cost_pattern_name(cost_pattern p)
{
    return (unsigned)p < COST_NPATTERNS ? pattern_names[p] : "unknown";
}

const cost_ccm_fn *cost_machine_collective(const cost_machine *m, const char *name)
{
    for (size_t i = 0; i < m->ncoll; i++)
        if (strcmp(m->coll[i].name, name) == 0)
            return &m->coll[i].f;
    return NULL;
}

const cost_ccm_fn *cost_machine_ccm(const cost_machine *m, const char *name, int P)
{
    for (size_t k = 0; k < m->nccm_procs; k++)
        if (m->ccm_procs[k].procs == P)
            for (size_t i = 0; i < m->ccm_procs[k].ncoll; i++)
                if (strcmp(m->ccm_procs[k].coll[i].name, name) == 0)
                    return &m->ccm_procs[k].coll[i].f;
    if (strcmp(name, "partition") == 0)
        return &m->partition;
    if (strcmp(name, "rejoin") == 0)
        return &m->rejoin;
    return cost_machine_collective(m, name);
}

double cost_machine_hp_ratio(const cost_machine *m, cost_pattern p)
{
    if ((unsigned)p < COST_NPATTERNS) {
        const cost_pattern_fit *put = &m->put[p], *hp = &m->hpput[p];
        if (put->measured && hp->measured && put->g > 0 && hp->g > 0)
            return hp->g / put->g;
    }
    return m->hp_ratio > 0 ? m->hp_ratio : 1;
}

const cost_procs_fit *cost_machine_procs_fit(const cost_machine *m, int P)
{
    for (size_t i = 0; i < m->nbyprocs; i++)
        if (m->byprocs[i].procs == P)
            return &m->byprocs[i];
    return NULL;
}

int cost_machine_levels_procs(const cost_machine *m)
{
    return m->nlevels > 0 ? m->levels_procs : 0;
}

void cost_machine_use_levels(cost_machine *m, const cost_levels_procs *set)
{
    m->nlevels = set->nlevels;
    memcpy(m->levels, set->levels, set->nlevels * sizeof *set->levels);
    m->levels_procs = set->procs;
    m->levels_oversubscribed = set->oversubscribed;
}

const cost_procs_fit *cost_machine_use_procs(cost_machine *m, int P)
{
    const cost_procs_fit *f = cost_machine_procs_fit(m, P);
    if (f != NULL) {
        m->g = f->g;
        m->L = f->L;
    }
    m->reg = f != NULL ? f->reg : 0;
    for (size_t i = 0; i < m->nlevels_procs; i++)
        if (m->levels_by_procs[i].procs == P)
            cost_machine_use_levels(m, &m->levels_by_procs[i]);
    return f;
}

/* ---- reading ---- */

/* Descends into the optional object member key of obj: returns it and extends
 * the field-name prefix by "key.", or returns NULL when it is absent, or when it
 * is not an object after reporting that and setting *failed. */
static const json_t *enter(cost_jctx *c, const json_t *obj, const char *key, const char *want,
                           int *failed)
{
    const json_t *v = json_object_get(obj, key);
    if (v == NULL)
        return NULL;
    if (!json_is_object(v)) {
        *failed = cost_jfail(c, key, "expected %s", want);
        return NULL;
    }
    size_t len = strlen(c->path);
    snprintf(c->path + len, sizeof c->path - len, "%s.", key);
    return v;
}

/* Undoes enter(): drops the last "key." from the prefix. */
static void leave(cost_jctx *c)
{
    size_t len = strlen(c->path);
    if (len > 0)
        len--;
    while (len > 0 && c->path[len - 1] != '.')
        len--;
    c->path[len] = '\0';
}

/* An array of numbers within bound b: of 1..COST_MAX_SIZES elements when want_n is
 * 0 (the count is stored in *n), else of exactly want_n ("one per h"). */
static int read_array(cost_jctx *c, const json_t *obj, const char *key, size_t want_n, cost_bound b,
                      double *out, size_t *n)
{
    char want[96];
    if (want_n == 0)
        snprintf(want, sizeof want, "an array of 1 to %d numbers%s", COST_MAX_SIZES,
                 cost_jbound_text(b) + strlen("a number"));
    else
        snprintf(want, sizeof want, "an array of %zu numbers%s (one per h)", want_n,
                 cost_jbound_text(b) + strlen("a number"));
    const json_t *a = cost_jget(c, obj, key, want);
    if (a == NULL)
        return -1;
    size_t len = json_array_size(a);
    if (!json_is_array(a) || len == 0 || len > COST_MAX_SIZES || (want_n != 0 && len != want_n))
        return cost_jfail(c, key, "expected %s", want);
    for (size_t i = 0; i < len; i++) {
        const json_t *e = json_array_get(a, i);
        if (!cost_jnum_ok(e, b)) {
            char elem[64];
            snprintf(elem, sizeof elem, "%s[%zu]", key, i);
            return cost_jfail(c, elem, "expected %s", cost_jbound_text(b));
        }
        out[i] = json_number_value(e);
    }
    if (n != NULL)
        *n = len;
    return 0;
}

/* The array member key of obj: of 1 to most objects (want), absent allowed
 * unless required; each element (want_elem) read by one(c, it, its index,
 * into) with the field-name prefix at "key[i].". Its length goes to *n. */
typedef int read_element(cost_jctx *c, const json_t *e, size_t i, void *into);
static int read_objects(cost_jctx *c, const json_t *obj, const char *key, size_t most,
                        const char *want, const char *want_elem, int required, read_element *one,
                        void *into, size_t *n)
{
    const json_t *a = required ? cost_jget(c, obj, key, want) : json_object_get(obj, key);
    if (a == NULL)
        return required ? -1 : 0;
    size_t len = json_array_size(a);
    if (!json_is_array(a) || len == 0 || len > most)
        return cost_jfail(c, key, "expected %s", want);
    size_t at = strlen(c->path);
    for (size_t i = 0; i < len; i++) {
        const json_t *e = json_array_get(a, i);
        char elem[48];
        snprintf(elem, sizeof elem, "%s[%zu]", key, i);
        if (!json_is_object(e))
            return cost_jfail(c, elem, "expected %s", want_elem);
        snprintf(c->path + at, sizeof c->path - at, "%s.", elem);
        if (one(c, e, i, into) < 0)
            return -1;
        c->path[at] = '\0';
    }
    *n = len;
    return 0;
}

static int read_pattern(cost_jctx *c, const json_t *obj, cost_pattern_fit *p)
{
    if (cost_jnum(c, obj, "g", COST_POS, &p->g) < 0 || cost_jnum(c, obj, "L", COST_ANY, &p->L) < 0)
        return -1;
    if (read_array(c, obj, "h", 0, COST_POS, p->h, &p->nsizes) < 0 ||
        read_array(c, obj, "time", p->nsizes, COST_NONNEG, p->time, NULL) < 0 ||
        read_array(c, obj, "maxerr", p->nsizes, COST_NONNEG, p->maxerr, NULL) < 0)
        return -1;
    p->measured = 1;
    return 0;
}

static int read_patterns(cost_jctx *c, const json_t *root, cost_machine *m)
{
    static const char *const prims[2] = {"put", "hpput"};
    cost_pattern_fit *fits[2] = {m->put, m->hpput};
    int failed = 0;
    const json_t *pats = enter(c, root, "patterns", "an object", &failed);
    if (pats == NULL)
        return failed;
    for (int k = 0; k < 2; k++) {
        const json_t *prim = enter(c, pats, prims[k], "an object", &failed);
        if (prim == NULL) {
            if (failed)
                return -1;
            continue;
        }
        for (int i = 0; i < COST_NPATTERNS; i++) {
            const json_t *pat =
                enter(c, prim, pattern_names[i], "an object with g, L, h, time, maxerr", &failed);
            if (pat == NULL) {
                if (failed)
                    return -1;
                continue;
            }
            if (read_pattern(c, pat, &fits[k][i]) < 0)
                return -1;
            leave(c);
        }
        leave(c);
    }
    leave(c);
    return 0;
}

static int read_table11(cost_jctx *c, const json_t *root, cost_machine *m)
{
    int failed = 0;
    const json_t *t11 = enter(c, root, "table11", "an object with h, averr, maxerr", &failed);
    if (t11 == NULL)
        return failed;
    if (read_array(c, t11, "h", 0, COST_POS, m->t11_h, &m->nsizes) < 0 ||
        read_array(c, t11, "averr", m->nsizes, COST_NONNEG, m->t11_averr, NULL) < 0 ||
        read_array(c, t11, "maxerr", m->nsizes, COST_NONNEG, m->t11_maxerr, NULL) < 0)
        return -1;
    leave(c);
    return 0;
}

static int read_procs(cost_jctx *c, const json_t *root, cost_machine *m)
{
    char want[64];
    snprintf(want, sizeof want, "an array of 1 to %d integers >= 1", COST_MAX_PROCS);
    const json_t *a = cost_jget(c, root, "procs", want);
    if (a == NULL)
        return -1;
    size_t n = json_array_size(a);
    if (!json_is_array(a) || n == 0 || n > COST_MAX_PROCS)
        return cost_jfail(c, "procs", "expected %s", want);
    for (size_t i = 0; i < n; i++) {
        const json_t *e = json_array_get(a, i);
        if (!json_is_integer(e) || json_integer_value(e) < 1 || json_integer_value(e) > INT_MAX) {
            char elem[32];
            snprintf(elem, sizeof elem, "procs[%zu]", i);
            return cost_jfail(c, elem, "expected an integer in [1,%d]", INT_MAX);
        }
        m->procs[i] = (int)json_integer_value(e);
    }
    m->nprocs = n;
    return 0;
}

/* A string member that must be one of two words; *which gets 1 for the first. */
static int read_choice(cost_jctx *c, const json_t *obj, const char *key, const char *one,
                       const char *two, int *which)
{
    char want[64];
    if (two != NULL)
        snprintf(want, sizeof want, "\"%s\" or \"%s\"", one, two);
    else
        snprintf(want, sizeof want, "\"%s\"", one);
    const json_t *v = cost_jget(c, obj, key, want);
    if (v == NULL)
        return -1;
    const char *s = json_is_string(v) ? json_string_value(v) : "";
    if (strcmp(s, one) == 0)
        *which = 1;
    else if (two != NULL && strcmp(s, two) == 0)
        *which = 0;
    else
        return cost_jfail(c, key, "expected %s", want);
    return 0;
}

/* Element i of a levels array, into ((cost_level *)into)[i]. */
static int read_level(cost_jctx *c, const json_t *e, size_t i, void *into)
{
    cost_level *l = (cost_level *)into + i, *prev = i > 0 ? l - 1 : NULL;
    long long level, cluster;
    if (cost_jint(c, e, "level", 0, INT_MAX, &level) < 0)
        return -1;
    if (prev != NULL && level <= prev->level)
        return cost_jfail(c, "level", "expected an integer > %d (levels increase along the array)",
                          prev->level);
    if (cost_jint(c, e, "cluster", 1, INT_MAX, &cluster) < 0)
        return -1;
    if (prev != NULL && cluster > prev->cluster)
        return cost_jfail(c, "cluster",
                          "expected an integer <= %d (clusters do not grow with the level)",
                          prev->cluster);
    l->level = (int)level;
    l->cluster = (int)cluster;
    /* Clusters of one process exchange nothing (a process's traffic to itself
     * is not in h): their g is never used and may be 0. */
    l->partition = l->rejoin = 0;
    if (json_object_get(e, "partition") != NULL &&
        cost_jnum(c, e, "partition", COST_NONNEG, &l->partition) < 0)
        return -1;
    if (json_object_get(e, "rejoin") != NULL &&
        cost_jnum(c, e, "rejoin", COST_NONNEG, &l->rejoin) < 0)
        return -1;
    return cost_jnum(c, e, "g", cluster == 1 ? COST_NONNEG : COST_POS, &l->g) < 0 ||
                   cost_jnum(c, e, "L", COST_ANY, &l->L) < 0
               ? -1
               : 0;
}

/* The P and oversubscribed members of an element of a by_procs array (of BSP,
 * D-BSP or CCM), P above the previous element's (prev, 0 for the first). */
static int read_procs_key(cost_jctx *c, const json_t *e, int prev, int *procs, int *oversubscribed)
{
    long long P;
    if (cost_jint(c, e, "P", 1, INT_MAX, &P) < 0)
        return -1;
    if (P <= prev)
        return cost_jfail(c, "P", "expected an integer > %d (P increases along the array)", prev);
    const json_t *v = cost_jget(c, e, "oversubscribed", "true or false");
    if (v == NULL)
        return -1;
    if (!json_is_boolean(v))
        return cost_jfail(c, "oversubscribed", "expected true or false");
    *procs = (int)P;
    *oversubscribed = json_is_true(v);
    return 0;
}

/* The levels member of obj, required: 1 to COST_MAX_LEVELS of them. */
static int read_levels(cost_jctx *c, const json_t *obj, cost_level *levels, size_t *n)
{
    char want[64];
    snprintf(want, sizeof want, "an array of 1 to %d levels", COST_MAX_LEVELS);
    return read_objects(c, obj, "levels", COST_MAX_LEVELS, want,
                        "an object with level, cluster, g and L", 1, read_level, levels, n);
}

/* Element i of dbsp.by_procs, into the machine's levels_by_procs[i]. */
static int read_levels_proc(cost_jctx *c, const json_t *e, size_t i, void *into)
{
    cost_levels_procs *p = &((cost_machine *)into)->levels_by_procs[i];
    if (read_procs_key(c, e, i > 0 ? p[-1].procs : 0, &p->procs, &p->oversubscribed) < 0)
        return -1;
    return read_levels(c, e, p->levels, &p->nlevels);
}

static int read_dbsp(cost_jctx *c, const json_t *root, cost_machine *m)
{
    int failed = 0;
    const json_t *d = enter(c, root, "dbsp", "an object with levels", &failed);
    if (d == NULL)
        return failed;
    if (read_levels(c, d, m->levels, &m->nlevels) < 0)
        return -1;
    char want[80];
    snprintf(want, sizeof want, "an array of 1 to %d objects with P, oversubscribed and levels",
             COST_MAX_PROCS);
    if (read_objects(c, d, "by_procs", COST_MAX_PROCS, want,
                     "an object with P, oversubscribed and levels", 0, read_levels_proc, m,
                     &m->nlevels_procs) < 0)
        return -1;
    leave(c);
    if (m->nlevels_procs > 0) /* `levels` are the largest P's */
        cost_machine_use_levels(m, &m->levels_by_procs[m->nlevels_procs - 1]);
    return 0;
}

/* Element i of by_procs, into the machine's byprocs[i]. */
static int read_byproc(cost_jctx *c, const json_t *e, size_t i, void *into)
{
    cost_procs_fit *f = &((cost_machine *)into)->byprocs[i];
    if (read_procs_key(c, e, i > 0 ? f[-1].procs : 0, &f->procs, &f->oversubscribed) < 0)
        return -1;
    if (json_object_get(e, "start") != NULL && cost_jnum(c, e, "start", COST_NONNEG, &f->start) < 0)
        return -1;
    if (json_object_get(e, "reg") != NULL && cost_jnum(c, e, "reg", COST_NONNEG, &f->reg) < 0)
        return -1;
    return cost_jnum(c, e, "g", COST_POS, &f->g) < 0 || cost_jnum(c, e, "L", COST_ANY, &f->L) < 0
               ? -1
               : 0;
}

/* by_procs: one BSP line per P, P increasing (absent in older files). */
static int read_byprocs(cost_jctx *c, const json_t *root, cost_machine *m)
{
    char want[80];
    snprintf(want, sizeof want, "an array of 1 to %d objects with P, oversubscribed, g and L",
             COST_MAX_PROCS);
    return read_objects(c, root, "by_procs", COST_MAX_PROCS, want,
                        "an object with P, oversubscribed, g and L", 0, read_byproc, m,
                        &m->nbyprocs);
}

/* A CCM cost function: member key of obj, required. One piece is {"a", "b",
 * "c"}; two are {"a", "b", "c_below", "h_break", "c_above"}, which readers that
 * know only "c" refuse rather than misread. a and b may be negative in files
 * written before the fit was constrained (cost_ccm_eval keeps T >= 0). */
static int read_fn(cost_jctx *c, const json_t *obj, const char *key, cost_ccm_fn *f)
{
    const char *want = "an object with a, b and c (or c_below, h_break and c_above)";
    int failed = 0;
    const json_t *o = enter(c, obj, key, want, &failed);
    if (o == NULL)
        return failed ? -1 : cost_jfail(c, key, "missing (expected %s)", want);
    if (cost_jnum(c, o, "a", COST_ANY, &f->a) < 0 || cost_jnum(c, o, "b", COST_ANY, &f->b) < 0)
        return -1;
    f->h_break = f->c_above = 0;
    if (json_object_get(o, "h_break") == NULL) {
        if (cost_jnum(c, o, "c", COST_NONNEG, &f->c) < 0)
            return -1;
    } else if (cost_jnum(c, o, "c_below", COST_NONNEG, &f->c) < 0 ||
               cost_jnum(c, o, "h_break", COST_POS, &f->h_break) < 0 ||
               cost_jnum(c, o, "c_above", COST_NONNEG, &f->c_above) < 0) {
        return -1;
    }
    leave(c);
    return 0;
}

/* Collective names are trace kinds, or a kind and an algorithm joined by '.'
 * (cost_ccm_name), and parts of error messages: keep them to one short word. */
static int valid_name(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n >= sizeof((cost_ccm_coll *)0)->name)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
              (s[i] >= '0' && s[i] <= '9') || s[i] == '_' || s[i] == '-' || s[i] == '.'))
            return 0;
    return 1;
}

/* The "collectives" member of obj (required): cost functions by name, appended
 * to list[*n]. */
static int read_collectives(cost_jctx *c, const json_t *obj, cost_ccm_coll *list, size_t *n)
{
    int failed = 0;
    const char *want = "an object of cost functions by collective name";
    const json_t *coll = enter(c, obj, "collectives", want, &failed);
    if (coll == NULL)
        return failed ? -1 : cost_jfail(c, "collectives", "missing (expected %s)", want);
    if (json_object_size(coll) > COST_MAX_COLLECTIVES) {
        leave(c);
        return cost_jfail(c, "collectives", "expected at most %d collectives",
                          COST_MAX_COLLECTIVES);
    }
    for (void *it = json_object_iter((json_t *)coll); it != NULL;
         it = json_object_iter_next((json_t *)coll, it)) {
        const char *key = json_object_iter_key(it);
        if (!valid_name(key)) {
            leave(c);
            return cost_jfail(c, "collectives",
                              "expected names of 1 to 47 letters, digits, '_', '-' or '.'");
        }
        cost_ccm_coll *k = &list[(*n)++];
        memcpy(k->name, key, strlen(key) + 1);
        /* A name may hold '.', which leave() would take for a level: put
         * the prefix back by its length. */
        size_t at = strlen(c->path);
        if (read_fn(c, coll, key, &k->f) < 0)
            return -1;
        c->path[at] = '\0';
    }
    leave(c);
    return 0;
}

/* Element i of ccm.by_procs, into the machine's ccm_procs[i]: the functions
 * of one P, its partition and rejoin among them by name. */
static int read_ccm_proc(cost_jctx *c, const json_t *e, size_t i, void *into)
{
    cost_ccm_procs *p = &((cost_machine *)into)->ccm_procs[i];
    if (read_procs_key(c, e, i > 0 ? p[-1].procs : 0, &p->procs, &p->oversubscribed) < 0)
        return -1;
    p->ncoll = 0;
    if (read_collectives(c, e, p->coll, &p->ncoll) < 0)
        return -1;
    static const char *const division[] = {"partition", "rejoin"};
    for (int k = 0; k < 2; k++) {
        cost_ccm_coll *d = &p->coll[p->ncoll++];
        snprintf(d->name, sizeof d->name, "%s", division[k]);
        if (read_fn(c, e, division[k], &d->f) < 0)
            return -1;
    }
    return 0;
}

static int read_ccm(cost_jctx *c, const json_t *root, cost_machine *m)
{
    int failed = 0;
    const json_t *ccm =
        enter(c, root, "ccm", "an object with collectives, partition and rejoin", &failed);
    if (ccm == NULL)
        return failed;
    if (read_collectives(c, ccm, m->coll, &m->ncoll) < 0 ||
        read_fn(c, ccm, "partition", &m->partition) < 0 ||
        read_fn(c, ccm, "rejoin", &m->rejoin) < 0)
        return -1;
    char want[96];
    snprintf(want, sizeof want,
             "an array of 1 to %d objects with P, oversubscribed, collectives, partition and "
             "rejoin",
             COST_MAX_PROCS);
    if (read_objects(c, ccm, "by_procs", COST_MAX_PROCS, want,
                     "an object with P, oversubscribed, collectives, partition and rejoin", 0,
                     read_ccm_proc, m, &m->nccm_procs) < 0)
        return -1;
    leave(c);
    m->has_ccm = 1;
    return 0;
}

/* The sections after the header, as the section table (below) says. */
static int read_sections(cost_jctx *c, const json_t *root, cost_machine *m);

static int read_machine(cost_jctx *c, const json_t *root, cost_machine *m)
{
    memset(m, 0, sizeof *m);
    int yes;
    if (read_choice(c, root, "format", "polybsp-machine", NULL, &yes) < 0)
        return -1;
    const json_t *v = cost_jget(c, root, "version", "the integer 1");
    if (v == NULL)
        return -1;
    if (!json_is_integer(v))
        return cost_jfail(c, "version", "expected the integer 1");
    if (json_integer_value(v) != COST_MACHINE_VERSION)
        return cost_jfail(c, "version", "version %lld is not supported (expected %d)",
                          (long long)json_integer_value(v), COST_MACHINE_VERSION);
    m->version = COST_MACHINE_VERSION;
    long long cores;
    if (cost_jstr(c, root, "host", m->host, sizeof m->host) < 0 ||
        cost_jstr(c, root, "engine", m->engine, sizeof m->engine) < 0 ||
        cost_jstr(c, root, "date", m->date, sizeof m->date) < 0 ||
        cost_jint(c, root, "cores", 1, INT_MAX, &cores) < 0 || read_procs(c, root, m) < 0)
        return -1;
    m->cores = (int)cores;
    v = cost_jget(c, root, "oversubscribed", "true or false");
    if (v == NULL)
        return -1;
    if (!json_is_boolean(v))
        return cost_jfail(c, "oversubscribed", "expected true or false");
    m->oversubscribed = json_is_true(v);
    if (read_choice(c, root, "h_operator", "sum", "max", &m->h_sum) < 0 ||
        read_choice(c, root, "unit", "byte", NULL, &yes) < 0)
        return -1;

    return read_sections(c, root, m);
}

/* Parses text (named name in errors) and validates it into m. */
static int parse_machine(json_t *root, const json_error_t *je, const char *name, cost_machine *m,
                         char *err, size_t errlen)
{
    cost_jctx c = {.err = err, .errlen = errlen, .where = name};
    memset(m, 0, sizeof *m);
    if (root == NULL) {
        char where[64 + 4096];
        snprintf(where, sizeof where, "%s:%d", name, je->line);
        c.where = where;
        if (json_error_code(je) == json_error_premature_end_of_input)
            return cost_jfail_line(&c, "truncated file (the JSON object is not closed)");
        return cost_jfail_syntax(&c, je);
    }
    int rc = json_is_object(root) ? read_machine(&c, root, m)
                                  : cost_jfail_line(&c, "expected a JSON object");
    json_decref(root);
    if (rc < 0)
        memset(m, 0, sizeof *m);
    return rc;
}

/* Reads the whole stream, up to COST_MACHINE_MAX_BYTES + 1 bytes (one more tells
 * a file over the limit): the files are small, and having the text lets an empty
 * file be called empty rather than "truncated". NULL when memory runs out. */
static char *slurp(FILE *f, size_t *len)
{
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    while (buf != NULL) {
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap || n > COST_MACHINE_MAX_BYTES)
            break;
        char *bigger = realloc(buf, 2 * cap);
        if (bigger == NULL)
            free(buf);
        buf = bigger;
        cap *= 2;
    }
    *len = n;
    return buf;
}

/* At least the number of values the parser would build from text: each one
 * after the first in an object or array follows a comma, and containers count
 * themselves (members' names are counted by their commas too). Outside strings
 * only; a scan, nothing built. */
static size_t count_values(const char *text, size_t len)
{
    size_t n = 1;
    int in_string = 0;
    for (size_t i = 0; i < len; i++) {
        char c = text[i];
        if (in_string) {
            if (c == '\\')
                i++;
            else if (c == '"')
                in_string = 0;
        } else if (c == '"') {
            in_string = 1;
        } else if (c == '{' || c == '[' || c == ',') {
            n++;
        }
    }
    return n;
}

int cost_machine_read_stream(FILE *f, const char *name, cost_machine *m, char *err, size_t errlen)
{
    memset(m, 0, sizeof *m);
    size_t len;
    errno = 0;
    char *text = slurp(f, &len);
    if (text == NULL || ferror(f)) {
        snprintf(err, errlen, "%s: cannot read: %s", name,
                 text == NULL ? "out of memory" : strerror(errno));
        free(text);
        return -1;
    }
    if (len > COST_MACHINE_MAX_BYTES) {
        free(text);
        snprintf(err, errlen, "%s: more than %d bytes (expected a machine file, a few kilobytes)",
                 name, COST_MACHINE_MAX_BYTES);
        return -1;
    }
    size_t i = 0;
    while (i < len && strchr(" \t\r\n", text[i]) != NULL && text[i] != '\0')
        i++;
    if (i == len) {
        free(text);
        snprintf(err, errlen, "%s:1: empty file (expected a JSON object)", name);
        return -1;
    }
    if (count_values(text, len) > COST_MACHINE_MAX_VALUES) {
        free(text);
        snprintf(err, errlen,
                 "%s: more than %d JSON values (expected a machine file, a few thousand)", name,
                 COST_MACHINE_MAX_VALUES);
        return -1;
    }
    json_error_t je;
    json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
    free(text);
    return parse_machine(root, &je, name, m, err, errlen);
}

int cost_machine_read(const char *path, cost_machine *m, char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        memset(m, 0, sizeof *m);
        snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    int rc = cost_machine_read_stream(f, path, m, err, errlen);
    fclose(f);
    return rc;
}

/* ---- writing ---- */

static void put_array(FILE *f, const char *key, const double *v, size_t n)
{
    fprintf(f, "\"%s\":[", key);
    for (size_t i = 0; i < n; i++) {
        if (i > 0)
            fputc(',', f);
        cost_jput_num(f, v[i]);
    }
    fputc(']', f);
}

/* "h", then `key` and "maxerr" (one value per h), each after sep. */
static void put_by_h(FILE *f, const char *sep, const double *h, const char *key, const double *v,
                     const double *maxerr, size_t n)
{
    put_array(f, "h", h, n);
    fputs(sep, f);
    put_array(f, key, v, n);
    fputs(sep, f);
    put_array(f, "maxerr", maxerr, n);
}

static int any_measured(const cost_pattern_fit *fits)
{
    for (int i = 0; i < COST_NPATTERNS; i++)
        if (fits[i].measured)
            return 1;
    return 0;
}

static void put_prim_patterns(FILE *f, const char *prim, const cost_pattern_fit *fits, int *first)
{
    if (!any_measured(fits))
        return;
    fprintf(f, "%s\n    \"%s\": {", *first ? "" : ",", prim);
    *first = 0;
    int firstpat = 1;
    for (int i = 0; i < COST_NPATTERNS; i++) {
        const cost_pattern_fit *p = &fits[i];
        if (!p->measured)
            continue;
        size_t n = p->nsizes <= COST_MAX_SIZES ? p->nsizes : COST_MAX_SIZES;
        fprintf(f, "%s\n      \"%s\": {\"g\":", firstpat ? "" : ",", pattern_names[i]);
        firstpat = 0;
        cost_jput_num(f, p->g);
        fputs(", \"L\":", f);
        cost_jput_num(f, p->L);
        fputs(",\n        ", f);
        put_by_h(f, ",\n        ", p->h, "time", p->time, p->maxerr, n);
        fputs("}", f);
    }
    fputs("\n    }", f);
}

/* Where a nested section's writer reports a string it cannot write. */
typedef struct put_err {
    const char *path;
    char *err;
    size_t errlen;
} put_err;

static int has_patterns(const cost_machine *m)
{
    return any_measured(m->put) || any_measured(m->hpput);
}

static int put_patterns(FILE *f, const cost_machine *m, const put_err *e)
{
    (void)e;
    int first = 1;
    fputc('{', f);
    put_prim_patterns(f, "put", m->put, &first);
    put_prim_patterns(f, "hpput", m->hpput, &first);
    fputs("\n  }", f);
    return 0;
}

/* G, "L": L}: the end of an object that holds one BSP line (by_procs, levels). */
static void put_line_end(FILE *f, double g, double L)
{
    cost_jput_num(f, g);
    fputs(", \"L\": ", f);
    cost_jput_num(f, L);
    fputc('}', f);
}

static int has_byprocs(const cost_machine *m) { return m->nbyprocs > 0; }

static int put_byprocs(FILE *f, const cost_machine *m, const put_err *e)
{
    (void)e;
    size_t n = m->nbyprocs <= COST_MAX_PROCS ? m->nbyprocs : COST_MAX_PROCS;
    fputc('[', f);
    for (size_t i = 0; i < n; i++) {
        const cost_procs_fit *p = &m->byprocs[i];
        fprintf(f, "%s\n    {\"P\": %d, \"oversubscribed\": %s, ", i > 0 ? "," : "", p->procs,
                p->oversubscribed ? "true" : "false");
        if (p->start > 0)
            fprintf(f, "\"start\": %.17g, ", p->start);
        if (p->reg > 0)
            fprintf(f, "\"reg\": %.17g, ", p->reg);
        fputs("\"g\": ", f);
        put_line_end(f, p->g, p->L);
    }
    fputs("\n  ]", f);
    return 0;
}

static int has_table11(const cost_machine *m) { return m->nsizes > 0; }

static int put_table11(FILE *f, const cost_machine *m, const put_err *e)
{
    (void)e;
    size_t n = m->nsizes <= COST_MAX_SIZES ? m->nsizes : COST_MAX_SIZES;
    fputc('{', f);
    put_by_h(f, ",\n    ", m->t11_h, "averr", m->t11_averr, m->t11_maxerr, n);
    fputc('}', f);
    return 0;
}

/* "levels": [...] of n levels, each on a line of its own after indent. */
static void put_levels(FILE *f, const cost_level *levels, size_t n, const char *indent)
{
    n = n <= COST_MAX_LEVELS ? n : COST_MAX_LEVELS;
    fputs("\"levels\": [", f);
    for (size_t i = 0; i < n; i++) {
        const cost_level *l = &levels[i];
        fprintf(f, "%s\n%s{\"level\": %d, \"cluster\": %d, \"g\": ", i > 0 ? "," : "", indent,
                l->level, l->cluster);
        cost_jput_num(f, l->g);
        fputs(", \"L\": ", f);
        cost_jput_num(f, l->L);
        if (l->partition > 0 || l->rejoin > 0) {
            fputs(", \"partition\": ", f);
            cost_jput_num(f, l->partition);
            fputs(", \"rejoin\": ", f);
            cost_jput_num(f, l->rejoin);
        }
        fputc('}', f);
    }
    fputs("]", f);
}

static int has_dbsp(const cost_machine *m) { return m->nlevels > 0; }

static int put_dbsp(FILE *f, const cost_machine *m, const put_err *e)
{
    (void)e;
    fputc('{', f);
    put_levels(f, m->levels, m->nlevels, "    ");
    for (size_t k = 0; k < m->nlevels_procs && k < COST_MAX_PROCS; k++) {
        const cost_levels_procs *p = &m->levels_by_procs[k];
        fprintf(f, "%s      {\"P\": %d, \"oversubscribed\": %s, ",
                k == 0 ? ",\n    \"by_procs\": [\n" : ",\n", p->procs,
                p->oversubscribed ? "true" : "false");
        put_levels(f, p->levels, p->nlevels, "        ");
        fputc('}', f);
    }
    fputs(m->nlevels_procs > 0 ? "\n    ]}" : "}", f);
    return 0;
}

static void put_fn(FILE *f, const cost_ccm_fn *fn)
{
    fputs("{\"a\": ", f);
    cost_jput_num(f, fn->a);
    fputs(", \"b\": ", f);
    cost_jput_num(f, fn->b);
    fputs(fn->h_break != 0 ? ", \"c_below\": " : ", \"c\": ", f);
    cost_jput_num(f, fn->c);
    if (fn->h_break != 0) {
        fputs(", \"h_break\": ", f);
        cost_jput_num(f, fn->h_break);
        fputs(", \"c_above\": ", f);
        cost_jput_num(f, fn->c_above);
    }
    fputc('}', f);
}

static int is_division(const char *name)
{
    return strcmp(name, "partition") == 0 || strcmp(name, "rejoin") == 0;
}

/* "collectives": {...} of list[0, n), the division functions left out, then
 * "partition" and "rejoin"; indent is that of the member names. */
static int put_functions(FILE *f, const cost_ccm_coll *list, size_t n, const cost_ccm_fn *partition,
                         const cost_ccm_fn *rejoin, const char *indent, const char *path, char *err,
                         size_t errlen)
{
    fprintf(f, "%s\"collectives\": {", indent);
    size_t put = 0;
    for (size_t i = 0; i < n && put < COST_MAX_COLLECTIVES; i++) {
        if (is_division(list[i].name))
            continue;
        fprintf(f, "%s%s  ", put++ > 0 ? ",\n" : "\n", indent);
        if (cost_jput_str(f, list[i].name, sizeof list[i].name) < 0) {
            snprintf(err, errlen,
                     "%s: field 'ccm.collectives': expected a UTF-8 name (nothing written)", path);
            return -1;
        }
        fputs(": ", f);
        put_fn(f, &list[i].f);
    }
    if (put > 0)
        fprintf(f, "\n%s", indent);
    fprintf(f, "},\n%s\"partition\": ", indent);
    put_fn(f, partition);
    fprintf(f, ",\n%s\"rejoin\": ", indent);
    put_fn(f, rejoin);
    return 0;
}

static int has_ccm(const cost_machine *m) { return m->has_ccm; }

static int put_ccm(FILE *f, const cost_machine *m, const put_err *e)
{
    fputs("{\n", f);
    if (put_functions(f, m->coll, m->ncoll, &m->partition, &m->rejoin, "    ", e->path, e->err,
                      e->errlen) < 0)
        return -1;
    for (size_t k = 0; k < m->nccm_procs && k < COST_MAX_PROCS; k++) {
        const cost_ccm_procs *p = &m->ccm_procs[k];
        fprintf(f, "%s      {\"P\": %d, \"oversubscribed\": %s,\n",
                k == 0 ? ",\n    \"by_procs\": [\n" : ",\n", p->procs,
                p->oversubscribed ? "true" : "false");
        const cost_ccm_fn *part = cost_machine_ccm(m, "partition", p->procs);
        const cost_ccm_fn *rejoin = cost_machine_ccm(m, "rejoin", p->procs);
        if (put_functions(f, p->coll, p->ncoll, part, rejoin, "       ", e->path, e->err,
                          e->errlen) < 0)
            return -1;
        fputc('}', f);
    }
    fputs(m->nccm_procs > 0 ? "\n    ]\n  }" : "\n  }", f);
    return 0;
}

/* ---- the sections ---- */

/* The sections after a machine file's header, in the file's order: this one
 * table drives the reader and the writer, so that the two agree on each
 * section's name, place and presence. A section of plain numbers is described
 * by them (num): it is written when one of them is not zero (zero means "not
 * measured": none can validly be zero but B and the spread, and a zero spread
 * or a BSP* fit with g* = 0 says nothing), and "bsp", which is required,
 * always. A nested section has its reader (0 when read or absent, -1 on a
 * defect), a test of whether m has it, and the writer of its value. */
typedef struct section {
    const char *key, *want; /* want: what a section of numbers must be */
    int n;                  /* its numbers; 0 for a nested section */
    struct {
        const char *name;
        cost_bound bound;
        size_t at; /* offsetof in cost_machine */
    } num[2];
    int (*read)(cost_jctx *c, const json_t *root, cost_machine *m);
    int (*has)(const cost_machine *m);
    int (*put)(FILE *f, const cost_machine *m, const put_err *e);
} section;

#define NUMBER(name, bound, field)                                                                 \
    {                                                                                              \
        name, bound, offsetof(cost_machine, field)                                                 \
    }
#define NUMBERS(key_, want_, n_, ...)                                                              \
    {                                                                                              \
        .key = key_, .want = want_, .n = n_, .num = { __VA_ARGS__ }                                \
    }
#define NESTED(key_, name)                                                                         \
    {                                                                                              \
        .key = key_, .read = read_##name, .has = has_##name, .put = put_##name                     \
    }
enum { SECTION_BSP = 0, NSECTIONS = 15 };
static const section sections[NSECTIONS] = {
    NUMBERS("bsp", "an object with g and L", 2, NUMBER("g", COST_POS, g), NUMBER("L", COST_ANY, L)),
    NESTED("by_procs", byprocs),
    NESTED("patterns", patterns),
    NESTED("table11", table11),
    NUMBERS("bsp_hpput", "an object with g", 1, NUMBER("g", COST_POS, g_hpput)),
    NUMBERS("bspstar", "an object with g and B", 2, NUMBER("g", COST_POS, gstar),
            NUMBER("B", COST_NONNEG, B)),
    NUMBERS("rate", "an object with ops_per_second", 1,
            NUMBER("ops_per_second", COST_POS, rate[0])),
    NUMBERS("trace_rate", "an object with ops_per_second", 1,
            NUMBER("ops_per_second", COST_POS, trace_rate)),
    NUMBERS("trace_clock", "an object with ops_per_second", 1,
            NUMBER("ops_per_second", COST_POS, trace_clock)),
    NUMBERS("rate_spread", "an object with least and most", 2,
            NUMBER("least", COST_POS, rate_least), NUMBER("most", COST_POS, rate_most)),
    NUMBERS("op_rates", "an object with compares_per_second and words_per_second", 2,
            NUMBER("compares_per_second", COST_POS, rate[1]),
            NUMBER("words_per_second", COST_POS, rate[2])),
    NUMBERS("page_fault", "an object with fresh and after_read", 2,
            NUMBER("fresh", COST_POS, fault_touch[0]),
            NUMBER("after_read", COST_POS, fault_touch[1])),
    NUMBERS("noise", "an object with spread_percent", 1,
            NUMBER("spread_percent", COST_NONNEG, spread)),
    NESTED("dbsp", dbsp),
    NESTED("ccm", ccm),
};
#undef NUMBER
#undef NUMBERS
#undef NESTED

static double *num_at(cost_machine *m, const section *s, int i)
{
    return (double *)((char *)m + s->num[i].at);
}

static double num_value(const cost_machine *m, const section *s, int i)
{
    return *(const double *)((const char *)m + s->num[i].at);
}

/* A section of numbers: 1 when present and read, 0 when absent, -1 on a defect. */
static int read_numbers(cost_jctx *c, const json_t *root, const section *s, cost_machine *m)
{
    int failed = 0;
    const json_t *obj = enter(c, root, s->key, s->want, &failed);
    if (obj == NULL)
        return failed;
    for (int i = 0; i < s->n; i++)
        if (cost_jnum(c, obj, s->num[i].name, s->num[i].bound, num_at(m, s, i)) < 0)
            return -1;
    leave(c);
    return 1;
}

static int read_sections(cost_jctx *c, const json_t *root, cost_machine *m)
{
    for (int k = 0; k < NSECTIONS; k++) {
        const section *s = &sections[k];
        int rc = s->n > 0 ? read_numbers(c, root, s, m) : s->read(c, root, m);
        if (rc < 0)
            return -1;
        if (rc == 0 && k == SECTION_BSP)
            return cost_jfail(c, s->key, "missing (expected %s)", s->want);
    }
    m->hp_ratio = m->g_hpput > 0 ? m->g_hpput / m->g : 1;
    return 0;
}

static int has_numbers(const cost_machine *m, const section *s)
{
    for (int i = 0; i < s->n; i++)
        if (num_value(m, s, i) != 0)
            return 1;
    return 0;
}

static void put_numbers(FILE *f, const cost_machine *m, const section *s)
{
    fputc('{', f);
    for (int i = 0; i < s->n; i++) {
        fprintf(f, "%s\"%s\": ", i ? ", " : "", s->num[i].name);
        cost_jput_num(f, num_value(m, s, i));
    }
    fputc('}', f);
}

/* Each section m has, after a comma. */
static int put_sections(FILE *f, const cost_machine *m, const put_err *e)
{
    for (int k = 0; k < NSECTIONS; k++) {
        const section *s = &sections[k];
        if (s->n > 0 ? k != SECTION_BSP && !has_numbers(m, s) : !s->has(m))
            continue;
        fprintf(f, ",\n  \"%s\": ", s->key);
        if (s->n > 0)
            put_numbers(f, m, s);
        else if (s->put(f, m, e) < 0)
            return -1;
    }
    return 0;
}

/* Emits m as the text of a machine file; -1 (with the field named) for a string
 * that cannot be written. */
static int emit(FILE *f, const cost_machine *m, const char *path, char *err, size_t errlen)
{
    static const char *const names[3] = {"host", "engine", "date"};
    const char *values[3] = {m->host, m->engine, m->date};
    const size_t caps[3] = {sizeof m->host, sizeof m->engine, sizeof m->date};
    fprintf(f, "{\n  \"format\": \"polybsp-machine\",\n  \"version\": %d", COST_MACHINE_VERSION);
    for (int i = 0; i < 3; i++) {
        fprintf(f, ",\n  \"%s\": ", names[i]);
        if (cost_jput_str(f, values[i], caps[i]) < 0) {
            snprintf(err, errlen, "%s: field '%s': expected a UTF-8 string (nothing written)", path,
                     names[i]);
            return -1;
        }
    }
    fprintf(f, ",\n  \"cores\": %d,\n  \"procs\": [", m->cores);
    size_t np = m->nprocs <= COST_MAX_PROCS ? m->nprocs : COST_MAX_PROCS;
    for (size_t i = 0; i < np; i++)
        fprintf(f, "%s%d", i > 0 ? ", " : "", m->procs[i]);
    fprintf(f, "],\n  \"oversubscribed\": %s,\n  \"h_operator\": \"%s\",\n  \"unit\": \"byte\"",
            m->oversubscribed ? "true" : "false", m->h_sum ? "sum" : "max");
    const put_err e = {path, err, errlen};
    if (put_sections(f, m, &e) < 0)
        return -1;
    fputs("\n}\n", f);
    return 0;
}

int cost_machine_write(const char *path, const cost_machine *m, char *err, size_t errlen)
{
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    if (mem == NULL) {
        snprintf(err, errlen, "%s: cannot write: %s", path, strerror(errno));
        return -1;
    }
    int rc = emit(mem, m, path, err, errlen);
    if (fclose(mem) != 0 && rc == 0) {
        snprintf(err, errlen, "%s: cannot write: %s", path, strerror(errno));
        rc = -1;
    }
    if (rc == 0) {
        json_error_t je;
        cost_machine check;
        rc = parse_machine(json_loadb(text, len, JSON_REJECT_DUPLICATES, &je), &je, path, &check,
                           err, errlen);
        size_t used = errlen > 0 ? strlen(err) : 0;
        if (rc < 0 && used + 1 < errlen)
            snprintf(err + used, errlen - used, " (nothing written)");
    }
    char why[256];
    if (rc == 0 && core_file_write(path, text, len, why, sizeof why) != 0) {
        snprintf(err, errlen, "%s: cannot write: %s", path, why);
        rc = -1;
    }
    free(text);
    return rc;
}

int cost_levels_inverted(const double *L, size_t n)
{
    for (size_t i = 1; i < n && L[0] > 0; i++)
        if (L[i] > COST_LEVELS_INVERTED * L[0])
            return (int)i;
    return -1;
}

double cost_patterns_apart(const cost_machine *m, cost_pattern *fast, cost_pattern *slow)
{
    int lo = -1, hi = -1;
    for (int p = 0; p < COST_NPATTERNS; p++) {
        const cost_pattern_fit *f = &m->put[p];
        if (!f->measured || !(f->g > 0))
            continue;
        if (lo < 0 || f->g < m->put[lo].g)
            lo = p;
        if (hi < 0 || f->g > m->put[hi].g)
            hi = p;
    }
    if (lo < 0 || !(m->put[hi].g > COST_PATTERNS_APART * m->put[lo].g))
        return 0;
    *fast = (cost_pattern)lo;
    *slow = (cost_pattern)hi;
    return m->put[hi].g / m->put[lo].g;
}

int cost_patterns_note(const cost_machine *m, char *buf, size_t len)
{
    cost_pattern fast, slow;
    double apart = cost_patterns_apart(m, &fast, &slow);
    if (apart == 0)
        return 0;
    snprintf(buf, len,
             "the machine's patterns cost %.0fx apart per byte (%s %.4g to %s %.4g s/byte): a "
             "hierarchy one g cannot fit (BSP's g is a compromise between them, D-BSP's levels "
             "tell them apart: probe.md, \"Patterns that disagree\")",
             apart, cost_pattern_name(fast), m->put[fast].g, cost_pattern_name(slow),
             m->put[slow].g);
    return 1;
}

double cost_cores_apart(double least, double most)
{
    return least > 0 && most > COST_UNEQUAL_CORES * least ? most / least : 0;
}
