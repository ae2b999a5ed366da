/* bad.c — one misuse of the BSPlib interface per run, chosen by name.
 *
 * Usage: bad CASE [ACTOR]. The run asks for 4 processes. Unless the case says
 * otherwise, all processes complete two supersteps, then process ACTOR (default
 * 1) commits the misuse in superstep 2 while the others go on to bsp_sync.
 * cases.def lists each case with the error line and exit status it must
 * produce (tests/CMakeLists.txt registers a test per line). Should the
 * library let a misuse pass, the run goes on to end normally with status 0,
 * and the test fails.
 * Builds in both dialects (bad_input_mc is compiled with POLYBSP_MCBSP);
 * negative sizes and pids only exist in the classic one.
 */
#include <bsp.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { NPROCS = 4 };

/* What the inside cases work with; buf has 64 bytes and is registered with 32
   (8 on process 2), spare is registered with 8. */
struct ctx {
    int p;
    char *buf, *spare, *fresh;
    char src[16];
    int local;
};

static int actor = 1;                   /* set by main, then only read */
static bsp_pid_t begin_nprocs = NPROCS; /* likewise */

static void put_pid(struct ctx *c) { bsp_put(7, c->src, c->buf, 0, 4); }
static void hpput_pid(struct ctx *c) { bsp_hpput(7, c->src, c->buf, 0, 4); }
static void get_pid(struct ctx *c) { bsp_get(7, c->buf, 0, &c->local, 4); }
static void hpget_pid(struct ctx *c) { bsp_hpget(7, c->buf, 0, &c->local, 4); }
static void send_pid(struct ctx *c) { bsp_send(7, c->src, c->src, 4); }

static void put_unregistered(struct ctx *c) { bsp_put(2, c->src, &c->local, 0, 4); }
static void hpput_unregistered(struct ctx *c) { bsp_hpput(2, c->src, &c->local, 0, 4); }
static void get_unregistered(struct ctx *c) { bsp_get(2, &c->local, 0, c->src, 4); }
static void hpget_unregistered(struct ctx *c) { bsp_hpget(2, &c->local, 0, c->src, 4); }

/* Process 2 registered 8 bytes of buf, the caller 32: the remote size counts. */
static void put_beyond(struct ctx *c) { bsp_put(2, c->src, c->buf, 8, 8); }
static void hpput_beyond(struct ctx *c) { bsp_hpput(2, c->src, c->buf, 8, 8); }
static void get_beyond(struct ctx *c) { bsp_get(2, c->buf, 8, c->src, 8); }
static void hpget_beyond(struct ctx *c) { bsp_hpget(2, c->buf, 8, c->src, 8); }

#ifndef POLYBSP_MCBSP
static void put_pid_negative(struct ctx *c) { bsp_put(-1, c->src, c->buf, 0, 4); }
static void get_pid_negative(struct ctx *c) { bsp_get(-1, c->buf, 0, c->src, 4); }
static void send_pid_negative(struct ctx *c) { bsp_send(-1, c->src, c->src, 4); }
static void put_negative_size(struct ctx *c) { bsp_put(2, c->src, c->buf, 0, -1); }
static void put_negative_offset(struct ctx *c) { bsp_put(2, c->src, c->buf, -4, 4); }
static void hpput_negative_size(struct ctx *c) { bsp_hpput(2, c->src, c->buf, 0, -1); }
static void hpput_negative_offset(struct ctx *c) { bsp_hpput(2, c->src, c->buf, -4, 4); }
static void get_negative_size(struct ctx *c) { bsp_get(2, c->buf, 0, c->src, -1); }
static void get_negative_offset(struct ctx *c) { bsp_get(2, c->buf, -4, c->src, 4); }
static void hpget_negative_size(struct ctx *c) { bsp_hpget(2, c->buf, 0, c->src, -1); }
static void hpget_negative_offset(struct ctx *c) { bsp_hpget(2, c->buf, -4, c->src, 4); }
static void push_reg_negative(struct ctx *c) { bsp_push_reg(c->fresh, -1); }
static void send_negative(struct ctx *c) { bsp_send(2, c->src, c->src, -1); }
/* A negative size with a NULL pointer: the size is what is wrong (BSPonMPI's
   send_size_negative). */
static void send_negative_null(struct ctx *c) { bsp_send(2, c->src, NULL, -1); }
static void put_negative_null(struct ctx *c) { bsp_put(2, NULL, c->buf, 0, -1); }
static void get_negative_null(struct ctx *c) { bsp_get(2, c->buf, 0, NULL, -1); }
static void set_tagsize_negative(struct ctx *c)
{
    (void)c;
    int size = -1;
    bsp_set_tagsize(&size);
}
#endif

static void pop_unregistered(struct ctx *c) { bsp_pop_reg(&c->local); }
/* One pop more than the others make. */
static void pop_spare(struct ctx *c) { bsp_pop_reg(c->spare); }

/* Sizes no registration holds: refused before the source is read (src has 16
   bytes). buf is registered with 32 bytes but 8 on process 2, spare with 8. */
static void put_huge(struct ctx *c) { bsp_put(2, c->src, c->buf, 0, INT_MAX); }
static void hpput_huge(struct ctx *c) { bsp_hpput(2, c->src, c->buf, 0, INT_MAX); }
static void put_huge_agreed(struct ctx *c) { bsp_put(3, c->src, c->spare, 4, INT_MAX); }
#ifdef POLYBSP_MCBSP
static void hpput_half(struct ctx *c) { bsp_hpput(2, c->src, c->spare, 0, SIZE_MAX / 2); }
static void put_tebibyte(struct ctx *c) { bsp_put(2, c->src, c->buf, 0, (size_t)1 << 40); }
#endif
/* 32 bytes fit process 3's buf although process 2 registered only 8. */
static void put_within_most(struct ctx *c) { bsp_put(3, c->src, c->buf, 16, 16); }
static void put_src_null(struct ctx *c) { bsp_put(2, NULL, c->buf, 0, 4); }
static void get_dst_null(struct ctx *c) { bsp_get(2, c->buf, 0, NULL, 4); }
static void hpget_dst_null(struct ctx *c) { bsp_hpget(2, c->buf, 0, NULL, 4); }
static void hpput_src_null(struct ctx *c) { bsp_hpput(2, NULL, c->buf, 0, 4); }
static void hpput_wrap(struct ctx *c)
{
    bsp_hpput(2, (const void *)(UINTPTR_MAX - 2), c->buf, 0, 8);
}

/* NULL where the call reads or writes through a pointer. */
static void qsize_null(struct ctx *c)
{
    (void)c;
    bsp_size_t bytes;
    bsp_qsize(NULL, &bytes);
}
static void qsize_null_bytes(struct ctx *c)
{
    (void)c;
    bsp_nprocs_t n;
    bsp_qsize(&n, NULL);
}
static void get_tag_null(struct ctx *c) { bsp_get_tag(NULL, c->src); }
static void move_null(struct ctx *c)
{
    (void)c;
    bsp_move(NULL, 4);
}
static void hpmove_null(struct ctx *c)
{
    (void)c;
    void *payload;
    bsp_hpmove(NULL, &payload);
}
static void hpmove_null_payload(struct ctx *c)
{
    (void)c;
    void *tag;
    bsp_hpmove(&tag, NULL);
}
static void set_tagsize_null(struct ctx *c)
{
    (void)c;
    bsp_set_tagsize(NULL);
}
/* The largest tag size: one over is refused, the largest itself carries a tag. */
static void set_tagsize_over(struct ctx *c)
{
    (void)c;
    bsp_size_t size = 16777216;
    bsp_set_tagsize(&size);
}
static void set_tagsize_max(struct ctx *c)
{
    const bsp_size_t max = 16777215;
    bsp_size_t size = max, status = 0;
    char *tag = malloc((size_t)max);
    if (!tag)
        bsp_abort("bad: out of memory");
    bsp_set_tagsize(&size);
    bsp_sync();
    memset(tag, 'a' + c->p, (size_t)max);
    bsp_send((bsp_pid_t)((c->p + 1) % NPROCS), tag, c->src, 4);
    bsp_sync();
    memset(tag, 0, (size_t)max);
    bsp_get_tag(&status, tag);
    int from = (c->p + NPROCS - 1) % NPROCS;
    if (status != 4 || tag[0] != 'a' + from || tag[max - 1] != 'a' + from)
        bsp_abort("set_tagsize_max: wrong tag or status %lld", (long long)status);
    free(tag);
}
static void send_null_payload(struct ctx *c) { bsp_send(2, c->src, NULL, 4); }
static void abort_newline(struct ctx *c)
{
    (void)c;
    bsp_abort("first\nsecond\n");
}
static void move_empty(struct ctx *c) { bsp_move(c->src, 4); }
static void begin_twice(struct ctx *c)
{
    (void)c;
    bsp_begin(NPROCS);
}
static void abort_one(struct ctx *c)
{
    (void)c;
    bsp_abort("stopped by %s %d", "case", 42);
}
static void segv(struct ctx *c)
{
    (void)c;
    /* Both volatile: the compiler can neither see the null nor drop the store. */
    volatile int *volatile nowhere = NULL;
    *nowhere = 1;
}
static void exit3(struct ctx *c)
{
    (void)c;
    exit(3);
}
static void exit0(struct ctx *c)
{
    (void)c;
    exit(0);
}

/* Cases run by every process, not only by the actor. */

/* Every process registers fresh in this superstep; the actor uses it at once. */
static void put_new_reg(struct ctx *c)
{
    bsp_push_reg(c->fresh, 8);
    if (c->p == actor)
        bsp_put(2, c->src, c->fresh, 0, 4);
}
static void hpput_new_reg(struct ctx *c)
{
    bsp_push_reg(c->fresh, 8);
    if (c->p == actor)
        bsp_hpput(2, c->src, c->fresh, 0, 4);
}
static void get_new_reg(struct ctx *c)
{
    bsp_push_reg(c->fresh, 8);
    if (c->p == actor)
        bsp_get(2, c->fresh, 0, c->src, 4);
}
static void hpget_new_reg(struct ctx *c)
{
    bsp_push_reg(c->fresh, 8);
    if (c->p == actor)
        bsp_hpget(2, c->fresh, 0, c->src, 4);
}

/* Registered, popped, then used two supersteps later: the error is in superstep 4. */
static void put_popped(struct ctx *c)
{
    bsp_push_reg(c->fresh, 8);
    bsp_sync();
    bsp_pop_reg(c->fresh);
    bsp_sync();
    if (c->p == actor)
        bsp_put(2, c->src, c->fresh, 0, 4);
}

/* buf registered again with 64 bytes, used beyond the old size, popped; then the
   old 8-byte registration of process 2 is in force again (superstep 4). */
static void size_after_pop(struct ctx *c)
{
    bsp_push_reg(c->buf, 64);
    bsp_sync();
    if (c->p == actor)
        bsp_put(2, c->src, c->buf, 32, 8);
    bsp_pop_reg(c->buf);
    bsp_sync();
    if (c->p == actor)
        bsp_put(2, c->src, c->buf, 8, 8);
}

#ifndef POLYBSP_MCBSP
/* A message for everyone, so the queue is not empty when the actor moves (superstep 3). */
static void move_negative(struct ctx *c)
{
    bsp_send(c->p, c->src, c->src, 4);
    bsp_sync();
    if (c->p == actor)
        bsp_move(c->src, -1);
}
#endif

static void reg_count_more(struct ctx *c)
{
    bsp_push_reg(c->fresh, 8);
    if (c->p == actor)
        bsp_push_reg(c->src, 8);
}

static void reg_count_fewer(struct ctx *c)
{
    if (c->p != actor)
        bsp_push_reg(c->fresh, 8);
}

static void reg_order(struct ctx *c)
{
    if (c->p == actor) {
        bsp_pop_reg(c->spare);
        bsp_push_reg(c->fresh, 8);
    } else {
        bsp_push_reg(c->fresh, 8);
        bsp_pop_reg(c->spare);
    }
}

/* Pops must undo the same push everywhere (registrations match by order). */
static void pop_other(struct ctx *c) { bsp_pop_reg(c->p == actor ? c->spare : c->buf); }
static void pop_other_new(struct ctx *c)
{
    bsp_push_reg(c->fresh, 8);
    bsp_pop_reg(c->p == actor ? c->fresh : c->buf);
}
static void pop_count_fewer(struct ctx *c)
{
    if (c->p != actor)
        bsp_pop_reg(c->spare);
}
/* The same pushes popped everywhere, one of this superstep: no error. */
static void pop_matched(struct ctx *c)
{
    bsp_push_reg(c->fresh, 8);
    bsp_pop_reg(c->fresh);
    bsp_pop_reg(c->spare);
    bsp_sync();
    bsp_put((bsp_pid_t)((c->p + 1) % NPROCS), c->src, c->buf, 0, 8);
}
static void tagsize_differ(struct ctx *c)
{
    bsp_size_t size = c->p == actor ? 8 : 4;
    bsp_set_tagsize(&size);
}
/* Everyone but the actor sets the tag size it already has: the sizes agree, but
   bsp_set_tagsize is collective (BSPonMPI's test set_tagsize_3). */
static void tagsize_missing(struct ctx *c)
{
    bsp_size_t size = 0;
    if (c->p != actor)
        bsp_set_tagsize(&size);
}

/* Everyone sends itself a message with a 4-byte tag; the actor passes NULL for
   the tag to bsp_get_tag (superstep 4). */
static void get_tag_null_tag(struct ctx *c)
{
    bsp_size_t size = 4, status;
    bsp_set_tagsize(&size);
    bsp_sync();
    bsp_send((bsp_pid_t)c->p, c->src, c->src, 4);
    bsp_sync();
    if (c->p == actor)
        bsp_get_tag(&status, NULL);
}
/* The actor sends with a NULL tag once the tag size is 4 (superstep 3). */
static void send_null_tag(struct ctx *c)
{
    bsp_size_t size = 4;
    bsp_set_tagsize(&size);
    bsp_sync();
    if (c->p == actor)
        bsp_send(2, NULL, c->src, 4);
}

static void get_tag_empty(struct ctx *c)
{
    bsp_size_t status = 0;
    void *tag = NULL, *payload = NULL;
    bsp_get_tag(&status, c->src);
    if (status != (bsp_size_t)-1)
        bsp_abort("get_tag_empty: bsp_get_tag status %lld, expected -1", (long long)status);
    bsp_size_t got = bsp_hpmove(&tag, &payload);
    if (got != (bsp_size_t)-1)
        bsp_abort("get_tag_empty: bsp_hpmove returned %lld, expected -1", (long long)got);
}

/* Cases run by main before bsp_init and spmd(), or after spmd() returned (no ctx). */
static void call_pid(struct ctx *c)
{
    (void)c;
    bsp_pid();
}
static void call_sync(struct ctx *c)
{
    (void)c;
    bsp_sync();
}
static void call_put(struct ctx *c)
{
    (void)c;
    int x = 0;
    bsp_put(0, &x, &x, 0, sizeof x);
}
static void begin_zero(struct ctx *c)
{
    (void)c;
    begin_nprocs = 0;
}
static void begin_huge(struct ctx *c)
{
    (void)c;
    begin_nprocs = 1000000;
}
#ifndef POLYBSP_MCBSP
static void begin_negative(struct ctx *c)
{
    (void)c;
    begin_nprocs = -3;
}
#endif

static void abort_all(struct ctx *c)
{
    (void)c;
    bsp_abort("everyone stops");
}

/* BEFORE and AFTER cases run in main, outside the SPMD section; END_EARLY and
   RETURN_EARLY have the actor leave the section while the others sync;
   NO_BEGIN has every process but the one main started return from the SPMD
   function before bsp_begin. */
enum when { BEFORE, INSIDE_ACTOR, INSIDE_ALL, AFTER, END_EARLY, RETURN_EARLY, NO_BEGIN };

struct bad_case {
    const char *name;
    enum when when;
    void (*run)(struct ctx *);
};

/* One entry per line of cases.def (a case tested with several actors repeats). */
#define BAD(name, when, fn, status, actor, line, flags) {#name, when, fn},
static const struct bad_case cases[] = {
#include "cases.def"
};
#undef BAD

static const struct bad_case *the_case; /* set by main, then only read */
/* Set on main's own thread only: the threads engine's other processes and the
   MPI engine's other ranks run spmd with it 0. */
static _Thread_local int started_by_main;

static void spmd(void)
{
    if (the_case->when == NO_BEGIN && !started_by_main)
        return;
    bsp_begin(begin_nprocs);
    struct ctx c = {.p = (int)bsp_pid(), .local = 0};
    memset(c.src, 0x5a, sizeof c.src);
    c.buf = calloc(64, 1);
    c.spare = calloc(8, 1);
    c.fresh = calloc(8, 1);
    if (!c.buf || !c.spare || !c.fresh)
        bsp_abort("bad: out of memory");
    bsp_push_reg(c.buf, c.p == 2 ? 8 : 32);
    bsp_push_reg(c.spare, 8);
    bsp_sync();
    bsp_sync();

    switch (the_case->when) {
    case INSIDE_ACTOR:
        if (c.p == actor)
            the_case->run(&c);
        break;
    case INSIDE_ALL: the_case->run(&c); break;
    case END_EARLY:
        if (c.p == actor) {
            bsp_end();
            return;
        }
        break;
    case RETURN_EARLY:
        if (c.p == actor)
            return;
        break;
    default: break;
    }

    bsp_sync();
    free(c.fresh);
    free(c.spare);
    free(c.buf);
    bsp_end(); /* processes other than 0 do not return from it */
}

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: %s CASE [ACTOR]\n", argv[0]);
        return 2;
    }
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        if (!strcmp(argv[1], cases[i].name))
            the_case = &cases[i];
    if (!the_case) {
        fprintf(stderr, "bad: unknown case %s\n", argv[1]);
        return 2;
    }
    if (argc == 3)
        actor = atoi(argv[2]);

    if (the_case->when == BEFORE)
        the_case->run(NULL);
    bsp_init(spmd, argc, argv);
    started_by_main = 1;
    spmd();
    if (the_case->when == AFTER)
        the_case->run(NULL);
    return 0;
}
