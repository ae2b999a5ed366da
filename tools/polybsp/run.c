/* run.c — `polybsp run [-p N] [--engine E] PROGRAM [ARGS]`: start a BSP program.
 *
 * Contract: sets POLYBSP_NPROCS=N (when -p is given) and replaces itself with
 * PROGRAM (searched in PATH as a shell would), so the exit status is PROGRAM's.
 * With --engine mpi it replaces itself with `mpiexec [-np N] PROGRAM ARGS`
 * (PROGRAM linked with libpolybsp_mpi, e.g. by bspcc --engine mpi), through
 * tool_exec_mpi.
 * Bad options or a missing PROGRAM: one line, status 2. PROGRAM that cannot be
 * started: one line, status 127 (not found) or 126 (not executable), as env(1).
 */
#include "tool.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char cmd_run_help[] =
    "usage: polybsp run [-p N] [--engine ENGINE] [--] PROGRAM [ARGS]\n"
    "\n"
    "Runs the BSP program PROGRAM with ARGS. The exit status is the program's.\n"
    "\n"
    "options:\n"
    "  -p, --procs N      run on N processes (N >= 1; more than the cores is allowed):\n"
    "                     sets POLYBSP_NPROCS=N, which bsp_nprocs() returns before\n"
    "                     bsp_begin. Without -p the program decides (by default one\n"
    "                     process per core).\n"
    "  --engine ENGINE    the engine to run on: threads (the default), or mpi when\n"
    "                     built with MPI: runs mpiexec --oversubscribe -np N PROGRAM;\n"
    "                     PROGRAM must be linked with bspcc --engine mpi\n"
    "  -h, --help         show this help\n"
    "\n"
    "example: polybsp run -p 4 ./inprod 1000000\n";

/* Parses a process count: a decimal integer in [1, INT_MAX] and nothing else, so
 * that "0", "-1", "abc" and "3x" are all refused before the program starts. */
static int parse_procs(const char *text, long *procs)
{
    char *end;
    errno = 0;
    long value = strtol(text, &end, 10);
    if (end == text || *end != '\0' || errno != 0 || value < 1 || value > INT_MAX)
        return tool_usage_error("run: invalid number of processes '%s' (expected an integer >= 1)",
                                text);
    *procs = value;
    return 0;
}

/* Returns the value of option `name` given as "NAME VALUE" or "NAME=VALUE" at
 * argv[*i], advancing *i past it; NULL if argv[*i] is not that option. Sets
 * *missing when the option is there but its value is not. */
static const char *option_value(int argc, char **argv, int *i, const char *name, bool *missing)
{
    size_t len = strlen(name);
    const char *arg = argv[*i];
    if (strncmp(arg, name, len) != 0)
        return NULL;
    if (arg[len] == '=')
        return arg + len + 1;
    if (arg[len] != '\0')
        return NULL;
    if (*i + 1 >= argc) {
        *missing = true;
        return NULL;
    }
    *i += 1;
    return argv[*i];
}

int cmd_run(int argc, char **argv)
{
    const char *procs_text = NULL;
    const char *engine = tool_engines[0];
    int i = 1;
    for (; i < argc && argv[i][0] == '-'; i++) {
        const char *arg = argv[i];
        const char *value;
        bool missing = false;
        if (strcmp(arg, "--") == 0) {
            i++;
            break;
        }
        if (tool_is_help(arg)) {
            fputs(cmd_run_help, stdout);
            return 0;
        }
        if ((value = option_value(argc, argv, &i, "-p", &missing)) != NULL ||
            (value = option_value(argc, argv, &i, "--procs", &missing)) != NULL) {
            procs_text = value;
        } else if (strncmp(arg, "-p", 2) == 0 && arg[2] != '\0') {
            procs_text = arg + 2; /* -p4, as getopt would accept */
        } else if ((value = option_value(argc, argv, &i, "--engine", &missing)) != NULL) {
            engine = value;
        } else if (missing) {
            return tool_usage_error("run: option '%s' needs a value", arg);
        } else {
            return tool_usage_error("run: unknown option '%s' (try 'polybsp run --help')", arg);
        }
    }
    long procs = 0;
    if (procs_text != NULL && parse_procs(procs_text, &procs) != 0)
        return TOOL_EXIT_USAGE;
    if (!tool_engine_available(engine))
        return tool_usage_error("run: engine '%s' is not available (available: %s)", engine,
                                tool_engine_list());
    if (i >= argc)
        return tool_usage_error("run: missing program (usage: polybsp run [-p N] PROGRAM [ARGS])");

    if (strcmp(engine, "mpi") == 0)
        return tool_exec_mpi("run", procs_text != NULL ? procs : 0, argv + i);
    if (procs_text != NULL) {
        char value[32];
        snprintf(value, sizeof value, "%ld", procs);
        if (setenv("POLYBSP_NPROCS", value, 1) != 0) {
            fprintf(stderr, "polybsp: run: cannot set POLYBSP_NPROCS: %s\n", strerror(errno));
            return 1;
        }
    }
    execvp(argv[i], argv + i);
    int err = errno;
    fprintf(stderr, "polybsp: run: cannot run '%s': %s\n", argv[i], strerror(err));
    return err == ENOENT ? 127 : 126;
}
