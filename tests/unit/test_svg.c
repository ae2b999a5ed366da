/* test_svg — svg_chart (tools/polybsp/svg_chart.h), the charts of `polybsp
 * report`: ticks at hand-computed nice values, escaping, a line chart that
 * breaks its line at a missing value and skips an absent series, clouds of
 * samples that stretch the y axis up to three times the lines' top, nested bands
 * for lines on each other, log-log axes with a shaded band, and heat maps with
 * one cell per value that is there and a scale no start-up cell sets. Prints "test_svg: OK". */
#include "svg_chart.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fails;

static void expect(int ok, const char *what)
{
    if (!ok) {
        printf("test_svg: FAILED: %s\n", what);
        fails++;
    }
}

static int count(const char *text, const char *needle)
{
    int n = 0;
    for (const char *p = strstr(text, needle); p; p = strstr(p + 1, needle))
        n++;
    return n;
}

/* What a drawing function writes, as a string (free it). */
#define CAPTURE(buf, call)                                                                         \
    do {                                                                                           \
        size_t len_;                                                                               \
        FILE *f = open_memstream(&(buf), &len_);                                                   \
        call;                                                                                      \
        fclose(f);                                                                                 \
    } while (0)

int main(void)
{
    /* 0 to 0.00042 in about 5: raw step 8.4e-5, so 1e-4; ticks 0 .. 5e-4. */
    svg_ticks_t t = svg_ticks(0, 0.00042, 5);
    expect(fabs(t.step - 1e-4) < 1e-12 && t.first == 0 && t.n == 6, "ticks of 0 .. 0.00042");
    /* 0 to 45 in about 10: raw 4.5, so 5; ticks 0 .. 45. */
    t = svg_ticks(0, 45, 10);
    expect(t.step == 5 && t.first == 0 && t.n == 10, "ticks of 0 .. 45");
    /* 3 to 17 in about 4: raw 3.5, so 5; ticks 0 .. 20. */
    t = svg_ticks(3, 17, 4);
    expect(t.step == 5 && t.first == 0 && t.n == 5, "ticks of 3 .. 17");
    t = svg_ticks(1, 1, 5);
    expect(t.n == 1, "ticks of an empty range");

    char *s = NULL;
    CAPTURE(s, svg_escape(f, "a<b&\"c'>"));
    expect(strcmp(s, "a&lt;b&amp;&quot;c&#39;&gt;") == 0, "escaping");
    free(s);

    double real[4] = {1, 2, NAN, 4}, model[4] = {1.5, 1.5, 1.5, 1.5};
    svg_series series[3] = {{"REAL", real, 1}, {"none", NULL, 0}, {"M<1>", model, 0}};
    long one = 1;
    svg_chart_opts steps = {.xlabel = "superstep", .ylabel = "seconds", .marks = &one, .nmarks = 1};
    CAPTURE(s, svg_line_chart(f, series, 3, NULL, 0, 4, &steps));
    expect(count(s, "<polyline class=\"series-0\"") == 2, "REAL's line breaks at the NaN");
    expect(count(s, "<circle class=\"series-0\"") == 3, "REAL's three points");
    expect(count(s, "<polyline class=\"series-2\"") == 1, "the model's one line");
    expect(count(s, "series-1") == 0, "the absent series is not drawn");
    expect(count(s, ">M&lt;1&gt;</text>") == 1, "the legend escapes the name");
    expect(count(s, "class=\"highlight\"") == 1, "the highlighted superstep");
    free(s);
    double h[4] = {6720, 26880, 107520, 430080};
    svg_chart_opts sizes = {.xvalues = h, .xlabel = "h", .ylabel = "seconds"};
    CAPTURE(s, svg_line_chart(f, series, 3, NULL, 0, 4, &sizes));
    expect(count(s, ">4.301e+05</text>") == 1 && count(s, ">6720</text>") == 1,
           "x ticks labelled with the given values");
    expect(count(s, "class=\"highlight\"") == 0, "no highlight");
    free(s);

    /* Clouds: the series reach 2, so samples up to 3 * 2 = 6 stretch the axis:
     * 5 does (ticks 0 .. 5 by 1), 7 is drawn on the top edge, and a sample of a
     * point the chart lacks (x = 2 of 2 points) is not drawn. */
    double two[2] = {1, 2}, cy[5] = {0.5, 1.5, 5, 7, 1};
    size_t cx[5] = {0, 1, 0, 1, 2};
    svg_series line = {"average", two, 1};
    svg_cloud cloud = {"samples, P = 2", 5, cx, cy};
    svg_chart_opts plain = {.xlabel = "h", .ylabel = "seconds"};
    CAPTURE(s, svg_line_chart(f, &line, 1, &cloud, 1, 2, &plain));
    expect(count(s, "<circle class=\"cloud\"") == 3, "three samples in the chart");
    expect(count(s, "<circle class=\"cloud-over\"") == 1, "one sample on the top edge");
    expect(count(s, ">5</text>") == 1 && count(s, ">6</text>") == 0, "the y axis stops at 5");
    expect(count(s, "samples, P = 2 (1 off the top)</text>") == 1,
           "the legend counts the sample above");
    free(s);

    /* Nested: REAL and two models that coincide; the models are bands 6 and 4
     * px wide, the widest first, and REAL (2 px) is drawn last, on top. */
    double same[3] = {1, 2, 3};
    svg_series nest[3] = {{"REAL", two, 1}, {"A", same, 0}, {"B", same, 0}};
    svg_chart_opts nested = {.xlabel = "superstep", .ylabel = "seconds", .nested = 1};
    CAPTURE(s, svg_line_chart(f, nest, 3, NULL, 0, 2, &nested));
    const char *a = strstr(s, "<polyline class=\"series-1\""),
               *b = strstr(s, "<polyline class=\"series-2\""),
               *r = strstr(s, "<polyline class=\"series-0\"");
    expect(a && b && r && a < b && b < r, "nested: A, then B, then REAL on top");
    expect(a && strstr(a, "stroke-width=\"6\"") < b && b && strstr(b, "stroke-width=\"4\"") < r &&
               r && strstr(r, "stroke-width=\"2\"") != NULL,
           "nested widths 6, 4 and 2");
    free(s);

    /* Log-log: x at 10, 100, 1000, a value <= 0 not drawn, decades labelled,
     * and the band of 1 to 5 (left of the points) shaded. */
    double xs[3] = {10, 100, 1000}, ys[3] = {1e-6, 1e-5, -1};
    svg_series logs = {"fit", ys, 0};
    svg_chart_opts lo = {.xvalues = xs,
                         .xlabel = "h",
                         .ylabel = "seconds",
                         .loglog = 1,
                         .band_lo = 1,
                         .band_hi = 5,
                         .band_name = "trace"};
    CAPTURE(s, svg_line_chart(f, &logs, 1, NULL, 0, 3, &lo));
    expect(count(s, "<circle class=\"series-0\"") == 2, "log-log: the value <= 0 is not drawn");
    expect(count(s, ">1e-06</text>") == 1 && count(s, ">1e-05</text>") == 1, "log-log: decades");
    expect(count(s, "<rect class=\"band\"") == 1 && count(s, ">trace</text>") == 1,
           "log-log: the band and its name");
    expect(count(s, ">1000</text>") == 1, "log-log: x labelled with the values");
    free(s);

    /* A heat map with one start-up cell 100 times the others: the scale stops
     * at the 95th percentile (1), and the cell above is outlined and counted. */
    double start[21];
    for (int k = 0; k < 21; k++)
        start[k] = k == 0 ? 100 : 1;
    CAPTURE(s, svg_heatmap(f, start, 1, 21, "process", "superstep", "s"));
    expect(count(s, "<rect class=\"cell over\"") == 1, "the start-up cell is outlined");
    expect(count(s, "fill=\"rgb(31,95,180)\"") == 21, "every cell at the scale's top is deep blue");
    expect(count(s, "red outline: 1 above,") == 1 && count(s, "up to 100 s") == 1,
           "the legend counts the cell above the scale");
    free(s);

    double cells[6] = {0, 1, 2, NAN, 4, 8};
    CAPTURE(s, svg_heatmap(f, cells, 2, 3, "process", "superstep", "bytes"));
    expect(count(s, "<rect class=\"cell\"") == 5, "five cells (one NaN)");
    expect(count(s, "fill=\"rgb(255,255,255)\"") == 1, "zero is white");
    expect(count(s, "fill=\"rgb(31,95,180)\"") == 1, "the largest is the deepest blue");
    expect(count(s, "text-anchor=\"middle\">0</text>") == 1 &&
               count(s, "text-anchor=\"middle\">2</text>") == 1,
           "the columns numbered 0 to 2");
    free(s);

    if (fails)
        return 1;
    printf("test_svg: OK\n");
    return 0;
}
