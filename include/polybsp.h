/* polybsp.h — polybsp's extensions to BSPlib.
 *
 * Include after (or instead of) <bsp.h>. Everything here is optional: a program
 * that uses only <bsp.h> is a standard BSPlib program.
 * Groups, collectives, oblivious synchronisation, tracing and calibrated machine
 * parameters are added here as they land (see docs/api.md).
 */
#ifndef POLYBSP_POLYBSP_H
#define POLYBSP_POLYBSP_H

#include "bsp.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The library's version as "MAJOR.MINOR.PATCH". */
POLYBSP_API const char *bsp_polybsp_version(void);

/* The name of the engine that runs this program: "threads". */
POLYBSP_API const char *bsp_engine_name(void);

/* The number of supersteps this process has completed (its bsp_sync count). */
POLYBSP_API unsigned long bsp_superstep(void);

/* Tracing (docs/formats.md, "Trace"). With POLYBSP_TRACE=FILE set, every process
 * records every superstep from bsp_begin; otherwise a process records the
 * supersteps between its bsp_trace_begin and bsp_trace_end (call both on all
 * processes in the same superstep), into POLYBSP_TRACE or polybsp-trace.jsonl.
 * The file is written at bsp_end, or when the run stops on an error. */
POLYBSP_API void bsp_trace_begin(void);
POLYBSP_API void bsp_trace_end(void);
/* Declares ops operations of local work in the current superstep (as BSPedupack
 * counts flops), for `polybsp predict --work ops`. */
POLYBSP_API void bsp_trace_ops(double ops);

#ifdef __cplusplus
}
#endif

#endif /* POLYBSP_POLYBSP_H */
