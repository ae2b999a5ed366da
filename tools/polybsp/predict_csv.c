/* predict_csv.c — predict's CSV (predict_format.h): a header line, a line per
 * superstep with --per-step, then the total. A model that is n/a says so in
 * each of its fields, so that it cannot be mistaken for a missing ERROR. */
#include "predict_format.h"

#include "cost/cost_json.h"

#include <math.h>

static void csv_num(FILE *out, double v)
{
    if (!isnan(v))
        cost_jput_num(out, v);
}

/* The fields of column c (c = nsteps: the total) after its first. */
static void print_row(FILE *out, const cost_eval *r, size_t c)
{
    fprintf(out, ",");
    csv_num(out, cost_eval_real(r, c));
    for (int k = 0; k < COST_EVAL_NMODELS; k++) {
        if (!r->have[k])
            continue;
        if (!cost_eval_available(r, k)) {
            fprintf(out, ",n/a,n/a");
            continue;
        }
        double model = cost_eval_model(r, k, c);
        fprintf(out, ",");
        csv_num(out, model);
        fprintf(out, ",");
        csv_num(out, cost_error_percent(cost_eval_real(r, c), model));
    }
    fprintf(out, "\n");
}

void predict_csv(FILE *out, const predict_view *v)
{
    const cost_trace *t = v->t;
    fprintf(out, "step,real");
    for (int k = 0; k < COST_EVAL_NMODELS; k++)
        if (v->r->have[k])
            fprintf(out, ",%s,%s_error", cost_model_name(cost_eval_models[k].kind),
                    cost_model_name(cost_eval_models[k].kind));
    fprintf(out, "\n");
    for (size_t c = 0; v->per_step && c < t->nsteps; c++) {
        fprintf(out, "%lu", t->first_step + c);
        print_row(out, v->r, c);
    }
    fprintf(out, "total");
    print_row(out, v->r, t->nsteps);
}
