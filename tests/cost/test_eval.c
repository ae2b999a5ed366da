/* test_eval — cost_eval_run, the one evaluation of a trace that predict,
 * report, portability and the demo share: the fault charge, the line of the
 * trace's P, which models are n/a and why, and the errors it refuses with.
 * Usage and conventions: check.h; the arithmetic of each value is beside it. */
#include "check.h"

#include "cost/cost_eval.h"

/* One evaluation: the options, the files as read and the result. */
struct run {
    cost_eval_opts o;
    cost_trace t;
    cost_machine m;
    cost_eval r;
};

/* Evaluates data file trace on data file machine with x->o (their names "t"
 * and "m" in messages); returns cost_eval_run's status. */
static int eval(struct run *x, const char *trace, const char *machine)
{
    load_trace(trace, &x->t);
    load_machine(machine, &x->m);
    x->o.trace = "t";
    x->o.machine = "m";
    return cost_eval_run(&x->o, &x->t, &x->m, &x->r, err, sizeof err);
}

static void done(struct run *x)
{
    cost_eval_free(&x->r);
    cost_trace_free(&x->t);
}

/* faults_kind (P = 2, one superstep): process 0 took 10 faults in the sync, 4
 * on fresh pages; machine.json charges 1e-6 s a fresh page, 5e-5 s any other:
 * F_0 = 4e-6 + 6 x 5e-5 = 3.04e-4. REAL 2e-3; BSP max W 1.2e-3 + F_0 + g h
 * (1e-9 x 100) + L 1e-5 = 1.5141e-3, as `predict` (tests/cost's
 * faults_default_kind); BSP* g* (s + h B) = 2e-9 (100 + 100): 1.5144e-3; EBSP
 * process 0's clock 1e-3 + F_0 + 1e-7 + 1e-5 = 1.3141e-3, process 1's max
 * (1.304e-3, 1.2e-3) + 1e-7 + 1e-5 the same. D-BSP and CCM lack their fields:
 * shown, n/a, with the reason. */
static void eval_faults_kind(void)
{
    struct run x = {.o = {.all = 1, .faults = COST_FAULTS_KIND}};
    CHECK(eval(&x, "faults_kind.jsonl", "machine.json") == 0);
    CHECK(x.r.faults == COST_FAULTS_KIND && x.m.fault[0] == 1e-6 && x.m.fault[1] == 5e-5);
    CHECK(!x.r.elsewhere && x.r.fit_procs == 0 && x.r.nsteps == 1);
    NEAR(x.r.real_total, 2e-3);
    NEAR(x.r.model_total[COST_EVAL_BSP], 1.5141e-3);
    NEAR(cost_eval_model(&x.r, COST_EVAL_BSP, 0), 1.5141e-3);
    NEAR(x.r.model_total[COST_EVAL_BSPSTAR], 1.5144e-3);
    NEAR(x.r.model_total[COST_EVAL_EBSP], 1.3141e-3);
    for (int k = COST_EVAL_DBSP; k <= COST_EVAL_CCM; k++)
        CHECK(x.r.have[k] && !cost_eval_available(&x.r, k) && x.r.unavailable[k][0]);
    SAME_STR(x.r.unavailable[COST_EVAL_DBSP], "m: field 'dbsp': missing (needed by --model dbsp)");
    done(&x);
}

/* A machine file without the fault costs (machine_groups.json, g 1e-9, L 1e-5,
 * no BSP*): unasked, the faults are reported only, 1.2e-3 + 1e-7 + 1e-5 =
 * 1.2101e-3; BSP* is left out (not shown), its reason kept; asked for, the
 * charge's missing cost is refused. */
static void eval_faults_without_costs(void)
{
    struct run x = {.o = {.all = 1, .faults = COST_FAULTS_KIND}};
    CHECK(eval(&x, "faults_kind.jsonl", "machine_groups.json") == 0);
    CHECK(x.r.faults == COST_FAULTS_NONE && x.m.fault[0] == 0 && x.m.fault[1] == 0);
    NEAR(x.r.model_total[COST_EVAL_BSP], 1.2101e-3);
    CHECK(!x.r.have[COST_EVAL_BSPSTAR] && x.r.unavailable[COST_EVAL_BSPSTAR][0]);
    done(&x);

    x.o.faults = COST_FAULTS_FRESH;
    x.o.faults_asked = 1;
    CHECK(eval(&x, "faults_kind.jsonl", "machine_groups.json") == -1);
    SAME_STR(err, "m: field 'page_fault.fresh': missing (needed by --faults fresh: probe again)");
    done(&x);
}

/* A model asked for by name that cannot be evaluated is an error, with
 * cost_model_check's line. */
static void eval_asked_unavailable(void)
{
    struct run x = {.o = {.want[COST_EVAL_DBSP] = 1}};
    CHECK(eval(&x, "faults_kind.jsonl", "machine.json") == -1);
    SAME_STR(err, "m: field 'dbsp': missing (needed by --model dbsp)");
    done(&x);
}

/* machine_dbsp_procs.json has lines for P = 2 and 4 (P = 4 fitted beyond its 2
 * cores): a trace of P = 3 is refused; two_pairs_cores8 (P = 4, ran within 8
 * cores) gets no line fitted beyond the cores, unless oversubscribed_fits:
 * then BSP 2 (1e-3 + 5e-9 x 2e5 + 4e-5) = 4.08e-3 on the line of P = 4. */
static void eval_lines(void)
{
    struct run x = {.o = {.all = 1}};
    CHECK(eval(&x, "relations3.jsonl", "machine_dbsp_procs.json") == -1);
    SAME_STR(err, "t has P = 3, but m was calibrated for P = 2, 4 only (add 3 to 'polybsp probe "
                  "--procs')");
    done(&x);

    CHECK(eval(&x, "two_pairs_cores8.jsonl", "machine_dbsp_procs.json") == 0);
    CHECK(x.r.fit_procs == 4 && x.r.have[COST_EVAL_BSP] &&
          !cost_eval_available(&x.r, COST_EVAL_BSP));
    SAME_STR(x.r.unavailable[COST_EVAL_BSP],
             "m: its BSP line of P = 4 was fitted beyond its 2 cores (time-sliced), and t ran "
             "within its 8 cores: not used (--oversubscribed-fits uses it)");
    done(&x);

    x.o.oversubscribed_fits = 1;
    CHECK(eval(&x, "two_pairs_cores8.jsonl", "machine_dbsp_procs.json") == 0);
    NEAR(x.r.model_total[COST_EVAL_BSP], 4.08e-3);
    done(&x);
}

/* overall_line (the demo's): the trace of P = 3, which machine_dbsp_procs.json
 * has no line for, takes the overall line, g 1e-9 and L 1e-5. h_operator sum:
 * h = max over processes of bytes out + in, 20, 40, 20, 30 in the four
 * supersteps; w 1e-3 each: BSP 4 (1e-3 + 1e-5) + 1e-9 x 110 = 4.04011e-3. A P
 * that has a line keeps it. */
static void eval_overall_line(void)
{
    struct run x = {.o = {.all = 1, .overall_line = 1}};
    CHECK(eval(&x, "relations3.jsonl", "machine_dbsp_procs.json") == 0);
    CHECK(x.r.fit_procs == 0 && x.m.g == 1e-9 && x.m.L == 1e-5);
    NEAR(x.r.model_total[COST_EVAL_BSP], 4.04011e-3);
    done(&x);

    x.o.oversubscribed_fits = 1;
    CHECK(eval(&x, "two_pairs_cores8.jsonl", "machine_dbsp_procs.json") == 0);
    CHECK(x.r.fit_procs == 4);
    NEAR(x.r.model_total[COST_EVAL_BSP], 4.08e-3);
    done(&x);
}

/* --against makes the trace one from elsewhere (its work scaled to the
 * target), and must be a run of its shape: faults.jsonl has P = 2, the trace
 * P = 4. */
static void eval_against_shape(void)
{
    char against[4096];
    path_of(against, sizeof against, "faults.jsonl");
    struct run x = {.o = {.all = 1, .against = against}};
    CHECK(eval(&x, "two_pairs_elsewhere.jsonl", "machine.json") == -1);
    char want[4200];
    snprintf(want, sizeof want, "%s is not a run of the same program shape as t: its P is 2, not 4",
             against);
    SAME_STR(err, want);
    done(&x);
}

static const struct test_case cases[] = {
    {"eval_faults_kind", eval_faults_kind},
    {"eval_faults_without_costs", eval_faults_without_costs},
    {"eval_asked_unavailable", eval_asked_unavailable},
    {"eval_lines", eval_lines},
    {"eval_overall_line", eval_overall_line},
    {"eval_against_shape", eval_against_shape},
};

CHECK_MAIN(cases)
