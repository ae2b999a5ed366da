/* report_html — the page `polybsp report` writes (docs/report.md).
 *
 * Contract: report_html_write writes one self-contained HTML page (inline CSS
 * and SVG, one small script that only marks what the browser drew) to f: what
 * was used (trace, machine file and the P of its BSP line, measured or declared
 * work), the totals of REAL and each model with their errors, the timeline of
 * REAL and every model per superstep with the superstep of the largest error of
 * the first model highlighted, the per-superstep table, and h (bytes in + out)
 * and w per process and superstep as heat maps, then the probe's measurements
 * of each pattern with the fitted lines (paper 000's figures, from the machine
 * file; with --probe every sample of that probe run around them, per P), and
 * with --portability the eta table of that run. It computes nothing
 * of the models: the numbers are predict's (cost_predict), the probe's and
 * portability's.
 */
#ifndef POLYBSP_REPORT_HTML_H
#define POLYBSP_REPORT_HTML_H

#include "cost/cost_machine.h"
#include "cost/cost_trace.h"
#include "probe/probe_raw.h"

#include <stddef.h>
#include <stdio.h>

enum { REPORT_MAX_MODELS = 8 };

/* The summary of a `polybsp portability --format json` file: per model, the
 * families it could rank, those where it picked the fastest, its worst loss,
 * eta within families, eta (1) and delta (NaN: not defined). */
typedef struct report_eta_row {
    char model[16];
    double families, picked, loss, eta_within, eta, delta;
} report_eta_row;

typedef struct report_eta {
    char date[32], engine[32], machine[256];
    int procs, quick;
    double nfamilies;
    int nrows;
    report_eta_row row[REPORT_MAX_MODELS];
    /* The model named to trust (over the programs proper) and the least delta
     * over every family: "" when the file does not say (before 2026-11-30). */
    char trust[16], least[16];
} report_eta;

/* Reads path into *eta; -1 with a one-line reason naming the file in err. */
int report_eta_read(const char *path, report_eta *eta, char *err, size_t errlen);

typedef struct report_input {
    const cost_trace *trace;
    const cost_machine *machine;
    const char *trace_name, *machine_name;
    int fit_procs;      /* the P of the machine's by_procs line used; 0: its overall line */
    int work_ops;       /* 1: W is declared operations / rate */
    const double *real; /* per superstep (trace->nsteps) */
    double real_total;
    int nmodels;
    const char *label[REPORT_MAX_MODELS];
    const double *model[REPORT_MAX_MODELS]; /* per superstep, NULL: not evaluated */
    double model_total[REPORT_MAX_MODELS];
    const char *unavailable[REPORT_MAX_MODELS]; /* why not, or "" */
    const report_eta *eta;                      /* --portability, or NULL */
    const probe_raw *raw;                       /* --probe (of machine's run), or NULL */
} report_input;

void report_html_write(FILE *f, const report_input *in);

#endif
