/* random_semantics.c — randomly generated BSPlib programs checked against a reference model.
 *
 * A seed (argv[1], else the environment variable POLYBSP_TEST_SEED, else a fixed
 * one) makes, identically on every process, a program of 40 supersteps (argv[2]
 * changes their number, to shorten a failing run). In each superstep every
 * process makes local writes to its own memory, bsp_put, bsp_hpput, bsp_get and
 * bsp_hpget of registered memory (its own pid included, 0 bytes to whole
 * arrays), bsp_send with the current tag size (payloads up to 72000 bytes), and
 * reads its queue with bsp_qsize, bsp_get_tag, bsp_move (reception sizes below,
 * at and above the payload's) and bsp_hpmove, leaving some messages unread. Now and
 * then all processes change the tag size, or push a registration (of spare
 * buffers, of an array already registered, with another size, or of NULL with
 * size 0: different ones on different processes) or pop one (not always the
 * newest); each process makes the call at a point of its own in the superstep.
 * A process's memory: arrays A0, A1, A2 registered for the whole run (tens of
 * bytes, 1 to 8 KiB, 40 to 80 KiB; sizes differ between processes, and so may
 * the registered sizes), a scratch area S of 48 to 96 KiB never registered,
 * spare buffers X0 and X1.
 *
 * Every process also runs the whole program, every process's operations, on
 * plain arrays as docs/api.md (sections 3 and 4) defines it: puts copy their
 * source at the call, hpputs read it at the sync; at the sync all gets (and
 * hpgets, which polybsp reads at the same point) read the memory as the
 * computation left it, then write their destinations in the order their process
 * issued them, then all puts land by increasing source pid and, per source, in
 * issue order; registrations and tag sizes take effect at the next superstep;
 * the queue holds the previous superstep's messages by increasing source pid,
 * then in the order sent. After each bsp_sync a process compares all of its
 * memory with the model, and each message as it reads it.
 *
 * Only what the documentation defines is generated, conflicting writes
 * included: offsets are drawn half the time inside intervals that other
 * operations of the superstep use, so that gets read bytes that puts overwrite,
 * gets and puts write the same bytes, and local writes follow puts and sends
 * from the same bytes and precede gets of them. Left out: changing an hpput's
 * source after the call, by a local write or by anything landing at the sync
 * (its read is only "during the sync"); local writes to an hpget's source in
 * its superstep and to its destination after the call.
 *
 * A difference stops the run with the seed, P, superstep, region, first
 * differing byte and the operations of the superstep on that byte.
 */
#include "check.h"

#include <stdarg.h>
#include <stdint.h>
#include <string.h>

enum {
    NFIXED = 3,         /* arrays A0..A2, registered for the whole run */
    R_SCRATCH = NFIXED, /* S: never registered */
    NSPARE = 2,         /* X0, X1: registered now and then */
    NREGION = NFIXED + 1 + NSPARE,
    STEPS_DEFAULT = 40,
    MAX_OPS = 24,                    /* random operations of a process in a superstep */
    MAX_PLAN = MAX_OPS + NFIXED + 2, /* plus bsp_set_tagsize and the registration calls */
    MAX_TAG = 64,                    /* the largest tag size used */
    MAX_PAYLOAD = 72000,             /* the largest message payload */
    MAX_LIVE_SPARE = 6,              /* registrations beyond the fixed ones at one time */
    DRAIN = 1 << 30,                 /* a RECV op's count that reads the whole queue */
};

static const char *const region_name[NREGION] = {"A0", "A1", "A2", "S", "X0", "X1"};
static const int tag_sizes[] = {0, 1, 2, 3, 4, 5, 8, 12, 16, 31, 64};

enum kind {
    OP_WRITE,
    OP_PUT,
    OP_HPPUT,
    OP_GET,
    OP_HPGET,
    OP_SEND,
    OP_RECV,
    OP_QSIZE,
    OP_TAGSIZE,
    OP_PUSH,
    OP_POP
};
static const char *const kind_name[] = {
    "local write", "bsp_put",   "bsp_hpput",       "bsp_get",      "bsp_hpget",  "bsp_send",
    "receive",     "bsp_qsize", "bsp_set_tagsize", "bsp_push_reg", "bsp_pop_reg"};

/* One operation of a process. Local region lr at loff: the source of a put or
 * send, the destination of a get, the bytes of a local write. The process names
 * the registration by its own region nr; the remote memory is region rr of
 * process pid, at roff. */
typedef struct {
    int kind, pid, slot, lr, nr, rr, count;
    size_t loff, roff, n, tagoff;
    uint64_t seed; /* local write: its bytes; receive: its choices */
} op_t;

/* A registration slot: what each process registered in it (region -1: NULL). */
typedef struct {
    int pushed_at, popped_at; /* supersteps: usable from pushed_at + 1 to popped_at */
    int *region, *size;
} slot_t;

/* Intervals used in a superstep, by (process, region): for the exclusions and
 * to draw offsets that overlap. */
enum cons_kind { C_LAND, C_READ, C_WRITE, C_HPSRC, C_HPGSRC, C_HPGDST };
#define BIT(k) (1u << (k))
typedef struct {
    int kind;
    size_t lo, hi;
} cons_t;
typedef struct {
    cons_t *v;
    size_t n, cap;
} bucket_t;

/* The sync's transfers, in the model: gets in the order of (process, issue), then puts. */
typedef struct {
    int kind, src_pid, src_region, dst_pid, dst_region;
    size_t src_off, dst_off, n, data;
} rec_t;

typedef struct {
    int src;
    size_t tagn, n, tagoff, payoff;
} msg_t;
typedef struct {
    msg_t *m;
    size_t nm, capm, pos;
    unsigned char *data;
    size_t ndata, capdata;
} queue_t;

/* Everything of one process: on the threads engine globals are shared. */
typedef struct {
    int pid, P, steps, step;
    uint64_t seed;
    size_t *size;          /* size[r * P + q]: bytes of region r on process q */
    unsigned char **model; /* model[q * NREGION + r] */
    unsigned char *real[NREGION];
    slot_t *slots;
    int nslots, maxslots;
    int *tagsize;    /* tag size of the messages sent in each superstep */
    int tagsize_set; /* this superstep's bsp_set_tagsize, or -1 */
    op_t *ops;       /* ops[q * MAX_PLAN + i] */
    int *nops;
    bucket_t *buckets; /* buckets[q * NREGION + r] */
    rec_t *recs;
    size_t nrecs, caprecs;
    unsigned char *arena;
    size_t narena, caparena;
    queue_t queue[2]; /* [cur]: read now; [!cur]: built by the model for the next superstep */
    int cur;
    unsigned char tagbuf[MAX_TAG + 16], *rbuf;
    long long nops_total, nmsgs_total, nbytes_total;
} world;

#define SIZE(w, r, q) ((w)->size[(size_t)(r) * (size_t)(w)->P + (size_t)(q)])
#define MODEL(w, q, r) ((w)->model[(size_t)(q)*NREGION + (size_t)(r)])

/* ------------------------------------------------------------ random numbers */

static uint64_t mix(uint64_t z)
{
    z += 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

typedef struct {
    uint64_t s;
} rng_t;

static uint64_t rnd(rng_t *r) { return mix(r->s += 0x632be59bd9b4e019ull); }
static size_t below(rng_t *r, size_t n) { return n ? (size_t)(rnd(r) % n) : 0; }
static int chance(rng_t *r, int percent) { return (int)below(r, 100) < percent; }
static size_t min_size(size_t a, size_t b) { return a < b ? a : b; }

static rng_t rng_for(const world *w, int step, int who)
{
    rng_t r = {mix(w->seed ^ mix((uint64_t)step * 1000003u + (uint64_t)(who + 7)))};
    return r;
}

static void fill(unsigned char *d, size_t n, uint64_t seed)
{
    for (size_t i = 0; i < n; i += 8) {
        uint64_t v = mix(seed + i);
        memcpy(d + i, &v, min_size(8, n - i));
    }
}

/* ------------------------------------------------------------ failures */

static void fail(const world *w, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void fail(const world *w, int line, const char *fmt, ...)
{
    char msg[3000];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    bsp_abort("CONFORMANCE FAILURE %s:%d: seed %llu, P %d, superstep %d (of %d), process %d: %s "
              "(to rerun up to here: arguments %llu %d, P %d)",
              __FILE__, line, (unsigned long long)w->seed, w->P, w->step, w->steps, w->pid, msg,
              (unsigned long long)w->seed, w->step + 1, w->P);
}
#define FAIL(w, ...) fail(w, __LINE__, __VA_ARGS__)

static void *grow(void *p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return p;
    size_t c = *cap ? *cap : 64;
    while (c < need)
        c *= 2;
    void *q = realloc(p, c * elem);
    if (!q) {
        fprintf(stderr, "CONFORMANCE FAILURE: out of memory (%zu bytes)\n", c * elem);
        exit(1);
    }
    *cap = c;
    return q;
}

/* ------------------------------------------------------------ registrations */

static int usable(const slot_t *s, int step)
{
    return s->pushed_at < step && (s->popped_at < 0 || s->popped_at >= step);
}

/* The registration process p's own region r names in superstep step: the newest in force. */
static int resolve(const world *w, int p, int r, int step)
{
    for (int i = w->nslots - 1; i >= 0; i--)
        if (usable(&w->slots[i], step) && w->slots[i].region[p] == r)
            return i;
    return -1;
}

/* A registration p can name in this superstep, or -1. */
static int pick_slot(const world *w, rng_t *r, int step, int p)
{
    int count = 0;
    for (int pass = 0; pass < 2; pass++) {
        size_t k = pass ? below(r, (size_t)count) : 0;
        for (int i = 0; i < w->nslots; i++) {
            const slot_t *s = &w->slots[i];
            if (!usable(s, step) || s->region[p] < 0 || resolve(w, p, s->region[p], step) != i)
                continue;
            if (pass == 0)
                count++;
            else if (k-- == 0)
                return i;
        }
        if (count == 0)
            return -1;
    }
    return -1;
}

/* Whether slot c is, on every process, the most recent live registration of its address. */
static int poppable(const world *w, int c, int step)
{
    const slot_t *s = &w->slots[c];
    if (s->pushed_at >= step || s->popped_at >= 0)
        return 0;
    for (int j = c + 1; j < w->nslots; j++) {
        if (w->slots[j].popped_at >= 0)
            continue;
        for (int p = 0; p < w->P; p++)
            if (w->slots[j].region[p] == s->region[p])
                return 0;
    }
    return 1;
}

static int live_slots(const world *w)
{
    int n = 0;
    for (int i = 0; i < w->nslots; i++)
        n += w->slots[i].popped_at < 0;
    return n;
}

static int new_slot(world *w, int step)
{
    CHECK(w->nslots < w->maxslots);
    slot_t *s = &w->slots[w->nslots];
    s->pushed_at = step;
    s->popped_at = -1;
    return w->nslots++;
}

/* ------------------------------------------------------------ generation */

static void cons_add(world *w, int kind, int q, int r, size_t off, size_t n)
{
    if (n == 0)
        return;
    bucket_t *b = &w->buckets[(size_t)q * NREGION + (size_t)r];
    b->v = grow(b->v, &b->cap, b->n + 1, sizeof *b->v);
    b->v[b->n++] = (cons_t){kind, off, off + n};
}

static int clash(const world *w, int q, int r, size_t off, size_t n, unsigned kinds)
{
    const bucket_t *b = &w->buckets[(size_t)q * NREGION + (size_t)r];
    for (size_t i = 0; i < b->n; i++)
        if ((kinds & BIT(b->v[i].kind)) && off < b->v[i].hi && b->v[i].lo < off + n)
            return 1;
    return 0;
}

static size_t pick_len(rng_t *r, size_t max)
{
    size_t n, c = below(r, 100);
    if (c < 3)
        n = 0;
    else if (c < 45)
        n = 1 + below(r, 16);
    else if (c < 70)
        n = 17 + below(r, 240);
    else if (c < 85)
        n = 257 + below(r, 1792);
    else if (c < 95)
        n = 2049 + below(r, 14336);
    else
        n = 16385 + below(r, 65536);
    return min_size(n, max);
}

/* An offset for n bytes in [0, limit) of region reg of process q; half the time
 * overlapping an interval used earlier in this superstep. */
static size_t pick_off(const world *w, rng_t *r, int q, int reg, size_t limit, size_t n)
{
    size_t span = limit - n;
    const bucket_t *b = &w->buckets[(size_t)q * NREGION + (size_t)reg];
    if (b->n && chance(r, 50)) {
        const cons_t *c = &b->v[below(r, b->n)];
        size_t lo = c->lo + 1 > n ? c->lo + 1 - n : 0;
        size_t off = lo + below(r, c->hi - lo);
        return min_size(off, span);
    }
    return below(r, span + 1);
}

/* An interval of process p's memory read earlier in this superstep (by its own
 * put or send, or by another process's get), or NULL; its region in *reg. */
static const cons_t *pick_read(const world *w, rng_t *r, int p, int *reg)
{
    size_t count = 0;
    for (int pass = 0; pass < 2; pass++) {
        size_t k = pass ? below(r, count) : 0;
        for (int g = 0; g < NREGION; g++) {
            const bucket_t *b = &w->buckets[(size_t)p * NREGION + (size_t)g];
            for (size_t i = 0; i < b->n; i++) {
                if (b->v[i].kind != C_READ)
                    continue;
                if (pass == 0) {
                    count++;
                } else if (k-- == 0) {
                    *reg = g;
                    return &b->v[i];
                }
            }
        }
        if (count == 0)
            return NULL;
    }
    return NULL;
}

static int pick_kind(rng_t *r)
{
    size_t k = below(r, 100);
    return k < 20   ? OP_WRITE
           : k < 37 ? OP_PUT
           : k < 47 ? OP_HPPUT
           : k < 63 ? OP_GET
           : k < 73 ? OP_HPGET
           : k < 88 ? OP_SEND
           : k < 96 ? OP_RECV
                    : OP_QSIZE;
}

/* Draws one operation of process p; 0 if the draw is not allowed (the caller draws again). */
static int gen_op(world *w, rng_t *r, int step, int p, op_t *op)
{
    memset(op, 0, sizeof *op);
    op->kind = pick_kind(r);
    switch (op->kind) {
    case OP_WRITE: {
        /* Often over bytes read earlier: a put or send must have copied them at
         * the call, a get must read what the computation left. */
        int lr = (int)below(r, NREGION);
        const cons_t *read = chance(r, 40) ? pick_read(w, r, p, &lr) : NULL;
        size_t lim = SIZE(w, lr, p), n = pick_len(r, lim);
        n += n == 0;
        size_t off = pick_off(w, r, p, lr, lim, n);
        if (read) {
            size_t lo = read->lo + 1 > n ? read->lo + 1 - n : 0;
            off = min_size(lo + below(r, read->hi - lo), lim - n);
        }
        if (clash(w, p, lr, off, n, BIT(C_HPSRC) | BIT(C_HPGDST) | BIT(C_HPGSRC)))
            return 0;
        cons_add(w, C_WRITE, p, lr, off, n);
        *op = (op_t){.kind = OP_WRITE, .lr = lr, .loff = off, .n = n, .seed = rnd(r)};
        return 1;
    }
    case OP_PUT:
    case OP_HPPUT:
    case OP_GET:
    case OP_HPGET: {
        /* One in ten a large transfer: A2, the largest array, and S or A2. */
        int big = chance(r, 10);
        int sl = big ? resolve(w, p, NFIXED - 1, step) : pick_slot(w, r, step, p);
        if (sl < 0)
            return 0;
        const slot_t *s = &w->slots[sl];
        int q = (int)below(r, (size_t)w->P);
        size_t rlim = (size_t)s->size[q];
        if (s->region[q] < 0 || rlim == 0)
            return 0;
        int rr = s->region[q];
        int lr = big             ? (chance(r, 50) ? R_SCRATCH : NFIXED - 1)
                 : chance(r, 45) ? R_SCRATCH
                                 : (int)below(r, NREGION);
        size_t llim = SIZE(w, lr, p), n = pick_len(r, min_size(rlim, llim));
        if (big && min_size(rlim, llim) > 16384)
            n = 16384 + below(r, min_size(rlim, llim) - 16384 + 1);
        size_t roff = pick_off(w, r, q, rr, rlim, n), loff = pick_off(w, r, p, lr, llim, n);
        int kind = op->kind;
        if (kind == OP_PUT || kind == OP_HPPUT) {
            if (clash(w, q, rr, roff, n, BIT(C_HPSRC)))
                return 0;
            /* An hpput's source: nothing lands on it, this hpput included. */
            if (kind == OP_HPPUT && (clash(w, p, lr, loff, n, BIT(C_LAND)) ||
                                     (q == p && rr == lr && roff < loff + n && loff < roff + n)))
                return 0;
            cons_add(w, C_LAND, q, rr, roff, n);
            cons_add(w, C_READ, p, lr, loff, n);
            if (kind == OP_HPPUT)
                cons_add(w, C_HPSRC, p, lr, loff, n);
        } else {
            if (clash(w, p, lr, loff, n, BIT(C_HPSRC)))
                return 0;
            if (kind == OP_HPGET && clash(w, q, rr, roff, n, BIT(C_WRITE)))
                return 0;
            cons_add(w, C_LAND, p, lr, loff, n);
            cons_add(w, C_READ, q, rr, roff, n);
            if (kind == OP_HPGET) {
                cons_add(w, C_HPGSRC, q, rr, roff, n);
                cons_add(w, C_HPGDST, p, lr, loff, n);
            }
        }
        *op = (op_t){.kind = kind,
                     .pid = q,
                     .slot = sl,
                     .lr = lr,
                     .nr = s->region[p],
                     .rr = rr,
                     .loff = loff,
                     .roff = roff,
                     .n = n};
        return 1;
    }
    case OP_SEND: {
        int q = (int)below(r, (size_t)w->P);
        int lr = chance(r, 50) ? R_SCRATCH : (int)below(r, NREGION);
        size_t lim = min_size(SIZE(w, lr, p), MAX_PAYLOAD), n = pick_len(r, lim);
        size_t loff = below(r, SIZE(w, lr, p) - n + 1);
        size_t tagoff = below(r, SIZE(w, R_SCRATCH, p) - MAX_TAG + 1);
        cons_add(w, C_READ, p, lr, loff, n);
        cons_add(w, C_READ, p, R_SCRATCH, tagoff, (size_t)w->tagsize[step]);
        *op = (op_t){.kind = OP_SEND, .pid = q, .lr = lr, .loff = loff, .n = n, .tagoff = tagoff};
        return 1;
    }
    case OP_RECV:
        op->count = chance(r, 15) ? DRAIN : 1 + (int)below(r, 4);
        op->seed = rnd(r);
        return 1;
    default: return 1;
    }
}

static void new_registration(world *w, rng_t *r, int step)
{
    int sl = new_slot(w, step);
    slot_t *s = &w->slots[sl];
    for (int p = 0; p < w->P; p++) {
        size_t c = below(r, 100);
        int reg = c < 12 ? -1 : c < 32 ? (int)below(r, NFIXED) : NFIXED + 1 + (int)below(r, NSPARE);
        size_t full = reg < 0 ? 0 : SIZE(w, reg, p);
        s->region[p] = reg;
        s->size[p] = (int)(reg < 0 || chance(r, 60) ? full : 1 + below(r, full));
    }
}

/* The program of superstep `step` for every process, into w->ops. The fixed
 * registrations are pushed in superstep 0; from superstep `steps` on, the
 * queue is drained and the registrations popped, newest first, one a superstep. */
static void gen_step(world *w, int step)
{
    for (size_t i = 0; i < (size_t)w->P * NREGION; i++)
        w->buckets[i].n = 0;
    rng_t shared = rng_for(w, step, -1);
    int reg_kind = -1, reg_slot = -1;
    w->tagsize_set = -1;
    int cleanup = step >= w->steps;
    if (cleanup) {
        for (int i = w->nslots - 1; i >= 0 && reg_slot < 0; i--)
            if (w->slots[i].popped_at < 0)
                reg_kind = OP_POP, reg_slot = i;
    } else if (step > 0) {
        if (chance(&shared, 15))
            w->tagsize_set = tag_sizes[below(&shared, sizeof tag_sizes / sizeof *tag_sizes)];
        if (chance(&shared, 25)) {
            int cand[64], ncand = 0;
            for (int i = NFIXED; i < w->nslots && ncand < 64; i++)
                if (poppable(w, i, step))
                    cand[ncand++] = i;
            int spare = live_slots(w) - NFIXED;
            if (ncand > 0 && (spare >= MAX_LIVE_SPARE || chance(&shared, 50))) {
                reg_kind = OP_POP;
                reg_slot = cand[below(&shared, (size_t)ncand)];
            } else if (spare < MAX_LIVE_SPARE) {
                reg_kind = OP_PUSH;
                reg_slot = -2; /* made below, after the ops: it is not usable yet anyway */
            }
        }
    }
    w->tagsize[step + 1] = w->tagsize_set >= 0 ? w->tagsize_set : w->tagsize[step];

    for (int p = 0; p < w->P; p++) {
        rng_t r = rng_for(w, step, p);
        op_t *ops = &w->ops[(size_t)p * MAX_PLAN];
        int n = 0;
        if (step == 0) {
            for (int k = 0; k < NFIXED; k++)
                ops[n++] = (op_t){.kind = OP_PUSH, .slot = k};
        }
        if (cleanup) {
            if (step == w->steps)
                ops[n++] = (op_t){.kind = OP_RECV, .count = DRAIN, .seed = rnd(&r)};
            if (reg_slot >= 0)
                ops[n++] = (op_t){.kind = reg_kind, .slot = reg_slot};
            w->nops[p] = n;
            continue;
        }
        int nrandom = 2 + (int)below(&r, MAX_OPS - 1);
        int tag_pos = (int)below(&r, (size_t)nrandom + 1),
            reg_pos = (int)below(&r, (size_t)nrandom + 1);
        for (int i = 0; i <= nrandom; i++) {
            if (i == tag_pos && w->tagsize_set >= 0)
                ops[n++] = (op_t){.kind = OP_TAGSIZE, .count = w->tagsize_set};
            if (i == reg_pos && reg_kind >= 0)
                ops[n++] = (op_t){.kind = reg_kind, .slot = reg_slot};
            if (i == nrandom)
                break;
            for (int attempt = 0; attempt < 8; attempt++)
                if (gen_op(w, &r, step, p, &ops[n])) {
                    n++;
                    break;
                }
        }
        w->nops[p] = n;
    }
    if (step == 0) {
        for (int k = 0; k < NFIXED; k++) {
            slot_t *s = &w->slots[new_slot(w, 0)];
            for (int p = 0; p < w->P; p++) {
                size_t full = SIZE(w, k, p);
                s->region[p] = k;
                s->size[p] = (int)(chance(&shared, 70) ? full : full - below(&shared, full / 4));
            }
        }
    }
    if (reg_kind == OP_PUSH) {
        new_registration(w, &shared, step);
        for (int p = 0; p < w->P; p++)
            for (int i = 0; i < w->nops[p]; i++)
                if (w->ops[(size_t)p * MAX_PLAN + (size_t)i].kind == OP_PUSH)
                    w->ops[(size_t)p * MAX_PLAN + (size_t)i].slot = w->nslots - 1;
    } else if (reg_kind == OP_POP) {
        w->slots[reg_slot].popped_at = step;
    }
}

/* ------------------------------------------------------------ the model */

static size_t arena_add(world *w, const unsigned char *src, size_t n)
{
    w->arena = grow(w->arena, &w->caparena, w->narena + n + 1, 1);
    memcpy(w->arena + w->narena, src, n);
    w->narena += n;
    return w->narena - n;
}

static void rec_add(world *w, rec_t rec)
{
    w->recs = grow(w->recs, &w->caprecs, w->nrecs + 1, sizeof *w->recs);
    w->recs[w->nrecs++] = rec;
}

static void queue_add(queue_t *qu, int src, const unsigned char *tag, size_t tagn,
                      const unsigned char *payload, size_t n)
{
    qu->m = grow(qu->m, &qu->capm, qu->nm + 1, sizeof *qu->m);
    qu->data = grow(qu->data, &qu->capdata, qu->ndata + tagn + n + 1, 1);
    msg_t *m = &qu->m[qu->nm++];
    *m = (msg_t){.src = src, .tagn = tagn, .n = n, .tagoff = qu->ndata, .payoff = qu->ndata + tagn};
    memcpy(qu->data + qu->ndata, tag, tagn);
    memcpy(qu->data + qu->ndata + tagn, payload, n);
    qu->ndata += tagn + n;
}

/* Superstep `step` of every process on the model, to the end of its sync. */
static void simulate(world *w, int step)
{
    queue_t *next = &w->queue[!w->cur];
    next->nm = next->ndata = next->pos = 0;
    w->nrecs = w->narena = 0;
    for (int q = 0; q < w->P; q++) {
        for (int i = 0; i < w->nops[q]; i++) {
            const op_t *op = &w->ops[(size_t)q * MAX_PLAN + (size_t)i];
            unsigned char *local = MODEL(w, q, op->lr) + op->loff;
            switch (op->kind) {
            case OP_WRITE: fill(local, op->n, op->seed); break;
            case OP_PUT:
                rec_add(w, (rec_t){.kind = OP_PUT,
                                   .dst_pid = op->pid,
                                   .dst_region = op->rr,
                                   .dst_off = op->roff,
                                   .n = op->n,
                                   .data = arena_add(w, local, op->n)});
                break;
            case OP_HPPUT:
                rec_add(w, (rec_t){.kind = OP_HPPUT,
                                   .src_pid = q,
                                   .src_region = op->lr,
                                   .src_off = op->loff,
                                   .dst_pid = op->pid,
                                   .dst_region = op->rr,
                                   .dst_off = op->roff,
                                   .n = op->n});
                break;
            case OP_GET:
            case OP_HPGET:
                rec_add(w, (rec_t){.kind = OP_GET,
                                   .src_pid = op->pid,
                                   .src_region = op->rr,
                                   .src_off = op->roff,
                                   .dst_pid = q,
                                   .dst_region = op->lr,
                                   .dst_off = op->loff,
                                   .n = op->n});
                break;
            case OP_SEND:
                if (op->pid == w->pid)
                    queue_add(next, q, MODEL(w, q, R_SCRATCH) + op->tagoff,
                              (size_t)w->tagsize[step], local, op->n);
                break;
            default: break;
            }
        }
    }
    /* The sync: gets and hpputs read the memory as the computation left it ... */
    for (size_t i = 0; i < w->nrecs; i++) {
        rec_t *rc = &w->recs[i];
        if (rc->kind != OP_PUT)
            rc->data = arena_add(w, MODEL(w, rc->src_pid, rc->src_region) + rc->src_off, rc->n);
    }
    /* ... then gets land, then puts. */
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < w->nrecs; i++) {
            const rec_t *rc = &w->recs[i];
            if ((rc->kind == OP_GET) == (pass == 0))
                memcpy(MODEL(w, rc->dst_pid, rc->dst_region) + rc->dst_off, w->arena + rc->data,
                       rc->n);
        }
}

/* ------------------------------------------------------------ checks */

static size_t appendf(char *buf, size_t cap, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static size_t appendf(char *buf, size_t cap, size_t len, const char *fmt, ...)
{
    if (len >= cap)
        return len;
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(buf + len, cap - len, fmt, ap);
    va_end(ap);
    return k < 0 ? len : min_size(cap, len + (size_t)k);
}

/* The operations of the superstep that wrote or read byte `at` of region r of this process. */
static void explain(const world *w, int r, size_t at, char *buf, size_t cap)
{
    size_t len = 0;
    int shown = 0;
    for (int q = 0; q < w->P; q++)
        for (int i = 0; i < w->nops[q]; i++) {
            const op_t *op = &w->ops[(size_t)q * MAX_PLAN + (size_t)i];
            int k = op->kind;
            int remote = (k == OP_PUT || k == OP_HPPUT || k == OP_GET || k == OP_HPGET) &&
                         op->pid == w->pid && op->rr == r && op->roff <= at &&
                         at < op->roff + op->n;
            int local = (k == OP_WRITE || k == OP_GET || k == OP_HPGET || k == OP_PUT ||
                         k == OP_HPPUT || k == OP_SEND) &&
                        q == w->pid && op->lr == r && op->loff <= at && at < op->loff + op->n;
            if (!remote && !local)
                continue;
            if (++shown > 12) {
                len = appendf(buf, cap, len, "; ...");
                return;
            }
            len = appendf(buf, cap, len, "%s process %d op %d: %s", shown > 1 ? ";" : "", q, i,
                          kind_name[k]);
            if (k == OP_WRITE)
                len = appendf(buf, cap, len, " %s[%zu,+%zu)", region_name[op->lr], op->loff, op->n);
            else if (k == OP_SEND)
                len = appendf(buf, cap, len, " to %d from %s[%zu,+%zu)", op->pid,
                              region_name[op->lr], op->loff, op->n);
            else
                len = appendf(buf, cap, len,
                              " %s %d %s[%zu,+%zu) (named %s, slot %d) %s %s[%zu,+%zu)",
                              k == OP_PUT || k == OP_HPPUT ? "into" : "from", op->pid,
                              region_name[op->rr], op->roff, op->n, region_name[op->nr], op->slot,
                              k == OP_PUT || k == OP_HPPUT ? "from" : "into", region_name[op->lr],
                              op->loff, op->n);
        }
    if (!shown)
        appendf(buf, cap, len, " none");
}

static void check_memory(world *w)
{
    for (int r = 0; r < NREGION; r++) {
        size_t n = SIZE(w, r, w->pid);
        const unsigned char *real = w->real[r], *model = MODEL(w, w->pid, r);
        if (!memcmp(real, model, n))
            continue;
        size_t first = 0, ndiff = 0, last = 0;
        while (real[first] == model[first])
            first++;
        for (size_t i = first; i < n; i++)
            if (real[i] != model[i])
                ndiff++, last = i;
        char ops[2000];
        explain(w, r, first, ops, sizeof ops);
        FAIL(w,
             "after the sync, %s (%zu bytes) differs from the model in %zu bytes from byte %zu to "
             "%zu: byte %zu is 0x%02x, expected 0x%02x; this superstep's operations on that "
             "byte:%s",
             region_name[r], n, ndiff, first, last, first, real[first], model[first], ops);
    }
}

static void check_qsize(world *w)
{
    const queue_t *qu = &w->queue[w->cur];
    bsp_nprocs_t nm = 0;
    bsp_size_t nb = 0;
    size_t bytes = 0;
    for (size_t i = qu->pos; i < qu->nm; i++)
        bytes += qu->m[i].n;
    bsp_qsize(&nm, &nb);
    if ((size_t)nm != qu->nm - qu->pos || (size_t)nb != bytes)
        FAIL(w,
             "bsp_qsize gives %lld messages of %lld bytes, expected %zu of %zu (%zu already moved)",
             (long long)nm, (long long)nb, qu->nm - qu->pos, bytes, qu->pos);
}

/* Which message of the model's queue has this tag and payload size (and payload), for a report. */
static void which_message(const world *w, const unsigned char *tag, size_t n,
                          const unsigned char *payload, char *buf, size_t cap)
{
    const queue_t *qu = &w->queue[w->cur];
    size_t len = appendf(buf, cap, 0, "; the model's messages matching it:");
    int found = 0;
    for (size_t i = 0; i < qu->nm; i++) {
        const msg_t *m = &qu->m[i];
        if (m->n != n || memcmp(qu->data + m->tagoff, tag, m->tagn) ||
            (payload && memcmp(qu->data + m->payoff, payload, n)))
            continue;
        len = appendf(buf, cap, len, " #%zu (from %d)", i, m->src);
        found = 1;
    }
    if (!found)
        appendf(buf, cap, len, " none");
}

/* Reads op->count messages of the queue (all with DRAIN), checking each against the model. */
static void receive(world *w, const op_t *op)
{
    queue_t *qu = &w->queue[w->cur];
    rng_t r = {op->seed};
    char more[600];
    for (int k = 0; k < op->count; k++) {
        if (qu->pos == qu->nm) {
            bsp_size_t st = 0;
            const char *how = "bsp_get_tag";
            if (chance(&r, 50)) {
                bsp_get_tag(&st, w->tagbuf);
            } else {
                void *tp = NULL, *pp = NULL;
                st = bsp_hpmove(&tp, &pp);
                how = "bsp_hpmove";
            }
            if (st != (bsp_size_t)-1)
                FAIL(w, "%s on the empty queue (%zu messages moved) gives %lld, expected -1", how,
                     qu->nm, (long long)st);
            return;
        }
        const msg_t *m = &qu->m[qu->pos];
        const unsigned char *tag = qu->data + m->tagoff, *pay = qu->data + m->payoff;
        size_t mode = below(&r, 4);
        if (mode == 3) {
            void *tp = NULL, *pp = NULL;
            bsp_size_t st = bsp_hpmove(&tp, &pp);
            if (st == (bsp_size_t)-1)
                FAIL(w,
                     "bsp_hpmove of message %zu of %zu finds the queue empty, expected the "
                     "message from %d of %zu bytes",
                     qu->pos, qu->nm, m->src, m->n);
            else if ((size_t)st != m->n || (m->tagn && memcmp(tp, tag, m->tagn)) ||
                     (m->n && memcmp(pp, pay, m->n))) {
                which_message(w, tp, (size_t)st, pp, more, sizeof more);
                FAIL(w,
                     "bsp_hpmove of message %zu of %zu: %lld payload bytes, tag %s, payload %s; "
                     "expected the message from %d of %zu bytes with a %zu-byte tag%s",
                     qu->pos, qu->nm, (long long)st,
                     m->tagn && memcmp(tp, tag, m->tagn) ? "differs" : "as expected",
                     (size_t)st != m->n      ? "-"
                     : memcmp(pp, pay, m->n) ? "differs"
                                             : "as expected",
                     m->src, m->n, m->tagn, more);
            }
        } else {
            if (mode < 2) {
                bsp_size_t st = 0;
                memset(w->tagbuf, 0xA5, sizeof w->tagbuf);
                bsp_get_tag(&st, w->tagbuf);
                int bad = (size_t)st != m->n || memcmp(w->tagbuf, tag, m->tagn);
                for (size_t i = m->tagn; i < sizeof w->tagbuf; i++)
                    bad |= w->tagbuf[i] != 0xA5;
                if (bad) {
                    which_message(w, w->tagbuf, (size_t)st, NULL, more, sizeof more);
                    FAIL(w,
                         "bsp_get_tag of message %zu of %zu: status %lld, tag %s; expected "
                         "the message from %d of %zu bytes with a %zu-byte tag%s",
                         qu->pos, qu->nm, (long long)st,
                         memcmp(w->tagbuf, tag, m->tagn) ? "differs"
                                                         : "bytes beyond its size written",
                         m->src, m->n, m->tagn, more);
                }
            }
            size_t recv = chance(&r, 50)   ? m->n
                          : chance(&r, 50) ? below(&r, m->n + 1)
                                           : m->n + 1 + below(&r, 64);
            size_t got = min_size(recv, m->n);
            memset(w->rbuf, 0x5A, got + 16);
            bsp_move(w->rbuf, (bsp_size_t)recv);
            size_t bad = got;
            for (size_t i = 0; i < got + 16 && bad == got; i++)
                if (w->rbuf[i] != (i < got ? pay[i] : 0x5A))
                    bad = i;
            if (bad != got)
                FAIL(w,
                     "bsp_move(%zu bytes) of message %zu of %zu (from %d, %zu bytes, %s "
                     "bsp_get_tag): byte %zu is 0x%02x, expected 0x%02x",
                     recv, qu->pos, qu->nm, m->src, m->n, mode < 2 ? "after" : "without", bad,
                     w->rbuf[bad], bad < got ? pay[bad] : 0x5A);
        }
        qu->pos++;
        if (chance(&r, 25))
            check_qsize(w);
    }
}

/* This process's operations of superstep `step`, for real. */
static void run_own(world *w, int step)
{
    const op_t *ops = &w->ops[(size_t)w->pid * MAX_PLAN];
    for (int i = 0; i < w->nops[w->pid]; i++) {
        const op_t *op = &ops[i];
        unsigned char *local = w->real[op->lr] + op->loff;
        bsp_size_t n = (bsp_size_t)op->n;
        switch (op->kind) {
        case OP_WRITE: fill(local, op->n, op->seed); break;
        case OP_PUT: bsp_put(op->pid, local, w->real[op->nr], (bsp_size_t)op->roff, n); break;
        case OP_HPPUT: bsp_hpput(op->pid, local, w->real[op->nr], (bsp_size_t)op->roff, n); break;
        case OP_GET: bsp_get(op->pid, w->real[op->nr], (bsp_size_t)op->roff, local, n); break;
        case OP_HPGET: bsp_hpget(op->pid, w->real[op->nr], (bsp_size_t)op->roff, local, n); break;
        case OP_SEND: bsp_send(op->pid, w->real[R_SCRATCH] + op->tagoff, local, n); break;
        case OP_RECV: receive(w, op); break;
        case OP_QSIZE: check_qsize(w); break;
        case OP_TAGSIZE: {
            bsp_size_t ts = (bsp_size_t)op->count;
            bsp_set_tagsize(&ts);
            if ((long long)ts != w->tagsize[step])
                FAIL(w, "bsp_set_tagsize(%d) gives the previous size %lld, expected %d", op->count,
                     (long long)ts, w->tagsize[step]);
            break;
        }
        case OP_PUSH:
        case OP_POP: {
            const slot_t *s = &w->slots[op->slot];
            int reg = s->region[w->pid];
            void *addr = reg < 0 ? NULL : w->real[reg];
            if (op->kind == OP_PUSH)
                bsp_push_reg(addr, (bsp_size_t)s->size[w->pid]);
            else
                bsp_pop_reg(addr);
            break;
        }
        default: break;
        }
    }
}

/* ------------------------------------------------------------ the run */

static void setup(world *w, uint64_t seed, int steps)
{
    memset(w, 0, sizeof *w);
    w->pid = (int)bsp_pid();
    w->P = (int)bsp_nprocs();
    w->seed = seed;
    w->steps = steps;
    size_t P = (size_t)w->P;
    w->size = check_alloc(NREGION * P * sizeof *w->size);
    /* Each process models every process's memory: beyond 16 processes the large
     * regions shrink, so that the model's P * P copies stay within bounds. */
    size_t shrink = P > 16 ? (P + 15) / 16 : 1;
    for (int r = 0; r < NREGION; r++)
        for (int q = 0; q < w->P; q++) {
            rng_t g = rng_for(w, -2 - r, q);
            static const size_t base[NREGION] = {16, 1024, 40000, 49152, 64, 4096};
            static const size_t spread[NREGION] = {112, 7169, 40001, 49153, 1985, 16001};
            size_t n = base[r] + below(&g, spread[r]);
            SIZE(w, r, q) = n > 4096 ? 4096 + (n - 4096) / shrink : n;
        }
    w->model = check_alloc(P * NREGION * sizeof *w->model);
    for (int q = 0; q < w->P; q++)
        for (int r = 0; r < NREGION; r++) {
            MODEL(w, q, r) = check_alloc(SIZE(w, r, q));
            fill(MODEL(w, q, r), SIZE(w, r, q),
                 mix(mix(seed ^ 0xC0FFEEu) + (uint64_t)(q * NREGION + r)));
        }
    for (int r = 0; r < NREGION; r++) {
        w->real[r] = check_alloc(SIZE(w, r, w->pid));
        memcpy(w->real[r], MODEL(w, w->pid, r), SIZE(w, r, w->pid));
    }
    w->maxslots = NFIXED + steps + 1;
    w->slots = check_alloc((size_t)w->maxslots * sizeof *w->slots);
    for (int i = 0; i < w->maxslots; i++) {
        w->slots[i].region = check_alloc(2 * P * sizeof(int));
        w->slots[i].size = w->slots[i].region + P;
    }
    w->tagsize = check_alloc(((size_t)steps + (size_t)w->maxslots + 4) * sizeof *w->tagsize);
    w->tagsize[0] = 0;
    w->ops = check_alloc(P * MAX_PLAN * sizeof *w->ops);
    w->nops = check_alloc(P * sizeof *w->nops);
    w->buckets = check_alloc(P * NREGION * sizeof *w->buckets);
    memset(w->buckets, 0, P * NREGION * sizeof *w->buckets);
    w->rbuf = check_alloc(MAX_PAYLOAD + 64 + 16);
}

static void teardown(world *w)
{
    for (size_t i = 0; i < (size_t)w->P * NREGION; i++) {
        free(w->model[i]);
        free(w->buckets[i].v);
    }
    for (int r = 0; r < NREGION; r++)
        free(w->real[r]);
    for (int i = 0; i < w->maxslots; i++)
        free(w->slots[i].region);
    for (int c = 0; c < 2; c++) {
        free(w->queue[c].m);
        free(w->queue[c].data);
    }
    free(w->model);
    free(w->buckets);
    free(w->size);
    free(w->slots);
    free(w->tagsize);
    free(w->ops);
    free(w->nops);
    free(w->recs);
    free(w->arena);
    free(w->rbuf);
}

static void count(world *w)
{
    for (int q = 0; q < w->P; q++)
        for (int i = 0; i < w->nops[q]; i++) {
            const op_t *op = &w->ops[(size_t)q * MAX_PLAN + (size_t)i];
            w->nops_total++;
            if (op->kind == OP_SEND)
                w->nmsgs_total++;
            if (op->kind >= OP_PUT && op->kind <= OP_SEND)
                w->nbytes_total += (long long)op->n;
        }
}

int main(int argc, char **argv)
{
    bsp_begin(bsp_nprocs());
    uint64_t seed = 20240611;
    int steps = STEPS_DEFAULT;
    const char *arg = argc > 1 ? argv[1] : getenv("POLYBSP_TEST_SEED");
    if (arg && *arg) {
        char *end;
        seed = strtoull(arg, &end, 0);
        CHECK(*end == '\0');
    }
    if (argc > 2)
        steps = atoi(argv[2]);
    CHECK(steps >= 1);

    world *w = check_alloc(sizeof *w);
    setup(w, seed, steps);
    double t0 = bsp_time();
    for (int step = 0; step == w->steps || live_slots(w) > 0 || step < w->steps; step++) {
        w->step = step;
        gen_step(w, step);
        count(w);
        run_own(w, step);
        bsp_sync();
        simulate(w, step);
        check_memory(w);
        w->cur = !w->cur;
    }
    if (w->pid == 0)
        printf("random_semantics: seed %llu, P %d, %d supersteps: %lld operations, %lld messages, "
               "%lld bytes, as the model (%.2f s)\n",
               (unsigned long long)seed, w->P, w->steps, w->nops_total, w->nmsgs_total,
               w->nbytes_total, bsp_time() - t0);
    teardown(w);
    free(w);
    bsp_end();
    return 0;
}
