/* bad_case.h — which case a bad-input test program (tests/coll/bad.c,
 * tests/group/bad.c) is to commit: its table holds one struct per line of its
 * cases.def, each beginning with the case's name, and the command line names
 * one.
 */
#ifndef POLYBSP_TESTS_BAD_CASE_H
#define POLYBSP_TESTS_BAD_CASE_H

#include <stdio.h>
#include <string.h>

/* The index of the case argv[1] names among the n entries of cases (stride
 * bytes apart, each beginning with a const char * name), or -1 after a usage
 * line on stderr when argv names none. */
static inline long bad_case_find(const void *cases, size_t n, size_t stride, int argc, char **argv)
{
    for (size_t i = 0; argc == 2 && i < n; i++) {
        const char *name;
        memcpy(&name, (const char *)cases + i * stride, sizeof name);
        if (!strcmp(argv[1], name))
            return (long)i;
    }
    fprintf(stderr, "usage: %s CASE (a case of cases.def)\n", argv[0]);
    return -1;
}

#endif
