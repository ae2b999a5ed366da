/* mpie_engine — the SPMD section on MPI ranks, and its groups.
 *
 * Every rank runs the program. With bsp_init, ranks other than 0 run the SPMD
 * function straight from bsp_init and end there, as BSPlib on MPI does; without
 * it, all ranks run main, whose first statement is bsp_begin. bsp_begin(P) takes
 * P from rank 0; ranks beyond P take no part and wait for bsp_end. MPI is
 * initialised on first need and finalised at bsp_end if polybsp started it.
 * A group is a communicator: the whole run's is split off MPI_COMM_WORLD, a part's
 * off its parent's.
 */
#include "core/core.h"
#include "engine/engine.h"
#include "engine/mpi/mpie.h"

#include <limits.h>
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

int mpie_count(size_t n, const char *what)
{
    if (n > INT_MAX)
        core_fatal("bsp_sync", "%s of %zu bytes exceeds MPI's limit of %d bytes", what, n, INT_MAX);
    return (int)n;
}

int eng_group_init(core_group *g)
{
    g->e.comm = MPI_COMM_NULL;
    g->e.run_pids = malloc((size_t)g->nprocs * sizeof *g->e.run_pids);
    return g->e.run_pids ? 0 : -1;
}

void mpie_group_attach(core_group *g, MPI_Comm comm, int run_pid)
{
    g->e.comm = comm;
    MPI_Allgather(&run_pid, 1, MPI_INT, g->e.run_pids, 1, MPI_INT, comm);
}

void eng_group_free(core_group *g)
{
    if (g->e.comm != MPI_COMM_NULL)
        MPI_Comm_free(&g->e.comm);
    free(g->e.run_pids);
}

int eng_ctx_init(core_ctx *c)
{
    memset(&c->e, 0, sizeof c->e);
    size_t P = (size_t)c->nprocs;
    c->e.in = calloc(P, sizeof *c->e.in);
    c->e.reply = calloc(P, sizeof *c->e.reply);
    c->e.recs_len = calloc(P, sizeof *c->e.recs_len);
    c->e.value_at = calloc(P + 1, sizeof *c->e.value_at);
    return c->e.in && c->e.reply && c->e.recs_len && c->e.value_at ? 0 : -1;
}

void eng_ctx_free(core_ctx *c)
{
    for (int q = 0; c->e.in && q < c->nprocs; q++)
        core_buf_free(&c->e.in[q]);
    for (int q = 0; c->e.reply && q < c->nprocs; q++)
        core_buf_free(&c->e.reply[q]);
    free(c->e.in);
    free(c->e.reply);
    core_buf_free(&c->e.values);
    free(c->e.recs_len);
    free(c->e.value_at);
    free(c->e.reqs);
    free(c->e.block_at);
    free(c->e.block_len);
}

void eng_ctx_attach(core_ctx *c) { (void)c; }

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
    /* Every rank has rank 0's P: rank 0 reports a bad one, the others wait for
     * its MPI_Abort, so the run prints one line. */
    if ((P < 1 || P > size) && rank != 0)
        for (;;)
            pause();
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

core_group *eng_partition(core_ctx *c, int nparts, const int *first, int part)
{
    int *ref = malloc(((size_t)nparts + 2) * sizeof *ref);
    if (!ref)
        core_fatal_oom("partition");
    ref[0] = nparts;
    memcpy(ref + 1, first, ((size_t)nparts + 1) * sizeof *first);
    int n0 = nparts;
    MPI_Bcast(&n0, 1, MPI_INT, 0, c->group->e.comm);
    int agree = n0 == nparts;
    int *theirs = malloc(((size_t)n0 + 2) * sizeof *theirs);
    if (!theirs)
        core_fatal_oom("partition");
    if (c->pid == 0)
        memcpy(theirs, ref, ((size_t)n0 + 2) * sizeof *ref);
    MPI_Bcast(theirs, n0 + 2, MPI_INT, 0, c->group->e.comm);
    for (int k = 0; agree && k <= nparts; k++)
        agree = theirs[k + 1] == first[k];
    char detail[160];
    snprintf(detail, sizeof detail,
             "arguments differ from process %d's (%d parts, sizes must match)",
             c->group->e.run_pids[0], n0);
    free(ref);
    free(theirs);
    mpie_blame(c, !agree, "bsp_partition", detail);

    core_group *g = malloc(sizeof *g);
    if (!g || core_group_init(g, first[part + 1] - first[part], c->group->depth + 1))
        core_fatal_oom("partition");
    MPI_Comm comm;
    MPI_Comm_split(c->group->e.comm, part, c->pid, &comm);
    mpie_group_attach(g, comm, c->proc->pid);
    return g;
}

void eng_rejoin(core_ctx *c, core_ctx *sub)
{
    eng_barrier(c, CORE_AT_REJOIN, 0);
    core_group_free(sub->group);
    free(sub->group);
}
