/* cost_trace_record — reading the header line or one record line of a trace
 * against the schema (core_trace_schema.h), which the writer goes through too.
 *
 * Contract: cost_trace_read_header checks the JSON object of the header line
 * against CORE_TRACE_HEADER, in its order, and fills v (indexed by
 * core_trace_header_id; the strings point into obj); on the first defect it
 * writes one line into c's buffer (cost_json.h) and returns -1.
 * cost_trace_read_record fills r from the JSON object of one record
 * line of a trace of nprocs processes, checking the schema's fields in its
 * order, each against its type, presence and limit; on the first defect it
 * writes one line into c's buffer (cost_json.h) and returns -1. r->from and
 * r->group are owned by r even then. A record without self_bytes and self_msgs
 * (an older writer) sets *self_unknown.
 */
#ifndef POLYBSP_COST_TRACE_RECORD_H
#define POLYBSP_COST_TRACE_RECORD_H

#include "cost/cost_json.h"
#include "cost/cost_trace.h"

int cost_trace_read_header(cost_jctx *c, const json_t *obj, core_trace_value v[CORE_TH_COUNT]);
int cost_trace_read_record(cost_jctx *c, const json_t *obj, int nprocs, cost_rec *r,
                           int *self_unknown);

#endif
