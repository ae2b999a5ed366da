/* cost_portability — η and δ of paper 002, section 2 (contract in cost_portability.h). */
#include "cost/cost_portability.h"

#include <math.h>

static int usable(double v) { return isfinite(v) && v > 0; }

/* 1 when family f counts: every variant has T > 0 and T' > 0, both finite. */
static int counted(const double *model, const double *real, const size_t *start, size_t f)
{
    for (size_t i = start[f]; i < start[f + 1]; i++)
        if (!usable(model[i]) || !usable(real[i]))
            return 0;
    return 1;
}

long cost_portability_choice(const double *model, const size_t *start, size_t f)
{
    long best = -1;
    for (size_t i = start[f]; i < start[f + 1]; i++) {
        if (!usable(model[i]))
            return -1;
        if (best < 0 || model[i] < model[best])
            best = (long)i;
    }
    return best;
}

size_t cost_portability_fastest(const double *real, const size_t *start, size_t f)
{
    size_t best = start[f];
    for (size_t i = start[f] + 1; i < start[f + 1]; i++)
        if (real[i] < real[best])
            best = i;
    return best;
}

void cost_portability_estimate(const double *model, const double *real, const size_t *start,
                               size_t nfamilies, const unsigned char *left_out,
                               cost_portability *out)
{
    *out = (cost_portability){.delta = NAN,
                              .delta_max = -1,
                              .delta_min = -1,
                              .eta_within = NAN,
                              .eta_i = -1,
                              .eta_j = -1,
                              .eta = NAN,
                              .eta_f1 = -1,
                              .eta_f2 = -1,
                              .eta_p1 = -1,
                              .eta_p2 = -1,
                              .loss = NAN,
                              .loss_family = -1};
    double r_min = 0, r_max = 0; /* r_F = min_F T' / min_F T over counted families */
    for (size_t f = 0; f < nfamilies; f++) {
        if ((left_out != NULL && left_out[f]) || !counted(model, real, start, f))
            continue;
        /* q = T'/T: (1) for a pair i, j is T_i/T_j · T'_j/T'_i = q_j / q_i, so
         * its largest value in the family is max q / min q, with i of min q. */
        size_t lo = start[f], hi = start[f];
        for (size_t i = start[f]; i < start[f + 1]; i++) {
            double q = real[i] / model[i];
            if (q < real[lo] / model[lo])
                lo = i;
            if (q > real[hi] / model[hi])
                hi = i;
            if (out->programs == 0 || q < real[out->delta_min] / model[out->delta_min])
                out->delta_min = (long)i;
            if (out->programs == 0 || q > real[out->delta_max] / model[out->delta_max])
                out->delta_max = (long)i;
            out->programs++;
        }
        double within = (real[hi] / model[hi]) / (real[lo] / model[lo]);
        if (out->families == 0 || within > out->eta_within) {
            out->eta_within = within;
            out->eta_i = (long)lo;
            out->eta_j = (long)hi;
        }

        long choice = cost_portability_choice(model, start, f);
        size_t best = cost_portability_fastest(real, start, f);
        double r = real[best] / model[choice];
        if (out->families == 0 || r < r_min) {
            r_min = r;
            out->eta_f1 = (long)f;
            out->eta_p1 = choice;
        }
        if (out->families == 0 || r > r_max) {
            r_max = r;
            out->eta_f2 = (long)f;
            out->eta_p2 = choice;
        }

        int unique = 1;
        for (size_t i = start[f]; i < start[f + 1]; i++)
            unique &= i == best || model[i] > model[best];
        out->picked += (size_t)unique;
        double loss = real[choice] / real[best];
        if (out->families == 0 || loss > out->loss) {
            out->loss = loss;
            out->loss_family = (long)f;
        }
        out->families++;
    }
    if (out->families == 0)
        return;
    out->delta = (real[out->delta_max] / model[out->delta_max]) /
                 (real[out->delta_min] / model[out->delta_min]);
    if (out->families >= 2)
        out->eta = r_max / r_min;
    else
        out->eta_f1 = out->eta_f2 = out->eta_p1 = out->eta_p2 = -1;
}
