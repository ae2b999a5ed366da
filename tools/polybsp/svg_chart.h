/* svg_chart — the charts of `polybsp report`, as inline SVG written to a stream.
 *
 * Contract: svg_escape writes text with &, <, >, " and ' escaped (for HTML and
 * SVG alike). svg_ticks chooses axis ticks at "nice" values (1, 2 or 5 times a
 * power of ten) covering [lo, hi] with about `want` intervals. svg_line_chart
 * draws series of y values over x = 0, 1, ... (NaN leaves a gap; an absent series
 * is skipped), with axes, ticks, a legend and a band over each marked x; and clouds of samples
 * around those x (the probe's raw samples), each cloud beside the others in its own colour. The y
 * axis reaches the series' largest value, or a cloud's when that is at most three times it: samples
 * above are drawn on the top edge as hollow circles, and the legend counts them. svg_heatmap draws
 * rows x cols cells shaded by value (NaN: blank) with a scale; a few values far above the rest
 * (a start-up superstep) do not set the scale: cells above its top are outlined and counted. Every
 * element carries a class (series-K, cell, axis) so that a browser test can find what was drawn.
 * Why SVG written here rather than a charting library: the page must be one file that opens without
 * a network, and these are two chart kinds of a few dozen lines each (docs/report.md).
 */
#ifndef POLYBSP_SVG_CHART_H
#define POLYBSP_SVG_CHART_H

#include <stddef.h>
#include <stdio.h>

void svg_escape(FILE *f, const char *text);

typedef struct svg_ticks_t {
    double first, step; /* ticks at first + k*step, k = 0 .. n-1 */
    int n;
} svg_ticks_t;

svg_ticks_t svg_ticks(double lo, double hi, int want);

typedef struct svg_series {
    const char *name;
    const double *y; /* npoints values, or NULL: not drawn */
    int emphasis;    /* 1: the thick line (the measurement) */
} svg_series;

/* n samples: sample k belongs to point x[k] (< npoints) and has value y[k]. */
typedef struct svg_cloud {
    const char *name;
    size_t n;
    const size_t *x;
    const double *y;
} svg_cloud;

/* How a line chart is drawn. */
typedef struct svg_chart_opts {
    const double *xvalues; /* npoints x values labelling the ticks, or NULL: 0, 1, ... */
    const char *xlabel, *ylabel;
    const long *marks; /* nmarks x indices shaded (the supersteps to look at) */
    int nmarks;
    /* 1: both axes logarithmic, x at xvalues (> 0): values of a series <= 0
     * leave a gap; the y axis spans the decades of the values drawn. */
    int loglog;
    /* loglog: the x range [band_lo, band_hi] shaded and named (band_hi > 0). */
    double band_lo, band_hi;
    const char *band_name;
    /* 1: the series after the first are drawn widest first, each 2 px narrower
     * than the one before and the first series last on top, so that lines
     * lying on each other all stay visible as nested bands. */
    int nested;
} svg_chart_opts;

/* Without xvalues the points are evenly spaced; with them too, unless loglog.
 * clouds may be NULL when nclouds is 0. */
void svg_line_chart(FILE *f, const svg_series *series, int nseries, const svg_cloud *clouds,
                    int nclouds, size_t npoints, const svg_chart_opts *opts);

void svg_heatmap(FILE *f, const double *values, int rows, size_t cols, const char *rowlabel,
                 const char *collabel, const char *unit);

#endif
