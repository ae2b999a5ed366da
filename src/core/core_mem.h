/* core_mem — how much memory this program may still take.
 *
 * Contract: core_mem_usable returns the bytes that this process can still
 * allocate and touch before the kernel refuses or kills it: the least of the
 * machine's available memory (MemAvailable in /proc/meminfo, physical memory
 * when that cannot be read) and, for each memory cgroup from the process's own
 * up to the root (v2 memory.max, v1 memory.limit_in_bytes), its limit less its
 * present use. *what names the bound that decided ("available memory",
 * "the cgroup's limit"). An estimate for refusing a run that cannot fit with
 * one line, instead of an OOM kill that prints none; 0 when nothing is known.
 */
#ifndef POLYBSP_CORE_MEM_H
#define POLYBSP_CORE_MEM_H

#include <stddef.h>

size_t core_mem_usable(const char **what);

#endif
