/* cost_trace_record — one header or record line against the schema (see
 * cost_trace_record.h).
 *
 * Each field is read into a core_trace_value as its type and limit say; the
 * record is made from the values once all are valid, so the messages of a
 * type or limit are worded once whatever field, of the header or a record,
 * has it.
 */
#include "cost/cost_trace_record.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct line {
    cost_jctx *c;
    const json_t *obj;
    int nprocs;
    const core_trace_field *fields; /* the schema's table the line is read against */
    int nfields;
    core_trace_value *v;  /* nfields, indexed as fields */
    int32_t *from;        /* the pids of "from", which the record takes even on a defect */
    uint64_t *from_bytes; /* likewise "from_bytes" */
} line;

static const char *key_of(const line *l, int id) { return l->fields[id].key; }

static int read_count(line *l, int id, long long lo, long long hi)
{
    long long n;
    if (cost_jint(l->c, l->obj, key_of(l, id), lo, hi, &n) < 0)
        return -1;
    l->v[id].v.n = (uint64_t)n;
    return 0;
}

static int read_format(line *l, int id)
{
    const char *want = "\"" CORE_TRACE_FORMAT "\"";
    json_t *v = cost_jget(l->c, l->obj, key_of(l, id), want);
    if (v == NULL)
        return -1;
    if (!json_is_string(v) || strcmp(json_string_value(v), CORE_TRACE_FORMAT) != 0)
        return cost_jfail(l->c, key_of(l, id), "expected %s", want);
    l->v[id].v.s = json_string_value(v);
    return 0;
}

/* A reader knows one version: a trace of another may mean other things by
 * the same members, so it is refused rather than misread. */
static int read_version(line *l, int id)
{
    char want[32];
    snprintf(want, sizeof want, "the integer %d", CORE_TRACE_VERSION);
    json_t *v = cost_jget(l->c, l->obj, key_of(l, id), want);
    if (v == NULL)
        return -1;
    if (!json_is_integer(v))
        return cost_jfail(l->c, key_of(l, id), "expected %s", want);
    if (json_integer_value(v) != CORE_TRACE_VERSION)
        return cost_jfail(l->c, key_of(l, id), "version %lld is not supported (expected %d)",
                          (long long)json_integer_value(v), CORE_TRACE_VERSION);
    l->v[id].v.n = CORE_TRACE_VERSION;
    return 0;
}

/* Any string, or with the ENGINE limit one of at most CORE_TRACE_ENGINE_MAX
 * bytes, which is refused beyond that rather than cut: an engine's name is
 * compared with a machine file's. */
static int read_text(line *l, int id)
{
    char want[64] = "a string";
    size_t most = SIZE_MAX;
    if (l->fields[id].limit == CORE_TL_ENGINE) {
        most = CORE_TRACE_ENGINE_MAX;
        snprintf(want, sizeof want, "a string of at most %zu bytes", most);
    }
    json_t *v = cost_jget(l->c, l->obj, key_of(l, id), want);
    if (v == NULL)
        return -1;
    if (!json_is_string(v) || json_string_length(v) > most)
        return cost_jfail(l->c, key_of(l, id), "expected %s", want);
    l->v[id].v.s = json_string_value(v);
    return 0;
}

/* The kind: its name as written, which a kind no schema row names keeps. */
static int read_kind(line *l, int id)
{
    char want[64];
    snprintf(want, sizeof want, "a string of 1 to %d bytes", CORE_TRACE_KIND_MAX);
    json_t *v = cost_jget(l->c, l->obj, key_of(l, id), want);
    if (v == NULL)
        return -1;
    if (!json_is_string(v) || json_string_length(v) == 0 ||
        json_string_length(v) > CORE_TRACE_KIND_MAX)
        return cost_jfail(l->c, key_of(l, id), "expected %s", want);
    l->v[id].v.s = json_string_value(v);
    return 0;
}

/* A group path: 1 to CORE_TRACE_DEPTH_MAX part indices in [0, INT_MAX], decimal
 * without leading zeros, separated by '/'. */
static int valid_path(const char *s, size_t len)
{
    size_t depth = 0, i = 0;
    while (i < len) {
        size_t j = i;
        long long v = 0;
        while (j < len && s[j] >= '0' && s[j] <= '9' && v <= INT_MAX)
            v = 10 * v + (s[j++] - '0');
        if (j == i || v > INT_MAX || (s[i] == '0' && j - i > 1) || ++depth > CORE_TRACE_DEPTH_MAX)
            return 0;
        if (j < len && (s[j] != '/' || j + 1 == len))
            return 0;
        i = j + 1;
    }
    return depth > 0;
}

static int read_path(line *l, int id)
{
    const json_t *v = json_object_get(l->obj, key_of(l, id));
    if (!json_is_string(v) || !valid_path(json_string_value(v), json_string_length(v)))
        return cost_jfail(l->c, key_of(l, id),
                          "expected a path of 1 to %d part indices such as \"0/1\"",
                          CORE_TRACE_DEPTH_MAX);
    l->v[id].v.s = json_string_value(v);
    return 0;
}

/* A name of lower-case letters, digits and '_': CCM joins the "alg" to the kind
 * as the name of a cost function ("bcast.twophase"). */
static int read_name(line *l, int id)
{
    char want[80];
    snprintf(want, sizeof want, "a name of 1 to %d lower-case letters, digits or '_'",
             CORE_TRACE_ALG_MAX);
    const json_t *v = json_object_get(l->obj, key_of(l, id));
    if (!json_is_string(v) || json_string_length(v) == 0 ||
        json_string_length(v) > CORE_TRACE_ALG_MAX)
        return cost_jfail(l->c, key_of(l, id), "expected %s", want);
    const char *s = json_string_value(v);
    for (const char *q = s; *q; q++)
        if (!((*q >= 'a' && *q <= 'z') || (*q >= '0' && *q <= '9') || *q == '_'))
            return cost_jfail(l->c, key_of(l, id), "expected %s", want);
    l->v[id].v.s = s;
    return 0;
}

/* Each kind of operation is a member of its own, optional (-1 when absent). */
static int read_amounts(line *l, int id)
{
    core_trace_value *v = &l->v[id];
    for (int k = 0; k < CORE_OPS_KINDS; k++) {
        v->v.amounts[k] = -1;
        if (json_object_get(l->obj, core_ops_key(k)) != NULL &&
            cost_jnum(l->c, l->obj, core_ops_key(k), COST_NONNEG, &v->v.amounts[k]) < 0)
            return -1;
    }
    return 0;
}

/* Field id's array, of len elements when len >= 0, with room for its
 * elements of size bytes each in *room (NULL when it is empty); NULL after
 * the message "expected WANT" or "out of memory". */
static json_t *array_of(line *l, int id, const char *want, long len, size_t size, void **room)
{
    *room = NULL;
    json_t *a = cost_jget(l->c, l->obj, key_of(l, id), want);
    if (a == NULL)
        return NULL;
    if (!json_is_array(a) || (len >= 0 && json_array_size(a) != (size_t)len)) {
        cost_jfail(l->c, key_of(l, id), "expected %s", want);
        return NULL;
    }
    size_t n = json_array_size(a);
    if (n > 0 && (*room = malloc(n * size)) == NULL) {
        cost_jfail(l->c, key_of(l, id), "out of memory");
        return NULL;
    }
    return a;
}

static int read_pids(line *l, int id, int other_than)
{
    char want[128];
    int n =
        snprintf(want, sizeof want, "an ascending array of distinct pids in [0,%d]", l->nprocs - 1);
    if (other_than >= 0)
        snprintf(want + n, sizeof want - (size_t)n, " other than %d", other_than);
    void *room;
    json_t *a = array_of(l, id, want, -1, sizeof(int32_t), &room);
    if (a == NULL)
        return -1;
    int32_t *pids = room;
    size_t len = json_array_size(a);
    l->from = pids;
    l->v[id].v.list.pids = pids;
    l->v[id].v.list.npids = len;
    for (size_t k = 0; k < len; k++) {
        const json_t *e = json_array_get(a, k);
        long long p = json_is_integer(e) ? json_integer_value(e) : -1;
        if (p < 0 || p >= l->nprocs || p == other_than || (k > 0 && p <= pids[k - 1]))
            return cost_jfail(l->c, key_of(l, id), "expected %s", want);
        pids[k] = (int32_t)p;
    }
    return 0;
}

/* One count per pid of the PIDS field before it (from_bytes: per pid of from),
 * whose sum the limit bounds (check_limit). */
static int read_counts(line *l, int id)
{
    const core_trace_value *pids = &l->v[id - 1];
    char want[96];
    snprintf(want, sizeof want, "an array of %zu integers >= 0, one per pid of %s",
             pids->v.list.npids, key_of(l, id - 1));
    void *room;
    json_t *a = array_of(l, id, want, (long)pids->v.list.npids, sizeof(uint64_t), &room);
    if (a == NULL)
        return -1;
    uint64_t *counts = room;
    l->from_bytes = counts;
    l->v[id].v.list.counts = counts;
    l->v[id].v.list.npids = pids->v.list.npids;
    for (size_t k = 0; k < pids->v.list.npids; k++) {
        const json_t *e = json_array_get(a, k);
        if (!json_is_integer(e) || json_integer_value(e) < 0)
            return cost_jfail(l->c, key_of(l, id), "expected %s", want);
        counts[k] = (uint64_t)json_integer_value(e);
    }
    return 0;
}

/* The field's value as its type says. */
static int read_typed(line *l, int id)
{
    const core_trace_field *d = &l->fields[id];
    switch (d->type) {
    case CORE_TT_FORMAT: return read_format(l, id);
    case CORE_TT_VERSION: return read_version(l, id);
    case CORE_TT_TEXT: return read_text(l, id);
    case CORE_TT_RATE: return cost_jnum(l->c, l->obj, d->key, COST_POS, &l->v[id].v.x);
    case CORE_TT_COUNT:
        if (d->limit == CORE_TL_SIZE)
            return read_count(l, id, 1, INT_MAX);
        return read_count(l, id, 0, d->limit == CORE_TL_INT ? INT_MAX : LLONG_MAX);
    case CORE_TT_PID: return read_count(l, id, 0, l->nprocs - 1);
    case CORE_TT_KIND: return read_kind(l, id);
    case CORE_TT_PATH: return read_path(l, id);
    case CORE_TT_NAME: return read_name(l, id);
    case CORE_TT_SECONDS:
    case CORE_TT_CLOCK: return cost_jnum(l->c, l->obj, d->key, COST_NONNEG, &l->v[id].v.x);
    case CORE_TT_AMOUNTS: return read_amounts(l, id);
    case CORE_TT_COUNTS: return read_counts(l, id);
    default: /* CORE_TT_PIDS */
        return read_pids(l, id, d->limit == CORE_TL_OTHER ? (int)l->v[CORE_TF_PID].v.n : -1);
    }
}

static uint64_t count_of(const line *l, core_trace_field_id id)
{
    return l->v[id].present ? l->v[id].v.n : 0;
}

/* An OUT or IN field: at most the bytes of its direction less self_bytes and
 * the fields of its limit before it, which the message names ("hp_bytes"). */
static int check_once(line *l, core_trace_field_id id, core_trace_field_id total)
{
    core_trace_limit limit = l->fields[id].limit;
    uint64_t most = l->v[total].v.n - count_of(l, CORE_TF_SELF_BYTES);
    char earlier[128] = "";
    size_t at = 0;
    for (int e = 0; e < (int)id; e++) {
        const core_trace_field *d = &l->fields[e];
        if (d->limit != limit)
            continue;
        most -= count_of(l, (core_trace_field_id)e);
        size_t stem = strlen(d->key) - (limit == CORE_TL_OUT ? 4 : 3); /* less "_out", "_in" */
        at += (size_t)snprintf(earlier + at, sizeof earlier - at, " and %.*s", (int)stem, d->key);
    }
    if (l->v[id].v.n > most)
        return cost_jfail(l->c, key_of(l, id), "expected an integer <= %llu (%s less self_bytes%s)",
                          (unsigned long long)most, key_of(l, total), earlier);
    return 0;
}

/* An at-most-both limit: of what in and out count, the part a process moved to itself. */
static int check_self(line *l, core_trace_field_id id, core_trace_field_id in,
                      core_trace_field_id out)
{
    uint64_t most = l->v[in].v.n < l->v[out].v.n ? l->v[in].v.n : l->v[out].v.n;
    if (l->v[id].v.n > most)
        return cost_jfail(l->c, key_of(l, id), "expected an integer <= %s and %s (%llu)",
                          key_of(l, in), key_of(l, out), (unsigned long long)most);
    return 0;
}

/* The field's limit: bounds that refer to fields read before it (a record's
 * alone). */
static int check_limit(line *l, int id)
{
    double x = l->v[id].v.x;
    switch (l->fields[id].limit) {
    case CORE_TL_W:
        if (x > l->v[CORE_TF_W].v.x)
            return cost_jfail(l->c, key_of(l, id), "expected a number in [0, w] (w = %.17g)",
                              l->v[CORE_TF_W].v.x);
        return 0;
    case CORE_TL_BYTES: return check_self(l, id, CORE_TF_BYTES_IN, CORE_TF_BYTES_OUT);
    case CORE_TL_MSGS: return check_self(l, id, CORE_TF_MSGS_IN, CORE_TF_MSGS_OUT);
    case CORE_TL_OUT: return check_once(l, id, CORE_TF_BYTES_OUT);
    case CORE_TL_IN: return check_once(l, id, CORE_TF_BYTES_IN);
    case CORE_TL_FROM: {
        /* Counted down from the most, so that no sum of large counts wraps. */
        uint64_t most = l->v[CORE_TF_BYTES_IN].v.n - count_of(l, CORE_TF_SELF_BYTES), left = most;
        for (size_t k = 0; k < l->v[id].v.list.npids; k++) {
            if (l->v[id].v.list.counts[k] > left)
                return cost_jfail(l->c, key_of(l, id),
                                  "expected counts whose sum is <= %llu (bytes_in less self_bytes)",
                                  (unsigned long long)most);
            left -= l->v[id].v.list.counts[k];
        }
        return 0;
    }
    case CORE_TL_ENTER:
        if (x < l->v[CORE_TF_T_ENTER].v.x)
            return cost_jfail(l->c, key_of(l, id), "expected a number >= t_enter (%.17g)",
                              l->v[CORE_TF_T_ENTER].v.x);
        return 0;
    default: return 0; /* NONE, and INT, SIZE, ENGINE and OTHER, which read_typed checks */
    }
}

static int absent(const line *l, int id) { return json_object_get(l->obj, key_of(l, id)) == NULL; }

/* Every field of the line's table, in its order; a pair's limits once both
 * are read. */
static int read_values(line *l)
{
    for (int id = 0; id < l->nfields; id++) {
        const core_trace_field *d = &l->fields[id];
        core_trace_value *v = &l->v[id];
        if (d->presence == CORE_TP_PAIR && absent(l, id) && absent(l, id + 1)) {
            id++;
            continue;
        }
        v->present =
            d->type == CORE_TT_AMOUNTS || d->presence != CORE_TP_OPTIONAL || !absent(l, id);
        if (!v->present)
            continue;
        if (read_typed(l, id) < 0)
            return -1;
        if (d->presence == CORE_TP_PAIR)
            continue;
        if (id > 0 && l->fields[id - 1].presence == CORE_TP_PAIR && check_limit(l, id - 1) < 0)
            return -1;
        if (check_limit(l, id) < 0)
            return -1;
    }
    return 0;
}

/* A count that may be absent: -1 then ("not counted", "not part of a collective"). */
static long long optional_count(const line *l, core_trace_field_id id)
{
    return l->v[id].present ? (long long)l->v[id].v.n : -1;
}

/* The record from valid values. Its traffic is with the other processes: what a
 * process moved to itself is taken out of both sides; once_* is the part copied
 * once (bsp_hpput's and bsp_send's), hp_* bsp_hpput's. */
static int make_record(line *l, cost_rec *r, int *self_unknown)
{
    const core_trace_value *v = l->v;
    r->step = (unsigned long)v[CORE_TF_STEP].v.n;
    r->pid = (int)v[CORE_TF_PID].v.n;
    snprintf(r->kind, sizeof r->kind, "%s", v[CORE_TF_KIND].v.s);
    r->step_kind = core_kind_of(r->kind);
    r->level = (int)v[CORE_TF_LEVEL].v.n;
    if (v[CORE_TF_GROUP].present && (r->group = strdup(v[CORE_TF_GROUP].v.s)) == NULL)
        return cost_jfail(l->c, key_of(l, CORE_TF_GROUP), "out of memory");
    r->op = optional_count(l, CORE_TF_OP);
    snprintf(r->alg, sizeof r->alg, "%s", v[CORE_TF_ALG].present ? v[CORE_TF_ALG].v.s : "");
    r->w = v[CORE_TF_W].v.x;
    /* Absent: "not timed" (an older writer, or SMPI): then all of w is work. */
    r->cpu = v[CORE_TF_CPU].present ? v[CORE_TF_CPU].v.x : -1;
    r->copy = v[CORE_TF_COPY].present ? v[CORE_TF_COPY].v.x : 0;
    r->setup = v[CORE_TF_SETUP].present ? v[CORE_TF_SETUP].v.x : 0;
    memcpy(r->ops, v[CORE_TF_OPS].v.amounts, sizeof r->ops);
    uint64_t self_bytes = count_of(l, CORE_TF_SELF_BYTES),
             self_msgs = count_of(l, CORE_TF_SELF_MSGS);
    *self_unknown |= !v[CORE_TF_SELF_BYTES].present;
    r->bytes_out = v[CORE_TF_BYTES_OUT].v.n - self_bytes;
    r->msgs_out = v[CORE_TF_MSGS_OUT].v.n - self_msgs;
    r->bytes_in = v[CORE_TF_BYTES_IN].v.n - self_bytes;
    r->msgs_in = v[CORE_TF_MSGS_IN].v.n - self_msgs;
    r->hp_out = count_of(l, CORE_TF_HP_BYTES_OUT);
    r->hp_in = count_of(l, CORE_TF_HP_BYTES_IN);
    r->once_out = r->hp_out + count_of(l, CORE_TF_SEND_BYTES_OUT);
    r->once_in = r->hp_in + count_of(l, CORE_TF_SEND_BYTES_IN);
    r->faults = optional_count(l, CORE_TF_FAULTS);
    r->fresh = optional_count(l, CORE_TF_FRESH);
    r->w_faults = optional_count(l, CORE_TF_W_FAULTS);
    r->preempt = optional_count(l, CORE_TF_PREEMPT);
    r->regs = (long long)count_of(l, CORE_TF_REGS);
    r->t_enter = v[CORE_TF_T_ENTER].v.x;
    r->t_exit = v[CORE_TF_T_EXIT].v.x;
    return 0;
}

int cost_trace_read_header(cost_jctx *c, const json_t *obj, core_trace_value v[CORE_TH_COUNT])
{
    memset(v, 0, CORE_TH_COUNT * sizeof *v);
    line l = {
        .c = c, .obj = obj, .fields = core_trace_header_fields(), .nfields = CORE_TH_COUNT, .v = v};
    return read_values(&l);
}

int cost_trace_read_record(cost_jctx *c, const json_t *obj, int nprocs, cost_rec *r,
                           int *self_unknown)
{
    core_trace_value v[CORE_TF_COUNT] = {{0}};
    line l = {.c = c,
              .obj = obj,
              .nprocs = nprocs,
              .fields = core_trace_record_fields(),
              .nfields = CORE_TF_COUNT,
              .v = v};
    int rc = read_values(&l);
    r->from = l.from;
    r->from_bytes = l.from_bytes;
    r->nfrom = l.v[CORE_TF_FROM].v.list.npids;
    return rc < 0 ? -1 : make_record(&l, r, self_unknown);
}
