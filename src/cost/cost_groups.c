/* cost_groups — D-BSP and CCM on the group structure (see cost_groups.h).
 *
 * One recursive walk over the tree serves both models: a superstep sets the
 * clocks of its group's members to the latest of them plus its cost; a
 * division walks its parts (each from the clocks its members have) and, once
 * all parts rejoined, sets everyone to the latest part's end (plus T_rejoin for
 * CCM). cost_groups_check walks the same tree first, so the evaluation can take
 * the machine's parameters and the members' agreement for granted.
 */
#include "cost/cost_groups.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cost_rounds(int P)
{
    int r = 0;
    while (r < 31 && (1L << r) < P)
        r++;
    return r;
}

double cost_ccm_eval(const cost_ccm_fn *f, int P, double h)
{
    return f->a + f->b * cost_rounds(P) + f->c * h;
}

int cost_is_collective(const char *kind)
{
    static const char *const plain[] = {"normal", "oblivious", "partition", "rejoin"};
    for (size_t i = 0; i < sizeof plain / sizeof plain[0]; i++)
        if (strcmp(kind, plain[i]) == 0)
            return 0;
    return 1;
}

int cost_continues(const cost_trace *t, const cost_group *g, size_t i)
{
    if (i == 0 || i >= g->nitems || g->items[i].cols == NULL || g->items[i - 1].cols == NULL)
        return 0;
    const cost_rec *r = cost_item_rec(t, g, &g->items[i], 0);
    const cost_rec *p = cost_item_rec(t, g, &g->items[i - 1], 0);
    return cost_is_collective(r->kind) && strcmp(r->kind, p->kind) == 0 && r->op == p->op;
}

double cost_columns(const cost_trace *t, const double *phi, double base, double *per_step)
{
    double before = base;
    for (unsigned long s = 0; s < t->nsteps; s++) {
        double after = before;
        for (int i = 0; i < t->nprocs; i++)
            if (s < cost_trace_len(t, i))
                after = fmax(after, phi[t->start[i] + s]);
        if (per_step != NULL)
            per_step[s] = after - before;
        before = after;
    }
    return before - base;
}

/* ---- evaluation ---- */

typedef struct eval {
    cost_model_kind k;
    const cost_trace *t;
    const cost_machine *m;
    int use_ops;
    double *clock; /* per pid */
    double *phi;   /* per kept record */
} eval;

static size_t rec_index(const cost_trace *t, const cost_group *g, const cost_item *it, int j)
{
    return t->start[g->members[j]] + it->cols[j];
}

/* The maxima over a superstep's members. */
typedef struct stats {
    double start, W, h_bsp, h_ccm;
} stats;

static stats step_stats(const eval *e, const cost_group *g, const cost_item *it)
{
    stats s = {0, 0, 0, 0};
    for (int j = 0; j < g->nmembers; j++) {
        const cost_rec *r = cost_item_rec(e->t, g, it, j);
        s.start = fmax(s.start, e->clock[g->members[j]]);
        s.W = fmax(s.W, cost_work(r, e->m, e->use_ops));
        s.h_bsp = fmax(s.h_bsp, cost_combine(r->bytes_in, r->bytes_out, e->m->h_sum));
        s.h_ccm = fmax(s.h_ccm, cost_combine(r->bytes_in, r->bytes_out, 0));
    }
    return s;
}

static void finish(eval *e, const cost_group *g, const cost_item *it, double at)
{
    for (int j = 0; j < g->nmembers; j++) {
        e->clock[g->members[j]] = at;
        e->phi[rec_index(e->t, g, it, j)] = at;
    }
}

/* A CCM collective in progress: where it started, the work before it, and
 * each member's bytes in and out so far. */
typedef struct collective {
    double start, W;
    double *in, *out;
} collective;

static double ccm_step(eval *e, const cost_group *g, size_t i, const stats *s, collective *c)
{
    const cost_item *it = &g->items[i];
    const cost_rec *r0 = cost_item_rec(e->t, g, it, 0);
    const cost_machine *m = e->m;
    if (strcmp(r0->kind, "rejoin") == 0)
        return s->start + s->W; /* T_rejoin comes once the slowest part is here */
    if (strcmp(r0->kind, "partition") == 0)
        return s->start + s->W + cost_ccm_eval(&m->partition, g->nmembers, s->h_ccm);
    if (!cost_is_collective(r0->kind))
        return s->start + s->W + m->g * s->h_bsp + m->L;
    if (!cost_continues(e->t, g, i)) {
        c->start = s->start;
        c->W = s->W;
        memset(c->in, 0, (size_t)g->nmembers * sizeof *c->in);
        memset(c->out, 0, (size_t)g->nmembers * sizeof *c->out);
    }
    double h = 0;
    for (int j = 0; j < g->nmembers; j++) {
        const cost_rec *r = cost_item_rec(e->t, g, it, j);
        c->in[j] += (double)r->bytes_in;
        c->out[j] += (double)r->bytes_out;
        h = fmax(h, fmax(c->in[j], c->out[j]));
    }
    if (cost_continues(e->t, g, i + 1))
        return c->start;
    return c->start + c->W + cost_ccm_eval(cost_machine_collective(m, r0->kind), g->nmembers, h);
}

static int eval_group(eval *e, const cost_group *g);

/* All parts rejoined: everyone leaves the rejoin when the slowest part arrives
 * (CCM adds T_rejoin of the whole group). */
static void end_division(eval *e, const cost_group *g, const cost_item *it)
{
    double at = 0, h = 0;
    for (int j = 0; j < g->nmembers; j++)
        at = fmax(at, e->clock[g->members[j]]);
    for (size_t k = 0; k < it->nparts; k++) {
        const cost_group *p = &it->parts[k];
        const cost_item *last = &p->items[p->nitems - 1];
        for (int j = 0; j < p->nmembers; j++) {
            const cost_rec *r = cost_item_rec(e->t, p, last, j);
            h = fmax(h, cost_combine(r->bytes_in, r->bytes_out, 0));
        }
    }
    if (e->k == COST_CCM)
        at += cost_ccm_eval(&e->m->rejoin, g->nmembers, h);
    for (size_t k = 0; k < it->nparts; k++) {
        const cost_group *p = &it->parts[k];
        finish(e, p, &p->items[p->nitems - 1], at);
    }
}

static int eval_group(eval *e, const cost_group *g)
{
    collective c = {0, 0, calloc((size_t)g->nmembers, sizeof(double)),
                    calloc((size_t)g->nmembers, sizeof(double))};
    int rc = c.in != NULL && c.out != NULL ? 0 : -1;
    for (size_t i = 0; rc == 0 && i < g->nitems; i++) {
        const cost_item *it = &g->items[i];
        if (it->cols == NULL) {
            for (size_t k = 0; rc == 0 && k < it->nparts; k++)
                rc = eval_group(e, &it->parts[k]);
            if (rc == 0 && cost_division_complete(it))
                end_division(e, g, it);
            continue;
        }
        stats s = step_stats(e, g, it);
        double at;
        if (e->k == COST_DBSP) {
            const cost_level *l = cost_machine_level(e->m, cost_item_rec(e->t, g, it, 0)->level);
            at = s.start + s.W + l->g * s.h_bsp + l->L;
        } else {
            at = ccm_step(e, g, i, &s, &c);
        }
        finish(e, g, it, at);
    }
    free(c.in);
    free(c.out);
    return rc;
}

double cost_groups_predict(cost_model_kind k, const cost_trace *t, const cost_machine *m,
                           int use_ops, double *per_step)
{
    eval e = {.k = k, .t = t, .m = m, .use_ops = use_ops};
    e.clock = calloc((size_t)t->nprocs, sizeof *e.clock);
    e.phi = calloc(t->start[t->nprocs] + 1, sizeof *e.phi);
    double total = NAN;
    if (e.clock != NULL && e.phi != NULL && cost_groups_check(k, t, m, "", "", NULL, 0) == 0 &&
        eval_group(&e, t->root) == 0)
        total = cost_columns(t, e.phi, 0, per_step);
    else
        for (unsigned long s = 0; per_step != NULL && s < t->nsteps; s++)
            per_step[s] = NAN;
    free(e.clock);
    free(e.phi);
    return total;
}

/* ---- what the models need ---- */

typedef struct checker {
    cost_model_kind k;
    const cost_trace *t;
    const cost_machine *m;
    const char *trace_name, *machine_name;
    char *err;
    size_t errlen;
} checker;

static int fail(checker *c, const char *format, ...) __attribute__((format(printf, 2, 3)));

/* Writes the formatted message; each says what needs the field with NEEDED,
 * which stands for "needed by --model NAME". */
static int fail(checker *c, const char *format, ...)
{
    if (c->errlen > 0) {
        va_list ap;
        va_start(ap, format);
        vsnprintf(c->err, c->errlen, format, ap);
        va_end(ap);
    }
    return -1;
}

#define NEEDED "needed by --model %s"

static const char *name(const checker *c) { return cost_model_name(c->k); }

/* The members of one superstep agree with member 0 on what the model reads. */
static int check_members(checker *c, const cost_group *g, size_t i)
{
    const cost_item *it = &g->items[i];
    const cost_rec *r0 = cost_item_rec(c->t, g, it, 0);
    int cont0 = cost_continues(c->t, g, i);
    for (int j = 1; j < g->nmembers; j++) {
        const cost_rec *r = cost_item_rec(c->t, g, it, j);
        if (c->k == COST_DBSP && r->level != r0->level)
            return fail(c,
                        "%s:%zu: field 'level': expected %d like pid %d's record of the same "
                        "superstep, line %zu (" NEEDED ")",
                        c->trace_name, r->line, r0->level, r0->pid, r0->line, name(c));
        if (c->k != COST_CCM)
            continue;
        int same = strcmp(r->kind, r0->kind) == 0 ||
                   (!cost_is_collective(r->kind) && !cost_is_collective(r0->kind) &&
                    strcmp(r->kind, "partition") != 0 && strcmp(r0->kind, "partition") != 0 &&
                    strcmp(r->kind, "rejoin") != 0 && strcmp(r0->kind, "rejoin") != 0);
        if (!same)
            return fail(c,
                        "%s:%zu: field 'kind': expected \"%s\" like pid %d's record of the same "
                        "superstep, line %zu (" NEEDED ")",
                        c->trace_name, r->line, r0->kind, r0->pid, r0->line, name(c));
        if (!cost_is_collective(r->kind) || i == 0 || g->items[i - 1].cols == NULL)
            continue;
        const cost_rec *p = cost_item_rec(c->t, g, &g->items[i - 1], j);
        int cont = strcmp(p->kind, r->kind) == 0 && p->op == r->op;
        if (cont0 && !cont)
            return fail(c,
                        "%s:%zu: field 'op': expected %lld as on line %zu: pid %d's %s goes on "
                        "here (" NEEDED ")",
                        c->trace_name, r->line, p->op, p->line, r0->pid, r0->kind, name(c));
        if (!cont0 && cont)
            return fail(c,
                        "%s:%zu: field 'op': expected another op than on line %zu: pid %d starts "
                        "a new %s here (" NEEDED ")",
                        c->trace_name, r->line, p->line, r0->pid, r0->kind, name(c));
    }
    return 0;
}

static int check_group(checker *c, const cost_group *g)
{
    for (size_t i = 0; i < g->nitems; i++) {
        const cost_item *it = &g->items[i];
        if (it->cols == NULL) {
            for (size_t k = 0; k < it->nparts; k++)
                if (check_group(c, &it->parts[k]) < 0)
                    return -1;
            continue;
        }
        if (check_members(c, g, i) < 0)
            return -1;
        const cost_rec *r0 = cost_item_rec(c->t, g, it, 0);
        if (c->k == COST_DBSP && cost_machine_level(c->m, r0->level) == NULL)
            return fail(c,
                        "%s: field 'dbsp.levels': no level %d (" NEEDED " for %s:%zu, a "
                        "superstep at level %d)",
                        c->machine_name, r0->level, name(c), c->trace_name, r0->line, r0->level);
        if (c->k == COST_CCM && cost_is_collective(r0->kind) &&
            cost_machine_collective(c->m, r0->kind) == NULL)
            return fail(c, "%s: field 'ccm.collectives.%s': missing (" NEEDED " for %s:%zu, a %s)",
                        c->machine_name, r0->kind, name(c), c->trace_name, r0->line, r0->kind);
    }
    return 0;
}

int cost_groups_check(cost_model_kind k, const cost_trace *t, const cost_machine *m,
                      const char *trace_name, const char *machine_name, char *err, size_t errlen)
{
    checker c = {k, t, m, trace_name, machine_name, err, errlen};
    if (m == NULL)
        return fail(&c, "no machine file (" NEEDED ")", name(&c));
    if (k == COST_DBSP && m->nlevels == 0)
        return fail(&c, "%s: field 'dbsp': missing (" NEEDED ")", machine_name, name(&c));
    if (k == COST_CCM && !m->has_ccm)
        return fail(&c, "%s: field 'ccm': missing (" NEEDED ")", machine_name, name(&c));
    return check_group(&c, t->root);
}
