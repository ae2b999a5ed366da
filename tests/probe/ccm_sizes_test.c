/* ccm_sizes_test — what probe_ccm_measure runs at a size below P.
 *
 * A TWOPHASE broadcast of n < P bytes gives a piece to n processes only, so
 * its second superstep has n senders where the algorithm at n >= P has P − 1:
 * the probe runs it on P bytes instead (probe_ccm.c). At P = 16 (threads,
 * oversubscribed) and size 8, the root of a TWOPHASE broadcast of 16 bytes
 * sends 15 pieces of one byte, then its own to the 15 others: h = 30 in every
 * bcast.twophase sample (8 bytes would give 7 + 15 = 22). The other kinds keep
 * the size: DIRECT's root sends 8 bytes to 15 processes, h = 120. At P = 4,
 * where 8 >= P, TWOPHASE keeps it too: pieces of 2 bytes, h = 3·2 + 3·2 = 12.
 *
 * The plain supersteps of a pattern that spreads its bytes (hrel.onetoall,
 * hrel.alltoone, hrel.alltoall) give every partner at least a double: at
 * P = 16 and size 8 the all-to-all sends 8 bytes to each of 15, h = 120 (8
 * bytes would reach 8 of them, h = 8); at P = 4, h = 24. The exchange keeps
 * the size: h = 8.
 */
#include "probe/probe_ccm.h"

#include "unit.h"

#include <bsp.h>
#include <stdlib.h>
#include <string.h>

/* Every sample of kind at P has h == want; there is at least one. */
static void check_h(const probe_ccm *c, const char *kind, int P, double want)
{
    int seen = 0;
    for (size_t i = 0; i < c->nsamples; i++) {
        const cost_ccm_sample *s = &c->samples[i];
        if (s->P != P || strcmp(s->kind, kind) != 0)
            continue;
        seen++;
        CHECKF(s->h == want, "%s at P = %d: h = %g, expected %g", kind, P, s->h, want);
    }
    CHECKF(seen > 0, "no sample of %s at P = %d", kind, P);
}

int main(int argc, char **argv)
{
    bsp_init(probe_spmd, argc, argv);
    static probe_ccm c = {.nsizes = 1, .sizes = {8}, .seed = 1};
    c.rounds = (probe_rounds){.min_reps = 1, .max_reps = 1, .rounds = 1};
    for (int P = 4; P <= 16; P += 12)
        CHECKF(probe_ccm_measure(&c, P, 60) == 0, "P = %d: %s", P, c.failed);
    check_h(&c, "bcast.twophase", 16, 30);
    check_h(&c, "bcast.direct", 16, 120);
    check_h(&c, "bcast.twophase", 4, 12);
    check_h(&c, "hrel.alltoall", 16, 120);
    check_h(&c, "hrel.onetoall", 16, 120);
    check_h(&c, "hrel.alltoone", 16, 120);
    check_h(&c, "hrel.alltoall", 4, 24);
    check_h(&c, "hrel.exchange", 16, 8);
    probe_ccm_free(&c);
    if (failures == 0)
        printf("ccm_sizes_test: OK\n");
    return failures != 0;
}
