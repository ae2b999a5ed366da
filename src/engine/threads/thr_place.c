/* thr_place — which CPU each process of the threads engine runs on (thr_place.h).
 *
 * Why bind at all: two threads that meet at a barrier by spinning and yielding
 * run well on two cores and badly on one. Unbound, the kernel sometimes starts
 * both on the same core and leaves them there; a run then takes several times
 * longer (issue 13: bimodal benchmarks, ~1000 context switches and no migration
 * in the slow runs). Binding one process per core removes that mode. */
#define _GNU_SOURCE /* CPU_SET, pthread_setaffinity_np */
#include "engine/threads/thr_place.h"

#include "core/core_error.h"

#include <errno.h>
#include <hwloc.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The allowed CPUs in compact order and in spread order, read once. */
static struct {
    pthread_once_t once;
    int n;
    int ncores; /* the machine's cores (hardware threads without a core topology) */
    int *compact, *spread;
} order = {.once = PTHREAD_ONCE_INIT};

/* In the order of thr_place_policy and thr_place_stream. */
static const char *const policy_names[] = {"compact", "spread", "none"};
static const char *const stream_names[] = {"auto", "on", "off"};

const char *thr_place_name(thr_place_policy policy) { return policy_names[policy]; }

int thr_env_choice(const char *name, const char *const *words, int n, const char *kind, char *err,
                   size_t size)
{
    const char *v = getenv(name);
    if (!v || !*v)
        return 0;
    for (int k = 0; k < n; k++)
        if (strcmp(v, words[k]) == 0)
            return k;
    int at = snprintf(err, size, "%s=%s is not a %s (", name, v, kind);
    for (int k = 0; k < n && at >= 0 && (size_t)at < size; k++)
        at += snprintf(err + at, size - (size_t)at, "%s%s", words[k],
                       k == n - 1   ? ")"
                       : k == n - 2 ? " or "
                                    : ", ");
    return -1;
}

int thr_place_policy_from_env(char *err, size_t size)
{
    return thr_env_choice("POLYBSP_PLACE", policy_names, 3, "placement", err, size);
}

/* The package (socket) number of a core, for spreading; 0 when unknown. */
static unsigned package_of(hwloc_topology_t topo, hwloc_obj_t core)
{
    hwloc_obj_t pkg = hwloc_get_ancestor_obj_by_type(topo, HWLOC_OBJ_PACKAGE, core);
    return pkg ? pkg->logical_index : 0;
}

/* Fills order: hardware thread k of every core before thread k + 1 of any
 * (compact: cores in the topology's order; spread: the j-th core of every
 * package before the (j+1)-th of any). A topology without cores (some virtual
 * machines) counts each hardware thread as a core. */
static void read_order(void)
{
    hwloc_topology_t topo;
    if (hwloc_topology_init(&topo) != 0)
        return;
    /* Packages, cores and hardware threads only: caches, NUMA details and I/O
     * would make the first bsp_begin several milliseconds slower. */
    hwloc_topology_set_all_types_filter(topo, HWLOC_TYPE_FILTER_KEEP_NONE);
    hwloc_topology_set_type_filter(topo, HWLOC_OBJ_PACKAGE, HWLOC_TYPE_FILTER_KEEP_ALL);
    hwloc_topology_set_type_filter(topo, HWLOC_OBJ_CORE, HWLOC_TYPE_FILTER_KEEP_ALL);
    if (hwloc_topology_load(topo) != 0) {
        hwloc_topology_destroy(topo);
        return;
    }
    hwloc_obj_type_t unit =
        hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE) > 0 ? HWLOC_OBJ_CORE : HWLOC_OBJ_PU;
    int ncores = hwloc_get_nbobjs_by_type(topo, unit);
    int npus = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU);
    order.compact = malloc((size_t)(npus > 0 ? npus : 1) * sizeof(int));
    order.spread = malloc((size_t)(npus > 0 ? npus : 1) * sizeof(int));
    /* Per core: its package and its index among that package's cores. */
    unsigned *pkg = calloc((size_t)(ncores > 0 ? ncores : 1), sizeof *pkg);
    unsigned *rank = calloc((size_t)(ncores > 0 ? ncores : 1), sizeof *rank);
    unsigned *seen = calloc((size_t)(ncores > 0 ? ncores : 1), sizeof *seen);
    if (!order.compact || !order.spread || !pkg || !rank || !seen || npus <= 0 || ncores <= 0) {
        free(order.compact), free(order.spread);
        order.compact = order.spread = NULL;
        free(pkg), free(rank), free(seen);
        hwloc_topology_destroy(topo);
        return;
    }
    unsigned npkg = 1, most = 0; /* packages; cores in the largest one */
    for (int c = 0; c < ncores; c++) {
        pkg[c] = package_of(topo, hwloc_get_obj_by_type(topo, unit, (unsigned)c));
        if (pkg[c] >= (unsigned)ncores)
            pkg[c] = 0;
        rank[c] = seen[pkg[c]]++;
        if (pkg[c] + 1 > npkg)
            npkg = pkg[c] + 1;
        if (seen[pkg[c]] > most)
            most = seen[pkg[c]];
    }
    int nc = 0, ns = 0;
    for (unsigned k = 0; nc < npus; k++) { /* hardware thread k of each core */
        int added = 0;
        for (int c = 0; c < ncores; c++) {
            hwloc_obj_t core = hwloc_get_obj_by_type(topo, unit, (unsigned)c);
            hwloc_obj_t pu =
                hwloc_get_obj_inside_cpuset_by_type(topo, core->cpuset, HWLOC_OBJ_PU, k);
            if (pu) {
                order.compact[nc++] = (int)pu->os_index;
                added = 1;
            }
        }
        for (unsigned j = 0; j < most; j++) /* the j-th core of each package in turn */
            for (unsigned p = 0; p < npkg; p++)
                for (int c = 0; c < ncores; c++) {
                    if (rank[c] != j || pkg[c] != p)
                        continue;
                    hwloc_obj_t core = hwloc_get_obj_by_type(topo, unit, (unsigned)c);
                    hwloc_obj_t pu =
                        hwloc_get_obj_inside_cpuset_by_type(topo, core->cpuset, HWLOC_OBJ_PU, k);
                    if (pu)
                        order.spread[ns++] = (int)pu->os_index;
                }
        if (!added)
            break;
    }
    order.n = nc < ns ? nc : ns;
    order.ncores = ncores;
    free(pkg);
    free(rank);
    free(seen);
    hwloc_topology_destroy(topo);
}

void thr_place_cpus(thr_place_policy policy, int P, int *cpu, int *ncpus)
{
    if (policy == THR_PLACE_NONE) { /* not even the topology is read */
        *ncpus = 0;
        for (int i = 0; i < P; i++)
            cpu[i] = -1;
        return;
    }
    pthread_once(&order.once, read_order);
    *ncpus = order.n;
    const int *list = policy == THR_PLACE_SPREAD ? order.spread : order.compact;
    int bind = policy != THR_PLACE_NONE && list && P >= 2 && P <= order.n;
    for (int i = 0; i < P; i++)
        cpu[i] = bind ? list[i] : -1;
}

thr_place_policy thr_place_plan(int P, int solo, int *cpu, core_stream *stream)
{
    char err[128];
    int policy = thr_place_policy_from_env(err, sizeof err);
    if (policy < 0)
        core_fatal("bsp_begin", "%s", err);
    int mode = thr_place_stream_from_env(err, sizeof err);
    if (mode < 0)
        core_fatal("bsp_begin", "%s", err);
    int ncpus;
    thr_place_cpus((thr_place_policy)policy, P, cpu, &ncpus);
    if (solo && P >= 2 && ncpus >= 1) /* ncpus is 0 with none: left unbound */
        for (int i = 0; i < P; i++)
            cpu[i] = order.compact[ncpus - 1];
    *stream = thr_place_streams((thr_place_stream)mode, P, cpu);
    return (thr_place_policy)policy;
}

int thr_place_stream_from_env(char *err, size_t size)
{
    return thr_env_choice("POLYBSP_STREAM", stream_names, 3, "choice", err, size);
}

core_stream thr_place_streams(thr_place_stream mode, int P, const int *cpu)
{
    if (mode != THR_STREAM_AUTO)
        return mode == THR_STREAM_ON ? CORE_STREAM_ALWAYS : CORE_STREAM_NEVER;
    /* Bound processes never share a core while P is at most the number of
     * cores (compact and spread give every core its first process first),
     * unless a solo run put them all on one. */
    return P >= 2 && cpu[0] >= 0 && cpu[1] != cpu[0] && P <= order.ncores ? CORE_STREAM_MEASURED
                                                                          : CORE_STREAM_NEVER;
}

static void one_cpu(cpu_set_t *set, int cpu)
{
    CPU_ZERO(set);
    CPU_SET(cpu, set);
}

int thr_place_bind(int cpu)
{
    if (cpu < 0)
        return 0;
    cpu_set_t set;
    one_cpu(&set, cpu);
    return pthread_setaffinity_np(pthread_self(), sizeof set, &set);
}

int thr_place_attr(pthread_attr_t *attr, int cpu)
{
    if (cpu < 0)
        return 0;
    cpu_set_t set;
    one_cpu(&set, cpu);
    return pthread_attr_setaffinity_np(attr, sizeof set, &set);
}

static struct {
    int held;
    cpu_set_t set;
} saved;

void thr_place_hold(void)
{
    saved.held = pthread_getaffinity_np(pthread_self(), sizeof saved.set, &saved.set) == 0;
}

void thr_place_release(void)
{
    if (saved.held)
        pthread_setaffinity_np(pthread_self(), sizeof saved.set, &saved.set);
    saved.held = 0;
}

/* Read once: glibc's sysconf reads /sys/devices/system/cpu/online at every
 * call, and every bsp_partition makes a barrier per part. */
long thr_place_cores_online(void)
{
    static atomic_long cached; /* 0: not read yet; -1: unknown */
    long n = atomic_load_explicit(&cached, memory_order_relaxed);
    if (n == 0) {
        n = sysconf(_SC_NPROCESSORS_ONLN);
        n = n > 0 ? n : -1;
        atomic_store_explicit(&cached, n, memory_order_relaxed);
    }
    return n;
}
