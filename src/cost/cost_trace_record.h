/* cost_trace_record — reading one record line of a trace against the schema
 * (core_trace_schema.h), which the writer goes through too.
 *
 * Contract: cost_trace_read_record fills r from the JSON object of one record
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

int cost_trace_read_record(cost_jctx *c, const json_t *obj, int nprocs, cost_rec *r,
                           int *self_unknown);

#endif
