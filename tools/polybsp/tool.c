/* tool.c — helpers shared by the subcommands: usage errors, help flags, engines. */
#include "tool.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* The MPI engine is there when polybsp was built with MPI (libpolybsp_mpi). */
const char *const tool_engines[] = {"threads",
#ifdef POLYBSP_MPIEXEC
                                    "mpi",
#endif
                                    NULL};

int tool_usage_error(const char *format, ...)
{
    va_list ap;
    fputs("polybsp: ", stderr);
    va_start(ap, format);
    vfprintf(stderr, format, ap);
    va_end(ap);
    fputc('\n', stderr);
    return TOOL_EXIT_USAGE;
}

bool tool_is_help(const char *arg)
{
    return strcmp(arg, "help") == 0 || strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0;
}

bool tool_engine_available(const char *name)
{
    for (const char *const *e = tool_engines; *e != NULL; e++) {
        if (strcmp(*e, name) == 0)
            return true;
    }
    return false;
}

const char *tool_engine_list(void)
{
    static char list[256];
    size_t used = 0;
    list[0] = '\0';
    for (const char *const *e = tool_engines; *e != NULL; e++) {
        int n = snprintf(list + used, sizeof list - used, "%s%s", used > 0 ? ", " : "", *e);
        if (n < 0 || (size_t)n >= sizeof list - used)
            break;
        used += (size_t)n;
    }
    return list;
}
