/* svg_chart.c — line charts and heat maps as inline SVG (svg_chart.h). */
#include "svg_chart.h"

#include <math.h>

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

void svg_line_chart(FILE *f, const svg_series *series, int nseries, const svg_cloud *clouds,
                    int nclouds, size_t npoints, const double *xvalues, const char *xlabel,
                    const char *ylabel, long highlight)
{
    const int height = 340, plotw = WIDTH - LEFT - RIGHT, ploth = height - TOP - BOTTOM;
    double top = chart_top(series, nseries, clouds, nclouds, npoints);
    svg_ticks_t yt = svg_ticks(0, top > 0 ? top : 1, 5);
    double ymax = yt.first + yt.step * (yt.n - 1);
    double dx = npoints ? (double)plotw / (double)npoints : plotw;
#define X(i) (LEFT + ((double)(i) + 0.5) * dx)
#define Y(v) (TOP + ploth - (v) / ymax * ploth)
    fprintf(f,
            "<svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
            "font-family=\"sans-serif\" font-size=\"12\">\n",
            WIDTH, height);
    if (highlight >= 0 && (size_t)highlight < npoints)
        fprintf(f,
                "<rect class=\"highlight\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" "
                "fill=\"#ffe08a\"/>\n",
                X(highlight) - dx / 2, TOP, dx, ploth);
    for (int k = 0; k < yt.n; k++) {
        double v = yt.first + k * yt.step;
        fprintf(f,
                "<line class=\"axis\" x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>"
                "<text class=\"axis\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%.3g</text>\n",
                LEFT, LEFT + plotw, Y(v), Y(v), LEFT - 4, Y(v) + 4, v);
    }
    svg_ticks_t xt = svg_ticks(0, npoints > 1 ? (double)(npoints - 1) : 1, 10);
    if (xt.step < 1) /* points are whole numbers: at most one tick each */
        xt = (svg_ticks_t){0, 1, (int)npoints};
    for (int k = 0; k < xt.n; k++) {
        double i = xt.first + k * xt.step;
        if (i < 0 || i >= (double)npoints)
            continue;
        fprintf(f, "<text class=\"axis\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%.4g</text>\n",
                X(i), TOP + ploth + 16, xvalues ? xvalues[(size_t)i] : i);
    }
    fprintf(f,
            "<rect class=\"axis\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" "
            "stroke=\"#888\"/>\n",
            LEFT, TOP, plotw, ploth);
    int shown = 0;
    /* The clouds first, under the lines; each in its own strip of the point's
     * width, so that the clouds of one point stand side by side. */
    for (int k = 0; k < nclouds; k++) {
        const svg_cloud *c = &clouds[k];
        const char *colour = cloud_colours[k % (int)(sizeof cloud_colours / sizeof *cloud_colours)];
        double shift = (k - (nclouds - 1) / 2.0) * 0.6 * dx / nclouds;
        size_t over = 0;
        for (size_t i = 0; i < c->n; i++) {
            if (c->x[i] >= npoints || !isfinite(c->y[i]))
                continue;
            int above = c->y[i] > ymax;
            over += (size_t)above;
            fprintf(f,
                    "<circle class=\"cloud%s\" cx=\"%.1f\" cy=\"%.1f\" r=\"2\" %s=\"%s\" "
                    "%s-opacity=\"0.5\"/>\n",
                    above ? "-over" : "", X(c->x[i]) + shift, above ? (double)TOP : Y(c->y[i]),
                    above ? "fill=\"none\" stroke" : "fill", colour, above ? "stroke" : "fill");
        }
        legend_entry(f, &shown, colour, 0, 1, c->name, over);
    }
    for (int k = 0; k < nseries; k++) {
        const svg_series *s = &series[k];
        if (!s->y)
            continue;
        const char *colour = colours[k % (int)(sizeof colours / sizeof *colours)];
        /* One polyline per run of finite values; points as well when few. */
        int open = 0;
        for (size_t i = 0; i < npoints; i++) {
            if (!isfinite(s->y[i])) {
                if (open)
                    fputs("\"/>\n", f);
                open = 0;
                continue;
            }
            if (!open)
                fprintf(f,
                        "<polyline class=\"series-%d\" fill=\"none\" stroke=\"%s\" "
                        "stroke-width=\"%d\" points=\"",
                        k, colour, s->emphasis ? 3 : 1);
            fprintf(f, "%.1f,%.1f ", X(i), Y(s->y[i]));
            open = 1;
        }
        if (open)
            fputs("\"/>\n", f);
        for (size_t i = 0; npoints <= 200 && i < npoints; i++)
            if (isfinite(s->y[i]))
                fprintf(
                    f,
                    "<circle class=\"series-%d\" cx=\"%.1f\" cy=\"%.1f\" r=\"%d\" fill=\"%s\"/>\n",
                    k, X(i), Y(s->y[i]), s->emphasis ? 3 : 2, colour);
        legend_entry(f, &shown, colour, s->emphasis ? 3 : 1, 0, s->name, 0);
    }
    axis_labels(f, height, xlabel, ylabel);
    fputs("</svg>\n", f);
#undef X
#undef Y
}

void svg_heatmap(FILE *f, const double *values, int rows, size_t cols, const char *rowlabel,
                 const char *collabel, const char *unit)
{
    const int plotw = WIDTH - LEFT - RIGHT;
    int cellh = rows > 0 && 240 / rows >= 4 ? (240 / rows < 20 ? 240 / rows : 20) : 4;
    int ploth = cellh * (rows > 0 ? rows : 1), height = TOP + ploth + BOTTOM;
    double top = 0;
    for (size_t i = 0; i < (size_t)rows * cols; i++)
        if (isfinite(values[i]) && values[i] > top)
            top = values[i];
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
            /* White for 0, deep blue for the largest value. */
            double a = top > 0 ? v / top : 0;
            int red = (int)(255 - a * 224), green = (int)(255 - a * 160),
                blue = (int)(255 - a * 75);
            fprintf(f,
                    "<rect class=\"cell\" x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"%d\" "
                    "fill=\"rgb(%d,%d,%d)\"><title>%s %d, %s %zu: %.4g %s</title></rect>\n",
                    LEFT + (double)c * dx, TOP + r * cellh, dx, cellh, red, green, blue, rowlabel,
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
    fprintf(f, "<text x=\"%d\" y=\"%d\">white: 0</text><text x=\"%d\" y=\"%d\">blue: %.3g ",
            LEFT + plotw + 12, TOP + 12, LEFT + plotw + 12, TOP + 28, top);
    svg_escape(f, unit);
    fputs("</text>\n", f);
    axis_labels(f, height, collabel, rowlabel);
    fputs("</svg>\n", f);
}
