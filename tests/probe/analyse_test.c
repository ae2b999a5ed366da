/* analyse_test — the paper's fits and errors recover what synthetic timings encode.
 *
 * Timings made exactly linear in h with @ = sum must give back L and g, MaxErr and
 * AvErr 0, and the sum operator; the same with @ = max must choose max; a 10 %
 * slower P = 4 must give MaxErr 5 % at every size (the fit is the mean line, off
 * by 5 % of the P = 2 time either way); BSP* cells following L + g*·(s + B·n)
 * must give back g* and B.
 */
#include "probe/probe_analyse.h"
#include "probe/probe_pattern.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static int failures;

/* Relative tolerance, or absolute when the expected value is 0. */
#define CHECK_NEAR(actual, expected, tolerance)                                                    \
    do {                                                                                           \
        double a_ = (actual), e_ = (expected);                                                     \
        if (!(fabs(a_ - e_) <= (tolerance) * (e_ != 0 ? fabs(e_) : 1.0))) {                        \
            failures++;                                                                            \
            fprintf(stderr, "FAIL %s:%d: %s is %.10g, expected %.10g\n", __FILE__, __LINE__,       \
                    #actual, a_, e_);                                                              \
        }                                                                                          \
    } while (0)

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            failures++;                                                                            \
            fprintf(stderr, "FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);                        \
        }                                                                                          \
    } while (0)

enum { NSIZES = 4, NPROCS = 2, NSTAR = 6, NCELLS = PROBE_NPRIMS * COST_NPATTERNS * NSIZES + NSTAR };

static const double L = 2e-6, G = 1e-10, GSTAR = 8e-11, B = 300;
static const long sizes[NSIZES] = {64, 6720, 107520, 1720320};
static const int procs[NPROCS] = {2, 4};
static probe_cell cells[NCELLS];
static probe_stat stat[NPROCS * NCELLS];

/* Fills stat with times linear in h under the operator given (sum: 1, max: 0); P = 4
 * is slower by the factor given; bsp_hpput takes twice as long as bsp_put. */
static void synthesise(int sum, double p4_factor)
{
    for (size_t p = 0; p < NPROCS; p++)
        for (size_t c = 0; c < NCELLS; c++) {
            long bytes, msgs;
            const probe_cell *cell = &cells[c];
            if (probe_relation(cell->pattern, procs[p], cell->h, cell->split, sum, &bytes, &msgs) !=
                0)
                exit(1);
            double t = c < NCELLS - NSTAR ? L + G * (double)bytes
                                          : L + GSTAR * ((double)bytes + B * (double)msgs);
            if (cell->prim == PROBE_HPPUT)
                t *= 2;
            stat[p * NCELLS + c] = (probe_stat){t * (procs[p] == 4 ? p4_factor : 1.0), 5.0, 10};
        }
}

static void run(int sum, double p4_factor)
{
    synthesise(sum, p4_factor);
    probe_data d = {.nprocs = NPROCS,
                    .procs = procs,
                    .nsizes = NSIZES,
                    .sizes = sizes,
                    .ncells = NCELLS,
                    .cells = cells,
                    .stat = stat};
    probe_summary *s = calloc(1, sizeof *s);
    char err[256];
    CHECK(s != NULL && probe_analyse(&d, s, err, sizeof err) == 0);
    if (s == NULL)
        exit(1);
    double mean = (1.0 + p4_factor) / 2; /* the fit through both P is the mean line */
    CHECK(s->m.h_sum == sum);
    CHECK_NEAR(s->m.L, L * mean, 1e-6);
    CHECK_NEAR(s->m.g, G * mean, 1e-6);
    CHECK_NEAR(s->overall[PROBE_HPPUT].g, 2 * G * mean, 1e-6);
    CHECK_NEAR(s->overall[PROBE_PUT].residual[sum], 0, 1e-6);
    CHECK(s->overall[PROBE_PUT].residual[!sum] > 1.0);
    for (int pat = 0; pat < COST_NPATTERNS; pat++) {
        const cost_pattern_fit *f = &s->m.put[pat];
        CHECK(f->measured && f->nsizes == NSIZES);
        CHECK_NEAR(f->L, L * mean, 1e-6);
        CHECK_NEAR(f->g, G * mean, 1e-6);
        CHECK_NEAR(s->m.hpput[pat].g, 2 * G * mean, 1e-6);
        for (size_t k = 0; k < NSIZES; k++) {
            int half = !sum && (pat == COST_EXCHANGE || pat == COST_ALLTOALL);
            CHECK_NEAR(f->h[k], half ? sizes[k] / 2 : sizes[k], 0);
            CHECK_NEAR(f->time[k], (L + G * f->h[k]) * p4_factor, 1e-9); /* at the largest P */
            CHECK_NEAR(f->maxerr[k], 100 * (p4_factor - 1) / 2, 1e-6);
            CHECK_NEAR(s->spread[PROBE_PUT][pat][k], 5.0, 0);
        }
    }
    for (size_t k = 0; k < NSIZES; k++) {
        CHECK_NEAR(s->m.t11_h[k], sizes[k], 0);
        CHECK_NEAR(s->m.t11_averr[k], 0, 1e-6);
        CHECK_NEAR(s->m.t11_maxerr[k], 0, 1e-6);
    }
    CHECK(s->bspstar_fitted && s->bspstar_cells == NSTAR);
    CHECK_NEAR(s->m.gstar, GSTAR * mean, 1e-6);
    CHECK_NEAR(s->m.B, B, 1e-6);
    CHECK_NEAR(s->m.spread, 5.0, 0);
    free(s);
}

int main(void)
{
    size_t n = 0;
    for (int prim = 0; prim < PROBE_NPRIMS; prim++)
        for (int pat = 0; pat < COST_NPATTERNS; pat++)
            for (size_t k = 0; k < NSIZES; k++) {
                CHECK(probe_cell_index((probe_prim)prim, (cost_pattern)pat, k, NSIZES) == n);
                cells[n++] = (probe_cell){(probe_prim)prim, (cost_pattern)pat, sizes[k], 1};
            }
    static const long totals[2] = {4096, 65536};
    static const int splits[3] = {1, 16, 256};
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 3; j++)
            cells[n++] = (probe_cell){PROBE_PUT, COST_EXCHANGE, 2 * totals[i], splits[j]};

    run(1, 1.0);
    run(0, 1.0);
    run(1, 1.1);
    if (failures) {
        fprintf(stderr, "%d failures\n", failures);
        return 1;
    }
    printf("analyse_test: OK\n");
    return 0;
}
