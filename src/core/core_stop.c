/* core_stop — what to remove if the user stops the program (contract in core_stop.h). */
#define _POSIX_C_SOURCE 200809L
#include "core/core_stop.h"

#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

enum { CORE_STOP_MAX = 8, CORE_STOP_PATH = 4096 };

/* Registrations nest (a tool's directory, then the probe's file inside its
 * run), so the table is a stack and the handler walks it from the top. */
static struct {
    char path[CORE_STOP_PATH];
    int is_dir;
    char tmp[CORE_STOP_PATH + 8];  /* core_file's temporary for path, when has_tmp */
    volatile sig_atomic_t has_tmp; /* set after tmp is whole, cleared before it changes */
    const char *removed, *kept;    /* core_stop_say's lines, or NULL */
} stack[CORE_STOP_MAX];
static volatile sig_atomic_t depth;

static const int stop_signals[] = {SIGINT, SIGTERM, SIGHUP};
enum { NSTOP = sizeof stop_signals / sizeof *stop_signals };
static struct sigaction before[NSTOP];
static int installed[NSTOP];

static void say(const char *line)
{
    if (line) {
        ssize_t ignored = write(STDERR_FILENO, line, strlen(line));
        (void)ignored;
    }
}

/* unlink, rmdir, write, sigaction and raise are async-signal-safe. */
void core_stop_cleanup(void)
{
    for (int i = depth - 1; i >= 0; i--) {
        if (stack[i].has_tmp)
            unlink(stack[i].tmp);
        int gone = (stack[i].is_dir ? rmdir(stack[i].path) : unlink(stack[i].path)) == 0;
        say(gone ? stack[i].removed : stack[i].kept);
    }
    depth = 0;
}

static void remove_and_stop(int sig)
{
    core_stop_cleanup();
    for (int k = 0; k < NSTOP; k++) {
        if (stop_signals[k] != sig)
            continue;
        if (!(before[k].sa_flags & SA_SIGINFO) && before[k].sa_handler != SIG_DFL) {
            before[k].sa_handler(sig); /* a handler of the program's: its course */
            return;
        }
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

int core_stop_remove(const char *path, int is_dir)
{
    size_t len = strlen(path);
    if (depth == CORE_STOP_MAX || len >= CORE_STOP_PATH)
        return -1;
    memcpy(stack[depth].path, path, len + 1);
    stack[depth].is_dir = is_dir;
    stack[depth].has_tmp = 0;
    stack[depth].removed = stack[depth].kept = NULL;
    if (depth == 0) {
        struct sigaction on_stop = {.sa_handler = remove_and_stop};
        sigemptyset(&on_stop.sa_mask);
        for (int k = 0; k < NSTOP; k++) {
            sigaction(stop_signals[k], NULL, &before[k]);
            installed[k] = before[k].sa_handler != SIG_IGN;
            if (installed[k])
                sigaction(stop_signals[k], &on_stop, NULL);
        }
    }
    return depth++;
}

void core_stop_say(int handle, const char *removed, const char *kept)
{
    if (handle >= 0 && handle < depth) {
        stack[handle].removed = removed;
        stack[handle].kept = kept;
    }
}

void core_stop_forget(int handle)
{
    if (handle < 0 || handle >= depth)
        return;
    depth = handle; /* it and anything registered after it */
    if (depth == 0)
        for (int k = 0; k < NSTOP; k++)
            if (installed[k])
                sigaction(stop_signals[k], &before[k], NULL);
}

void core_stop_temp(const char *path, const char *tmp)
{
    for (int i = 0; i < depth; i++) {
        if (strcmp(stack[i].path, path) != 0)
            continue;
        stack[i].has_tmp = 0;
        if (tmp && strlen(tmp) < sizeof stack[i].tmp) {
            strcpy(stack[i].tmp, tmp);
            atomic_signal_fence(memory_order_seq_cst); /* the name before the flag */
            stack[i].has_tmp = 1;
        }
    }
}
