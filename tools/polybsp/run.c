/* run.c — `polybsp run [-p N] [--engine E] [--timeout S] PROGRAM [ARGS]`: start a
 * BSP program.
 *
 * Contract: sets POLYBSP_NPROCS=N (when -p is given) and POLYBSP_TIMEOUT=S (when
 * --timeout is given, checked here as the library would) and replaces itself with
 * PROGRAM (searched in PATH as a shell would), so the exit status is PROGRAM's.
 * On the mpi engine it replaces itself with `mpiexec [-np N] PROGRAM ARGS`, N
 * from -p or else POLYBSP_NPROCS (PROGRAM linked with libpolybsp_mpi, e.g. by bspcc --engine mpi),
 * through tool_exec_mpi. The engine is the one PROGRAM was built for (told by the marker the engine
 * leaves in it, engine/engine.h, or the polybsp shared library it needs), or --engine's; a program
 * without either sign, such as a script, runs on --engine's, by default threads. On the smpi
 * engine, `polybsp-smpirun` runs it on a simulated platform (--platform, --hostfile), through
 * tool_exec_smpi. On threads with POLYBSP_SOLO=smpi, a dynamically linked PROGRAM is started
 * by its ELF interpreter (`ld.so PROGRAM ARGS`), which maps it among the shared libraries as
 * SMPI's dlopen maps a program. On mpi, every rank's lines arrive whole (mpi_output.h), or with
 * --output-dir DIR in DIR/PID.out; --output-dir on another engine is refused. Bad options or a
 * missing PROGRAM: one line, status 2; so is a PROGRAM built for another engine than --engine
 * names. PROGRAM that cannot be started: one line, status 127 (not found) or 126 (not executable),
 * as env(1).
 */
#include "tool.h"

#include "core/core_watch.h"
#include "engine/engine.h"

#include <elf.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *const cmd_run_help[] = {
    "usage: polybsp run [-p N] [--engine ENGINE] [--timeout S] [--output-dir DIR]\n"
    "                   [--platform P] [--hostfile F] [--] PROGRAM [ARGS]\n"
    "\n"
    "Runs the BSP program PROGRAM with ARGS. The exit status is the program's.\n"
    "\n"
    "options:\n"
    "  -p, --procs N      run on N processes (1 <= N <= 1000000; more than the cores\n"
    "                     is allowed):\n"
    "                     sets POLYBSP_NPROCS=N, which bsp_nprocs() returns before\n"
    "                     bsp_begin. Without -p the program decides (by default one\n"
    "                     process per core).\n"
    "  --engine ENGINE    the engine to run on: threads, or mpi when built with MPI\n"
    "                     (runs mpiexec --oversubscribe -np N PROGRAM, N from -p,\n"
    "                     else from POLYBSP_NPROCS, else mpiexec's). By default\n"
    "                     the engine PROGRAM was linked for (bspcc --engine), else\n"
    "                     threads; a PROGRAM linked for another engine is refused.\n"
    "                     smpi, when built with SimGrid: simulated ranks on\n"
    "                     --platform (bspcc --engine smpi, docs/smpi.md)\n"
    "  --timeout S        stop the run with one line naming the late processes when\n"
    "                     processes have waited at a synchronisation for S seconds\n"
    "                     (sets POLYBSP_TIMEOUT=S; 0 or unset: no timeout, the default)\n"
    "  --output-dir DIR   mpi: each process's stdout in DIR/PID.out (DIR is created;\n"
    "                     stderr stays on the terminal). Without it, every process's\n"
    "                     lines reach stdout whole, never cut by another's\n"
    "  --platform P       smpi: a SimGrid platform file, or the name of a shipped\n"
    "                     platform (polybsp info --platforms)\n"
    "  --hostfile F       smpi: the host of each rank, one a line (default: ranks fill\n"
    "                     each host's cores in order)\n"
    "  -h, --help         show this help\n"
    "\n"
    "On threads with POLYBSP_SOLO=smpi (a trace meant for a simulated target,\n"
    "docs/env.md) a dynamically linked PROGRAM is started by its own loader\n"
    "(PT_INTERP), which maps it among its libraries, where SMPI maps a program.\n"
    "\n"
    "example: polybsp run -p 4 ./inprod 1000000\n",
    NULL};

/* Parses a process count: a decimal integer in [1, ENG_MAX_NPROCS] and nothing
 * else, so that "0", "-1", "abc", "3x" and more processes than a run may have
 * are all refused before the program starts. */
static int parse_procs(const char *text, long *procs)
{
    char *end;
    errno = 0;
    long value = strtol(text, &end, 10);
    if (end == text || *end != '\0' || errno != 0 || value < 1 || value > ENG_MAX_NPROCS)
        return tool_usage_error(
            "run: invalid number of processes '%s' (expected an integer from 1 to %d)", text,
            ENG_MAX_NPROCS);
    *procs = value;
    return 0;
}

/* A timeout, as POLYBSP_TIMEOUT takes it (core_watch.h). */
static int check_timeout(const char *text)
{
    double value;
    if (core_watch_parse(text, &value) != 0)
        return tool_usage_error("run: invalid timeout '%s' (expected %s)", text,
                                CORE_WATCH_EXPECTED);
    return 0;
}

/* The file execvp would start for name: name itself when it has a '/', else the
 * first executable regular file of that name in PATH; into path, or "". */
static void find_program(const char *name, char *path, size_t size)
{
    const char *dirs = getenv("PATH");
    snprintf(path, size, "%s", name);
    if (strchr(name, '/') != NULL)
        return;
    for (const char *d = dirs ? dirs : ""; *d;) {
        size_t len = strcspn(d, ":");
        struct stat st;
        snprintf(path, size, "%.*s/%s", (int)len, len ? d : ".", name);
        if (stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0)
            return;
        d += len + (d[len] == ':');
    }
    path[0] = '\0';
}

/* Whether text occurs in the n bytes at data. */
static bool holds(const char *data, size_t n, const char *text)
{
    size_t len = strlen(text);
    const char *end = data + n;
    for (const char *at = data; (size_t)(end - at) >= len; at++) {
        at = memchr(at, text[0], (size_t)(end - at) - len + 1);
        if (at == NULL)
            return false;
        if (memcmp(at, text, len) == 0)
            return true;
    }
    return false;
}

/* The engine a program was built for, by what its file holds (ENG_MARKER and
 * the engine's name when linked statically, the library's name when linked
 * with the shared one), or NULL when the file shows neither. */
static const char *program_engine(const char *name)
{
    static const struct {
        const char *text, *engine;
    } signs[] = {{ENG_MARKER "smpi", "smpi"},
                 {ENG_MARKER "mpi", "mpi"},
                 {"libpolybsp_mpi.so", "mpi"},
                 {ENG_MARKER "threads", "threads"},
                 {"libpolybsp.so", "threads"}};
    enum { NSIGNS = sizeof signs / sizeof signs[0], KEEP = 32, BLOCK = 1 << 16 };
    char path[PATH_MAX];
    find_program(name, path, sizeof path);
    FILE *f = path[0] ? fopen(path, "rb") : NULL;
    if (f == NULL)
        return NULL; /* execvp reports it */
    /* Each block is searched with the last KEEP bytes of the one before, so that
     * a text across the boundary is found. */
    static char buf[KEEP + BLOCK];
    size_t kept = 0, n;
    const char *found = NULL;
    while (found == NULL && (n = fread(buf + kept, 1, BLOCK, f)) > 0) {
        size_t len = kept + n;
        for (int k = 0; k < NSIGNS && found == NULL; k++)
            if (holds(buf, len, signs[k].text))
                found = signs[k].engine;
        kept = len < KEEP ? len : KEEP;
        memmove(buf, buf + len - kept, kept);
    }
    fclose(f);
    return found;
}

/* The ELF interpreter (the dynamic loader, PT_INTERP) of the 64-bit program at
 * path, into interp; "" when it has none (linked statically, a script) or is
 * no such program. */
static void program_interpreter(const char *path, char *interp, size_t size)
{
    interp[0] = '\0';
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return;
    Elf64_Ehdr eh;
    if (fread(&eh, sizeof eh, 1, f) == 1 && memcmp(eh.e_ident, ELFMAG, SELFMAG) == 0 &&
        eh.e_ident[EI_CLASS] == ELFCLASS64 && eh.e_phentsize == sizeof(Elf64_Phdr))
        for (unsigned k = 0; k < eh.e_phnum; k++) {
            Elf64_Phdr ph;
            if (fseek(f, (long)(eh.e_phoff + k * sizeof ph), SEEK_SET) != 0 ||
                fread(&ph, sizeof ph, 1, f) != 1)
                break;
            if (ph.p_type != PT_INTERP)
                continue;
            /* A path that ends in its '\0' within the segment, or none. */
            if (!(ph.p_filesz > 1 && ph.p_filesz <= size &&
                  fseek(f, (long)ph.p_offset, SEEK_SET) == 0 &&
                  fread(interp, 1, ph.p_filesz, f) == ph.p_filesz &&
                  interp[ph.p_filesz - 1] == '\0'))
                interp[0] = '\0';
            break;
        }
    fclose(f);
}

/* The line and status of a program that cannot be started, as env(1) gives them. */
static int cannot_run(const char *name, int err)
{
    fprintf(stderr, "polybsp: run: cannot run '%s': %s\n", name, strerror(err));
    return err == ENOENT ? 127 : 126;
}

/* run's options: each takes a value, kept as given (checked after the walk). */
enum { OPT_PROCS, OPT_ENGINE, OPT_TIMEOUT, OPT_PLATFORM, OPT_HOSTFILE, OPT_OUTPUT_DIR, NOPTS };
static const tool_opt run_opts[NOPTS] = {
    [OPT_PROCS] = {"-p|--procs", true},    [OPT_ENGINE] = {"--engine", true},
    [OPT_TIMEOUT] = {"--timeout", true},   [OPT_PLATFORM] = {"--platform", true},
    [OPT_HOSTFILE] = {"--hostfile", true}, [OPT_OUTPUT_DIR] = {"--output-dir", true}};

static int on_run_option(void *ctx, int opt, const char *value)
{
    ((const char **)ctx)[opt] = value;
    return 0;
}

int cmd_run(int argc, char **argv)
{
    const char *given[NOPTS] = {NULL};
    int i;
    /* Options end at the program's name (or after "--"): the rest are its own. */
    int rc =
        tool_parse_args("run", cmd_run_help, argc, argv, run_opts, NOPTS, on_run_option, given, &i);
    if (rc != 0)
        return rc < 0 ? 0 : rc;
    const char *procs_text = given[OPT_PROCS], *timeout = given[OPT_TIMEOUT];
    const char *engine = given[OPT_ENGINE]; /* not asked for: the program's own */
    const char *platform = given[OPT_PLATFORM], *hostfile = given[OPT_HOSTFILE];
    const char *output_dir = given[OPT_OUTPUT_DIR];
    long procs = 0;
    if (procs_text != NULL && parse_procs(procs_text, &procs) != 0)
        return TOOL_EXIT_USAGE;
    if (engine != NULL && !tool_engine_available(engine))
        return tool_usage_error("run: engine '%s' is not available (available: %s)", engine,
                                tool_engine_list());
    if (timeout != NULL && check_timeout(timeout) != 0)
        return TOOL_EXIT_USAGE;
    if (i >= argc)
        return tool_usage_error("run: missing program (usage: polybsp run [-p N] PROGRAM [ARGS])");
    if (timeout != NULL && setenv("POLYBSP_TIMEOUT", timeout, 1) != 0) {
        fprintf(stderr, "polybsp: run: cannot set POLYBSP_TIMEOUT: %s\n", strerror(errno));
        return 1;
    }

    const char *built_for = program_engine(argv[i]);
    if (engine == NULL) {
        engine = built_for != NULL ? built_for : tool_engines[0];
        if (!tool_engine_available(engine))
            return tool_usage_error("run: '%s' is built for the %s engine, which this polybsp "
                                    "lacks (available: %s)",
                                    argv[i], engine, tool_engine_list());
    } else if (built_for != NULL && strcmp(built_for, engine) != 0)
        return tool_usage_error("run: '%s' is built for the %s engine, not %s (link it with "
                                "bspcc --engine %s)",
                                argv[i], built_for, engine, engine);
    if ((platform != NULL || hostfile != NULL) && strcmp(engine, "smpi") != 0)
        return tool_usage_error("run: %s is for --engine smpi only",
                                platform != NULL ? "--platform" : "--hostfile");
    /* The threads engine's processes are threads writing to one stdout (whole
     * lines already), which cannot be told apart. */
    if (output_dir != NULL && strcmp(engine, "mpi") != 0)
        return tool_usage_error("run: --output-dir is for --engine mpi only (on %s the processes "
                                "share one stdout)",
                                engine);
    if (strcmp(engine, "mpi") == 0 || strcmp(engine, "smpi") == 0) {
        /* Without -p, POLYBSP_NPROCS says how many, as on threads: the ranks are
         * what bsp_nprocs() counts there (`POLYBSP_NPROCS=4 ./runtests`). */
        const char *env = getenv("POLYBSP_NPROCS");
        if (procs_text == NULL && env != NULL && *env != '\0') {
            if (parse_procs(env, &procs) != 0)
                return TOOL_EXIT_USAGE;
            procs_text = env;
        }
        /* Told here as execvp would tell it: the launcher, quiet, would not. */
        char path[PATH_MAX];
        find_program(argv[i], path, sizeof path);
        if (!path[0] || access(path, X_OK) != 0)
            return cannot_run(argv[i], path[0] ? errno : ENOENT);
        if (strcmp(engine, "smpi") == 0)
            return tool_exec_smpi("run", platform, hostfile, procs_text != NULL ? procs : 0,
                                  argv + i);
        return tool_exec_mpi_to("run", procs_text != NULL ? procs : 0, argv + i, output_dir);
    }
    if (procs_text != NULL) {
        char value[32];
        snprintf(value, sizeof value, "%ld", procs);
        if (setenv("POLYBSP_NPROCS", value, 1) != 0) {
            fprintf(stderr, "polybsp: run: cannot set POLYBSP_NPROCS: %s\n", strerror(errno));
            return 1;
        }
    }
    /* A trace meant for a simulated target (POLYBSP_SOLO=smpi) runs the program
     * where SMPI runs it: SMPI loads a program as a shared object, among the
     * libraries, where the kernel maps an executable terabytes below them, and
     * a loop calling fmax once an element ran 1.06-1.3x slower from the
     * executable than from a shared object on this VM's CPU (docs/env.md,
     * POLYBSP_SOLO; bench/mapped). Started by its own dynamic loader, the
     * program is mapped as a library is. */
    const char *solo = getenv("POLYBSP_SOLO");
    if (solo != NULL && strcmp(solo, "smpi") == 0) {
        char path[PATH_MAX], interp[PATH_MAX];
        find_program(argv[i], path, sizeof path);
        program_interpreter(path, interp, sizeof interp);
        if (interp[0] != '\0' && access(path, X_OK) == 0) {
            argv[i - 1] = interp; /* the slot of "--", an option or "run" */
            argv[i] = path;
            execv(interp, argv + i - 1);
            fprintf(stderr, "polybsp: run: cannot start '%s' through its loader %s: %s\n", path,
                    interp, strerror(errno));
            return 126;
        }
    }
    execvp(argv[i], argv + i);
    return cannot_run(argv[i], errno);
}
