/* predict_json.c — predict's JSON (predict_format.h): one object with the run,
 * the machine file, what W and the faults were, the models and why any is n/a
 * ("unavailable"), the total and, with --per-step, the steps. A model that is
 * n/a has null for its numbers. */
#include "predict_format.h"

#include "cost/cost_json.h"
#include "cost/cost_transfer.h"

#include <math.h>

/* A string member; the machine file's path comes from the command line and may
 * be any bytes, so it becomes null when it is not UTF-8 (the other strings were
 * read by jansson, which checked them). */
static void json_str(FILE *out, const char *key, const char *value, const char *after)
{
    fprintf(out, "  \"%s\": ", key);
    if (value == NULL || cost_jput_str(out, value, (size_t)-1) < 0)
        fprintf(out, "null");
    fprintf(out, "%s\n", after);
}

/* The members of column c (c = nsteps: the total) after an opening brace. */
static void json_column(FILE *out, const cost_eval *r, size_t c)
{
    fprintf(out, "\"real\": ");
    cost_jput_num(out, cost_eval_real(r, c));
    for (int k = 0; k < COST_EVAL_NMODELS; k++) {
        if (!r->have[k])
            continue;
        const char *name = cost_model_name(cost_eval_models[k].kind);
        double model = cost_eval_available(r, k) ? cost_eval_model(r, k, c) : NAN;
        fprintf(out, ", \"%s\": ", name);
        cost_jput_num(out, model);
        fprintf(out, ", \"%s_error\": ", name);
        cost_jput_num(out, cost_error_percent(cost_eval_real(r, c), model));
    }
    fprintf(out, "}");
}

/* The run, and where it was predicted from. */
static void json_run(FILE *out, const predict_view *v)
{
    const cost_trace *t = v->t;
    const cost_eval *r = v->r;
    json_str(out, "program", t->program, ",");
    fprintf(out, "  \"nprocs\": %d,\n", t->nprocs);
    json_str(out, "engine", t->engine, ",");
    fprintf(out, "  \"first_step\": %lu,\n  \"nsteps\": %lu,\n  \"dropped\": %lu,\n", t->first_step,
            t->nsteps, t->dropped);
    fprintf(out, "  \"complete\": %s,\n", t->complete ? "true" : "false");
    fprintf(out, "  \"solo\": %s,\n", t->solo ? "true" : "false");
    json_str(out, "reason", t->reason[0] != '\0' ? t->reason : NULL, ",");
    json_str(out, "machine", v->o->machine, ",");
    json_str(out, "host", v->m->host, ",");
    fprintf(out, "  \"elsewhere\": %s,\n", r->elsewhere ? "true" : "false");
    if (r->elsewhere) {
        json_str(out, "source_host", r->source_host, ",");
        fprintf(out, "  \"source_cores\": %d,\n", r->source_cores);
        json_str(out, "source_engine", r->source_engine, ",");
        json_str(out, "scale", cost_scale_names[v->o->scale], ",");
        fprintf(out, "  \"work_scale\": %.17g,\n", r->source_scale / r->target_scale);
        fprintf(out, "  \"target_start\": %.17g,\n", cost_machine_start(v->m, v->t->nprocs));
        fprintf(out, "  \"target_rate_spread\": ");
        if (v->m->rate_least > 0)
            fprintf(out, "[%.17g, %.17g],\n", v->m->rate_least, v->m->rate_most);
        else
            fprintf(out, "null,\n");
        fprintf(out, "  \"traces\": %zu,\n", v->o->nrepeats + 1);
    }
    json_str(out, "against", v->o->against, ",");
}

/* What W and the faults were, and which line and levels were used. */
static void json_charges(FILE *out, const predict_view *v)
{
    const cost_trace *t = v->t;
    const cost_machine *m = v->m;
    int flags = v->o->flags;
    fprintf(out, "  \"work\": \"%s\",\n",
            flags & COST_USE_OPS      ? "ops"
            : flags & COST_WORK_WHOLE ? "whole"
                                      : "measured");
    long long fresh, faults = cost_eval_sync_faults(t, &fresh);
    fprintf(out, "  \"sync_faults\": %lld,\n  \"sync_faults_fresh\": %lld,\n", faults, fresh);
    fprintf(out, "  \"work_faults\": %lld,\n", flags & COST_USE_OPS ? cost_eval_work_faults(t) : 0);
    fprintf(out, "  \"faults\": \"%s\",\n  \"fault_charge\": ", cost_fault_names[v->r->faults]);
    if (m->fault[0] > 0)
        fprintf(out, "{\"fresh\": %.17g, \"other\": %.17g},\n", m->fault[0], m->fault[1]);
    else
        fprintf(out, "null,\n");
    fprintf(out, "  \"fit_procs\": ");
    cost_jput_pos(out, v->r->fit_procs);
    fprintf(out, ",\n  \"dbsp_procs\": ");
    cost_jput_pos(out, cost_machine_levels_procs(m));
    cost_pattern fast, slow;
    double apart = cost_patterns_apart(m, &fast, &slow);
    fprintf(out, ",\n  \"patterns_apart\": ");
    if (apart > 0)
        fprintf(out, "{\"ratio\": %.17g, \"fastest\": \"%s\", \"slowest\": \"%s\"},\n", apart,
                cost_pattern_name(fast), cost_pattern_name(slow));
    else
        fprintf(out, "null,\n");
}

void predict_json(FILE *out, const predict_view *v)
{
    const cost_trace *t = v->t;
    const cost_eval *r = v->r;
    fprintf(out, "{\n");
    json_run(out, v);
    json_charges(out, v);
    fprintf(out, "  \"models\": [");
    const char *sep = "";
    for (int k = 0; k < COST_EVAL_NMODELS; k++) {
        if (r->have[k]) {
            fprintf(out, "%s\"%s\"", sep, cost_model_name(cost_eval_models[k].kind));
            sep = ", ";
        }
    }
    fprintf(out, "],\n  \"unavailable\": {");
    sep = "";
    for (int k = 0; k < COST_EVAL_NMODELS; k++) {
        if (r->have[k] && r->unavailable[k][0]) {
            fprintf(out, "%s\"%s\": ", sep, cost_model_name(cost_eval_models[k].kind));
            if (cost_jput_str(out, r->unavailable[k], sizeof r->unavailable[k]) < 0)
                fprintf(out, "null");
            sep = ", ";
        }
    }
    fprintf(out, "},\n  \"total\": {");
    json_column(out, r, t->nsteps);
    if (v->per_step) {
        fprintf(out, ",\n  \"steps\": [");
        for (size_t c = 0; c < t->nsteps; c++) {
            fprintf(out, "%s\n    {\"step\": %lu, ", c > 0 ? "," : "", t->first_step + c);
            json_column(out, r, c);
        }
        fprintf(out, "\n  ]");
    }
    fprintf(out, "\n}\n");
}
