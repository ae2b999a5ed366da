/* core_trace — superstep records in blocks, and the JSON Lines writer. */
#define _GNU_SOURCE /* RUSAGE_THREAD */
#include "core/core_trace.h"

#include "core/core.h"
#include "core/core_cpuclock.h"
#include "core/core_error.h"
#include "core/core_file.h"
#include "core/core_rate.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

void core_trace_label(core_proc *p, core_step_kind kind)
{
    core_tracer *t = &p->tr;
    if (kind != CORE_KIND_NORMAL && t->kind == CORE_KIND_NORMAL)
        t->op = t->nops++;
    t->kind = kind;
    if (kind == CORE_KIND_NORMAL)
        t->alg = NULL;
}

void core_trace_alg(core_proc *p, const char *alg) { p->tr.alg = alg; }

/* "i/j/...": the part indices from the whole run down to the current group. */
static char *group_path(const core_proc *p)
{
    int depth = 0;
    for (const core_ctx *c = p->ctx; c->parent; c = c->parent)
        depth++;
    if (!depth)
        return NULL;
    char *s = malloc((size_t)depth * 12 + 1);
    if (!s)
        core_fatal_oom("trace");
    size_t at = (size_t)depth * 12;
    s[at] = '\0';
    for (const core_ctx *c = p->ctx; c->parent; c = c->parent) {
        char num[12];
        int n = snprintf(num, sizeof num, c == p->ctx ? "%d" : "%d/", c->part);
        at -= (size_t)n;
        memcpy(s + at, num, (size_t)n);
    }
    memmove(s, s + at, strlen(s + at) + 1);
    return s;
}

void core_trace_init(core_proc *p)
{
    core_tracer *t = &p->tr;
    memset(t, 0, sizeof *t);
    atomic_init(&t->served_bytes, 0);
    atomic_init(&t->served_msgs, 0);
    atomic_init(&t->published, 0);
}

void core_trace_free(core_proc *p)
{
    core_tracer *t = &p->tr;
    size_t n = atomic_load(&t->published);
    core_trace_block *b = t->head;
    for (size_t i = 0; i < n; i++) {
        free(b->recs[i % CORE_TRACE_BLOCK].from);
        free(b->recs[i % CORE_TRACE_BLOCK].from_bytes);
        free(b->recs[i % CORE_TRACE_BLOCK].group);
        if (i % CORE_TRACE_BLOCK == CORE_TRACE_BLOCK - 1)
            b = b->next;
    }
    while (t->head) {
        b = t->head->next;
        free(t->head);
        t->head = b;
    }
    free(t->from);
    free(t->seen);
    free(t->looked);
}

/* Page faults and involuntary context switches the calling thread has taken,
 * or -1 where they say nothing of one process: under SMPI every simulated rank
 * runs on the simulator's threads. A sync's faults are the first touch of
 * memory (a destination that was never written, a buffer that grew): time
 * that no model's g or L describes (docs/models.md, "Page faults in the
 * sync"). A context switch the thread did not ask for is time it lost to
 * another (a preempted superstep, which `portability` leaves out). */
static void thread_usage(int64_t *faults, int64_t *preempt)
{
#ifdef POLYBSP_SMPI
    *faults = *preempt = -1;
#else
    struct rusage ru;
    if (getrusage(RUSAGE_THREAD, &ru) != 0) {
        *faults = *preempt = -1;
        return;
    }
    *faults = (int64_t)ru.ru_minflt + (int64_t)ru.ru_majflt;
    *preempt = (int64_t)ru.ru_nivcsw;
#endif
}

static int64_t thread_faults(void)
{
    int64_t faults, preempt;
    thread_usage(&faults, &preempt);
    return faults;
}

/* The thread's CPU time: what a superstep computed, whatever else this machine
 * ran meanwhile, and so a figure that holds on another machine once scaled by
 * the two rates (predict --machine). Under SMPI, the simulated work itself (w:
 * the library charges the program's CPU time alone, eng_work_pause). */
static double thread_cpu(void)
{
#ifdef POLYBSP_SMPI
    return -1;
#else
    return core_thread_cpu();
#endif
}

/* The fresh pages counted for the next sync, and the destinations looked at
 * for it: from the end of one sync (or the start of tracing) to the end of the
 * next, since a get's destination is looked at when the get is made. */
static void forget_dests(core_tracer *t)
{
    t->fresh = 0;
    memset(t->looked, 0, CORE_TRACE_LOOKED * sizeof *t->looked);
}

void core_trace_start(core_proc *p)
{
    core_tracer *t = &p->tr;
    /* At bsp_begin (the engine starts every process it holds, before any runs:
     * no core_self yet) process 0 creates the file for the run; a process that
     * calls bsp_trace_begin creates it if no one here has, where "here" holds
     * process 0: the file is process 0's, and an MPI rank without it would
     * leave a header of its own in its working directory. That takes a few
     * hundred microseconds (replacing a file), which delays this process alone
     * inside the traced part: its clock starts before, so the time is in its
     * first w, and the record says how much of w it was (setup). */
    double begin = core_now();
    t->setup = 0;
    if (core_self) {
        if (p->run->procs[0] && core_trace_create(p->run, "bsp_trace_begin"))
            t->setup = core_now() - begin;
    } else if (p->pid == 0) {
        core_trace_create(p->run, "bsp_begin");
    }
    t->ticks0 = core_ticks();
    t->clock0 = core_now();
    t->copy_ticks = 0;
    t->grow = 0;
    if (!t->seen) {
        /* A bit per process, and the sources as they come: 5 P bytes a
         * process made 335 MB at P = 8192 (reliability.md). */
        t->seen = calloc(((size_t)p->run->nprocs + 7) / 8, 1);
        t->from_cap = p->run->nprocs < CORE_TRACE_FROM_FIRST ? (uint32_t)p->run->nprocs
                                                             : CORE_TRACE_FROM_FIRST;
        t->from = malloc(t->from_cap * sizeof *t->from);
        /* Written whole here (malloc and memset, not calloc, which may leave
         * fresh pages untouched), so that its page faults are not a sync's. */
        t->looked = malloc((CORE_TRACE_LOOKED + CORE_TRACE_KNOWN) * sizeof *t->looked);
        if (!t->seen || !t->from || !t->looked)
            core_fatal_oom("trace");
        core_trace_forget_areas(t);
        /* A shift, not a division, on every destination a traced sync writes. */
        for (long page = sysconf(_SC_PAGESIZE); page > 1; page >>= 1)
            t->page_shift++;
    }
    forget_dests(t);
    atomic_store_explicit(&p->run->traced, 1, memory_order_relaxed);
    t->on = 1;
    thread_usage(&t->faults_exit, &t->preempt_exit);
    t->cpu_exit = thread_cpu();
    t->last_exit = (t->setup > 0 ? begin : core_now()) - p->run->t0;
    for (int k = 0; k < CORE_OPS_KINDS; k++)
        t->ops[k] = -1;
    t->bytes_out = t->msgs_out = t->hp_bytes_out = t->send_bytes_out = 0;
}

void core_trace_thread_begins(core_proc *p)
{
    if (p->tr.on) {
        thread_usage(&p->tr.faults_exit, &p->tr.preempt_exit);
        p->tr.cpu_exit = thread_cpu();
    }
}

void core_trace_stop(core_proc *p) { p->tr.on = 0; }

double core_trace_growth_begin(const core_tracer *t) { return t->on ? thread_cpu() : -1; }

void core_trace_growth_end(core_tracer *t, double begin)
{
    double now = begin >= 0 ? thread_cpu() : -1;
    /* The two reads are inside the stretch cpu measures, and the pair
     * brackets about one of them. */
    if (now >= 0)
        t->grow += now - begin + core_thread_cpu_cost();
}

void core_trace_add_source(core_proc *p, int src, uint64_t n)
{
    core_tracer *t = &p->tr;
    if (src == p->pid)
        return;
    unsigned char bit = (unsigned char)(1u << (src & 7));
    if (!(t->seen[src >> 3] & bit)) {
        t->seen[src >> 3] |= bit;
        if (t->nfrom == t->from_cap) { /* doubling: a few times a run at most */
            core_trace_source *more = realloc(t->from, 2 * (size_t)t->from_cap * sizeof *more);
            if (!more)
                core_fatal_oom("trace");
            t->from = more;
            t->from_cap *= 2;
        }
        t->from_last = t->nfrom;
        t->from[t->nfrom++] = (core_trace_source){.pid = src, .bytes = n};
        return;
    }
    /* A source seen before: most often the one just counted (a run of gets
     * from one process); else a search, which a superstep takes at most
     * once per source and kind of landing. */
    if (t->from[t->from_last].pid != src)
        for (t->from_last = 0; t->from[t->from_last].pid != src; t->from_last++)
            ;
    t->from[t->from_last].bytes += n;
}

void core_trace_add_self(core_proc *p, uint64_t n)
{
    p->tr.self_bytes += n;
    p->tr.self_msgs++;
}

/* The superstep's copying time in seconds (its ticks, converted by the ratio
 * of clock to ticks since tracing started), at most its w; -1 under SMPI, where
 * the ticks count real time and the trace's times are simulated. */
static double copy_seconds(core_tracer *t, double clock, double w)
{
    uint64_t copy = t->copy_ticks;
    t->copy_ticks = 0;
#ifdef POLYBSP_SMPI
    (void)copy;
    (void)clock;
    (void)w;
    return -1;
#else
    uint64_t ticks = core_ticks();
    if (ticks <= t->ticks0 || clock <= t->clock0 || w <= 0)
        return 0;
    double s = (double)copy * ((clock - t->clock0) / (double)(ticks - t->ticks0));
    return s < w ? s : w;
#endif
}

enum { MINCORE_PAGES = 1024 }; /* pages one mincore call looks at (its vector's bytes) */

/* How many of pages [first, first + k) (k <= MINCORE_PAGES) nothing has touched,
 * or -1 when mincore refuses (not all mapped memory). It says 0 for a page of
 * anonymous memory that nothing touched, 1 once it is mapped, the zero page
 * that a read maps included. */
static long untouched_pages(const core_tracer *t, uintptr_t first, uintptr_t k)
{
    unsigned char vec[MINCORE_PAGES];
    if (mincore((void *)(first << t->page_shift), k << t->page_shift, vec) != 0)
        return -1;
    long n = 0;
    for (uintptr_t i = 0; i < k; i++)
        n += !(vec[i] & 1);
    return n;
}

/* Counts the untouched pages of [to, to + n) into t->fresh, asking mincore only
 * for pages the direct-mapped cache seen[size] (page number + 1 at page %
 * size) does not hold, and entering every page, since the write that follows
 * maps it. */
static void count_fresh(core_tracer *t, const void *to, size_t n, uintptr_t *seen, size_t size)
{
    uintptr_t first = (uintptr_t)to >> t->page_shift;
    uintptr_t last = ((uintptr_t)to + n - 1) >> t->page_shift;
    for (uintptr_t q = first; q <= last;) {
        if (seen[q % size] == q + 1) {
            q++;
            continue;
        }
        /* From the first page not held, one call for up to MINCORE_PAGES. */
        uintptr_t k = last - q + 1 < MINCORE_PAGES ? last - q + 1 : MINCORE_PAGES;
        long fresh = untouched_pages(t, q, k);
        if (fresh > 0)
            t->fresh += fresh;
        for (uintptr_t i = 0; i < k; i++)
            seen[(q + i) % size] = q + i + 1;
        q += k;
    }
}

void core_trace_count_fresh(core_tracer *t, const void *to, size_t n)
{
    count_fresh(t, to, n, t->looked, CORE_TRACE_LOOKED);
}

void core_trace_count_fresh_area(core_tracer *t, const void *to, size_t n)
{
    count_fresh(t, to, n, t->looked + CORE_TRACE_LOOKED, CORE_TRACE_KNOWN);
    t->last_page = (((uintptr_t)to + n - 1) >> t->page_shift) + 1;
}

/* Also for processes that never traced (no cache yet): registrations change. */
void core_trace_forget_areas(core_tracer *t)
{
    if (t->looked)
        memset(t->looked + CORE_TRACE_LOOKED, 0, CORE_TRACE_KNOWN * sizeof *t->looked);
    t->last_page = 0;
}

void core_trace_enter(core_proc *p)
{
    /* Counted outside [t_enter, t_exit], so the two calls (0.2 µs each here)
     * fall into the measured work w, not into the sync the models predict;
     * the CPU clock first, so that the fault count is not in cpu. */
    p->tr.cpu_enter = thread_cpu();
    p->tr.faults_enter = thread_faults();
    p->tr.t_enter = core_now() - p->run->t0;
    p->tr.step = p->step;
    p->tr.bytes_in = p->tr.msgs_in = 0;
    p->tr.self_bytes = p->tr.self_msgs = 0;
    p->tr.hp_bytes_in = p->tr.send_bytes_in = 0;
}

static int cmp_source(const void *a, const void *b)
{
    int32_t x = ((const core_trace_source *)a)->pid, y = ((const core_trace_source *)b)->pid;
    return (x > y) - (x < y);
}

void core_trace_exit(core_proc *p, core_step_kind ended_by, int level)
{
    core_tracer *t = &p->tr;
    /* The sync ends here: what the tracer does from now on (counting faults,
     * 0.2 µs a call here, and filling the record) falls into the next
     * superstep's w, where measured work holds it, as core_trace_enter's count
     * falls into this one's; inside [t_enter, t_exit] it would be time no
     * model charges (a traced Exchange of 3360 bytes took 1.0 µs a superstep
     * against 0.35 untraced). It stays out of the next cpu, whose clock is
     * read again at the end: cpu is the program's own work, which travels to
     * another machine, and the tracer's is not (0.9 µs of an empty
     * superstep's cpu was). */
    double now = core_now() - p->run->t0;
    /* Before a new block of records is touched: its faults are the tracer's. */
    int64_t faults, preempt;
    thread_usage(&faults, &preempt);
    int64_t faults_after = faults;
    size_t n = atomic_load_explicit(&t->published, memory_order_relaxed);
    if (n % CORE_TRACE_BLOCK == 0) {
        core_trace_block *b = malloc(sizeof *b);
        if (!b)
            core_fatal_oom("trace");
        /* Touched whole now and counted apart, so that the records written
         * later fault in neither the work nor a sync. */
        memset(b, 0, sizeof *b);
        faults_after = thread_faults();
        b->next = NULL;
        if (t->tail)
            t->tail->next = b;
        else
            t->head = b;
        t->tail = b;
    }
    core_trace_rec *r = &t->tail->recs[n % CORE_TRACE_BLOCK];
    r->faults = faults >= 0 && t->faults_enter >= 0 ? faults - t->faults_enter : -1;
    r->fresh = r->faults >= 0 ? t->fresh : -1;
    r->w_faults =
        t->faults_enter >= 0 && t->faults_exit >= 0 ? t->faults_enter - t->faults_exit : -1;
    r->step = t->step;
    r->kind = (uint8_t)(ended_by != CORE_KIND_NORMAL ? ended_by : t->kind);
    r->op = t->op;
    r->alg = core_kind_is_collective(r->kind) ? t->alg : NULL;
    r->level = (uint8_t)level;
    r->group = group_path(p);
    r->w = t->t_enter - t->last_exit;
#ifdef POLYBSP_SMPI
    r->cpu = r->w > 0 ? r->w : 0;
    r->grow = -1;
#else
    /* Less one read of the clock: the two reads that bound the stretch are
     * the tracer's, about 0.7 us together here, as much as a small superstep
     * computes (the simulator's charge takes the same off, mpie_port.c); and
     * less the out buffers' growth, the library's (core_trace_growth_end). */
    int timed = t->cpu_enter >= 0 && t->cpu_exit >= 0;
    r->cpu = timed ? fmax(0, t->cpu_enter - t->cpu_exit - core_thread_cpu_cost() - t->grow) : -1;
    r->grow = timed ? t->grow : -1;
#endif
    t->grow = 0;
    r->preempt = preempt >= 0 && t->preempt_exit >= 0 ? preempt - t->preempt_exit : -1;
    r->copy = copy_seconds(t, now + p->run->t0, r->w);
    r->setup = t->setup < r->w ? t->setup : r->w;
    t->setup = 0;
    memcpy(r->ops, t->ops, sizeof r->ops);
    r->t_enter = t->t_enter;
    r->t_exit = now;
    r->bytes_out = t->bytes_out + atomic_exchange(&t->served_bytes, 0);
    r->msgs_out = t->msgs_out + atomic_exchange(&t->served_msgs, 0);
    r->bytes_in = t->bytes_in;
    r->msgs_in = t->msgs_in;
    r->self_bytes = t->self_bytes;
    r->self_msgs = t->self_msgs;
    r->hp_bytes_out = t->hp_bytes_out;
    r->hp_bytes_in = t->hp_bytes_in;
    r->send_bytes_out = t->send_bytes_out;
    r->send_bytes_in = t->send_bytes_in;
    r->regs = t->regs;
    t->regs = 0;
    r->nfrom = t->nfrom;
    r->from = NULL;
    r->from_bytes = NULL;
    if (t->nfrom) {
        qsort(t->from, t->nfrom, sizeof *t->from, cmp_source);
        r->from = malloc(t->nfrom * sizeof *r->from);
        r->from_bytes = malloc(t->nfrom * sizeof *r->from_bytes);
        if (!r->from || !r->from_bytes)
            core_fatal_oom("trace");
        for (uint32_t i = 0; i < t->nfrom; i++) {
            r->from[i] = t->from[i].pid;
            r->from_bytes[i] = t->from[i].bytes;
            t->seen[t->from[i].pid >> 3] = 0;
        }
    }
    t->nfrom = 0;
    for (int k = 0; k < CORE_OPS_KINDS; k++)
        t->ops[k] = -1;
    t->bytes_out = t->msgs_out = t->hp_bytes_out = t->send_bytes_out = 0;
    forget_dests(t);
    t->last_exit = now;
    t->faults_exit = faults_after;
    t->preempt_exit = preempt;
    t->cpu_exit = thread_cpu();
    atomic_store_explicit(&t->published, n + 1, memory_order_release);
}

static void set_count(core_trace_value *v, int present, uint64_t n)
{
    v->present = present;
    v->v.n = n;
}

static void set_number(core_trace_value *v, int present, double x)
{
    v->present = present;
    v->v.x = x;
}

static void set_text(core_trace_value *v, const char *s)
{
    v->present = s != NULL;
    v->v.s = s;
}

/* The schema's fields of a record (core_trace_schema.h), each present when it
 * says something: a count that was not taken (-1) or a pair of zeros that
 * tells nothing is left out. */
static void record_values(const core_trace_rec *r, int pid, core_trace_value *v)
{
    int hp = r->hp_bytes_out || r->hp_bytes_in, send = r->send_bytes_out || r->send_bytes_in;
    set_count(&v[CORE_TF_STEP], 1, r->step);
    set_count(&v[CORE_TF_PID], 1, (uint64_t)pid);
    set_text(&v[CORE_TF_KIND], core_kind_name((core_step_kind)r->kind));
    set_count(&v[CORE_TF_LEVEL], 1, r->level);
    set_text(&v[CORE_TF_GROUP], r->group);
    set_count(&v[CORE_TF_OP], core_kind_is_collective((core_step_kind)r->kind), r->op);
    set_text(&v[CORE_TF_ALG], r->alg);
    set_number(&v[CORE_TF_W], 1, r->w > 0 ? r->w : 0.0);
    set_number(&v[CORE_TF_CPU], r->cpu >= 0, r->cpu);
    set_number(&v[CORE_TF_COPY], r->copy >= 0, r->copy);
    set_number(&v[CORE_TF_GROW], r->grow >= 0, r->grow);
    set_number(&v[CORE_TF_SETUP], r->setup > 0, r->setup);
    v[CORE_TF_OPS].present = 1; /* the kinds not declared (-1) are left out */
    memcpy(v[CORE_TF_OPS].v.amounts, r->ops, sizeof r->ops);
    set_count(&v[CORE_TF_BYTES_OUT], 1, r->bytes_out);
    set_count(&v[CORE_TF_MSGS_OUT], 1, r->msgs_out);
    set_count(&v[CORE_TF_BYTES_IN], 1, r->bytes_in);
    set_count(&v[CORE_TF_MSGS_IN], 1, r->msgs_in);
    set_count(&v[CORE_TF_SELF_BYTES], 1, r->self_bytes);
    set_count(&v[CORE_TF_SELF_MSGS], 1, r->self_msgs);
    set_count(&v[CORE_TF_HP_BYTES_OUT], hp, r->hp_bytes_out);
    set_count(&v[CORE_TF_HP_BYTES_IN], hp, r->hp_bytes_in);
    set_count(&v[CORE_TF_SEND_BYTES_OUT], send, r->send_bytes_out);
    set_count(&v[CORE_TF_SEND_BYTES_IN], send, r->send_bytes_in);
    set_count(&v[CORE_TF_FAULTS], r->faults >= 0, (uint64_t)r->faults);
    set_count(&v[CORE_TF_FRESH], r->faults >= 0, (uint64_t)r->fresh);
    set_count(&v[CORE_TF_W_FAULTS], r->w_faults >= 0, (uint64_t)r->w_faults);
    set_count(&v[CORE_TF_PREEMPT], r->preempt >= 0, (uint64_t)r->preempt);
    set_count(&v[CORE_TF_REGS], r->regs > 0, r->regs);
    v[CORE_TF_FROM].present = 1;
    v[CORE_TF_FROM].v.list.pids = r->from;
    v[CORE_TF_FROM].v.list.npids = r->nfrom;
    v[CORE_TF_FROM_BYTES].present = r->nfrom > 0;
    v[CORE_TF_FROM_BYTES].v.list.counts = r->from_bytes;
    v[CORE_TF_FROM_BYTES].v.list.npids = r->nfrom;
    set_number(&v[CORE_TF_T_ENTER], 1, r->t_enter);
    set_number(&v[CORE_TF_T_EXIT], 1, r->t_exit);
}

/* JSON string contents: a user's program name, a host name, a bsp_abort text. */
static void write_json_text(FILE *f, const char *s)
{
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
}

/* A line is written with the stream locked once (write_record) and the
 * unlocked calls, digits of integers made here: printf's parsing, not the
 * conversions, was most of a record's time; the numbers with a fraction keep
 * printf's formats. */
static void put_text(FILE *f, const char *s)
{
    for (; *s; s++)
        putc_unlocked(*s, f);
}

static void put_count(FILE *f, uint64_t n)
{
    char digits[20];
    int at = 0;
    do
        digits[at++] = (char)('0' + n % 10);
    while ((n /= 10) != 0);
    while (at > 0)
        putc_unlocked(digits[--at], f);
}

/* ,"KEY": (no comma before the first member) */
static void put_key(FILE *f, int *first, const char *key)
{
    if (!*first)
        putc_unlocked(',', f);
    *first = 0;
    putc_unlocked('"', f);
    put_text(f, key);
    put_text(f, "\":");
}

static void write_value(FILE *f, const core_trace_field *d, const core_trace_value *v, int *first)
{
    if (d->type == CORE_TT_AMOUNTS) {
        for (int k = 0; k < CORE_OPS_KINDS; k++)
            if (v->v.amounts[k] >= 0) {
                put_key(f, first, core_ops_key(k));
                fprintf(f, "%.17g", v->v.amounts[k]);
            }
        return;
    }
    put_key(f, first, d->key);
    switch (d->type) {
    case CORE_TT_VERSION:
    case CORE_TT_COUNT:
    case CORE_TT_PID: put_count(f, v->v.n); break;
    /* The library's own names and part paths: nothing to escape. */
    case CORE_TT_FORMAT:
    case CORE_TT_KIND:
    case CORE_TT_PATH:
    case CORE_TT_NAME:
        putc_unlocked('"', f);
        put_text(f, v->v.s);
        putc_unlocked('"', f);
        break;
    case CORE_TT_TEXT:
        putc_unlocked('"', f);
        write_json_text(f, v->v.s);
        putc_unlocked('"', f);
        break;
    case CORE_TT_RATE: fprintf(f, "%.6g", v->v.x); break;
    case CORE_TT_SECONDS: fprintf(f, "%.9g", v->v.x); break;
    case CORE_TT_CLOCK: fprintf(f, "%.9f", v->v.x); break;
    default: /* CORE_TT_PIDS (pids >= 0) and CORE_TT_COUNTS */
        putc_unlocked('[', f);
        for (size_t i = 0; i < v->v.list.npids; i++) {
            if (i)
                putc_unlocked(',', f);
            put_count(f,
                      d->type == CORE_TT_PIDS ? (uint64_t)v->v.list.pids[i] : v->v.list.counts[i]);
        }
        putc_unlocked(']', f);
    }
}

/* One line: the n fields of a schema table that v says are present, in the
 * table's order. */
static void write_line(FILE *f, const core_trace_field *fields, int n, const core_trace_value *v)
{
    int first = 1;
    flockfile(f);
    putc_unlocked('{', f);
    for (int id = 0; id < n; id++)
        if (v[id].present)
            write_value(f, &fields[id], &v[id], &first);
    put_text(f, "}\n");
    funlockfile(f);
}

static void write_record(FILE *f, int pid, const core_trace_rec *r)
{
    core_trace_value v[CORE_TF_COUNT];
    record_values(r, pid, v);
    write_line(f, core_trace_record_fields(), CORE_TF_COUNT, v);
}

/* The machine a run's trace comes from: its name (under SMPI, the platform's,
 * as the probe names a simulated machine), cores, clock (core_rate.h; none
 * under SMPI) and DAXPY rate, so that a
 * prediction for another machine can scale its work (predict --machine). The
 * name goes into host, cap bytes of zeros (gethostname may leave a name that
 * does not fit unterminated). */
static void machine_values(core_trace_value *v, char *host, size_t cap)
{
#ifdef POLYBSP_SMPI
    const char *platform = getenv("POLYBSP_SMPI_PLATFORM");
    snprintf(host, cap, "%s", platform ? platform : "");
#else
    if (gethostname(host, cap - 1) != 0)
        host[0] = '\0';
#endif
    set_text(&v[CORE_TH_HOST], host);
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    set_count(&v[CORE_TH_CORES], cores > 0, (uint64_t)cores);
    double clock = core_clock_here();
    set_number(&v[CORE_TH_CLOCK], clock > 0, clock);
    double rate = core_rate_here();
    set_number(&v[CORE_TH_RATE], rate > 0, rate);
}

/* The header; with the machine (measured once, when the run's records are
 * written: never inside the traced part). */
static void write_header(FILE *f, const core_run *run, int machine)
{
    core_trace_value v[CORE_TH_COUNT] = {{0}};
    char host[256] = "";
    set_text(&v[CORE_TH_FORMAT], CORE_TRACE_FORMAT);
    set_count(&v[CORE_TH_VERSION], 1, CORE_TRACE_VERSION);
    set_count(&v[CORE_TH_NPROCS], 1, (uint64_t)run->nprocs);
    set_text(&v[CORE_TH_ENGINE], eng_name());
    set_text(&v[CORE_TH_PROGRAM], run->program ? run->program : "");
    if (machine)
        machine_values(v, host, sizeof host);
    set_count(&v[CORE_TH_SOLO], run->solo > 0, (uint64_t)run->solo);
    set_count(&v[CORE_TH_FOOTPRINT], run->solo == 2, (uint64_t)run->solo_footprint);
    write_line(f, core_trace_header_fields(), CORE_TH_COUNT, v);
}

void core_trace_write_records(FILE *f, const core_proc *p)
{
    const core_tracer *t = &p->tr;
    size_t n = atomic_load_explicit(&t->published, memory_order_acquire);
    const core_trace_block *b = t->head;
    for (size_t i = 0; i < n; i++) {
        write_record(f, p->pid, &b->recs[i % CORE_TRACE_BLOCK]);
        if (i % CORE_TRACE_BLOCK == CORE_TRACE_BLOCK - 1)
            b = b->next;
    }
}

static void write_end(FILE *f, const char *how, const char *reason)
{
    fprintf(f, "{\"end\":\"%s\"", how);
    if (reason) {
        fprintf(f, ",\"reason\":\"");
        write_json_text(f, reason);
        fprintf(f, "\"");
    }
    fprintf(f, "}\n");
}

/* Header, records (the text gathered from elsewhere, or the processes this image
 * holds), and the end line unless how is NULL, as one new file. */
static int save(core_run *run, const char *records, size_t len, const char *how, const char *reason,
                char *why, size_t whylen)
{
    core_file w;
    if (core_file_create(&w, run->trace_path, why, whylen) < 0)
        return -1;
    /* The header alone is written while other processes may be inside a traced
     * superstep (bsp_trace_begin): no fsync for it, which would add a
     * millisecond to that superstep; the whole trace is synced at the end. */
    w.transient = records != NULL && len == 0 && how == NULL;
    write_header(w.f, run, how != NULL);
    if (records)
        fwrite(records, 1, len, w.f);
    else
        for (int pid = 0; pid < run->nprocs; pid++)
            if (run->procs[pid]) /* an MPI rank holds only its own process */
                core_trace_write_records(w.f, run->procs[pid]);
    if (how)
        write_end(w.f, how, reason);
    return core_file_commit(&w, why, whylen);
}

/* Stops the run with the line; no later attempt at the file (the abort's own
 * trace) may follow, or the run would report twice. */
static CORE_NORETURN void cannot_write(core_run *run, const char *call, const char *why)
{
    atomic_store(&run->trace_file, CORE_TRACE_FILE_FAILED);
    core_fatal(call, "cannot write the trace %s: %s", run->trace_path, why);
}

int core_trace_create(core_run *run, const char *call)
{
    int expected = CORE_TRACE_FILE_NONE;
    if (!atomic_compare_exchange_strong(&run->trace_file, &expected, CORE_TRACE_FILE_STARTED))
        return 0;
    char why[256];
    if (save(run, "", 0, NULL, NULL, why, sizeof why) < 0) /* the header alone */
        cannot_write(run, call, why);
    return 1;
}

int core_trace_write(core_run *run, const char *how, const char *reason)
{
    char why[256];
    if (!run->traced || !run->trace_path || atomic_load(&run->trace_file) == CORE_TRACE_FILE_FAILED)
        return 0;
    return save(run, NULL, 0, how, reason, why, sizeof why);
}

void core_trace_finish(core_run *run, const char *records, size_t len)
{
    char why[256];
    if (run->traced && run->trace_path &&
        save(run, records, len, "complete", NULL, why, sizeof why) < 0)
        cannot_write(run, "bsp_end", why);
}
