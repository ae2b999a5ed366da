/* report_html.c — the page of `polybsp report` (report_html.h). */
#include "report_html.h"

#include "cost/cost_model.h"
#include "svg_chart.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The per-superstep table stops here: a long run's page stays readable, and the
 * charts still show every superstep. */
enum { TABLE_ROWS = 400 };

static void cell(FILE *f, double v)
{
    if (isfinite(v))
        fprintf(f, "<td>%.4g</td>", v);
    else
        fputs("<td>n/a</td>", f);
}

static void error_cell(FILE *f, double real, double model)
{
    if (isfinite(model) && real > 0)
        fprintf(f, "<td>%+.1f %%</td>", cost_error_percent(real, model));
    else
        fputs("<td>n/a</td>", f);
}

/* The first evaluated model's superstep of the largest |REAL - model|, or -1. */
static long worst_step(const report_input *in)
{
    for (int k = 0; k < in->nmodels; k++) {
        if (!in->model[k])
            continue;
        long worst = -1;
        double most = -1;
        for (size_t s = 0; s < in->trace->nsteps; s++) {
            double d = fabs(in->real[s] - in->model[k][s]);
            if (isfinite(d) && d > most)
                most = d, worst = (long)s;
        }
        return worst;
    }
    return -1;
}

static void header(FILE *f, const report_input *in)
{
    const cost_trace *t = in->trace;
    fputs("<h1>polybsp report: ", f);
    svg_escape(f, t->program[0] ? t->program : in->trace_name);
    fputs("</h1>\n<table class=\"facts\">\n<tr><th>trace</th><td>", f);
    svg_escape(f, in->trace_name);
    fprintf(f, "</td></tr>\n<tr><th>run</th><td>engine %s, P = %d, %lu supersteps%s%s</td></tr>\n",
            t->engine, t->nprocs, t->nsteps,
            t->complete ? "" : ", the run did not complete: ", t->complete ? "" : t->reason);
    fputs("<tr><th>machine file</th><td>", f);
    svg_escape(f, in->machine_name);
    if (in->fit_procs > 0)
        fprintf(f, " (its BSP line for P = %d)", in->fit_procs);
    else
        fputs(" (its overall BSP line)", f);
    fprintf(f, "</td></tr>\n<tr><th>work W</th><td>%s</td></tr>\n</table>\n",
            in->work_ops ? "declared operations / the machine's rate (--work ops)"
                         : "measured local time w (--work measured)");
}

static void totals(FILE *f, const report_input *in)
{
    fputs("<h2>Total</h2>\n<table class=\"numbers\"><tr><th></th><th>seconds</th>"
          "<th>error = 100(REAL &minus; MODEL)/REAL</th></tr>\n",
          f);
    fprintf(f, "<tr><th>REAL</th><td>%.4g</td><td></td></tr>\n", in->real_total);
    for (int k = 0; k < in->nmodels; k++) {
        fprintf(f, "<tr><th>%s</th>", in->label[k]);
        if (in->model[k]) {
            cell(f, in->model_total[k]);
            error_cell(f, in->real_total, in->model_total[k]);
        } else {
            fputs("<td colspan=\"2\">n/a: ", f);
            svg_escape(f, in->unavailable[k] ? in->unavailable[k] : "");
            fputs("</td>", f);
        }
        fputs("</tr>\n", f);
    }
    fputs("</table>\n", f);
}

static void timeline(FILE *f, const report_input *in, long worst)
{
    svg_series s[REPORT_MAX_MODELS + 1] = {{"REAL", in->real, 1}};
    for (int k = 0; k < in->nmodels; k++)
        s[k + 1] = (svg_series){in->label[k], in->model[k], 0};
    fputs("<h2>Per superstep</h2>\n<p>Seconds per superstep, measured (REAL) and predicted.", f);
    if (worst >= 0)
        fprintf(f, " Highlighted: superstep %ld, where %s is furthest from REAL.", worst,
                in->label[0]);
    fputs("</p>\n", f);
    svg_line_chart(f, s, in->nmodels + 1, NULL, 0, in->trace->nsteps, NULL, "superstep", "seconds",
                   worst);
}

static void step_table(FILE *f, const report_input *in, long worst)
{
    const cost_trace *t = in->trace;
    fputs(
        "<details><summary>The numbers, per superstep</summary>\n<table class=\"numbers\">"
        "<tr><th>superstep</th><th>kind</th><th>max h (bytes)</th><th>max w (s)</th><th>REAL</th>",
        f);
    for (int k = 0; k < in->nmodels; k++)
        if (in->model[k])
            fprintf(f, "<th>%s</th><th>error</th>", in->label[k]);
    fputs("</tr>\n", f);
    for (size_t s = 0; s < t->nsteps && s < TABLE_ROWS; s++) {
        double h = 0, w = 0;
        const char *kind = "";
        for (int p = 0; p < t->nprocs; p++) {
            const cost_rec *r = cost_trace_rec(t, s, p);
            if (!r)
                continue;
            kind = r->kind;
            if ((double)(r->bytes_in + r->bytes_out) > h)
                h = (double)(r->bytes_in + r->bytes_out);
            if (r->w > w)
                w = r->w;
        }
        fprintf(f, "<tr%s><td>%zu</td><td>", (long)s == worst ? " class=\"worst\"" : "", s);
        svg_escape(f, kind);
        fprintf(f, "</td><td>%.0f</td>", h);
        cell(f, w);
        cell(f, in->real[s]);
        for (int k = 0; k < in->nmodels; k++)
            if (in->model[k]) {
                cell(f, in->model[k][s]);
                error_cell(f, in->real[s], in->model[k][s]);
            }
        fputs("</tr>\n", f);
    }
    fputs("</table>\n", f);
    if (t->nsteps > TABLE_ROWS)
        fprintf(f, "<p>(the first %d of %lu supersteps; the charts show all)</p>\n", TABLE_ROWS,
                t->nsteps);
    fputs("</details>\n", f);
}

/* h = bytes in + out, and w, of every process's record of every superstep. */
static void heatmaps(FILE *f, const report_input *in)
{
    const cost_trace *t = in->trace;
    size_t n = (size_t)t->nprocs * t->nsteps;
    double *h = malloc((n ? n : 1) * sizeof *h), *w = malloc((n ? n : 1) * sizeof *w);
    if (!h || !w) {
        free(h), free(w);
        fputs("<p>(out of memory for the heat maps)</p>\n", f);
        return;
    }
    for (int p = 0; p < t->nprocs; p++)
        for (size_t s = 0; s < t->nsteps; s++) {
            const cost_rec *r = cost_trace_rec(t, s, p);
            h[(size_t)p * t->nsteps + s] = r ? (double)(r->bytes_in + r->bytes_out) : NAN;
            w[(size_t)p * t->nsteps + s] = r ? r->w : NAN;
        }
    fputs("<h2>Traffic h per process</h2>\n<p>Bytes in + out of each process in each "
          "superstep (its own traffic to itself left out).</p>\n",
          f);
    svg_heatmap(f, h, t->nprocs, t->nsteps, "process", "superstep", "bytes");
    fputs("<h2>Work w per process</h2>\n<p>Seconds of local work of each process before each "
          "sync.</p>\n",
          f);
    svg_heatmap(f, w, t->nprocs, t->nsteps, "process", "superstep", "s");
    free(h), free(w);
}

/* "NAME g h + L" with L's sign outside: "fit 1e-09 h − 2e-06". */
static void line_name(char *to, size_t size, const char *name, double g, double L)
{
    snprintf(to, size, "%s %.3g h %s %.3g", name, g, L < 0 ? "\u2212" : "+", fabs(L));
}

/* The index of size h among sizes[0 .. n), or n. */
static size_t size_index(const long *sizes, size_t n, long h)
{
    size_t k = 0;
    while (k < n && sizes[k] != h)
        k++;
    return k;
}

/* The raw samples of bsp_put in pattern pat as one cloud per P (the first
 * COST_MAX_PROCS P), each at the index of its size among the pattern's sizes
 * ascending; 0 clouds when there are not nsizes sizes (the machine file's).
 * x and y have room for every sample of the file. */
static int pattern_clouds(const probe_raw *raw, int pat, size_t nsizes, svg_cloud *clouds,
                          char (*names)[32], size_t *x, double *y)
{
    long sizes[COST_MAX_SIZES];
    int procs[COST_MAX_PROCS];
    size_t nsize = 0, count[COST_MAX_PROCS] = {0};
    int n = 0;
    for (size_t i = 0; i < raw->ncells; i++) {
        const probe_raw_cell *c = &raw->cells[i];
        if (c->prim != PROBE_PUT || c->pattern != pat)
            continue;
        if (size_index(sizes, nsize, c->h) == nsize) {
            if (nsize == COST_MAX_SIZES)
                return 0;
            sizes[nsize++] = c->h;
        }
        int k = 0;
        while (k < n && procs[k] != c->procs)
            k++;
        if (k == n && n < COST_MAX_PROCS)
            procs[n++] = c->procs;
        if (k < n)
            count[k] += c->n;
    }
    if (nsize != nsizes)
        return 0;
    for (size_t a = 1; a < nsize; a++) /* ascending, as the machine file's */
        for (size_t b = a; b > 0 && sizes[b - 1] > sizes[b]; b--) {
            long t = sizes[b];
            sizes[b] = sizes[b - 1], sizes[b - 1] = t;
        }
    size_t start[COST_MAX_PROCS], used = 0;
    for (int k = 0; k < n; k++) {
        snprintf(names[k], sizeof names[k], "samples, P = %d", procs[k]);
        start[k] = used;
        clouds[k] = (svg_cloud){names[k], 0, x + used, y + used};
        used += count[k];
    }
    for (size_t i = 0; i < raw->ncells; i++) {
        const probe_raw_cell *c = &raw->cells[i];
        int k = 0;
        while (k < n && procs[k] != c->procs)
            k++;
        if (c->prim != PROBE_PUT || c->pattern != pat || k == n)
            continue;
        for (size_t j = 0; j < c->n; j++) {
            size_t at = start[k] + clouds[k].n++;
            x[at] = size_index(sizes, nsize, c->h);
            y[at] = c->samples[j];
        }
    }
    return n;
}

/* Paper 000's figures: per pattern, the probe's times for bsp_put at each h,
 * the pattern's own fit g_P h + L_P and the machine's BSP line g h + L; with
 * the raw samples, each P's around them. */
static void probe_charts(FILE *f, const report_input *in)
{
    static const char *const names[COST_NPATTERNS] = {"Exchange", "PingPong", "OneToAll",
                                                      "AllToOne", "AllToAll"};
    const cost_machine *m = in->machine;
    fputs("<h2>The probe's measurements</h2>\n<p>What the machine file was fitted to: per "
          "communication pattern of paper 000, the average time of a superstep of bsp_puts "
          "at each h-relation size (at the largest P probed), the pattern's own least-squares "
          "line (fit) and the BSP line every model above uses (BSP).",
          f);
    if (in->raw)
        fputs(" Around them, every sample of that probe run at each P it measured the pattern "
              "at (<code>polybsp probe --raw</code>): the spread the averages hide.",
              f);
    fputs("</p>\n", f);
    size_t total = 0;
    for (size_t i = 0; in->raw && i < in->raw->ncells; i++)
        total += in->raw->cells[i].n;
    size_t *x = malloc((total ? total : 1) * sizeof *x);
    double *y = malloc((total ? total : 1) * sizeof *y);
    int drawn = 0;
    for (int p = 0; p < COST_NPATTERNS; p++) {
        const cost_pattern_fit *pf = &m->put[p];
        if (!pf->measured || pf->nsizes == 0)
            continue;
        double fit[COST_MAX_SIZES], bsp[COST_MAX_SIZES];
        for (size_t i = 0; i < pf->nsizes; i++) {
            fit[i] = pf->g * pf->h[i] + pf->L;
            bsp[i] = m->g * pf->h[i] + m->L;
        }
        char fit_name[96], bsp_name[96], cloud_names[COST_MAX_PROCS][32];
        line_name(fit_name, sizeof fit_name, "fit", pf->g, pf->L);
        line_name(bsp_name, sizeof bsp_name, "BSP", m->g, m->L);
        svg_series s[3] = {{"average", pf->time, 1}, {fit_name, fit, 0}, {bsp_name, bsp, 0}};
        svg_cloud clouds[COST_MAX_PROCS];
        int nclouds = in->raw && x && y
                          ? pattern_clouds(in->raw, p, pf->nsizes, clouds, cloud_names, x, y)
                          : 0;
        fprintf(f, "<h3>%s</h3>\n", names[p]);
        if (in->raw && nclouds == 0)
            fputs("<p>(the raw file has no samples of this pattern at these sizes)</p>\n", f);
        svg_line_chart(f, s, 3, clouds, nclouds, pf->nsizes, pf->h, "h-relation (bytes)", "seconds",
                       -1);
        drawn++;
    }
    free(x);
    free(y);
    if (!drawn)
        fputs("<p>(the machine file has no pattern measurements)</p>\n", f);
}

/* A number member, or NaN when absent or null (portability writes null for
 * what is not defined). */
static double number(const json_t *o, const char *key)
{
    const json_t *v = json_object_get(o, key);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

static void copy_string(char *to, size_t size, const json_t *o, const char *key)
{
    const char *v = json_string_value(json_object_get(o, key));
    snprintf(to, size, "%s", v ? v : "");
}

int report_eta_read(const char *path, report_eta *eta, char *err, size_t errlen)
{
    FILE *in = fopen(path, "r");
    if (!in) {
        snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    json_error_t jerr;
    json_t *root = json_loadf(in, 0, &jerr);
    fclose(in);
    if (!root) {
        snprintf(err, errlen, "%s:%d: %s", path, jerr.line, jerr.text);
        return -1;
    }
    const json_t *summary = json_object_get(root, "summary");
    const char *format = json_string_value(json_object_get(root, "format"));
    if (!format || strcmp(format, "polybsp-portability") != 0 || !json_is_object(summary)) {
        snprintf(err, errlen,
                 "%s: not a portability file (expected the output of polybsp portability "
                 "--format json)",
                 path);
        json_decref(root);
        return -1;
    }
    memset(eta, 0, sizeof *eta);
    copy_string(eta->date, sizeof eta->date, root, "date");
    copy_string(eta->engine, sizeof eta->engine, root, "engine");
    copy_string(eta->machine, sizeof eta->machine, root, "machine");
    eta->procs = (int)json_integer_value(json_object_get(root, "procs"));
    eta->quick = json_is_true(json_object_get(root, "quick"));
    eta->nfamilies = (double)json_array_size(json_object_get(root, "families"));
    const char *model;
    const json_t *m;
    json_object_foreach((json_t *)summary, model, m)
    {
        if (eta->nrows == REPORT_MAX_MODELS)
            break;
        report_eta_row *r = &eta->row[eta->nrows++];
        snprintf(r->model, sizeof r->model, "%s", model);
        r->families = number(m, "families");
        r->picked = number(m, "picked");
        r->loss = number(m, "loss");
        r->eta_within = number(m, "eta_within");
        r->eta = number(m, "eta");
        r->delta = number(m, "delta");
    }
    json_decref(root);
    return 0;
}

static void eta_table(FILE *f, const report_eta *e)
{
    fputs("<h2>Which model to trust on this machine</h2>\n<p>From <code>polybsp portability", f);
    fprintf(f, "</code> (%s, engine %s, P = %d%s, machine file ", e->date, e->engine, e->procs,
            e->quick ? ", --quick" : "");
    svg_escape(f, e->machine);
    fputs("): paper 002's effectiveness. eta and delta are at least 1, and 1 means the model "
          "ranks the programs of a family as this machine does; picked: families where the "
          "model's fastest program is the real fastest; worst loss: real time of the model's "
          "choice over the fastest's (docs/models.md).</p>\n<table class=\"numbers\"><tr>"
          "<th>model</th><th>families</th><th>picked</th><th>worst loss</th><th>eta within</th>"
          "<th>eta (1)</th><th>delta</th></tr>\n",
          f);
    for (int i = 0; i < e->nrows; i++) {
        const report_eta_row *r = &e->row[i];
        fputs("<tr><th>", f);
        svg_escape(f, r->model);
        fprintf(f, "</th><td>%.0f/%.0f</td><td>%.0f/%.0f</td>", r->families, e->nfamilies,
                r->picked, r->families);
        cell(f, r->loss);
        cell(f, r->eta_within);
        cell(f, r->eta);
        cell(f, r->delta);
        fputs("</tr>\n", f);
    }
    fputs("</table>\n", f);
}

void report_html_write(FILE *f, const report_input *in)
{
    long worst = worst_step(in);
    fputs(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>polybsp "
        "report</title>\n<style>\nbody{font-family:sans-serif;margin:1.5em;max-width:960px}\n"
        "table{border-collapse:collapse;margin:.5em 0}td,th{padding:2px 8px;text-align:right;"
        "border-bottom:1px solid #eee}\n.facts td,.facts th{text-align:left}\n"
        "tr.worst{background:#ffe08a}\nsvg{display:block;margin:.5em 0}\n</style></head>\n<body>\n",
        f);
    header(f, in);
    totals(f, in);
    timeline(f, in, worst);
    step_table(f, in, worst);
    heatmaps(f, in);
    probe_charts(f, in);
    if (in->eta)
        eta_table(f, in->eta);
    fputs("<p>Written by <code>polybsp report</code>; docs/report.md says how to read it, "
          "docs/models.md what each model computes.</p>\n",
          f);
    /* Marks how many charts the browser laid out with something in them: the
     * browser test reads it back (docs/report.md). Nothing else runs. */
    fputs("<script>\n(function(){var n=0,all=document.querySelectorAll('svg');all.forEach("
          "function(s){var b=s.getBBox();if(b.width>0&&b.height>0&&s.querySelector('polyline,"
          "rect.cell'))n++;});document.body.setAttribute('data-drawn',n+' of '+all.length);})();\n"
          "</script>\n</body></html>\n",
          f);
}
