/* svg_chart.c — line charts and heat maps as inline SVG (svg_chart.h). */
#include "svg_chart.h"

#include "cost/cost_fit.h"

#include <math.h>
#include <stdlib.h>

/* RIGHT holds the legend: a line of "fit 9.89e-09 h − 1.18e-05" fits. */
enum { WIDTH = 920, LEFT = 84, RIGHT = 220, TOP = 16, BOTTOM = 46 };

/* A palette that stays apart for the usual six series (REAL and five models). */
static const char *const colours[] = {"#111111", "#1f77b4", "#ff7f0e", "#2ca02c",
                                      "#d62728", "#9467bd", "#8c564b", "#e377c2"};
/* The clouds', paler and apart from the lines drawn over them. */
static const char *const cloud_colours[] = {"#7f7f7f", "#17becf", "#bcbd22", "#e377c2", "#8c564b"};
/* Samples above this many times the series' largest value do not stretch the
 * y axis: one sample the system interrupted would flatten every line. */
#define CLOUD_REACH 3.0

void svg_escape(FILE *f, const char *text)
{
    for (const char *c = text; *c; c++) {
        switch (*c) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&#39;", f); break;
        default: fputc(*c, f);
        }
    }
}

svg_ticks_t svg_ticks(double lo, double hi, int want)
{
    svg_ticks_t t = {lo, 1, 1};
    if (!(hi > lo) || want < 1)
        return t;
    double raw = (hi - lo) / want, p = pow(10, floor(log10(raw))), m = raw / p;
    t.step = (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
    t.first = floor(lo / t.step) * t.step;
    t.n = (int)ceil((hi - t.first) / t.step - 1e-9) + 1;
    return t;
}

/* The largest finite value of the drawn series (0 when none). */
static double series_max(const svg_series *s, int ns, size_t np)
{
    double top = 0;
    for (int k = 0; k < ns; k++)
        for (size_t i = 0; s[k].y && i < np; i++)
            if (isfinite(s[k].y[i]) && s[k].y[i] > top)
                top = s[k].y[i];
    return top;
}

static void axis_labels(FILE *f, int height, const char *xlabel, const char *ylabel)
{
    fprintf(f, "<text class=\"axis\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">",
            LEFT + (WIDTH - LEFT - RIGHT) / 2, height - 8);
    svg_escape(f, xlabel);
    fprintf(f,
            "</text>\n<text class=\"axis\" transform=\"translate(14,%d) rotate(-90)\" "
            "text-anchor=\"middle\">",
            TOP + (height - TOP - BOTTOM) / 2);
    svg_escape(f, ylabel);
    fputs("</text>\n", f);
}

/* The top of the y axis: the series' largest value, or a cloud's within
 * CLOUD_REACH of it (any cloud's when there is no series). */
static double chart_top(const svg_series *s, int ns, const svg_cloud *c, int nc, size_t np)
{
    double top = series_max(s, ns, np), reach = top > 0 ? CLOUD_REACH * top : INFINITY;
    for (int k = 0; k < nc; k++)
        for (size_t i = 0; i < c[k].n; i++)
            if (c[k].x[i] < np && isfinite(c[k].y[i]) && c[k].y[i] > top && c[k].y[i] <= reach)
                top = c[k].y[i];
    return top;
}

static void legend_entry(FILE *f, int *shown, const char *colour, int width, int point,
                         const char *name, size_t over)
{
    int x = WIDTH - RIGHT + 12, y = TOP + 10 + 18 * (*shown)++;
    if (point)
        fprintf(f,
                "<circle class=\"legend\" cx=\"%d\" cy=\"%d\" r=\"3\" fill=\"%s\" "
                "fill-opacity=\"0.5\"/>",
                x + 12, y, colour);
    else
        fprintf(f,
                "<line class=\"legend\" x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\" stroke=\"%s\" "
                "stroke-width=\"%d\"/>",
                x, x + 24, y, y, colour, width);
    fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"11\">", x + 30, y + 4);
    svg_escape(f, name);
    if (over)
        fprintf(f, " (%zu off the top)", over);
    fputs("</text>\n", f);
}

/* Where a chart draws: x index i (or, on log axes, x value) and value v. */
typedef struct frame {
    int plotw, ploth, loglog;
    size_t npoints;
    const double *xv;
    double dx;       /* linear x: the width of one point */
    double lx0, lx1; /* log axes: log10 of the x range */
    double ymax;     /* linear y: the axis's top */
    double ly0, ly1; /* log axes: log10 of the y range */
} frame;

static double fx_value(const frame *fr, double x)
{
    return LEFT + (log10(x) - fr->lx0) / (fr->lx1 - fr->lx0) * fr->plotw;
}

static double fx(const frame *fr, double i)
{
    return fr->loglog ? fx_value(fr, fr->xv[(size_t)i]) : LEFT + (i + 0.5) * fr->dx;
}

static double fy(const frame *fr, double v)
{
    double at = fr->loglog ? (log10(v) - fr->ly0) / (fr->ly1 - fr->ly0) : v / fr->ymax;
    return TOP + fr->ploth - at * fr->ploth;
}

static int drawable(const frame *fr, double v) { return isfinite(v) && (!fr->loglog || v > 0); }

/* [lo, hi] widened by a twentieth on each side (half a decade when empty). */
static void pad(double *lo, double *hi)
{
    double m = *hi > *lo ? (*hi - *lo) / 20 : 0.5;
    *lo -= m;
    *hi += m;
}

/* The log axes' ranges: the x values and the band; the values drawn, clouds
 * within CLOUD_REACH of the lines' top. */
static void log_ranges(frame *fr, const svg_series *s, int ns, const svg_cloud *c, int nc,
                       const svg_chart_opts *o, double top)
{
    fr->lx0 = INFINITY, fr->lx1 = -INFINITY, fr->ly0 = INFINITY, fr->ly1 = -INFINITY;
    for (size_t i = 0; i < fr->npoints; i++)
        if (fr->xv[i] > 0)
            fr->lx0 = fmin(fr->lx0, log10(fr->xv[i])), fr->lx1 = fmax(fr->lx1, log10(fr->xv[i]));
    if (o->band_hi > 0 && o->band_lo > 0)
        fr->lx0 = fmin(fr->lx0, log10(o->band_lo)), fr->lx1 = fmax(fr->lx1, log10(o->band_hi));
    for (int k = 0; k < ns; k++)
        for (size_t i = 0; s[k].y && i < fr->npoints; i++)
            if (drawable(fr, s[k].y[i]))
                fr->ly0 = fmin(fr->ly0, log10(s[k].y[i])),
                fr->ly1 = fmax(fr->ly1, log10(s[k].y[i]));
    for (int k = 0; k < nc; k++)
        for (size_t i = 0; i < c[k].n; i++)
            if (c[k].x[i] < fr->npoints && drawable(fr, c[k].y[i]) && c[k].y[i] <= top)
                fr->ly0 = fmin(fr->ly0, log10(c[k].y[i])),
                fr->ly1 = fmax(fr->ly1, log10(c[k].y[i]));
    if (!isfinite(fr->lx0))
        fr->lx0 = 0, fr->lx1 = 1;
    if (!isfinite(fr->ly0))
        fr->ly0 = -1, fr->ly1 = 0;
    pad(&fr->lx0, &fr->lx1);
    pad(&fr->ly0, &fr->ly1);
}

/* Grid lines and labels of the y axis: decades on log axes. */
static void y_axis(FILE *f, const frame *fr)
{
    if (fr->loglog) {
        for (double d = ceil(fr->ly0); d <= fr->ly1; d++)
            fprintf(f,
                    "<line class=\"axis\" x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" "
                    "stroke=\"#ddd\"/><text class=\"axis\" x=\"%d\" y=\"%.1f\" "
                    "text-anchor=\"end\">1e%+03.0f</text>\n",
                    LEFT, LEFT + fr->plotw, fy(fr, pow(10, d)), fy(fr, pow(10, d)), LEFT - 4,
                    fy(fr, pow(10, d)) + 4, d);
        return;
    }
    svg_ticks_t yt = svg_ticks(0, fr->ymax, 5);
    for (int k = 0; k < yt.n; k++) {
        double v = yt.first + k * yt.step;
        fprintf(f,
                "<line class=\"axis\" x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>"
                "<text class=\"axis\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%.3g</text>\n",
                LEFT, LEFT + fr->plotw, fy(fr, v), fy(fr, v), LEFT - 4, fy(fr, v) + 4, v);
    }
}

static void x_axis(FILE *f, const frame *fr)
{
    svg_ticks_t xt = svg_ticks(0, fr->npoints > 1 ? (double)(fr->npoints - 1) : 1, 10);
    if (xt.step < 1 || fr->loglog) /* points are whole numbers: at most one tick each */
        xt = (svg_ticks_t){0, 1, (int)fr->npoints};
    for (int k = 0; k < xt.n; k++) {
        double i = xt.first + k * xt.step;
        if (i < 0 || i >= (double)fr->npoints)
            continue;
        /* Log axes may put sizes a factor of 4 apart: short labels, whole
         * numbers below a million. */
        double v = fr->xv ? fr->xv[(size_t)i] : i;
        int digits = fr->loglog ? (v < 1e6 ? 6 : 3) : 4;
        fprintf(f, "<text class=\"axis\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%.*g</text>\n",
                fx(fr, i), TOP + fr->ploth + 16, digits, v);
    }
}

/* The clouds, under the lines; each in its own strip of the point's width (of
 * a tenth of a decade on log axes), so that the clouds of one point stand side
 * by side. */
static void draw_clouds(FILE *f, const frame *fr, const svg_cloud *clouds, int nclouds, double top,
                        int *shown)
{
    double width = fr->loglog ? 0.1 / (fr->lx1 - fr->lx0) * fr->plotw : 0.6 * fr->dx;
    for (int k = 0; k < nclouds; k++) {
        const svg_cloud *c = &clouds[k];
        const char *colour = cloud_colours[k % (int)(sizeof cloud_colours / sizeof *cloud_colours)];
        double shift = (k - (nclouds - 1) / 2.0) * width / nclouds;
        size_t over = 0;
        for (size_t i = 0; i < c->n; i++) {
            if (c->x[i] >= fr->npoints || !drawable(fr, c->y[i]))
                continue;
            int above = c->y[i] > top;
            over += (size_t)above;
            fprintf(f,
                    "<circle class=\"cloud%s\" cx=\"%.1f\" cy=\"%.1f\" r=\"2\" %s=\"%s\" "
                    "%s-opacity=\"0.5\"/>\n",
                    above ? "-over" : "", fx(fr, (double)c->x[i]) + shift,
                    above ? (double)TOP : fy(fr, c->y[i]), above ? "fill=\"none\" stroke" : "fill",
                    colour, above ? "stroke" : "fill");
        }
        legend_entry(f, shown, colour, 0, 1, c->name, over);
    }
}

/* One series: a polyline per run of drawable values, and its points when
 * few. Each element names its series (data-name) for the browser's checks. */
static void draw_series(FILE *f, const frame *fr, const svg_series *s, int k, int width, int *shown)
{
    const char *colour = colours[k % (int)(sizeof colours / sizeof *colours)];
    int open = 0;
    for (size_t i = 0; i < fr->npoints; i++) {
        if (!drawable(fr, s->y[i])) {
            if (open)
                fputs("\"/>\n", f);
            open = 0;
            continue;
        }
        if (!open) {
            fprintf(f, "<polyline class=\"series-%d\" data-name=\"", k);
            svg_escape(f, s->name);
            fprintf(f, "\" fill=\"none\" stroke=\"%s\" stroke-width=\"%d\" points=\"", colour,
                    width);
        }
        fprintf(f, "%.1f,%.1f ", fx(fr, (double)i), fy(fr, s->y[i]));
        open = 1;
    }
    if (open)
        fputs("\"/>\n", f);
    for (size_t i = 0; fr->npoints <= 200 && i < fr->npoints; i++)
        if (drawable(fr, s->y[i])) {
            fprintf(f, "<circle class=\"series-%d\" data-name=\"", k);
            svg_escape(f, s->name);
            fprintf(f, "\" cx=\"%.1f\" cy=\"%.1f\" r=\"%g\" fill=\"%s\"/>\n", fx(fr, (double)i),
                    fy(fr, s->y[i]), width / 2.0 + 1, colour);
        }
    legend_entry(f, shown, colour, width, 0, s->name, 0);
}

void svg_line_chart(FILE *f, const svg_series *series, int nseries, const svg_cloud *clouds,
                    int nclouds, size_t npoints, const svg_chart_opts *o)
{
    const int height = 340;
    frame fr = {.plotw = WIDTH - LEFT - RIGHT,
                .ploth = height - TOP - BOTTOM,
                .loglog = o->loglog && o->xvalues != NULL,
                .npoints = npoints,
                .xv = o->xvalues};
    double top = chart_top(series, nseries, clouds, nclouds, npoints);
    /* Samples above the lines' reach go on the top edge, whatever the axes. */
    double reach = series_max(series, nseries, npoints);
    reach = reach > 0 ? CLOUD_REACH * reach : INFINITY;
    svg_ticks_t yt = svg_ticks(0, top > 0 ? top : 1, 5);
    fr.ymax = yt.first + yt.step * (yt.n - 1);
    fr.dx = npoints ? (double)fr.plotw / (double)npoints : fr.plotw;
    if (fr.loglog)
        log_ranges(&fr, series, nseries, clouds, nclouds, o, reach);
    fprintf(f,
            "<svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
            "font-family=\"sans-serif\" font-size=\"12\">\n",
            WIDTH, height);
    for (int k = 0; k < o->nmarks; k++)
        if (!fr.loglog && o->marks[k] >= 0 && (size_t)o->marks[k] < npoints)
            fprintf(f,
                    "<rect class=\"highlight\" data-step=\"%ld\" x=\"%.1f\" y=\"%d\" "
                    "width=\"%.1f\" height=\"%d\" fill=\"#ffe08a\"/>\n",
                    o->marks[k], fx(&fr, (double)o->marks[k]) - fr.dx / 2, TOP, fr.dx, fr.ploth);
    int shown = 0;
    if (fr.loglog && o->band_hi > 0 && o->band_lo > 0) {
        double x0 = fx_value(&fr, o->band_lo), x1 = fx_value(&fr, o->band_hi);
        fprintf(f,
                "<rect class=\"band\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" "
                "fill=\"#c7e9c0\"/>\n",
                x0 - 1.5, TOP, x1 - x0 + 3, fr.ploth);
        legend_entry(f, &shown, "#c7e9c0", 8, 0, o->band_name ? o->band_name : "", 0);
    }
    y_axis(f, &fr);
    x_axis(f, &fr);
    fprintf(f,
            "<rect class=\"axis\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" "
            "stroke=\"#888\"/>\n",
            LEFT, TOP, fr.plotw, fr.ploth);
    draw_clouds(f, &fr, clouds, nclouds, fr.loglog ? reach : fr.ymax, &shown);
    /* Nested: the others widest first, then the first on top. */
    int present = 0;
    for (int k = 1; k < nseries; k++)
        present += series[k].y != NULL;
    for (int k = o->nested ? 1 : 0, j = 0; k < nseries; k++) {
        if (!series[k].y)
            continue;
        int width = o->nested ? 2 * (present - j++) + 2 : series[k].emphasis ? 3 : 1;
        draw_series(f, &fr, &series[k], k, width, &shown);
    }
    if (o->nested && nseries > 0 && series[0].y)
        draw_series(f, &fr, &series[0], 0, 2, &shown);
    axis_labels(f, height, o->xlabel, o->ylabel);
    fputs("</svg>\n", f);
}

/* The top of a heat map's scale: the largest value (into *largest), unless it
 * is more than HEAT_REACH times the 95th percentile of the finite values, as
 * when one start-up superstep would leave every other cell white; then that
 * percentile, and the cells above it stand out. */
#define HEAT_REACH 3.0
static double heat_top(const double *values, size_t n, double *largest)
{
    double *v = malloc((n ? n : 1) * sizeof *v);
    size_t m = 0;
    *largest = 0;
    for (size_t i = 0; i < n; i++)
        if (isfinite(values[i])) {
            *largest = fmax(*largest, values[i]);
            if (v)
                v[m++] = values[i];
        }
    double top = *largest;
    if (v && m > 0) {
        cost_sort(v, m);
        double p95 = v[(size_t)(0.95 * (double)(m - 1))];
        if (p95 > 0 && top > HEAT_REACH * p95)
            top = p95;
    }
    free(v);
    return top;
}

void svg_heatmap(FILE *f, const double *values, int rows, size_t cols, const char *rowlabel,
                 const char *collabel, const char *unit)
{
    const int plotw = WIDTH - LEFT - RIGHT;
    int cellh = rows > 0 && 240 / rows >= 4 ? (240 / rows < 20 ? 240 / rows : 20) : 4;
    int ploth = cellh * (rows > 0 ? rows : 1), height = TOP + ploth + BOTTOM;
    double largest = 0, top = heat_top(values, (size_t)rows * cols, &largest);
    size_t over = 0;
    double dx = cols ? (double)plotw / (double)cols : plotw;
    fprintf(
        f,
        "<svg class=\"heatmap\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
        "font-family=\"sans-serif\" font-size=\"12\">\n",
        WIDTH, height);
    for (int r = 0; r < rows; r++) {
        for (size_t c = 0; c < cols; c++) {
            double v = values[(size_t)r * cols + c];
            if (!isfinite(v))
                continue;
            /* White for 0, deep blue for the scale's top and above (outlined). */
            double a = top > 0 ? fmin(v / top, 1) : 0;
            int red = (int)(255 - a * 224), green = (int)(255 - a * 160),
                blue = (int)(255 - a * 75), above = v > top;
            over += (size_t)above;
            fprintf(f,
                    "<rect class=\"cell%s\" x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"%d\" "
                    "fill=\"rgb(%d,%d,%d)\"%s><title>%s %d, %s %zu: %.4g %s</title></rect>\n",
                    above ? " over" : "", LEFT + (double)c * dx, TOP + r * cellh, dx, cellh, red,
                    green, blue, above ? " stroke=\"#d62728\" stroke-width=\"1.5\"" : "", rowlabel,
                    r, collabel, c, v, unit);
        }
        if (rows <= 16 || r % (rows / 8) == 0)
            fprintf(f, "<text class=\"axis\" x=\"%d\" y=\"%d\" text-anchor=\"end\">%d</text>\n",
                    LEFT - 4, TOP + r * cellh + cellh / 2 + 4, r);
    }
    /* The columns' numbers, as the timeline's x axis above: a column is found
     * in both at the same superstep. */
    svg_ticks_t xt = svg_ticks(0, cols > 1 ? (double)(cols - 1) : 1, 10);
    if (xt.step < 1)
        xt = (svg_ticks_t){0, 1, (int)cols};
    for (int k = 0; k < xt.n; k++) {
        double c = xt.first + k * xt.step;
        if (c >= 0 && c < (double)cols)
            fprintf(f,
                    "<text class=\"axis\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%.0f</text>\n",
                    LEFT + (c + 0.5) * dx, TOP + ploth + 16, c);
    }
    fprintf(f,
            "<rect class=\"axis\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" "
            "stroke=\"#888\"/>\n",
            LEFT, TOP, plotw, ploth);
    fprintf(f, "<text x=\"%d\" y=\"%d\">white: 0</text><text x=\"%d\" y=\"%d\">blue: %s%.3g ",
            LEFT + plotw + 12, TOP + 12, LEFT + plotw + 12, TOP + 28, over ? "\u2265 " : "", top);
    svg_escape(f, unit);
    fputs("</text>\n", f);
    if (over) {
        fprintf(f,
                "<text class=\"over\" x=\"%d\" y=\"%d\">red outline: %zu above,</text>"
                "<text x=\"%d\" y=\"%d\">up to %.3g ",
                LEFT + plotw + 12, TOP + 44, over, LEFT + plotw + 12, TOP + 60, largest);
        svg_escape(f, unit);
        fputs("</text>\n", f);
    }
    axis_labels(f, height, collabel, rowlabel);
    fputs("</svg>\n", f);
}
