/* mpie_engine — the SPMD sections on MPI ranks, and their groups.
 *
 * Every rank runs the program. Rank 0 decides every section: bsp_begin takes P
 * and the trace file from rank 0, and ranks beyond P take no part in it.
 *  - With bsp_init, ranks other than 0 never return from bsp_init: they serve,
 *    waiting for rank 0 to start a section, running the SPMD function for it and
 *    returning to wait after bsp_end, until rank 0 finalises MPI (or exits). So a
 *    program may run several sections one after the other, as on threads, and
 *    what rank 0 does between them is its own.
 *  - Without bsp_init, all ranks run main, whose first statement is bsp_begin;
 *    after bsp_end only rank 0 goes on (the others wait for its end), and one
 *    section is all there is.
 * Waiting ranks (serving, or beyond P) poll with short sleeps instead of spinning
 * in MPI, so that on an oversubscribed machine they leave the cores to the
 * section's processes. MPI is initialised on first need and, if polybsp started
 * it, finalised when the program exits.
 * A group is a communicator: the whole run's is split off MPI_COMM_WORLD, a part's
 * off its parent's.
 */
#define _DEFAULT_SOURCE 1 /* nanosleep (1: as smpicc's own definition) */
#include "core/core.h"
#include "core/core_watch.h"
#include "engine/engine.h"
#include "engine/mpi/mpie.h"

#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <setjmp.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* What rank 0 tells every rank when a section starts (or that none will). */
typedef struct section {
    long long nprocs; /* rank 0's bsp_begin argument, checked after it arrives */
    int trace_len;    /* bytes of the trace file's name that follow, 0 for none */
    int over;         /* 1: no section follows, the program is ending */
    double timeout;   /* rank 0's POLYBSP_TIMEOUT */
} section;

static struct {
    void (*spmd)(void);
    char *program;
    eng_state state;
    int rank;
    core_run *run;
    MPI_Comm participants;
    int serving;            /* a rank other than 0 that runs the sections rank 0 starts */
    jmp_buf served;         /* where a serving rank goes back to after a section */
    int announced;          /* the next section's header arrived while serving */
    long long nprocs;       /* ... with this P */
    int over;               /* rank 0 said no section follows */
    char *trace;            /* ... and this trace file (NULL: not traced) */
    double timeout;         /* ... and this watchdog timeout (0: none) */
    core_altstack altstack; /* the crash reporter's, during a section */
} g;

/* Kept in the program even when unreferenced: `polybsp run` looks for it. */
#ifdef POLYBSP_SMPI
__attribute__((used)) static const char marker[] = ENG_MARKER "smpi";
#else
__attribute__((used)) static const char marker[] = ENG_MARKER "mpi";
#endif

const char *eng_name(void) { return marker + sizeof ENG_MARKER - 1; }

#ifndef POLYBSP_SMPI /* see mpie_follow_rank0 */
/* Leaving inside a section (exit called there, after its report) skips
 * MPI_Finalize: MPI's launcher then ends the job and nobody waits for this rank. */
static void finalise_at_exit(int status, void *arg)
{
    (void)arg;
    if (g.state == ENG_RUNNING)
        eng_abort(status ? status : 1);
    int done;
    MPI_Finalized(&done);
    if (!done)
        MPI_Finalize();
}
#endif

static void announce(long long nprocs, const char *trace, int over);
static void end_section(unsigned how);

/* Rank 0, as MPI is finalised (by the program or at exit): the waiting ranks
 * (serving ones, or after a section without bsp_init) learn that no section
 * follows. MPI_Finalize runs the delete callbacks of MPI_COMM_SELF's attributes
 * first, while MPI still works. */
#ifndef POLYBSP_SMPI
static int release_servers(MPI_Comm comm, int key, void *value, void *extra)
{
    (void)comm, (void)key, (void)value, (void)extra;
    if (g.rank == 0 && (g.spmd || g.state == ENG_AFTER) && g.state != ENG_RUNNING)
        announce(0, NULL, 1);
    return MPI_SUCCESS;
}
#endif

static void start_mpi(void)
{
    int ready;
    MPI_Initialized(&ready);
    if (ready)
        return;
    MPI_Init(NULL, NULL);
    MPI_Comm_rank(MPI_COMM_WORLD, &g.rank);
    /* Started by polybsp run (tools/polybsp/mpi_output.h), which puts each
     * rank's lines back together: written a line at a time, a line left
     * unfinished is one the program meant to show (a prompt), not the end of
     * a full buffer. glibc's setvbuf with no buffer only changes the mode, so
     * output already buffered is kept. */
    const char *lines = getenv("POLYBSP_MPI_LINES");
    if (lines != NULL && strcmp(lines, "1") == 0)
        setvbuf(stdout, NULL, _IOLBF, BUFSIZ);
#ifdef POLYBSP_SMPI
    mpie_follow_rank0(g.rank);
#else
    on_exit(finalise_at_exit, NULL);
    int key;
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, release_servers, &key, NULL);
    MPI_Comm_set_attr(MPI_COMM_SELF, key, NULL);
#endif
}

#ifndef POLYBSP_SMPI /* see eng_abort */
/* MPI_Abort kills the other ranks at once; under MPICH's launcher the error line
 * this rank has just written may still sit in the pipe to it, and be lost with
 * the rank. So wait, briefly, until the pipe is empty. */
static void drain_stderr(void)
{
    struct stat st;
    if (fstat(STDERR_FILENO, &st) != 0 || !S_ISFIFO(st.st_mode))
        return;
    const struct timespec ms = {0, 1000000};
    for (int waited = 0, n = 0; waited < 200; waited++) {
        if (ioctl(STDERR_FILENO, FIONREAD, &n) != 0 || n <= 0)
            return;
        nanosleep(&ms, NULL);
    }
}
#endif

void eng_abort(int status)
{
#ifdef POLYBSP_SMPI
    /* Every rank is an actor of this one process: leaving it stops them all (SMPI's
     * MPI_Abort would add its own lines and end the simulation with status 0). */
    fflush(stdout);
#else
    int ready;
    MPI_Initialized(&ready);
    if (ready) {
        drain_stderr();
        MPI_Abort(MPI_COMM_WORLD, status);
    }
#endif
    _exit(status);
}

#ifdef POLYBSP_SMPI
int eng_first_report(void) { return 1; } /* one process: core_error's flag is every rank's */
#else
/* An error every rank meets (bsp_abort, a bad argument, exit, a crash, all in
 * the same superstep) would otherwise print one line per rank: each rank is a
 * process with a core_error flag of its own. The ranks of a node share one
 * flag in shared memory, set up at the first bsp_begin (every rank of the job
 * comes there) and kept until the process ends; the first rank to set it
 * prints. Ranks on different nodes cannot share it: a job over N nodes prints
 * at most N lines. Without it (no shared memory), every rank prints, as before. */
static atomic_int *report_flag;

int eng_first_report(void) { return !report_flag || !atomic_exchange(report_flag, 1); }

/* Collective over MPI_COMM_WORLD. The node's lowest rank makes the segment
 * under a name of its own, the others map it, then the name goes: the mappings
 * stay, and nothing is left behind in /dev/shm however the job ends. */
static void share_report_flag(void)
{
    static int done;
    if (done)
        return;
    done = 1;
    MPI_Comm node;
    int local, made = 0, fd = -1;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, g.rank, MPI_INFO_NULL, &node);
    MPI_Comm_rank(node, &local);
    char name[64];
    snprintf(name, sizeof name, "/polybsp-report-%ld-%ld", (long)getpid(), (long)time(NULL));
    MPI_Bcast(name, sizeof name, MPI_CHAR, 0, node);
    if (local == 0) {
        fd = shm_open(name, O_RDWR | O_CREAT | O_EXCL, 0600);
        if (fd >= 0 && ftruncate(fd, sizeof *report_flag) != 0) { /* zero-filled: nobody yet */
            close(fd);
            shm_unlink(name);
            fd = -1;
        }
        made = fd >= 0;
    }
    MPI_Bcast(&made, 1, MPI_INT, 0, node);
    if (made && local != 0)
        fd = shm_open(name, O_RDWR, 0);
    if (fd >= 0) {
        void *at = mmap(NULL, sizeof *report_flag, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        close(fd);
        if (at != MAP_FAILED)
            report_flag = at; /* a rank that could not map it prints regardless */
    }
    if (made) {
        MPI_Barrier(node); /* every rank has opened it */
        if (local == 0)
            shm_unlink(name);
    }
    MPI_Comm_free(&node);
}
#endif

void mpie_wait_watched(MPI_Request *req, unsigned at, unsigned long step)
{
    core_watch_enter(at, step);
    mpie_wait(1, req, 0);
    core_watch_leave();
}

#ifndef POLYBSP_SMPI /* SMPI's waits block: mpie_port.c */
/* GCC 12 takes MPICH's MPI_STATUSES_IGNORE, (MPI_Status *)1, for an array of
 * size 0 and warns that MPI_Testall writes to it (MPICH issue 5687). */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstringop-overflow"
#endif
void mpie_wait(int n, MPI_Request *reqs, long nap_ns)
{
    const struct timespec nap = {0, nap_ns};
    mpie_watch_wait watch = {0, 0, 0};
    for (int done = 0, polls = 0;; polls++) {
        MPI_Testall(n, reqs, &done, MPI_STATUSES_IGNORE);
        if (done)
            return;
        if (polls >= MPIE_POLLS) {
            nap_ns ? nanosleep(&nap, NULL) : sched_yield();
            mpie_watch_poll(&watch);
        }
    }
}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

void mpie_mprobe(int source, int tag, MPI_Comm comm, mpie_message *msg, MPI_Status *st)
{
    mpie_watch_wait watch = {0, 0, 0};
    for (int polls = 0;; polls++) {
        if (mpie_improbe(source, tag, comm, msg, st))
            return;
        if (polls >= MPIE_POLLS) {
            sched_yield();
            mpie_watch_poll(&watch);
        }
    }
}
#endif

/* Collective over MPI_COMM_WORLD: rank 0's section header reaches everyone. The
 * header goes by MPI_Ibcast so that waiting ranks can sleep; g.nprocs and g.trace
 * hold what arrived. */
static void announce(long long nprocs, const char *trace, int over)
{
    section s = {.nprocs = nprocs,
                 .trace_len = trace && *trace ? (int)strlen(trace) + 1 : 0,
                 .over = over,
                 .timeout = g.rank == 0 && nprocs > 0 ? core_watch_timeout() : 0};
    MPI_Request req;
    mpie_ibcast(&s, (int)sizeof s, MPI_BYTE, 0, MPI_COMM_WORLD, &req);
    mpie_wait(1, &req, g.rank == 0 ? 0 : MPIE_NAP_NS);
    free(g.trace);
    g.trace = NULL;
    if (s.trace_len > 0) {
        if (!(g.trace = malloc((size_t)s.trace_len)))
            core_fatal_oom("trace file name");
        if (g.rank == 0)
            memcpy(g.trace, trace, (size_t)s.trace_len);
        MPI_Bcast(g.trace, s.trace_len, MPI_CHAR, 0, MPI_COMM_WORLD);
    }
    g.nprocs = s.nprocs;
    g.over = s.over;
    g.timeout = s.timeout;
}

/* A serving rank's life: one SPMD function call per section rank 0 starts. */
static void serve(void) __attribute__((noreturn));
static void serve(void)
{
    g.serving = 1;
    for (;;) {
        announce(0, NULL, 0); /* what arrives is rank 0's */
        if (g.over)
            exit(0);
        g.announced = 1;
        if (setjmp(g.served) == 0) {
            g.spmd();
            if (g.announced)
                core_fatal("bsp_begin", "the SPMD function returned without calling bsp_begin");
            if (g.state == ENG_RUNNING) /* returned without bsp_end: ends as bsp_end would */
                end_section(CORE_END_RETURNED);
        }
    }
}

void eng_init(void (*spmd)(void), int argc, char **argv)
{
    if (argc > 0 && argv && argv[0])
        g.program = argv[0];
    if (!spmd || g.spmd)
        return;
    g.spmd = spmd;
    start_mpi();
    if (g.rank != 0)
        serve();
}

eng_state eng_section_state(void) { return g.state; }

int eng_available(void)
{
    start_mpi();
    int size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    return size;
}

int eng_rank(void) { return g.rank; }

int mpie_count(size_t n, const char *what)
{
    if (n > INT_MAX)
        core_fatal("bsp_sync", "%s of %zu bytes exceeds MPI's limit of %d bytes", what, n, INT_MAX);
    return (int)n;
}

int eng_group_init(core_group *g)
{
    g->e.comm = MPI_COMM_NULL;
    g->e.split = NULL;
    g->e.split_first = NULL;
    g->e.run_pids = malloc((size_t)g->nprocs * sizeof *g->e.run_pids);
    return g->e.run_pids ? 0 : -1;
}

/* Forgets the part kept from the group's last partition. */
static void drop_split(core_group *g)
{
    if (g->e.split) {
        core_group_free(g->e.split);
        free(g->e.split);
    }
    free(g->e.split_first);
    g->e.split = NULL;
    g->e.split_first = NULL;
}

void mpie_group_attach(core_group *g, MPI_Comm comm, int run_pid)
{
    g->e.comm = comm;
    MPI_Allgather(&run_pid, 1, MPI_INT, g->e.run_pids, 1, MPI_INT, comm);
}

void eng_group_free(core_group *g)
{
    drop_split(g);
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
    c->e.hp_len = calloc(P, sizeof *c->e.hp_len);
    c->e.value_at = calloc(P + 1, sizeof *c->e.value_at);
    c->e.sends_to = calloc(P, sizeof *c->e.sends_to);
    size_t heads = mpie_heads_words(c->nprocs);
    c->e.heads = heads ? calloc(heads, sizeof *c->e.heads) : NULL;
    return c->e.in && c->e.reply && c->e.recs_len && c->e.hp_len && c->e.value_at &&
                   c->e.sends_to && (c->e.heads || !heads)
               ? 0
               : -1;
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
    core_buf_free(&c->e.barrier_room);
    free(c->e.recs_len);
    free(c->e.hp_len);
    free(c->e.sends_to);
    free(c->e.heads);
    free(c->e.value_at);
    free(c->e.reqs);
    free(c->e.block_at);
    free(c->e.block_len);
}

void eng_ctx_attach(core_ctx *c) { (void)c; }

/* A rank with nothing left to run (one section only: after bsp_end, or beyond
 * P) sleeps until rank 0 ends the program. Finalising at once would leave it in
 * MPI_Finalize while rank 0 goes on, where an error of rank 0's (its MPI_Abort)
 * could meet it half-finalised and hang the job. */
static void await_end(void) __attribute__((noreturn));
static void await_end(void)
{
    announce(0, NULL, 0); /* what arrives is rank 0's: the end */
    exit(0);
}

/* A rank beyond P: back to serving, or wait for the end. */
static void leave_without_section(void) __attribute__((noreturn));
static void leave_without_section(void)
{
    if (g.serving)
        longjmp(g.served, 1);
    await_end();
}

void eng_begin(long long nprocs)
{
    core_check_begin(g.state, g.spmd != NULL);
    start_mpi();
    core_install_reporters();
    int size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (!g.announced) {
        const char *trace = getenv("POLYBSP_TRACE");
        announce(nprocs, trace, 0);
    }
    g.announced = 0;
    long long P = g.nprocs;
    /* Every rank has rank 0's P: rank 0 reports a bad one, the others wait for
     * its MPI_Abort, so the run prints one line. */
    if ((P < 1 || P > size) && g.rank != 0)
        mpie_await_stop();
    if (P < 1)
        core_fatal("bsp_begin", "number of processes %lld must be at least 1", P);
    if (P > size)
        core_fatal("bsp_begin",
                   "%lld processes asked for, but the job has %d MPI ranks (start it with "
                   "mpirun -np %lld)",
                   P, size, P);
    int rank = g.rank;
#ifndef POLYBSP_SMPI
    share_report_flag();
#endif
    MPI_Comm_split(MPI_COMM_WORLD, rank < P ? 0 : MPI_UNDEFINED, rank, &g.participants);
    if (rank >= P)
        leave_without_section();

    core_run *run = core_run_create((int)P, rank, rank + 1, g.trace, g.program ? g.program : "");
    mpie_group_attach(&run->root, g.participants, rank);
    mpie_watch_begin(g.participants, g.timeout);
    core_proc *p = run->procs[rank];
    /* Rank 0 makes the trace file before the barrier, so that no rank's clock
     * has started: made after it, the file (0.1 ms) delayed rank 0's first
     * superstep alone, and REAL, which counts from the earliest rank's start,
     * held it as a late start that no model charges (docs/models.md, "REAL").
     * core_trace_start below then finds it made. */
    if (run->trace_all && rank == 0)
        core_trace_create(run, "bsp_begin");
    MPI_Barrier(g.participants);
    run->t0 = core_now();
    if (run->trace_all)
        core_trace_start(p);
    g.run = run;
    if (core_altstack_push(&g.altstack))
        core_fatal_oom("signal stack");
    core_self = p;
    g.state = ENG_RUNNING;
}
/* Rank 0 writes the records of all ranks, gathered in pid order. */
static void write_trace(core_run *run, core_proc *p)
{
    int traced = run->traced, any;
    MPI_Comm comm = run->root.e.comm;
    MPI_Request req;
    mpie_iallreduce(&traced, &any, 1, MPI_INT, MPI_LOR, comm, &req);
    mpie_wait_watched(&req, CORE_AT_END, p->step);
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
    mpie_igather(&n, 1, MPI_INT, counts, 1, MPI_INT, 0, comm, &req);
    mpie_wait_watched(&req, CORE_AT_END, p->step);
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
    mpie_igatherv(text, n, MPI_CHAR, all, counts, displs, MPI_CHAR, 0, comm, &req);
    mpie_wait_watched(&req, CORE_AT_END, p->step);
    if (p->pid == 0) {
        run->traced = 1;
        core_trace_finish(run, all, (size_t)displs[P - 1] + (size_t)counts[P - 1]);
    }
    free(text);
    free(all);
    free(counts);
    free(displs);
    run->traced = 0; /* written: nothing left for an abort to write */
}

/* The closing barrier, the trace, and what each rank does next. */
static void end_section(unsigned how)
{
    core_proc *p = core_self;
    core_run *run = g.run;
    core_end(p, how);
    write_trace(run, p);
    mpie_watch_end();
    core_self = NULL;
    core_altstack_pop(&g.altstack);
    core_run_destroy(run);
    g.run = NULL;
    g.state = ENG_AFTER;
    /* Only process 0 goes on after bsp_end. */
    if (g.serving)
        longjmp(g.served, 1);
    if (g.rank != 0)
        await_end();
}

void eng_end(void) { end_section(CORE_END_CALLED); }

/* The hash of the partition's arguments, for the agreement check. */
static uint64_t partition_hash(int nparts, const int *first)
{
    uint64_t h = mpie_hash(MPIE_HASH_START, (uint64_t)nparts);
    for (int k = 0; k <= nparts; k++)
        h = mpie_hash(h, (uint64_t)first[k]);
    return h;
}

/* Whether every member called bsp_partition with the same arguments, by one
 * reduction of the smallest and largest hash of them (a largest of the
 * complement is the smallest). Two different layouts with the same hash would
 * pass: one chance in 2^64. */
static int partitions_agree(const core_ctx *c, int nparts, const int *first)
{
    uint64_t h = partition_hash(nparts, first), v[2] = {h, UINT64_MAX - h};
    MPI_Request req;
    mpie_iallreduce(MPI_IN_PLACE, v, 2, MPI_UINT64_T, MPI_MAX, c->group->e.comm, &req);
    mpie_wait_watched(&req, CORE_AT_PARTITION, c->proc->step);
    return UINT64_MAX - v[1] == v[0];
}

/* Which member's arguments differ, reported as before the hash: member 0's
 * arguments reach everybody, and the lowest member that differs reports. */
static void report_partition(core_ctx *c, int nparts, const int *first)
{
    int *ref = malloc(((size_t)nparts + 2) * sizeof *ref);
    if (!ref)
        core_fatal_oom("partition");
    ref[0] = nparts;
    memcpy(ref + 1, first, ((size_t)nparts + 1) * sizeof *first);
    int n0 = nparts;
    MPI_Request req;
    mpie_ibcast(&n0, 1, MPI_INT, 0, c->group->e.comm, &req);
    mpie_wait_watched(&req, CORE_AT_PARTITION, c->proc->step);
    int agree = n0 == nparts;
    int *theirs = malloc(((size_t)n0 + 2) * sizeof *theirs);
    if (!theirs)
        core_fatal_oom("partition");
    if (c->pid == 0)
        memcpy(theirs, ref, ((size_t)n0 + 2) * sizeof *ref);
    mpie_ibcast(theirs, n0 + 2, MPI_INT, 0, c->group->e.comm, &req);
    mpie_wait_watched(&req, CORE_AT_PARTITION, c->proc->step);
    for (int k = 0; agree && k <= nparts; k++)
        agree = theirs[k + 1] == first[k];
    char detail[160];
    snprintf(detail, sizeof detail,
             "arguments differ from process %d's (%d parts, sizes must match)",
             c->group->e.run_pids[0], n0);
    free(ref);
    free(theirs);
    mpie_blame(c, !agree, "bsp_partition", detail);
}

core_group *eng_partition(core_ctx *c, int nparts, const int *first, int part)
{
    c->e.at = CORE_AT_PARTITION; /* for mpie_blame's wait */
    if (!partitions_agree(c, nparts, first))
        report_partition(c, nparts, first);
    /* Every member has agreed to the same partitions of this group so far, so
     * every one finds the same answer here: no member splits alone. */
    core_group *kept = c->group->e.split;
    if (kept && c->group->e.split_nparts == nparts && c->group->e.split_part == part &&
        !memcmp(c->group->e.split_first, first, ((size_t)nparts + 1) * sizeof *first)) {
        c->group->e.split = NULL; /* in use until the rejoin gives it back */
        return kept;
    }
    core_group *g = malloc(sizeof *g);
    if (!g || core_group_init(g, first[part + 1] - first[part], c->group->depth + 1))
        core_fatal_oom("partition");
    MPI_Comm comm;
    MPI_Comm_split(c->group->e.comm, part, c->pid, &comm);
    mpie_group_attach(g, comm, c->proc->pid);
    return g;
}

/* The part's group is kept for the next identical partition (eng_group.split):
 * a split costs MPI a communicator and an allgather, about as much as the rest
 * of a division superstep together. */
void eng_rejoin(core_ctx *c, core_ctx *sub)
{
    eng_barrier(c, CORE_AT_REJOIN, 0);
    core_group *g = c->group;
    int *first = malloc(((size_t)sub->nparts + 1) * sizeof *first);
    if (!first)
        core_fatal_oom("rejoin");
    memcpy(first, sub->part_first, ((size_t)sub->nparts + 1) * sizeof *first);
    drop_split(g);
    g->e.split = sub->group;
    g->e.split_first = first;
    g->e.split_nparts = sub->nparts;
    g->e.split_part = sub->part;
}
