/* cost_trace — reading a trace file (docs/formats.md, "Trace") into memory.
 *
 * Contract: cost_trace_read parses and validates the whole file; on any defect it
 * returns -1 and writes one line "FILE:LINE: WHAT (expected ...)" into err, and the
 * trace is left empty. Records are stored dense: rec(t, index, pid), where index =
 * step - first_step counts the supersteps that every process recorded.
 */
#ifndef POLYBSP_COST_TRACE_H
#define POLYBSP_COST_TRACE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define COST_TRACE_VERSION 1

typedef struct cost_rec {
    unsigned long step;
    int pid;
    char kind[32]; /* "normal", "oblivious", "division", or a collective name */
    int level;     /* D-BSP cluster level: 0 = the whole machine */
    double w;      /* seconds of local work before the sync */
    double ops;    /* declared operations, or a negative value when not declared */
    uint64_t bytes_out, msgs_out, bytes_in, msgs_in;
    int *from; /* pids it received from this superstep (not itself), ascending */
    size_t nfrom;
    double t_enter, t_exit; /* seconds since bsp_begin */
} cost_rec;

typedef struct cost_trace {
    int version;
    int nprocs;
    char engine[32];
    char program[256];
    unsigned long first_step; /* > 0 when tracing started mid-run */
    unsigned long nsteps;     /* every process has records for steps first_step.. +nsteps-1 */
    unsigned long dropped;    /* later steps that only some processes recorded (or after a gap) */
    int complete;             /* 1: the file ends with {"end":"complete"} */
    char reason[256];         /* the "reason" of {"end":"aborted"}, else empty */
    cost_rec *recs;           /* nsteps * nprocs */
} cost_trace;

static inline cost_rec *cost_trace_rec(const cost_trace *t, unsigned long index, int pid)
{
    return &t->recs[index * (size_t)t->nprocs + (size_t)pid];
}

int cost_trace_read(const char *path, cost_trace *t, char *err, size_t errlen);
/* The same from an open stream; name is what error lines call the file. The
 * fuzzer and tests use it to read from memory. */
int cost_trace_read_stream(FILE *f, const char *name, cost_trace *t, char *err, size_t errlen);
void cost_trace_free(cost_trace *t);

#endif
