/* probe_print — the paper's tables on a terminal (contract in probe_analyse.h).
 *
 * The paper's tables have one column group per architecture; here the groups are
 * the two ways of putting data, bsp_put (buffered) and bsp_hpput (unbuffered), on
 * this one machine. Numbers are printed as the paper does (MaxErr to 2 decimals,
 * L and g in E notation), times in E notation since they reach microseconds.
 */
#include "probe/probe_analyse.h"
#include "probe/probe_ccm.h"
#include "probe/probe_levels.h"

#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

static const char *const long_name[COST_NPATTERNS] = {"Exchange", "PingPong", "OneToAll",
                                                      "AllToOne", "AllToAll"};
static const char *const short_name[COST_NPATTERNS] = {"E", "PP", "OA", "AO", "AA"};
static const char *const prim_name[PROBE_NPRIMS] = {"bsp_put", "bsp_hpput"};

/* A table row is assembled in columns of fixed width, then printed without the
 * padding its last column leaves at the end. */
typedef struct row {
    char text[512];
    size_t n;
} row;

static void add(row *r, const char *format, ...) __attribute__((format(printf, 2, 3)));
static void add(row *r, const char *format, ...)
{
    va_list ap;
    va_start(ap, format);
    int n = vsnprintf(r->text + r->n, sizeof r->text - r->n, format, ap);
    va_end(ap);
    if (n > 0)
        r->n = r->n + (size_t)n < sizeof r->text ? r->n + (size_t)n : sizeof r->text - 1;
}

static void end_row(FILE *f, row *r)
{
    while (r->n > 0 && r->text[r->n - 1] == ' ')
        r->n--;
    fprintf(f, "%.*s\n", (int)r->n, r->text);
    r->n = 0;
}

/* A percentage in at most 8 characters: on a busy machine the spread reaches millions. */
static const char *percent(char buf[16], double v)
{
    snprintf(buf, 16, fabs(v) < 1e5 ? "%.2f" : "%.2E", v);
    return buf;
}

/* "P in {4, 6, 8} (oversubscribed)": which P a table's numbers come from. */
static void add_group(row *r, const probe_group *g, int cores, const char *what)
{
    add(r, "%s", what);
    for (size_t p = 0; p < g->nprocs; p++)
        add(r, "%s%d", p ? ", " : "{", g->procs[p]);
    if (g->over)
        add(r, "} (oversubscribed: more than the %d cores)", cores);
    else
        add(r, "} (within the %d cores)", cores);
}

static void pattern_tables(FILE *f, const probe_data *d, const probe_group *g, int pat)
{
    const cost_pattern_fit *fit[PROBE_NPRIMS] = {&g->fit[PROBE_PUT][pat],
                                                 &g->fit[PROBE_HPPUT][pat]};
    row r = {.n = 0};
    fprintf(f, "Table %s.1  The %s pattern, ", short_name[pat], long_name[pat]);
    add_group(&r, g, d->cores, "P in ");
    end_row(f, &r);
    if (!fit[PROBE_PUT]->measured) {
        fprintf(f, "  not measured: H_%s is P >= 4 (paper 000, section 3)\n\n", short_name[pat]);
        return;
    }
    fprintf(f,
            "  Time: average seconds at P = %d, Median beside; MaxErr: %% over the P of H_%s;\n"
            "  Spread: IQR / median at P = %d, %%\n\n",
            g->top[pat], short_name[pat], g->top[pat]);
    add(&r, "%-12s", long_name[pat]);
    for (int prim = 0; prim < PROBE_NPRIMS; prim++)
        add(&r, "  %-40s", prim_name[prim]);
    end_row(f, &r);
    add(&r, "%-12s", "h-relation");
    for (int prim = 0; prim < PROBE_NPRIMS; prim++)
        add(&r, "  %-11s %-11s %8s %8s", "Time", "Median", "MaxErr", "Spread");
    end_row(f, &r);
    for (size_t k = 0; k < d->nsizes; k++) {
        add(&r, "%-12.0f", fit[0]->h[k]);
        for (int prim = 0; prim < PROBE_NPRIMS; prim++) {
            char e[16], sp[16];
            add(&r, "  %-11.3E %-11.3E %8s %8s", fit[prim]->time[k], g->median[prim][pat][k],
                percent(e, fit[prim]->maxerr[k]), percent(sp, g->spread[prim][pat][k]));
        }
        end_row(f, &r);
    }
    fprintf(f, "\nTable %s.2  Values of g_%s and L_%s (seconds per byte, seconds)\n\n",
            short_name[pat], short_name[pat], short_name[pat]);
    add(&r, "%-12s", "");
    for (int prim = 0; prim < PROBE_NPRIMS; prim++)
        add(&r, "  %-14s", prim_name[prim]);
    end_row(f, &r);
    add(&r, "L_%-10s", short_name[pat]);
    for (int prim = 0; prim < PROBE_NPRIMS; prim++)
        add(&r, "  %-14.4E", fit[prim]->L);
    end_row(f, &r);
    add(&r, "g_%-10s", short_name[pat]);
    for (int prim = 0; prim < PROBE_NPRIMS; prim++)
        add(&r, "  %-14.4E", fit[prim]->g);
    end_row(f, &r);
    fprintf(f, "\n");
}

/* One row of table 12: a label and a number per primitive. */
static void overall_row(FILE *f, row *r, const char *label, const probe_group *g, size_t offset,
                        int is_percent)
{
    add(r, "%-32s", label);
    for (int prim = 0; prim < PROBE_NPRIMS; prim++) {
        double v = *(const double *)((const char *)&g->overall[prim] + offset);
        char res[16];
        if (is_percent)
            add(r, "  %-14s", percent(res, v));
        else
            add(r, "  %-14.4E", v);
    }
    end_row(f, r);
}

static void overall_tables(FILE *f, const probe_data *d, const probe_summary *s,
                           const probe_group *g)
{
    row r = {.n = 0};
    fprintf(f, "Table 11  AvErr and MaxErr across the patterns, %% (against table 12), ");
    add_group(&r, g, d->cores, "P in ");
    end_row(f, &r);
    if (!s->m.h_sum)
        fprintf(f, "  rows give h with @ = sum; each pattern is compared at its h with @ = max\n");
    fprintf(f, "\n");
    add(&r, "%-12s", "");
    for (int prim = 0; prim < PROBE_NPRIMS; prim++)
        add(&r, "  %-17s", prim_name[prim]);
    end_row(f, &r);
    add(&r, "%-12s", "h-relation");
    for (int prim = 0; prim < PROBE_NPRIMS; prim++)
        add(&r, "  %-8s %-8s", "AvErr", "MaxErr");
    end_row(f, &r);
    for (size_t k = 0; k < d->nsizes; k++) {
        add(&r, "%-12ld", d->sizes[k]);
        for (int prim = 0; prim < PROBE_NPRIMS; prim++) {
            char av[16], mx[16];
            add(&r, "  %-8s %-8s", percent(av, g->overall[prim].averr[k]),
                percent(mx, g->overall[prim].maxerr[k]));
        }
        end_row(f, &r);
    }
    fprintf(f, "\nTable 12  The values of g and L (least squares of T_average(h), @ = %s), ",
            s->m.h_sum ? "sum" : "max");
    add_group(&r, g, d->cores, "P in ");
    end_row(f, &r);
    fprintf(f,
            "  then the relative fit (least squares of ln(line / time)) through the same cells'\n"
            "  medians and the empty superstep's, whose residual chooses @\n\n");
    add(&r, "%-32s", "");
    for (int prim = 0; prim < PROBE_NPRIMS; prim++)
        add(&r, "  %-14s", prim_name[prim]);
    end_row(f, &r);
    overall_row(f, &r, "L", g, offsetof(probe_overall, L), 0);
    overall_row(f, &r, "g", g, offsetof(probe_overall, g), 0);
    if (g == &s->group[s->first]) {
        overall_row(f, &r, "rel. residual, @ = max, %", g, offsetof(probe_overall, residual[0]), 1);
        overall_row(f, &r, "rel. residual, @ = sum, %", g, offsetof(probe_overall, residual[1]), 1);
    }
    overall_row(f, &r, "empty superstep, median", g, offsetof(probe_overall, empty), 0);
    overall_row(f, &r, "L, relative fit", g, offsetof(probe_overall, rel_L), 0);
    overall_row(f, &r, "g, relative fit", g, offsetof(probe_overall, rel_g), 0);
    fprintf(f, "\n");
}

/* Each P alone: what the machine file's by_procs holds. */
static void procs_table(FILE *f, const probe_data *d, const probe_summary *s)
{
    row r = {.n = 0};
    fprintf(f, "Table 12 by P  bsp_put at each P alone (the machine file's by_procs: predict\n"
               "  uses the relative line of the trace's P)\n\n");
    add(&r, "%-16s  %-11s %-11s %-11s %-11s %-11s", "P", "empty", "L", "g", "L relative",
        "g relative");
    end_row(f, &r);
    for (size_t p = 0; p < d->nprocs; p++) {
        const probe_pfit *x = &s->pfit[p];
        char name[32];
        snprintf(name, sizeof name, "%d%s", x->P, x->over ? " (oversub.)" : "");
        add(&r, "%-16s  %-11.3E %-11.3E %-11.3E %-11.3E %-11.3E", name, x->empty, x->L, x->g,
            x->rel_L, x->rel_g);
        end_row(f, &r);
    }
    fprintf(f, "\n");
}

void probe_print(FILE *f, const probe_data *d, const probe_summary *s)
{
    for (int over = 0; over < 2; over++) {
        const probe_group *g = &s->group[over];
        if (!g->present)
            continue;
        for (int pat = 0; pat < COST_NPATTERNS; pat++)
            pattern_tables(f, d, g, pat);
        overall_tables(f, d, s, g);
    }
    procs_table(f, d, s);
}

void probe_print_summary(FILE *f, const probe_data *d, const probe_summary *s)
{
    const cost_machine *m = &s->m;
    fprintf(
        f,
        "h operator  @ = %s (the lower bsp_put relative residual of table 12); the machine file\n"
        "            keeps bsp_put's g and L, and both primitives' patterns\n",
        m->h_sum ? "sum" : "max");
    int most = 1;
    for (size_t c = d->ncells - s->bspstar_cells; c < d->ncells; c++)
        most = d->cells[c].split > most ? d->cells[c].split : most;
    if (s->bspstar_fitted)
        fprintf(f,
                "BSP*        g* = %.4E s/byte, B = %.0f bytes (plane over %zu Exchange cells,\n"
                "            each byte count sent as 1 to %d messages)\n",
                m->gstar, m->B, s->bspstar_cells, most);
    else
        fprintf(f,
                "BSP*        no usable plane over %zu cells (timings too noisy); g* = g, B = 0\n",
                s->bspstar_cells);
    if (m->rate[0] > 0)
        fprintf(f, "rate        r = %.4E flop/s (DAXPY on 1024 doubles, %s)\n", m->rate[0],
                strcmp(m->engine, "smpi") == 0 ? "one simulated core" : "mean over the processes");
    if (m->rate_least > 0)
        fprintf(f, "            the slowest process %.4E, the fastest %.4E flop/s\n", m->rate_least,
                m->rate_most);
    double apart = cost_cores_apart(m->rate_least, m->rate_most);
    if (apart > 0)
        fprintf(f,
                "warning     the processes computed %.1fx apart at once: cores of unequal speed "
                "(docs/probe.md, \"Cores of unequal speed\")\n",
                apart);
    if (m->rate[1] > 0 && m->rate[2] > 0)
        fprintf(f,
                "            %.4E compares/s (binary searches in 256 KiB), %.4E words/s (shuffled "
                "gathers of 256 KiB)\n",
                m->rate[1], m->rate[2]);
    else
        fputs("rate        not measurable: computation takes no time on this clock (left out of "
              "the machine file)\n",
              f);
    if (m->fault_touch[0] > 0 && m->fault_touch[1] > 0)
        fprintf(f,
                "page fault  %.4E s on the first write to a fresh page, %.4E s to a page read "
                "before\n            (all processes at once, mean over them)\n",
                m->fault_touch[0], m->fault_touch[1]);
    if (m->nbyprocs > 0) {
        fputs("registration a sync that puts registrations into effect:", f);
        for (size_t i = 0; i < m->nbyprocs; i++)
            fprintf(f, "%s +%.4E s at P = %d", i > 0 ? "," : "", m->byprocs[i].reg,
                    m->byprocs[i].procs);
        fputs("\n            (beyond an empty superstep; models.md)\n", f);
    }
    fprintf(f, "noise       median spread %.2f %% (interquartile range / median per cell)\n",
            m->spread);
    char note[512];
    if (cost_patterns_note(m, note, sizeof note))
        fprintf(f, "note        %s\n", note);
}

static void add_oversubscribed(row *r, int P, int cores)
{
    add(r, "%d%s", P, P > cores ? " (oversubscribed)" : "");
}

void probe_print_levels(FILE *f, const probe_levels *lv, int cores)
{
    row r = {.n = 0};
    add(&r, "Table D-BSP  Levels of P = ");
    add_oversubscribed(&r, lv->nprocs, cores);
    add(&r, ": an Exchange across the halves of every i-cluster at once");
    end_row(f, &r);
    fprintf(f,
            "  Time: median seconds of the slowest cluster; Spread: IQR / median, %%; h with @ = "
            "%s\n\n",
            lv->h_sum ? "sum" : "max");
    add(&r, "%-12s", "level");
    for (size_t i = 0; i < lv->nlevels; i++)
        add(&r, "  %-20zu", i);
    end_row(f, &r);
    add(&r, "%-12s", "cluster");
    for (size_t i = 0; i < lv->nlevels; i++)
        add(&r, "  %-20d", lv->cluster[i]);
    end_row(f, &r);
    add(&r, "%-12s", "h-relation");
    for (size_t i = 0; i < lv->nlevels; i++)
        add(&r, "  %-11s %8s", "Time", "Spread");
    end_row(f, &r);
    for (size_t k = 0; k < lv->nsizes; k++) {
        add(&r, "%-12.0f", lv->h[k]);
        for (size_t i = 0; i < lv->nlevels; i++) {
            char sp[16];
            add(&r, "  %-11.3E %8s", lv->stat[i][k].median, percent(sp, lv->stat[i][k].spread));
        }
        end_row(f, &r);
    }
    fprintf(f, "\n");
    static const char *const label[3] = {"L_i", "g_i", "residual, %"};
    for (int row_kind = 0; row_kind < 3; row_kind++) {
        add(&r, "%-12s", label[row_kind]);
        for (size_t i = 0; i < lv->nlevels; i++) {
            char res[16];
            if (row_kind == 2)
                add(&r, "  %-20s", percent(res, lv->residual[i]));
            else
                add(&r, "  %-20.4E", row_kind == 0 ? lv->L[i] : lv->g[i]);
        }
        end_row(f, &r);
    }
    /* The division of each level's clusters and the rejoin into them (the
     * last level's, of single processes, never divides). */
    const probe_stat *division[2] = {lv->part, lv->rejoin};
    static const char *const division_label[2] = {"partition", "rejoin"};
    for (int kind = 0; kind < 2; kind++) {
        add(&r, "%-12s", division_label[kind]);
        for (size_t i = 0; i < lv->nlevels; i++) {
            if (division[kind][i].n > 0)
                add(&r, "  %-20.4E", division[kind][i].median);
            else
                add(&r, "  %-20s", "-");
        }
        end_row(f, &r);
    }
    fprintf(f, "\n");
    for (size_t i = 0; i < lv->nlevels; i++)
        if (!(lv->g[i] > 0) && lv->cluster[i] > 1)
            fprintf(f,
                    "note        D-BSP level %zu of P = %d: g <= 0 (noise dominates), left out of "
                    "the file\n",
                    i, lv->nprocs);
    int bad = cost_levels_inverted(lv->L, lv->nlevels);
    if (bad > 0)
        fprintf(f,
                "warning     D-BSP levels of P = %d contradict their hierarchy: level %d's L = "
                "%.3g s is %.1fx level 0's (smaller clusters synchronise no slower)%s\n",
                lv->nprocs, bad, lv->L[bad], lv->L[bad] / lv->L[0],
                lv->nprocs > cores ? ": fitted beyond the cores" : ": probe again when quieter");
}

void probe_print_ccm(FILE *f, const probe_ccm *c, int cores)
{
    row r = {.n = 0};
    if (c->failed[0] != '\0') {
        fprintf(f,
                "Table CCM  not measured\n\nnote        CCM: %s; the machine file has no ccm "
                "section\n\n",
                c->failed);
        return;
    }
    fprintf(f, "Table CCM  T(P, h) = a + b*ceil(log2 P) + c*h per kind, linear by pieces in h:\n");
    fprintf(f, "  above the break h_b, c_above*(h - h_b) replaces c*(h - h_b); a, b, c >= 0,\n");
    add(&r, "  least squares of relative errors over P in {");
    for (size_t p = 0; p < c->nprocs; p++) {
        add(&r, "%s", p ? ", " : "");
        add_oversubscribed(&r, c->procs[p], cores);
    }
    add(&r, "} and n = ");
    for (size_t k = 0; k < c->nsizes; k++)
        add(&r, "%s%ld", k ? ", " : "", c->sizes[k]);
    add(&r, " bytes per process");
    end_row(f, &r);
    fprintf(f,
            "  through the median time of each (P, h); Resid: mean |median - T| / median, %%\n\n");
    add(&r, "%-14s  %-11s %-11s %-11s %-9s %-11s %6s %7s %6s", "kind", "a (s)", "b (s/round)",
        "c (s/byte)", "h_b", "c_above", "points", "samples", "Resid");
    end_row(f, &r);
    for (int k = 0; k < PROBE_CCM_NKINDS; k++) {
        const probe_ccm_kind *x = &c->kinds[k];
        if (!x->fitted) {
            add(&r, "%-14s  no samples", x->kind);
        } else {
            char res[16], hb[16] = "-", above[16] = "-";
            if (x->f.h_break > 0) {
                snprintf(hb, sizeof hb, "%.0f", x->f.h_break);
                snprintf(above, sizeof above, "%.4E", x->f.c_above);
            }
            add(&r, "%-14s  %-11.4E %-11.4E %-11.4E %-9s %-11s %6zu %7zu %6s", x->kind, x->f.a,
                x->f.b, x->f.c, hb, above, x->points, x->samples, percent(res, x->residual));
        }
        end_row(f, &r);
    }
    if (c->nby > 0) {
        add(&r, "\nby P        each P fitted alone (what predict uses for a group of that P), mean "
                "Resid:");
        end_row(f, &r);
        add(&r, "           ");
        for (size_t p = 0; p < c->nby; p++) {
            add(&r, " P = ");
            add_oversubscribed(&r, c->by_procs[p], cores);
            add(&r, " %.2f %%%s", c->by_residual[p], p + 1 < c->nby ? "," : "");
        }
        end_row(f, &r);
    }
    fprintf(f, "\n");
}
