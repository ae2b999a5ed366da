/* progress.h — the progress line of the tool's long commands (probe, demo,
 * portability).
 *
 * Contract: everything goes to stderr, so that stdout keeps the command's
 * tables. On a terminal, one line that updates in place ("polybsp WHO: [###  ]
 * 42%  PHASE"), erased by tool_progress_clear() before the command prints and by
 * tool_progress_end(); otherwise plain lines "polybsp WHO:  40%  PHASE", one when
 * the phase changes or another tenth is done (logs stay short); nothing at all
 * when quiet (--quiet). A fraction < 0 means "not known": the phase alone. */
#ifndef POLYBSP_TOOL_PROGRESS_H
#define POLYBSP_TOOL_PROGRESS_H

#include <stdbool.h>

typedef enum {
    TOOL_PROGRESS_QUIET,
    TOOL_PROGRESS_TERMINAL,
    TOOL_PROGRESS_LINES
} tool_progress_mode;

typedef struct tool_progress {
    const char *who;
    tool_progress_mode mode;
    int shown;    /* percent (terminal) or tenth (lines) last shown; -1 before any */
    bool on_line; /* the terminal line is showing */
    char phase[160];
} tool_progress;

/* Chooses the mode: quiet, else a terminal when stderr is one, else lines. */
void tool_progress_init(tool_progress *p, const char *who, bool quiet);

void tool_progress_show(tool_progress *p, double fraction, const char *phase);

/* Erases the terminal line (before the command writes its own output). */
void tool_progress_clear(tool_progress *p);

/* The end: erases the terminal line; the next show starts afresh. */
void tool_progress_end(tool_progress *p);

/* probe_options.progress for a tool_progress passed as its ctx. */
void tool_progress_probe(void *ctx, double fraction, const char *phase);

#endif /* POLYBSP_TOOL_PROGRESS_H */
