/* thr_solo — one process of the threads engine computes at a time (thr_solo.h). */
#include "engine/threads/thr_solo.h"

#include "core/core.h"
#include "engine/threads/thr_place.h"

#include <pthread.h>

static int solo;
static pthread_mutex_t token = PTHREAD_MUTEX_INITIALIZER;

int thr_solo_setup(void)
{
    static const char *const words[] = {"off", "on"};
    char err[128];
    int k = thr_env_choice("POLYBSP_SOLO", words, 2, "choice", err, sizeof err);
    if (k < 0)
        core_fatal("bsp_begin", "%s", err);
    solo = k;
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
