/* trace_schema — the trace's writer and reader agree on the schema
 * (src/core/core_trace_schema.h): a run whose supersteps give every field of a
 * record something to say (tracing begun mid-run: setup; declared operations of
 * each kind; puts to others and to itself: copy, self_*; an hpput and a
 * message: hp_bytes_*, send_bytes_*; a broadcast with a named algorithm: op,
 * alg; a partition: group, level) writes a trace in which every member of every
 * record is a schema field, every schema field appears, and the reader takes
 * back what the writer wrote: each record's kind as its enum, and each field's
 * value. The same for the header written at the end, which has every field of
 * the header's schema (the machine's included, and "solo" and "footprint": the test runs with
 * POLYBSP_SOLO=smpi). Threads engine, P = 2: the trace is
 * polybsp-trace.jsonl in the working directory (tests/cost/CMakeLists.txt, cost_trace_schema).
 * Prints one line and exits 1 on a failed check.
 */
#include "cost/cost_trace.h"

#include <bsp.h>
#include <jansson.h>
#include <polybsp.h>
#include <polybsp_coll.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TRACE "polybsp-trace.jsonl"

static int failed;

static void fail(const char *what, size_t line)
{
    fprintf(stderr, "trace_schema: %s:%zu: %s\n", TRACE, line, what);
    failed = 1;
}

static void spmd(void)
{
    /* Each process its own (the threads engine's processes share globals). */
    static _Thread_local double buf[512], src[512], hp[16];
    bsp_begin(2);
    int other = 1 - (int)bsp_pid();
    bsp_push_reg(buf, sizeof buf);
    bsp_sync();
    bsp_trace_begin();
    bsp_trace_ops_of(POLYBSP_OPS_FLOP, 10);
    bsp_trace_ops_of(POLYBSP_OPS_COMPARE, 5);
    bsp_trace_ops_of(POLYBSP_OPS_WORD, 3);
    bsp_put(other, src, buf, 0, 128 * sizeof *src);
    bsp_put(bsp_pid(), src, buf, 256 * sizeof *src, sizeof *src);
    bsp_hpput(other, hp, buf, 128 * sizeof *buf, sizeof hp);
    bsp_send(other, NULL, src, 16);
    bsp_sync();
    bsp_bcast_with(BSP_BCAST_TWOPHASE, 0, buf, 64);
    bsp_partition(2, NULL);
    bsp_sync();
    bsp_rejoin();
    bsp_trace_end();
    bsp_end();
}

/* Whether key names a field of the schema. */
static int field_of(const char *key, int *id, int *ops)
{
    for (*id = 0; *id < CORE_TF_COUNT; (*id)++) {
        const core_trace_field *d = core_trace_field_of((core_trace_field_id)*id);
        for (*ops = 0; d->type == CORE_TT_AMOUNTS && *ops < CORE_OPS_KINDS; (*ops)++)
            if (strcmp(key, core_ops_key(*ops)) == 0)
                return 1;
        if (d->key != NULL && strcmp(key, d->key) == 0)
            return 1;
    }
    return 0;
}

static double number(const json_t *obj, const char *key, double absent)
{
    const json_t *v = json_object_get(obj, key);
    return v != NULL ? json_number_value(v) : absent;
}

static long long integer(const json_t *obj, const char *key, long long absent)
{
    const json_t *v = json_object_get(obj, key);
    return v != NULL ? json_integer_value(v) : absent;
}

/* The header: every member a field of the header's schema, every field
 * there, and what the reader made of it what the writer wrote. */
static void same_header(json_t *o, const cost_trace *t)
{
    const core_trace_field *fields = core_trace_header_fields();
    const char *key;
    json_t *v;
    json_object_foreach(o, key, v)
    {
        int id = 0;
        while (id < CORE_TH_COUNT && strcmp(key, fields[id].key) != 0)
            id++;
        if (id == CORE_TH_COUNT)
            fail("a member of the header the schema does not have", 1);
    }
    for (int id = 0; id < CORE_TH_COUNT; id++)
        if (json_object_get(o, fields[id].key) == NULL) {
            fprintf(stderr, "trace_schema: the header has no \"%s\"\n", fields[id].key);
            failed = 1;
        }
    const char *program = json_string_value(json_object_get(o, "program"));
    if (strcmp(json_string_value(json_object_get(o, "format")), CORE_TRACE_FORMAT) != 0 ||
        t->version != integer(o, "version", -1) || t->nprocs != integer(o, "nprocs", -1) ||
        strcmp(t->engine, json_string_value(json_object_get(o, "engine"))) != 0 ||
        program == NULL || strncmp(t->program, program, sizeof t->program - 1) != 0 ||
        strcmp(t->host, json_string_value(json_object_get(o, "host"))) != 0 ||
        t->cores != integer(o, "cores", -1) || t->rate != number(o, "rate", -1) ||
        t->solo != (integer(o, "solo", -1) > 0))
        fail("the header read back otherwise", 1);
}

/* What the reader made of the record is what the writer wrote. */
static void same_record(const json_t *o, const cost_rec *r, size_t line)
{
    const char *kind = json_string_value(json_object_get(o, "kind"));
    const json_t *group = json_object_get(o, "group"), *alg = json_object_get(o, "alg");
    long long self_bytes = integer(o, "self_bytes", 0), self_msgs = integer(o, "self_msgs", 0);
    if (r->step_kind != core_kind_of(kind) || r->step_kind == CORE_KIND_OTHER ||
        strcmp(r->kind, kind) != 0 || strcmp(core_kind_name(r->step_kind), kind) != 0)
        fail("kind read back otherwise", line);
    if (r->level != integer(o, "level", -1) || r->op != integer(o, "op", -1) ||
        strcmp(cost_rec_group(r), group ? json_string_value(group) : "") != 0 ||
        strcmp(r->alg, alg ? json_string_value(alg) : "") != 0)
        fail("level, op, group or alg read back otherwise", line);
    if (r->w != number(o, "w", -1) || r->cpu != number(o, "cpu", -1) ||
        r->copy != number(o, "copy", 0) || r->setup != number(o, "setup", 0) ||
        r->t_enter != number(o, "t_enter", -1) || r->t_exit != number(o, "t_exit", -1))
        fail("a time read back otherwise", line);
    for (int k = 0; k < CORE_OPS_KINDS; k++)
        if (r->ops[k] != number(o, core_ops_key(k), -1))
            fail("declared operations read back otherwise", line);
    if (r->faults != integer(o, "faults", -1) || r->fresh != integer(o, "fresh", -1) ||
        r->w_faults != integer(o, "w_faults", -1) || r->preempt != integer(o, "preempt", -1))
        fail("a fault or preemption count read back otherwise", line);
    if ((long long)r->bytes_out != integer(o, "bytes_out", 0) - self_bytes ||
        (long long)r->bytes_in != integer(o, "bytes_in", 0) - self_bytes ||
        (long long)r->msgs_out != integer(o, "msgs_out", 0) - self_msgs ||
        (long long)r->msgs_in != integer(o, "msgs_in", 0) - self_msgs ||
        (long long)r->hp_out != integer(o, "hp_bytes_out", 0) ||
        (long long)r->hp_in != integer(o, "hp_bytes_in", 0) ||
        (long long)r->once_out != integer(o, "hp_bytes_out", 0) + integer(o, "send_bytes_out", 0) ||
        (long long)r->once_in != integer(o, "hp_bytes_in", 0) + integer(o, "send_bytes_in", 0))
        fail("the traffic read back otherwise", line);
    const json_t *from = json_object_get(o, "from");
    int same = r->nfrom == json_array_size(from);
    for (size_t i = 0; same && i < r->nfrom; i++)
        same = r->from[i] == json_integer_value(json_array_get(from, i));
    if (!same)
        fail("from read back otherwise", line);
}

/* The record of (step, pid) that the reader kept, or NULL. */
static const cost_rec *kept(const cost_trace *t, unsigned long step, int pid)
{
    for (unsigned long k = 0; k < cost_trace_len(t, pid); k++)
        if (cost_trace_rec(t, k, pid)->step == step)
            return cost_trace_rec(t, k, pid);
    return NULL;
}

static void check(void)
{
    cost_trace t;
    char err[512];
    if (cost_trace_read(TRACE, &t, err, sizeof err) < 0) {
        fprintf(stderr, "trace_schema: %s\n", err);
        exit(1);
    }
    int seen[CORE_TF_COUNT][CORE_OPS_KINDS] = {{0}};
    FILE *f = fopen(TRACE, "r");
    char text[65536];
    size_t line = 0, records = 0;
    while (f != NULL && fgets(text, sizeof text, f) != NULL) {
        json_t *o = json_loads(text, 0, NULL);
        if (++line == 1)
            same_header(o, &t);
        if (line == 1 || json_object_get(o, "end") != NULL) {
            json_decref(o);
            continue;
        }
        const char *key;
        json_t *v;
        json_object_foreach(o, key, v)
        {
            int id, ops;
            if (field_of(key, &id, &ops))
                seen[id][core_trace_field_of((core_trace_field_id)id)->type == CORE_TT_AMOUNTS
                             ? ops
                             : 0] = 1;
            else
                fail("a member the schema does not have", line);
        }
        const cost_rec *r =
            kept(&t, (unsigned long)integer(o, "step", -1), (int)integer(o, "pid", -1));
        if (r == NULL)
            fail("a record the reader did not keep", line);
        else
            same_record(o, r, line);
        records++;
        json_decref(o);
    }
    if (f != NULL)
        fclose(f);
    for (int id = 0; id < CORE_TF_COUNT; id++) {
        const core_trace_field *d = core_trace_field_of((core_trace_field_id)id);
        for (int k = 0; k < (d->type == CORE_TT_AMOUNTS ? CORE_OPS_KINDS : 1); k++)
            if (!seen[id][k]) {
                fprintf(stderr, "trace_schema: no record has \"%s\"\n",
                        d->key != NULL ? d->key : core_ops_key(k));
                failed = 1;
            }
    }
    if (records == 0 || records != t.start[t.nprocs])
        fail("the reader kept another number of records than were written", line);
    cost_trace_free(&t);
}

int main(int argc, char **argv)
{
    bsp_init(spmd, argc, argv);
    spmd();
    check();
    if (!failed)
        printf("trace_schema: every field of the schema written and read back alike\n");
    return failed;
}
