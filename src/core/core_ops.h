/* core_ops — the kinds of operations a program declares (polybsp.h's
 * polybsp_ops_kind), shared by the trace's writer (core_trace) and its reader
 * (cost_trace).
 *
 * Contract: kind k (0 <= k < CORE_OPS_KINDS) is written in a trace record under
 * core_ops_key(k); each kind has its own rate in the machine file
 * (docs/formats.md). */
#ifndef POLYBSP_CORE_OPS_H
#define POLYBSP_CORE_OPS_H

enum { CORE_OPS_KINDS = 3 };

static inline const char *core_ops_key(int k)
{
    static const char *const keys[CORE_OPS_KINDS] = {"ops", "compares", "words"};
    return keys[k];
}

#endif /* POLYBSP_CORE_OPS_H */
