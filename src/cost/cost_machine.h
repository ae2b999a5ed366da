/* cost_machine — the machine file (docs/formats.md, "Machine file"): what probe
 * measured, in memory, and its JSON reader and writer.
 *
 * Contract: cost_machine_read validates the file; on a defect it returns -1 with
 * one line "FILE: field 'NAME': WHAT (expected ...)" (or "FILE:LINE: ..." for JSON
 * syntax errors) in err. cost_machine_write writes every field it holds and
 * returns 0, or -1 with the reason in err. Unknown fields are ignored on reading
 * (a newer minor addition); a different "version" is rejected.
 */
#ifndef POLYBSP_COST_MACHINE_H
#define POLYBSP_COST_MACHINE_H

#include "core/core_ops.h"

#include <stddef.h>
#include <stdio.h>

#define COST_MACHINE_VERSION 1
#define COST_NPATTERNS 5
#define COST_MAX_SIZES 16
#define COST_MAX_PROCS 16
#define COST_MAX_LEVELS 32      /* D-BSP levels 0 .. log2 P for any int P */
#define COST_MAX_COLLECTIVES 32 /* CCM cost functions by collective name */
/* The largest file the reader takes: far above what the format can hold, so a
 * larger input (/dev/zero, a wrong file) is refused rather than read forever. */
#define COST_MACHINE_MAX_BYTES (1 << 24)
/* The most JSON values the reader takes: each costs the parser about 100 bytes
 * (a 16 MiB file of "{}" took 1.3 GB), and the largest file the format allows
 * (16 P values, every pattern and size) holds about 20000; a probe's file of
 * four P values about 1300. */
#define COST_MACHINE_MAX_VALUES 200000

typedef enum {
    COST_NO_PATTERN = -1, /* a superstep in none of the five */
    COST_EXCHANGE = 0,
    COST_PINGPONG = 1,
    COST_ONETOALL = 2,
    COST_ALLTOONE = 3,
    COST_ALLTOALL = 4
} cost_pattern;

/* One pattern's fit for one primitive (put or hpput): tables Π.1 and Π.2. */
typedef struct cost_pattern_fit {
    int measured; /* 0 when probe skipped this pattern */
    double g, L;  /* seconds per byte, seconds */
    size_t nsizes;
    double h[COST_MAX_SIZES];      /* h-relation sizes in bytes */
    double time[COST_MAX_SIZES];   /* average time at the largest P of the fit (docs/formats.md) */
    double maxerr[COST_MAX_SIZES]; /* the paper's MaxErr over the P values, percent */
} cost_pattern_fit;

/* One D-BSP level: supersteps inside clusters of `cluster` processes. */
typedef struct cost_level {
    int level;
    int cluster;
    double g, L; /* seconds per byte, seconds */
    /* Seconds of the probe's bsp_partition(2, NULL) of a cluster of this level
     * and of the bsp_rejoin back into one, no data moved (0: not measured). */
    double partition, rejoin;
} cost_level;

/* Whether the probe measured level l's division: both times, or neither is used. */
static inline int cost_level_divides(const cost_level *l)
{
    return l->partition > 0 && l->rejoin > 0;
}

/* D-BSP's levels measured at one P (dbsp.by_procs). */
typedef struct cost_levels_procs {
    int procs;
    int oversubscribed; /* 1 when procs exceeded the cores */
    size_t nlevels;
    cost_level levels[COST_MAX_LEVELS];
} cost_levels_procs;

/* A CCM cost function, linear by pieces in h (docs/models.md, "CCM"):
 * T(P, h) = max(0, a + b·ceil(log2 P) + c·min(h, h_break) + c_above·max(0, h − h_break)),
 * a and b in seconds, c and c_above in seconds per byte, h_break in bytes; one
 * piece (T = a + b·ceil(log2 P) + c·h) when h_break is 0. */
typedef struct cost_ccm_fn {
    double a, b, c;
    double h_break, c_above;
} cost_ccm_fn;

/* A kind (31 bytes at most), '.', an algorithm (15), and the terminator. */
#define COST_CCM_NAME_MAX 48

typedef struct cost_ccm_coll {
    char name[COST_CCM_NAME_MAX]; /* the trace kind: "bcast", "allreduce", "par", ...,
                                   * or kind.algorithm: "bcast.twophase" */
    cost_ccm_fn f;
} cost_ccm_coll;

/* CCM's functions fitted on the samples of one P alone (ccm.by_procs), used
 * for a group of that size: a P above the cores (time-sliced) costs otherwise
 * than those within them, and one T(P, h) through both fits neither. Each
 * kind's b is folded into its a (one P: ceil(log2 P) is a constant). */
typedef struct cost_ccm_procs {
    int procs;
    int oversubscribed; /* 1 when procs exceeded the cores */
    size_t ncoll;       /* the collectives, then "partition" and "rejoin", by name */
    cost_ccm_coll coll[COST_MAX_COLLECTIVES + 2];
} cost_ccm_procs;

/* The BSP line of one P alone (by_procs): what predict uses for a trace of that P,
 * fitted apart from the other P values since an oversubscribed P behaves otherwise. */
typedef struct cost_procs_fit {
    int procs;
    int oversubscribed; /* 1 when procs exceeded the cores */
    double g, L;        /* seconds per byte, seconds */
    /* Seconds the engine takes to start P processes, before their first
     * superstep can end (the probe's sections: bsp_begin to the end of an
     * empty superstep, less an empty superstep); 0: not measured (simulated
     * machines, files before 2026-11-30). predict charges it to a trace from
     * elsewhere, whose own start it leaves out (cost_transfer.h). */
    double start;
    /* Seconds a sync that puts registrations into effect takes beyond an empty
     * one (the probe's, probe_reg.h); 0: not measured (files before
     * 2026-11-30), and then not charged. */
    double reg;
} cost_procs_fit;

typedef struct cost_machine {
    int version;
    char host[128];
    char engine[32];
    char date[32]; /* ISO 8601 */
    int cores;
    size_t nprocs;
    int procs[COST_MAX_PROCS]; /* the P values measured */
    int oversubscribed;        /* 1 when some P exceeded the cores */
    int h_sum;                 /* 1: h = in + out; 0: h = max(in, out) */
    double g, L;               /* overall BSP fit (table 12) */
    double reg; /* the registration sync's extra of the P cost_machine_use_procs chose; 0: none */
    /* bsp_hpput's g of the same fit ("bsp_hpput", 0: not measured), and its ratio
     * to bsp_put's (1 without it): the models charge a byte that bsp_hpput
     * moved as hp_ratio bytes of bsp_put (cost_hbytes). Set when read. */
    double g_hpput, hp_ratio;
    size_t nbyprocs; /* 0 in files of before the per-P fits */
    cost_procs_fit byprocs[COST_MAX_PROCS];
    cost_pattern_fit put[COST_NPATTERNS], hpput[COST_NPATTERNS];
    size_t nsizes; /* table 11 */
    double t11_h[COST_MAX_SIZES], t11_averr[COST_MAX_SIZES], t11_maxerr[COST_MAX_SIZES];
    double gstar, B; /* BSP*: seconds per byte, critical block size in bytes */
    /* Local operations per second of each kind (core_ops.h): [0] flops, in
     * "rate"; [1] comparisons and [2] words, in "op_rates"; 0: not measured. */
    double rate[CORE_OPS_KINDS];
    /* The DAXPY rate a trace taken on this machine records (core_rate_here:
     * one thread's CPU clock, or a simulated host's speed), in "trace_rate":
     * what predict scales a trace from elsewhere by, measured as the trace's
     * own rate was; 0 in files of before 2026-11-28 (rate[0] serves then). */
    double trace_rate;
    /* The clock a trace taken here records (core_clock_here), in
     * "trace_clock": what predict --scale clock scales by; 0 in files of
     * before 2026-11-29 and for simulated machines. */
    double trace_clock;
    /* The slowest and the fastest process's DAXPY rate among the P that
     * measured `rate` at once, in "rate_spread" (least, most): how unequal
     * the cores were while probed (a VM's vCPUs differed up to 2.4x:
     * docs/probe.md, "Cores of unequal speed"); 0 for simulated machines, a
     * single process, and files of before 2026-11-30. */
    double rate_least, rate_most;
    /* Seconds per page fault on the first write to a fresh page [0] and to a
     * page that was only read before [1]; 0: not measured. */
    double fault_touch[2];
    /* What predict charges per fault inside a sync (--faults), for a fault on a
     * page the trace counted as fresh [0] and for any other [1]; not in the file. */
    double fault[2];
    double spread;  /* median relative spread of the timings, percent */
    size_t nlevels; /* D-BSP, levels increasing; 0 when not calibrated */
    cost_level levels[COST_MAX_LEVELS];
    /* The P those levels were measured at (0: a file of before dbsp.by_procs),
     * and the levels of every P measured (dbsp.by_procs, P increasing; the
     * last is `levels`). A P within the cores and one beyond them (time-sliced)
     * differ as their BSP lines do: cost_machine_use_procs takes the trace's. */
    int levels_procs;
    int levels_oversubscribed;
    size_t nlevels_procs;
    cost_levels_procs levels_by_procs[COST_MAX_PROCS];
    int has_ccm; /* CCM: the three members below were calibrated */
    size_t ncoll;
    cost_ccm_coll coll[COST_MAX_COLLECTIVES];
    cost_ccm_fn partition, rejoin;
    size_t nccm_procs; /* 0 in files of before the per-P fits */
    cost_ccm_procs ccm_procs[COST_MAX_PROCS];
} cost_machine;

const char *cost_pattern_name(cost_pattern p); /* "exchange", "pingpong", ... */
/* The CCM cost function of a collective; NULL when absent (cost_groups.h
 * finds a D-BSP level). */
const cost_ccm_fn *cost_machine_collective(const cost_machine *m, const char *name);
/* CCM's function `name` (a collective, "partition" or "rejoin") for a group
 * of P processes: the fit of that P alone when ccm.by_procs has one, else the
 * fit over all P; NULL when neither has it. */
const cost_ccm_fn *cost_machine_ccm(const cost_machine *m, const char *name, int P);
/* What a byte moved by bsp_hpput weighs against one of bsp_put in a
 * superstep of pattern p: g_hpput / g_put of p's own fits (tables Π.1 and Π.2
 * of paper 000) when both were measured with g > 0, else (and for
 * COST_NO_PATTERN) hp_ratio, the overall fits' ratio (1 without them). With
 * a pull engine the copy an hpput saves is the receiver's, so the saving
 * differs by pattern: on a 2-core threads machine 0.26 of a put byte in the
 * Exchange, 0.79 in the PingPong. */
double cost_machine_hp_ratio(const cost_machine *m, cost_pattern p);
/* The fit of by_procs for P processes; NULL when the file has none for P. */
const cost_procs_fit *cost_machine_procs_fit(const cost_machine *m, int P);
/* Makes m's bsp g and L those of P's by_procs line and returns it; NULL, g and
 * L unchanged, when the file has no line for P. Likewise m's D-BSP levels become
 * those measured at P when dbsp.by_procs has them. */
const cost_procs_fit *cost_machine_use_procs(cost_machine *m, int P);
/* The P that m's D-BSP levels were measured at; 0 when m has no levels or its
 * file does not say (written before dbsp.by_procs). */
int cost_machine_levels_procs(const cost_machine *m);
/* D-BSP's levels go down a hierarchy of ever smaller clusters (paper 002,
 * section 3), which synchronise no slower than the whole machine: a level i > 0
 * whose L[i] is more than COST_LEVELS_INVERTED times L[0] (> 0) contradicts
 * it (levels fitted at a P beyond the cores, or under another job's load: a
 * 2-core fit at P = 8 gave 1.86 ms and 2.58 ms against 40 us). The first such
 * level, or -1. */
#define COST_LEVELS_INVERTED 4.0
int cost_levels_inverted(const double *L, size_t n);
/* Cores of unequal speed: most / least when the fastest of some rates
 * (flop/s of processes or CPUs measured alike) is more than
 * COST_UNEQUAL_CORES times the slowest (> 0), else 0. What the probe warns
 * of, predict notes of a target (rate_spread) and polybsp info says of its
 * CPUs. */
#define COST_UNEQUAL_CORES 1.5
double cost_cores_apart(double least, double most);
/* A machine with a hierarchy: bsp_put's patterns cost per byte many times
 * each other (the probe's Exchange and PingPong pair neighbouring processes,
 * which a cluster of multi-core nodes keeps inside a node, while AllToAll
 * crosses every node's link: 114x on the simulated cluster-16x8 at P = 64;
 * within 2x on the flat fat-trees and tori and on this machine's threads).
 * One g is then a compromise (docs/probe.md, "Patterns that disagree"). The
 * slowest over the fastest g (> 0) of the measured patterns when it exceeds
 * COST_PATTERNS_APART, with which patterns they are; else 0. */
#define COST_PATTERNS_APART 10.0
double cost_patterns_apart(const cost_machine *m, cost_pattern *fast, cost_pattern *slow);
/* The note the probe and predict print of such a machine (one line, without
 * the "note" label) into buf; 0 when its patterns are not that far apart. */
int cost_patterns_note(const cost_machine *m, char *buf, size_t len);
/* Makes set (an element of m's levels_by_procs) m's D-BSP levels. */
void cost_machine_use_levels(cost_machine *m, const cost_levels_procs *set);
int cost_machine_read(const char *path, cost_machine *m, char *err, size_t errlen);
/* The same from an open stream; name is what error lines call the file. The
 * fuzzer reads from memory with it. */
int cost_machine_read_stream(FILE *f, const char *name, cost_machine *m, char *err, size_t errlen);
int cost_machine_write(const char *path, const cost_machine *m, char *err, size_t errlen);

#endif
