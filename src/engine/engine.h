/* engine — what depends on how the processes run.
 *
 * Contract: exactly one engine is compiled into a library (libpolybsp: threads of
 * one program; libpolybsp_mpi: MPI ranks). Its types (eng_types.h, found on the
 * engine's include path) are embedded in the core's group and context; the core
 * calls the functions below and stays the same for every engine:
 *  - section: eng_init/eng_begin/eng_end start and stop the SPMD section;
 *  - eng_barrier: a barrier of the current group that returns the OR of every
 *    member's bits and stops the run when members arrived from different calls;
 *  - eng_check_regops / eng_check_colls: every member made the same registration
 *    calls / started the same collective as member 0, else one report;
 *  - eng_get_queued: a get was added to the context's list (what it reads and
 *    writes may be noted here);
 *  - eng_exchange: after the first barrier, performs the superstep's gets (every
 *    get reads its source before any get or put of the superstep writes), then
 *    delivers every put and message to its destination in source order
 *    (core_deliver; each get that lands, core_get_landed); core closes the
 *    superstep after it;
 *  - eng_oblsync: bsp_oblsync's data movement (core_oblsync traces and closes
 *    the superstep): sends what this process sent, waits for n messages and
 *    delivers those of its superstep (core_deliver);
 *  - eng_superstep_done: core has begun the next superstep; on return nobody
 *    reads the out buffers it will write (after an oblivious one, the engine
 *    waits for that as it must);
 *  - groups: eng_partition builds (collectively) the group of the caller's part,
 *    eng_ctx_attach makes a context reachable to its group, eng_rejoin waits for
 *    all parts and releases the part's group (the MPI engine keeps it, with its
 *    communicator, for the next partition into the same parts).
 */
#ifndef POLYBSP_ENGINE_H
#define POLYBSP_ENGINE_H

#include <stddef.h>

struct core_proc;
struct core_ctx;
struct core_group;
struct core_getreq;

typedef enum { ENG_BEFORE = 0, ENG_RUNNING = 1, ENG_AFTER = 2 } eng_state;

/* Shared with the tool: the most processes a run may have (bsp_begin,
 * POLYBSP_NPROCS, polybsp run -p), and the text each engine leaves in every
 * program linked with it, ENG_MARKER followed by eng_name(), by which
 * `polybsp run` tells which engine a program was built for. */
#define ENG_MAX_NPROCS 1000000
#define ENG_MARKER "polybsp-engine="

const char *eng_name(void);
/* Ends the whole run now with this exit status (every process, every rank). */
void eng_abort(int status) __attribute__((noreturn));
/* Whether this process may print the run's one error line: 1 for the first
 * to ask, 0 for any later one (core_error.c asks once per process, after its
 * own threads have settled it among themselves). Async-signal-safe: a crash
 * handler asks. The threads engine's processes share core_error's flag, so it
 * answers 1; the MPI engine's ranks share one flag per node (mpie_engine.c). */
int eng_first_report(void);
void eng_init(void (*spmd)(void), int argc, char **argv);
void eng_begin(long long nprocs);
void eng_end(void);
eng_state eng_section_state(void);
/* Processors available before the section. */
int eng_available(void);
/* This process's rank in the job, before the section too: 0 on threads (one
 * process), the MPI rank on mpi; so that a line about the whole job is printed
 * once. Valid after eng_available. */
int eng_rank(void);

/* Returns 0, or -1 when memory runs out. */
int eng_group_init(struct core_group *g);
void eng_group_free(struct core_group *g);
int eng_ctx_init(struct core_ctx *c);
void eng_ctx_free(struct core_ctx *c);
void eng_ctx_attach(struct core_ctx *c);

unsigned eng_barrier(struct core_ctx *c, unsigned at, unsigned bits);
void eng_check_regops(struct core_ctx *c);
void eng_check_colls(struct core_ctx *c, unsigned parity);
void eng_get_queued(struct core_ctx *c, const struct core_getreq *g);
void eng_exchange(struct core_proc *p, unsigned all, unsigned parity);
/* After the superstep's data movement and registration changes (an oblivious
 * superstep's too, c->last_oblivious set), c->step the next one's. */
void eng_superstep_done(struct core_ctx *c);
void eng_oblsync(struct core_proc *p, size_t n);

/* A collective that only moves blocks of n bytes (n > 0, group of P > 1), which
 * an engine may move with its communication library's own collective instead
 * of the caller's puts. kind is a core_step_kind: CORE_KIND_BCAST (buf: src),
 * GATHER (dst only at root), ALLGATHER, SCATTER (src only at root), ALLTOALL;
 * src and dst hold P blocks where the collective says so. */
typedef struct eng_coll {
    int kind, root;
    const void *src;
    void *dst;
    size_t n;
} eng_coll;
/* Returns 1 when the engine will move op's data itself during the caller's next
 * sync, after that sync's own data movement and before its trace record closes
 * (the record counts the bytes and sources the direct puts would have), so the
 * caller puts nothing; 0 when the caller must put. Called after coll_begin. */
int eng_coll_native(struct core_ctx *c, const eng_coll *op);

/* The simulated clock (smpi engine) charges the program's own computation
 * only: the CPU time its thread spends outside the BSPlib calls, timed as
 * SMPI times computation (this thread's CPU clock, scaled by smpi/host-speed
 * over the simulated host's speed) and charged when a call begins
 * (eng_work_pause; flush: a call that communicates or reads the clock, not
 * one that only buffers, such as bsp_put); the library's bookkeeping between its MPI calls is not
 * (eng_work_resume at the call's end restarts the count). SMPI's own charging,
 * which would take that bookkeeping too, is off (smpi/simulate-computation:no,
 * set by polybsp-smpirun). Other engines measure real time: both do nothing. */
#ifdef POLYBSP_SMPI
void eng_work_pause(struct core_proc *p, int flush);
void eng_work_resume(struct core_proc *p);
#else
static inline void eng_work_pause(struct core_proc *p, int flush) { (void)p, (void)flush; }
static inline void eng_work_resume(struct core_proc *p) { (void)p; }
#endif

/* Whether the simulated clock charges the calling process's computation from
 * now on (on until told otherwise): `polybsp probe` turns it off in its
 * sections of communication alone, whose own bookkeeping between calls,
 * timed on this machine, would otherwise move what they measure from one run
 * to the next (docs/smpi.md, "Simulated time"). Does nothing on the engines
 * that measure real time. */
void eng_charge_program(int on);

/* Collective over c's group: checks every member passed the same bounds
 * first[0..nparts] as member 0, and returns the group of part `part`. */
struct core_group *eng_partition(struct core_ctx *c, int nparts, const int *first, int part);
/* Collective over the parent c: every part has finished; sub is released. */
void eng_rejoin(struct core_ctx *c, struct core_ctx *sub);

#endif
