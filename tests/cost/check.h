/* check.h — what the unit tests of src/cost share: checks, the data files,
 * traces built in memory, and main.
 *
 * Each test program runs as `test_X DATA_DIR CASE`, one ctest test per CASE
 * (tests/cost/CMakeLists.txt reads the case table), so a failure names what
 * broke. Expected values were computed by hand from the formulas in
 * docs/models.md (the arithmetic is in the comments) and are asserted within
 * 1e-12 relative: exact up to the rounding of the double operations.
 */
#ifndef POLYBSP_TESTS_COST_CHECK_H
#define POLYBSP_TESTS_COST_CHECK_H

#include "cost/cost_calib.h"
#include "cost/cost_fit.h"
#include "cost/cost_groups.h"
#include "cost/cost_machine.h"
#include "cost/cost_model.h"
#include "cost/cost_trace.h"
#include "cost/cost_tree.h"
#include "unit.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *data_dir;
static char err[8192];
#define REL 1e-12 /* the relative tolerance of every check */
#define NEAR(got, want) CHECK_NEAR(got, want, REL)
#define SAME_STR(got, want) same_str_at(__FILE__, __LINE__, (got), (want))

static inline void same_str_at(const char *file, int line, const char *got, const char *want)
{
    if (strcmp(got, want) != 0) {
        fprintf(stderr, "%s:%d: got \"%s\"\n    expected \"%s\"\n", file, line, got, want);
        failures++;
    }
}

static inline void path_of(char *buf, size_t n, const char *name)
{
    snprintf(buf, n, "%s/%s", data_dir, name);
}

static inline void load_trace(const char *name, cost_trace *t)
{
    char path[4096];
    path_of(path, sizeof path, name);
    if (cost_trace_read(path, t, err, sizeof err) < 0) {
        fprintf(stderr, "cannot read %s: %s\n", path, err);
        exit(1);
    }
}

static inline void load_machine(const char *name, cost_machine *m)
{
    char path[4096];
    path_of(path, sizeof path, name);
    if (cost_machine_read(path, m, err, sizeof err) < 0) {
        fprintf(stderr, "cannot read %s: %s\n", path, err);
        exit(1);
    }
}

static inline int read_text(const char *text, cost_trace *t)
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
/* A record of a superstep with no work or data, in group GROUP ("" for none). */
#define GREC(step, pid, kind, level, group, op)                                                    \
    "{\"step\":" #step ",\"pid\":" #pid ",\"kind\":\"" kind "\",\"level\":" #level group op        \
    ",\"w\":0,\"bytes_out\":0,\"msgs_out\":0,\"bytes_in\":0,\"msgs_in\":0,\"from\":[],"            \
    "\"t_enter\":0,\"t_exit\":0}\n"
#define G(path) ",\"group\":\"" path "\""
#define OP(n) ",\"op\":" #n

/* Checks a model's per-step predictions and total against the expected ones. */
static inline void expect_model(cost_model_kind k, const cost_trace *t, const cost_machine *m,
                                int flags, const double *want_steps, double want_total)
{
    double steps[16];
    CHECK(t->nsteps <= 16);
    double total = cost_predict(k, t, m, flags, steps);
    for (unsigned long s = 0; s < t->nsteps; s++) {
        char what[64];
        snprintf(what, sizeof what, "%s step %lu", cost_model_name(k), s);
        check_near_at(__FILE__, __LINE__, what, steps[s], want_steps[s], REL);
    }
    check_near_at(__FILE__, __LINE__, cost_model_name(k), total, want_total, REL);
}

struct test_case {
    const char *name;
    void (*run)(void);
};

static inline int check_main(int argc, char **argv, const struct test_case *cases, size_t n)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s DATA_DIR CASE\n", argv[0]);
        return 2;
    }
    data_dir = argv[1];
    for (size_t i = 0; i < n; i++) {
        if (strcmp(cases[i].name, argv[2]) == 0) {
            cases[i].run();
            if (failures == 0)
                printf("%s: OK\n", argv[2]);
            return failures == 0 ? 0 : 1;
        }
    }
    fprintf(stderr, "%s: unknown case '%s'\n", argv[0], argv[2]);
    return 2;
}

#define CHECK_MAIN(cases)                                                                          \
    int main(int argc, char **argv)                                                                \
    {                                                                                              \
        return check_main(argc, argv, cases, sizeof cases / sizeof cases[0]);                      \
    }

#endif
