/* fits_test — the D-BSP and CCM halves of the probe, without running anything.
 *
 * The round planning shares the time left as the first round's pace says and
 * never passes max_reps; the levels of P are 0 .. ceil(log2 P), the last of
 * clusters of one process;
 * the CCM P values get a second value of ceil(log2 P) when they lack one; level
 * fits on medians exactly linear in h give back g_i and ℓ_i (a flat level,
 * g <= 0, stays out of the machine; clusters of one have g = 0 and ℓ the
 * median of their medians); CCM samples exactly
 * a + b·ceil(log2 P) + c·h, with one wild sample per point that the median
 * must ignore, give back a, b and c for every kind and fill the ccm section.
 */
#include "cost/cost_groups.h"
#include "probe/probe_ccm.h"
#include "probe/probe_levels.h"
#include "probe/probe_measure.h"

#include "unit.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void rounds(void)
{
    probe_rounds p = {.min_reps = 5, .max_reps = 500, .rounds = 5, .deadline = 10.0};
    CHECK(probe_rounds_most(&p) == 124); /* ceil(495 / 4) */
    double planned = -1;
    /* 5 samples took 0.1 s at t = 1: 9 s left fit 450 more, 4 rounds of 113. */
    CHECK(probe_rounds_next(&p, 0, 5, 5, 0.1, 1.0, &planned) == 113);
    CHECK_NEAR(planned, 113 * 4 * 0.1 / 5, 1e-6);
    /* Plenty of time: capped at max_reps, 495 in 4 rounds of 124, the last takes 123. */
    CHECK(probe_rounds_next(&p, 0, 5, 5, 0.001, 1.0, &planned) == 124);
    CHECK(probe_rounds_next(&p, 1, 124, 129, 0.01, 1.1, &planned) == 124);
    CHECK(probe_rounds_next(&p, 3, 124, 377, 0.01, 1.3, &planned) == 123);
    CHECK(probe_rounds_next(&p, 4, 123, 500, 0.01, 1.4, &planned) == 0);
    /* A round that would end after the deadline is not started. */
    CHECK(probe_rounds_next(&p, 1, 50, 55, 2.0, 8.5, &planned) == 0);
    /* No time left after the first round, or a single round. */
    CHECK(probe_rounds_next(&p, 0, 5, 5, 0.1, 11.0, &planned) == 0);
    probe_rounds one = {.min_reps = 3, .max_reps = 3, .rounds = 1, .deadline = 10.0};
    CHECK(probe_rounds_most(&one) == 3);
    CHECK(probe_rounds_next(&one, 0, 3, 3, 0.1, 1.0, &planned) == 0);
}

static void counts(void)
{
    CHECK(probe_levels_count(1) == 0);
    CHECK(probe_levels_count(2) == 2);
    CHECK(probe_levels_count(3) == 3);
    CHECK(probe_levels_count(4) == 3);
    CHECK(probe_levels_count(6) == 4);
    CHECK(probe_levels_count(8) == 4);
    CHECK(probe_levels_count(1024) == 11);

    int out[COST_MAX_PROCS];
    const int two[] = {2}, two_four[] = {2, 4}, three_four[] = {3, 4}, two_three[] = {2, 3};
    CHECK(probe_ccm_procs(two, 1, out, COST_MAX_PROCS) == 2 && out[0] == 2 && out[1] == 4);
    CHECK(probe_ccm_procs(two_four, 2, out, COST_MAX_PROCS) == 2 && out[1] == 4);
    CHECK(probe_ccm_procs(three_four, 2, out, COST_MAX_PROCS) == 3 && out[2] == 8);
    CHECK(probe_ccm_procs(two_three, 2, out, COST_MAX_PROCS) == 2 && out[1] == 3);
}

static void levels(void)
{
    static probe_levels lv;
    static cost_levels_procs m;
    const long sizes[] = {64, 6720, 107520, 1720320};
    lv.nprocs = 8;
    lv.nsizes = 4;
    memcpy(lv.sizes, sizes, sizeof sizes);
    lv.nlevels = 4;
    const double g[3] = {3e-10, 2e-10, 1e-10}, L[3] = {4e-6, 2e-6, 1e-6};
    /* Level 3, clusters of one: the same empty superstep at every size. */
    const double alone[4] = {3e-7, 2e-7, 5e-7, 2.5e-7};
    for (int i = 0; i < 4; i++) {
        lv.cluster[i] = 8 >> i;
        for (size_t k = 0; k < 4; k++) {
            double h = (double)sizes[k] / 2; /* @ = max */
            /* Level 1 gets slower as h shrinks: noise that tilts its line down. */
            double t = i == 3 ? alone[k] : i == 1 ? 6e-6 - 1e-12 * h : L[i] + g[i] * h;
            lv.stat[i][k] = (probe_stat){.median = t, .n = 5};
        }
    }
    probe_levels_fit(&lv, 0, 2, &m);
    CHECK(m.procs == 8 && m.oversubscribed);
    CHECK_NEAR(lv.h[3], 860160, 1e-6);
    CHECK_NEAR(lv.g[0], g[0], 1e-6);
    CHECK_NEAR(lv.L[0], L[0], 1e-6);
    CHECK_NEAR(lv.g[2], g[2], 1e-6);
    CHECK_NEAR(lv.L[2], L[2], 1e-6);
    CHECK(!(lv.g[1] > 0));
    CHECK(m.nlevels == 3);
    CHECK(m.levels[0].level == 0 && m.levels[0].cluster == 8);
    CHECK(m.levels[1].level == 2 && m.levels[1].cluster == 2);
    CHECK_NEAR(m.levels[1].g, g[2], 1e-6);
    CHECK(m.levels[2].level == 3 && m.levels[2].cluster == 1 && m.levels[2].g == 0);
    CHECK_NEAR(m.levels[2].L, (2.5e-7 + 3e-7) / 2, 1e-6);
}

static void ccm(void)
{
    /* The collectives, the patterns' functions (cost_hrel_name), then par,
     * partition and rejoin: the order of probe_ccm's kinds. */
    static const char *const named[] = {
        "bcast",     "bcast.direct", "bcast.binomial", "bcast.twophase", "bcast.rootp", "reduce",
        "allreduce", "scan",         "gather",         "allgather",      "scatter",     "alltoall",
        "alltoallv", "par",          "partition",      "rejoin"};
    enum { NCOLL = 13, NK = sizeof named / sizeof named[0] + COST_NPATTERNS, REPS = 3 };
    char kinds[NK][COST_CCM_NAME_MAX];
    for (int k = 0; k < NK; k++) {
        if (k < NCOLL)
            snprintf(kinds[k], sizeof kinds[k], "%s", named[k]);
        else if (k < NCOLL + COST_NPATTERNS)
            cost_hrel_name((cost_pattern)(k - NCOLL), kinds[k]);
        else
            snprintf(kinds[k], sizeof kinds[k], "%s", named[k - COST_NPATTERNS]);
    }
    const int procs[] = {2, 4, 8};
    const double hs[] = {0, 8, 4096, 1048576};
    static probe_ccm c;
    static cost_machine m;
    m.cores = 4;
    c.nprocs = 3;
    memcpy(c.procs, (int[]){8, 2, 4}, sizeof(int[3])); /* the order they ran in */
    c.cap = NK * 3 * 4 * REPS;
    c.samples = calloc(c.cap, sizeof *c.samples);
    if (!c.samples)
        exit(1);
    for (int k = 0; k < NK; k++)
        for (int p = 0; p < 3; p++)
            for (int j = 0; j < 4; j++)
                for (int r = 0; r < REPS; r++) {
                    cost_ccm_sample *x = &c.samples[c.nsamples++];
                    memcpy(x->kind, kinds[k], sizeof x->kind);
                    x->P = procs[p];
                    x->h = hs[j];
                    double a = 1e-6 * (k + 1), b = 2e-7 * k, cc = 1e-10 * (k % 3);
                    x->time = a + b * cost_rounds(x->P) + cc * x->h;
                    if (r == 1)
                        x->time *= 50; /* a descheduled call: the median ignores it */
                }
    probe_ccm_fit(&c, &m);
    CHECK(m.has_ccm);
    CHECK(m.ncoll == NK - 2);
    for (int k = 0; k < NK; k++) {
        CHECK(c.kinds[k].fitted && strcmp(c.kinds[k].kind, kinds[k]) == 0);
        CHECK(c.kinds[k].points == 12 && c.kinds[k].samples == 12 * REPS);
        const cost_ccm_fn *f = k < NK - 2    ? cost_machine_collective(&m, kinds[k])
                               : k == NK - 2 ? &m.partition
                                             : &m.rejoin;
        CHECK(f != NULL);
        if (f == NULL)
            continue;
        CHECK_NEAR(f->a, 1e-6 * (k + 1), 1e-6);
        /* b and c in units of their steps, so that their zeros are held to
         * 1e-6 of a step too. */
        CHECK_NEAR(f->b / 2e-7, k, 1e-6);
        CHECK_NEAR(f->c / 1e-10, k % 3, 1e-6);
        CHECK(c.kinds[k].residual < 1e-6);
        CHECK(f->h_break == 0);
    }
    /* Each P alone: b folds into a, c stays; P = 8 (above m's 4 cores) is
     * flagged oversubscribed. */
    CHECK(m.nccm_procs == 3 && c.nby == 3);
    for (int p = 0; p < 3 && m.nccm_procs == 3; p++) {
        CHECK(m.ccm_procs[p].procs == procs[p] && c.by_procs[p] == procs[p]);
        CHECK(m.ccm_procs[p].oversubscribed == (procs[p] > 4));
        CHECK(m.ccm_procs[p].ncoll == NK && c.by_residual[p] < 1e-6);
        for (int k = 0; k < NK; k++) {
            const cost_ccm_fn *f = cost_machine_ccm(&m, kinds[k], procs[p]);
            CHECK(f != NULL && f != cost_machine_collective(&m, kinds[k]));
            if (f == NULL)
                continue;
            CHECK_NEAR(f->a, 1e-6 * (k + 1) + 2e-7 * k * cost_rounds(procs[p]), 1e-6);
            CHECK(f->b == 0);
            CHECK_NEAR(f->c / 1e-10, k % 3, 1e-6);
        }
    }
    /* A pattern without samples (the all-to-all when only P = 2 ran) is left
     * out and CCM stands; a collective without samples switches CCM off. */
    for (size_t i = 0; i < c.nsamples; i++)
        if (strcmp(c.samples[i].kind, "hrel.alltoall") == 0)
            snprintf(c.samples[i].kind, sizeof c.samples[i].kind, "%s", "unrun");
    probe_ccm_fit(&c, &m);
    CHECK(m.has_ccm && m.ncoll == NK - 3);
    CHECK(cost_machine_collective(&m, "hrel.alltoall") == NULL);
    CHECK(cost_machine_collective(&m, "hrel.alltoone") != NULL);
    for (size_t i = 0; i < c.nsamples; i++)
        if (strcmp(c.samples[i].kind, "scan") == 0)
            snprintf(c.samples[i].kind, sizeof c.samples[i].kind, "%s", "unrun");
    probe_ccm_fit(&c, &m);
    CHECK(!m.has_ccm);
    probe_ccm_free(&c);
}

int main(void)
{
    rounds();
    counts();
    levels();
    ccm();
    if (failures) {
        fprintf(stderr, "fits_test: %d failures\n", failures);
        return 1;
    }
    printf("fits_test: OK\n");
    return 0;
}
