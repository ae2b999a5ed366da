/* ex_util.h — what the example programs multisearch, broadcast_study and
 * hm_routing share: command-line parsing that stops with one line "NAME: ..."
 * and exit status 2 (called in main, before any process starts), a seeded
 * hash for reproducible inputs, growable byte buffers for batching records, the
 * loop over the messages of a superstep, and the timing of repeated runs as the
 * median over runs of the slowest process.
 */
#ifndef POLYBSP_EX_UTIL_H
#define POLYBSP_EX_UTIL_H

#include <bsp.h>

#include <stddef.h>
#include <stdint.h>

/* The program name that starts every error line. */
void ex_set_name(const char *name);

/* One line "NAME: ..." on stderr and exit status 2. */
void ex_usage_error(const char *fmt, ...) POLYBSP_PRINTF(1, 2) POLYBSP_NORETURN;

/* The options every example takes: -p P (0: bsp_nprocs()), --reps R,
 * --seed S, --trace. */
typedef struct {
    long p, reps;
    unsigned long seed;
    int trace;
} ex_common;

/* If argv[*i] is -h/--help (prints usage, exits 0) or one of ex_common's
 * options, stores its value (advancing *i past it) and returns 1; else 0. */
int ex_common_option(int argc, char **argv, int *i, ex_common *c, const char *usage);

/* argv[*i + 1], advancing *i; "option X needs a value" when there is none. */
const char *ex_value(int argc, char **argv, int *i);

/* An integer in [min, max]: "OPTION expects an integer in [MIN, MAX], got 'TEXT'". */
long ex_parse_long(const char *option, const char *text, long min, long max);

/* The index of text in names (NULL-terminated): "OPTION expects A, B or C,
 * got 'TEXT'" when it is not there. */
int ex_parse_choice(const char *option, const char *text, const char *const *names);

/* A seed: any integer >= 0 that fits an unsigned long. */
unsigned long ex_parse_seed(const char *option, const char *text);

/* A random permutation of 0..p-1, the same on every process for one seed. */
void ex_permutation(int32_t *perm, int p, uint64_t seed);

/* splitmix64 of x: a well-mixed 64-bit value, the same on every process. */
uint64_t ex_mix(uint64_t x);

/* A growable byte buffer; {0} is an empty one. Out of memory stops the run. */
typedef struct {
    unsigned char *data;
    size_t len, cap;
} ex_buf;
void ex_buf_add(ex_buf *b, const void *data, size_t n);
void ex_buf_free(ex_buf *b);

/* Sends every non-empty to[q], q != bsp_pid(), to process q as one bsp_send
 * with this tag (NULL when the tag size is 0); returns how many it sent. The
 * buffers are left as they are. */
long ex_send_batches(const ex_buf *to, const void *tag);

/* Calls fn(ctx, tag, payload, nbytes) for every message in this superstep's
 * queue, in queue order (bsp_hpmove: tag and payload stay valid until the next
 * sync). */
void ex_each_message(void (*fn)(void *ctx, const void *tag, const void *payload, size_t nbytes),
                     void *ctx);

/* Collective: starts tracing (bsp_trace_begin) so that the first traced
 * superstep is the caller's own. The first bsp_trace_begin of a run creates
 * the trace file, and that I/O would land in the first traced superstep of the
 * process that does it; here it happens in an untraced superstep of its own. */
void ex_trace_begin(void);

/* Collective: t[0, n) holds this process's time of each of n runs; process 0
 * prints "time: median M s over N runs (min A s, max B s)" of the slowest
 * process's time per run. Reducing once after the runs keeps the timed runs
 * free of other supersteps. */
void ex_report_times(const double *t, int n);

#endif /* POLYBSP_EX_UTIL_H */
