/* cost_tree — the group structure of a trace: which records form one superstep
 * of one group, and where a group divides into parts (division supersteps of
 * the Collective Computing Model, the clusters of D-BSP).
 *
 * Contract: cost_tree_build walks the processes' record sequences from their
 * starts. A group's next item is a superstep when its members' next records are
 * all in the group, and a division when they are all in parts of it (after a
 * "partition" superstep, or at the very start of a trace that began inside a
 * partition). A part ends with its "rejoin" superstep. The walk stops at the
 * first superstep some member did not record (the run stopped there); what it
 * walked is kept. Records that contradict the structure (members of one
 * superstep in different groups, a part without its "rejoin", ...) are an error:
 * one line "NAME:LINE: field 'F': expected ..." and -1.
 */
#ifndef POLYBSP_COST_TREE_H
#define POLYBSP_COST_TREE_H

#include "cost/cost_trace.h"

#include <stddef.h>

typedef struct cost_item {
    /* A superstep: cols[j] is the column of member j's record (cost_trace_rec). */
    unsigned long *cols;
    /* A division (cols NULL): its parts, by part index. */
    size_t nparts;
    cost_group *parts;
} cost_item;

struct cost_group {
    char *path;   /* "" for the top group, else "i/j/..." */
    int nmembers; /* its processes, ascending pids */
    int *members;
    size_t nitems;
    cost_item *items;
    int rejoined; /* a part whose last superstep is its "rejoin": the part finished */
};

/* seq[i][0 .. len[i]) are process i's records in step order without gaps. On
 * success *root is the structure and kept[i] how many of process i's records it
 * uses (a prefix of seq[i]). */
int cost_tree_build(const cost_rec *const *seq, const size_t *len, int nprocs, const char *name,
                    cost_group **root, size_t *kept, char *err, size_t errlen);
void cost_tree_free(cost_group *root);

/* Member j's record of superstep item it of group g. */
static inline const cost_rec *cost_item_rec(const cost_trace *t, const cost_group *g,
                                            const cost_item *it, int j)
{
    return cost_trace_rec(t, it->cols[j], g->members[j]);
}

/* Whether a division's parts all finished (ended with their "rejoin"). */
int cost_division_complete(const cost_item *it);

#endif
