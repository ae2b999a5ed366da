/* netns_ranks — each process learns its neighbour's network namespace with a
 * bsp_put and checks it differs from its own: run across two namespaces, the
 * data must have crossed a network link. Prints one line per process. */
#include <bsp.h>

#include <stdio.h>
#include <sys/stat.h>

int main(void)
{
    bsp_begin(bsp_nprocs());
    struct stat st;
    if (stat("/proc/self/ns/net", &st) != 0)
        bsp_abort("cannot read /proc/self/ns/net");
    unsigned long mine = (unsigned long)st.st_ino, theirs = 0;
    bsp_push_reg(&theirs, sizeof theirs);
    bsp_sync();
    bsp_put((bsp_pid() + 1) % bsp_nprocs(), &mine, &theirs, 0, sizeof mine);
    bsp_sync();
    if (bsp_nprocs() > 1 && theirs == mine)
        bsp_abort("process %d shares its network namespace with its neighbour", bsp_pid());
    printf("process %d: namespace %lu, neighbour's %lu\n", bsp_pid(), mine, theirs);
    bsp_end();
    return 0;
}
