/* core_part — the division superstep's protocol with the engine: entering the
 * caller's part of a partition and rejoining the parent (core.h,
 * core_partition and core_rejoin). The group module (src/group) decides the
 * parts and checks the arguments; only core calls the engine for them. */
#include "core/core.h"

#include <stdlib.h>

/* The context of part `part` in the part's group g: it keeps the parent's
 * tag size and takes the messages the parent had not read, which the part
 * reads. */
static void ctx_init_part(core_ctx *sub, core_ctx *parent, core_group *g, int part, int nparts,
                          int *first)
{
    core_ctx_init(sub, parent->proc, g, parent->pid - first[part]);
    sub->parent = parent;
    sub->part = part;
    sub->nparts = nparts;
    sub->part_first = first;
    sub->tagsize = sub->next_tagsize = parent->tagsize;
    core_msgq_take(&sub->in, &parent->in);
}

int core_partition(core_proc *p, int nparts, int *first)
{
    core_ctx *c = p->ctx;
    core_sync_as(p, CORE_AT_PARTITION);
    int part = 0;
    while (c->pid >= first[part + 1])
        part++;
    core_group *g = eng_partition(c, nparts, first, part);
    core_ctx *sub = core_zalloc_lines(sizeof *sub);
    if (!sub)
        core_fatal_oom("partition");
    ctx_init_part(sub, c, g, part, nparts, first);
    eng_ctx_attach(sub);
    /* Every member must have joined before any of them communicates. */
    eng_barrier(c, CORE_AT_PARTITION, 0);
    /* The record closes once the parts are built: that is the partition's
     * cost, not the next superstep's work. */
    if (p->tr.on)
        core_trace_exit(p, CORE_KIND_PARTITION, c->group->depth);
    p->ctx = sub;
    return part;
}

void core_rejoin(core_proc *p)
{
    core_ctx *sub = p->ctx, *c = sub->parent;
    int level = sub->group->depth; /* the part's group goes at eng_rejoin */
    core_sync_as(p, CORE_AT_REJOIN);
    eng_rejoin(c, sub);
    if (p->tr.on)
        core_trace_exit(p, CORE_KIND_REJOIN, level);
    p->ctx = c;
    core_ctx_free(sub);
    free(sub);
}
