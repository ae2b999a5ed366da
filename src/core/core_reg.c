/* core_reg — slots plus an open-addressing map from address to top slot. */
#include "core/core_reg.h"

#include "core/core_error.h"

#include <stdlib.h>
#include <string.h>

static size_t hash_addr(const void *addr, size_t cap)
{
    uint64_t h = (uint64_t)(uintptr_t)addr * 0x9E3779B97F4A7C15ull;
    return (size_t)(h >> 32) & (cap - 1);
}

void core_reg_init(core_reg *r)
{
    memset(r, 0, sizeof *r);
    r->cache_slot = -1;
}

void core_reg_free(core_reg *r)
{
    free(r->slots);
    free(r->map);
    core_reg_init(r);
}

static size_t map_index(const core_reg *r, const void *addr)
{
    size_t i = hash_addr(addr, r->mapcap);
    while (r->map[i].slot >= 0 && r->map[i].addr != addr)
        i = (i + 1) & (r->mapcap - 1);
    return i;
}

static void map_rehash(core_reg *r, size_t cap)
{
    core_reg_entry *old = r->map;
    size_t oldcap = r->mapcap;
    r->map = malloc(cap * sizeof *r->map);
    if (!r->map)
        core_fatal_oom("registration table");
    for (size_t i = 0; i < cap; i++)
        r->map[i].slot = -1;
    r->mapcap = cap;
    for (size_t i = 0; i < oldcap; i++)
        if (old[i].slot >= 0)
            r->map[map_index(r, old[i].addr)] = old[i];
    free(old);
}

/* Linear-probing deletion: shift later members of the cluster back into the gap. */
static void map_remove(core_reg *r, size_t gap)
{
    size_t mask = r->mapcap - 1, i = gap;
    r->map[gap].slot = -1;
    for (;;) {
        i = (i + 1) & mask;
        if (r->map[i].slot < 0)
            return;
        size_t home = hash_addr(r->map[i].addr, r->mapcap);
        /* Move i into the gap unless its home lies cyclically in (gap, i]. */
        if (((i - home) & mask) >= ((i - gap) & mask)) {
            r->map[gap] = r->map[i];
            r->map[i].slot = -1;
            gap = i;
        }
    }
}

int32_t core_reg_lookup(core_reg *r, const void *addr)
{
    if (!r->mapcap)
        return -1;
    size_t i = map_index(r, addr);
    if (r->map[i].slot < 0)
        return -1;
    r->cache_addr = addr;
    r->cache_slot = r->map[i].slot;
    return r->map[i].slot;
}

int32_t core_reg_push(core_reg *r, const void *addr, size_t size)
{
    uint32_t s = r->first_free;
    while (s < r->nslots && r->slots[s].live)
        s++;
    if (s == r->nslots) {
        if (r->nslots == r->capslots) {
            uint32_t cap = r->capslots ? 2 * r->capslots : 16;
            core_slot *p = realloc(r->slots, cap * sizeof *p);
            if (!p)
                core_fatal_oom("registration table");
            r->slots = p;
            r->capslots = cap;
        }
        r->nslots++;
    }
    r->first_free = s + 1;
    if (2 * (r->mapused + 1) > r->mapcap)
        map_rehash(r, r->mapcap ? 2 * r->mapcap : 16);
    size_t i = map_index(r, addr);
    r->slots[s] = (core_slot){
        .addr = addr, .size = size, .most = size, .below = r->map[i].slot, .live = 1, .agree = 1};
    if (r->map[i].slot < 0)
        r->mapused++;
    r->map[i] = (core_reg_entry){addr, (int32_t)s};
    r->cache_slot = -1;
    return (int32_t)s;
}

int32_t core_reg_pop(core_reg *r, const void *addr)
{
    if (!r->mapcap)
        return -1;
    size_t i = map_index(r, addr);
    int32_t s = r->map[i].slot;
    if (s < 0)
        return -1;
    int32_t below = r->slots[s].below;
    r->slots[s].live = 0;
    if ((uint32_t)s < r->first_free)
        r->first_free = (uint32_t)s;
    if (below >= 0) {
        r->map[i].slot = below;
    } else {
        map_remove(r, i);
        r->mapused--;
    }
    r->cache_slot = -1;
    return s;
}
