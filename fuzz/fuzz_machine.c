/* fuzz_machine — libFuzzer target for the machine file reader and writer.
 *
 * Any input must give either a machine or one error line. A machine that was
 * read must keep the reader's promises (g > 0, 1..16 P values, arrays within
 * bounds), and the writer must accept it and write a file that reads back: the
 * probe relies on "what was read can be written". Built only with
 * -DPOLYBSP_FUZZ=ON and clang (see fuzz/README.md).
 */
#include "cost/cost_machine.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(const cost_machine *m)
{
    if (!(m->g > 0) || m->nprocs < 1 || m->nprocs > COST_MAX_PROCS || m->nsizes > COST_MAX_SIZES)
        abort();
    for (int i = 0; i < COST_NPATTERNS; i++)
        if (m->put[i].nsizes > COST_MAX_SIZES || m->hpput[i].nsizes > COST_MAX_SIZES)
            abort();
}

static char path[64]; /* where read machines are written back */

static void remove_path(void) { remove(path); }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0) /* fmemopen refuses it; the empty file is a unit test */
        return 0;
    FILE *f = fmemopen((void *)data, size, "r");
    if (f == NULL)
        return 0;
    char err[512];
    cost_machine m;
    if (cost_machine_read_stream(f, "fuzz", &m, err, sizeof err) == 0) {
        check(&m);
        if (path[0] == '\0') {
            snprintf(path, sizeof path, "/tmp/fuzz_machine_%ld.json", (long)getpid());
            atexit(remove_path);
        }
        cost_machine back;
        if (cost_machine_write(path, &m, err, sizeof err) != 0 ||
            cost_machine_read(path, &back, err, sizeof err) != 0)
            abort();
        check(&back);
    } else if (err[0] == '\0' || strchr(err, '\n') != NULL)
        abort(); /* the contract: one non-empty line */
    fclose(f);
    return 0;
}
