/* predict_html.c — predict's HTML, the page of `polybsp report`
 * (predict_format.h): hands the evaluation to report_html.c, which draws it. */
#include "predict_format.h"

void predict_html(FILE *out, const predict_view *v, const report_eta *eta, const probe_raw *raw)
{
    const cost_eval *r = v->r;
    report_input in = {.trace = v->t,
                       .eta = eta,
                       .raw = raw,
                       .machine = v->m,
                       .trace_name = v->o->trace,
                       .machine_name = v->o->machine,
                       .fit_procs = r->fit_procs,
                       .work_ops = (v->o->flags & COST_USE_OPS) != 0,
                       .real = r->real,
                       .real_total = r->real_total};
    for (int k = 0; k < COST_EVAL_NMODELS; k++) {
        if (!r->have[k])
            continue;
        int i = in.nmodels++;
        in.label[i] = cost_eval_models[k].label;
        in.model[i] = cost_eval_available(r, k) ? r->model[k] : NULL;
        in.model_total[i] = r->model_total[k];
        in.unavailable[i] = r->unavailable[k];
    }
    report_html_write(out, &in);
}
