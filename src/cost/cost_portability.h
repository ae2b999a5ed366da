/* cost_portability — which model to trust on a platform: estimates of the inverse
 * effectiveness η and the distance δ of paper 002, section 2, from the predicted
 * and measured times of families of ρ-equivalent programs.
 *
 * Paper 002, section 2: for a model M and a platform M', T(π) the time M's cost
 * function gives a program π and T'(σ(π)) the time of its counterpart on M',
 *   η(M, M') = max_{π1, π2 ∈ Π} T(π1)/T(π2) · T'(σ(π2))/T'(σ(π1))       (1)
 *   δ(M, M') = S(M, M') · S(M', M)                                      (2)
 *   η(M, M') ≤ δ(M, M')                                                 (3)
 * where Π is the set of ρ-optimal programs (the fastest of their class on M) and
 * S(M, M') = max_π T'(π')/T(π), S(M', M) = max_π T(π)/T'(π') are the slowdowns.
 *
 * Here a platform run gives, per program i, T_i = the model's prediction and
 * T'_i = the measured time; q_i = T'_i / T_i. A family is a ρ-class: variants
 * that solve the same problem (the same input-output map). Every quantity is a
 * ratio of extremes of q, so (3) holds for the estimates by construction:
 *  - delta:      max_i q_i / min_i q_i over every program of the counted
 *                families: S(M, M') and S(M', M) estimated by the largest
 *                slowdowns the suite shows (so a lower bound of the true δ);
 *  - eta_within: max over families F and pairs i, j ∈ F of
 *                T_i/T_j · T'_j/T'_i = max_F (max_{F} q / min_{F} q): formula
 *                (1) applied to the alternatives of one problem, the choice a
 *                designer makes with the model; pair (eta_i, eta_j) attains it
 *                (T_i/T_j · T'_j/T'_i = eta_within);
 *  - eta:        formula (1) as written, over Π = the ρ-optimal programs: for
 *                family F the model's choice has time min_F T and its
 *                counterpart σ(π), the fastest measured variant, min_F T'; with
 *                r_F = min_F T' / min_F T, η̂ = max_F r_F / min_F r_F, attained
 *                by π1 = the model's choice in family eta_f1 (smallest r) and
 *                π2 = that in eta_f2 (largest r). Needs two families;
 *  - picked:     the families where the measured fastest variant is the only
 *                one with the smallest predicted time (a tie is no pick);
 *  - loss:       max over families of T'(the model's choice) / min_F T', the
 *                model's choice being the first variant with the smallest T:
 *                how much slower a program chosen with the model can be.
 * A family counts for a model only when every variant has a finite prediction
 * T > 0 and a measured time T' > 0 (a model that cannot predict one variant,
 * e.g. for lack of machine parameters, would otherwise win by default).
 * An uncounted quantity is NaN (eta with fewer than two counted families, all
 * of them with no counted family); pair and family indices are then -1.
 */
#ifndef POLYBSP_COST_PORTABILITY_H
#define POLYBSP_COST_PORTABILITY_H

#include <stddef.h>

typedef struct cost_portability {
    size_t families;     /* counted families */
    size_t programs;     /* their variants */
    double delta;        /* max q / min q */
    long delta_max;      /* the program of max q (T' / T largest) */
    long delta_min;      /* the program of min q */
    double eta_within;   /* max over families of max q / min q */
    long eta_i, eta_j;   /* the pair that attains eta_within */
    double eta;          /* formula (1) over the ρ-optimal programs */
    long eta_f1, eta_f2; /* the families of π1 and π2 */
    long eta_p1, eta_p2; /* π1 and π2: the model's choice in eta_f1, eta_f2 */
    size_t picked;       /* families where the model picks the fastest */
    double loss;         /* max over families of T'(choice) / min T' */
    long loss_family;    /* the family of that loss */
} cost_portability;

/* Programs are numbered 0 .. start[nfamilies) - 1; family f is the programs
 * start[f] .. start[f+1) - 1 (start has nfamilies + 1 entries, ascending, and
 * a family has at least one program). model[i] is T_i (NaN when the model
 * cannot predict program i), real[i] is T'_i. Fills *out as the header says,
 * counting only the families f with left_out[f] == 0 (left_out NULL: every
 * family); the indices in *out are the programs' and families' own. */
void cost_portability_estimate(const double *model, const double *real, const size_t *start,
                               size_t nfamilies, const unsigned char *left_out,
                               cost_portability *out);

/* The model's choice in family f: the first program with the smallest model
 * time; -1 when a variant has no finite positive prediction. */
long cost_portability_choice(const double *model, const size_t *start, size_t f);

/* The program of family f with the smallest measured time (the first of equals). */
size_t cost_portability_fastest(const double *real, const size_t *start, size_t f);

#endif
