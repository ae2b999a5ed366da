/* api_classic — BSPlib with int sizes (BSPlib 1.4, BSPedupack): negatives are errors. */
#include <bsp.h>

#include "core/core_error.h"

#include <stddef.h>

static inline size_t api_size(int v, const char *call, const char *what)
{
    if (v < 0)
        core_fatal(call, "negative %s %d", what, v);
    return (size_t)v;
}

#include "api/api_dialect_body.inc"
