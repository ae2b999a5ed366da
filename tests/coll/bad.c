/* bad.c — one misuse of a collective per run, chosen by argv[1], at P = 4.
 * Every case first completes two supersteps, so reports name superstep 2 (or
 * later); cases.def lists the cases with the exact line each must print
 * (CMakeLists.txt registers a test per line), and each case is the function of
 * its name here.
 */
#include <polybsp.h>
#include <polybsp_coll.h>

#include "../bad_case.h"

#include <stdio.h>
#include <string.h>

/* What every case works with: the collectives' buffers, and alltoallv's counts
   and displacements (8 bytes to and from each process). */
struct ctx {
    int me;
    char buf[64], out[256];
    size_t sc[4], sd[4], rc[4];
};

static void sum(void *acc, const void *in, size_t nbytes)
{
    for (size_t i = 0; i < nbytes; i++)
        ((unsigned char *)acc)[i] += ((const unsigned char *)in)[i];
}

/* Process 0 broadcasts, the others sync. */
static void only_root(struct ctx *c)
{
    if (c->me == 0)
        bsp_bcast(0, c->buf, 8);
    else
        bsp_sync();
}

/* Process 2 syncs, the others reduce. */
static void one_syncs(struct ctx *c)
{
    if (c->me == 2)
        bsp_sync();
    else
        bsp_reduce(0, c->buf, c->out, 8, sum);
}

/* Only process 3 calls bsp_allreduce. */
static void one_calls(struct ctx *c)
{
    if (c->me == 3)
        bsp_allreduce(c->buf, c->out, 8, sum);
    else
        bsp_sync();
}

static void other_collective(struct ctx *c)
{
    if (c->me == 1)
        bsp_scatter(0, c->buf, c->out, 8);
    else
        bsp_gather(0, c->buf, c->out, 8);
}

static void root_differs(struct ctx *c) { bsp_bcast(c->me == 1 ? 1 : 0, c->buf, 8); }
static void size_differs(struct ctx *c) { bsp_allgather(c->buf, c->out, c->me == 2 ? 16 : 8); }
static void root_range(struct ctx *c) { bsp_bcast(c->me == 1 ? 4 : 0, c->buf, 8); }

static void root_negative(struct ctx *c)
{
    bsp_reduce(c->me == 1 ? -1 : 0, c->buf, c->out, 8, sum);
}

static void null_buf(struct ctx *c) { bsp_bcast(0, c->me == 1 ? NULL : c->buf, 8); }
static void null_root_dst(struct ctx *c) { bsp_gather(1, c->buf, c->me == 1 ? NULL : c->out, 8); }
static void null_fn(struct ctx *c) { bsp_allreduce(c->buf, c->out, 8, c->me == 1 ? NULL : sum); }

static void unknown_alg(struct ctx *c)
{
    bsp_bcast_with(c->me == 1 ? (bsp_bcast_alg)9 : BSP_BCAST_AUTO, 0, c->buf, 8);
}

/* Process 1 sends 8 bytes to 2, which expects 4. */
static void alltoallv_counts(struct ctx *c)
{
    if (c->me == 1)
        c->sc[2] = 8;
    if (c->me == 2)
        c->rc[1] = 4;
    bsp_alltoallv(c->out, c->sc, c->sd, c->out + 64, c->rc, c->sd);
}

static void alltoallv_null(struct ctx *c)
{
    bsp_alltoallv(c->out, c->sc, c->sd, c->out + 64, c->me == 1 ? NULL : c->rc, c->sd);
}

/* Parts {0,1} and {2,3}: 3 broadcasts, 2 syncs. */
static void in_part(struct ctx *c)
{
    bsp_partition(2, NULL);
    if (c->me == 2)
        bsp_sync();
    else
        bsp_bcast(bsp_nprocs() - 1, c->buf, 8);
    bsp_rejoin();
}

struct bad_case {
    const char *name;
    void (*run)(struct ctx *);
};

/* One entry per line of cases.def. */
#define BAD(name, status, line, flags) {#name, name},
static const struct bad_case cases[] = {
#include "cases.def"
};
#undef BAD

int main(int argc, char **argv)
{
    long k = bad_case_find(cases, sizeof cases / sizeof cases[0], sizeof cases[0], argc, argv);
    if (k < 0)
        return 2;
    const struct bad_case *the_case = &cases[k];
    bsp_begin(bsp_nprocs());
    struct ctx c = {.me = bsp_pid(), .sc = {8, 8, 8, 8}, .sd = {0, 8, 16, 24}, .rc = {8, 8, 8, 8}};
    bsp_sync();
    bsp_sync();
    the_case->run(&c);
    bsp_end();
    return 0;
}
