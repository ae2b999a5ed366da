/* place.c — where the threads engine runs its processes (POLYBSP_PLACE,
 * src/engine/threads/thr_place.h). After a few supersteps every process sends
 * process 0 the CPU it runs on (sched_getcpu) and how many CPUs its affinity
 * allows; process 0 prints "process I: cpu C, N allowed" in pid order, and after
 * bsp_end "after: N allowed" for its own thread, which bsp_end must give back
 * the CPUs it had. place.sh compares them with `polybsp info -p P --json`. */
#define _GNU_SOURCE
#include <bsp.h>

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

static int allowed(void)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) != 0)
        return -1;
    return CPU_COUNT(&set);
}

int main(void)
{
    bsp_begin(bsp_nprocs());
    int p = bsp_nprocs(), s = bsp_pid();
    int *seen = calloc((size_t)p * 2, sizeof *seen);
    if (!seen)
        bsp_abort("place: out of memory");
    bsp_push_reg(seen, p * 2 * (int)sizeof *seen);
    for (int k = 0; k < 10; k++) /* time for a thread the kernel placed badly to move */
        bsp_sync();
    int mine[2] = {sched_getcpu(), allowed()};
    bsp_put(0, mine, seen, s * 2 * (int)sizeof *seen, (int)sizeof mine);
    bsp_sync();
    if (s == 0)
        for (int i = 0; i < p; i++)
            printf("process %d: cpu %d, %d allowed\n", i, seen[2 * i], seen[2 * i + 1]);
    bsp_pop_reg(seen);
    bsp_sync();
    free(seen);
    bsp_end();
    printf("after: %d allowed\n", allowed());
    return 0;
}
