/* check_machine FILE PROCS [ABSENT...] — a machine file as `polybsp probe` must write it.
 *
 * Reads FILE with cost_machine_read (which validates the format) and checks what
 * a probe run promises: the engine (PROBE_ENGINE, default threads), the P values of PROCS
 * (comma-separated), oversubscribed exactly when one of them exceeds the cores, g > 0 and L finite,
 * a by_procs line for each P (its start >= 0, 0 on smpi), every pattern of the P within the cores
 * (of all P when none is) fitted for bsp_put and bsp_hpput with positive times and finite errors
 * (OneToAll, AllToOne and AllToAll only when one of those P is 4 or more: the paper's H_Π), table
 * 11, BSP*, the rate and the page-fault costs (none on smpi), the slowest and fastest process's
 * rate around it (none on smpi or for one process); the D-BSP levels of every P, or of
 * PROBE_DBSP_PROCS alone (level i has clusters of
 * ceil(P / 2^i), for i = 0 .. ceil(log2 P), level 0 the whole machine, the last of clusters of one
 * with g = 0; every other with its partition and rejoin times > 0), each in dbsp.by_procs, the
 * largest P's also in dbsp.levels; the CCM section with every collective, partition and rejoin,
 * each with a, b, c >= 0 (and c_above
 * >= 0 above a break h_break > 0 when there are two pieces), over all P and for each P alone. A
 * pattern or level or P named in ABSENT ("hpput.exchange", "dbsp.1", "P4") may be missing: the
 * probe leaves out a fit that noise tilted to g <= 0, and says so. Exit status 0, or 1 after naming
 * every failed check.
 */
#include "cost/cost_machine.h"

#include "unit.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int is_listed(const char *name, char **absent, int nabsent)
{
    for (int i = 0; i < nabsent; i++)
        if (strcmp(absent[i], name) == 0)
            return 1;
    return 0;
}

static int listed(const char *prim, int pat, char **absent, int nabsent)
{
    char name[64];
    snprintf(name, sizeof name, "%s.%s", prim, cost_pattern_name((cost_pattern)pat));
    return is_listed(name, absent, nabsent);
}

static void check_levels(const cost_level *levels, size_t nlevels, int P, char **absent,
                         int nabsent)
{
    size_t k = 0;
    for (int i = 0, cluster = P; i == 0 || cluster > 1; i++) {
        cluster = (P + (1 << i) - 1) >> i;
        char name[32];
        snprintf(name, sizeof name, "dbsp.%d", i);
        if ((k == nlevels || levels[k].level != i) && is_listed(name, absent, nabsent))
            continue;
        CHECK(k < nlevels);
        if (k == nlevels)
            return;
        const cost_level *l = &levels[k++];
        CHECK(l->level == i);
        CHECK(l->cluster == cluster);
        CHECK((cluster == 1 ? l->g == 0 : l->g > 0) && isfinite(l->g) && isfinite(l->L));
        /* A level that divides has the probe's partition and rejoin times. */
        CHECK(cluster == 1 ? l->partition == 0 && l->rejoin == 0
                           : l->partition > 0 && l->rejoin > 0);
    }
    CHECK(k == nlevels);
}

/* dbsp.by_procs: the levels of P_dbsp alone when given, else of every P
 * measured; the file's levels are the last of them. */
static void check_levels_by_procs(const cost_machine *m, int P_dbsp, char **absent, int nabsent)
{
    int want[COST_MAX_PROCS], n = 0;
    if (P_dbsp > 0)
        want[n++] = P_dbsp;
    for (size_t i = 0; P_dbsp == 0 && i < m->nprocs; i++)
        want[n++] = m->procs[i];
    CHECK(m->nlevels_procs == (size_t)n);
    for (int i = 0; i < n && (size_t)i < m->nlevels_procs; i++) {
        const cost_levels_procs *set = &m->levels_by_procs[i];
        CHECK(set->procs == want[i] && set->oversubscribed == (want[i] > m->cores));
        check_levels(set->levels, set->nlevels, want[i], absent, nabsent);
    }
    CHECK(m->levels_procs == want[n - 1]);
    check_levels(m->levels, m->nlevels, want[n - 1], absent, nabsent);
}

static void check_fn(const cost_ccm_fn *f)
{
    CHECK(f->a >= 0 && isfinite(f->a) && f->b >= 0 && isfinite(f->b));
    CHECK(f->c >= 0 && isfinite(f->c) && f->c_above >= 0 && isfinite(f->c_above));
    CHECK(f->h_break >= 0 && isfinite(f->h_break));
}

static void check_ccm(const cost_machine *m)
{
    /* bcast is bsp_bcast's own choice, bcast.ALG each bsp_bcast_with algorithm. */
    static const char *const kinds[] = {
        "bcast",     "bcast.direct", "bcast.binomial", "bcast.twophase", "bcast.rootp", "reduce",
        "allreduce", "scan",         "gather",         "allgather",      "scatter",     "alltoall",
        "alltoallv", "par",          "hrel.exchange",  "hrel.pingpong"};
    /* The other patterns need three processes: at P = 2 a one-to-all is a
     * ping-pong, an all-to-all an exchange. */
    static const char *const wide[] = {"hrel.onetoall", "hrel.alltoone", "hrel.alltoall"};
    enum { NKINDS = sizeof kinds / sizeof kinds[0], NWIDE = sizeof wide / sizeof wide[0] };
    int any_wide = 0;
    for (size_t k = 0; k < m->nccm_procs; k++)
        any_wide |= m->ccm_procs[k].procs >= 3;
    CHECK(m->has_ccm);
    CHECK(m->ncoll == NKINDS + (any_wide ? NWIDE : 0));
    for (size_t i = 0; i < NWIDE; i++)
        CHECK((cost_machine_collective(m, wide[i]) != NULL) == any_wide);
    for (size_t i = 0; i < NKINDS; i++) {
        const cost_ccm_fn *f = cost_machine_collective(m, kinds[i]);
        CHECK(f != NULL);
        if (f != NULL)
            check_fn(f);
        else
            fprintf(stderr, "  (no cost function for %s)\n", kinds[i]);
    }
    check_fn(&m->partition);
    check_fn(&m->rejoin);
    /* Every P of the file was also fitted alone (ccm.by_procs, P increasing),
     * with every kind, partition and rejoin, b folded into a. */
    for (size_t n = 0; n < m->nprocs; n++) {
        size_t k = 0;
        while (k < m->nccm_procs && m->ccm_procs[k].procs != m->procs[n])
            k++;
        CHECK(k < m->nccm_procs);
    }
    for (size_t k = 0; k < m->nccm_procs; k++) {
        const cost_ccm_procs *p = &m->ccm_procs[k];
        CHECK(k == 0 || p->procs > p[-1].procs);
        CHECK(p->oversubscribed == (p->procs > m->cores));
        CHECK(p->ncoll == NKINDS + (p->procs >= 3 ? NWIDE : 0) + 2);
        for (size_t i = 0; i < p->ncoll; i++) {
            check_fn(&p->coll[i].f);
            CHECK(p->coll[i].f.b == 0);
        }
    }
}

/* Whether the file's patterns (those of the P within the cores, or of all P when
 * none is) include pattern pat: OneToAll, AllToOne and AllToAll are measured at
 * P >= 4 only, when there is such a P. */
static int expected(const cost_machine *m, int pat, int most)
{
    int any_in = 0;
    for (size_t i = 0; i < m->nprocs; i++)
        any_in |= m->procs[i] <= m->cores;
    for (size_t i = 0; i < m->nprocs; i++)
        if ((!any_in || m->procs[i] <= m->cores) &&
            (pat == COST_EXCHANGE || pat == COST_PINGPONG || m->procs[i] >= 4 || most < 4))
            return 1;
    return 0;
}

/* One BSP line per P, flagged oversubscribed above the cores, with the start
 * (none on smpi); a P named in ABSENT ("P4") may lack its line. */
static void check_byprocs(const cost_machine *m, char **absent, int nabsent)
{
    size_t k = 0;
    for (size_t i = 0; i < m->nprocs; i++) {
        char name[32];
        snprintf(name, sizeof name, "P%d", m->procs[i]);
        const cost_procs_fit *f = cost_machine_procs_fit(m, m->procs[i]);
        if (f == NULL && is_listed(name, absent, nabsent))
            continue;
        CHECK(f != NULL && f == &m->byprocs[k]);
        if (f == NULL)
            continue;
        k++;
        CHECK(f->oversubscribed == (f->procs > m->cores));
        CHECK(f->g > 0 && isfinite(f->g) && isfinite(f->L));
        /* How late P processes start on the run's clock; none on a simulator. */
        CHECK(strcmp(m->engine, "smpi") == 0 ? f->start == 0 : f->start >= 0 && isfinite(f->start));
    }
    CHECK(k == m->nbyprocs);
}

static void check_patterns(const cost_machine *m, const char *prim, const cost_pattern_fit *fits,
                           int most, char **absent, int nabsent)
{
    for (int pat = 0; pat < COST_NPATTERNS; pat++) {
        const cost_pattern_fit *f = &fits[pat];
        if (!expected(m, pat, most)) {
            CHECK(!f->measured);
            continue;
        }
        if (!f->measured && listed(prim, pat, absent, nabsent))
            continue;
        CHECK(f->measured);
        CHECK(isfinite(f->g) && isfinite(f->L));
        CHECK(f->nsizes >= 2);
        /* Every measured pattern has a point per size of table 11. */
        CHECK(f->nsizes == m->nsizes);
        for (size_t k = 0; k < f->nsizes; k++) {
            CHECK(f->h[k] > 0 && (k == 0 || f->h[k] > f->h[k - 1]));
            CHECK(f->time[k] > 0 && isfinite(f->time[k]));
            CHECK(f->maxerr[k] >= 0 && isfinite(f->maxerr[k]));
        }
    }
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: check_machine FILE PROCS [ABSENT...]\n");
        return 2;
    }
    cost_machine m;
    char err[512];
    if (cost_machine_read(argv[1], &m, err, sizeof err) != 0) {
        fprintf(stderr, "FAIL: %s\n", err);
        return 1;
    }
    CHECK(m.version == COST_MACHINE_VERSION);
    const char *engine = getenv("PROBE_ENGINE");
    CHECK(strcmp(m.engine, engine && *engine ? engine : "threads") == 0);
    CHECK(m.host[0] != '\0' && m.date[0] != '\0');
    CHECK(m.cores >= 1);
    size_t n = 0;
    int most = 0;
    for (char *p = argv[2], *end; *p != '\0'; p = *end ? end + 1 : end, n++) {
        long P = strtol(p, &end, 10);
        CHECK(n < m.nprocs && m.procs[n] == P);
        most = P > most ? (int)P : most;
    }
    CHECK(m.nprocs == n);
    CHECK(m.oversubscribed == (most > m.cores));
    CHECK(m.g > 0 && isfinite(m.g));
    CHECK(isfinite(m.L));
    check_patterns(&m, "put", m.put, most, argv + 3, argc - 3);
    check_patterns(&m, "hpput", m.hpput, most, argv + 3, argc - 3);
    check_byprocs(&m, argv + 3, argc - 3);
    CHECK(m.nsizes >= 2);
    for (size_t k = 0; k < m.nsizes; k++) {
        CHECK(m.t11_averr[k] >= 0 && isfinite(m.t11_averr[k]));
        CHECK(m.t11_maxerr[k] >= m.t11_averr[k] * (1 - 1e-9) && isfinite(m.t11_maxerr[k]));
    }
    CHECK(m.gstar > 0 && isfinite(m.gstar));
    CHECK(m.B >= 0 && isfinite(m.B));
    for (int k = 0; k < CORE_OPS_KINDS; k++) /* flops, compares, words */
        CHECK(m.rate[k] > 0 && isfinite(m.rate[k]));
    if (strcmp(m.engine, "smpi") != 0) /* a simulated probe has no page faults */
        CHECK(m.fault_touch[0] > 0 && isfinite(m.fault_touch[0]) && m.fault_touch[1] > 0 &&
              isfinite(m.fault_touch[1]));
    else
        CHECK(m.fault_touch[0] == 0 && m.fault_touch[1] == 0);
    CHECK(m.spread >= 0 && isfinite(m.spread));
    /* rate_spread: the slowest and fastest of the processes that measured the
     * rate at once (the largest P within the cores), bracketing their mean;
     * none on a simulator or for one process. */
    int rate_P = m.procs[0];
    for (size_t i = 0; i < m.nprocs; i++)
        rate_P = m.procs[i] <= m.cores ? m.procs[i] : rate_P;
    if (strcmp(m.engine, "smpi") != 0 && rate_P >= 2)
        CHECKF(m.rate_least > 0 && m.rate_least <= m.rate[0] * (1 + 1e-9) &&
                   m.rate[0] <= m.rate_most * (1 + 1e-9),
               "rate_spread %g .. %g around r = %g", m.rate_least, m.rate_most, m.rate[0]);
    else
        CHECK(m.rate_least == 0 && m.rate_most == 0);
    const char *dbsp = getenv("PROBE_DBSP_PROCS");
    check_levels_by_procs(&m, dbsp && *dbsp ? atoi(dbsp) : 0, argv + 3, argc - 3);
    check_ccm(&m);
    if (failures) {
        fprintf(stderr, "%s: %d failures\n", argv[1], failures);
        return 1;
    }
    printf("check_machine: %s OK\n", argv[1]);
    return 0;
}
