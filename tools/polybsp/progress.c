/* progress.c — the progress line of the tool's long commands (progress.h). */
#include "progress.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define BAR_WIDTH 30

void tool_progress_init(tool_progress *p, const char *who, bool quiet)
{
    *p = (tool_progress){.who = who, .shown = -1};
    p->mode = quiet                   ? TOOL_PROGRESS_QUIET
              : isatty(STDERR_FILENO) ? TOOL_PROGRESS_TERMINAL
                                      : TOOL_PROGRESS_LINES;
}

void tool_progress_show(tool_progress *p, double fraction, const char *phase)
{
    if (p->mode == TOOL_PROGRESS_QUIET)
        return;
    if (fraction > 1)
        fraction = 1;
    bool changed = strcmp(phase, p->phase) != 0;
    int known = fraction >= 0;
    if (p->mode == TOOL_PROGRESS_TERMINAL) {
        int percent = known ? (int)(fraction * 100) : -1;
        if (changed || percent != p->shown || !p->on_line) {
            if (known) {
                int filled = (int)(fraction * BAR_WIDTH);
                fprintf(stderr, "\rpolybsp %s: [%.*s%*s] %3d%%  %s\033[K", p->who, filled,
                        "##############################", BAR_WIDTH - filled, "", percent, phase);
            } else {
                fprintf(stderr, "\rpolybsp %s: %s\033[K", p->who, phase);
            }
            p->on_line = true;
        }
        p->shown = percent;
    } else {
        int tenth = known ? (int)(fraction * 10) : -1;
        if (changed || tenth != p->shown) {
            if (known)
                fprintf(stderr, "polybsp %s: %3d%%  %s\n", p->who, tenth * 10, phase);
            else
                fprintf(stderr, "polybsp %s: %s\n", p->who, phase);
        }
        p->shown = tenth;
    }
    fflush(stderr);
    snprintf(p->phase, sizeof p->phase, "%s", phase);
}

void tool_progress_clear(tool_progress *p)
{
    if (p->mode == TOOL_PROGRESS_TERMINAL && p->on_line) {
        fputs("\r\033[K", stderr);
        fflush(stderr);
        p->on_line = false;
    }
}

void tool_progress_end(tool_progress *p)
{
    tool_progress_clear(p);
    p->shown = -1;
    p->phase[0] = '\0';
}

void tool_progress_probe(void *ctx, double fraction, const char *phase)
{
    tool_progress *p = ctx;
    if (fraction >= 1.0)
        tool_progress_end(p);
    else
        tool_progress_show(p, fraction, phase);
}
