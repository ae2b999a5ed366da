/* thr_solo — one process of the threads engine computes at a time (thr_solo.h). */
#include "engine/threads/thr_solo.h"

#include "core/core.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static int solo;
static pthread_mutex_t token = PTHREAD_MUTEX_INITIALIZER;

int thr_solo_setup(void)
{
    const char *v = getenv("POLYBSP_SOLO");
    if (!v || !*v || strcmp(v, "off") == 0)
        solo = 0;
    else if (strcmp(v, "on") == 0)
        solo = 1;
    else
        core_fatal("bsp_begin", "POLYBSP_SOLO=%s is not a choice (off or on)", v);
    return solo;
}

void thr_solo_take(void)
{
    if (solo)
        pthread_mutex_lock(&token);
}

void thr_solo_give(void)
{
    if (solo)
        pthread_mutex_unlock(&token);
}
