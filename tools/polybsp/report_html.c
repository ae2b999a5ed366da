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

/* The supersteps to look at: those where the first evaluated model's distance
 * from REAL is at least MARK_SHARE of its largest, the largest first, at most
 * MAX_MARKS (a few outliers carry most of a run's error: all of them are
 * marked, not only the worst). Returns how many, and that model in *model. */
enum { MAX_MARKS = 12 };
#define MARK_SHARE 0.25
typedef struct gap {
    double d;
    long step;
} gap;

static int wider_first(const void *a, const void *b)
{
    double x = ((const gap *)a)->d, y = ((const gap *)b)->d;
    return (x < y) - (x > y);
}

static int worst_steps(const report_input *in, long *marks, int *model)
{
    *model = -1;
    for (int k = 0; k < in->nmodels && *model < 0; k++)
        if (in->model[k])
            *model = k;
    size_t n = in->trace->nsteps;
    gap *g = *model >= 0 ? malloc((n ? n : 1) * sizeof *g) : NULL;
    if (g == NULL)
        return 0;
    double most = 0;
    size_t ng = 0;
    for (size_t s = 0; s < n; s++) {
        double d = fabs(in->real[s] - in->model[*model][s]);
        if (isfinite(d) && d > 0) {
            g[ng++] = (gap){d, (long)s};
            most = fmax(most, d);
        }
    }
    qsort(g, ng, sizeof *g, wider_first);
    int nmarks = 0;
    for (size_t k = 0; k < ng && nmarks < MAX_MARKS && g[k].d >= MARK_SHARE * most; k++)
        marks[nmarks++] = g[k].step;
    free(g);
    return nmarks;
}

static int marked(const long *marks, int n, size_t s)
{
    for (int k = 0; k < n; k++)
        if (marks[k] == (long)s)
            return 1;
    return 0;
}

static void header(FILE *f, const report_input *in)
{
    const cost_trace *t = in->trace;
    fputs("<h1>polybsp report: ", f);
    svg_escape(f, t->program[0] ? t->program : in->trace_name);
    fputs("</h1>\n<table class=\"facts\">\n<tr><th>trace</th><td>", f);
    svg_escape(f, in->trace_name);
    fprintf(f,
            "</td></tr>\n<tr><th>run</th><td>engine %s, P = %d, %lu supersteps%s%s%s</td></tr>\n",
            t->engine, t->nprocs, t->nsteps,
            t->complete ? "" : ", the run did not complete: ", t->complete ? "" : t->reason,
            t->solo ? "; " COST_TRACE_SOLO_NOTE : "");
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

/* Whether models a and b agree within AGREE of each other at every superstep
 * (then their lines lie on each other). */
#define AGREE 0.01
static int models_agree(const report_input *in, int a, int b)
{
    for (size_t s = 0; s < in->trace->nsteps; s++) {
        double x = in->model[a][s], y = in->model[b][s];
        if (isfinite(x) != isfinite(y) || (isfinite(x) && fabs(x - y) > AGREE * fmax(x, y)))
            return 0;
    }
    return 1;
}

/* One sentence per set of models that agree, so that nobody takes a line
 * drawn under another for a missing one. */
static void agreement(FILE *f, const report_input *in)
{
    int done[REPORT_MAX_MODELS] = {0};
    for (int a = 0; a < in->nmodels; a++) {
        if (!in->model[a] || done[a])
            continue;
        int with[REPORT_MAX_MODELS], n = 0;
        for (int b = a + 1; b < in->nmodels; b++)
            if (in->model[b] && !done[b] && models_agree(in, a, b))
                done[b] = 1, with[n++] = b;
        if (n == 0)
            continue;
        fprintf(f, " %s", in->label[a]);
        for (int k = 0; k < n; k++)
            fprintf(f, "%s%s", k == n - 1 ? " and " : ", ", in->label[with[k]]);
        fprintf(f,
                " agree within %.0f %% at every superstep: their lines lie on each other, "
                "drawn as nested bands.",
                AGREE * 100);
    }
}

/* A superstep far slower than predicted, by more than a scheduler's time
 * slice could explain away: no model has a term for a descheduled process. */
#define PREEMPT_RATIO 10.0
#define PREEMPT_EXCESS 5e-4
static int preempted(const report_input *in, int model, size_t s)
{
    double r = in->real[s], m = in->model[model][s];
    return isfinite(m) && m > 0 && r >= PREEMPT_RATIO * m && r - m >= PREEMPT_EXCESS;
}

static void marks_text(FILE *f, const report_input *in, const long *marks, int nmarks, int model)
{
    if (nmarks == 0)
        return;
    double sum = 0, in_marks = 0;
    for (size_t s = 0; s < in->trace->nsteps; s++) {
        double d = fabs(in->real[s] - in->model[model][s]);
        if (isfinite(d))
            sum += d, in_marks += marked(marks, nmarks, s) ? d : 0;
    }
    fprintf(f, " Shaded: superstep%s", nmarks > 1 ? "s" : "");
    for (int k = 0; k < nmarks; k++)
        fprintf(f, "%s %ld", k ? "," : "", marks[k]);
    fprintf(f,
            ", where %s is furthest from REAL (at least %.0f %% of its largest gap): %.0f %% of "
            "the summed |REAL &minus; %s|.",
            in->label[model], MARK_SHARE * 100, sum > 0 ? 100 * in_marks / sum : 0,
            in->label[model]);
    int np = 0;
    double lo = INFINITY, hi = 0, plo = INFINITY, phi = 0;
    for (int k = 0; k < nmarks; k++)
        if (preempted(in, model, (size_t)marks[k])) {
            np++;
            lo = fmin(lo, in->real[marks[k]]), hi = fmax(hi, in->real[marks[k]]);
            plo = fmin(plo, in->model[model][marks[k]]),
            phi = fmax(phi, in->model[model][marks[k]]);
        }
    if (np > 0)
        fprintf(f,
                "</p>\n<p class=\"preempted\">%d of them took %.3g&ndash;%.3g s against "
                "%.3g&ndash;%.3g s predicted, over %.0f times as long: <b>likely preempted</b>, "
                "a process waiting for another that the system had descheduled (more processes "
                "than cores, or other jobs on the machine). No cost model has a term for that; "
                "run again on a quiet machine, or with at most one process per core.",
                np, lo, hi, plo, phi, PREEMPT_RATIO);
}

static void timeline(FILE *f, const report_input *in, const long *marks, int nmarks, int model)
{
    svg_series s[REPORT_MAX_MODELS + 1] = {{"REAL", in->real, 1}};
    for (int k = 0; k < in->nmodels; k++)
        s[k + 1] = (svg_series){in->label[k], in->model[k], 0};
    fputs("<h2>Per superstep</h2>\n<p>Seconds per superstep, measured (REAL, the black line "
          "on top) and predicted (each model a band, the first widest).",
          f);
    agreement(f, in);
    if (model >= 0)
        marks_text(f, in, marks, nmarks, model);
    fputs("</p>\n<div class=\"timeline\">\n", f);
    svg_chart_opts o = {
        .xlabel = "superstep", .ylabel = "seconds", .marks = marks, .nmarks = nmarks, .nested = 1};
    svg_line_chart(f, s, in->nmodels + 1, NULL, 0, in->trace->nsteps, &o);
    fputs("</div>\n", f);
}

static void step_table(FILE *f, const report_input *in, const long *marks, int nmarks)
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
        fprintf(f, "<tr%s><td>%zu</td><td>", marked(marks, nmarks, s) ? " class=\"worst\"" : "", s);
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

/* The smallest and largest h (bytes in + out of the busiest process) of the
 * trace's supersteps that communicate; 0, 0 when none does. */
static void trace_h_range(const cost_trace *t, double *lo, double *hi)
{
    *lo = INFINITY, *hi = 0;
    for (size_t s = 0; s < t->nsteps; s++) {
        double h = 0;
        for (int p = 0; p < t->nprocs; p++) {
            const cost_rec *r = cost_trace_rec(t, s, p);
            if (r)
                h = fmax(h, (double)(r->bytes_in + r->bytes_out));
        }
        if (h > 0)
            *lo = fmin(*lo, h), *hi = fmax(*hi, h);
    }
    if (*hi == 0)
        *lo = 0;
}

/* The P a pattern's averages are at: the largest of the fit, whose P are those
 * within the cores when the probe ran any there (oversubscribed P are fitted
 * apart), each at least the pattern's smallest (paper 000: OneToAll, AllToOne
 * and AllToAll from P = 4). 0 when the machine file does not say (a file of
 * before the per-P fits). */
static int pattern_procs(const cost_machine *m, int pat)
{
    int least = pat == COST_EXCHANGE || pat == COST_PINGPONG ? 2 : 4, within = 0, any = 0;
    for (size_t i = 0; i < m->nbyprocs; i++) {
        int P = m->byprocs[i].procs;
        if (P < least)
            continue;
        any = P > any ? P : any;
        if (!m->byprocs[i].oversubscribed)
            within = P > within ? P : within;
    }
    return within > 0 ? within : any;
}

/* Paper 000's figures: per pattern, the probe's times for bsp_put at each h,
 * the pattern's own fit g_P h + L_P and the machine's BSP line g h + L, on
 * log-log axes with the trace's range of h shaded; with the raw samples, each
 * P's around them. A pattern the machine file lacks says why. */
static void probe_charts(FILE *f, const report_input *in)
{
    static const char *const names[COST_NPATTERNS] = {"Exchange", "PingPong", "OneToAll",
                                                      "AllToOne", "AllToAll"};
    const cost_machine *m = in->machine;
    double hlo, hhi;
    trace_h_range(in->trace, &hlo, &hhi);
    fputs("<h2>The probe's measurements</h2>\n<p>What the machine file was fitted to: per "
          "communication pattern of paper 000, the average time of a superstep of bsp_puts "
          "at each h-relation size (at the P of each chart's title), the pattern's own "
          "least-squares line (fit) and the BSP line every model above uses (BSP), on "
          "logarithmic axes.",
          f);
    if (hhi > 0)
        fprintf(f,
                " Shaded green: the h of this trace's supersteps, %.0f to %.0f bytes: where "
                "it lies left of the probe's sizes, the models extrapolate the lines.",
                hlo, hhi);
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
    char band[64];
    snprintf(band, sizeof band, "this trace's h");
    for (int p = 0; p < COST_NPATTERNS; p++) {
        const cost_pattern_fit *pf = &m->put[p];
        fprintf(f, "<h3>%s", names[p]);
        int P = pattern_procs(m, p);
        if (P > 0 && pf->measured)
            fprintf(f, ", averages at P = %d", P);
        fputs("</h3>\n", f);
        if (!pf->measured || pf->nsizes == 0) {
            fprintf(f, "<p class=\"absent\">Not in the machine file: %s</p>\n",
                    p >= COST_ONETOALL ? "paper 000 measures this pattern from P = 4 (its H is "
                                         "empty below), and the probe fitted none of the P it ran "
                                         "within the cores at 4 or more (docs/probe.md)."
                                       : "the probe did not measure it.");
            continue;
        }
        double fit[COST_MAX_SIZES], bsp[COST_MAX_SIZES];
        for (size_t i = 0; i < pf->nsizes; i++) {
            fit[i] = pf->g * pf->h[i] + pf->L;
            bsp[i] = m->g * pf->h[i] + m->L;
        }
        if (pf->L < 0 || m->L < 0)
            fprintf(f,
                    "<p class=\"negative\">A negative intercept (%s L = %.3g s): no superstep "
                    "takes negative time; the least-squares line of these sizes passes below 0 "
                    "towards h = 0, so it underestimates small supersteps (drawn only where "
                    "positive). The relative fit of the probe's table 12 is the better guide "
                    "there.</p>\n",
                    pf->L < 0 ? "the fit's" : "BSP's", pf->L < 0 ? pf->L : m->L);
        char fit_name[96], bsp_name[96], cloud_names[COST_MAX_PROCS][32];
        line_name(fit_name, sizeof fit_name, "fit", pf->g, pf->L);
        line_name(bsp_name, sizeof bsp_name, "BSP", m->g, m->L);
        svg_series s[3] = {{"average", pf->time, 1}, {fit_name, fit, 0}, {bsp_name, bsp, 0}};
        svg_cloud clouds[COST_MAX_PROCS];
        int nclouds = in->raw && x && y
                          ? pattern_clouds(in->raw, p, pf->nsizes, clouds, cloud_names, x, y)
                          : 0;
        if (in->raw && nclouds == 0)
            fputs("<p>(the raw file has no samples of this pattern at these sizes)</p>\n", f);
        svg_chart_opts o = {.xvalues = pf->h,
                            .xlabel = "h-relation (bytes)",
                            .ylabel = "seconds",
                            .loglog = 1,
                            .band_lo = hlo,
                            .band_hi = hhi,
                            .band_name = band};
        svg_line_chart(f, s, 3, clouds, nclouds, pf->nsizes, &o);
    }
    free(x);
    free(y);
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
    if (json_object_get(root, "program_families") != NULL) {
        copy_string(eta->trust, sizeof eta->trust, root, "trust");
        copy_string(eta->least, sizeof eta->least, root, "least_delta");
    }
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
    if (e->trust[0] == '\0')
        return;
    fputs("<p>The model to trust: <b>", f);
    svg_escape(f, e->trust);
    fputs("</b>, the least delta over the programs proper (FFT, inner product, irregular "
          "relation), which the probe does not run; the least over every family above: ",
          f);
    svg_escape(f, e->least[0] ? e->least : "none");
    fputs(".</p>\n", f);
}

void report_html_write(FILE *f, const report_input *in)
{
    long marks[MAX_MARKS];
    int model, nmarks = worst_steps(in, marks, &model);
    fputs(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>polybsp "
        "report</title>\n<style>\nbody{font-family:sans-serif;margin:1.5em;max-width:960px}\n"
        "table{border-collapse:collapse;margin:.5em 0}td,th{padding:2px 8px;text-align:right;"
        "border-bottom:1px solid #eee}\n.facts td,.facts th{text-align:left}\n"
        "tr.worst{background:#ffe08a}\nsvg{display:block;margin:.5em 0}\n</style></head>\n<body>\n",
        f);
    header(f, in);
    totals(f, in);
    timeline(f, in, marks, nmarks, model);
    step_table(f, in, marks, nmarks);
    heatmaps(f, in);
    probe_charts(f, in);
    if (in->eta)
        eta_table(f, in->eta);
    fputs("<p>Written by <code>polybsp report</code>; docs/report.md says how to read it, "
          "docs/models.md what each model computes.</p>\n",
          f);
    /* What the browser drew, for the browser test and for anyone who asks
     * (docs/report.md): how many charts were laid out with something in them
     * (data-drawn), which series of the timeline nothing else covers at any
     * of its points (data-hidden lists those it does: none should be), and
     * the supersteps shaded (data-marked). Nothing else runs. */
    fputs("<script>\n(function(){var b=document.body,n=0,all=document.querySelectorAll('svg');"
          "all.forEach(function(s){var r=s.getBBox();if(r.width>0&&r.height>0&&s.querySelector("
          "'polyline,rect.cell'))n++;});b.setAttribute('data-drawn',n+' of '+all.length);\n"
          "var t=document.querySelector('.timeline svg');if(!t)return;t.scrollIntoView();\n"
          "var seen={},hidden=[],marked=[];t.querySelectorAll('circle[data-name]').forEach("
          "function(c){var name=c.getAttribute('data-name');if(seen[name])return;if(!(name in "
          "seen))seen[name]=false;var "
          "r=c.getBoundingClientRect(),x=r.left+r.width/2,y=r.top+r.height/2,"
          "d=r.width/2-0.7;[[0,-d],[0,d],[-d,0],[d,0]].forEach(function(o){var e=document."
          "elementFromPoint(x+o[0],y+o[1]);if(e&&e.getAttribute('data-name')===name)seen[name]"
          "=true;});});\nfor(var k in seen)if(!seen[k])hidden.push(k);b.setAttribute("
          "'data-hidden',hidden.join(', '));t.querySelectorAll('rect.highlight').forEach("
          "function(r){marked.push(r.getAttribute('data-step'));});b.setAttribute("
          "'data-marked',marked.join(' '));})();\n",
          f);
    fputs("</script>\n</body></html>\n", f);
}
