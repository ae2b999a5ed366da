/* core_reg — one process's registration table.
 *
 * Contract: registrations live in numbered slots. Every process applies the same
 * sequence of pushes and pops (BSPlib matches registrations by order), and slot
 * choice depends only on that sequence (a push takes the lowest free slot), so one
 * slot number names the same variable on every process. Pushing an address that is
 * already registered stacks the new registration on top; find and pop act on the
 * top one. find costs one hash probe (plus a one-entry cache for repeated calls).
 */
#ifndef POLYBSP_CORE_REG_H
#define POLYBSP_CORE_REG_H

#include <stddef.h>
#include <stdint.h>

typedef struct core_slot {
    const void *addr;
    size_t size;
    size_t most;   /* the largest size any process registered in this slot */
    uint64_t push; /* the push that made it (core_regop.push), set by the caller */
    int32_t below; /* slot of the registration this one hides, or -1 */
    uint16_t live;
    uint16_t agree; /* every process registered the same size (then most is it) */
} core_slot;

typedef struct core_reg_entry {
    const void *addr;
    int32_t slot; /* top slot for addr; < 0 marks an empty entry */
} core_reg_entry;

typedef struct core_reg {
    core_slot *slots;
    uint32_t nslots, capslots, first_free;
    core_reg_entry *map;
    size_t mapcap, mapused;
    const void *cache_addr;
    int32_t cache_slot;
} core_reg;

void core_reg_init(core_reg *r);
void core_reg_free(core_reg *r);
int32_t core_reg_push(core_reg *r, const void *addr, size_t size);
/* Removes the top registration of addr; returns its slot, or -1 if none. */
int32_t core_reg_pop(core_reg *r, const void *addr);
int32_t core_reg_lookup(core_reg *r, const void *addr);

/* The top slot registered for addr, or -1. */
static inline int32_t core_reg_find(core_reg *r, const void *addr)
{
    if (r->cache_addr == addr && r->cache_slot >= 0)
        return r->cache_slot;
    return core_reg_lookup(r, addr);
}

#endif
