/* tool.h — what every polybsp subcommand shares.
 *
 * Contract: a subcommand returns its exit status (0 success, 2 bad usage); it
 * reports bad usage with tool_usage_error(), which prints exactly one line
 * `polybsp: ...` to stderr. Help goes to stdout with status 0.
 */
#ifndef POLYBSP_TOOL_H
#define POLYBSP_TOOL_H

#include "core/core_file.h"

#include <stdbool.h>
#include <stdio.h>

/* Exit status of every usage error, so that scripts can tell "you called me
 * wrongly" (2) from "the BSP program failed" (its own status, usually 1). */
#define TOOL_EXIT_USAGE 2

/* A subcommand's help is pieces, NULL-ended, printed one after the other
 * (tool_print_help): C compilers need not take a literal of more than 4095
 * bytes (-Woverlength-strings), and predict's help is near that. */
#define POLYBSP_COMMAND(name, summary)                                                             \
    int cmd_##name(int argc, char **argv);                                                         \
    extern const char *const cmd_##name##_help[];
#include "commands.def"
#undef POLYBSP_COMMAND

/* Prints `polybsp: <message>` and a newline to stderr; returns TOOL_EXIT_USAGE. */
int tool_usage_error(const char *format, ...) __attribute__((format(printf, 1, 2)));

/* True for the arguments that ask for help: `help`, `--help`, `-h`. */
bool tool_is_help(const char *arg);
/* Prints a subcommand's help, its pieces in order, to stdout. */
void tool_print_help(const char *const *help);

/* The value of option `name` at argv[*i], given as "NAME VALUE" or, for a long
 * option (--name), "NAME=VALUE"; advances *i past it. NULL when argv[*i] is
 * another option; *missing is set when it is this one without its value. */
const char *tool_option_value(int argc, char **argv, int *i, const char *name, int *missing);

/* One option of a subcommand, for tool_parse_args. */
typedef struct tool_opt {
    const char *names; /* its spellings, "|"-separated: "-o|--output" */
    bool value;        /* takes a value: "NAME VALUE", "--long=VALUE" or "-sVALUE" */
} tool_opt;

/* What tool_parse_args passes as the option of an argument that is none. */
#define TOOL_ARG (-1)

/* The one walk over a subcommand's arguments argv[1 .. argc): help (`-h`,
 * `--help`, `help`) prints `help` to stdout and returns -1; each option of
 * opts[0 .. nopts) calls on(ctx, its index, its value or NULL); any other
 * argument calls on(ctx, TOOL_ARG, it), unless rest is not NULL: then the walk
 * stops at the first such argument, or just after "--", and stores its index
 * in *rest (argc when none). An option without its value and an unknown one
 * are one line each, `CMD: option 'ARG' needs a value` and `CMD: unknown
 * option 'ARG' (try 'polybsp CMD --help')`, and return TOOL_EXIT_USAGE; a
 * non-zero return of `on` ends the walk with it. Returns 0 otherwise. */
int tool_parse_args(const char *cmd, const char *const *help, int argc, char **argv,
                    const tool_opt *opts, int nopts,
                    int (*on)(void *ctx, int opt, const char *value), void *ctx, int *rest);

/* text as a whole decimal integer in [least, most] into *out: 0, or -1 (*out
 * untouched) for anything else, signs and spaces around included. */
int tool_integer(const char *text, long least, long most, long *out);

/* The index of `value` among the n names, or -1 after the line `CMD: unknown
 * WHAT 'VALUE' (expected A, B or C)`. */
int tool_choice(const char *cmd, const char *what, const char *value, const char *const *names,
                int n);

/* --ccm-plain VALUE of `polybsp CMD` (predict, report, portability): patterns
 * clears COST_CCM_PLAIN_BSP in *flags, bsp sets it; returns 0, or
 * TOOL_EXIT_USAGE after the usage line. tool_ccm_plain_name: the value the
 * flags stand for. */
int tool_ccm_plain(const char *cmd, const char *value, int *flags);
const char *tool_ccm_plain_name(int flags);

/* The one writer of every file a subcommand produces (-o of predict, report,
 * portability, probe; its checks): the file is replaced whole or not at all
 * (core_file.h: a temporary beside it, fsync, rename; a symbolic link, a
 * device, a directory or a FIFO at the path is refused, never written through),
 * so a full disk or a file size limit leaves the old file as it was.
 * Standard output is checked once, by main, after the subcommand returns.
 *
 * tool_out_check: whether path can be written, before minutes are spent making
 * its content: a regular file or absent, in a directory where files can be
 * made. tool_out_open: o->f open on the new file. Both return 0, or
 * TOOL_EXIT_USAGE after the line `CMD: cannot write 'PATH': REASON`.
 * tool_out_close: the content becomes path's; 0, or 1 after the same line
 * (nothing changed at path); the new file is removed. */
typedef struct tool_out {
    FILE *f;
    core_file file;
    const char *cmd, *path;
} tool_out;
int tool_out_check(const char *cmd, const char *path);
int tool_out_open(tool_out *o, const char *cmd, const char *path);
int tool_out_close(tool_out *o);

/* The engines this build of polybsp can run programs on, the default first; NULL-terminated. */
extern const char *const tool_engines[];

/* True if `name` is one of tool_engines. */
bool tool_engine_available(const char *name);

/* tool_engines joined with ", ", for messages; a static buffer. */
const char *tool_engine_list(void);

/* Runs MPI's launcher on argv (argv[0] the program) on np ranks (0: the launcher
 * decides), oversubscribed, as root allowed and without Open MPI's banners, and
 * returns its exit status (128 + S when it died by signal S), after one line
 * `polybsp: CMD: ...` when a rank was killed by SIGKILL (which no rank can
 * report). 127 when the launcher cannot run, 2 when this polybsp was built
 * without MPI, each after one line. */
int tool_exec_mpi(const char *cmd, long np, char *const *argv);
/* The same, with each rank's stdout in output_dir/R.out (NULL: this process's
 * stdout). With Open MPI every rank's lines arrive whole (mpi_output.h). */
int tool_exec_mpi_to(const char *cmd, long np, char *const *argv, const char *output_dir);

/* The same for `sibling`, the program of that name beside this one, with
 * argv[1 .. argc) as its arguments (argv[0] is the subcommand's name). */
int tool_exec_sibling(const char *cmd, const char *sibling, long np, int argc, char **argv);

/* The SPMD function of `polybsp portability`'s programs: polybsp-portability-mpi
 * passes it to bsp_init so that its ranks beyond 0 serve them. */
void portability_spmd(void);

/* Replaces this process with polybsp-smpirun (beside the polybsp binary; see
 * tools/smpi) running argv on np simulated ranks (0: one per hostfile line) of
 * platform (a file or a shipped platform's name) with hostfile (NULL: ranks
 * fill each host's cores in order), with SimGrid's smpi/host-speed this
 * machine's DAXPY rate unless POLYBSP_SMPI_FLAGS sets it (docs/smpi.md). With
 * argv NULL, lists the shipped platforms
 * instead. Returns only on failure, after one line `polybsp: CMD: ...`: 127 when
 * the launcher cannot run, 2 when this polybsp was built without SimGrid. */
int tool_exec_smpi(const char *cmd, const char *platform, const char *hostfile, long np,
                   char *const *argv);

/* The same for `sibling`, a program beside this one that smpirun loads (a
 * shared object), with argv[1 .. argc) as its arguments less --engine,
 * --platform and --hostfile (and their values), then extra if not NULL. */
int tool_exec_smpi_sibling(const char *cmd, const char *sibling, const char *platform,
                           const char *hostfile, long np, int argc, char **argv, const char *extra);

#endif /* POLYBSP_TOOL_H */
