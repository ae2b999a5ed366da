/* probe_raw — the probe's samples as a file, and back (contract in probe_raw.h). */
#include "probe/probe_raw.h"

#include "core/core_file.h"
#include "cost/cost_json.h"

#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

static const char *const prim_names[PROBE_NPRIMS] = {"bsp_put", "bsp_hpput"};

/* The patterns' names as in the machine file, then the two other kinds of cell. */
static const char *kind_name(int pattern)
{
    if (pattern == PROBE_RAW_EMPTY)
        return "empty";
    if (pattern == PROBE_RAW_BSPSTAR)
        return "bspstar";
    return cost_pattern_name((cost_pattern)pattern);
}

static int kind_of(const probe_data *d, size_t c)
{
    size_t empty = probe_empty_cell(d->nsizes);
    return c < empty ? (int)d->cells[c].pattern : c == empty ? PROBE_RAW_EMPTY : PROBE_RAW_BSPSTAR;
}

int probe_raw_write(const char *path, const cost_machine *m, const probe_data *d,
                    const double *const *samples, char *err, size_t errlen)
{
    core_file w;
    char why[256];
    if (core_file_create(&w, path, why, sizeof why) != 0) {
        snprintf(err, errlen, "%s: cannot write: %s", path, why);
        return -1;
    }
    FILE *f = w.f;
    fputs("{\n  \"format\": \"polybsp-probe-raw\",\n  \"version\": 1,\n  \"host\": ", f);
    if (cost_jput_str(f, m->host, sizeof m->host) < 0)
        fputs("null", f);
    fprintf(f,
            ",\n  \"engine\": \"%s\",\n  \"date\": \"%s\",\n  \"unit\": \"seconds\",\n"
            "  \"cells\": [",
            m->engine, m->date);
    const char *sep = "\n";
    for (size_t p = 0; p < d->nprocs; p++)
        for (size_t c = 0; c < d->ncells; c++) {
            size_t at = p * d->ncells + c, n = d->stat[at].n;
            if (n == 0 || samples[at] == NULL)
                continue;
            const probe_cell *cell = &d->cells[c];
            fprintf(f,
                    "%s    {\"procs\": %d, \"primitive\": \"%s\", \"pattern\": \"%s\", "
                    "\"h\": %ld, \"messages\": %d, \"samples\": [",
                    sep, d->procs[p], prim_names[cell->prim], kind_name(kind_of(d, c)), cell->h,
                    cell->split);
            /* Six digits: a nanosecond of a millisecond superstep, far below
             * the spread of repeated samples; the file stays a third as long. */
            for (size_t k = 0; k < n; k++)
                fprintf(f, "%s%.6g", k > 0 ? ", " : "", samples[at][k]);
            fputs("]}", f);
            sep = ",\n";
        }
    fputs("\n  ]\n}\n", f);
    if (core_file_commit(&w, why, sizeof why) != 0) {
        snprintf(err, errlen, "%s: cannot write: %s", path, why);
        return -1;
    }
    return 0;
}

static int name_index(const char *name, int count, const char *(*name_of)(int))
{
    for (int i = 0; i < count; i++)
        if (strcmp(name, name_of(i)) == 0)
            return i;
    return -1;
}

static const char *prim_name(int i) { return prim_names[i]; }

/* A string member among count names (name_of(0 .. count-1)): its index, or -1
 * after reporting what was expected. */
static int read_choice(cost_jctx *c, const json_t *o, const char *key, int count,
                       const char *(*name_of)(int), const char *expected)
{
    const json_t *v = cost_jget(c, o, key, expected);
    if (v == NULL)
        return -1;
    int i = json_is_string(v) ? name_index(json_string_value(v), count, name_of) : -1;
    if (i < 0)
        cost_jfail(c, key, "expected %s", expected);
    return i;
}

static int read_cell(cost_jctx *c, const json_t *o, probe_raw_cell *cell)
{
    long long procs, h, messages;
    if (cost_jint(c, o, "procs", 1, INT_MAX, &procs) < 0 ||
        cost_jint(c, o, "h", 0, LONG_MAX, &h) < 0 ||
        cost_jint(c, o, "messages", 1, INT_MAX, &messages) < 0)
        return -1;
    int prim = read_choice(c, o, "primitive", PROBE_NPRIMS, prim_name, "bsp_put or bsp_hpput");
    if (prim < 0)
        return -1;
    int kind = read_choice(c, o, "pattern", PROBE_RAW_BSPSTAR + 1, kind_name,
                           "exchange, pingpong, onetoall, alltoone, alltoall, empty or bspstar");
    if (kind < 0)
        return -1;
    const json_t *a = cost_jget(c, o, "samples", "an array of numbers >= 0");
    if (a == NULL)
        return -1;
    if (!json_is_array(a) || json_array_size(a) == 0)
        return cost_jfail(c, "samples", "expected an array of numbers >= 0");
    *cell = (probe_raw_cell){.procs = (int)procs,
                             .prim = (probe_prim)prim,
                             .pattern = kind,
                             .h = (long)h,
                             .messages = (int)messages,
                             .n = json_array_size(a)};
    cell->samples = malloc(cell->n * sizeof *cell->samples);
    if (cell->samples == NULL)
        return cost_jfail_line(c, "out of memory");
    for (size_t k = 0; k < cell->n; k++) {
        const json_t *v = json_array_get(a, k);
        if (!cost_jnum_ok(v, COST_NONNEG)) {
            char key[40];
            snprintf(key, sizeof key, "samples[%zu]", k);
            return cost_jfail(c, key, "expected a number >= 0");
        }
        cell->samples[k] = json_number_value(v);
    }
    return 0;
}

static int read_raw(cost_jctx *c, const json_t *root, probe_raw *r)
{
    const char *format = json_string_value(json_object_get(root, "format"));
    if (!format || strcmp(format, "polybsp-probe-raw") != 0)
        return cost_jfail_line(c, "not a probe raw file (expected the output of polybsp probe "
                                  "--raw FILE)");
    long long version;
    if (cost_jint(c, root, "version", 1, 1, &version) < 0 ||
        cost_jstr(c, root, "host", r->host, sizeof r->host) < 0 ||
        cost_jstr(c, root, "engine", r->engine, sizeof r->engine) < 0 ||
        cost_jstr(c, root, "date", r->date, sizeof r->date) < 0)
        return -1;
    const json_t *cells = cost_jget(c, root, "cells", "an array of cells");
    if (cells == NULL)
        return -1;
    if (!json_is_array(cells))
        return cost_jfail(c, "cells", "expected an array of cells");
    r->cells = calloc(json_array_size(cells) + 1, sizeof *r->cells);
    if (r->cells == NULL)
        return cost_jfail_line(c, "out of memory");
    for (size_t i = 0; i < json_array_size(cells); i++) {
        const json_t *cell = json_array_get(cells, i);
        char key[40];
        snprintf(key, sizeof key, "cells[%zu]", i);
        if (!json_is_object(cell))
            return cost_jfail(c, key, "expected an object");
        snprintf(c->path, sizeof c->path, "%s.", key);
        int rc = read_cell(c, cell, &r->cells[i]);
        r->ncells += r->cells[i].samples != NULL;
        if (rc < 0)
            return -1;
    }
    return 0;
}

int probe_raw_read(const char *path, probe_raw *r, char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    cost_jctx c = {.err = err, .errlen = errlen, .where = path};
    FILE *in = fopen(path, "r");
    if (in == NULL) {
        snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    json_error_t je;
    json_t *root = json_loadf(in, JSON_REJECT_DUPLICATES, &je);
    fclose(in);
    if (root == NULL) {
        char where[64 + 4096];
        snprintf(where, sizeof where, "%s:%d", path, je.line);
        c.where = where;
        return cost_jfail_syntax(&c, &je);
    }
    int rc = json_is_object(root) ? read_raw(&c, root, r)
                                  : cost_jfail_line(&c, "expected a JSON object");
    json_decref(root);
    if (rc < 0)
        probe_raw_free(r);
    return rc;
}

void probe_raw_free(probe_raw *r)
{
    for (size_t i = 0; i < r->ncells; i++)
        free(r->cells[i].samples);
    free(r->cells);
    memset(r, 0, sizeof *r);
}
