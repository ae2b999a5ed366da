/* test_cost — unit tests of src/cost: the models on hand-built traces, the fits
 * and error measures on data with known answers, and the two readers.
 *
 * Usage: test_cost DATA_DIR CASE. Each CASE is its own ctest test, so a failure
 * names what broke. Expected values were computed by hand from the formulas in
 * docs/models.md (the arithmetic is in the comments) and are asserted within
 * 1e-12 relative: exact up to the rounding of the double operations.
 */
#include "cost/cost_fit.h"
#include "cost/cost_machine.h"
#include "cost/cost_model.h"
#include "cost/cost_trace.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *data_dir;
static int failures;

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);               \
            failures++;                                                                            \
        }                                                                                          \
    } while (0)

#define NEAR(got, want) near_at(__FILE__, __LINE__, #got, (got), (want))
#define SAME_STR(got, want) same_str_at(__FILE__, __LINE__, (got), (want))

static void near_at(const char *file, int line, const char *what, double got, double want)
{
    double tol = 1e-12 * fabs(want);
    if (!(fabs(got - want) <= tol)) {
        fprintf(stderr, "%s:%d: %s = %.17g, expected %.17g\n", file, line, what, got, want);
        failures++;
    }
}

static void same_str_at(const char *file, int line, const char *got, const char *want)
{
    if (strcmp(got, want) != 0) {
        fprintf(stderr, "%s:%d: got \"%s\"\n    expected \"%s\"\n", file, line, got, want);
        failures++;
    }
}

static char err[8192];

static void path_of(char *buf, size_t n, const char *name)
{
    snprintf(buf, n, "%s/%s", data_dir, name);
}

static void load_trace(const char *name, cost_trace *t)
{
    char path[4096];
    path_of(path, sizeof path, name);
    if (cost_trace_read(path, t, err, sizeof err) < 0) {
        fprintf(stderr, "cannot read %s: %s\n", path, err);
        exit(1);
    }
}

static void load_machine(const char *name, cost_machine *m)
{
    char path[4096];
    path_of(path, sizeof path, name);
    if (cost_machine_read(path, m, err, sizeof err) < 0) {
        fprintf(stderr, "cannot read %s: %s\n", path, err);
        exit(1);
    }
}

/* Checks a model's per-step predictions and total against the expected ones. */
static void expect_model(cost_model_kind k, const cost_trace *t, const cost_machine *m, int use_ops,
                         const double *want_steps, double want_total)
{
    double steps[16];
    double total = cost_predict(k, t, m, use_ops, steps);
    for (unsigned long s = 0; s < t->nsteps; s++) {
        char what[64];
        snprintf(what, sizeof what, "%s step %lu", cost_model_name(k), s);
        near_at(__FILE__, __LINE__, what, steps[s], want_steps[s]);
    }
    near_at(__FILE__, __LINE__, cost_model_name(k), total, want_total);
}

/* ---- models ---- */

/* Two pairs (0,1) and (2,3) exchanging within the pair: 0 and 1 compute 1 ms and
 * exchange 1000 bytes; 2 and 3 compute 0.1 ms and exchange 100000 bytes. Machine:
 * g = 1e-9 s/byte, L = 1e-5 s, h = in + out; g* = 2e-9, B = 100.
 * BSP step: W = 0.001, h = 200000 -> 0.001 + 2e-4 + 1e-5 = 0.00121 (twice).
 * BSP*: s = 200000, h = 20 msgs -> 0.001 + 2e-9·(200000 + 20·100) + 1e-5 = 0.001414.
 * EBSP: the pairs never wait for each other. Φ(0,0) = 0.001 + 2e-6 + 1e-5 =
 * 0.001012 (pair 2,3: 0.0001 + 2e-4 + 1e-5 = 0.00031); step 1 adds the same:
 * Ψ = 0.002024 < BSP's 0.00242. REAL: max t_exit 0.00111, then 0.00231. */
static void model_two_pairs(void)
{
    cost_trace t;
    cost_machine m;
    load_trace("two_pairs.jsonl", &t);
    load_machine("machine.json", &m);
    expect_model(COST_REAL, &t, &m, 0, (double[]){0.00111, 0.0012}, 0.00231);
    expect_model(COST_BSP, &t, &m, 0, (double[]){0.00121, 0.00121}, 0.00242);
    expect_model(COST_BSPSTAR, &t, &m, 0, (double[]){0.001414, 0.001414}, 0.002828);
    expect_model(COST_EBSP, &t, &m, 0, (double[]){0.001012, 0.001012}, 0.002024);
    CHECK(cost_predict(COST_EBSP, &t, &m, 0, NULL) < cost_predict(COST_BSP, &t, &m, 0, NULL));
    NEAR(cost_error_percent(0.00231, 0.00242), 100 * (0.00231 - 0.00242) / 0.00231);
    cost_trace_free(&t);
}

/* The same trace with h = max(in, out): BSP h = 100000 -> 0.001 + 1e-4 + 1e-5 =
 * 0.00111 per step; EBSP pair (0,1): 0.001 + 1e-6 + 1e-5 = 0.001011 per step. */
static void model_two_pairs_max(void)
{
    cost_trace t;
    cost_machine m;
    load_trace("two_pairs.jsonl", &t);
    load_machine("machine_max.json", &m);
    expect_model(COST_BSP, &t, &m, 0, (double[]){0.00111, 0.00111}, 0.00222);
    expect_model(COST_EBSP, &t, &m, 0, (double[]){0.001011, 0.001011}, 0.002022);
    /* This machine has no BSP* parameters: no prediction rather than a wrong one. */
    CHECK(isnan(cost_predict(COST_BSPSTAR, &t, &m, 0, NULL)));
    cost_trace_free(&t);
}

/* Everyone receives from everyone, so every Ω is the whole machine and EBSP
 * must agree with BSP. Process i sends 100·(i+1) bytes to each other one:
 * in + out = 700, 800, 900 -> h = 900; msgs in + out = 4.
 * Step 0: W = 0.002 -> 0.002 + 9e-7 + 1e-5 = 0.0020109; step 1: W = 0.003 ->
 * 0.0030109. BSP*: 2e-9·(900 + 4·100) = 2.6e-6 -> 0.0020126 and 0.0030126. */
static void model_all_to_all(void)
{
    cost_trace t;
    cost_machine m;
    load_trace("all_to_all.jsonl", &t);
    load_machine("machine.json", &m);
    expect_model(COST_REAL, &t, &m, 0, (double[]){0.0021, 0.0031}, 0.0052);
    expect_model(COST_BSP, &t, &m, 0, (double[]){0.0020109, 0.0030109}, 0.0050218);
    expect_model(COST_EBSP, &t, &m, 0, (double[]){0.0020109, 0.0030109}, 0.0050218);
    expect_model(COST_BSPSTAR, &t, &m, 0, (double[]){0.0020126, 0.0030126}, 0.0050252);
    cost_trace_free(&t);
}

/* A pipeline 0 -> 1 (step 0) -> 2 (step 1): EBSP carries process 0's long first
 * step to 2 through the chain of in-partners.
 * Φ0 = (0.003 + 1e-6 + 1e-5, same for 1 (Ω = {0,1}), 0.001 + 1e-5)
 *    = (0.003011, 0.003011, 0.00101)
 * Φ1 = (0.003011 + 0.001 + 1e-5, 0.003011 + 0.001 + 1e-6 + 1e-5,
 *       max(0.00101, 0.003011) + 0.001 + 1e-6 + 1e-5) = (0.004021, 0.004022, 0.004022)
 * Φ2 = Φ1 + 0.001 + 1e-5 -> max 0.005032. Per step: 0.003011, 0.001011, 0.00101,
 * the same as BSP here, although no Ω is the whole machine. */
static void model_pipeline(void)
{
    cost_trace t;
    cost_machine m;
    load_trace("pipeline.jsonl", &t);
    load_machine("machine.json", &m);
    expect_model(COST_REAL, &t, &m, 0, (double[]){0.0031, 0.0012, 0.0011}, 0.0054);
    expect_model(COST_EBSP, &t, &m, 0, (double[]){0.003011, 0.001011, 0.00101}, 0.005032);
    expect_model(COST_BSP, &t, &m, 0, (double[]){0.003011, 0.001011, 0.00101}, 0.005032);
    cost_trace_free(&t);
}

/* Traced from step 5, aborted in step 7 (only process 0 recorded it): steps 5
 * and 6 are kept. REAL starts at min(0.011 - 0.001, 0.0112 - 0.0008) = 0.01:
 * 0.0113 - 0.01 = 0.0013, then 0.0121 - 0.0113 = 0.0008. No communication, so
 * BSP = W + L: measured 0.001 + 1e-5, 0.0005 + 1e-5; with ops at 1e9 per second
 * step 5 is max(2e6, 1e6)/1e9 = 0.002 and step 6 max(5e5/1e9, w = 0.0004 of the
 * record without ops) = 0.0005. */
static void model_midrun_ops(void)
{
    cost_trace t;
    cost_machine m;
    load_trace("midrun_aborted.jsonl", &t);
    load_machine("machine.json", &m);
    CHECK(t.first_step == 5 && t.nsteps == 2 && t.dropped == 1 && t.complete == 0);
    SAME_STR(t.reason, "bsp_abort: stop");
    SAME_STR(cost_trace_rec(&t, 1, 0)->kind, "bcast");
    CHECK(cost_trace_rec(&t, 0, 1)->ops == 1e6 && cost_trace_rec(&t, 1, 1)->ops < 0);
    expect_model(COST_REAL, &t, &m, 0, (double[]){0.0013, 0.0008}, 0.0021);
    expect_model(COST_BSP, &t, &m, 0, (double[]){0.00101, 0.00051}, 0.00152);
    expect_model(COST_BSP, &t, &m, 1, (double[]){0.00201, 0.00051}, 0.00252);
    expect_model(COST_EBSP, &t, &m, 1, (double[]){0.00201, 0.00051}, 0.00252);
    cost_trace_free(&t);
}

static void error_percent(void)
{
    NEAR(cost_error_percent(2.0, 1.5), 25.0);
    NEAR(cost_error_percent(1.0, 1.25), -25.0);
    CHECK(cost_error_percent(1.0, 1.0) == 0);
    CHECK(isnan(cost_error_percent(0.0, 1.0)));
    SAME_STR(cost_model_name(COST_REAL), "real");
    SAME_STR(cost_model_name(COST_BSPSTAR), "bspstar");
}

/* ---- fits and error measures ---- */

/* y = 1 + 2x plus noise that is orthogonal to 1 and x (sums to zero, and so does
 * its product with x), so least squares must return a = 1, b = 2 exactly. */
static void fit_line_noise(void)
{
    double x[] = {1, 2, 3, 4}, y[] = {3.1, 4.9, 6.9, 9.1}, a, b;
    CHECK(cost_fit_line(x, y, 4, &a, &b) == 0);
    NEAR(a, 1.0);
    NEAR(b, 2.0);
}

/* The paper's Exchange fit on the ORIGIN 2000 (table E.2): noise-free times on
 * its h sizes give back L_E = -1.1759e-05 and g_E = 9.8942e-09. The times reach
 * 0.017 s while L is 1e-5, so L is checked within 1e-12 of the largest time. */
static void fit_line_paper(void)
{
    double h[] = {6720, 26880, 107520, 430080, 1720320}, t[5], L = -1.1759e-05, g = 9.8942e-09;
    for (int i = 0; i < 5; i++)
        t[i] = L + g * h[i];
    double a, b;
    CHECK(cost_fit_line(h, t, 5, &a, &b) == 0);
    NEAR(b, g);
    CHECK(fabs(a - L) <= 1e-12 * t[4]);
}

static void fit_line_degenerate(void)
{
    double x[] = {5, 5, 5}, y[] = {1, 2, 3}, a = 7, b = 7;
    CHECK(cost_fit_line(x, y, 1, &a, &b) == -1);
    CHECK(cost_fit_line(x, y, 3, &a, &b) == -1);
    CHECK(a == 7 && b == 7); /* untouched on failure */
}

/* BSP*: time = L + g*·s + g*·B·h for bytes s and messages h; the plane fit gives
 * a = L, b = g*, c = g*·B, hence B = c / b. */
static void fit_plane_bspstar(void)
{
    double s[] = {64, 4096, 65536, 64, 4096, 65536, 1024};
    double h[] = {1, 1, 1, 64, 64, 64, 16};
    double L = 3e-7, gs = 2e-10, B = 512, y[7];
    for (int i = 0; i < 7; i++)
        y[i] = L + gs * s[i] + gs * B * h[i];
    double a, b, c;
    CHECK(cost_fit_plane(s, h, y, 7, &a, &b, &c) == 0);
    NEAR(a, L);
    NEAR(b, gs);
    NEAR(c, gs * B);
    NEAR(c / b, B);
}

static void fit_plane_degenerate(void)
{
    double x1[] = {1, 2, 3, 4}, x2[] = {3, 6, 9, 12}, y[] = {1, 2, 3, 4}, a, b, c;
    CHECK(cost_fit_plane(x1, x2, y, 2, &a, &b, &c) == -1); /* fewer than 3 points */
    CHECK(cost_fit_plane(x1, x2, y, 4, &a, &b, &c) == -1); /* x2 = 3·x1: collinear */
}

/* Times of one h on three P values, model 1.0:
 * MaxErr = 100·max|t - 1| / min t = 100·0.2/0.9;
 * AvErr = 100·(Σ|t - 1|/3)/(Σt/3) = 100·(0.3/3)/(3.1/3) = 100·0.3/3.1. */
static void errors_small_table(void)
{
    double t[] = {1.0, 1.2, 0.9};
    NEAR(cost_maxerr(t, 3, 1.0), 100 * 0.2 / 0.9);
    NEAR(cost_averr(t, 3, 1.0), 100 * 0.3 / 3.1);
    /* A model that matches every time has no error. */
    double same[] = {2.5, 2.5};
    CHECK(cost_maxerr(same, 2, 2.5) == 0 && cost_averr(same, 2, 2.5) == 0);
    /* Table 11 layout: five patterns' times at one h, one g·h + L. With g = 1e-9,
     * L = 1e-5, h = 1e4: model 2e-5; deviations 1e-6, 0, 3e-6, 2e-6, 4e-6. */
    double pat[] = {2.1e-5, 2.0e-5, 1.7e-5, 2.2e-5, 2.4e-5};
    double model = 1e-9 * 1e4 + 1e-5;
    NEAR(cost_maxerr(pat, 5, model), 100 * (2.4e-5 - model) / 1.7e-5);
    NEAR(cost_averr(pat, 5, model), 100 * ((1e-6 + 0 + 3e-6 + 2e-6 + 4e-6) / 5) /
                                        ((2.1e-5 + 2.0e-5 + 1.7e-5 + 2.2e-5 + 2.4e-5) / 5));
    CHECK(isnan(cost_maxerr(t, 0, 1.0)) && isnan(cost_averr(t, 0, 1.0)));
}

static void median(void)
{
    double odd[] = {3, 1, 2}, even[] = {4, 1, 3, 2};
    CHECK(cost_median(odd, 3) == 2);
    CHECK(odd[0] == 1 && odd[2] == 3); /* sorted in place, as documented */
    CHECK(cost_median(even, 4) == 2.5);
    CHECK(isnan(cost_median(even, 0)));
}

/* ---- machine file ---- */

static void machine_read_full(void)
{
    cost_machine m;
    load_machine("machine.json", &m);
    CHECK(m.version == 1 && m.cores == 4 && m.nprocs == 3 && m.procs[2] == 4);
    SAME_STR(m.host, "testhost");
    SAME_STR(m.date, "2026-11-22T20:00:00Z");
    CHECK(m.h_sum == 1 && m.oversubscribed == 0);
    CHECK(m.g == 1e-9 && m.L == 1e-5);
    const cost_pattern_fit *e = &m.put[COST_EXCHANGE];
    CHECK(e->measured && e->nsizes == 3 && e->L == -1.1759e-05 && e->h[2] == 107520);
    CHECK(e->time[1] == 0.000227 && e->maxerr[0] == 26.43);
    CHECK(m.put[COST_ALLTOALL].measured && m.put[COST_ALLTOALL].nsizes == 2);
    CHECK(!m.put[COST_PINGPONG].measured && !m.hpput[COST_EXCHANGE].measured);
    CHECK(m.nsizes == 2 && m.t11_maxerr[0] == 304);
    CHECK(m.gstar == 2e-9 && m.B == 100 && m.rate == 1e9 && m.spread == 3.5);
    SAME_STR(cost_pattern_name(COST_ALLTOONE), "alltoone");
}

static void machine_read_minimal(void)
{
    cost_machine m;
    load_machine("machine_max.json", &m);
    CHECK(m.h_sum == 0 && m.gstar == 0 && m.B == 0 && m.rate == 0 && m.spread == 0);
    CHECK(m.nsizes == 0);
    for (int i = 0; i < COST_NPATTERNS; i++)
        CHECK(!m.put[i].measured && !m.hpput[i].measured);
}

static char *slurp(const char *path)
{
    static char buf[2][16384];
    static int which;
    char *b = buf[which++ % 2];
    FILE *f = fopen(path, "r");
    size_t n = f != NULL ? fread(b, 1, sizeof buf[0] - 1, f) : 0;
    b[n] = '\0';
    if (f != NULL)
        fclose(f);
    return b;
}

/* Written, read back and written again, the two files are the same text, and
 * the writer prints each number as the shortest text that reads back as the
 * same double: so every field survives the round trip exactly. */
static void machine_roundtrip(void)
{
    cost_machine m, back;
    load_machine("machine.json", &m);
    m.hpput[COST_PINGPONG] = m.put[COST_EXCHANGE];
    m.g = 1.0 / 3e9; /* needs all 17 digits */
    char path1[64], path2[64];
    snprintf(path1, sizeof path1, "/tmp/test_cost_%ld_1.json", (long)getpid());
    snprintf(path2, sizeof path2, "/tmp/test_cost_%ld_2.json", (long)getpid());
    CHECK(cost_machine_write(path1, &m, err, sizeof err) == 0);
    CHECK(cost_machine_read(path1, &back, err, sizeof err) == 0);
    CHECK(cost_machine_write(path2, &back, err, sizeof err) == 0);
    SAME_STR(slurp(path1), slurp(path2));
    CHECK(back.g == m.g && back.L == m.L && back.hpput[COST_PINGPONG].measured);
    CHECK(back.hpput[COST_PINGPONG].time[2] == m.put[COST_EXCHANGE].time[2]);
    CHECK(back.spread == m.spread && back.B == m.B && back.nsizes == m.nsizes);
    SAME_STR(back.host, m.host);
    remove(path1);
    remove(path2);
}

static void expect_write_error(cost_machine *m, const char *path, const char *want)
{
    CHECK(cost_machine_write(path, m, err, sizeof err) == -1);
    SAME_STR(err, want);
    CHECK(access(path, F_OK) != 0); /* nothing written, not even a partial file */
}

static void machine_write_refuses(void)
{
    cost_machine m;
    load_machine("machine.json", &m);
    char path[64], want[256];
    snprintf(path, sizeof path, "/tmp/test_cost_bad_%ld.json", (long)getpid());

    cost_machine bad = m;
    bad.g = 0;
    snprintf(want, sizeof want, "%s: field 'bsp.g': expected a number > 0 (nothing written)", path);
    expect_write_error(&bad, path, want);

    bad = m;
    bad.L = NAN;
    snprintf(want, sizeof want, "%s: field 'bsp.L': expected a number (nothing written)", path);
    expect_write_error(&bad, path, want);

    bad = m;
    bad.put[COST_EXCHANGE].time[1] = -1;
    snprintf(want, sizeof want,
             "%s: field 'patterns.put.exchange.time[1]': expected a number >= 0 (nothing written)",
             path);
    expect_write_error(&bad, path, want);

    bad = m;
    bad.nprocs = 0;
    snprintf(want, sizeof want,
             "%s: field 'procs': expected an array of 1 to 16 integers >= 1 (nothing written)",
             path);
    expect_write_error(&bad, path, want);

    bad = m;
    strcpy(bad.host, "caf\xe9"); /* Latin-1, not UTF-8 */
    snprintf(want, sizeof want, "%s: field 'host': expected a UTF-8 string (nothing written)",
             path);
    expect_write_error(&bad, path, want);

    expect_write_error(&m, "/nonexistent/dir/m.json",
                       "/nonexistent/dir/m.json: cannot write: No such file or directory");
}

/* ---- trace file ---- */

static void trace_read_fields(void)
{
    cost_trace t;
    load_trace("two_pairs.jsonl", &t);
    CHECK(t.version == 1 && t.nprocs == 4 && t.first_step == 0 && t.nsteps == 2);
    CHECK(t.dropped == 0 && t.complete == 1 && t.reason[0] == '\0');
    SAME_STR(t.program, "two_pairs");
    SAME_STR(t.engine, "threads");
    /* Lines come grouped by pid; records are stored by (step, pid). */
    const cost_rec *r = cost_trace_rec(&t, 1, 2);
    CHECK(r->step == 1 && r->pid == 2 && r->nfrom == 1 && r->from[0] == 3);
    CHECK(r->bytes_out == 100000 && r->msgs_in == 10 && r->level == 0 && r->ops < 0);
    CHECK(r->w == 0.0001 && r->t_enter == 0.0013 && r->t_exit == 0.002);
    SAME_STR(r->kind, "normal");
    cost_trace_free(&t);
}

static int read_text(const char *text, cost_trace *t)
{
    FILE *f = fmemopen((void *)text, strlen(text), "r");
    int rc = cost_trace_read_stream(f, "mem", t, err, sizeof err);
    fclose(f);
    return rc;
}

#define HEADER                                                                                     \
    "{\"format\":\"polybsp-trace\",\"version\":1,\"nprocs\":2,\"engine\":\"e\",\"program\":\"p\"}" \
    "\n"
#define REC(step, pid)                                                                             \
    "{\"step\":" #step ",\"pid\":" #pid ",\"kind\":\"normal\",\"level\":0,\"w\":0,"                \
    "\"bytes_out\":0,\"msgs_out\":0,\"bytes_in\":0,\"msgs_in\":0,\"from\":[],"                     \
    "\"t_enter\":0,\"t_exit\":0}\n"

/* Steps 0, 1 and 3 complete, 2 missing: only the leading run 0-1 is kept, and
 * step 3 counts as dropped (a gap means the trace lost supersteps). A final
 * line without its newline is accepted when it is a complete object. */
static void trace_gap_and_last_line(void)
{
    cost_trace t;
    const char *text = HEADER REC(0, 0) REC(0, 1) REC(1, 1) REC(1, 0) REC(
        3, 0) "{\"step\":3,\"pid\":1,\"kind\":\"normal\",\"level\":2,\"w\":0,\"bytes_out\":0,"
              "\"msgs_out\":0,\"bytes_in\":0,\"msgs_in\":0,\"from\":[],\"t_enter\":0,\"t_exit\":0}";
    CHECK(read_text(text, &t) == 0);
    CHECK(t.first_step == 0 && t.nsteps == 2 && t.dropped == 1 && t.complete == 0);
    cost_trace_free(&t);
}

/* A long program path is kept readable, cut at a UTF-8 character boundary. */
static void trace_long_program(void)
{
    char text[2048], name[600];
    memset(name, 'a', 254);
    strcpy(name + 254, "\xc3\xa9tude"); /* "é" straddles byte 255 */
    snprintf(text, sizeof text,
             "{\"format\":\"polybsp-trace\",\"version\":1,\"nprocs\":1,\"engine\":\"e\","
             "\"program\":\"%s\"}\n" REC(0, 0),
             name);
    cost_trace t;
    CHECK(read_text(text, &t) == 0);
    CHECK(strlen(t.program) == 254);
    cost_trace_free(&t);
}

/* Errors from the stream reader name the stream; the tool's tests cover each
 * message through files. */
static void trace_stream_error(void)
{
    cost_trace t;
    CHECK(read_text(HEADER REC(0, 0) REC(0, 0), &t) == -1);
    SAME_STR(err, "mem:3: duplicate record for step 0, pid 0 (first at line 2)");
    CHECK(t.recs == NULL && t.nsteps == 0);
}

/* The parser quotes the input near a syntax error; a newline there (found by
 * fuzz_machine, fuzz/corpus/machine/crash-1481...) must not split the message. */
static void machine_syntax_error_one_line(void)
{
    const char *text = "{\"host\": \"\\\n\"}";
    FILE *f = fmemopen((void *)text, strlen(text), "r");
    cost_machine m;
    CHECK(cost_machine_read_stream(f, "mem", &m, err, sizeof err) == -1);
    fclose(f);
    SAME_STR(err, "mem:2: invalid JSON at column 0: invalid escape near '\"\\\\n'");
}

struct test_case {
    const char *name;
    void (*run)(void);
};

static const struct test_case cases[] = {
    {"model_two_pairs", model_two_pairs},
    {"model_two_pairs_max", model_two_pairs_max},
    {"model_all_to_all", model_all_to_all},
    {"model_pipeline", model_pipeline},
    {"model_midrun_ops", model_midrun_ops},
    {"error_percent", error_percent},
    {"fit_line_noise", fit_line_noise},
    {"fit_line_paper", fit_line_paper},
    {"fit_line_degenerate", fit_line_degenerate},
    {"fit_plane_bspstar", fit_plane_bspstar},
    {"fit_plane_degenerate", fit_plane_degenerate},
    {"errors_small_table", errors_small_table},
    {"median", median},
    {"machine_read_full", machine_read_full},
    {"machine_read_minimal", machine_read_minimal},
    {"machine_roundtrip", machine_roundtrip},
    {"machine_write_refuses", machine_write_refuses},
    {"machine_syntax_error_one_line", machine_syntax_error_one_line},
    {"trace_read_fields", trace_read_fields},
    {"trace_gap_and_last_line", trace_gap_and_last_line},
    {"trace_long_program", trace_long_program},
    {"trace_stream_error", trace_stream_error},
};

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: test_cost DATA_DIR CASE\n");
        return 2;
    }
    data_dir = argv[1];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        if (strcmp(cases[i].name, argv[2]) == 0) {
            cases[i].run();
            if (failures == 0)
                printf("%s: OK\n", argv[2]);
            return failures == 0 ? 0 : 1;
        }
    }
    fprintf(stderr, "test_cost: unknown case '%s'\n", argv[2]);
    return 2;
}
