/* mapped — says where the kernel or the loader mapped this program: "near" when
 * its code lies within 4 GiB of the C library's (among the shared libraries, as
 * SMPI's dlopen maps a program), "far" otherwise (a position-independent
 * executable started by the kernel lies terabytes below them); then each
 * argument, "arg TEXT" a line. Used by the tests of `polybsp run` under
 * POLYBSP_SOLO=smpi (run.c). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    uintptr_t self = (uintptr_t)&main, libc = (uintptr_t)&abort;
    uintptr_t gap = self > libc ? self - libc : libc - self;
    printf("%s\n", gap < (uintptr_t)1 << 32 ? "near" : "far");
    for (int k = 1; k < argc; k++)
        printf("arg %s\n", argv[k]);
    return 0;
}
