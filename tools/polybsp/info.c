/* info.c — `polybsp info [--json]`: the version, the engines, and this machine.
 *
 * Contract: prints the library version, the engines built in, the number of
 * processes a program gets by default, and the machine as hwloc sees it (host,
 * packages, cores, hardware threads, NUMA nodes, memory, caches) and what the
 * threads engine would do on it (placement, streaming, the copy in the
 * 4K-aliasing window, measured by the call), and each CPU's DAXPY rate (one
 * thread pinned to each in turn: vCPUs of a shared host differ), as text or as
 * one JSON object (docs/tool.md gives its fields); with --platforms, the names
 * of the smpi engine's shipped platforms instead. Status 0; 2 on bad usage; 1
 * when hwloc cannot read the topology.
 */
#define _GNU_SOURCE /* CPU_SET, sched_setaffinity */
#include "tool.h"

#include "core/core_copy.h"
#include "core/core_rate.h"
#include "cost/cost_machine.h"
#include "engine/engine.h"
#include "engine/threads/thr_place.h"

#include <polybsp.h>

#include <hwloc.h>

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

const char *const cmd_info_help[] = {
    "usage: polybsp info [--json] [-p P] | --platforms\n"
    "\n"
    "Shows the polybsp version, the engines built in, the number of processes a\n"
    "program gets by default, and this machine's packages, cores, hardware threads,\n"
    "NUMA nodes, memory and caches (read with hwloc), the CPUs the threads\n"
    "engine binds P processes to (POLYBSP_PLACE, docs/env.md), and each CPU's\n"
    "DAXPY rate (one thread pinned to each in turn; docs/probe.md, \"Cores of\n"
    "unequal speed\").\n"
    "\n"
    "options:\n"
    "  --json       print one JSON object instead of text\n"
    "  -p, --procs P  the placement of P processes (default: the default P)\n"
    "  --platforms  list the simulated platforms shipped for the smpi engine\n"
    "  -h, --help   show this help\n",
    NULL};

/* One kind of cache: all caches of one level and type that have the same size
 * (hybrid processors have several sizes at one level, hence several entries). */
struct cache {
    char name[8]; /* L1d, L1i, L2, ... */
    unsigned level;
    const char *type; /* "data", "instruction" or "unified" */
    unsigned count;
    unsigned long long size;
    unsigned line;
};

enum { MAX_CACHES = 32 };

struct machine {
    char host[256];
    char system[256];
    char cpu_model[256];
    int packages, cores, pus, numa_nodes;
    int package_cores, package_pus; /* per package, when all are alike; else 0 */
    unsigned long long memory;
    struct cache caches[MAX_CACHES];
    int ncaches;
};

static const char *cache_type_name(hwloc_obj_cache_type_t type)
{
    switch (type) {
    case HWLOC_OBJ_CACHE_DATA: return "data";
    case HWLOC_OBJ_CACHE_INSTRUCTION: return "instruction";
    default: return "unified";
    }
}

static void add_cache(struct machine *m, const struct hwloc_cache_attr_s *attr)
{
    for (int i = 0; i < m->ncaches; i++) {
        struct cache *c = &m->caches[i];
        if (c->level == attr->depth && strcmp(c->type, cache_type_name(attr->type)) == 0 &&
            c->size == attr->size) {
            c->count++;
            return;
        }
    }
    if (m->ncaches == MAX_CACHES)
        return;
    struct cache *c = &m->caches[m->ncaches++];
    const char *suffix = attr->type == HWLOC_OBJ_CACHE_DATA          ? "d"
                         : attr->type == HWLOC_OBJ_CACHE_INSTRUCTION ? "i"
                                                                     : "";
    snprintf(c->name, sizeof c->name, "L%u%s", attr->depth, suffix);
    c->level = attr->depth;
    c->type = cache_type_name(attr->type);
    c->count = 1;
    c->size = attr->size;
    c->line = attr->linesize;
}

static int read_machine(struct machine *m)
{
    memset(m, 0, sizeof *m);
    if (gethostname(m->host, sizeof m->host - 1) != 0)
        strcpy(m->host, "unknown");
    struct utsname u;
    if (uname(&u) == 0)
        snprintf(m->system, sizeof m->system, "%s %s %s", u.sysname, u.release, u.machine);

    hwloc_topology_t topo;
    if (hwloc_topology_init(&topo) != 0)
        return -1;
    /* Instruction caches are filtered out by default; users tuning kernels want them. */
    hwloc_topology_set_icache_types_filter(topo, HWLOC_TYPE_FILTER_KEEP_ALL);
    if (hwloc_topology_load(topo) != 0) {
        hwloc_topology_destroy(topo);
        return -1;
    }
    m->packages = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PACKAGE);
    m->cores = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE);
    m->pus = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU);
    m->numa_nodes = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_NUMANODE);
    /* The operating system's total: hwloc counts the NUMA nodes it can see, and
     * a virtual machine's hot-added memory may sit outside them (5.1 of 23.5 GiB
     * here). */
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    m->memory = hwloc_get_root_obj(topo)->total_memory;
    if (pages > 0 && page > 0 && (unsigned long long)pages * (unsigned long long)page > m->memory)
        m->memory = (unsigned long long)pages * (unsigned long long)page;
    for (int k = 0; k < m->packages; k++) {
        hwloc_obj_t pkg = hwloc_get_obj_by_type(topo, HWLOC_OBJ_PACKAGE, (unsigned)k);
        int c = hwloc_get_nbobjs_inside_cpuset_by_type(topo, pkg->cpuset, HWLOC_OBJ_CORE);
        int t = hwloc_get_nbobjs_inside_cpuset_by_type(topo, pkg->cpuset, HWLOC_OBJ_PU);
        if (k == 0) {
            m->package_cores = c;
            m->package_pus = t;
        } else if (c != m->package_cores || t != m->package_pus) {
            m->package_cores = m->package_pus = 0;
        }
    }
    hwloc_obj_t package = hwloc_get_obj_by_type(topo, HWLOC_OBJ_PACKAGE, 0);
    const char *model = package ? hwloc_obj_get_info_by_name(package, "CPUModel") : NULL;
    if (model != NULL)
        snprintf(m->cpu_model, sizeof m->cpu_model, "%s", model);
    /* Listed by level, data before instruction, in the order people read them. */
    static const hwloc_obj_type_t cache_types[] = {
        HWLOC_OBJ_L1CACHE, HWLOC_OBJ_L1ICACHE, HWLOC_OBJ_L2CACHE, HWLOC_OBJ_L2ICACHE,
        HWLOC_OBJ_L3CACHE, HWLOC_OBJ_L3ICACHE, HWLOC_OBJ_L4CACHE, HWLOC_OBJ_L5CACHE};
    for (size_t t = 0; t < sizeof cache_types / sizeof cache_types[0]; t++) {
        for (hwloc_obj_t obj = hwloc_get_next_obj_by_type(topo, cache_types[t], NULL); obj != NULL;
             obj = hwloc_get_next_obj_by_type(topo, cache_types[t], obj))
            add_cache(m, &obj->attr->cache);
    }
    hwloc_topology_destroy(topo);
    return 0;
}

/* Formats a byte count the way people read cache and memory sizes: 32 KiB, 1.5 MiB. */
static const char *human_size(unsigned long long bytes, char *buf, size_t len)
{
    static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    double value = (double)bytes;
    size_t u = 0;
    while (value >= 1024.0 && u + 1 < sizeof units / sizeof units[0]) {
        value /= 1024.0;
        u++;
    }
    if (value == (double)(unsigned long long)value)
        snprintf(buf, len, "%llu %s", (unsigned long long)value, units[u]);
    else
        snprintf(buf, len, "%.1f %s", value, units[u]);
    return buf;
}

/* Where the threads engine would run P processes (thr_place.h). */
struct placement {
    thr_place_policy policy;
    const char *from; /* "POLYBSP_PLACE" or "default" */
    int procs, ncpus;
    int *cpu;
    core_stream stream;      /* thr_place_streams */
    const char *stream_from; /* "POLYBSP_STREAM" or "auto" */
    int window;              /* core_copy_window_measure, and its best ticks */
    uint64_t window_ticks[2];
};

static void print_placement_text(const struct placement *pl)
{
    printf("placement    %s (%s), threads engine: ", thr_place_name(pl->policy), pl->from);
    if (pl->policy == THR_PLACE_NONE) {
        printf("no process is bound\n");
        return;
    }
    if (pl->procs == 1) {
        printf("P = 1, a single process is not bound\n");
        return;
    }
    if (pl->procs > pl->ncpus) {
        printf("P = %d is more than the %d CPUs: no process is bound\n", pl->procs, pl->ncpus);
        return;
    }
    printf("P = %d on CPUs", pl->procs);
    for (int i = 0; i < pl->procs; i++)
        printf("%s%d", i ? ", " : " ", pl->cpu[i]);
    printf(" (process 0 first)\n");
}

static const char *stream_name(core_stream s)
{
    static const char *const names[] = {[CORE_STREAM_NEVER] = "off",
                                        [CORE_STREAM_ALWAYS] = "on",
                                        [CORE_STREAM_MEASURED] = "measured"};
    return names[s];
}

static void print_stream_text(const struct placement *pl)
{
    printf("streaming    %s (%s): ", stream_name(pl->stream), pl->stream_from);
    if (pl->stream == CORE_STREAM_NEVER)
        printf("every put and send is copied through the cache\n");
    else
        printf("puts and sends of %d KiB or more to another process %s\n",
               CORE_COPY_STREAM_MIN / 1024,
               pl->stream == CORE_STREAM_ALWAYS ? "bypass the cache"
                                                : "bypass the cache when that has cost less");
}

/* What a copy in the 4K-aliasing window takes in a process on this machine
 * (core_copy.h), and why: the measured times of the two ways. */
static void print_window_text(const struct placement *pl)
{
    double ratio = (double)pl->window_ticks[0] / (double)pl->window_ticks[1];
    if (pl->window == CORE_COPY_WINDOW_BLOCKS)
        printf("copies       64-byte blocks where (dst - src) mod 4096 is below 64 "
               "(measured: memcpy took %.1fx their time there)\n",
               ratio);
    else
        printf("copies       memcpy everywhere (measured: no 4K-aliasing cliff, 64-byte blocks "
               "took %.1fx memcpy's time)\n",
               1 / ratio);
}

/* Each CPU this process may run on and its DAXPY rate, flop/s (0: not
 * measured, when the thread could not be moved there). */
struct cpu_speeds {
    int n;
    int cpu[CPU_SETSIZE];
    double rate[CPU_SETSIZE];
};

/* Pins this thread to each allowed CPU in turn, times the trace's DAXPY there
 * (core_rate_measure), and gives the thread its CPUs back. */
static void measure_speeds(struct cpu_speeds *s)
{
    cpu_set_t allowed, one;
    s->n = 0;
    if (sched_getaffinity(0, sizeof allowed, &allowed) != 0)
        return;
    for (int c = 0; c < CPU_SETSIZE; c++) {
        if (!CPU_ISSET(c, &allowed))
            continue;
        CPU_ZERO(&one);
        CPU_SET(c, &one);
        s->cpu[s->n] = c;
        s->rate[s->n++] = sched_setaffinity(0, sizeof one, &one) == 0 ? core_rate_measure() : 0;
    }
    sched_setaffinity(0, sizeof allowed, &allowed);
}

/* The slowest and the fastest measured CPU, as indices into s; -1 when none. */
static void speed_range(const struct cpu_speeds *s, int *least, int *most)
{
    *least = *most = -1;
    for (int i = 0; i < s->n; i++) {
        if (!(s->rate[i] > 0))
            continue;
        if (*least < 0 || s->rate[i] < s->rate[*least])
            *least = i;
        if (*most < 0 || s->rate[i] > s->rate[*most])
            *most = i;
    }
}

static void print_speed_text(const struct cpu_speeds *s)
{
    int least, most;
    speed_range(s, &least, &most);
    if (least < 0) {
        printf("speed        not measured (no CPU to pin a thread to)\n");
        return;
    }
    if (s->n == 1) {
        printf("speed        DAXPY %.4e flop/s on CPU %d, the one this process may use\n",
               s->rate[least], s->cpu[least]);
        return;
    }
    printf("speed        DAXPY %.4e to %.4e flop/s, one thread pinned to each of the %d CPUs in "
           "turn (the slowest CPU %d, the fastest CPU %d)\n",
           s->rate[least], s->rate[most], s->n, s->cpu[least], s->cpu[most]);
    double apart = cost_cores_apart(s->rate[least], s->rate[most]);
    if (apart > 0)
        printf("             the CPUs computed %.1fx apart just now: cores of unequal speed "
               "(docs/probe.md, \"Cores of unequal speed\")\n",
               apart);
}

static void print_text(const struct machine *m, int nprocs, const char *nprocs_from,
                       const struct placement *pl, const struct cpu_speeds *s)
{
    char buf[32];
    printf("polybsp %s\n", bsp_polybsp_version());
    printf("engines      %s (default)", tool_engines[0]);
    for (const char *const *e = tool_engines + 1; *e != NULL; e++)
        printf(", %s", *e);
    printf("\n");
    printf("processes    %d by default (%s)\n", nprocs, nprocs_from);
    printf("host         %s\n", m->host);
    printf("system       %s\n", m->system);
    if (m->cpu_model[0] != '\0')
        printf("cpu          %s\n", m->cpu_model);
    if (m->package_cores > 0)
        printf("packages     %d, each %d core%s and %d hw thread%s\n", m->packages,
               m->package_cores, m->package_cores == 1 ? "" : "s", m->package_pus,
               m->package_pus == 1 ? "" : "s");
    else
        printf("packages     %d\n", m->packages);
    printf("cores        %d\n", m->cores);
    printf("hw threads   %d\n", m->pus);
    printf("NUMA nodes   %d\n", m->numa_nodes);
    printf("memory       %s\n", human_size(m->memory, buf, sizeof buf));
    for (int i = 0; i < m->ncaches; i++) {
        const struct cache *c = &m->caches[i];
        printf("cache %-6s %u x %s", c->name, c->count, human_size(c->size, buf, sizeof buf));
        if (c->line != 0)
            printf(", %u-byte lines", c->line);
        printf("\n");
    }
    print_placement_text(pl);
    print_stream_text(pl);
    print_window_text(pl);
    print_speed_text(s);
}

/* Prints s as a JSON string literal. */
static void json_string(const char *s)
{
    putchar('"');
    for (const unsigned char *p = (const unsigned char *)s; *p != '\0'; p++) {
        if (*p == '"' || *p == '\\')
            printf("\\%c", *p);
        else if (*p < 0x20)
            printf("\\u%04x", *p);
        else
            putchar(*p);
    }
    putchar('"');
}

static void print_json(const struct machine *m, int nprocs, const char *nprocs_from,
                       const struct placement *pl, const struct cpu_speeds *s)
{
    printf("{\n  \"version\": ");
    json_string(bsp_polybsp_version());
    printf(",\n  \"engines\": [");
    for (const char *const *e = tool_engines; *e != NULL; e++) {
        if (e != tool_engines)
            printf(", ");
        json_string(*e);
    }
    printf("],\n  \"default_engine\": ");
    json_string(tool_engines[0]);
    printf(",\n  \"default_nprocs\": %d,\n  \"default_nprocs_from\": ", nprocs);
    json_string(nprocs_from);
    printf(",\n  \"host\": ");
    json_string(m->host);
    printf(",\n  \"system\": ");
    json_string(m->system);
    printf(",\n  \"cpu_model\": ");
    if (m->cpu_model[0] != '\0')
        json_string(m->cpu_model);
    else
        printf("null");
    printf(",\n  \"packages\": %d,\n  \"cores\": %d,\n  \"pus\": %d,\n", m->packages, m->cores,
           m->pus);
    if (m->package_cores > 0)
        printf("  \"cores_per_package\": %d,\n  \"pus_per_package\": %d,\n", m->package_cores,
               m->package_pus);
    else
        printf("  \"cores_per_package\": null,\n  \"pus_per_package\": null,\n");
    printf("  \"numa_nodes\": %d,\n  \"memory_bytes\": %llu,\n", m->numa_nodes, m->memory);
    printf("  \"placement\": {\"policy\": \"%s\", \"from\": \"%s\", \"procs\": %d, \"cpus\": [",
           thr_place_name(pl->policy), pl->from, pl->procs);
    for (int i = 0; i < pl->procs && pl->cpu[0] >= 0; i++)
        printf("%s%d", i ? ", " : "", pl->cpu[i]);
    printf("], \"stream\": \"%s\", \"copy_window\": \"%s\"},\n", stream_name(pl->stream),
           pl->window == CORE_COPY_WINDOW_BLOCKS ? "blocks" : "memcpy");
    printf("  \"cpu_rates\": [");
    for (int i = 0; i < s->n; i++)
        printf("%s{\"cpu\": %d, \"flops\": %.6g}", i ? ", " : "", s->cpu[i], s->rate[i]);
    printf("],\n  \"caches\": [");
    for (int i = 0; i < m->ncaches; i++) {
        const struct cache *c = &m->caches[i];
        printf("%s\n    {\"name\": \"%s\", \"level\": %u, \"type\": \"%s\", \"count\": %u, "
               "\"size_bytes\": %llu, \"line_bytes\": %u}",
               i > 0 ? "," : "", c->name, c->level, c->type, c->count, c->size, c->line);
    }
    printf("%s]\n}\n", m->ncaches > 0 ? "\n  " : "");
}

enum { OPT_JSON, OPT_PROCS, OPT_PLATFORMS, NOPTS };
static const tool_opt info_opts[NOPTS] = {[OPT_JSON] = {"--json", false},
                                          [OPT_PROCS] = {"-p|--procs", true},
                                          [OPT_PLATFORMS] = {"--platforms", false}};

typedef struct info_args {
    bool json;
    long procs;
} info_args;

static int on_info_option(void *ctx, int opt, const char *v)
{
    info_args *a = ctx;
    switch (opt) {
    case TOOL_ARG:
        return tool_usage_error("info: unknown argument '%s' (try 'polybsp info --help')", v);
    case OPT_JSON: a->json = true; return 0;
    case OPT_PROCS:
        if (tool_integer(v, 1, 1000000, &a->procs) != 0)
            return tool_usage_error(
                "info: invalid number of processes '%s' (expected an integer in [1, 1000000])", v);
        return 0;
    default: /* OPT_PLATFORMS: replaces this process, or returns its failure */
        return tool_exec_smpi("info", NULL, NULL, 0, NULL);
    }
}

int cmd_info(int argc, char **argv)
{
    info_args a = {0};
    int rc = tool_parse_args("info", cmd_info_help, argc, argv, info_opts, NOPTS, on_info_option,
                             &a, NULL);
    if (rc != 0)
        return rc < 0 ? 0 : rc;
    bool json = a.json;
    long procs = a.procs;
    struct machine m;
    if (read_machine(&m) != 0) {
        fprintf(stderr, "polybsp: info: hwloc cannot read this machine's topology\n");
        return 1;
    }
    /* Asked of the engine rather than recomputed, so that it is what a
     * program calling bsp_begin(bsp_nprocs()) would really get (bsp_nprocs()
     * itself would add its note to an error exit here). */
    int nprocs = eng_available();
    const char *from = getenv("POLYBSP_NPROCS") != NULL ? "POLYBSP_NPROCS" : "one per core";
    struct placement pl = {.procs = procs > 0 ? (int)procs : nprocs};
    char err[128];
    int policy = thr_place_policy_from_env(err, sizeof err);
    if (policy < 0)
        return tool_usage_error("info: %s", err);
    pl.policy = (thr_place_policy)policy;
    pl.from = getenv("POLYBSP_PLACE") && *getenv("POLYBSP_PLACE") ? "POLYBSP_PLACE" : "default";
    int stream = thr_place_stream_from_env(err, sizeof err);
    if (stream < 0)
        return tool_usage_error("info: %s", err);
    pl.stream_from =
        getenv("POLYBSP_STREAM") && *getenv("POLYBSP_STREAM") ? "POLYBSP_STREAM" : "auto";
    pl.cpu = malloc((size_t)pl.procs * sizeof *pl.cpu);
    if (!pl.cpu) {
        fprintf(stderr, "polybsp: info: out of memory\n");
        return 1;
    }
    thr_place_cpus(pl.policy, pl.procs, pl.cpu, &pl.ncpus);
    pl.stream = thr_place_streams((thr_place_stream)stream, pl.procs, pl.cpu);
    pl.window = core_copy_window_measure(pl.window_ticks);
    struct cpu_speeds *speeds = malloc(sizeof *speeds);
    if (!speeds) {
        free(pl.cpu);
        fprintf(stderr, "polybsp: info: out of memory\n");
        return 1;
    }
    measure_speeds(speeds);
    if (json)
        print_json(&m, nprocs, from, &pl, speeds);
    else
        print_text(&m, nprocs, from, &pl, speeds);
    free(speeds);
    free(pl.cpu);
    return 0;
}
