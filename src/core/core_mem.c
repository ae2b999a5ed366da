/* core_mem — memory this program may still take (see core_mem.h). */
#include "core/core_mem.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* The first number in a file ("max" and anything unreadable: UINT64_MAX). */
static uint64_t read_number(const char *path)
{
    FILE *f = fopen(path, "r");
    unsigned long long v;
    int ok = f && fscanf(f, "%llu", &v) == 1;
    if (f)
        fclose(f);
    return ok ? (uint64_t)v : UINT64_MAX;
}

/* MemAvailable, else the physical memory; UINT64_MAX when neither is known. */
static uint64_t machine_available(void)
{
    FILE *f = fopen("/proc/meminfo", "r");
    char line[256];
    unsigned long long kib;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "MemAvailable: %llu kB", &kib) == 1) {
            fclose(f);
            return (uint64_t)kib * 1024;
        }
    if (f)
        fclose(f);
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    return pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page : UINT64_MAX;
}

/* The least of limit less use over the cgroup dir and its parents below root
 * (a cgroup namespace shows the process's own as root: then root alone). */
static uint64_t cgroup_room(const char *root, char *dir, const char *limit, const char *use)
{
    uint64_t room = UINT64_MAX;
    for (;;) {
        char path[4600];
        snprintf(path, sizeof path, "%s%s/%s", root, dir, limit);
        uint64_t lim = read_number(path);
        snprintf(path, sizeof path, "%s%s/%s", root, dir, use);
        uint64_t used = read_number(path);
        /* v1 writes "no limit" as a huge number rounded to pages. */
        if (lim < ((uint64_t)1 << 62)) {
            uint64_t left = used == UINT64_MAX ? lim : used < lim ? lim - used : 0;
            room = left < room ? left : room;
        }
        char *slash = strrchr(dir, '/');
        if (!slash || dir[0] == '\0')
            return room;
        *slash = '\0';
    }
}

/* The process's cgroups, v2 ("0::/path") and v1 memory ("N:memory:/path"). */
static uint64_t cgroups_room(void)
{
    FILE *f = fopen("/proc/self/cgroup", "r");
    char line[4200];
    uint64_t room = UINT64_MAX;
    while (f && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        char *path = strchr(line, ':');
        path = path ? strchr(path + 1, ':') : NULL;
        if (!path)
            continue;
        *path++ = '\0';
        const char *controllers = strchr(line, ':') + 1;
        uint64_t r = UINT64_MAX;
        if (strcmp(line, "0:") == 0 && controllers[0] == '\0')
            r = cgroup_room("/sys/fs/cgroup", strcmp(path, "/") ? path : (char[]){""}, "memory.max",
                            "memory.current");
        else if (strcmp(controllers, "memory") == 0)
            r = cgroup_room("/sys/fs/cgroup/memory", strcmp(path, "/") ? path : (char[]){""},
                            "memory.limit_in_bytes", "memory.usage_in_bytes");
        room = r < room ? r : room;
    }
    if (f)
        fclose(f);
    return room;
}

size_t core_mem_usable(const char **what)
{
    uint64_t machine = machine_available(), cgroup = cgroups_room();
    *what = cgroup < machine ? "the cgroup's limit" : "available memory";
    uint64_t least = cgroup < machine ? cgroup : machine;
    return least == UINT64_MAX ? 0 : least > SIZE_MAX ? SIZE_MAX : (size_t)least;
}
