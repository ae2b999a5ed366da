/* polybsp.h — polybsp's extensions to BSPlib.
 *
 * Include after (or instead of) <bsp.h>. Everything here is optional: a program
 * that uses only <bsp.h> is a standard BSPlib program.
 * Groups, collectives, oblivious synchronisation, tracing and calibrated machine
 * parameters are added here as they land (see docs/api.md).
 */
#ifndef POLYBSP_POLYBSP_H
#define POLYBSP_POLYBSP_H

#include "bsp.h"
#include "polybsp_coll.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The library's version as "MAJOR.MINOR.PATCH". */
POLYBSP_API const char *bsp_polybsp_version(void);

/* The name of the engine this program was linked with: "threads", "mpi" or "smpi". */
POLYBSP_API const char *bsp_engine_name(void);

/* The number of supersteps this process has completed (its bsp_sync count). */
POLYBSP_API unsigned long bsp_superstep(void);

/* Processor groups (division supersteps of the Collective Computing Model).
 * bsp_partition splits the current group into nparts parts of consecutive pids,
 * sized by weights (NULL: as equal as possible; each part gets at least one
 * process) and returns the index of the caller's part. From then on bsp_pid,
 * bsp_nprocs, bsp_sync, registrations, DRMA, messages and collectives refer to
 * the part; parts run and synchronise independently. All processes of the group
 * call it with the same arguments; it ends the group's superstep (its puts land,
 * its messages are read inside the part). Partitions nest.
 * bsp_rejoin ends the part's superstep (its puts land; messages sent in it are
 * discarded, as the part's queue ends with the part), waits for all parts, and
 * returns to the parent group: its pids, registrations and a fresh superstep. */
POLYBSP_API int bsp_partition(int nparts, const double *weights);
POLYBSP_API void bsp_rejoin(void);
/* This process's partners in part `part` of the enclosing partition (block
 * policy: exhaustive and injective): writes up to max pids, numbered in the
 * parent group, and returns how many partners there are. */
POLYBSP_API int bsp_partners(int part, int *pids, int max);
/* The index of the current part in its parent's partition, or -1 at the top. */
POLYBSP_API int bsp_part(void);
/* The nesting depth of the current group: 0 for the whole run (the D-BSP level). */
POLYBSP_API int bsp_level(void);

/* PAR / WEIGHTEDPAR: runs task(i, result_i, arg) on part i of a partition into
 * nparts (weights as for bsp_partition), then exchanges results along the
 * partner relation so that on return every process holds all parts' results in
 * results[0 .. nparts*result_bytes). Inside the task, every process of part i
 * must leave the same result in result_i. */
POLYBSP_API void bsp_par(int nparts, const double *weights,
                         void (*task)(int part, void *result, void *arg), void *arg, void *results,
                         size_t result_bytes);

/* Oblivious synchronisation (PUB): ends this process's superstep as soon as
 * nmessages messages sent to it in this superstep have arrived, without a
 * barrier. Only bsp_send may communicate in such a superstep. */
POLYBSP_API void bsp_oblsync(size_t nmessages);

/* Calibrated machine parameters from the machine file named by POLYBSP_MACHINE
 * (made by `polybsp probe`; docs/formats.md): BSP g in seconds per byte and L in
 * seconds; BSP* g* (seconds per byte) and critical block size B (bytes); the
 * local computation rate r in operations per second. A missing or bad file stops
 * the run with one line naming it. */
POLYBSP_API double bsp_g(void);
POLYBSP_API double bsp_L(void);
POLYBSP_API double bsp_gstar(void);
POLYBSP_API double bsp_B(void);
POLYBSP_API double bsp_r(void);

/* Tracing (docs/formats.md, "Trace"). With POLYBSP_TRACE=FILE set, every process
 * records every superstep from bsp_begin (bsp_trace_begin and bsp_trace_end then
 * change nothing); otherwise a process records the
 * supersteps between its bsp_trace_begin and bsp_trace_end (call both on all
 * processes in the same superstep), into POLYBSP_TRACE or polybsp-trace.jsonl.
 * The file is written at bsp_end, or when the run stops on an error. */
POLYBSP_API void bsp_trace_begin(void);
POLYBSP_API void bsp_trace_end(void);
/* Declares ops floating-point operations of local work in the current superstep
 * (as BSPedupack counts flops), for `polybsp predict --work ops`. */
POLYBSP_API void bsp_trace_ops(double ops);
/* The kinds of operations a superstep's work can be declared in: each has its
 * own rate, which `polybsp probe` measures with a kernel of that kind. */
typedef enum polybsp_ops_kind {
    POLYBSP_OPS_FLOP,    /* floating-point operations (bsp_trace_ops) */
    POLYBSP_OPS_COMPARE, /* comparisons of data that decide a branch: searching, sorting */
    POLYBSP_OPS_WORD     /* 8-byte words moved or read: copying, packing, scanning */
} polybsp_ops_kind;
/* Declares ops operations of the given kind in the current superstep; kinds
 * add up (W = flops / r + compares / r_compare + words / r_word). */
POLYBSP_API void bsp_trace_ops_of(polybsp_ops_kind kind, double ops);

#ifdef __cplusplus
}
#endif

#endif /* POLYBSP_POLYBSP_H */
