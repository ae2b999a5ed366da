/* extensions.c — the basic <polybsp.h> queries.
 * bsp_polybsp_version matches the version macros of <bsp.h>; bsp_engine_name
 * is "threads"; bsp_superstep counts this process's completed syncs.
 */
#include "check.h"
#include <polybsp.h>
#include <string.h>

int main(void)
{
    bsp_begin(bsp_nprocs());
    char want[64];
    snprintf(want, sizeof want, "%d.%d.%d", POLYBSP_VERSION_MAJOR, POLYBSP_VERSION_MINOR,
             POLYBSP_VERSION_PATCH);
    CHECK(strcmp(bsp_polybsp_version(), want) == 0);
    CHECK(strcmp(bsp_engine_name(), POLYBSP_TEST_ENGINE) == 0);
    CHECK_EQ(bsp_superstep(), 0);
    for (int s = 1; s <= 5; s++) {
        bsp_sync();
        CHECK_EQ(bsp_superstep(), s);
    }
    bsp_end();
    return 0;
}
