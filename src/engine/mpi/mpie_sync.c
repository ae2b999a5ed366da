/* mpie_sync — the superstep on MPI: barrier, agreement checks and the exchange.
 *
 * The steps of a superstep are core.h's timeline; this is how MPI moves the data.
 * The barrier combines the members' traffic bits (eng_barrier). When anybody
 * communicates, every member sends one head message to each member it has
 * records or get requests for, and learns how many to expect from the barrier
 * (up to MPIE_HEADS_MAX_P members) or a reduction (beyond):
 *     [records][small hpputs' data][get requests][trailer]
 * The records are the core's out buffer for that destination, sent where they lie.
 * The data of a large put or hpput (travels_apart) travels apart, in its
 * own messages in record order, from where it lies (the out buffer, the hpput's
 * source); the destination receives it straight into place when its turn comes,
 * so a large put crosses MPI once and a large hpput moves once in all. A smaller
 * hpput's data is gathered into the head by an MPI datatype (no copy of ours) and
 * its record is pointed at it on arrival.
 * Order: each member first serves the get requests it received (the values are
 * copied into replies before any put lands), then copies its own gets' values in
 * issue order, and only then lands the records of every source by increasing pid,
 * each source's in issue order.
 */
#include "engine/mpi/mpie.h"

#include "core/core_watch.h"

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Data below these sizes rides in the head. A put's data lies in the out buffer
 * next to its record, so the head carries it in the same transfer and sending it
 * apart only saves the copy into place, which outweighs a message of its own from
 * 32 KiB; a small hpput's data is gathered into the head by MPI's packing, which
 * costs more than a message of its own from 16 KiB (measured, single exchanges at
 * P = 2: docs/performance.md, "MPI engine"). */
#define MPIE_APART_PUT CORE_BIG_PUT /* the core flags supersteps that have one */
#define MPIE_APART_HPPUT CORE_BIG_HPPUT
/* MPI counts are ints: data travelling apart goes in pieces of at most this. */
#define MPIE_PIECE ((size_t)1 << 30)

typedef struct head_trailer {
    uint64_t recs_len; /* bytes of records at the start of the head (as sent) */
    uint64_t hp_len;   /* bytes of small hpputs' data after them */
    uint64_t apart;    /* records whose data travels apart */
} head_trailer;

typedef struct wire_get {
    uint32_t slot;
    uint32_t high_performance;
    uint64_t offset;
    uint64_t size;
} wire_get;

/* Only the lowest culprit reports; the others wait for its MPI_Abort. */
void mpie_blame(const core_ctx *c, int guilty, const char *call, const char *detail)
{
    int me = guilty ? c->pid : INT_MAX, lowest;
    MPI_Request req;
    mpie_iallreduce(&me, &lowest, 1, MPI_INT, MPI_MIN, c->group->e.comm, &req);
    mpie_wait_watched(&req, c->e.at, c->proc->step);
    if (lowest == INT_MAX)
        return;
    if (lowest == c->pid)
        core_fatal_as(c->proc->pid, c->proc->step, call, "%s", detail);
    mpie_await_stop();
}

/* Different calls met at one barrier: every member learns every member's call and
 * names the lowest pid of the lowest kind, about the lowest pid of another. */
static void report_mixed_arrivals(const core_ctx *c, unsigned all, unsigned at)
{
    int P = c->nprocs;
    unsigned mine[2] = {at, c->proc->ended_how}, *every = malloc(2 * (size_t)P * sizeof *every);
    if (!every)
        core_fatal_oom("barrier");
    MPI_Request req;
    mpie_iallgather(mine, 2, MPI_UNSIGNED, every, 2, MPI_UNSIGNED, c->group->e.comm, &req);
    mpie_wait_watched(&req, at, c->proc->step);
    int culprit, other;
    core_blame_mixed(every, 2, P, all, &culprit, &other);
    if (culprit == c->pid)
        core_report_mixed(c->proc->pid, c->proc->step, every[2 * culprit],
                          c->group->e.run_pids[other], every[2 * other], every[2 * other + 1]);
    mpie_await_stop();
}

/* Members arrived from supersteps of different parity: every member learns every
 * member's superstep; the lowest pid of the earliest reports the lowest pid of
 * another. */
static void report_steps(const core_ctx *c, unsigned at)
{
    int P = c->nprocs;
    unsigned long mine[2] = {c->step, (unsigned long)c->last_oblivious};
    unsigned long *every = malloc(2 * (size_t)P * sizeof *every);
    if (!every)
        core_fatal_oom("barrier");
    MPI_Request req;
    mpie_iallgather(mine, 2, MPI_UNSIGNED_LONG, every, 2, MPI_UNSIGNED_LONG, c->group->e.comm,
                    &req);
    mpie_wait_watched(&req, at, c->proc->step);
    int behind, other;
    core_blame_steps(every, 2, P, &behind, &other);
    if (behind == c->pid)
        core_report_steps(c->proc->pid, c->proc->step, at, c->group->e.run_pids[other],
                          (int)every[2 * other + 1], every[2 * other]);
    mpie_await_stop();
}

/* A barrier that ORs the members' bits by point-to-point messages, which beats
 * MPI_Allreduce by a sixth at P = 2 (docs/performance.md, "MPI engine"). In
 * round k each member exchanges what it has seen with member pid XOR 2^k
 * (recursive doubling) when P is a power of two; otherwise it sends to the member
 * 2^k ahead and hears from the one 2^k behind (dissemination, which handles any P
 * because OR does not mind seeing a bit twice). After ceil(log2 P) rounds every
 * member holds the OR of all. Two members meet at most once per barrier, so MPI's
 * in-order delivery keeps successive barriers apart. Pairwise exchange suits an
 * oversubscribed machine better: both partners of a round need the processor at
 * once, instead of a chain of waits around the ring.
 * The messages also carry the smallest and largest of the members' collective
 * of this superstep (kind, root, size), which min and max combine as OR does
 * bits: when the two are equal every member announced the same, and
 * eng_check_colls has nothing to ask MPI (two collectives fewer per collective
 * superstep; the report of a difference still comes from them). The same for a
 * hash of the superstep's registration calls (regops_hash): when every member's
 * is the same, eng_check_regops skips the broadcasts that compare the calls. A
 * member that has seen neither a collective nor a registration (no
 * CORE_HAS_COLL or CORE_HAS_REG yet) sends `all` alone: every member it heard
 * of has none, which is kind 0, root 0, size 0 and hash 0, so a plain sync's
 * messages stay 4 bytes. */
enum { DESC_KIND, DESC_ROOT, DESC_SIZE, DESC_REGS, NDESC };
/* Up to this many members, a communicating superstep's barrier also carries who
 * sends a head to whom: a matrix of P x P bits (bit q·P + d: member q sends
 * member d a head), each member setting its row and the rounds ORing them
 * like the bits, so that the exchange sends heads only where there is
 * something to say and every member knows how many to expect with no
 * collective of its own (exchange_data). At 64 members the matrix is 512
 * bytes a message; beyond, an MPI_Reduce_scatter_block counts the heads. */
#define MPIE_HEADS_MAX_P 64
/* Up to this many members the heads also leave before the barrier and travel
 * while it runs (a head per destination, up to P - 1 each). Beyond, they wait
 * for the barrier's end: on SMPI, P(P-1) heads in flight during the barrier's
 * log2(P) rounds made every round's message re-solve the network model over
 * all of them (an all-to-all test at P = 64 on fattree-64: 2.2x the wall
 * time), and the overlap was only ever measured up to 8. */
#define MPIE_EARLY_HEADS_MAX_P 8
typedef struct barrier_msg {
    unsigned all;
    long lo[NDESC], hi[NDESC];
    uint64_t ride; /* bytes of a small collective's blocks after the matrix */
} barrier_msg;
/* A message: `all` (the whole header when a collective or a registration was
 * seen), then the heads matrix when the superstep communicates, then the ride. */
static size_t header_bytes(unsigned all)
{
    return all & (CORE_HAS_COLL | CORE_HAS_REG) ? sizeof(barrier_msg) : sizeof(unsigned);
}

size_t mpie_heads_words(int P)
{
    return P <= MPIE_HEADS_MAX_P && !mpie_coll_sync(P) ? ((size_t)P * (size_t)P + 63) / 64 : 0;
}

static size_t heads_bytes(unsigned all, int P)
{
    return all & (CORE_HAS_COMM | CORE_HAS_GET) ? mpie_heads_words(P) * sizeof(uint64_t) : 0;
}

/* Room for a message: the header, the matrix and the largest ride
 * (mpie_ride_bytes). */
static size_t barrier_room(int P)
{
    return sizeof(barrier_msg) + heads_bytes(CORE_HAS_COMM, P) + sizeof(uint64_t) + MPIE_RIDE_MAX;
}

/* Bit q·P + d of the heads matrix: member q sends member d a head. */
static size_t heads_bit(const core_ctx *c, int q, int d)
{
    return (size_t)q * (size_t)c->nprocs + (size_t)d;
}

/* This member's row of the heads matrix: the members its records or get
 * requests go to (sends_to, once prepare_heads has set it). */
static void set_heads_row(core_ctx *c)
{
    for (int d = 0; d < c->nprocs; d++) {
        size_t bit = heads_bit(c, c->pid, d);
        if (c->e.sends_to[d])
            c->e.heads[bit / 64] |= (uint64_t)1 << (bit % 64);
    }
}

/* The hash of the registration calls of the superstep (kind and which push,
 * in order) and the tag size calls; 0 when there are none, as for a member
 * that sends no description. Sizes are not in it: they may differ. */
static long regops_hash(const core_ctx *c)
{
    if (!c->nregops && !c->tagsize_calls)
        return 0;
    uint64_t h = mpie_hash(MPIE_HASH_START, c->nregops);
    h = mpie_hash(h, c->tagsize_calls);
    h = mpie_hash(h, c->next_tagsize);
    for (size_t i = 0; i < c->nregops; i++) {
        h = mpie_hash(h, (uint64_t)c->regops[i].kind);
        h = mpie_hash(h, c->regops[i].push);
    }
    long v = (long)(h >> 1);
    return v ? v : 1;
}

static void prepare_heads(core_ctx *c, unsigned parity);
static void send_heads(core_ctx *c, unsigned parity);
static size_t hp_bytes(const core_ctx *c, int d, unsigned parity);

/* The collective sync (groups of more than MPIE_COLL_SYNC_ABOVE members): the
 * barrier, the OR of the members' bits and the count of heads each member is
 * to receive come from MPI's own collectives, run with its tuned algorithms.
 * Up to SYNC_FUSED_P members, and beyond after a superstep that communicated,
 * one MPI_Reduce_scatter_block does it all: each member gives one 32-bit word
 * per destination d,
 *     [heads it sends d: 19 bits][its bits: 12][sparse: 1]
 * which the reduction adds (the count) and ORs (the rest). Otherwise the bits
 * come from one MPI_Allreduce of a word, and a sparse superstep that turns out
 * to communicate counts its heads by an MPI_Reduce_scatter_block of the 0/1
 * flags after it (exchange_data): a reduce-scatter costs the simulator O(P)
 * per member (SMPI's recursive halving: 49 ms of host time per call at P =
 * 256, 4 times its MPI_Barrier), an allreduce of a word log2 P messages, and
 * supersteps that communicate tend to follow one another, as empty ones do.
 * Every member knows whether the last superstep communicated, so all choose
 * alike.
 * A member whose heads go to at most MPIE_EARLY_HEADS members sends them
 * before the collective, to travel while it runs, as a plain MPI program's
 * Isends do before its MPI_Barrier; one with more sends them after it. Such a
 * member votes "sparse", and so does every member that has heads for at most
 * half of the others: when nobody does, the superstep is dense and its heads
 * travel by MPI's all-to-all (dense_exchange), with no count. After a dense
 * superstep the sync is one MPI_Allreduce (MAX) of the bits, the vote and the
 * range of the heads' sizes, which the next dense superstep's all-to-all
 * needs (a sparse one counts its heads after it). The members'
 * collective and registration descriptions are compared by one more
 * reduction, only in a superstep where somebody has one.
 * Why: the point-to-point barrier's log2 P rounds of Isend/Irecv/Waitall (and
 * the heads counted by a reduction after it) cost SMPI about 30,700 simulator
 * events per empty superstep at P = 1024, 20 times its MPI_Barrier, and a
 * sparse superstep 2.6x the simulated time of the same Isends with an
 * MPI_Barrier (docs/smpi.md, section 8). */
#ifndef MPIE_EARLY_HEADS /* a test build may lower it, to reach the dense path at small P */
#define MPIE_EARLY_HEADS 8
#endif
enum { SYNC_FUSED_P = 64, SYNC_COUNT_BITS = 19, SYNC_BITS = 12 };
/* Under SMPI, the largest group whose allreduce is MPI_Allreduce (below). */
enum { SYNC_RDB_MAX_P = 256 };
_Static_assert((CORE_HAS_LAST | CORE_AT_ANY | CORE_AT_ODD) < (1u << SYNC_BITS),
               "the bits need more room");

static void sync_combine(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    const uint32_t *a = in, count = ((uint32_t)1 << SYNC_COUNT_BITS) - 1;
    uint32_t *b = inout;
    for (int i = 0; i < *len; i++)
        b[i] = (((a[i] & count) + (b[i] & count)) & count) | ((a[i] | b[i]) & ~count);
}

/* How many heads this member has for others, and the sizes of the largest
 * and smallest (its out buffers for them). */
typedef struct head_sizes {
    int n;
    size_t most, least;
} head_sizes;

/* The collective sync's heads, when this member communicates: prepared, up to
 * MPIE_EARLY_HEADS of them sent now to travel while the collective runs, else
 * measured (for the dense vote and the range dense_exchange needs), small
 * hpputs' data included: a dense head carries it. */
static head_sizes coll_start_heads(core_ctx *c, unsigned bits, unsigned parity)
{
    head_sizes h = {0, 0, SIZE_MAX};
    c->e.heads_state = MPIE_HEADS_NONE;
    if (!(bits & (CORE_HAS_COMM | CORE_HAS_GET)))
        return h;
    prepare_heads(c, parity);
    c->e.heads_state = MPIE_HEADS_PREPARED;
    for (int d = 0; d < c->nprocs; d++)
        h.n += c->e.sends_to[d];
    if (h.n <= MPIE_EARLY_HEADS) {
        send_heads(c, parity);
        c->e.heads_state = MPIE_HEADS_SENT;
        return h;
    }
    for (int d = 0; d < c->nprocs; d++)
        if (c->e.sends_to[d]) {
            c->e.hp_len[d] = c->flags & CORE_HAS_HP ? hp_bytes(c, d, parity) : 0;
            size_t len = c->out[parity][d].len + c->e.hp_len[d];
            h.most = len > h.most ? len : h.most;
            h.least = len < h.least ? len : h.least;
        }
    return h;
}

/* This member's vote: dense when its heads, none sent early, go to more than
 * half of the others, and P of the largest (with its trailer and a length
 * word) fit dense_exchange's displacements, which are ints. */
static int votes_dense(const core_ctx *c, const head_sizes *h)
{
    int P = c->nprocs;
    return c->e.heads_state == MPIE_HEADS_PREPARED && h->n > (P - 1) / 2 &&
           h->most + sizeof(head_trailer) + sizeof(uint64_t) <= (size_t)INT_MAX / (size_t)P;
}

/* Whether the sync is one reduce-scatter (sync_fused), as long as the count
 * of heads fits its bits. Under SMPI never beyond SYNC_FUSED_P members, where
 * the heads are drained instead (sync_unfused). */
static int sync_is_fused(int P, int last_comm)
{
#ifdef POLYBSP_SMPI
    (void)last_comm;
    return P <= SYNC_FUSED_P;
#else
    return P < (1 << SYNC_COUNT_BITS) && (P <= SYNC_FUSED_P || last_comm);
#endif
}

/* After a dense superstep: one allreduce (MAX) of the bits one by one, the
 * vote and the range of the heads' sizes that dense_exchange needs, so that a
 * dense superstep then costs it and the all-to-all (a sparse one, the count
 * of its heads after). The bits and the vote, as the other syncs give them. */
static uint32_t sync_after_dense(core_ctx *c, uint32_t mine, int dense, const head_sizes *h)
{
    long v[SYNC_BITS + 3];
    for (int i = 0; i < SYNC_BITS; i++)
        v[i] = mine >> i & 1;
    v[SYNC_BITS] = !dense;
    int measured = c->e.heads_state == MPIE_HEADS_PREPARED; /* none sent early */
    v[SYNC_BITS + 1] = measured ? (long)(h->most + sizeof(head_trailer)) : 0;
    v[SYNC_BITS + 2] = measured ? -(long)(h->least + sizeof(head_trailer)) : LONG_MIN;
    MPI_Request req;
    mpie_iallreduce(MPI_IN_PLACE, v, SYNC_BITS + 3, MPI_LONG, MPI_MAX, c->group->e.comm, &req);
    mpie_wait(1, &req, 0);
    uint32_t got = 0;
    for (int i = 0; i <= SYNC_BITS; i++)
        got |= (uint32_t)(v[i] != 0) << i;
    c->e.range[0] = v[SYNC_BITS + 1];
    c->e.range[1] = v[SYNC_BITS + 2];
    c->e.expect = -1; /* exchange_data counts them, if sparse */
    return got;
}

/* One MPI_Reduce_scatter_block of a word per destination, whose sum is the
 * count of heads each member is to receive and whose OR is the bits and the
 * vote: the barrier and the count in one collective. */
static uint32_t sync_fused(core_ctx *c, uint32_t mine, int dense)
{
    static MPI_Op op = MPI_OP_NULL; /* under SMPI, each rank's own */
    if (op == MPI_OP_NULL)
        MPI_Op_create(sync_combine, 1, &op);
    int P = c->nprocs;
    uint32_t common = (mine | (uint32_t)!dense << SYNC_BITS) << SYNC_COUNT_BITS, got;
    uint32_t *words = (uint32_t *)core_buf_reserve(&c->e.barrier_room, (size_t)P * sizeof *words);
    for (int d = 0; d < P; d++)
        words[d] = common | (c->e.heads_state != MPIE_HEADS_NONE && c->e.sends_to[d]);
    MPI_Request req;
    mpie_ireduce_scatter_block(words, &got, 1, MPI_UINT32_T, op, c->group->e.comm, &req);
    mpie_wait(1, &req, 0);
    c->e.expect = (int)(got & (((uint32_t)1 << SYNC_COUNT_BITS) - 1));
    return got >> SYNC_COUNT_BITS;
}

/* The OR of the members' words, every member's. */
static uint32_t members_or(core_ctx *c, uint32_t mine)
{
    uint32_t got;
    MPI_Request req;
#ifdef POLYBSP_SMPI
    if (c->nprocs > SYNC_RDB_MAX_P && !c->e.last_comm) {
        /* Reduce and broadcast by binomial trees: twice the rounds of the
         * recursive doubling polybsp-smpirun gives MPI_Allreduce, but P - 1
         * messages each instead of P log2 P at once, which at P = 1024
         * on torus-8x8x16 cost the simulator 0.34 s of CPU a call against
         * 0.04 (the simulated time is MPI_Barrier's, 117 us; docs/smpi.md,
         * section 8). After a superstep that communicated, the next is
         * likely to, and its time counts: recursive doubling then. */
        MPI_Reduce(&mine, &got, 1, MPI_UINT32_T, MPI_BOR, 0, c->group->e.comm);
        MPI_Bcast(&got, 1, MPI_UINT32_T, 0, c->group->e.comm);
        req = MPI_REQUEST_NULL;
    } else
#endif
        mpie_iallreduce(&mine, &got, 1, MPI_UINT32_T, MPI_BOR, c->group->e.comm, &req);
    mpie_wait(1, &req, 0);
    return got;
}

/* One reduction of a word: the bits, the vote, and whether any member has
 * heads still to send after it; exchange_data counts the heads (or, under
 * SMPI, drains them when all left early). */
static uint32_t sync_unfused(core_ctx *c, uint32_t mine, int dense)
{
    mine |= (uint32_t)!dense << SYNC_BITS | (uint32_t)(c->e.heads_state == MPIE_HEADS_PREPARED)
                                                << (SYNC_BITS + 1);
    uint32_t got = members_or(c, mine);
    c->e.expect = -1; /* exchange_data counts them */
#ifdef POLYBSP_SMPI
    /* Every head left before the collective: under SMPI, which puts a
     * message in its destination's mailbox when the sender's MPI_Isend
     * returns (no message is sent detached, polybsp-smpirun), they all
     * wait there once the collective is over, and the destination takes
     * them by MPI_Iprobe until none is left: no count, whose
     * reduce-scatter cost the simulator O(P) per member (13 s of CPU per
     * superstep at P = 2048 on torus-8x8x16). Not on MPI, which may
     * deliver a message sent before a barrier after it. */
    if (!(got >> (SYNC_BITS + 1) & 1))
        c->e.expect = -2;
#endif
    return got;
}

/* What the sync found (the bits, then the sparse vote), kept for the
 * exchange and the next sync: whether anybody communicated, whether the
 * superstep is dense (nobody voted sparse, and no large put or hpput, whose
 * data travels apart: dense_exchange carries heads only), and whether its
 * range is known (only from sync_after_dense). Returns the bits. */
static unsigned note_sync(core_ctx *c, uint32_t got)
{
    unsigned all = got & ((1u << SYNC_BITS) - 1);
    c->e.last_comm = (all & (CORE_HAS_COMM | CORE_HAS_GET)) != 0;
    c->e.dense = !(got >> SYNC_BITS & 1) && !(all & CORE_HAS_BIG);
    c->e.range_known = c->e.last_dense;
    c->e.last_dense = c->e.dense;
    return all;
}

/* The smallest and largest of the members' descriptions into lo and hi: the
 * reduction runs only when somebody has a collective or a registration call,
 * as the smallest of each and of its negation (the largest), one MIN. */
static void reduce_descs(core_ctx *c, unsigned all, unsigned at, const long desc[NDESC],
                         long lo[NDESC], long hi[NDESC])
{
    memcpy(lo, desc, NDESC * sizeof *lo);
    memcpy(hi, desc, NDESC * sizeof *hi);
    if (!(all & (CORE_HAS_COLL | CORE_HAS_REG)))
        return;
    long v[2 * NDESC];
    for (int i = 0; i < NDESC; i++) {
        v[i] = desc[i];
        v[NDESC + i] = -desc[i];
    }
    MPI_Request req;
    mpie_iallreduce(MPI_IN_PLACE, v, 2 * NDESC, MPI_LONG, MPI_MIN, c->group->e.comm, &req);
    mpie_wait_watched(&req, at, c->proc->step);
    for (int i = 0; i < NDESC; i++) {
        lo[i] = v[i];
        hi[i] = -v[NDESC + i];
    }
}

/* The collective sync, in the order above: heads, vote, one of the three
 * syncs, what it found, the descriptions. */
static unsigned coll_barrier(core_ctx *c, unsigned at, unsigned bits, const long desc[NDESC],
                             long lo[NDESC], long hi[NDESC])
{
    unsigned parity = c->step & 1;
    head_sizes h = coll_start_heads(c, bits, parity);
    int dense = votes_dense(c, &h);
    uint32_t mine = bits | at | (parity ? CORE_AT_ODD : CORE_AT_EVEN), got;
    c->e.at = at;
    core_watch_enter(at, c->proc->step);
    if (c->e.last_dense)
        got = sync_after_dense(c, mine, dense, &h);
    else if (sync_is_fused(c->nprocs, c->e.last_comm))
        got = sync_fused(c, mine, dense);
    else
        got = sync_unfused(c, mine, dense);
    core_watch_leave();
    unsigned all = note_sync(c, got);
    reduce_descs(c, all, at, desc, lo, hi);
    return all;
}

/* eng_barrier's contract (engine.h) is the OR of the members' bits and a stop
 * when they arrived from different calls; the functions below do that and the
 * jobs the barrier takes on for the rest of the superstep, one each:
 * describe_step (what this member announces for the agreement checks),
 * start_heads (the exchange's heads, early), p2p_round (one round of the
 * point-to-point barrier, which also carries the heads matrix and a
 * collective's ride), note_agreement (whether eng_check_colls and
 * eng_check_regops have anything to ask) and check_arrivals (the stop). */

/* This member's collective of the superstep (kind, root, size; zeros for a
 * superstep with none, whose root and size are left from before) and the hash
 * of its registration calls: what the barrier's min and max compare. */
static void describe_step(const core_ctx *c, unsigned bits, long desc[NDESC])
{
    const core_coll_desc *d = &c->coll[c->step & 1];
    int normal = !(bits & CORE_HAS_COLL);
    desc[DESC_KIND] = normal ? 0 : (long)d->kind;
    desc[DESC_ROOT] = normal ? 0 : d->root;
    desc[DESC_SIZE] = normal ? 0 : (long)d->nbytes;
    desc[DESC_REGS] = regops_hash(c);
}

/* The heads matrix cleared and, when this member communicates, its heads
 * prepared and its row set; up to MPIE_EARLY_HEADS_MAX_P members the heads go
 * to members that expect them whatever the barrier finds, so they leave now
 * and travel while it runs: on a busy or oversubscribed machine that saves
 * the exchange's round after it. */
static void start_heads(core_ctx *c, unsigned bits, int P)
{
    size_t nheads = heads_bytes(CORE_HAS_COMM, P);
    if (nheads)
        memset(c->e.heads, 0, nheads);
    if (!(bits & (CORE_HAS_COMM | CORE_HAS_GET)) || !nheads)
        return;
    prepare_heads(c, c->step & 1);
    set_heads_row(c);
    c->e.heads_state = MPIE_HEADS_PREPARED;
    if (P <= MPIE_EARLY_HEADS_MAX_P) {
        send_heads(c, c->step & 1);
        c->e.heads_state = MPIE_HEADS_SENT;
    }
}

/* Round k of the point-to-point barrier: mine (its header, the heads matrix,
 * the ride in pay) goes to this round's partner, whose message is merged into
 * mine, the matrix and pay. out and in are buffers of room bytes. */
static void p2p_round(core_ctx *c, int k, barrier_msg *mine, char *pay, char *out, char *in,
                      size_t room)
{
    int P = c->nprocs, me = c->pid, pairwise = (P & (P - 1)) == 0;
    barrier_msg theirs = {0};
    MPI_Request reqs[2];
    size_t head = header_bytes(mine->all), matrix = heads_bytes(mine->all, P), size = head;
    memcpy(out, mine, head);
    if (matrix) /* beyond MPIE_HEADS_MAX_P there is no matrix (heads NULL) */
        memcpy(out + size, c->e.heads, matrix);
    size += matrix;
    if (head == sizeof *mine && mine->ride) {
        memcpy(out + size, pay, mine->ride);
        size += mine->ride;
    }
    MPI_Irecv(in, (int)room, MPI_BYTE, pairwise ? me ^ k : (me - k + P) % P, MPIE_TAG_BARRIER,
              c->group->e.comm, &reqs[0]);
    MPI_Isend(out, (int)size, MPI_BYTE, pairwise ? me ^ k : (me + k) % P, MPIE_TAG_BARRIER,
              c->group->e.comm, &reqs[1]);
    mpie_wait(2, reqs, 0);
    /* What a shorter message leaves out is what nobody the sender heard of
     * has: no collective, no registration call (all zero), no head to send. */
    memcpy(&theirs.all, in, sizeof theirs.all);
    const char *at_in = in + header_bytes(theirs.all);
    if (at_in - in == (ptrdiff_t)sizeof theirs)
        memcpy(&theirs, in, sizeof theirs);
    size_t their_matrix = heads_bytes(theirs.all, P);
    for (size_t w = 0; w < their_matrix / sizeof(uint64_t); w++) {
        uint64_t row;
        memcpy(&row, at_in + w * sizeof row, sizeof row);
        c->e.heads[w] |= row;
    }
    at_in += their_matrix;
    /* Blocks of the same collective (same size) join this member's. */
    if (mine->ride && theirs.ride == mine->ride)
        mpie_ride_merge(c, pay, at_in);
    mine->all |= theirs.all;
    for (int i = 0; i < NDESC; i++) {
        mine->lo[i] = theirs.lo[i] < mine->lo[i] ? theirs.lo[i] : mine->lo[i];
        mine->hi[i] = theirs.hi[i] > mine->hi[i] ? theirs.hi[i] : mine->hi[i];
    }
}

/* When the smallest and largest descriptions are equal, every member announced
 * the same collective (registration calls): eng_check_colls (eng_check_regops)
 * has nothing to ask MPI. */
static void note_agreement(core_ctx *c, const long lo[NDESC], const long hi[NDESC])
{
    c->e.colls_agree = memcmp(lo, hi, DESC_REGS * sizeof *lo) == 0;
    c->e.regs_agree = lo[DESC_REGS] == hi[DESC_REGS];
}

/* Stops the run when the members arrived from different calls, or from
 * supersteps of different parity. */
static void check_arrivals(const core_ctx *c, unsigned all, unsigned at)
{
    if ((all & CORE_AT_ANY) != at)
        report_mixed_arrivals(c, all, at);
    if ((all & (CORE_AT_EVEN | CORE_AT_ODD)) == (CORE_AT_EVEN | CORE_AT_ODD))
        report_steps(c, at);
}

unsigned eng_barrier(core_ctx *c, unsigned at, unsigned bits)
{
    long desc[NDESC];
    describe_step(c, bits, desc);
    barrier_msg mine = {.all = bits | at | (c->step & 1 ? CORE_AT_ODD : CORE_AT_EVEN)};
    memcpy(mine.lo, desc, sizeof desc);
    memcpy(mine.hi, desc, sizeof desc);
    int P = c->nprocs;
    if (mpie_coll_sync(P)) {
        unsigned all = coll_barrier(c, at, bits, desc, mine.lo, mine.hi);
        note_agreement(c, mine.lo, mine.hi);
        check_arrivals(c, all, at);
        return all;
    }
    start_heads(c, bits, P);
    /* Three message buffers (this member's ride, the one in flight, the
     * partner's). */
    size_t room = barrier_room(P);
    char *pay = core_buf_reserve(&c->e.barrier_room, 3 * room), *out = pay + room, *in = out + room;
    if (bits & CORE_HAS_COLL && (mine.ride = mpie_ride_bytes(c)) > 0)
        mpie_ride_fill(c, pay);
    c->e.at = at;
    core_watch_enter(at, c->proc->step);
    for (int k = 1; k < P; k *= 2)
        p2p_round(c, k, &mine, pay, out, in, room);
    core_watch_leave();
    note_agreement(c, mine.lo, mine.hi);
    if (mine.ride && c->e.colls_agree)
        mpie_ride_keep(c, pay);
    check_arrivals(c, mine.all, at);
    return mine.all;
}

/* Which member's registration calls differ from member 0's, and how: member 0's
 * tag size calls and size, and sequence of registration calls (kind, push
 * undone) reach everybody, and the lowest member that differs reports. */
static void report_regops(core_ctx *c)
{
    uint64_t head[3] = {c->nregops, c->next_tagsize, c->tagsize_calls};
    MPI_Request req;
    mpie_ibcast(head, 3, MPI_UINT64_T, 0, c->group->e.comm, &req);
    mpie_wait_watched(&req, c->e.at, c->proc->step);
    size_t n = (size_t)head[0];
    core_regop *ref = calloc(n + 1, sizeof *ref);
    uint64_t *wire = calloc(2 * n + 2, sizeof *wire);
    if (!ref || !wire)
        core_fatal_oom("registration check");
    for (size_t i = 0; c->pid == 0 && i < n; i++) {
        wire[2 * i] = (uint64_t)c->regops[i].kind;
        wire[2 * i + 1] = c->regops[i].push;
    }
    mpie_ibcast(wire, (int)(2 * n), MPI_UINT64_T, 0, c->group->e.comm, &req);
    mpie_wait_watched(&req, c->e.at, c->proc->step);
    for (size_t i = 0; i < n; i++)
        ref[i] = (core_regop){.kind = (core_regop_kind)wire[2 * i], .push = wire[2 * i + 1]};
    const char *call = "bsp_push_reg";
    char detail[160];
    int guilty =
        core_regops_differ(ref, n, (size_t)head[2], (size_t)head[1], c->regops, c->nregops,
                           c->tagsize_calls, c->next_tagsize, &call, detail, sizeof detail);
    free(ref);
    free(wire);
    mpie_blame(c, guilty, call, detail);
}

void eng_check_regops(core_ctx *c)
{
    /* The barrier compared the calls' hashes: only when they differ is there
     * anything to find (one chance in 2^63 that different calls share one). */
    if (!c->e.regs_agree)
        report_regops(c);
    size_t n = c->nregops; /* the same on every member by now */
    if (n == 0)
        return;
    uint64_t *wire = calloc(2 * n + 2, sizeof *wire);
    if (!wire)
        core_fatal_oom("registration check");
    MPI_Request req;
    /* The calls match: every member learns the largest and smallest size of each
     * push (the smallest as its complement, so that one MAX reduction serves). */
    for (size_t i = 0; i < n; i++) {
        wire[2 * i] = c->regops[i].size;
        wire[2 * i + 1] = UINT64_MAX - c->regops[i].size;
    }
    mpie_iallreduce(MPI_IN_PLACE, wire, (int)(2 * n), MPI_UINT64_T, MPI_MAX, c->group->e.comm,
                    &req);
    mpie_wait_watched(&req, c->e.at, c->proc->step);
    for (size_t i = 0; i < n; i++) {
        c->regops[i].most = (size_t)wire[2 * i];
        c->regops[i].agree = UINT64_MAX - wire[2 * i + 1] == wire[2 * i];
    }
    free(wire);
}

void eng_check_colls(core_ctx *c, unsigned parity)
{
    if (c->e.colls_agree)
        return;
    long d[3] = {(long)c->coll[parity].kind, c->coll[parity].root, (long)c->coll[parity].nbytes};
    MPI_Request req;
    mpie_ibcast(d, 3, MPI_LONG, 0, c->group->e.comm, &req);
    mpie_wait_watched(&req, c->e.at, c->proc->step);
    core_coll_desc ref = {(core_step_kind)d[0], d[1], (size_t)d[2]};
    char call[32], detail[160];
    int guilty = core_coll_differ(&ref, c->group->e.run_pids[0], &c->coll[parity], call,
                                  sizeof call, detail, sizeof detail);
    mpie_blame(c, guilty, call, detail);
}

void mpie_take_start(core_ctx *c, mpie_message *msg, const MPI_Status *st)
{
    int len;
    MPI_Get_count(st, MPI_BYTE, &len);
    core_buf *b = &c->e.in[st->MPI_SOURCE];
    b->len = 0;
    core_buf_reserve(b, (size_t)len);
    mpie_imrecv(b->data, len, msg, mpie_request(c));
    b->len = (size_t)len;
}

void mpie_take(core_ctx *c, mpie_message *msg, const MPI_Status *st)
{
    mpie_take_start(c, msg, st);
    mpie_wait(1, &c->e.reqs[--c->e.nreqs], 0);
}

MPI_Request *mpie_request(core_ctx *c)
{
    if (c->e.nreqs == c->e.capreqs) {
        int cap = c->e.capreqs ? 2 * c->e.capreqs : 16;
        MPI_Request *r = realloc(c->e.reqs, (size_t)cap * sizeof *r);
        if (!r)
            core_fatal_oom("exchange");
        c->e.reqs = r;
        c->e.capreqs = cap;
    }
    return &c->e.reqs[c->e.nreqs++];
}

/* Adds a piece to the head being gathered; a piece that continues the previous
 * one extends it, so that a head often stays one contiguous block. */
static void add_block(core_ctx *c, const void *at, size_t len)
{
    MPI_Aint addr;
    MPI_Get_address(at, &addr);
    int n = c->e.nblocks;
    if (n && c->e.block_at[n - 1] + c->e.block_len[n - 1] == addr) {
        c->e.block_len[n - 1] =
            mpie_count((size_t)c->e.block_len[n - 1] + len, "a superstep's data for one process");
        return;
    }
    if (!len)
        return;
    if (n == c->e.capblocks) {
        int cap = n ? 2 * n : 16;
        MPI_Aint *a = realloc(c->e.block_at, (size_t)cap * sizeof *a);
        if (a)
            c->e.block_at = a;
        int *l = realloc(c->e.block_len, (size_t)cap * sizeof *l);
        if (!a || !l)
            core_fatal_oom("exchange");
        c->e.block_len = l;
        c->e.capblocks = cap;
    }
    c->e.block_at[n] = addr;
    c->e.block_len[n] = mpie_count(len, "a superstep's data for one process");
    c->e.nblocks++;
}

/* Small puts (core_rec.h) never travel apart: what reads a record that does
 * may take its header for a core_rec's. */
_Static_assert(MPIE_APART_PUT > CORE_SMALL_PUT_MAX, "a small put would travel apart");

static int travels_apart(const core_rec *r)
{
    unsigned kind = CORE_REC_KIND(r);
    return kind == CORE_REC_PUT     ? r->size >= MPIE_APART_PUT
           : kind == CORE_REC_HPPUT ? r->size >= MPIE_APART_HPPUT
                                    : 0;
}

static const void *hp_source(const core_rec *r)
{
    const void *src;
    memcpy(&src, r + 1, sizeof src);
    return src;
}

/* Whether r is an hpput whose data rides in the head, after the records: one
 * rule for what hp_bytes counts, gather lists and pack_head copies. */
static int rides_in_head(const core_rec *r)
{
    return CORE_REC_KIND(r) == CORE_REC_HPPUT && r->size && !travels_apart(r);
}

static void send_apart(core_ctx *c, int d, const char *data, size_t n)
{
    for (size_t done = 0; done < n; done += MPIE_PIECE) {
        size_t k = n - done < MPIE_PIECE ? n - done : MPIE_PIECE;
        MPI_Isend(data + done, (int)k, MPI_BYTE, d, MPIE_TAG_APART, c->group->e.comm,
                  mpie_request(c));
    }
}

/* The bytes of d's small hpputs' data: a head carries them after the records. */
static size_t hp_bytes(const core_ctx *c, int d, unsigned parity)
{
    size_t n = 0;
    const char *cur = c->out[parity][d].data, *end = cur + c->e.recs_len[d];
    for (; cur < end; cur += core_rec_bytes((const core_rec *)cur)) {
        const core_rec *r = (const core_rec *)cur;
        if (rides_in_head(r))
            n += r->size;
    }
    return n;
}

/* Lists the head's pieces when some data does not lie in the records: the
 * records less the data of large puts (sent apart, as is large hpputs' data),
 * then the small hpputs' data, then get requests and trailer. */
static void gather(core_ctx *c, int d, const core_buf *b, size_t recs, head_trailer *t)
{
    const char *seg = b->data, *end = b->data + recs;
    for (const char *cur = seg; cur < end; cur += core_rec_bytes((const core_rec *)cur)) {
        const core_rec *r = (const core_rec *)cur;
        if (!travels_apart(r))
            continue;
        if (CORE_REC_KIND(r) == CORE_REC_PUT) {
            add_block(c, seg, (size_t)((const char *)(r + 1) - seg));
            seg = cur + core_rec_bytes(r);
            t->recs_len -= core_rec_bytes(r) - sizeof *r;
            send_apart(c, d, (const char *)(r + 1), r->size);
        } else {
            send_apart(c, d, hp_source(r), r->size);
        }
        t->apart++;
    }
    add_block(c, seg, (size_t)(end - seg));
    for (const char *cur = b->data; (c->flags & CORE_HAS_HP) && cur < end;
         cur += core_rec_bytes((const core_rec *)cur)) {
        const core_rec *r = (const core_rec *)cur;
        if (rides_in_head(r)) {
            add_block(c, hp_source(r), r->size);
            t->hp_len += r->size;
        }
    }
    add_block(c, end, b->len - recs);
}

static void send_head(core_ctx *c, int d, unsigned parity)
{
    core_buf *b = &c->out[parity][d];
    size_t recs = c->e.recs_len[d];
    head_trailer t = {recs, 0, 0};
    /* The trailer's room first: the buffer does not move from here on. */
    size_t at = b->len;
    core_buf_reserve(b, sizeof t);
    core_buf_commit(b, sizeof t);
    c->e.nblocks = 0;
    /* Only then may a record's data lie elsewhere or travel apart: a walk of
     * the records here took a fifth of a superstep of 65536 8-byte puts. */
    if ((c->flags & CORE_HAS_HP) || ((c->flags & CORE_HAS_BIG) && recs >= MPIE_APART_PUT))
        gather(c, d, b, recs, &t);
    memcpy(b->data + at, &t, sizeof t);
    /* One block can only be the whole buffer: any piece from elsewhere (an hpput's
     * data) or left out (a large put's) splits it. */
    if (c->e.nblocks <= 1) {
        MPI_Isend(b->data, mpie_count(b->len, "a superstep's data for one process"), MPI_BYTE, d,
                  MPIE_TAG_HEAD + (int)parity, c->group->e.comm, mpie_request(c));
        return;
    }
    mpie_count(b->len + t.hp_len, "a superstep's data for one process");
    MPI_Datatype head;
    MPI_Type_create_hindexed(c->e.nblocks, c->e.block_len, c->e.block_at, MPI_BYTE, &head);
    MPI_Type_commit(&head);
    MPI_Isend(MPI_BOTTOM, 1, head, d, MPIE_TAG_HEAD + (int)parity, c->group->e.comm,
              mpie_request(c));
    MPI_Type_free(&head); /* MPI keeps it until the send completes */
}

/* Appends each get request to its owner's out buffer after the records and posts
 * the receives of the values; returns how many (they are the first requests). */
static int post_gets(core_ctx *c, unsigned parity)
{
    int P = c->nprocs;
    size_t *at = c->e.value_at;
    memset(at, 0, ((size_t)P + 1) * sizeof *at);
    for (size_t i = 0; i < c->ngets; i++) {
        const core_getreq *g = &c->gets[i];
        wire_get w = {g->slot, g->high_performance, g->offset, g->size};
        core_buf *b = &c->out[parity][g->pid];
        memcpy(core_buf_reserve(b, sizeof w), &w, sizeof w);
        core_buf_commit(b, sizeof w);
        at[g->pid + 1] += g->size;
    }
    for (int q = 0; q < P; q++)
        at[q + 1] += at[q];
    c->e.values.len = 0;
    core_buf_reserve(&c->e.values, at[P]);
    int n = 0;
    for (int q = 0; q < P; q++) {
        if (q == c->pid || c->out[parity][q].len == c->e.recs_len[q])
            continue;
        MPI_Irecv(c->e.values.data + at[q],
                  mpie_count(at[q + 1] - at[q], "a superstep's get values from one process"),
                  MPI_BYTE, q, MPIE_TAG_REPLY, c->group->e.comm, mpie_request(c));
        n++;
    }
    at[c->pid] = 0; /* this member's own values will be in reply[pid] */
    return n;
}

/* Copies the values member q asked for into reply[q], and sends them. */
static void serve_gets(core_proc *p, int q, const char *req, size_t len)
{
    core_ctx *c = p->ctx;
    core_buf *out = &c->e.reply[q];
    out->len = 0;
    for (const char *cur = req; cur < req + len; cur += sizeof(wire_get)) {
        wire_get w;
        memcpy(&w, cur, sizeof w);
        const core_slot *s = &c->reg.slots[w.slot];
        core_getreq g = {NULL, (uint32_t)c->pid, w.slot, w.high_performance != 0, w.offset, w.size};
        core_check_get(c->group->e.run_pids[q], p->step, &g, s->size);
        core_copy(core_buf_reserve(out, w.size), (const char *)s->addr + w.offset, w.size);
        core_buf_commit(out, w.size);
        if (p->tr.on) {
            atomic_fetch_add(&p->tr.served_bytes, w.size);
            atomic_fetch_add(&p->tr.served_msgs, 1);
        }
    }
    if (q != c->pid)
        MPI_Isend(out->data, mpie_count(out->len, "a superstep's get values for one process"),
                  MPI_BYTE, q, MPIE_TAG_REPLY, c->group->e.comm, mpie_request(c));
}

static head_trailer trailer_of(const core_buf *b)
{
    head_trailer t;
    memcpy(&t, b->data + b->len - sizeof t, sizeof t);
    return t;
}

static void run_gets(core_proc *p, unsigned parity, int nreplies)
{
    core_ctx *c = p->ctx;
    for (int q = 0; q < c->nprocs; q++) {
        if (q == c->pid) {
            const core_buf *b = &c->out[parity][q];
            if (b->len > c->e.recs_len[q])
                serve_gets(p, q, b->data + c->e.recs_len[q], b->len - c->e.recs_len[q]);
            continue;
        }
        const core_buf *b = &c->e.in[q];
        if (b->len == 0) /* no head from q (sparse exchange) */
            continue;
        head_trailer t = trailer_of(b);
        size_t from = t.recs_len + t.hp_len, to = b->len - sizeof t;
        if (to > from)
            serve_gets(p, q, b->data + from, to - from);
    }
    mpie_wait(nreplies, c->e.reqs, 0);
    /* Values from each owner come in the order the gets to it were made. */
    for (size_t i = 0; i < c->ngets; i++) {
        const core_getreq *g = &c->gets[i];
        const char *from = g->pid == (uint32_t)c->pid ? c->e.reply[g->pid].data : c->e.values.data;
        if (g->size)
            core_copy(g->dst, from + c->e.value_at[g->pid], g->size);
        c->e.value_at[g->pid] += g->size;
        core_get_landed(p, c->group->e.run_pids[g->pid], g->size, g->pid == (uint32_t)c->pid);
    }
}

/* The record at *cur of a head, moving *cur to the next: in a head a large
 * put's record has no data (it travels apart), a large hpput's keeps its
 * source pointer. */
static core_rec *head_next(char **cur)
{
    core_rec *r = (core_rec *)*cur;
    *cur += travels_apart(r) && CORE_REC_KIND(r) == CORE_REC_PUT ? sizeof *r : core_rec_bytes(r);
    return r;
}

/* Receives a record's data that travels apart straight into place (bounds
 * checked as every landing is): at once, waiting on one, in landing order;
 * else (one NULL) among the superstep's requests, which exchange_data waits
 * for before the superstep ends. */
static void recv_apart(core_proc *p, int q, const core_rec *rec, MPI_Request *one)
{
    core_ctx *c = p->ctx;
    core_rec_view r = core_rec_open(rec);
    char *to = core_rec_target(p, c->group->e.run_pids[q], &r);
    for (size_t done = 0; done < r.size; done += MPIE_PIECE) {
        size_t k = r.size - done < MPIE_PIECE ? r.size - done : MPIE_PIECE;
        MPI_Irecv(to + done, (int)k, MPI_BYTE, q, MPIE_TAG_APART, c->group->e.comm,
                  one ? one : mpie_request(c));
        if (one)
            mpie_wait(1, one, 0);
    }
    core_trace_landed(p, &r, q != c->pid);
}

/* Lands the records of a head in order; the data that travelled apart is
 * received in its turn unless all of it was posted at once (posted). In a
 * head a small hpput's data follows the records. */
static void land_head(core_proc *p, int q, core_buf *b, const head_trailer *t, int posted)
{
    long src = p->ctx->group->e.run_pids[q];
    char *run = b->data, *end = b->data + t->recs_len;
    const char *hp = end;
    for (char *cur = run; cur < end;) {
        core_rec *r = head_next(&cur);
        if (!travels_apart(r)) {
            if (CORE_REC_KIND(r) == CORE_REC_HPPUT) {
                memcpy(r + 1, &hp, sizeof hp);
                hp += r->size;
            }
            continue;
        }
        if ((char *)r > run)
            core_apply_records(p, src, run, (size_t)((char *)r - run));
        if (!posted) {
            MPI_Request one;
            recv_apart(p, q, r, &one);
        }
        run = cur;
    }
    if (end > run)
        core_apply_records(p, src, run, (size_t)(end - run));
}

/* A place of this process's memory that a record writes: [lo, hi). */
typedef struct span {
    uintptr_t lo, hi;
} span;

static int span_cmp(const void *a, const void *b)
{
    uintptr_t x = ((const span *)a)->lo, y = ((const span *)b)->lo;
    return (x > y) - (x < y);
}

/* The place record r writes, or 0 when it writes none (a send, padding) or
 * lies beyond its area (landing in turn reports that). */
static int span_of(const core_ctx *c, const core_rec *r, span *out)
{
    core_rec_view v = core_rec_open(r);
    if (v.kind == CORE_REC_SEND || v.kind == CORE_REC_PAD ||
        (v.slot != CORE_COLL_SLOT && v.slot >= c->reg.nslots))
        return 0;
    core_place at = core_rec_place(c, &v);
    if (v.offset > at.size || v.size > at.size - v.offset)
        return 0;
    out->lo = (uintptr_t)at.base + v.offset;
    out->hi = out->lo + v.size;
    return 1;
}

/* Whether [x.lo, x.hi) meets one of the n sorted, disjoint spans of a. */
static int meets(const span *a, size_t n, span x)
{
    size_t lo = 0, hi = n; /* the first span that ends after x starts */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (a[mid].hi <= x.lo)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && a[lo].lo < x.hi && x.lo < x.hi;
}

/* BSPlib lands a superstep's records by source, then in issue order, so a
 * later write wins where two meet. Receiving the data that travels apart in
 * that order serialises it: with rendezvous messages (large ones; every one
 * under the smpi engine's settings) each transfer starts only when its
 * receive is posted, and a total exchange of 27 KiB hpputs at P = 64 took ten
 * times the same puts' time. When no record's place meets the place of data
 * travelling apart, and no two of those meet, the order cannot show: all of
 * it is posted at once, straight into place. Returns whether it was. */
static int post_apart(core_proc *p, unsigned parity)
{
    core_ctx *c = p->ctx;
    size_t napart = 0, n = 0;
    for (int q = 0; q < c->nprocs; q++)
        if (q != c->pid && c->e.in[q].len)
            napart += trailer_of(&c->e.in[q]).apart;
    if (napart < 2)
        return 0;
    span *apart = malloc(napart * sizeof *apart);
    if (!apart)
        core_fatal_oom("exchange");
    int ok = 1;
    for (int q = 0; ok && q < c->nprocs; q++) {
        if (q == c->pid || !c->e.in[q].len)
            continue;
        head_trailer t = trailer_of(&c->e.in[q]);
        for (char *cur = c->e.in[q].data, *end = cur + t.recs_len; ok && cur < end;) {
            core_rec *r = head_next(&cur);
            if (travels_apart(r))
                ok = span_of(c, r, &apart[n++]);
        }
    }
    if (ok) {
        qsort(apart, n, sizeof *apart, span_cmp);
        for (size_t i = 1; ok && i < n; i++)
            ok = apart[i - 1].hi <= apart[i].lo;
    }
    for (int q = 0; ok && q < c->nprocs; q++) {
        span x;
        if (q == c->pid) {
            const core_buf *b = &c->out[parity][q];
            for (const char *cur = b->data, *end = cur + c->e.recs_len[q]; ok && cur < end;
                 cur += core_rec_bytes((const core_rec *)cur))
                ok = !span_of(c, (const core_rec *)cur, &x) || !meets(apart, n, x);
            continue;
        }
        if (!c->e.in[q].len)
            continue;
        head_trailer t = trailer_of(&c->e.in[q]);
        for (char *cur = c->e.in[q].data, *end = cur + t.recs_len; ok && cur < end;) {
            core_rec *r = head_next(&cur);
            if (!travels_apart(r))
                ok = !span_of(c, r, &x) || !meets(apart, n, x);
        }
    }
    free(apart);
    if (!ok)
        return 0;
    for (int q = 0; q < c->nprocs; q++) {
        if (q == c->pid || !c->e.in[q].len)
            continue;
        head_trailer t = trailer_of(&c->e.in[q]);
        uint64_t before = p->tr.bytes_in;
        for (char *cur = c->e.in[q].data, *end = cur + t.recs_len; cur < end;) {
            core_rec *r = head_next(&cur);
            if (travels_apart(r))
                recv_apart(p, q, r, NULL);
        }
        if (p->tr.on)
            core_trace_add_source(p, (int)c->group->e.run_pids[q], p->tr.bytes_in - before);
    }
    return 1;
}

static void land_records(core_proc *p, unsigned parity)
{
    core_ctx *c = p->ctx;
    int posted = post_apart(p, parity);
    for (int q = 0; q < c->nprocs; q++) {
        long src = c->group->e.run_pids[q];
        if (q == c->pid) {
            if (c->e.recs_len[q])
                core_deliver(p, src, c->out[parity][q].data, c->e.recs_len[q]);
            continue;
        }
        if (c->e.in[q].len == 0) /* no head from q (sparse exchange) */
            continue;
        head_trailer t = trailer_of(&c->e.in[q]);
        if (!t.recs_len)
            continue;
        if (!t.apart && !t.hp_len) {
            core_deliver(p, src, c->e.in[q].data, t.recs_len);
            continue;
        }
        uint64_t before = p->tr.bytes_in;
        land_head(p, q, &c->e.in[q], &t, posted);
        if (p->tr.on)
            core_trace_add_source(p, src, p->tr.bytes_in - before);
    }
}

static void exchange_data(core_proc *p, unsigned all, unsigned parity);

void eng_exchange(core_proc *p, unsigned all, unsigned parity)
{
    core_ctx *c = p->ctx;
    if (all & (CORE_HAS_COMM | CORE_HAS_GET))
        exchange_data(p, all, parity);
    if (c->e.coll.kind)
        mpie_coll_run(p, all);
}

/* A member sends a head only to the members it has records or get requests
 * for. Up to MPIE_HEADS_MAX_P members the barrier told everybody who sends to
 * whom (and up to MPIE_EARLY_HEADS_MAX_P the heads left before it,
 * eng_barrier); beyond, each learns how
 * many heads to expect from one MPI_Reduce_scatter_block of its 0/1 flags. A
 * superstep then costs messages in proportion to its traffic rather than
 * P(P-1), which is what a large cluster (and the simulator's time, issue 11)
 * pays for. A head's tag carries the superstep's parity: one sent before its
 * barrier can meet a destination still taking the heads of the superstep
 * before, never those of the one before that (its sender passed a barrier that
 * the destination entered after those). */

/* The first half of the exchange, up to the heads leaving: the records' lengths
 * (before the get requests join them), the receives of the get values, and
 * where heads go (sends_to). */
static void prepare_heads(core_ctx *c, unsigned parity)
{
    int P = c->nprocs, me = c->pid;
    c->e.nreqs = 0;
    for (int d = 0; d < P; d++)
        c->e.recs_len[d] = c->out[parity][d].len;
    c->e.nreplies = c->ngets ? post_gets(c, parity) : 0;
    for (int d = 0; d < P; d++)
        c->e.sends_to[d] = d != me && c->out[parity][d].len > 0;
}

static void send_heads(core_ctx *c, unsigned parity)
{
    for (int d = 0; d < c->nprocs; d++)
        if (c->e.sends_to[d])
            send_head(c, d, parity);
}

/* Writes the head for d of a dense superstep at to: the records, the small
 * hpputs' data in their order (hp_len[d] bytes), the get requests, the
 * trailer; what gather lists for a sparse head, copied. */
static void pack_head(const core_ctx *c, int d, unsigned parity, char *to)
{
    const core_buf *b = &c->out[parity][d];
    size_t recs = c->e.recs_len[d];
    head_trailer t = {recs, c->e.hp_len[d], 0};
    memcpy(to, b->data, recs);
    to += recs;
    for (const char *cur = b->data; t.hp_len && cur < b->data + recs;
         cur += core_rec_bytes((const core_rec *)cur)) {
        const core_rec *r = (const core_rec *)cur;
        if (rides_in_head(r)) {
            memcpy(to, hp_source(r), r->size);
            to += r->size;
        }
    }
    memcpy(to, b->data + recs, b->len - recs);
    memcpy(to + (b->len - recs), &t, sizeof t);
}

/* The heads of a dense superstep (votes_dense) by MPI's all-to-all, as a BSP
 * library on MPI's collectives moves them (BSPonMPI: sizes by MPI_Alltoall,
 * data by MPI_Alltoallv): MPI's tuned algorithms beat P - 1 Isends per member
 * by far (a total exchange of 1 KiB at P = 64 on torus-8x8x16: 257 us by
 * MPI_Alltoall against about 1000 by either; docs/smpi.md, section 8). One
 * reduction first finds the largest and smallest head: when none is more than
 * twice another, every head travels in a block of the largest's size by
 * MPI_Alltoall (after a dense superstep the sync's own allreduce found the
 * range: sync_after_dense) (a length word first; members without a head for somebody send
 * an empty block), else sizes then heads by MPI_Alltoall and MPI_Alltoallv.
 * No member has data travelling apart then (no large put or hpput), so a
 * head is its out buffer and trailer, with small hpputs' data between the
 * records and the get requests as in a sparse head (pack_head). The heads
 * received are copied into the in buffers, where the records are landed as
 * after a probe. */
static void dense_exchange(core_ctx *c, unsigned parity)
{
    int P = c->nprocs;
    MPI_Comm comm = c->group->e.comm;
    int *counts = malloc(4 * (size_t)P * sizeof *counts);
    if (!counts)
        core_fatal_oom("exchange");
    int *scount = counts, *sat = counts + P, *rcount = counts + 2 * P, *rat = counts + 3 * P;
    long range[2] = {0, LONG_MIN}; /* the largest head, and the smallest's negation */
    size_t total = 0, rtotal = 0;
    int known = c->e.range_known;
    for (int d = 0; d < P; d++) {
        scount[d] = 0;
        if (c->e.sends_to[d]) {
            /* votes_dense saw that P of them fit an int */
            long len = (long)(c->out[parity][d].len + c->e.hp_len[d] + sizeof(head_trailer));
            scount[d] = (int)len;
            range[0] = len > range[0] ? len : range[0];
            range[1] = -len > range[1] ? -len : range[1];
        }
        sat[d] = (int)total;
        total += (size_t)scount[d];
    }
    MPI_Request req;
    if (known) {
        range[0] = c->e.range[0];
        range[1] = c->e.range[1];
    } else {
        mpie_iallreduce(MPI_IN_PLACE, range, 2, MPI_LONG, MPI_MAX, comm, &req);
        mpie_wait(1, &req, 0);
    }
    char *sbuf, *rbuf;
    if (range[0] <= -2 * range[1]) {
        /* Blocks of a length word and the largest head, rounded up to words. */
        size_t block =
            ((size_t)range[0] + 2 * sizeof(uint64_t) - 1) / sizeof(uint64_t) * sizeof(uint64_t);
        sbuf = calloc((size_t)P, block);
        rbuf = malloc((size_t)P * block);
        if (!sbuf || !rbuf)
            core_fatal_oom("exchange");
        for (int d = 0; d < P; d++) {
            uint64_t len = (uint64_t)scount[d];
            memcpy(sbuf + (size_t)d * block, &len, sizeof len);
            if (len)
                pack_head(c, d, parity, sbuf + (size_t)d * block + sizeof len);
        }
        mpie_ialltoall(sbuf, (int)block, MPI_BYTE, rbuf, (int)block, MPI_BYTE, comm, &req);
        mpie_wait(1, &req, 0);
        for (int q = 0; q < P; q++) {
            uint64_t len;
            memcpy(&len, rbuf + (size_t)q * block, sizeof len);
            rcount[q] = (int)len;
            rat[q] = (int)((size_t)q * block + sizeof len);
        }
    } else {
        mpie_ialltoall(scount, 1, MPI_INT, rcount, 1, MPI_INT, comm, &req);
        mpie_wait(1, &req, 0);
        for (int q = 0; q < P; q++) {
            rat[q] = (int)rtotal;
            rtotal += (size_t)rcount[q];
        }
        sbuf = malloc(total ? total : 1);
        rbuf = malloc(rtotal ? rtotal : 1);
        if (!sbuf || !rbuf)
            core_fatal_oom("exchange");
        for (int d = 0; d < P; d++)
            if (scount[d])
                pack_head(c, d, parity, sbuf + sat[d]);
        mpie_ialltoallv(sbuf, scount, sat, MPI_BYTE, rbuf, rcount, rat, MPI_BYTE, comm, &req);
        mpie_wait(1, &req, 0);
    }
    for (int q = 0; q < P; q++) {
        if (!rcount[q])
            continue;
        core_buf *b = &c->e.in[q];
        b->len = 0;
        memcpy(core_buf_reserve(b, (size_t)rcount[q]), rbuf + rat[q], (size_t)rcount[q]);
        b->len = (size_t)rcount[q];
    }
    free(sbuf);
    free(rbuf);
    free(counts);
}

/* Waits for the heads' receives, the requests of c->e.reqs from `taken` on,
 * and drops them. Every head's receive is started before any is waited for:
 * under SMPI a receive starts the simulated transfer, and taken one at a time
 * a member receiving from the P - 1 others paid P - 1 latencies in a row
 * (1 byte from every process to one at P = 64 on fattree-64: 517 us a
 * superstep, 40 with the receives overlapped, against the empty superstep's
 * 37), which no MPI with an eager protocol for small messages does. */
static void heads_taken(core_ctx *c, int taken)
{
    mpie_wait(c->e.nreqs - taken, c->e.reqs + taken, 0);
    c->e.nreqs = taken;
}

static void exchange_data(core_proc *p, unsigned all, unsigned parity)
{
    core_ctx *c = p->ctx;
    int P = c->nprocs, me = c->pid, expect = 0, taken;
    core_watch_enter(all & CORE_AT_ANY, p->step);
    for (int d = 0; d < P; d++)
        c->e.in[d].len = 0; /* no head from d: nothing to land */
    if (c->e.heads_state == MPIE_HEADS_NONE)
        prepare_heads(c, parity);
    if (mpie_coll_sync(P) && c->e.dense) {
        dense_exchange(c, parity); /* no member sent a head early (votes_dense) */
    } else if (mpie_coll_sync(P)) {
        expect = c->e.expect;
        if (expect == -2) {
            /* sync_unfused: every head is in this member's mailbox */
            mpie_message msg;
            MPI_Status st;
            expect = 0;
            taken = c->e.nreqs;
            while (mpie_improbe(MPI_ANY_SOURCE, MPIE_TAG_HEAD + (int)parity, c->group->e.comm, &msg,
                                &st))
                mpie_take_start(c, &msg, &st);
            heads_taken(c, taken);
        } else if (expect < 0) {
            MPI_Request req;
            mpie_ireduce_scatter_block(c->e.sends_to, &expect, 1, MPI_INT, MPI_SUM,
                                       c->group->e.comm, &req);
            mpie_wait(1, &req, 0);
        }
    } else {
        for (int q = 0; q < P; q++) {
            size_t bit = heads_bit(c, q, me);
            expect += q != me && (c->e.heads[bit / 64] >> (bit % 64) & 1);
        }
    }
    if (c->e.heads_state != MPIE_HEADS_SENT && !(mpie_coll_sync(P) && c->e.dense))
        send_heads(c, parity);
    c->e.heads_state = MPIE_HEADS_NONE;
    taken = c->e.nreqs;
    for (int k = 0; k < expect; k++) {
        mpie_message msg;
        MPI_Status st;
        mpie_mprobe(MPI_ANY_SOURCE, MPIE_TAG_HEAD + (int)parity, c->group->e.comm, &msg, &st);
        mpie_take_start(c, &msg, &st);
    }
    heads_taken(c, taken);
    if (all & CORE_HAS_GET)
        run_gets(p, parity, c->e.nreplies);
    land_records(p, parity);
    mpie_wait(c->e.nreqs - c->e.nreplies, c->e.reqs + c->e.nreplies, 0);
    core_watch_leave();
}

/* Gets travel as requests answered by their owners: nothing to note here. */
void eng_get_queued(core_ctx *c, const core_getreq *g)
{
    (void)c;
    (void)g;
}

void eng_superstep_done(core_ctx *c) { mpie_progress(c); }
