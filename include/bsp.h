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

/* Entry points that do not depend on the dialect. */
POLYBSP_API void bsp_init(void (*spmd)(void), int argc, char **argv);
POLYBSP_API void bsp_end(void);
POLYBSP_API double bsp_time(void);
POLYBSP_API void bsp_sync(void);
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

POLYBSP_API void bsp_begin(bsp_pid_t P);
POLYBSP_API bsp_pid_t bsp_nprocs(void);
POLYBSP_API bsp_pid_t bsp_pid(void);

POLYBSP_API void bsp_push_reg(const void *ident, bsp_size_t size);
POLYBSP_API void bsp_pop_reg(const void *ident);

POLYBSP_API void bsp_put(bsp_pid_t pid, const void *src, void *dst, bsp_size_t offset,
                         bsp_size_t nbytes);
POLYBSP_API void bsp_hpput(bsp_pid_t pid, const void *src, void *dst, bsp_size_t offset,
                           bsp_size_t nbytes);
POLYBSP_API void bsp_get(bsp_pid_t pid, const void *src, bsp_size_t offset, void *dst,
                         bsp_size_t nbytes);
POLYBSP_API void bsp_hpget(bsp_pid_t pid, const void *src, bsp_size_t offset, void *dst,
                           bsp_size_t nbytes);

POLYBSP_API void bsp_set_tagsize(bsp_size_t *tag_nbytes);
POLYBSP_API void bsp_send(bsp_pid_t pid, const void *tag, const void *payload,
                          bsp_size_t payload_nbytes);
POLYBSP_API void bsp_qsize(bsp_nprocs_t *nmessages, bsp_size_t *accum_nbytes);
POLYBSP_API void bsp_get_tag(bsp_size_t *status, void *tag);
POLYBSP_API void bsp_move(void *payload, bsp_size_t reception_nbytes);
POLYBSP_API bsp_size_t bsp_hpmove(void **tag_ptr, void **payload_ptr);

#ifdef __cplusplus
}
#endif

#endif /* POLYBSP_BSP_H */
