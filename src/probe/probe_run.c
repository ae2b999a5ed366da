/* probe_run — plan the measurements within the budget, run them, report (contract in probe.h). */
#include "core/core_rate.h"
#include "cost/cost_fit.h"
#include "probe/probe.h"

#include "probe/probe_analyse.h"
#include "probe/probe_ccm.h"
#include "probe/probe_levels.h"
#include "probe/probe_measure.h"
#include "probe/probe_raw.h"
#include "probe/probe_reg.h"

#include <polybsp.h>

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* The paper's: the empty superstep, measured apart, gives the small end. */
const long probe_default_sizes[] = {6720, 26880, 107520, 430080, 1720320};
const size_t probe_default_nsizes = sizeof probe_default_sizes / sizeof probe_default_sizes[0];
/* Few sizes, but far apart: the slope must show even on a machine busy with other
 * work, where every superstep may wait a scheduler time slice. */
const long probe_quick_sizes[] = {64, 1720320, 6881280};
const size_t probe_quick_nsizes = sizeof probe_quick_sizes / sizeof probe_quick_sizes[0];

/* How hard to look. The paper ran 500 experiments per cell; by default at most
 * PROBE_DEFAULT_EXPERIMENTS (--experiments changes the cap).
 * The D-BSP levels and the CCM collectives come after the patterns, in what the
 * patterns left of the budget (they may use at most pattern_share of it). */
typedef struct tuning {
    int pilot_reps, min_reps, max_reps, rounds;
    double rate_seconds; /* at most; and at most 2.5 % of the budget */
    size_t nstar_totals, nstar_splits;
    long star_totals[3];                /* BSP*: bytes each process of a pair sends ... */
    int star_splits[6];                 /* ... as this many messages */
    double pattern_share, levels_share; /* of the budget; of what the patterns left */
    probe_rounds levels, ccm;           /* deadlines set when they run */
    size_t nccm_sizes;
    long ccm_sizes[5];
    int reg_reps; /* registration supersteps per round of probe_reg */
} tuning;

static const tuning full = {.pilot_reps = 4,
                            .min_reps = 5,
                            .max_reps = PROBE_DEFAULT_EXPERIMENTS,
                            .rounds = 5,
                            .rate_seconds = 1.0,
                            .nstar_totals = 3,
                            .nstar_splits = 6,
                            .star_totals = {4096, 65536, 1048576},
                            .star_splits = {1, 4, 16, 64, 256, 1024},
                            .pattern_share = 0.5,
                            .levels_share = 0.3,
                            .levels = {.min_reps = 5, .max_reps = 500, .rounds = 5},
                            .ccm = {.min_reps = 3, .max_reps = 100, .rounds = 3},
                            .nccm_sizes = 5,
                            .ccm_sizes = {8, 4096, 65536, 262144, 1048576},
                            .reg_reps = 20};
static const tuning quick = {.pilot_reps = 2,
                             .min_reps = 5,
                             .max_reps = 41,
                             .rounds = 2,
                             .rate_seconds = 0.05,
                             .nstar_totals = 2,
                             .nstar_splits = 3,
                             .star_totals = {4096, 1048576},
                             .star_splits = {1, 16, 256},
                             .pattern_share = 0.5,
                             .levels_share = 0.3,
                             .levels = {.min_reps = 3, .max_reps = 6, .rounds = 2},
                             .ccm = {.min_reps = 2, .max_reps = 3, .rounds = 2},
                             .nccm_sizes = 3,
                             .ccm_sizes = {8, 65536, 1048576},
                             .reg_reps = 8};

/* On a simulated platform the network's times are the simulator's and repeat
 * exactly; only the engine's own copies, which SMPI times on this machine, vary.
 * A few samples per cell tell all, and the budget, in simulated seconds, says
 * nothing of the simulator's own time (one simulated millisecond of P = 64
 * exchanging can take seconds): the counts are fixed instead (--experiments
 * raises them). */
static tuning simulated_tuning(const tuning *base)
{
    tuning t = *base;
    t.pilot_reps = 2;
    t.min_reps = 3;
    t.max_reps = 3;
    t.rounds = 1;
    t.levels = (probe_rounds){.min_reps = 3, .max_reps = 3, .rounds = 1};
    t.ccm = (probe_rounds){.min_reps = 2, .max_reps = 2, .rounds = 1};
    return t;
}

typedef struct run {
    const probe_options *o;
    const tuning *t;
    struct timespec start;
    double expected; /* seconds the whole run should take, for the progress fraction */
    double later;    /* seconds the phases after the current one may take */
    char phase[64];
    /* On a simulator the clock is simulated and the budget says nothing of the
     * wait: progress counts phases instead, each weighted by what it costs the
     * simulator (about P² messages a pattern section, P a level or collective). */
    double sim_done, sim_step, sim_total;
    uint64_t random;
    /* The clock (core_rate.h) read at the start of each phase: the machine
     * file's trace_clock is their median, not one reading, since a reading
     * keeps the state of the moment it was taken (on the 16-core machine of
     * validation.md one probe's read 6.1e8 where its traces read 7.2-8.2e8). */
    double clocks[32];
    size_t nclocks;
} run;

static double elapsed(const run *r)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - r->start.tv_sec) + 1e-9 * (double)(now.tv_nsec - r->start.tv_nsec);
}

static void tick(void *ctx)
{
    run *r = ctx;
    double done = r->o->simulated ? r->sim_done / r->sim_total : elapsed(r) / r->expected;
    if (r->o->progress)
        r->o->progress(r->o->ctx, fmin(0.99, done), r->phase);
}

/* The simulator's cost of a phase at P, in the units of sim_total. */
static double pattern_weight(int P) { return (double)P * P; }
static double model_weight(int P, size_t n) { return (double)P * (double)n; }

/* The next phase begins: the last one is done. */
static void enter_phase(run *r, double weight, const char *name, int P)
{
    if (r->nclocks < sizeof r->clocks / sizeof r->clocks[0])
        r->clocks[r->nclocks++] = core_clock_measure();
    r->sim_done += r->sim_step;
    r->sim_step = weight;
    if (P > 0)
        snprintf(r->phase, sizeof r->phase, "P = %d: %s", P, name);
    else
        snprintf(r->phase, sizeof r->phase, "%s", name);
}

/* A phase planned the rest of its rounds: the run should end that much later,
 * plus what the later phases may take. */
static void replan(void *ctx, double seconds)
{
    run *r = ctx;
    r->expected = elapsed(r) + seconds + r->later;
}

/* The layout of probe_analyse.h: patterns, the empty superstep, BSP*. */
static size_t build_cells(const probe_options *o, const tuning *t, probe_cell *cells)
{
    size_t n = 0;
    for (int prim = 0; prim < PROBE_NPRIMS; prim++)
        for (int pat = 0; pat < COST_NPATTERNS; pat++)
            for (size_t k = 0; k < o->nsizes; k++)
                cells[n++] = (probe_cell){(probe_prim)prim, (cost_pattern)pat, o->sizes[k], 1};
    cells[n++] = (probe_cell){PROBE_PUT, COST_EXCHANGE, 0, 1};
    for (size_t i = 0; i < t->nstar_totals; i++)
        for (size_t j = 0; j < t->nstar_splits; j++)
            cells[n++] =
                (probe_cell){PROBE_PUT, COST_EXCHANGE, 2 * t->star_totals[i], t->star_splits[j]};
    return n;
}

/* Runs reps[c] samples of each cell c on P processes, in rounds that visit the
 * cells in a new random order each: the first round takes `first` samples of
 * every cell and is never cut short; the deadline may stop the later ones.
 * Summarises each cell's samples into stat, (if wall_per_rep is not NULL)
 * what one sample of it cost at the quickest, and (if keep is not NULL) hands
 * each cell's samples, in the order taken, to keep[c] (stat[c].n of them; the
 * caller frees them). */
static int measure(run *r, int P, const probe_cell *cells, size_t ncells, const int *reps,
                   int rounds, int first, double deadline, probe_stat *stat, double *wall_per_rep,
                   double **keep)
{
    size_t nbatches = 0, total = 0, nprotected = 0;
    probe_batch *batches = malloc(ncells * (size_t)rounds * sizeof *batches);
    size_t *order = malloc(ncells * sizeof *order), *at = malloc(ncells * sizeof *at);
    size_t *filled = calloc(ncells, sizeof *filled);
    for (size_t c = 0; c < ncells; c++)
        total += (size_t)reps[c];
    double *samples = malloc(total * sizeof *samples), *per_cell = malloc(total * sizeof *per_cell);
    double *wall = malloc(ncells * (size_t)rounds * sizeof *wall);
    int rc = batches && order && at && filled && samples && per_cell && wall ? 0 : -1;
    for (int round = 0; round < rounds && rc == 0; round++) {
        for (size_t c = 0; c < ncells; c++)
            order[c] = c;
        probe_shuffle(&r->random, order, ncells);
        for (size_t i = 0; i < ncells; i++) {
            size_t c = order[i];
            int head = rounds == 1 || reps[c] < first ? reps[c] : first, rest = reps[c] - head;
            int n = round == 0 ? head : rest / (rounds - 1) + (round - 1 < rest % (rounds - 1));
            if (n > 0)
                batches[nbatches++] = (probe_batch){c, n};
        }
        if (round == 0)
            nprotected = nbatches;
    }
    if (rc == 0) {
        probe_job job = {.nprocs = P,
                         .cells = cells,
                         .batches = batches,
                         .nbatches = nbatches,
                         .nprotected = nprotected,
                         .deadline = deadline,
                         .samples = samples,
                         .wall = wall,
                         .tick = tick,
                         .ctx = r};
        for (size_t c = 0; c < ncells && wall_per_rep; c++)
            wall_per_rep[c] = reps[c] > 0 ? INFINITY : 0;
        probe_measure_comm(&job);
        size_t start = 0;
        for (size_t c = 0; c < ncells; c++) {
            at[c] = start;
            start += (size_t)reps[c];
        }
        const double *next = samples;
        for (size_t b = 0; b < job.done; b++) {
            size_t c = batches[b].cell;
            for (int k = 0; k < batches[b].reps; k++)
                per_cell[at[c] + filled[c]++] = *next++;
            /* The quickest batch: the first touches caches and pages, and a batch
             * the system interrupted says nothing about the next. */
            if (wall_per_rep)
                wall_per_rep[c] = fmin(wall_per_rep[c], wall[b] / batches[b].reps);
        }
        for (size_t c = 0; c < ncells && keep && rc == 0; c++) {
            keep[c] = malloc((filled[c] ? filled[c] : 1) * sizeof **keep);
            if (keep[c] == NULL)
                rc = -1;
            else if (filled[c] > 0)
                memcpy(keep[c], per_cell + at[c], filled[c] * sizeof **keep);
        }
        for (size_t c = 0; c < ncells; c++)
            probe_stat_of(per_cell + at[c], filled[c], &stat[c]);
    }
    free(batches);
    free(order);
    free(at);
    free(filled);
    free(samples);
    free(per_cell);
    free(wall);
    return rc;
}

static void describe(FILE *out, const probe_options *o, const probe_stat *stat, size_t n,
                     double seconds, int again)
{
    size_t least = SIZE_MAX, most = 0;
    for (size_t i = 0; i < n; i++) {
        if (stat[i].n == 0) /* a pattern outside its H_Π at this P */
            continue;
        least = stat[i].n < least ? stat[i].n : least;
        most = stat[i].n > most ? stat[i].n : most;
    }
    fprintf(out, "polybsp probe: engine %s, %d cores, P = ", bsp_engine_name(), o->cores);
    for (size_t p = 0; p < o->nprocs; p++)
        fprintf(out, "%s%d%s", p ? ", " : "", o->procs[p],
                o->procs[p] > o->cores ? " (oversubscribed)" : "");
    fprintf(out, "\n%zu to %zu samples per cell; %.1f s (budget %g s)", least, most, seconds,
            o->budget);
    if (again > 0)
        fprintf(out, "; the patterns measured %d more time%s (the line was noise)", again,
                again == 1 ? "" : "s");
    fprintf(out, "\n\n");
}

static void fill_identity(cost_machine *m, const probe_options *o)
{
    m->version = COST_MACHINE_VERSION;
    /* A simulated machine is its platform (polybsp-smpirun says which). */
    const char *platform = o->simulated ? getenv("POLYBSP_SMPI_PLATFORM") : NULL;
    if (platform != NULL && platform[0] != '\0')
        snprintf(m->host, sizeof m->host, "%s", platform);
    else if (gethostname(m->host, sizeof m->host - 1) != 0)
        strcpy(m->host, "unknown");
    snprintf(m->engine, sizeof m->engine, "%s", bsp_engine_name());
    time_t now = time(NULL);
    strftime(m->date, sizeof m->date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    m->cores = o->cores;
    m->nprocs = o->nprocs;
    for (size_t p = 0; p < o->nprocs; p++) {
        m->procs[p] = o->procs[p];
        m->oversubscribed |= o->procs[p] > o->cores;
    }
}

/* Writes the machine file with the fits a model can use: g > 0. A pattern or a
 * P whose times hardly grow with h can get a line that noise tilted down; its
 * tables are printed all the same, and it is left out of the file (as not
 * measured: predict then refuses a trace of that P, naming the others). */
static int write_machine(FILE *out, const char *path, const cost_machine *m, char *err,
                         size_t errlen)
{
    if (!(m->g > 0)) {
        snprintf(err, errlen,
                 "the fit gives g = %.4E <= 0: the timings are mostly noise (nothing written; "
                 "try a larger --budget or a quieter machine)",
                 m->g);
        return -1;
    }
    cost_machine usable = *m;
    cost_pattern_fit *fits[PROBE_NPRIMS] = {usable.put, usable.hpput};
    static const char *const prim_name[PROBE_NPRIMS] = {"bsp_put", "bsp_hpput"};
    for (int prim = 0; prim < PROBE_NPRIMS; prim++)
        for (int pat = 0; pat < COST_NPATTERNS; pat++)
            if (fits[prim][pat].measured && !(fits[prim][pat].g > 0)) {
                fits[prim][pat].measured = 0;
                fprintf(out, "note        %s %s: g <= 0 (noise dominates), left out of the file\n",
                        prim_name[prim], cost_pattern_name((cost_pattern)pat));
            }
    size_t kept = 0;
    for (size_t i = 0; i < m->nbyprocs; i++) {
        if (m->byprocs[i].g > 0)
            usable.byprocs[kept++] = m->byprocs[i];
        else
            fprintf(out, "note        P = %d: g <= 0 (noise dominates), left out of by_procs\n",
                    m->byprocs[i].procs);
    }
    usable.nbyprocs = kept;
    if (cost_machine_write(path, &usable, err, errlen) != 0)
        return -1;
    fprintf(out, "machine     written to %s\n", path);
    return 0;
}

/* The rate is measured with every core busy, as programs run: on the most
 * processes that still fit the cores. A simulated core computes alone whatever
 * the others do, and every rank's loop runs on this machine's one core: the
 * first host's rank alone (at P = 64 under smpi/simulate-computation:no, 64
 * capped loops took minutes). */
static int rate_procs(const probe_options *o)
{
    if (o->simulated)
        return 1;
    int P = o->procs[0];
    for (size_t p = 0; p < o->nprocs; p++)
        if (o->procs[p] <= o->cores)
            P = o->procs[p];
    return P;
}

/* The P of the D-BSP levels, ascending, into P[0..COST_MAX_PROCS); returns
 * how many: every P of --procs, so that a trace of any of them is charged the
 * clusters of its own P (cost_machine_use_procs): clusters of one size differ
 * with P, as on cluster-16x8, where 16 processes of 2 nodes synchronise in 20
 * us and a cluster of 16 beside three others at P = 64 in 121 us;
 * --dbsp-procs alone when given. */
static size_t levels_procs(const probe_options *o, int P[COST_MAX_PROCS])
{
    if (o->dbsp_procs > 0) {
        P[0] = o->dbsp_procs;
        return 1;
    }
    for (size_t p = 0; p < o->nprocs; p++)
        P[p] = o->procs[p];
    return o->nprocs;
}

int probe_most_procs(const probe_options *o)
{
    int ccm_procs[COST_MAX_PROCS], most = o->procs[o->nprocs - 1], lp[COST_MAX_PROCS];
    size_t nl = levels_procs(o, lp);
    most = lp[nl - 1] > most ? lp[nl - 1] : most;
    size_t nccm = probe_ccm_procs(o->procs, o->nprocs, ccm_procs, COST_MAX_PROCS);
    for (size_t p = 0; p < nccm; p++)
        most = ccm_procs[p] > most ? ccm_procs[p] : most;
    return most;
}

/* The D-BSP levels at each of their nlv P values lp (levels_procs), then the
 * CCM collectives at each of their P values, in what the patterns left of the
 * budget: the levels get levels_share of it, in equal parts, each CCM section
 * an equal share of the rest. */
static void measure_models(run *r, const int *lp, probe_levels *lv, size_t nlv, probe_ccm *cc)
{
    const probe_options *o = r->o;
    const tuning *t = r->t;
    int ccm_procs[COST_MAX_PROCS];
    size_t nccm = probe_ccm_procs(o->procs, o->nprocs, ccm_procs, COST_MAX_PROCS);
    double left = fmax(0.0, o->budget - elapsed(r)), levels_left = t->levels_share * left;

    for (size_t i = 0; i < nlv; i++) {
        lv[i] = (probe_levels){.nprocs = lp[i],
                               .nsizes = o->nsizes,
                               .rounds = t->levels,
                               .seed = r->random ^ 0x4442535000000000ull ^ i, /* "DBSP" */
                               .tick = tick,
                               .plan = replan,
                               .ctx = r};
        memcpy(lv[i].sizes, o->sizes, o->nsizes * sizeof *o->sizes);
        lv[i].rounds.deadline = levels_left / (double)nlv;
        r->later = left - (double)(i + 1) * lv[i].rounds.deadline;
        r->expected = elapsed(r) + left - (double)i * lv[i].rounds.deadline;
        enter_phase(r, model_weight(lp[i], probe_levels_count(lp[i])), "D-BSP levels", lp[i]);
        probe_levels_measure(&lv[i]);
    }

    *cc = (probe_ccm){.nsizes = t->nccm_sizes,
                      .rounds = t->ccm,
                      .seed = r->random ^ 0x43434d0000000000ull, /* "CCM" */
                      .tick = tick,
                      .plan = replan,
                      .ctx = r};
    memcpy(cc->sizes, t->ccm_sizes, t->nccm_sizes * sizeof *t->ccm_sizes);
    for (size_t p = 0; p < nccm; p++) {
        double rest = fmax(0.0, o->budget - elapsed(r)), share = rest / (double)(nccm - p);
        r->later = rest - share;
        r->expected = elapsed(r) + rest;
        enter_phase(r, model_weight(ccm_procs[p], t->nccm_sizes), "CCM collectives", ccm_procs[p]);
        if (probe_ccm_measure(cc, ccm_procs[p], share) != 0)
            break;
    }
}

/* Every P's levels into dbsp.by_procs (ascending), the largest P's also into
 * the levels that files of before by_procs had. */
static void fit_levels(probe_levels *lv, size_t nlv, int cores, cost_machine *m)
{
    m->nlevels_procs = 0;
    for (size_t i = 0; i < nlv; i++) {
        cost_levels_procs *set = &m->levels_by_procs[m->nlevels_procs];
        probe_levels_fit(&lv[i], m->h_sum, cores, set);
        m->nlevels_procs += set->nlevels > 0;
    }
    m->nlevels = 0;
    if (m->nlevels_procs > 0)
        cost_machine_use_levels(m, &m->levels_by_procs[m->nlevels_procs - 1]);
}

/* Times a probe measures the patterns again when the line is noise (g <= 0). */
#define PROBE_NOISE_RETRIES 2

/* Whether the patterns measured so far give write_machine a line it takes
 * (g > 0); s is scratch, filled again by the analysis that follows. */
static int noise_free(const probe_data *d, probe_summary *s)
{
    char err[256];
    return probe_analyse(d, s, err, sizeof err) == 0 && s->m.g > 0;
}

int probe_run(const probe_options *o, FILE *out, char *err, size_t errlen)
{
    tuning simulated = simulated_tuning(o->quick ? &quick : &full);
    run r = {.o = o,
             .t = o->simulated ? &simulated
                  : o->quick   ? &quick
                               : &full,
             .expected = o->budget};
    const tuning *t = r.t;
    clock_gettime(CLOCK_MONOTONIC, &r.start);
    r.random = (uint64_t)time(NULL) ^ (uint64_t)r.start.tv_nsec ^ ((uint64_t)getpid() << 32);

    size_t ncells =
        PROBE_NPRIMS * COST_NPATTERNS * o->nsizes + 1 + t->nstar_totals * t->nstar_splits;
    size_t grid = o->nprocs * ncells;
    probe_cell *cells = malloc(ncells * sizeof *cells);
    probe_stat *stat = calloc(grid, sizeof *stat);
    double *cost = malloc(grid * sizeof *cost), *planned = calloc(o->nprocs, sizeof *planned);
    int *reps = malloc(grid * sizeof *reps);
    probe_summary *s = calloc(1, sizeof *s);
    int lp[COST_MAX_PROCS];
    size_t nlv = levels_procs(o, lp);
    probe_levels *lv = calloc(nlv, sizeof *lv);
    probe_ccm *cc = calloc(1, sizeof *cc);
    double **raw = o->raw ? calloc(grid, sizeof *raw) : NULL;
    int rc = cells && stat && cost && planned && reps && s && lv && cc && (raw || !o->raw) ? 0 : -1;

    if (rc == 0) {
        build_cells(o, t, cells);
        r.sim_total = 1;
        for (size_t p = 0; p < o->nprocs; p++)
            r.sim_total += 3 * pattern_weight(o->procs[p]); /* pilot, then twice the samples */
        int ccm_procs[COST_MAX_PROCS];
        size_t nccm = probe_ccm_procs(o->procs, o->nprocs, ccm_procs, COST_MAX_PROCS);
        for (size_t i = 0; i < nlv; i++)
            r.sim_total += model_weight(lp[i], probe_levels_count(lp[i]));
        for (size_t p = 0; p < nccm; p++)
            r.sim_total += model_weight(ccm_procs[p], t->nccm_sizes);
        enter_phase(&r, 1, "computation rate", 0);
        tick(&r);
        double spread[2];
        int rate_P = rate_procs(o);
        probe_measure_rate(rate_P, fmin(t->rate_seconds, 0.025 * o->budget), s->m.rate,
                           s->m.fault_touch, spread);
        if (o->simulated) /* the simulator's traces count no faults: nothing to charge */
            s->m.fault_touch[0] = s->m.fault_touch[1] = 0;
        /* How unequal the cores were: of two or more processes, on real cores. */
        if (!o->simulated && rate_P >= 2 && spread[0] > 0) {
            s->m.rate_least = spread[0];
            s->m.rate_most = spread[1];
        }
        /* The rate a trace here records, measured as it measures it: what
         * predict scales a trace from elsewhere by (the probe's own rate is
         * all P processes at once on the engine's clock: 1.3e9 on MPI at P = 2
         * against 1.1e10 on one thread's CPU clock, on a loaded day). */
        s->m.trace_rate = s->m.rate[0] > 0 ? core_rate_here() : 0;
    }
    /* Pilot: a few samples of every cell, in two rounds, tell what one sample
     * costs at each P. A pattern is measured at the P of its H_Π only. */
    int max_reps = o->experiments > 0 ? o->experiments : t->max_reps;
    int min_reps = t->min_reps < max_reps ? t->min_reps : max_reps;
    for (size_t p = 0; p < o->nprocs && rc == 0; p++) {
        for (size_t c = 0; c < ncells; c++)
            reps[p * ncells + c] =
                c < probe_empty_cell(o->nsizes) &&
                        !probe_in_H(cells[c].pattern, o->procs[p], o->procs[o->nprocs - 1])
                    ? 0
                    : t->pilot_reps;
        enter_phase(&r, pattern_weight(o->procs[p]), "pilot", o->procs[p]);
        rc = measure(&r, o->procs[p], cells, ncells, reps + p * ncells, 2, t->pilot_reps / 2,
                     INFINITY, stat + p * ncells, cost + p * ncells, NULL);
    }
    /* Plan: every (P, cell) gets an equal share of what is left of the patterns'
     * share of the budget. */
    if (rc == 0) {
        size_t active = 0; /* the (P, cell) measured: a pattern outside its H_Π is not */
        for (size_t i = 0; i < grid; i++)
            active += reps[i] > 0;
        double share = fmax(0.0, t->pattern_share * o->budget - elapsed(&r)) / (double)active;
        double total = 0;
        for (size_t i = 0; i < grid; i++) {
            double n = floor(share / fmax(cost[i], 1e-9));
            if (reps[i] > 0)
                reps[i] = n < min_reps ? min_reps : n > max_reps ? max_reps : (int)n;
            planned[i / ncells] += reps[i] * cost[i];
        }
        for (size_t p = 0; p < o->nprocs; p++)
            total += planned[p];
        r.expected = fmax(elapsed(&r) + total, o->budget);
    }
    probe_data d = {.nprocs = o->nprocs,
                    .procs = o->procs,
                    .cores = o->cores,
                    .nsizes = o->nsizes,
                    .sizes = o->sizes,
                    .ncells = ncells,
                    .cells = cells,
                    .stat = stat};
    /* Other programs' load comes and goes, and while it lasts the samples
     * can be mostly the scheduler's: the line through them then tilts to
     * g <= 0, which write_machine refuses. Such a run measures the patterns
     * again, up to PROBE_NOISE_RETRIES times, before it gives up (seen with
     * six quick probes at once on the 2 cores). */
    int again = 0;
    for (int attempt = 0; rc == 0 && attempt <= PROBE_NOISE_RETRIES; attempt++) {
        if (attempt > 0 && noise_free(&d, s))
            break;
        again = attempt;
        for (size_t p = 0; p < o->nprocs && rc == 0; p++) {
            double rest = 0;
            for (size_t q = p + 1; q < o->nprocs; q++)
                rest += planned[q];
            /* Overrunning the plan by a tenth is noise; beyond, stop where the budget says
             * (a second attempt takes its plan: the budget is spent). */
            double deadline =
                fmax(1.1 * planned[p], t->pattern_share * o->budget - elapsed(&r) - rest);
            enter_phase(&r, attempt ? 0 : 2 * pattern_weight(o->procs[p]),
                        attempt ? "measuring again (the first samples were noise)" : "measuring",
                        o->procs[p]);
            for (size_t c = 0; raw && attempt && c < ncells; c++) {
                free(raw[p * ncells + c]);
                raw[p * ncells + c] = NULL;
            }
            rc = measure(&r, o->procs[p], cells, ncells, reps + p * ncells, t->rounds, min_reps,
                         deadline, stat + p * ncells, NULL, raw ? raw + p * ncells : NULL);
        }
    }
    if (rc == 0)
        measure_models(&r, lp, lv, nlv, cc);
    /* A registration sync's extra at every P (probe_reg.h): a few dozen syncs. */
    double reg[COST_MAX_PROCS] = {0};
    for (size_t p = 0; rc == 0 && p < o->nprocs; p++)
        reg[p] = probe_reg_measure(o->procs[p], t->reg_reps);
    if (rc == 0 && o->progress)
        o->progress(o->ctx, 1.0, "done");
    if (rc != 0)
        snprintf(err, errlen, "out of memory");

    if (rc == 0) {
        s->m.trace_clock = r.nclocks > 0 ? cost_median(r.clocks, r.nclocks) : 0; /* 0: SMPI */
        fill_identity(&s->m, o);
        rc = probe_analyse(&d, s, err, errlen);
    }
    /* The engine's start at each P, but on a simulator (its clock is not the
     * wall clock the samples are taken on). */
    for (size_t i = 0; rc == 0 && !o->simulated && i < s->m.nbyprocs; i++)
        s->m.byprocs[i].start = probe_start_median(s->m.byprocs[i].procs);
    for (size_t i = 0; rc == 0 && i < s->m.nbyprocs; i++)
        for (size_t p = 0; p < o->nprocs; p++)
            if (o->procs[p] == s->m.byprocs[i].procs)
                s->m.byprocs[i].reg = reg[p];
    if (rc == 0) {
        fit_levels(lv, nlv, o->cores, &s->m);
        probe_ccm_fit(cc, &s->m);
        describe(out, o, stat, grid, elapsed(&r), again);
        probe_print(out, &d, s);
        for (size_t i = 0; i < nlv; i++)
            probe_print_levels(out, &lv[i], o->cores);
        probe_print_ccm(out, cc, o->cores);
        probe_print_summary(out, &d, s);
        rc = write_machine(out, o->output, &s->m, err, errlen);
    }
    if (rc == 0 && raw) {
        rc = probe_raw_write(o->raw, &s->m, &d, (const double *const *)raw, err, errlen);
        if (rc == 0)
            fprintf(out, "samples     written to %s\n", o->raw);
    }
    for (size_t i = 0; raw && i < grid; i++)
        free(raw[i]);
    free(raw);
    free(cells);
    free(stat);
    free(cost);
    free(planned);
    free(reps);
    free(s);
    free(lv);
    if (cc)
        probe_ccm_free(cc);
    free(cc);
    return rc;
}
