/* main.c — `polybsp`: global options and dispatch to the subcommands of commands.def.
 *
 * Contract: `polybsp --help|-h|help [COMMAND]` and `polybsp --version` print to
 * stdout and exit 0; `polybsp COMMAND ARGS...` returns what the subcommand returns;
 * `polybsp COMMAND help|--help|-h` prints that subcommand's help; anything else is
 * a one-line usage error with exit status 2. What a command printed on stdout
 * that could not be written (a full disk, /dev/full, a file size limit) is one
 * line `polybsp: COMMAND: cannot write standard output: REASON` and status 1.
 */
#include "tool.h"

#include "core/core_file.h"

#include <polybsp.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>

struct command {
    const char *name;
    const char *summary;
    int (*run)(int argc, char **argv);
    const char *const *help;
};

static const struct command commands[] = {
#define POLYBSP_COMMAND(name, summary) {#name, summary, cmd_##name, cmd_##name##_help},
#include "commands.def"
#undef POLYBSP_COMMAND
};

static const struct command *find_command(const char *name)
{
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        if (strcmp(commands[i].name, name) == 0)
            return &commands[i];
    }
    return NULL;
}

static int print_help(void)
{
    printf("usage: polybsp [--help] [--version] COMMAND [ARGS]\n"
           "\n"
           "polybsp runs and describes Bulk Synchronous Parallel (BSP) programs.\n"
           "\n"
           "commands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        printf("  %-12s %s\n", commands[i].name, commands[i].summary);
    printf("  %-12s %s\n", "help", "show this help, or a command's help: polybsp help COMMAND");
    printf("\n"
           "options:\n"
           "  -h, --help   show this help\n"
           "  --version    show the version\n"
           "\n"
           "Usage errors exit with status 2. See docs/tool.md.\n");
    return 0;
}

static int print_command_help(const char *name)
{
    const struct command *cmd = find_command(name);
    if (cmd == NULL)
        return tool_usage_error("unknown command '%s' (try 'polybsp --help')", name);
    tool_print_help(cmd->help);
    return 0;
}

/* Whatever a command printed must have reached standard output: a buffered
 * write that failed is only seen here. rc, or 1 after the line when it was 0. */
static int check_stdout(const char *name, int rc)
{
    int err = 0;
    if (fflush(stdout) != 0 || ferror(stdout))
        err = errno ? errno : EIO;
    if (!err)
        return rc;
    fprintf(stderr, "polybsp: %s: cannot write standard output: %s\n", name, strerror(err));
    return rc ? rc : 1;
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return tool_usage_error("missing command (try 'polybsp --help')");
    const char *name = argv[1];
    if (tool_is_help(name)) {
        if (argc > 3)
            return tool_usage_error("help: too many arguments");
        return argc == 3 ? print_command_help(argv[2]) : print_help();
    }
    if (strcmp(name, "--version") == 0) {
        if (argc > 2)
            return tool_usage_error("--version takes no arguments");
        printf("polybsp %s\n", bsp_polybsp_version());
        return 0;
    }
    if (name[0] == '-')
        return tool_usage_error("unknown option '%s' (try 'polybsp --help')", name);
    const struct command *cmd = find_command(name);
    if (cmd == NULL)
        return tool_usage_error("unknown command '%s' (try 'polybsp --help')", name);
    /* Only the first argument is checked here: later ones may belong to the
     * program that `run` starts, which may have its own --help. */
    if (argc > 2 && tool_is_help(argv[2]))
        return print_command_help(name);
    /* A file size limit must fail a write, not end polybsp silently
     * (core_file.h); `run` alone keeps the disposition it was given, which the
     * program it hands itself over to (exec) inherits. */
    int hold = strcmp(name, "run") != 0;
    if (hold)
        core_file_hold_xfsz();
    errno = 0;
    int rc = cmd->run(argc - 1, argv + 1);
    rc = check_stdout(name, rc);
    if (hold)
        core_file_release_xfsz();
    return rc;
}
