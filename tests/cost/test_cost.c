/* test_cost — unit tests of src/cost: the models (BSP to CCM) on hand-built
 * traces, the fits and error measures on data with known answers, the CCM
 * calibration helpers, the two readers and the group structure of traces.
 *
 * Usage: test_cost DATA_DIR CASE. Each CASE is its own ctest test, so a failure
 * names what broke. Expected values were computed by hand from the formulas in
 * docs/models.md (the arithmetic is in the comments) and are asserted within
 * 1e-12 relative: exact up to the rounding of the double operations.
 */
#include "cost/cost_calib.h"
#include "cost/cost_fit.h"
#include "cost/cost_groups.h"
#include "cost/cost_machine.h"
#include "cost/cost_model.h"
#include "cost/cost_trace.h"
#include "cost/cost_tree.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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

/* Checks a model's per-step predictions and total against the expected ones. */
static void expect_model(cost_model_kind k, const cost_trace *t, const cost_machine *m, int use_ops,
                         const double *want_steps, double want_total)
{
    double steps[16];
    CHECK(t->nsteps <= 16);
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

/* ---- D-BSP and CCM ---- */

/* machine_groups.json: g = 1e-9, L = 1e-5, h = in + out; D-BSP level 0 (g 1e-9,
 * L 1e-5), level 1 (g 5e-10, L 4e-6); CCM T = a + b·ceil(log2 P) + c·h with
 * bcast (2e-6, 3e-6, 1e-9), allreduce (1e-6, 5e-6, 2e-9), par (1e-6, 0, 1e-9),
 * partition (3e-6, 1e-6, 1e-9), rejoin (2e-6, 1e-6, 1e-9). */

/* division.jsonl: 4 processes; step 0 ends in bsp_partition (pid 0 works 1 ms and
 * sends 1000 bytes to each other, the others work 0.5 ms); part 0 = {0,1} runs
 * one exchange superstep (W 2 ms, 500 bytes each way) and its rejoin (W 0.1 ms);
 * part 1 = {2,3} runs two supersteps (W 1 ms with 2000 bytes each way, then W
 * 3 ms) and its rejoin (W 0.2 ms, 2 sends 100 bytes to 3); then one superstep of
 * all (W 0.5 ms). Part 1 is the slower part although part 0 has the heavier
 * first superstep.
 * CCM: partition: 0.001 + T_part(4, 3000) = 0.001 + 3e-6 + 2e-6 + 3e-6 = 0.001008.
 *   part 0: 0.002 + 1e-9·1000 + 1e-5 = 0.002011 -> 0.003019; rejoin W -> 0.003119.
 *   part 1: 0.001 + 4e-6 + 1e-5 = 0.001014 -> 0.002022; 0.003 + 1e-5 -> 0.005032;
 *           rejoin W 0.0002 -> 0.005232 (the max part).
 *   T_rejoin(4, 100) = 2e-6 + 2e-6 + 1e-7 = 4.1e-6 -> 0.0052361; last step
 *   0.0005 + 1e-5 -> 0.0057461.
 *   Columns (each process's k-th superstep), the running maximum of the clocks:
 *   0.001008, 0.003019, 0.0052361 (part 0's rejoin ends with the slowest part),
 *   0.0057461, 0.0057461 -> 0.001008, 0.002011, 0.0022171, 0.00051, 0.
 * D-BSP: partition at level 0: 0.001 + 3e-6 + 1e-5 = 0.001013; part 0 (level 1):
 *   0.002 + 5e-10·1000 + 4e-6 -> 0.0030175; rejoin 0.0001 + 4e-6 -> 0.0031215;
 *   part 1: 0.001 + 2e-6 + 4e-6 -> 0.002019; 0.003 + 4e-6 -> 0.005023; rejoin
 *   0.0002 + 5e-8 + 4e-6 -> 0.00522705; last step 0.00051 -> 0.00573705.
 *   Columns: 0.001013, 0.0030175, 0.00522705, 0.00573705, same.
 * BSP sees columns: 0.001013; W 0.002, h 4000: 0.002014; W 0.003: 0.00301;
 *   W 0.0005, h 100: 0.0005101; 0.00051 -> 0.0070571, charging both parts. */
static void model_ccm_division(void)
{
    cost_trace t;
    cost_machine m;
    load_trace("division.jsonl", &t);
    load_machine("machine_groups.json", &m);
    CHECK(t.nsteps == 5 && cost_trace_len(&t, 0) == 4 && cost_trace_len(&t, 3) == 5);
    CHECK(t.dropped == 0 && t.same_start);
    expect_model(COST_REAL, &t, &m, 0, (double[]){0.00102, 0.00202, 0.00224, 0.00052, 0}, 0.0058);
    expect_model(COST_CCM, &t, &m, 0, (double[]){0.001008, 0.002011, 0.0022171, 0.00051, 0},
                 0.0057461);
    expect_model(COST_DBSP, &t, &m, 0, (double[]){0.001013, 0.0020045, 0.00220955, 0.00051, 0},
                 0.00573705);
    expect_model(COST_BSP, &t, &m, 0, (double[]){0.001013, 0.002014, 0.00301, 0.0005101, 0.00051},
                 0.0070571);
    /* The max of the parts, not their sum: part 0 alone would end at 0.003119. */
    CHECK(cost_predict(COST_CCM, &t, &m, 0, NULL) < 0.001008 + 0.002111 + 0.004224 + 0.0052361);
    cost_trace_free(&t);
}

/* bcast.jsonl: 4 processes; a plain superstep (W 1 ms), a binomial bcast of 1000
 * bytes over two supersteps (op 0: 0 -> 2, then 0 -> 1 and 2 -> 3; pid 0 worked
 * 0.4 ms before it), a one-superstep bcast (op 1: 0 sends 10 bytes to each, W
 * 0.2 ms), a plain superstep (W 0.3 ms).
 * CCM: 0.001 + 1e-5 = 0.00101. bcast op 0, charged once on its last superstep:
 *   h = max_i max(in_i, out_i) over both supersteps = pid 0's 2000 out;
 *   T_bcast(4, 2000) = 2e-6 + 2·3e-6 + 2e-6 = 1e-5, + W 0.0004 = 0.00041.
 *   bcast op 1 (another op: another bcast): 0.0002 + 8e-6 + 3e-8 = 0.00020803.
 *   0.0003 + 1e-5 = 0.00031. Total 0.00193803.
 * BSP: 0.00101; 0.0004 + 1e-6 + 1e-5 = 0.000411; 0 + 1e-6 + 1e-5 = 0.000011;
 *   0.0002 + 3e-8 + 1e-5 = 0.00021003; 0.00031 -> 0.00195203 (= D-BSP: level 0
 *   has BSP's g and L). */
static void model_ccm_bcast(void)
{
    cost_trace t;
    cost_machine m;
    load_trace("bcast.jsonl", &t);
    load_machine("machine_groups.json", &m);
    CHECK(cost_trace_rec(&t, 2, 0)->op == 0 && cost_trace_rec(&t, 3, 0)->op == 1);
    CHECK(cost_trace_rec(&t, 0, 0)->op == -1);
    expect_model(COST_CCM, &t, &m, 0, (double[]){0.00101, 0, 0.00041, 0.00020803, 0.00031},
                 0.00193803);
    double bsp[] = {0.00101, 0.000411, 0.000011, 0.00021003, 0.00031};
    expect_model(COST_BSP, &t, &m, 0, bsp, 0.00195203);
    expect_model(COST_DBSP, &t, &m, 0, bsp, 0.00195203);
    cost_trace_free(&t);
}

/* nested.jsonl: 2 processes, every superstep W 1 ms, no communication. Both
 * partition (level 0); pid 0's part "0" partitions again into the single part
 * "0/0" (level 2), which rejoins, then "0" rejoins; pid 1's part "1" only
 * rejoins; one last superstep of both.
 * CCM: 0.001 + T_part(2, 0) = 0.001 + 3e-6 + 1e-6 = 0.001004. Part "0": 0.001 +
 *   T_part(1, 0) = 3e-6 -> 0.002007; "0/0" rejoin W -> 0.003007, + T_rejoin(1, 0)
 *   = 2e-6 -> 0.003009; "0" rejoin W -> 0.004009. Part "1": rejoin W -> 0.002004.
 *   T_rejoin(2, 0) = 3e-6 -> 0.004012; last 0.00101 -> 0.005022.
 *   Columns: 0.001004, 0.004012 (pid 1 already rejoined), 0.005022, same, same.
 * D-BSP with a level 2 (g 2e-10, L 1e-6): 0.00101; "0": 0.001004 -> 0.002014;
 *   "0/0": 0.001001 -> 0.003015; "0" rejoin 0.001004 -> 0.004019; "1" rejoin ->
 *   0.002014; last 0.00101 -> 0.005029. */
static void model_ccm_nested(void)
{
    cost_trace t;
    cost_machine m;
    load_trace("nested.jsonl", &t);
    load_machine("machine_groups.json", &m);
    const cost_group *top = t.root;
    CHECK(top->nitems == 3 && top->items[1].nparts == 2 && top->items[1].cols == NULL);
    const cost_group *p0 = &top->items[1].parts[0];
    SAME_STR(p0->path, "0");
    CHECK(p0->nmembers == 1 && p0->members[0] == 0 && p0->nitems == 3 && p0->rejoined);
    SAME_STR(p0->items[1].parts[0].path, "0/0");
    SAME_STR(top->items[1].parts[1].path, "1");
    CHECK(top->items[1].parts[1].members[0] == 1 && cost_division_complete(&top->items[1]));
    expect_model(COST_CCM, &t, &m, 0, (double[]){0.001004, 0.003008, 0.00101, 0, 0}, 0.005022);
    /* machine_groups has no level 2: no prediction rather than a wrong one. */
    CHECK(isnan(cost_predict(COST_DBSP, &t, &m, 0, NULL)));
    m.levels[2] = (cost_level){2, 1, 2e-10, 1e-6};
    m.nlevels = 3;
    expect_model(COST_DBSP, &t, &m, 0, (double[]){0.00101, 0.003009, 0.00101, 0, 0}, 0.005029);
    cost_trace_free(&t);
}

/* The same division, but process 3 stopped before its second superstep in part
 * 1: that superstep and everything after it in part 1 and at the top is
 * dropped (steps 2, 3, 4). Part 0's rejoin was recorded, but the division never
 * ended: no T_rejoin, and CCM's total is where the slowest clock got: part 0's
 * 0.003119. */
static void model_ccm_aborted_division(void)
{
    char path[4096], text[16384];
    path_of(path, sizeof path, "division.jsonl");
    FILE *f = fopen(path, "r");
    size_t n = 0;
    char line[1024];
    while (f != NULL && fgets(line, sizeof line, f) != NULL)
        if (strstr(line, "\"pid\":3") == NULL || strstr(line, "\"step\":1,") != NULL ||
            strstr(line, "\"step\":0,") != NULL)
            n += (size_t)snprintf(text + n, sizeof text - n, "%s", line);
    if (f != NULL)
        fclose(f);
    FILE *mem = fmemopen(text, n, "r");
    cost_trace t;
    cost_machine m;
    CHECK(cost_trace_read_stream(mem, "mem", &t, err, sizeof err) == 0);
    fclose(mem);
    load_machine("machine_groups.json", &m);
    CHECK(t.dropped == 3 && cost_trace_len(&t, 0) == 3 && cost_trace_len(&t, 2) == 2);
    CHECK(!cost_division_complete(&t.root->items[1]) && t.root->nitems == 2);
    expect_model(COST_CCM, &t, &m, 0, (double[]){0.001008, 0.002011, 0.0001}, 0.003119);
    cost_trace_free(&t);
}

/* A trace that starts inside a partition (bsp_trace_begin in the parts): the
 * division has no partition superstep, so no T_partition; pid 0's part rejoins
 * after W 1 ms, pid 1's after 2 ms: 0.002 + T_rejoin(2, 0) = 0.002003, then
 * 0.001 + 1e-5 -> 0.003013. */
static void model_ccm_started_inside(void)
{
    const char *text =
        "{\"format\":\"polybsp-trace\",\"version\":1,\"nprocs\":2,\"engine\":\"e\",\"program\":"
        "\"p\"}\n"
        "{\"step\":7,\"pid\":0,\"kind\":\"rejoin\",\"level\":1,\"group\":\"0\",\"w\":0.001,"
        "\"bytes_out\":0,\"msgs_out\":0,\"bytes_in\":0,\"msgs_in\":0,\"from\":[],\"t_enter\":1,"
        "\"t_exit\":1.002}\n"
        "{\"step\":9,\"pid\":1,\"kind\":\"rejoin\",\"level\":1,\"group\":\"1\",\"w\":0.002,"
        "\"bytes_out\":0,\"msgs_out\":0,\"bytes_in\":0,\"msgs_in\":0,\"from\":[],\"t_enter\":1,"
        "\"t_exit\":1.002}\n"
        "{\"step\":8,\"pid\":0,\"kind\":\"normal\",\"level\":0,\"w\":0.001,"
        "\"bytes_out\":0,\"msgs_out\":0,\"bytes_in\":0,\"msgs_in\":0,\"from\":[],\"t_enter\":1.003,"
        "\"t_exit\":1.004}\n"
        "{\"step\":10,\"pid\":1,\"kind\":\"normal\",\"level\":0,\"w\":0.001,"
        "\"bytes_out\":0,\"msgs_out\":0,\"bytes_in\":0,\"msgs_in\":0,\"from\":[],\"t_enter\":1.003,"
        "\"t_exit\":1.004}\n";
    cost_trace t;
    cost_machine m;
    CHECK(read_text(text, &t) == 0);
    load_machine("machine_groups.json", &m);
    CHECK(t.first_step == 7 && !t.same_start && t.nsteps == 2);
    CHECK(t.root->nitems == 2 && t.root->items[0].nparts == 2);
    expect_model(COST_CCM, &t, &m, 0, (double[]){0.002003, 0.00101}, 0.003013);
    cost_trace_free(&t);
}

/* What cost_model_check says when a model cannot serve the files. */
static void model_check_messages(void)
{
    cost_trace t;
    cost_machine m, none;
    load_machine("machine_groups.json", &m);
    load_machine("machine_max.json", &none);
    load_trace("nested.jsonl", &t);
    CHECK(cost_model_check(COST_DBSP, &t, &m, "nested.jsonl", "m.json", err, sizeof err) == -1);
    SAME_STR(err, "m.json: field 'dbsp.levels': no level 2 (needed by --model dbsp for "
                  "nested.jsonl:4, a superstep at level 2)");
    CHECK(cost_model_check(COST_CCM, &t, &m, "nested.jsonl", "m.json", err, sizeof err) == 0);
    CHECK(cost_model_check(COST_DBSP, &t, &none, "nested.jsonl", "n.json", err, sizeof err) == -1);
    SAME_STR(err, "n.json: field 'dbsp': missing (needed by --model dbsp)");
    CHECK(cost_model_check(COST_CCM, &t, &none, "nested.jsonl", "n.json", err, sizeof err) == -1);
    SAME_STR(err, "n.json: field 'ccm': missing (needed by --model ccm)");
    CHECK(cost_model_check(COST_BSPSTAR, &t, &none, "nested.jsonl", "n.json", err, sizeof err) ==
          -1);
    SAME_STR(err, "n.json: field 'bspstar': missing (needed by --model bspstar)");
    CHECK(cost_model_check(COST_EBSP, &t, &none, "nested.jsonl", "n.json", err, sizeof err) == 0);
    cost_trace_free(&t);

    load_trace("bcast.jsonl", &t);
    m.ncoll = 0;
    CHECK(cost_model_check(COST_CCM, &t, &m, "bcast.jsonl", "m.json", err, sizeof err) == -1);
    SAME_STR(err, "m.json: field 'ccm.collectives.bcast': missing (needed by --model ccm for "
                  "bcast.jsonl:6, a bcast)");
    CHECK(isnan(cost_predict(COST_CCM, &t, &m, 0, NULL)));
    cost_trace_free(&t);

    /* Step 6: pid 0 is in a bcast, pid 1 in a plain superstep. */
    load_trace("midrun_aborted.jsonl", &t);
    load_machine("machine_groups.json", &m);
    CHECK(cost_model_check(COST_CCM, &t, &m, "midrun_aborted.jsonl", "m.json", err, sizeof err) ==
          -1);
    SAME_STR(err, "midrun_aborted.jsonl:2: field 'kind': expected \"bcast\" like pid 0's record "
                  "of the same superstep, line 5 (needed by --model ccm)");
    CHECK(cost_model_check(COST_DBSP, &t, &m, "midrun_aborted.jsonl", "m.json", err, sizeof err) ==
          0);
    cost_trace_free(&t);
}

/* A record of a superstep with no work or data, in group GROUP ("" for none). */
#define GREC(step, pid, kind, level, group, op)                                                    \
    "{\"step\":" #step ",\"pid\":" #pid ",\"kind\":\"" kind "\",\"level\":" #level group op        \
    ",\"w\":0,\"bytes_out\":0,\"msgs_out\":0,\"bytes_in\":0,\"msgs_in\":0,\"from\":[],"            \
    "\"t_enter\":0,\"t_exit\":0}\n"
#define G(path) ",\"group\":\"" path "\""
#define OP(n) ",\"op\":" #n

/* Records that pull the processes of one superstep into different collectives. */
static void model_check_ops(void)
{
    cost_trace t;
    cost_machine m;
    load_machine("machine_groups.json", &m);
    /* pid 0 continues op 0; pid 1 starts op 1. */
    CHECK(read_text(HEADER GREC(0, 0, "bcast", 0, "", OP(0)) GREC(0, 1, "bcast", 0, "", OP(0))
                        GREC(1, 0, "bcast", 0, "", OP(0)) GREC(1, 1, "bcast", 0, "", OP(1)),
                    &t) == 0);
    CHECK(cost_model_check(COST_CCM, &t, &m, "t", "m", err, sizeof err) == -1);
    SAME_STR(err, "t:5: field 'op': expected 0 as on line 3: pid 0's bcast goes on here (needed "
                  "by --model ccm)");
    cost_trace_free(&t);
    /* The other way round. */
    CHECK(read_text(HEADER GREC(0, 0, "bcast", 0, "", OP(0)) GREC(0, 1, "bcast", 0, "", OP(0))
                        GREC(1, 0, "bcast", 0, "", OP(1)) GREC(1, 1, "bcast", 0, "", OP(0)),
                    &t) == 0);
    CHECK(cost_model_check(COST_CCM, &t, &m, "t", "m", err, sizeof err) == -1);
    SAME_STR(err, "t:5: field 'op': expected another op than on line 3: pid 0 starts a new bcast "
                  "here (needed by --model ccm)");
    cost_trace_free(&t);
    /* Without op, consecutive supersteps of one kind are one collective:
     * W 0 + T_bcast(2, 0) = 2e-6 + 3e-6, once. Levels that disagree stop D-BSP. */
    CHECK(read_text(HEADER GREC(0, 0, "bcast", 0, "", "") GREC(0, 1, "bcast", 1, "", "")
                        GREC(1, 0, "bcast", 0, "", "") GREC(1, 1, "bcast", 0, "", ""),
                    &t) == 0);
    expect_model(COST_CCM, &t, &m, 0, (double[]){0, 5e-6}, 5e-6);
    CHECK(cost_model_check(COST_DBSP, &t, &m, "t", "m", err, sizeof err) == -1);
    SAME_STR(err, "t:3: field 'level': expected 0 like pid 0's record of the same superstep, line "
                  "2 (needed by --model dbsp)");
    cost_trace_free(&t);
}

/* calib.jsonl: 4 processes whose collectives take exactly T(P, h) = 2e-6 +
 * 3e-6·ceil(log2 P) + 1e-9·h: a bcast of pid 0's 3000 bytes out (P 4, 1.1e-5 s),
 * a two-superstep bcast (pid 0 sends 1000 in each: h 2000, 1e-5 s from the
 * first entry to the last exit), a partition (5e-6 s), one bcast in each part
 * of 2 (h 500: 5.5e-6 s; h 4000: 9e-6 s) and the rejoin (pid 1 sends 50 bytes;
 * from part 1's entry at 0.0047 to 0.004707: 7e-6 s). */
static void ccm_samples_fit(void)
{
    cost_trace t;
    load_trace("calib.jsonl", &t);
    cost_ccm_sample s[8];
    CHECK(cost_ccm_samples(&t, NULL, 0) == 6);
    CHECK(cost_ccm_samples(&t, s, 8) == 6);
    static const char *const kinds[] = {"bcast", "bcast", "partition", "bcast", "bcast", "rejoin"};
    static const int P[] = {4, 4, 4, 2, 2, 4};
    static const double h[] = {3000, 2000, 0, 500, 4000, 50};
    static const double time[] = {1.1e-5, 1e-5, 5e-6, 5.5e-6, 9e-6, 7e-6};
    for (int i = 0; i < 6; i++) {
        SAME_STR(s[i].kind, kinds[i]);
        CHECK(s[i].P == P[i] && s[i].h == h[i]);
        NEAR(s[i].time, time[i]);
    }
    CHECK(s[0].line == 2 && s[1].line == 6);
    cost_ccm_fn f;
    CHECK(cost_ccm_fit(s, 6, "bcast", &f) == 0);
    NEAR(f.a, 2e-6);
    NEAR(f.b, 3e-6);
    NEAR(f.c, 1e-9);
    CHECK(cost_ccm_fit(s, 6, "partition", &f) == 0); /* one sample: a constant */
    NEAR(f.a, 5e-6);
    CHECK(f.b == 0 && f.c == 0);
    CHECK(cost_ccm_fit(s, 6, "rejoin", &f) == 0);
    NEAR(f.a, 7e-6);
    f.a = 42;
    CHECK(cost_ccm_fit(s, 6, "scan", &f) == -1 && f.a == 42);
    /* Only part of the samples stored: the count is still all of them. */
    CHECK(cost_ccm_samples(&t, s, 2) == 6 && s[1].h == 2000);
    cost_trace_free(&t);
}

/* Noise can make the plane's c negative (here exactly: 0.9e-5 at h 1000 below
 * 1e-5 at h 0); the machine file needs c >= 0, so the fit drops h: the line
 * through (1, 1e-5), (1, 0.9e-5), (2, 1.3e-5) is a = 6e-6, b = 3.5e-6. Only h
 * varying: a line in h with b = 0. */
static void ccm_fit_fallbacks(void)
{
    cost_ccm_sample s[] = {{"x", 2, 0, 1e-5, 0},
                           {"x", 2, 1000, 0.9e-5, 0},
                           {"x", 4, 0, 1.3e-5, 0},
                           {"y", 8, 100, 2e-6, 0},
                           {"y", 8, 300, 4e-6, 0}};
    cost_ccm_fn f;
    CHECK(cost_ccm_fit(s, 5, "x", &f) == 0);
    NEAR(f.a, 6e-6);
    NEAR(f.b, 3.5e-6);
    CHECK(f.c == 0);
    CHECK(cost_ccm_fit(s, 5, "y", &f) == 0);
    NEAR(f.a, 1e-6);
    NEAR(f.c, 1e-8);
    CHECK(f.b == 0);
}

static void ccm_eval(void)
{
    cost_ccm_fn f = {1e-6, 2e-6, 1e-9};
    NEAR(cost_ccm_eval(&f, 1, 0), 1e-6);            /* ceil(log2 1) = 0 */
    NEAR(cost_ccm_eval(&f, 2, 100), 3e-6 + 1e-7);   /* 1 round */
    NEAR(cost_ccm_eval(&f, 5, 0), 1e-6 + 3 * 2e-6); /* ceil(log2 5) = 3 */
    NEAR(cost_ccm_eval(&f, 8, 0), 1e-6 + 3 * 2e-6);
    NEAR(cost_ccm_eval(&f, 2147483647, 0), 1e-6 + 31 * 2e-6);
    CHECK(cost_is_collective("bcast") && cost_is_collective("par"));
    CHECK(!cost_is_collective("normal") && !cost_is_collective("rejoin"));
    SAME_STR(cost_model_name(COST_DBSP), "dbsp");
    SAME_STR(cost_model_name(COST_CCM), "ccm");
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

/* Writing replaces a regular file whole (keeping its mode), and refuses anything
 * else at the path, a link included, leaving it and what it points to as they
 * were; no temporary is left behind either way. */
static void machine_write_whole(void)
{
    cost_machine m, back;
    load_machine("machine.json", &m);
    char dir[64], path[128], link[128], target[128], want[256];
    snprintf(dir, sizeof dir, "/tmp/test_cost_whole_XXXXXX");
    CHECK(mkdtemp(dir) != NULL);
    snprintf(path, sizeof path, "%s/m.json", dir);
    snprintf(link, sizeof link, "%s/link.json", dir);
    snprintf(target, sizeof target, "%s/target", dir);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL && fputs("old", f) >= 0 && fclose(f) == 0 && chmod(path, 0640) == 0);
    CHECK(cost_machine_write(path, &m, err, sizeof err) == 0);
    CHECK(cost_machine_read(path, &back, err, sizeof err) == 0 && back.g == m.g);
    struct stat st;
    CHECK(stat(path, &st) == 0 && (st.st_mode & 07777) == 0640);

    f = fopen(target, "w");
    CHECK(f != NULL && fputs("keep", f) >= 0 && fclose(f) == 0 && symlink("target", link) == 0);
    CHECK(cost_machine_write(link, &m, err, sizeof err) == -1);
    snprintf(want, sizeof want, "%s: cannot write: not a regular file (a symbolic link)", link);
    SAME_STR(err, want);
    SAME_STR(slurp(target), "keep");
    CHECK(cost_machine_write(dir, &m, err, sizeof err) == -1);
    snprintf(want, sizeof want, "%s: cannot write: not a regular file (a directory)", dir);
    SAME_STR(err, want);
    CHECK(cost_machine_write("/dev/full", &m, err, sizeof err) == -1);
    SAME_STR(err, "/dev/full: cannot write: not a regular file (a character device)");

    int files = 0;
    DIR *d = opendir(dir);
    for (struct dirent *e; d != NULL && (e = readdir(d)) != NULL;)
        files += e->d_name[0] != '.';
    CHECK(d != NULL && closedir(d) == 0);
    CHECK(files == 3); /* m.json, target, link.json */
    CHECK(remove(path) == 0 && remove(link) == 0 && remove(target) == 0 && rmdir(dir) == 0);
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

static void machine_read_groups(void)
{
    cost_machine m;
    load_machine("machine_groups.json", &m);
    CHECK(m.nlevels == 2 && m.levels[1].level == 1 && m.levels[1].cluster == 2);
    CHECK(m.levels[1].g == 5e-10 && m.levels[1].L == 4e-6);
    CHECK(cost_machine_level(&m, 1) == &m.levels[1] && cost_machine_level(&m, 2) == NULL);
    CHECK(m.has_ccm && m.ncoll == 3);
    SAME_STR(m.coll[1].name, "allreduce"); /* in the file's order */
    const cost_ccm_fn *f = cost_machine_collective(&m, "par");
    CHECK(f != NULL && f->a == 1e-6 && f->b == 0 && f->c == 1e-9);
    CHECK(cost_machine_collective(&m, "scan") == NULL);
    CHECK(m.partition.a == 3e-6 && m.rejoin.b == 1e-6);
    cost_machine none;
    load_machine("machine.json", &none);
    CHECK(none.nlevels == 0 && !none.has_ccm && none.ncoll == 0);
}

/* D-BSP levels and CCM functions survive writing and reading exactly; a CCM
 * section without collectives is valid (only divisions calibrated). */
static void machine_roundtrip_groups(void)
{
    cost_machine m, back;
    load_machine("machine_groups.json", &m);
    m.levels[0].g = 1.0 / 3e9;
    m.coll[0].f.c = 2.0 / 3e9;
    char path1[64], path2[64];
    snprintf(path1, sizeof path1, "/tmp/test_cost_%ld_g1.json", (long)getpid());
    snprintf(path2, sizeof path2, "/tmp/test_cost_%ld_g2.json", (long)getpid());
    CHECK(cost_machine_write(path1, &m, err, sizeof err) == 0);
    CHECK(cost_machine_read(path1, &back, err, sizeof err) == 0);
    CHECK(cost_machine_write(path2, &back, err, sizeof err) == 0);
    SAME_STR(slurp(path1), slurp(path2));
    CHECK(back.nlevels == 2 && back.levels[0].g == m.levels[0].g && back.levels[1].L == 4e-6);
    CHECK(back.has_ccm && back.ncoll == 3 && back.coll[0].f.c == m.coll[0].f.c);
    SAME_STR(back.coll[2].name, "par");
    CHECK(back.rejoin.a == m.rejoin.a && back.partition.c == m.partition.c);
    m.ncoll = 0;
    m.nlevels = 0;
    CHECK(cost_machine_write(path1, &m, err, sizeof err) == 0);
    CHECK(cost_machine_read(path1, &back, err, sizeof err) == 0);
    CHECK(back.has_ccm && back.ncoll == 0 && back.nlevels == 0);
    CHECK(strstr(slurp(path1), "\"collectives\": {},") != NULL);
    CHECK(strstr(slurp(path1), "dbsp") == NULL);
    remove(path1);
    remove(path2);
}

static void machine_write_refuses_groups(void)
{
    cost_machine m;
    load_machine("machine_groups.json", &m);
    char path[64], want[256];
    snprintf(path, sizeof path, "/tmp/test_cost_badg_%ld.json", (long)getpid());

    cost_machine bad = m;
    bad.levels[1].g = 0;
    snprintf(want, sizeof want,
             "%s: field 'dbsp.levels[1].g': expected a number > 0 (nothing written)", path);
    expect_write_error(&bad, path, want);

    bad = m;
    bad.levels[1].level = 0;
    snprintf(want, sizeof want,
             "%s: field 'dbsp.levels[1].level': expected an integer > 0 (levels increase along "
             "the array) (nothing written)",
             path);
    expect_write_error(&bad, path, want);

    bad = m;
    bad.coll[1].f.c = -1e-9;
    snprintf(want, sizeof want,
             "%s: field 'ccm.collectives.allreduce.c': expected a number >= 0 (nothing written)",
             path);
    expect_write_error(&bad, path, want);

    bad = m;
    strcpy(bad.coll[0].name, "b cast");
    snprintf(want, sizeof want,
             "%s: field 'ccm.collectives': expected names of 1 to 31 letters, digits, '_' or '-' "
             "(nothing written)",
             path);
    expect_write_error(&bad, path, want);

    bad = m;
    bad.rejoin.a = INFINITY;
    snprintf(want, sizeof want, "%s: field 'ccm.rejoin.a': expected a number (nothing written)",
             path);
    expect_write_error(&bad, path, want);
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

/* Group, op and line are kept; the processes' sequences have their own lengths. */
static void trace_read_groups(void)
{
    cost_trace t;
    load_trace("division.jsonl", &t);
    const cost_rec *r = cost_trace_rec(&t, 3, 2);
    SAME_STR(r->kind, "rejoin");
    SAME_STR(r->group, "1");
    SAME_STR(cost_rec_group(cost_trace_rec(&t, 0, 2)), "");
    CHECK(r->level == 1 && r->op == -1 && r->line == 16 && r->step == 3);
    CHECK(cost_trace_rec(&t, 4, 0) == NULL && cost_trace_rec(&t, 4, 2)->step == 4);
    const cost_group *top = t.root;
    CHECK(top->nmembers == 4 && top->nitems == 3 && top->items[0].cols[3] == 0);
    const cost_group *p1 = &top->items[1].parts[1];
    CHECK(p1->nmembers == 2 && p1->members[0] == 2 && p1->nitems == 3 && p1->rejoined);
    CHECK(top->items[2].cols[0] == 3 && top->items[2].cols[2] == 4);
    cost_trace_free(&t);
}

/* Each structural defect, with the line it is on and the line it contradicts. */
static void expect_trace_error(const char *text, const char *want)
{
    cost_trace t;
    CHECK(read_text(text, &t) == -1);
    SAME_STR(err, want);
    CHECK(t.recs == NULL && t.root == NULL);
}

#define PART0 GREC(0, 0, "partition", 0, "", "") GREC(0, 1, "partition", 0, "", "")

static void trace_structure_errors(void)
{
    expect_trace_error(HEADER PART0 GREC(1, 0, "normal", 0, "", "") GREC(1, 1, "normal", 0, "", ""),
                       "mem:4: field 'group': expected a group (line 2 ends a partition)");
    expect_trace_error(HEADER GREC(0, 0, "normal", 0, "", "") GREC(0, 1, "normal", 0, "", "")
                           GREC(1, 0, "rejoin", 1, G("0"), "") GREC(1, 1, "rejoin", 1, G("0"), ""),
                       "mem:4: field 'group': expected no group (no \"partition\" superstep comes "
                       "before it)");
    expect_trace_error(HEADER PART0 GREC(1, 0, "rejoin", 1, G("0"), "")
                           GREC(1, 1, "normal", 0, "", ""),
                       "mem:5: field 'group': expected a group (line 3 ends a partition)");
    expect_trace_error(HEADER GREC(0, 0, "normal", 0, "", "") GREC(0, 1, "normal", 0, "", "")
                           GREC(1, 0, "rejoin", 1, G("0"), "") GREC(1, 1, "normal", 0, "", ""),
                       "mem:5: field 'group': expected a group like pid 0's record of the same "
                       "superstep, line 4");
    expect_trace_error(HEADER PART0 GREC(1, 0, "normal", 1, G("0"), "")
                           GREC(1, 1, "normal", 1, G("0"), "") GREC(2, 0, "normal", 1, G("0"), "")
                               GREC(2, 1, "normal", 0, "", ""),
                       "mem:7: field 'group': expected \"0\" like pid 0's record of the same "
                       "superstep, line 6");
    expect_trace_error(HEADER PART0 GREC(1, 0, "normal", 0, "", "")
                           GREC(1, 1, "rejoin", 1, G("0"), ""),
                       "mem:4: field 'group': expected a group (line 2 ends a partition)");
    expect_trace_error(HEADER PART0 GREC(1, 0, "normal", 1, G("0"), "")
                           GREC(1, 1, "rejoin", 1, G("0"), ""),
                       "mem:5: field 'kind': expected \"normal\" like pid 0's record of the same "
                       "superstep, line 4");
    expect_trace_error(HEADER GREC(0, 0, "partition", 0, "", "") GREC(0, 1, "normal", 0, "", ""),
                       "mem:3: field 'kind': expected \"partition\" like pid 0's record of the "
                       "same superstep, line 2");
    expect_trace_error(HEADER GREC(0, 0, "rejoin", 0, "", "") GREC(0, 1, "rejoin", 0, "", ""),
                       "mem:2: field 'kind': expected no \"rejoin\" at the top level (it ends a "
                       "part of a partition)");
    expect_trace_error(HEADER PART0 GREC(1, 0, "normal", 1, G("0"), "")
                           GREC(1, 1, "normal", 1, G("0"), "") GREC(2, 0, "normal", 0, "", "")
                               GREC(2, 1, "normal", 0, "", ""),
                       "mem:6: field 'group': expected \"0\" or a part of it (the part's last "
                       "superstep, line 4, is not a \"rejoin\")");
    /* A division inside a part needs its own partition superstep. */
    expect_trace_error(HEADER PART0 GREC(1, 0, "normal", 1, G("0"), "")
                           GREC(1, 1, "normal", 1, G("0"), "") GREC(2, 0, "rejoin", 2, G("0/0"), "")
                               GREC(2, 1, "rejoin", 2, G("0/1"), ""),
                       "mem:6: field 'group': expected \"0\" (no \"partition\" superstep comes "
                       "before it)");
    /* Group paths: what the library's writer must produce. */
    static const char *const bad[] = {"/10", "01", "", "0/", "0//1", "a", "2147483648", "-1"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char text[1024];
        snprintf(text, sizeof text,
                 HEADER "{\"step\":0,\"pid\":0,\"kind\":\"normal\",\"level\":1,\"group\":\"%s\"}\n",
                 bad[i]);
        expect_trace_error(text, "mem:2: field 'group': expected a path of 1 to 255 part indices "
                                 "such as \"0/1\"");
    }
    expect_trace_error(HEADER "{\"step\":0,\"pid\":0,\"kind\":\"bcast\",\"level\":0,\"op\":-1}\n",
                       "mem:2: field 'op': expected an integer >= 0");
}

/* The deepest path accepted, and parts numbered up to INT_MAX. */
static void trace_group_limits(void)
{
    char text[4096], path[1024];
    size_t n = 0;
    for (int i = 0; i < COST_MAX_DEPTH; i++)
        n += (size_t)snprintf(path + n, sizeof path - n, i ? "/%d" : "%d", i % 10);
    snprintf(text, sizeof text,
             "{\"format\":\"polybsp-trace\",\"version\":1,\"nprocs\":1,\"engine\":\"e\","
             "\"program\":\"p\"}\n{\"step\":0,\"pid\":0,\"kind\":\"rejoin\",\"level\":255,"
             "\"group\":\"%s\",\"w\":0,\"bytes_out\":0,\"msgs_out\":0,\"bytes_in\":0,"
             "\"msgs_in\":0,\"from\":[],\"t_enter\":0,\"t_exit\":0}\n",
             path);
    cost_trace t;
    CHECK(read_text(text, &t) == 0);
    const cost_group *g = t.root;
    int depth = 0;
    while (g->nitems == 1 && g->items[0].nparts == 1) {
        g = &g->items[0].parts[0];
        depth++;
    }
    CHECK(depth == COST_MAX_DEPTH && g->rejoined);
    cost_trace_free(&t);
    CHECK(read_text(HEADER GREC(0, 0, "rejoin", 1, G("2147483647"), "")
                        GREC(0, 1, "rejoin", 1, G("0"), ""),
                    &t) == 0);
    SAME_STR(t.root->items[0].parts[1].path, "2147483647");
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
    {"model_ccm_division", model_ccm_division},
    {"model_ccm_bcast", model_ccm_bcast},
    {"model_ccm_nested", model_ccm_nested},
    {"model_ccm_aborted_division", model_ccm_aborted_division},
    {"model_ccm_started_inside", model_ccm_started_inside},
    {"model_check_messages", model_check_messages},
    {"model_check_ops", model_check_ops},
    {"ccm_eval", ccm_eval},
    {"ccm_samples_fit", ccm_samples_fit},
    {"ccm_fit_fallbacks", ccm_fit_fallbacks},
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
    {"machine_write_whole", machine_write_whole},
    {"machine_read_groups", machine_read_groups},
    {"machine_roundtrip_groups", machine_roundtrip_groups},
    {"machine_write_refuses_groups", machine_write_refuses_groups},
    {"machine_syntax_error_one_line", machine_syntax_error_one_line},
    {"trace_read_fields", trace_read_fields},
    {"trace_gap_and_last_line", trace_gap_and_last_line},
    {"trace_long_program", trace_long_program},
    {"trace_read_groups", trace_read_groups},
    {"trace_structure_errors", trace_structure_errors},
    {"trace_group_limits", trace_group_limits},
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
