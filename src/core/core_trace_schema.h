/* core_trace_schema — the trace file's header and records as data: the kinds
 * of superstep, the fields of the header line and the fields of a record,
 * which the writer (core_trace.c: write_header, write_record) and the reader
 * (cost_trace_record.c) both go through, so that a field added here is
 * written and read alike (docs/formats.md, "Trace file").
 *
 * Contract: CORE_TRACE_KINDS(X) lists the kinds, X(ID, NAME): core_step_kind
 * CORE_KIND_ID is written as "NAME". A reader maps a name no row has to
 * CORE_KIND_OTHER, a collective of a newer writer (formats.md: readers accept
 * any kind, so that new kinds need no new version).
 * CORE_TRACE_HEADER(X) and CORE_TRACE_FIELDS(X) list the header's fields and a
 * record's, in the order the writer puts them on the line and the reader
 * checks them, X(ID, KEY, TYPE, PRESENCE, LIMIT): field CORE_TH_ID (header)
 * or CORE_TF_ID (record) is the member KEY of the line's JSON object, of type
 * CORE_TT_TYPE (which also says how it is written), CORE_TP_PRESENCE says
 * whether a line may lack it, and CORE_TL_LIMIT bounds it beyond its type.
 * A core_trace_value holds one field of one line, for either side.
 * The end line ({"end":...}) is not in the schema: its "reason" is required
 * for one value of "end" alone, a rule no row of a table states; cost_trace.c
 * read_end and core_trace.c write_end keep it.
 */
#ifndef POLYBSP_CORE_TRACE_SCHEMA_H
#define POLYBSP_CORE_TRACE_SCHEMA_H

#include "core/core_ops.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define CORE_TRACE_KINDS(X)                                                                        \
    X(NORMAL, "normal")                                                                            \
    X(OBLIVIOUS, "oblivious")                                                                      \
    X(PARTITION, "partition")                                                                      \
    X(REJOIN, "rejoin")                                                                            \
    X(BCAST, "bcast")                                                                              \
    X(REDUCE, "reduce")                                                                            \
    X(ALLREDUCE, "allreduce")                                                                      \
    X(SCAN, "scan")                                                                                \
    X(GATHER, "gather")                                                                            \
    X(ALLGATHER, "allgather")                                                                      \
    X(SCATTER, "scatter")                                                                          \
    X(ALLTOALL, "alltoall")                                                                        \
    X(ALLTOALLV, "alltoallv")                                                                      \
    X(PAR, "par")

/* What ended a superstep; collectives label the supersteps they are made of. */
typedef enum {
#define CORE_KIND_ENUM(id, name) CORE_KIND_##id,
    CORE_TRACE_KINDS(CORE_KIND_ENUM)
#undef CORE_KIND_ENUM
        CORE_NKINDS,
    CORE_KIND_OTHER = CORE_NKINDS /* read only: a kind no row names */
} core_step_kind;

/* Every kind from bcast on belongs to a collective operation ("par" and
 * unknown kinds included): its records say which one ("op"). */
static inline int core_kind_is_collective(core_step_kind k) { return k >= CORE_KIND_BCAST; }

/* A superstep that its sync alone ended (bsp_sync, bsp_oblsync). */
static inline int core_kind_is_plain(core_step_kind k)
{
    return k == CORE_KIND_NORMAL || k == CORE_KIND_OBLIVIOUS;
}

/* The trace name of a kind ("normal", "bcast", ...); k < CORE_NKINDS. */
static inline const char *core_kind_name(core_step_kind k)
{
    static const char *const names[CORE_NKINDS] = {
#define CORE_KIND_NAME(id, name) name,
        CORE_TRACE_KINDS(CORE_KIND_NAME)
#undef CORE_KIND_NAME
    };
    return names[k];
}

/* The kind named name, or CORE_KIND_OTHER. */
static inline core_step_kind core_kind_of(const char *name)
{
    for (int k = 0; k < CORE_NKINDS; k++)
        if (strcmp(name, core_kind_name((core_step_kind)k)) == 0)
            return (core_step_kind)k;
    return CORE_KIND_OTHER;
}

/* The header's constants: what every trace's first line says it is. */
#define CORE_TRACE_FORMAT "polybsp-trace"
enum { CORE_TRACE_VERSION = 1 };

/* How a field is read and written. */
typedef enum {
    CORE_TT_FORMAT,  /* the string CORE_TRACE_FORMAT */
    CORE_TT_VERSION, /* the integer CORE_TRACE_VERSION (a reader knows no other) */
    CORE_TT_TEXT,    /* any string, written with JSON's escapes (a user's program name or
                        host name); a reader may keep only its first bytes, for display */
    CORE_TT_RATE,    /* number > 0, written %.6g: a rate measured to a few digits */
    CORE_TT_COUNT,   /* integer >= 0, written in decimal */
    CORE_TT_PID,     /* integer in [0, nprocs - 1] */
    CORE_TT_KIND,    /* string of 1 to CORE_TRACE_KIND_MAX bytes: a kind's name */
    CORE_TT_PATH,    /* string "i/j/...": 1 to CORE_TRACE_DEPTH_MAX part indices in
                        [0, INT_MAX], decimal without leading zeros */
    CORE_TT_NAME,    /* string of 1 to CORE_TRACE_ALG_MAX lower-case letters, digits or '_' */
    CORE_TT_SECONDS, /* number >= 0, written %.9g */
    CORE_TT_CLOCK,   /* number >= 0, written %.9f: seconds since bsp_begin */
    CORE_TT_AMOUNTS, /* numbers >= 0, one member core_ops_key(k) per kind k, written %.17g */
    CORE_TT_PIDS,    /* ascending array of distinct pids in [0, nprocs - 1] */
    CORE_TT_COUNTS   /* array of integers >= 0, one per pid of the PIDS field before it */
} core_trace_type;

/* Whether a line may lack a field. A PAIR field and the row after it are
 * there both or neither. */
typedef enum { CORE_TP_REQUIRED, CORE_TP_OPTIONAL, CORE_TP_PAIR } core_trace_presence;

/* Bounds beyond the type; those from W on refer to other fields of the
 * record (read before, so earlier in the table). */
typedef enum {
    CORE_TL_NONE,
    CORE_TL_INT,    /* at most INT_MAX */
    CORE_TL_SIZE,   /* in [1, INT_MAX]: a number of processes or cores */
    CORE_TL_ENGINE, /* at most CORE_TRACE_ENGINE_MAX bytes: an engine's name */
    CORE_TL_W,      /* at most w: a part of the superstep's work time */
    CORE_TL_BYTES,  /* at most both bytes_in and bytes_out */
    CORE_TL_MSGS,   /* at most both msgs_in and msgs_out */
    CORE_TL_OUT,    /* at most bytes_out less self_bytes and the earlier OUT fields */
    CORE_TL_IN,     /* at most bytes_in less self_bytes and the earlier IN fields */
    CORE_TL_OTHER,  /* pids other than the record's own */
    CORE_TL_FROM,   /* one per pid of from, in total at most bytes_in less self_bytes */
    CORE_TL_ENTER   /* at least t_enter */
} core_trace_limit;

/* The bounds of the strings (bytes, without the terminating NUL). */
enum {
    CORE_TRACE_KIND_MAX = 31,
    CORE_TRACE_ALG_MAX = 15,
    CORE_TRACE_DEPTH_MAX = 255,
    CORE_TRACE_ENGINE_MAX = 31
};

/* formats.md, "Header": the machine's fields (host, cores, clock, rate) are in the
 * header written at the end of a run alone, where they were measured. */
#define CORE_TRACE_HEADER(X)                                                                       \
    X(FORMAT, "format", FORMAT, REQUIRED, NONE)                                                    \
    X(VERSION, "version", VERSION, REQUIRED, NONE)                                                 \
    X(NPROCS, "nprocs", COUNT, REQUIRED, SIZE)                                                     \
    X(ENGINE, "engine", TEXT, REQUIRED, ENGINE)                                                    \
    X(PROGRAM, "program", TEXT, REQUIRED, NONE)                                                    \
    X(HOST, "host", TEXT, OPTIONAL, NONE)                                                          \
    X(CORES, "cores", COUNT, OPTIONAL, SIZE)                                                       \
    X(CLOCK, "clock", RATE, OPTIONAL, NONE)                                                        \
    X(RATE, "rate", RATE, OPTIONAL, NONE)                                                          \
    X(SOLO, "solo", COUNT, OPTIONAL, NONE)                                                         \
    X(FOOTPRINT, "footprint", COUNT, OPTIONAL, NONE)

/* formats.md says what each field means and which writers lack it. */
#define CORE_TRACE_FIELDS(X)                                                                       \
    X(STEP, "step", COUNT, REQUIRED, NONE)                                                         \
    X(PID, "pid", PID, REQUIRED, NONE)                                                             \
    X(KIND, "kind", KIND, REQUIRED, NONE)                                                          \
    X(LEVEL, "level", COUNT, REQUIRED, INT)                                                        \
    X(GROUP, "group", PATH, OPTIONAL, NONE)                                                        \
    X(OP, "op", COUNT, OPTIONAL, NONE)                                                             \
    X(ALG, "alg", NAME, OPTIONAL, NONE)                                                            \
    X(W, "w", SECONDS, REQUIRED, NONE)                                                             \
    X(CPU, "cpu", SECONDS, OPTIONAL, NONE)                                                         \
    X(COPY, "copy", SECONDS, OPTIONAL, W)                                                          \
    X(GROW, "grow", SECONDS, OPTIONAL, NONE)                                                       \
    X(SETUP, "setup", SECONDS, OPTIONAL, W)                                                        \
    X(OPS, NULL, AMOUNTS, OPTIONAL, NONE)                                                          \
    X(BYTES_OUT, "bytes_out", COUNT, REQUIRED, NONE)                                               \
    X(MSGS_OUT, "msgs_out", COUNT, REQUIRED, NONE)                                                 \
    X(BYTES_IN, "bytes_in", COUNT, REQUIRED, NONE)                                                 \
    X(MSGS_IN, "msgs_in", COUNT, REQUIRED, NONE)                                                   \
    X(SELF_BYTES, "self_bytes", COUNT, PAIR, BYTES)                                                \
    X(SELF_MSGS, "self_msgs", COUNT, REQUIRED, MSGS)                                               \
    X(HP_BYTES_OUT, "hp_bytes_out", COUNT, PAIR, OUT)                                              \
    X(HP_BYTES_IN, "hp_bytes_in", COUNT, REQUIRED, IN)                                             \
    X(SEND_BYTES_OUT, "send_bytes_out", COUNT, PAIR, OUT)                                          \
    X(SEND_BYTES_IN, "send_bytes_in", COUNT, REQUIRED, IN)                                         \
    X(FAULTS, "faults", COUNT, OPTIONAL, NONE)                                                     \
    X(FRESH, "fresh", COUNT, OPTIONAL, NONE)                                                       \
    X(W_FAULTS, "w_faults", COUNT, OPTIONAL, NONE)                                                 \
    X(PREEMPT, "preempt", COUNT, OPTIONAL, NONE)                                                   \
    X(REGS, "regs", COUNT, OPTIONAL, INT)                                                          \
    X(FROM, "from", PIDS, REQUIRED, OTHER)                                                         \
    X(FROM_BYTES, "from_bytes", COUNTS, OPTIONAL, FROM)                                            \
    X(T_ENTER, "t_enter", CLOCK, REQUIRED, NONE)                                                   \
    X(T_EXIT, "t_exit", CLOCK, REQUIRED, ENTER)

typedef enum {
#define CORE_TF_ENUM(id, key, type, presence, limit) CORE_TF_##id,
    CORE_TRACE_FIELDS(CORE_TF_ENUM)
#undef CORE_TF_ENUM
        CORE_TF_COUNT
} core_trace_field_id;

typedef enum {
#define CORE_TH_ENUM(id, key, type, presence, limit) CORE_TH_##id,
    CORE_TRACE_HEADER(CORE_TH_ENUM)
#undef CORE_TH_ENUM
        CORE_TH_COUNT
} core_trace_header_id;

typedef struct core_trace_field {
    const char *key; /* NULL for AMOUNTS, whose keys are core_ops_key(k) */
    core_trace_type type;
    core_trace_presence presence;
    core_trace_limit limit;
} core_trace_field;

#define CORE_TRACE_ROW(id, key, type, presence, limit)                                             \
    {key, CORE_TT_##type, CORE_TP_##presence, CORE_TL_##limit},

/* A record's fields, CORE_TF_COUNT of them, indexed by core_trace_field_id. */
static inline const core_trace_field *core_trace_record_fields(void)
{
    static const core_trace_field fields[CORE_TF_COUNT] = {CORE_TRACE_FIELDS(CORE_TRACE_ROW)};
    return fields;
}

/* The header's fields, CORE_TH_COUNT of them, indexed by core_trace_header_id. */
static inline const core_trace_field *core_trace_header_fields(void)
{
    static const core_trace_field fields[CORE_TH_COUNT] = {CORE_TRACE_HEADER(CORE_TRACE_ROW)};
    return fields;
}

#undef CORE_TRACE_ROW

static inline const core_trace_field *core_trace_field_of(core_trace_field_id id)
{
    return &core_trace_record_fields()[id];
}

/* One field of one line: the writer's to put on the line, the reader's as
 * read (its strings then point into the parsed line). */
typedef struct core_trace_value {
    int present;
    union {
        uint64_t n;                     /* VERSION, COUNT, PID */
        double x;                       /* RATE, SECONDS, CLOCK */
        const char *s;                  /* FORMAT, TEXT, KIND, PATH, NAME */
        double amounts[CORE_OPS_KINDS]; /* AMOUNTS: -1 where the member is absent */
        struct {                        /* PIDS, or COUNTS (npids of them) */
            const int32_t *pids;
            const uint64_t *counts;
            size_t npids;
        } list;
    } v;
} core_trace_value;

#endif /* POLYBSP_CORE_TRACE_SCHEMA_H */
