/* test_portability — the η and δ estimates of src/cost/cost_portability on
 * hand-computed inputs, and inequality (3) of paper 002 on a generated suite
 * (cases of check.h: `test_portability DATA_DIR CASE`).
 */
#include "check.h"

#include "cost/cost_portability.h"

/* Four families (programs 0-1, 2-4, 5-6, 7-8); q = T'/T per program.
 *  0: T = 1, 2;     T' = 2, 3:    q = 2, 1.5;        choice 0, fastest 0: picked
 *  1: T = 4, 1, 2;  T' = 1, 4, 2: q = 0.25, 4, 1;    choice 3, fastest 2: missed
 *  2: T = 1, NaN:   not counted (the model cannot predict program 6)
 *  3: T = 3, 3;     T' = 3, 6:    q = 1, 2;          a tie: no pick
 * delta = max q / min q = 4 / 0.25 = 16 (programs 3 and 2);
 * eta_within: family 0 gives 2/1.5, family 1 gives 4/0.25 = 16, family 3 gives
 *   2: so 16, with i = 2 (min q) and j = 3 (max q): T_2/T_3 · T'_3/T'_2 =
 *   4/1 · 4/1 = 16;
 * eta: r_F = min T' / min T = 2/1 = 2, 1/1 = 1, 3/3 = 1: 2/1 = 2, with
 *   π1 = the choice of family 1 (program 3), π2 that of family 0 (program 0);
 * loss: family 1's choice runs 4 against the fastest 1: 4. */
static void portability_hand_computed(void)
{
    const double model[] = {1, 2, 4, 1, 2, 1, NAN, 3, 3};
    const double real[] = {2, 3, 1, 4, 2, 1, 1, 3, 6};
    const size_t start[] = {0, 2, 5, 7, 9};
    cost_portability p;
    cost_portability_estimate(model, real, start, 4, NULL, &p);
    CHECK(p.families == 3);
    CHECK(p.programs == 7);
    NEAR(p.delta, 16.0);
    CHECK(p.delta_max == 3 && p.delta_min == 2);
    NEAR(p.eta_within, 16.0);
    CHECK(p.eta_i == 2 && p.eta_j == 3);
    NEAR(p.eta, 2.0);
    CHECK(p.eta_f1 == 1 && p.eta_p1 == 3);
    CHECK(p.eta_f2 == 0 && p.eta_p2 == 0);
    CHECK(p.picked == 1);
    NEAR(p.loss, 4.0);
    CHECK(p.loss_family == 1);
    CHECK(cost_portability_choice(model, start, 1) == 3);
    CHECK(cost_portability_choice(model, start, 2) == -1);
    CHECK(cost_portability_choice(model, start, 3) == 7);
    CHECK(cost_portability_fastest(real, start, 0) == 0);
    CHECK(cost_portability_fastest(real, start, 1) == 2);
    CHECK(cost_portability_fastest(real, start, 3) == 7);
}

/* The families of portability_hand_computed with family 1 left out (as
 * `polybsp portability` leaves out the probe's own programs when it names the
 * model to trust): families 0 and 3 count (2 still cannot be predicted).
 *  q = 2, 1.5 (family 0) and 1, 2 (family 3): delta = 2 / 1 = 2, the largest q
 *    first met at program 0, the smallest at program 7;
 *  eta_within: 2 / 1.5 in family 0, 2 / 1 in family 3: 2, i = 7, j = 8;
 *  eta: r_F = 2 / 1 (family 0: fastest 0, choice 0) and 3 / 3 (family 3:
 *    fastest 7, choice 7): 2, π1 = 7 (family 3), π2 = 0 (family 0);
 *  picked: family 0 only (3 is a tie); loss 1, first in family 0. The
 *  indices are the programs' and families' own, not renumbered. */
static void portability_left_out(void)
{
    const double model[] = {1, 2, 4, 1, 2, 1, NAN, 3, 3};
    const double real[] = {2, 3, 1, 4, 2, 1, 1, 3, 6};
    const size_t start[] = {0, 2, 5, 7, 9};
    const unsigned char left_out[] = {0, 1, 0, 0};
    cost_portability p;
    cost_portability_estimate(model, real, start, 4, left_out, &p);
    CHECK(p.families == 2);
    CHECK(p.programs == 4);
    NEAR(p.delta, 2.0);
    CHECK(p.delta_max == 0 && p.delta_min == 7);
    NEAR(p.eta_within, 2.0);
    CHECK(p.eta_i == 7 && p.eta_j == 8);
    NEAR(p.eta, 2.0);
    CHECK(p.eta_f1 == 3 && p.eta_p1 == 7);
    CHECK(p.eta_f2 == 0 && p.eta_p2 == 0);
    CHECK(p.picked == 1);
    NEAR(p.loss, 1.0);
    CHECK(p.loss_family == 0);
    /* Every family left out: nothing counts. */
    const unsigned char all[] = {1, 1, 1, 1};
    cost_portability_estimate(model, real, start, 4, all, &p);
    CHECK(p.families == 0 && isnan(p.delta) && p.delta_max == -1);
}

/* A model proportional to the platform (T = T'/3) is perfectly effective:
 * every estimate is 1 and it picks every fastest variant. */
static void portability_proportional(void)
{
    const double real[] = {1, 2, 5, 4, 3};
    const double model[] = {1.0 / 3, 2.0 / 3, 5.0 / 3, 4.0 / 3, 1.0};
    const size_t start[] = {0, 3, 5};
    cost_portability p;
    cost_portability_estimate(model, real, start, 2, NULL, &p);
    NEAR(p.delta, 1.0);
    NEAR(p.eta_within, 1.0);
    NEAR(p.eta, 1.0);
    NEAR(p.loss, 1.0);
    CHECK(p.picked == 2 && p.families == 2 && p.programs == 5);
}

/* One counted family: eta needs two, the rest is defined. Nothing counted: NaN. */
static void portability_too_few(void)
{
    const double model[] = {1, 2, 0, 1};
    const double real[] = {1, 1, 1, 1};
    const size_t start[] = {0, 2, 4};
    cost_portability p;
    cost_portability_estimate(model, real, start, 2, NULL, &p);
    CHECK(p.families == 1);
    NEAR(p.eta_within, 2.0); /* q = 1, 0.5 */
    CHECK(isnan(p.eta) && p.eta_f1 == -1 && p.eta_p2 == -1);
    cost_portability_estimate(model + 2, real + 2, start, 1, NULL, &p);
    CHECK(p.families == 0 && p.programs == 0);
    CHECK(isnan(p.delta) && isnan(p.eta_within) && isnan(p.eta) && isnan(p.loss));
    CHECK(p.eta_i == -1 && p.delta_max == -1 && p.loss_family == -1);
}

/* Inequality (3), η ≤ δ, and η_within ≤ δ, on a generated suite of 40 families
 * of 1 to 5 programs with times spread over four orders of magnitude. */
static void portability_inequality_3(void)
{
    enum { NF = 40, MAXP = 5 };
    double model[NF * MAXP], real[NF * MAXP];
    size_t start[NF + 1] = {0};
    unsigned s = 12345;
    for (size_t f = 0; f < NF; f++) {
        s = s * 1103515245u + 12345u;
        start[f + 1] = start[f] + 1 + (s >> 16) % MAXP;
        for (size_t i = start[f]; i < start[f + 1]; i++) {
            s = s * 1103515245u + 12345u;
            model[i] = pow(10.0, (double)((s >> 16) % 4000) / 1000.0);
            s = s * 1103515245u + 12345u;
            real[i] = pow(10.0, (double)((s >> 16) % 4000) / 1000.0);
        }
    }
    cost_portability p;
    cost_portability_estimate(model, real, start, NF, NULL, &p);
    CHECK(p.families == NF && p.programs == start[NF]);
    CHECK(p.eta >= 1.0 && p.eta <= p.delta);
    CHECK(p.eta_within >= 1.0 && p.eta_within <= p.delta);
    CHECK(p.picked <= p.families && p.loss >= 1.0);
    /* The reported pairs attain the reported values. */
    NEAR(model[p.eta_i] / model[p.eta_j] * real[p.eta_j] / real[p.eta_i], p.eta_within);
    double min2 = INFINITY, min1 = INFINITY;
    for (size_t i = start[p.eta_f2]; i < start[p.eta_f2 + 1]; i++)
        min2 = fmin(min2, real[i]);
    for (size_t i = start[p.eta_f1]; i < start[p.eta_f1 + 1]; i++)
        min1 = fmin(min1, real[i]);
    NEAR(model[p.eta_p1] / model[p.eta_p2] * min2 / min1, p.eta);
}

static const struct test_case cases[] = {
    {"portability_hand_computed", portability_hand_computed},
    {"portability_left_out", portability_left_out},
    {"portability_proportional", portability_proportional},
    {"portability_too_few", portability_too_few},
    {"portability_inequality_3", portability_inequality_3},
};

CHECK_MAIN(cases)
