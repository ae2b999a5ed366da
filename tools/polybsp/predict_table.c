/* predict_table.c — predict's table (predict_format.h): what was run and with
 * what machine, the notes a reader needs to weigh the numbers, then REAL and
 * each model with its ERROR in blocks of columns, the last one the total. */
#include "predict_format.h"

#include "cost/cost_groups.h"
#include "cost/cost_transfer.h"
#include "cost/cost_tree.h"

#include <math.h>
#include <string.h>

enum { COLUMNS_PER_BLOCK = 6 };

/* The divisions of the trace and the deepest level their parts reach:
 * counted once by predict_table for the three parts that mention them. */
typedef struct divisions {
    unsigned long n;
    int deepest;
    size_t timed_levels; /* the machine's levels with partition and rejoin times */
} divisions;

static void count_divisions(const cost_group *g, int depth, unsigned long *n, int *deepest)
{
    for (size_t i = 0; i < g->nitems; i++) {
        const cost_item *it = &g->items[i];
        *n += it->nparts > 0;
        if (it->nparts > 0 && depth + 1 > *deepest)
            *deepest = depth + 1;
        for (size_t k = 0; k < it->nparts; k++)
            count_divisions(&it->parts[k], depth + 1, n, deepest);
    }
}

static void describe_run(FILE *out, const cost_trace *t, const divisions *div)
{
    fprintf(out, "program     %s\n", t->program);
    fprintf(out, "processes   %d (engine %s)\n", t->nprocs, t->engine);
    fprintf(out, "supersteps  %lu (steps %lu to %lu)", t->nsteps, t->first_step,
            t->first_step + t->nsteps - 1);
    if (t->complete)
        fprintf(out, ", run complete\n");
    else if (t->reason[0] != '\0')
        fprintf(out, ", run aborted: %s\n", t->reason);
    else
        fprintf(out, ", no end line: the run did not finish normally\n");
    if (t->dropped > 0)
        fprintf(out, "dropped     %lu later step%s that only some processes recorded\n", t->dropped,
                t->dropped == 1 ? "" : "s");
    if (div->n > 0)
        fprintf(out, "divisions   %lu (parts down to level %d)\n", div->n, div->deepest);
    if (t->solo)
        fprintf(out, "note        " COST_TRACE_SOLO_NOTE "\n");
    if (!t->same_start)
        fprintf(out, "note        the processes started tracing at different supersteps: column k "
                     "is each one's k-th traced superstep\n");
}

/* A trace from elsewhere: what was predicted from what, and how W was made. */
static void describe_source(FILE *out, const predict_view *v)
{
    const cost_eval *r = v->r;
    if (!r->elsewhere)
        return;
    char there[48] = "", here[48] = "";
    if (v->m->cores > 0)
        snprintf(there, sizeof there, "%d cores, ", v->m->cores);
    if (r->source_cores > 0)
        snprintf(here, sizeof here, "%d cores, ", r->source_cores);
    fprintf(out, "predicted   for %s (%s, %sengine %s) from a run on %s (%sengine %s)\n",
            v->o->machine, v->m->host, there, v->m->engine, r->source_host, here, r->source_engine);
    int clock = v->o->scale == COST_SCALE_CLOCK;
    const char *f = clock ? "c" : "r";
    fprintf(out,
            "work        each superstep's CPU time there x %s(source) / %s(target) = x %.4g "
            "(%s = %.4e and %.4e %s)\n",
            f, f, r->source_scale / r->target_scale, f, r->source_scale, r->target_scale,
            clock ? "chained multiply-adds/s, the cores' clocks, --scale clock" : "flop/s, DAXPY");
    double apart = cost_cores_apart(v->m->rate_least, v->m->rate_most);
    if (apart > 0)
        fprintf(
            out,
            "note        the target's processes computed %.1fx apart when probed (DAXPY %.4e to "
            "%.4e flop/s, all at once): W there depends on the cores each process gets, "
            "which no scale carries\n",
            apart, v->m->rate_least, v->m->rate_most);
    double start = cost_machine_start(v->m, v->t->nprocs);
    if (start > 0)
        fprintf(out,
                "start       %.4g s to start P = %d processes there (the machine file's by_procs "
                "start): every model's first superstep holds it\n",
                start, v->t->nprocs);
    else
        fprintf(out, "start       none charged: the machine file has no start for P = %d\n",
                v->t->nprocs);
    if (v->o->nrepeats > 0)
        fprintf(out,
                "repeats     %zu traces of the run: each process's W in each superstep is the "
                "median of theirs\n",
                v->o->nrepeats + 1);
    if (v->o->against)
        fprintf(out, "against     %s\n", v->o->against);
}

/* D-BSP's levels were measured on clusters of given sizes: say which labels of
 * the trace use the parameters of larger clusters (cost_dbsp_level), once
 * each; noted has a bit per label. */
static void note_dbsp_clusters(FILE *out, const predict_view *v, const cost_group *g,
                               unsigned long *noted)
{
    const cost_trace *t = v->t;
    for (size_t i = 0; i < g->nitems; i++) {
        const cost_item *it = &g->items[i];
        for (size_t k = 0; k < it->nparts; k++)
            note_dbsp_clusters(out, v, &it->parts[k], noted);
        if (it->cols == NULL)
            continue;
        int label = cost_dbsp_label(t, g, it, v->o->flags);
        int cluster = cost_dbsp_cluster(t->nprocs, label);
        const cost_level *l = cost_dbsp_level(v->m, t->nprocs, label);
        if (l == NULL || l->cluster == cluster || (*noted >> label & 1))
            continue;
        *noted |= 1UL << label;
        fprintf(out,
                "note        D-BSP level %d has clusters of up to %d process%s here: the machine's "
                "level %d (clusters of %d) stands in\n",
                label, cluster, cluster == 1 ? "" : "es", l->level, l->cluster);
    }
}

/* CCM's weight of an hpput byte in each pattern superstep (cost_machine_hp_ratio),
 * said when the trace has such bytes. */
static void describe_hp_ratios(FILE *out, const cost_machine *m, const cost_trace *t)
{
    uint64_t hp = 0;
    for (size_t i = 0; i < t->start[t->nprocs]; i++)
        hp += t->recs[i].hp_out;
    if (hp == 0)
        return;
    fprintf(out,
            "            there a byte moved by bsp_hpput counts its pattern's g_hpput / g_put:");
    for (int p = 0; p < COST_NPATTERNS; p++)
        fprintf(out, "%s %s %.3g", p > 0 ? "," : "", cost_pattern_name((cost_pattern)p),
                cost_machine_hp_ratio(m, (cost_pattern)p));
    fprintf(out, "\n");
}

/* The first collective whose caller named an algorithm the machine file has
 * no T for (CCM charges it its kind's T), or NULL. */
static const cost_rec *unmatched_alg(const cost_trace *t, const cost_machine *m)
{
    char name[COST_CCM_NAME_MAX];
    for (size_t i = 0; i < t->start[t->nprocs]; i++)
        if (t->recs[i].alg[0] && !cost_machine_collective(m, cost_ccm_name(&t->recs[i], name)))
            return &t->recs[i];
    return NULL;
}

/* The machine file's BSP line of the trace's P, BSP* and D-BSP's levels. */
static void describe_lines(FILE *out, const predict_view *v, const divisions *div)
{
    const cost_machine *m = v->m;
    const cost_trace *t = v->t;
    fprintf(out, "machine     %s: host %s, engine %s, %s, calibrated for P =", v->o->machine,
            m->host, m->engine, m->date);
    for (size_t i = 0; i < m->nprocs; i++)
        fprintf(out, "%s %d", i > 0 ? "," : "", m->procs[i]);
    fprintf(out, "\n");
    fprintf(out, "BSP         g = %.4g s/byte, L = %.4g s, h = %s", m->g, m->L,
            m->h_sum ? "in + out" : "max(in, out)");
    const cost_procs_fit *f = cost_machine_procs_fit(m, v->r->fit_procs);
    if (f != NULL)
        fprintf(out, " (the line of P = %d%s)\n", f->procs,
                f->oversubscribed ? ", oversubscribed" : "");
    else
        fprintf(out, " (the line over all P calibrated)\n");
    char note[512];
    if (cost_patterns_note(m, note, sizeof note))
        fprintf(out, "note        %s\n", note);
    uint64_t once = 0;
    for (size_t i = 0; i < t->start[t->nprocs]; i++)
        once += t->recs[i].once_out;
    if (once > 0)
        fprintf(
            out,
            "            %llu bytes moved by bsp_hpput or bsp_send count %.3g bytes each (%s)\n",
            (unsigned long long)once, m->hp_ratio,
            m->g_hpput > 0 ? "bsp_hpput's g over bsp_put's, bsp_hpput in the machine file"
                           : "no bsp_hpput g in the machine file: probe again");
    if (m->gstar > 0)
        fprintf(out, "BSP*        g* = %.4g s/byte, B = %.4g bytes\n", m->gstar, m->B);
    for (size_t i = 0; i < m->nlevels; i++)
        fprintf(out, "%-12slevel %d, clusters of %d: g = %.4g s/byte, L = %.4g s\n",
                i == 0 ? "D-BSP" : "", m->levels[i].level, m->levels[i].cluster, m->levels[i].g,
                m->levels[i].L);
    if (cost_machine_levels_procs(m) > 0)
        fprintf(out, "            (the levels measured at P = %d%s)\n", m->levels_procs,
                m->levels_oversubscribed ? ", oversubscribed" : "");
    if (m->nlevels > 0 && div->n > 0 && div->timed_levels == 0)
        fprintf(out, "            a partition or rejoin superstep synchronises as any other (its "
                     "label's L): the levels have no partition and rejoin times (probe again)\n");
    for (size_t i = 0, k = 0; div->n > 0 && i < m->nlevels; i++)
        if (cost_level_divides(&m->levels[i])) {
            k++;
            fprintf(out, "%s level %d %.4g s and %.4g s%s",
                    k == 1 ? "            partition, rejoin (in place of L):" : ",",
                    m->levels[i].level, m->levels[i].partition, m->levels[i].rejoin,
                    k == div->timed_levels ? "\n" : "");
        }
    double L[COST_MAX_LEVELS];
    for (size_t i = 0; i < m->nlevels; i++)
        L[i] = m->levels[i].L;
    int bad = cost_levels_inverted(L, m->nlevels);
    if (bad > 0)
        fprintf(out,
                "warning     D-BSP levels contradict their hierarchy: level %d's L = %.3g s is "
                "%.1fx level 0's (smaller clusters synchronise no slower): probe again\n",
                bad, L[bad], L[bad] / L[0]);
}

/* CCM's functions, which P have their own, and how plain supersteps cost. */
static void describe_ccm(FILE *out, const predict_view *v, const divisions *div)
{
    const cost_machine *m = v->m;
    fprintf(out, "CCM         T(P,h) = a + b*ceil(log2 P) + c*h, linear by pieces in h, for");
    for (size_t i = 0; i < m->ncoll; i++)
        fprintf(out, " %s,", m->coll[i].name);
    fprintf(out, " partition, rejoin\n");
    for (size_t k = 0; k < m->nccm_procs; k++)
        fprintf(out, "%s%d%s", k == 0 ? "            and for a group of P = " : ", ",
                m->ccm_procs[k].procs, m->ccm_procs[k].oversubscribed ? " (oversubscribed)" : "");
    if (m->nccm_procs > 0)
        fprintf(out, " the fit of that P alone (ccm.by_procs)\n");
    int patterns = 0;
    for (size_t i = 0; i < m->ncoll; i++)
        patterns |= cost_is_hrel(m->coll[i].name);
    if (v->o->flags & COST_CCM_PLAIN_BSP)
        fprintf(out, "            plain supersteps cost BSP's g*h + L (--ccm-plain bsp)\n");
    else if (patterns) {
        fprintf(out,
                "            a plain superstep in one of paper 000's patterns costs its "
                "hrel function (a dense relation the all-to-all's at its mean h), any other BSP's "
                "g*h + L (--ccm-plain patterns)\n");
        describe_hp_ratios(out, m, v->t);
    } else
        fprintf(out, "            plain supersteps cost BSP's g*h + L: no hrel.* functions in "
                     "the machine file (probe again to fit them)\n");
    if (div->n > 0 && div->timed_levels > 0)
        fprintf(out, "            a division at a level with partition and rejoin times (D-BSP's, "
                     "above) costs that time, its bytes by the function\n");
    const cost_rec *r = unmatched_alg(v->t, m);
    char name[COST_CCM_NAME_MAX];
    if (r)
        fprintf(out,
                "            %s (line %zu): not in the machine file, charged as %s (probe "
                "again to fit it apart)\n",
                cost_ccm_name(r, name), r->line, r->kind);
}

/* What W is (--work), and what of the run's own start is in it. */
static void describe_work(FILE *out, const predict_view *v)
{
    const cost_machine *m = v->m;
    const cost_trace *t = v->t;
    int flags = v->o->flags;
    if (flags & COST_USE_OPS) {
        static const char *const units[CORE_OPS_KINDS] = {"flop/s", "compares/s", "words/s"};
        fprintf(out, "work        declared operations at");
        const char *sep = " ";
        for (int k = 0; k < CORE_OPS_KINDS; k++)
            if (m->rate[k] > 0 && (k == 0 || cost_eval_declares(t, k, 0))) {
                fprintf(out, "%s%.4g %s", sep, m->rate[k], units[k]);
                sep = ", ";
            }
        fprintf(out, " (w where none are declared)\n");
        long long wf = cost_eval_work_faults(t);
        if (wf > 0 && m->fault[0] > 0)
            fprintf(out, "            and %lld page faults in the work at %.4g s each (w_faults)\n",
                    wf, m->fault[0]);
        else if (wf > 0)
            fprintf(out, "            and %lld page faults in the work, not charged (--faults)\n",
                    wf);
    } else if (v->r->elsewhere)
        fprintf(out,
                "            (the source's CPU time stands for w; the put calls' copying "
                "%s)\n",
                flags & COST_WORK_WHOLE ? "kept" : "left out, scaled alike");
    else if (flags & COST_WORK_WHOLE)
        fprintf(out, "work        measured local time w, with the put calls' copying\n");
    else
        fprintf(out, "work        measured local time w less the put calls' copying (copy)\n");
    for (size_t i = 0; i < t->start[t->nprocs]; i++)
        if (t->recs[i].setup > 0)
            fprintf(out,
                    "tracer      %.3g s of process %d's w in superstep %lu made the trace file "
                    "(bsp_trace_begin): REAL and every model's W hold it\n",
                    t->recs[i].setup, t->recs[i].pid, t->recs[i].step);
    const cost_rec *latest = NULL;
    /* From elsewhere every process starts late by the target's start, said above. */
    for (int i = 0; !v->r->elsewhere && i < t->nprocs; i++) {
        const cost_rec *r = cost_trace_rec(t, 0, i);
        if (r != NULL && r->late > 0 && (latest == NULL || r->late > latest->late))
            latest = r;
    }
    if (latest != NULL)
        fprintf(out,
                "start       process %d began its first superstep %.3g s after the earliest "
                "(late): REAL and every model's first W hold it\n",
                latest->pid, latest->late);
}

/* The page faults inside syncs and what they were charged (--faults). */
static void describe_faults(FILE *out, const predict_view *v)
{
    const cost_machine *m = v->m;
    const char *charge = cost_fault_names[v->r->faults];
    long long fresh, faults = cost_eval_sync_faults(v->t, &fresh);
    if (faults > 0 && m->fault[0] > 0 && m->fault[1] != m->fault[0])
        fprintf(out,
                "faults      %lld page faults inside syncs, %lld on fresh pages charged %.4g s "
                "each,\n            the others %.4g s each, delaying the process that took them "
                "(--faults %s)\n",
                faults, fresh, m->fault[0], m->fault[1], charge);
    else if (faults > 0 && m->fault[0] > 0)
        fprintf(out,
                "faults      %lld page faults inside syncs, each charged %.4g s to the process "
                "that took it (--faults %s)\n",
                faults, m->fault[0], charge);
    else if (faults > 0 && m->fault_touch[0] > 0 && m->fault_touch[1] > 0)
        fprintf(out,
                "faults      %lld page faults inside syncs, not charged: %.3g s as first writes to "
                "fresh pages,\n            %.3g s if to pages read before (--faults, "
                "docs/models.md)\n",
                faults, (double)faults * m->fault_touch[0], (double)faults * m->fault_touch[1]);
    else if (faults > 0)
        fprintf(out, "faults      %lld page faults inside syncs, not charged (docs/models.md)\n",
                faults);
}

/* The syncs that also agreed on registrations, the most of any process, and
 * what every model charges each (models.md, "Registration supersteps"). */
static void note_registrations(FILE *out, const cost_trace *t, const cost_machine *m)
{
    long long most = 0;
    for (int pid = 0; pid < t->nprocs; pid++) {
        long long syncs = 0;
        for (size_t i = t->start[pid]; i < t->start[pid + 1]; i++)
            syncs += t->recs[i].regs > 0;
        most = syncs > most ? syncs : most;
    }
    if (most > 0 && m->reg > 0)
        fprintf(out,
                "note        %lld sync%s also agreed on registrations (bsp_push_reg, bsp_pop_reg): "
                "every model charges each %.4g s more (the machine's reg at P = %d)\n",
                most, most == 1 ? "" : "s", m->reg, t->nprocs);
    else if (most > 0)
        fprintf(out,
                "note        %lld sync%s also agreed on registrations (bsp_push_reg, bsp_pop_reg), "
                "not charged: the machine file has no 'reg' at P = %d (probe again)\n",
                most, most == 1 ? "" : "s", t->nprocs);
}

/* Whether the trace says the bytes from each source wherever data arrived
 * (D-BSP charges each cluster's link then; models.md). */
static int says_bytes_by_source(const cost_trace *t)
{
    for (size_t i = 0; i < t->start[t->nprocs]; i++)
        if (t->recs[i].nfrom > 0 && t->recs[i].from_bytes == NULL)
            return 0;
    return 1;
}

/* What the reader must know to weigh the numbers. */
static void describe_notes(FILE *out, const predict_view *v, const divisions *div)
{
    const cost_machine *m = v->m;
    const cost_trace *t = v->t;
    const cost_eval *r = v->r;
    int known_p = 0;
    for (size_t i = 0; i < m->nprocs; i++)
        known_p |= m->procs[i] == t->nprocs;
    if (!known_p && t->nprocs > 1)
        fprintf(out, "note        the machine was not calibrated for %d processes\n", t->nprocs);
    else if (t->nprocs == 1)
        fprintf(out,
                "note        one process: no h-relation; every superstep costs the line's L\n");
    if (strcmp(m->engine, t->engine) != 0)
        fprintf(out, "note        the trace comes from engine %s, the machine from %s\n", t->engine,
                m->engine);
    if (v->o->all && !r->have[COST_EVAL_BSPSTAR])
        fprintf(out, "note        BSP* left out: the machine file has no 'bspstar' parameters\n");
    for (int k = 0; k < COST_EVAL_NMODELS; k++)
        if (r->have[k] && r->unavailable[k][0])
            fprintf(out, "note        %s n/a: %s\n", cost_eval_models[k].label, r->unavailable[k]);
    unsigned long noted = 0;
    if (cost_eval_available(r, COST_EVAL_DBSP))
        note_dbsp_clusters(out, v, t->root, &noted);
    if (cost_eval_available(r, COST_EVAL_DBSP) && (v->o->flags & COST_DBSP_TRAFFIC))
        fprintf(out,
                "note        D-BSP labels: the smallest cluster holding each superstep's traffic, "
                "whatever group synchronises (--dbsp-label traffic)\n");
    if (cost_eval_available(r, COST_EVAL_DBSP) && !says_bytes_by_source(t))
        fprintf(out, "note        D-BSP charges every byte its superstep's label's g: the trace "
                     "does not say the bytes from each process (from_bytes, since 2026-11-30): "
                     "trace the run again\n");
    if (t->self_unknown)
        fprintf(out,
                "note        the trace does not say which traffic a process sent to itself (an "
                "older polybsp wrote it), so h includes it: trace the run again to leave it out\n");
    if (div->n > 0 &&
        (r->have[COST_EVAL_BSP] || r->have[COST_EVAL_BSPSTAR] || r->have[COST_EVAL_EBSP]))
        fprintf(out, "note        the trace has divisions: BSP, BSP* and EBSP take column k as one "
                     "superstep of all processes, D-BSP and CCM follow the groups\n");
    note_registrations(out, t, m);
}

static void print_cell(FILE *out, double v, int is_error)
{
    if (isnan(v))
        fprintf(out, " %12s", "-");
    else if (is_error)
        fprintf(out, " %12.2f", v);
    else
        fprintf(out, " %12.4e", v);
}

/* One block of columns [from, to) where column nsteps is the total. */
static void print_block(FILE *out, const cost_trace *t, const cost_eval *r, size_t from, size_t to)
{
    size_t n = t->nsteps;
    fprintf(out, "%-10s", "superstep");
    for (size_t c = from; c < to; c++) {
        if (c == n)
            fprintf(out, " %12s", "total");
        else
            fprintf(out, " %12lu", t->first_step + c);
    }
    fprintf(out, "\n");
    int has_real = !isnan(r->real_total);
    if (has_real) {
        fprintf(out, "%-10s", "REAL");
        for (size_t c = from; c < to; c++)
            print_cell(out, cost_eval_real(r, c), 0);
        fprintf(out, "\n");
    }
    for (int k = 0; k < COST_EVAL_NMODELS; k++) {
        if (!r->have[k])
            continue;
        if (!cost_eval_available(r, k)) {
            for (int row = 0; row < 1 + has_real; row++) {
                fprintf(out, "%-10s", row == 0 ? cost_eval_models[k].label : "ERROR");
                for (size_t c = from; c < to; c++)
                    fprintf(out, " %12s", "n/a");
                fprintf(out, "\n");
            }
            continue;
        }
        fprintf(out, "%-10s", cost_eval_models[k].label);
        for (size_t c = from; c < to; c++)
            print_cell(out, cost_eval_model(r, k, c), 0);
        fprintf(out, "\n");
        if (!has_real)
            continue;
        fprintf(out, "%-10s", "ERROR");
        for (size_t c = from; c < to; c++)
            print_cell(out, cost_error_percent(cost_eval_real(r, c), cost_eval_model(r, k, c)), 1);
        fprintf(out, "\n");
    }
}

void predict_table(FILE *out, const predict_view *v)
{
    const cost_trace *t = v->t;
    divisions div = {0, 0, 0};
    count_divisions(t->root, 0, &div.n, &div.deepest);
    for (size_t i = 0; i < v->m->nlevels; i++)
        div.timed_levels += cost_level_divides(&v->m->levels[i]);
    describe_run(out, t, &div);
    describe_source(out, v);
    describe_lines(out, v, &div);
    if (v->m->has_ccm)
        describe_ccm(out, v, &div);
    describe_work(out, v);
    describe_faults(out, v);
    describe_notes(out, v, &div);
    if (isnan(v->r->real_total))
        fprintf(out, "\ntimes in seconds; no REAL: give --against TRACE2, a run on the target, "
                     "for the errors\n\n");
    else
        fprintf(out, "\ntimes in seconds; ERROR = 100*(REAL-MODEL)/REAL percent%s\n\n",
                v->o->against ? " (REAL: the --against run)" : "");
    size_t first = v->per_step ? 0 : t->nsteps, end = t->nsteps + 1;
    for (size_t c = first; c < end; c += COLUMNS_PER_BLOCK) {
        if (c > first)
            fprintf(out, "\n");
        print_block(out, t, v->r, c, c + COLUMNS_PER_BLOCK < end ? c + COLUMNS_PER_BLOCK : end);
    }
}
