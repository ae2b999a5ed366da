/* api_mc — BSPlib with unsigned pids and size_t sizes (MulticoreBSP for C 2.x). */
#define POLYBSP_MCBSP
#include <bsp.h>

#include <stddef.h>

static inline size_t api_size(size_t v, const char *call, const char *what)
{
    (void)call;
    (void)what;
    return v;
}

#include "api/api_dialect_body.inc"
