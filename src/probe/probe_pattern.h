/* probe_pattern — who sends what in one h-relation of the five patterns of paper 000.
 *
 * Contract: for a pattern, P >= 2 processes, an h-relation size h (bytes, counted
 * with @ = sum, an even number >= 2) and a split k >= 1, probe_messages lists the
 * messages one process sends; every message lands in a byte range of the
 * receiver's buffer that no other message of the same h-relation touches, and
 * ranges lie inside [0, h). The relation is exactly an h-relation:
 *   Exchange   pairs (0,1), (2,3), ... swap m = h/2 bytes (an odd P leaves the last idle);
 *   PingPong   processes 0, 2, 4, ... send m = h bytes to the next process;
 *   OneToAll   process 0 sends h bytes in total, a share to each other process;
 *   AllToOne   every other process sends its share of h bytes to process 0;
 *   AllToAll   process i sends a share of h/2 bytes to i+1, i+2, ..., i-1 (mod P).
 * When h does not divide evenly, shares differ by one byte (and may be empty), so
 * that max over processes of (in + out) is h all the same. Each message is cut
 * into k consecutive pieces, k messages in place of one: BSP* varies k at constant
 * bytes to separate the cost of a byte from the cost of a message.
 */
#ifndef POLYBSP_PROBE_PATTERN_H
#define POLYBSP_PROBE_PATTERN_H

#include "cost/cost_machine.h"

#include <stddef.h>

typedef struct probe_msg {
    int dest;
    long src_off; /* in the sender's buffer */
    long dst_off; /* in the receiver's buffer */
    long nbytes;
} probe_msg;

/* An upper bound on the messages one process sends: (P - 1) * k. */
size_t probe_max_messages(int P, int split);

/* Writes the messages process pid sends into out (room for probe_max_messages);
 * returns how many. Empty pieces are left out. */
size_t probe_messages(cost_pattern pattern, int P, int pid, long h, int split, probe_msg *out);

/* The relation as a cost model counts it: max over processes of (in @ out), in
 * bytes and in messages, with @ = + when sum is set and @ = max otherwise.
 * Returns -1 when out of memory, else 0. */
int probe_relation(cost_pattern pattern, int P, long h, int split, int sum, long *bytes,
                   long *msgs);

#endif
