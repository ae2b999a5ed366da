/* core_error — the one way a run stops on misuse.
 *
 * Contract: every fatal report is one line on stderr,
 *   "polybsp: process P, superstep S: CALL: DETAIL"   (inside the SPMD section)
 *   "polybsp: CALL: DETAIL"                            (outside it)
 * after which the whole program exits with status 1 (stdout is flushed first).
 * Only the first report of a run is printed; a second process that fails at the
 * same moment waits for the exit instead of printing a competing line.
 */
#ifndef POLYBSP_CORE_ERROR_H
#define POLYBSP_CORE_ERROR_H

#include <signal.h>
#include <stdarg.h>

#define CORE_NORETURN __attribute__((noreturn))
#define CORE_PRINTF(a, b) __attribute__((format(printf, a, b)))
/* The model of the library's thread-locals: initial-exec, one instruction to reach
 * them, even from the shared library. Not under SMPI, which loads a copy of the
 * program per rank with dlopen: each copy would take static TLS space, of which
 * glibc has room for about a hundred. */
#ifdef POLYBSP_SMPI
#define CORE_TLS_FAST
#else
#define CORE_TLS_FAST __attribute__((tls_model("initial-exec")))
#endif

/* Report against the calling process (or no process outside the section). */
void core_fatal(const char *call, const char *fmt, ...) CORE_PRINTF(2, 3) CORE_NORETURN;
/* Report naming another process (the culprit found by the one that noticed). */
void core_fatal_as(long pid, unsigned long step, const char *call, const char *fmt, ...)
    CORE_PRINTF(4, 5) CORE_NORETURN;
void core_vfatal_as(long pid, unsigned long step, const char *call, const char *fmt,
                    va_list ap) CORE_NORETURN;
void core_fatal_oom(const char *what) CORE_NORETURN;

/* Inside the SPMD section, reports exit(status) called there and stops the run;
 * elsewhere nothing. The exit reporter's work, and bsp_smpi_exit's. */
void core_report_exit(int status);

/* Install the crash and exit reporters (idempotent). Crashes reported: SIGSEGV,
 * SIGBUS, SIGFPE, SIGILL and SIGABRT ("killed by signal N (NAME)"); the process
 * then dies of the signal. */
void core_install_reporters(void);

/* The crash reporter runs on a stack of its own, so that it can report a stack
 * overflow: every thread that runs a process installs one (push) for as long as
 * it does (pop restores the thread's previous one, a sanitizer's perhaps).
 * push returns 0, or -1 when memory runs out. */
typedef struct core_altstack {
    void *mem;
    stack_t old;
} core_altstack;
int core_altstack_push(core_altstack *a);
void core_altstack_pop(core_altstack *a);

#endif
