/* from_bytes — a run whose every transfer from_bytes.sh checks in the trace.
 *
 * On 4 processes, each process p in superstep 1 puts 100 (p + 1) bytes and
 * sends a message of 16 bytes to p + 1, puts 8 bytes to p + 2 and hpputs 64
 * to p + 3 (mod 4); process 0 also puts two blocks of 1 MiB to process 1 (on
 * the MPI engine they travel apart from the head, received straight into
 * place). In superstep 2 each gets 16 bytes twice from p + 3. Superstep 0
 * registers. Checks what landed; exits 1 on a wrong byte.
 */
#include <bsp.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MIB = 1 << 20, SMALL = 2 * MIB, EIGHT = 3 * MIB, HP = 3 * MIB + 1024, AREA = 4 * MIB };

int main(void)
{
    bsp_begin(4);
    int p = (int)bsp_pid(), P = (int)bsp_nprocs();
    if (P != 4)
        bsp_abort("from_bytes: needs 4 processes, got %d\n", P);
    char *area = calloc(AREA, 1), *src = malloc(2 * MIB), got[32];
    if (!area || !src)
        bsp_abort("from_bytes: out of memory\n");
    memset(src, 'a' + p, 2 * MIB);
    bsp_push_reg(area, AREA);
    bsp_sync(); /* superstep 0 */
    int next = (p + 1) % P;
    bsp_put(next, src, area, SMALL, (bsp_size_t)(100 * (p + 1)));
    bsp_send(next, NULL, src, 16);
    bsp_put((p + 2) % P, src, area, EIGHT, 8);
    bsp_hpput((p + 3) % P, src, area, HP, 64);
    if (p == 0) {
        bsp_put(1, src, area, 0, MIB);
        bsp_put(1, src, area, MIB, MIB);
    }
    bsp_sync(); /* superstep 1 */
    int prev = (p + 3) % P, ok = area[SMALL] == 'a' + prev && area[EIGHT] == 'a' + (p + 2) % P &&
                                 area[HP] == 'a' + next && (p != 1 || area[2 * MIB - 1] == 'a');
    bsp_get(prev, area, SMALL, got, 16);
    bsp_get(prev, area, EIGHT, got + 16, 16);
    bsp_sync(); /* superstep 2 */
    ok = ok && got[0] == 'a' + (prev + 3) % P && got[16] == 'a' + (prev + 2) % P;
    bsp_pop_reg(area);
    bsp_sync();
    free(area);
    free(src);
    if (!ok)
        fprintf(stderr, "from_bytes: process %d received wrong bytes\n", p);
    bsp_end();
    return ok ? 0 : 1;
}
