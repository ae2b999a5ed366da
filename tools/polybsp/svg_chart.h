/* svg_chart — the charts of `polybsp report`, as inline SVG written to a stream.
 *
 * Contract: svg_escape writes text with &, <, >, " and ' escaped (for HTML and
 * SVG alike). svg_ticks chooses axis ticks at "nice" values (1, 2 or 5 times a
 * power of ten) covering [lo, hi] with about `want` intervals. svg_line_chart
 * draws series of y values over x = 0, 1, ... (NaN leaves a gap; an absent series
 * is skipped), with axes, ticks, a legend and, when highlight >= 0, a band over
 * that x; and clouds of samples around those x (the probe's raw samples), each
 * cloud beside the others in its own colour. The y axis reaches the series'
 * largest value, or a cloud's when that is at most three times it: samples
 * above are drawn on the top edge as hollow circles, and the legend counts them. svg_heatmap draws
 * rows x cols cells shaded by value (NaN: blank) with a scale. Every element carries a class
 * (series-K, cell, axis) so that a browser test can find what was drawn. Why SVG written here
 * rather than a charting library: the page must be one file that opens without a network, and these
 * are two chart kinds of a few dozen lines each (docs/report.md).
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

/* xvalues (npoints, or NULL for 0, 1, ...) label the ticks of the x axis; the
 * points stay evenly spaced (the probe's sizes grow by a factor of 4). clouds
 * may be NULL when nclouds is 0. */
void svg_line_chart(FILE *f, const svg_series *series, int nseries, const svg_cloud *clouds,
                    int nclouds, size_t npoints, const double *xvalues, const char *xlabel,
                    const char *ylabel, long highlight);

void svg_heatmap(FILE *f, const double *values, int rows, size_t cols, const char *rowlabel,
                 const char *collabel, const char *unit);

#endif
