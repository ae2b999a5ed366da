/* bsp.h — the BSPlib standard interface (Hill et al., 1998), as implemented by polybsp.
 *
 * Two dialects share one library:
 *   - classic (default): sizes, offsets and pids are `int`, as in BSPlib 1.4 and
 *     BSPedupack 1.x. Negative sizes or offsets are reported as errors.
 *   - MulticoreBSP for C 2.x: define POLYBSP_MCBSP before including this header
 *     (or compile with -DPOLYBSP_MCBSP): pids are `unsigned int`, sizes `size_t`.
 * Each dialect links to its own entry points, so objects of both dialects can be
 * linked into one program.
 *
 * Semantics (summary; docs/api.md has the full statement):
 *   - bsp_put copies its source at the call; bsp_hpput reads it during bsp_sync.
 *   - bsp_get/bsp_hpget read the remote value as it stands at the end of the
 *     superstep's computation, before any put of the same superstep lands.
 *   - Conflicting writes to the same bytes in one superstep land in this order:
 *     gets first, then puts by increasing source pid, each source's puts in the
 *     order it issued them. The last write wins.
 *   - Registrations are collective, matched by order, take effect at the next sync.
 *   - Every misuse stops the whole run with one line on stderr and exit status 1.
 */
#ifndef POLYBSP_BSP_H
#define POLYBSP_BSP_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define POLYBSP_API __attribute__((visibility("default")))
#define POLYBSP_NORETURN __attribute__((noreturn))
#define POLYBSP_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define POLYBSP_API
#define POLYBSP_NORETURN
#define POLYBSP_PRINTF(a, b)
#endif

/* Version of the BSPlib standard implemented (as BSPlib's own header gives it). */
#define BSPLIB_VERSION 1.4
#define POLYBSP_VERSION_MAJOR 0
#define POLYBSP_VERSION_MINOR 1
#define POLYBSP_VERSION_PATCH 0

#ifdef POLYBSP_MCBSP
typedef unsigned int bsp_pid_t;
typedef unsigned int bsp_nprocs_t;
typedef size_t bsp_size_t;
#else
typedef int bsp_pid_t;
typedef int bsp_nprocs_t;
typedef int bsp_size_t;
#endif

/* Compiled by SimGrid's smpicc (bspcc --engine smpi), exit ends only the calling
 * simulated rank, and exit hooks run when the whole simulation ends: polybsp's
 * exit reports an exit inside the SPMD section as every engine does, then ends
 * the rank as smpicc's exit does. */
#if defined(SMPI_HELPERS_H) && defined(exit)
#undef exit
#define exit(status) bsp_smpi_exit(status)
POLYBSP_API void bsp_smpi_exit(int status) POLYBSP_NORETURN;
#endif

/* Entry points that do not depend on the dialect. Each comment below is also
 * the call's man page (bsp_put(3) and so on, made by man/mkman.sh). */

/* Records spmd as the function the other processes run, when bsp_begin is not
 * the first statement of main: then bsp_init must be, and main runs on
 * process 0 only until it calls spmd, whose first statement is bsp_begin and
 * whose last is bsp_end (BSPedupack's style). spmd may be called again for a
 * second SPMD section. */
POLYBSP_API void bsp_init(void (*spmd)(void), int argc, char **argv);
/* Ends the SPMD section. Collective: every process calls it; only process 0
 * returns from it (the others end, or on MPI wait for the next section). */
POLYBSP_API void bsp_end(void);
/* Wall-clock seconds since bsp_begin, from a monotonic clock with the same
 * origin on every process. */
POLYBSP_API double bsp_time(void);
/* Ends the superstep: waits for every process of the group, then performs all
 * communication of the superstep (registrations checked, gets read, puts land,
 * messages delivered, registrations take effect), then starts the next one.
 * Collective. */
POLYBSP_API void bsp_sync(void);
/* Stops every process: prints the printf-style message as one error line
 * naming the process and superstep, and exits with status 1. Any one process
 * may call it at any time. */
POLYBSP_API void bsp_abort(const char *format, ...) POLYBSP_PRINTF(1, 2) POLYBSP_NORETURN;

#ifdef POLYBSP_MCBSP
#define bsp_begin bsp_mc_begin
#define bsp_nprocs bsp_mc_nprocs
#define bsp_pid bsp_mc_pid
#define bsp_push_reg bsp_mc_push_reg
#define bsp_pop_reg bsp_mc_pop_reg
#define bsp_put bsp_mc_put
#define bsp_hpput bsp_mc_hpput
#define bsp_get bsp_mc_get
#define bsp_hpget bsp_mc_hpget
#define bsp_set_tagsize bsp_mc_set_tagsize
#define bsp_send bsp_mc_send
#define bsp_qsize bsp_mc_qsize
#define bsp_get_tag bsp_mc_get_tag
#define bsp_move bsp_mc_move
#define bsp_hpmove bsp_mc_hpmove
#endif

/* Starts P processes (1 <= P <= 1000000, more than the cores allowed) running
 * the SPMD section; the caller is process 0. First statement of main, or of
 * the function given to bsp_init. */
POLYBSP_API void bsp_begin(bsp_pid_t P);
/* Inside the section: the number of processes P of the current group. Before
 * bsp_begin: the P a program should ask for, POLYBSP_NPROCS if set (bsprun -n
 * P sets it), else the number of cores (on MPI, the job's ranks). */
POLYBSP_API bsp_pid_t bsp_nprocs(void);
/* This process's number in the current group, 0 <= pid < bsp_nprocs(). */
POLYBSP_API bsp_pid_t bsp_pid(void);

/* Registers size bytes at ident as a target of other processes' puts and gets,
 * from the next superstep on. Collective and matched by order: the k-th
 * registration call of a superstep on one process pairs with the k-th on every
 * other; addresses and sizes may differ (NULL with size 0 offers nothing).
 * Registering an address again stacks the new registration on the old. */
POLYBSP_API void bsp_push_reg(const void *ident, bsp_size_t size);
/* Removes the most recent registration of ident at the next sync. Collective
 * and matched by order as bsp_push_reg: every process pops the same
 * registration. */
POLYBSP_API void bsp_pop_reg(const void *ident);

/* Writes nbytes bytes from src into process pid's memory registered as dst, at
 * byte offset, at the next sync. bsp_put copies src at the call (it may change
 * right after); bsp_hpput reads it during the sync (it must not change until
 * then), saving a copy. Writes of one superstep to the same bytes land gets
 * first, then puts by increasing source pid, each source's in issue order. */
POLYBSP_API void bsp_put(bsp_pid_t pid, const void *src, void *dst, bsp_size_t offset,
                         bsp_size_t nbytes);
POLYBSP_API void bsp_hpput(bsp_pid_t pid, const void *src, void *dst, bsp_size_t offset,
                           bsp_size_t nbytes);
/* Reads nbytes bytes at offset of process pid's memory registered as src into
 * the local dst during the next sync: the value at the end of the superstep's
 * computation, before any put of the superstep lands. bsp_hpget has the same
 * effect (the standard lets it read earlier). */
POLYBSP_API void bsp_get(bsp_pid_t pid, const void *src, bsp_size_t offset, void *dst,
                         bsp_size_t nbytes);
POLYBSP_API void bsp_hpget(bsp_pid_t pid, const void *src, bsp_size_t offset, void *dst,
                           bsp_size_t nbytes);

/* Sets the tag size of messages sent from the next superstep on to
 * *tag_nbytes (at most 16777215) and stores the previous size there. Collective:
 * every process calls it in the same superstep with the same size. Initially 0. */
POLYBSP_API void bsp_set_tagsize(bsp_size_t *tag_nbytes);
/* Sends a message, a tag of the current tag size and payload_nbytes bytes of
 * payload, to process pid; both are copied at the call, and the message is in
 * pid's queue in the next superstep. */
POLYBSP_API void bsp_send(bsp_pid_t pid, const void *tag, const void *payload,
                          bsp_size_t payload_nbytes);
/* The number of messages still in this process's queue and the sum of their
 * payload sizes. The queue holds the messages sent to this process in the
 * previous superstep, by increasing source pid, each source's in send order;
 * those not moved by the next sync are dropped. */
POLYBSP_API void bsp_qsize(bsp_nprocs_t *nmessages, bsp_size_t *accum_nbytes);
/* Copies the first queued message's tag to tag and sets *status to its payload
 * size; with an empty queue *status is -1 (SIZE_MAX in the MulticoreBSP
 * dialect), which is no error. */
POLYBSP_API void bsp_get_tag(bsp_size_t *status, void *tag);
/* Copies the first queued message's payload to payload (at most
 * reception_nbytes bytes) and removes the message. An empty queue is an error. */
POLYBSP_API void bsp_move(void *payload, bsp_size_t reception_nbytes);
/* Removes the first queued message without copying: points *tag_ptr and
 * *payload_ptr at its tag and payload inside polybsp's buffer (valid until the
 * next sync) and returns its payload size, or -1 (SIZE_MAX) with an empty queue. */
POLYBSP_API bsp_size_t bsp_hpmove(void **tag_ptr, void **payload_ptr);

#ifdef __cplusplus
}
#endif

#endif /* POLYBSP_BSP_H */
