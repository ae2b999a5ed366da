/* predict_format — the outputs of `polybsp predict`, one file each:
 * predict_table.c (the table, laid out like table 14 of paper 000),
 * predict_csv.c, predict_json.c and predict_html.c (report_html.c's page).
 *
 * Contract: each writes to out what predict prints of v->r, the evaluation
 * (cost_eval.h) of trace v->t on machine file v->m under v->o: REAL and each
 * MODEL with its ERROR = 100·(REAL − MODEL)/REAL, in total and, with
 * v->per_step, per superstep. They compute no model; a model that is n/a says
 * so, with its reason where the format has room for it. CSV and JSON are for
 * programs: each number is the shortest text that reads back as the same
 * double, and where there is none (ERROR when REAL is 0) CSV has an empty field
 * and JSON null.
 */
#ifndef POLYBSP_PREDICT_FORMAT_H
#define POLYBSP_PREDICT_FORMAT_H

#include "report_html.h"

#include "cost/cost_eval.h"

#include <stdio.h>

typedef struct predict_view {
    const cost_eval_opts *o;
    const cost_trace *t;
    const cost_machine *m;
    const cost_eval *r;
    int per_step;
} predict_view;

void predict_table(FILE *out, const predict_view *v);
void predict_csv(FILE *out, const predict_view *v);
void predict_json(FILE *out, const predict_view *v);
/* eta: report --portability, raw: report --probe; NULL when not given. */
void predict_html(FILE *out, const predict_view *v, const report_eta *eta, const probe_raw *raw);

#endif
