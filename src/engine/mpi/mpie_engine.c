/* mpie_engine — the SPMD section on MPI ranks.
 *
 * Every rank runs the program. With bsp_init, ranks other than 0 run the SPMD
 * function straight from bsp_init and end there, as BSPlib on MPI does; without
 * it, all ranks run main, whose first statement is bsp_begin. bsp_begin(P) takes
 * P from rank 0; ranks beyond P take no part and wait for bsp_end. MPI is
 * initialised on first need and finalised at bsp_end if polybsp started it.
 */
#include "core/core.h"
#include "engine/engine.h"
#include "engine/mpi/mpie.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static struct {
    void (*spmd)(void);
    char *program;
    eng_state state;
    int we_initialised;
    core_run *run;
    MPI_Comm participants;
} g;

const char *eng_name(void) { return "mpi"; }

static void start_mpi(void)
{
    int ready;
    MPI_Initialized(&ready);
    if (!ready) {
        MPI_Init(NULL, NULL);
        g.we_initialised = 1;
    }
}

void eng_abort(int status)
{
    int ready;
    MPI_Initialized(&ready);
    if (ready)
        MPI_Abort(MPI_COMM_WORLD, status);
    _exit(status);
}

static void finish(void)
{
    if (g.we_initialised)
        MPI_Finalize();
}

void eng_init(void (*spmd)(void), int argc, char **argv)
{
    g.spmd = spmd;
    if (argc > 0 && argv && argv[0])
        g.program = argv[0];
    start_mpi();
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank != 0 && spmd) {
        spmd();
        /* Returning without bsp_end ends the section as bsp_end would; the
         * others learn how at the closing barrier. */
        if (g.state == ENG_RUNNING)
            core_end(core_self, CORE_END_RETURNED);
        finish();
        exit(0);
    }
}

eng_state eng_section_state(void) { return g.state; }

int eng_available(void)
{
    start_mpi();
    int size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    return size;
}

void mpie_check(int err, const char *what)
{
    if (err != MPI_SUCCESS) {
        char text[MPI_MAX_ERROR_STRING];
        int len = 0;
        MPI_Error_string(err, text, &len);
        core_fatal("polybsp", "%s failed: %s", what, text);
    }
}

static void leave_without_section(void)
{
    MPI_Barrier(MPI_COMM_WORLD); /* the participants' bsp_end */
    finish();
    exit(0);
}

void eng_begin(long long nprocs)
{
    if (g.state == ENG_RUNNING)
        core_fatal("bsp_begin", "called twice (the SPMD section is already running)");
    start_mpi();
    core_install_reporters();
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    long long P = nprocs;
    MPI_Bcast(&P, 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
    if (P < 1)
        core_fatal("bsp_begin", "number of processes %lld must be at least 1", P);
    if (P > size)
        core_fatal("bsp_begin",
                   "%lld processes asked for, but the job has %d MPI ranks (start it with "
                   "mpirun -np %lld)",
                   P, size, P);
    MPI_Comm_split(MPI_COMM_WORLD, rank < P ? 0 : MPI_UNDEFINED, rank, &g.participants);
    if (rank >= P)
        leave_without_section();

    core_run *run = calloc(1, sizeof *run);
    if (!run || !(run->procs = calloc((size_t)P, sizeof *run->procs)))
        core_fatal_oom("process table");
    run->nprocs = (int)P;
    if (core_group_init(&run->root, (int)P, 0))
        core_fatal_oom("process table");
    mpie_group_attach(&run->root, g.participants, rank);
    core_proc *p = calloc(1, sizeof *p);
    if (!p)
        core_fatal_oom("process table");
    run->procs[rank] = p;
    core_proc_init(p, run, rank);
    const char *trace = getenv("POLYBSP_TRACE");
    run->trace_path = trace && *trace ? trace : "polybsp-trace.jsonl";
    run->program = g.program ? g.program : "";
    MPI_Barrier(g.participants);
    run->t0 = core_now();
    if (trace && *trace)
        core_trace_start(p);
    g.run = run;
    core_self = p;
    g.state = ENG_RUNNING;
}

/* Rank 0 writes the records of all ranks, gathered in pid order. */
static void write_trace(core_run *run, core_proc *p)
{
    int traced = run->traced, any;
    MPI_Allreduce(&traced, &any, 1, MPI_INT, MPI_LOR, run->root.e.comm);
    if (!any)
        return;
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    if (!mem)
        core_fatal_oom("trace");
    core_trace_write_records(mem, p);
    fclose(mem);
    int n = (int)len, P = run->nprocs;
    int *counts = NULL, *displs = NULL;
    char *all = NULL;
    if (p->pid == 0) {
        counts = calloc((size_t)P, sizeof *counts);
        displs = calloc((size_t)P, sizeof *displs);
        if (!counts || !displs)
            core_fatal_oom("trace");
    }
    MPI_Gather(&n, 1, MPI_INT, counts, 1, MPI_INT, 0, run->root.e.comm);
    if (p->pid == 0) {
        size_t total = 0;
        for (int q = 0; q < P; q++) {
            displs[q] = (int)total;
            total += (size_t)counts[q];
        }
        all = malloc(total + 1);
        if (!all)
            core_fatal_oom("trace");
    }
    MPI_Gatherv(text, n, MPI_CHAR, all, counts, displs, MPI_CHAR, 0, run->root.e.comm);
    if (p->pid == 0) {
        run->traced = 1;
        FILE *f = core_trace_open(run);
        if (f) {
            core_trace_write_header(f, run);
            fwrite(all, 1, (size_t)displs[P - 1] + (size_t)counts[P - 1], f);
            core_trace_write_end(f, "complete", NULL);
            fclose(f);
        }
    }
    free(text);
    free(all);
    free(counts);
    free(displs);
    run->traced = 0; /* written: nothing left for an abort to write */
}

void eng_end(void)
{
    core_proc *p = core_self;
    core_run *run = g.run;
    core_end(p, CORE_END_CALLED);
    write_trace(run, p);
    core_self = NULL;
    core_proc_free(p);
    free(p);
    core_group_free(&run->root);
    free(run->procs);
    free(run);
    g.run = NULL;
    g.state = ENG_AFTER;
    MPI_Barrier(MPI_COMM_WORLD); /* releases ranks that took no part */
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank != 0) { /* only process 0 goes on after bsp_end */
        finish();
        exit(0);
    }
    finish();
}
