/* probe_raw — every sample behind the probe's pattern tables, as a file
 * (`polybsp probe --raw FILE`; docs/formats.md, "Probe raw samples").
 *
 * Contract: probe_raw_write writes, for each P and each cell measured at it
 * (each pattern with bsp_put and bsp_hpput at each size, the empty superstep,
 * the BSP* cells; probe_analyse.h's layout), every sample of the main
 * measurement in the order taken, in seconds: one sample is the slowest
 * process's time of one superstep (probe_measure.h). The pilot's samples are
 * not kept: they only plan the run. The file carries the machine file's host
 * and date, so that a reader (`polybsp report --probe`) can tell that the two
 * come from the same run. The file is written whole or not at all (core_file);
 * 0, or -1 with "FILE: cannot write: WHY" in err.
 *
 * probe_raw_read reads such a file back: 0, or -1 with one line in err naming
 * the file and, for a bad field, the field (cost_json.h's wording). Each cell's
 * samples are allocated; probe_raw_free releases them.
 */
#ifndef POLYBSP_PROBE_RAW_H
#define POLYBSP_PROBE_RAW_H

#include "cost/cost_machine.h"
#include "probe/probe_analyse.h"

#include <stddef.h>

/* What a cell measured besides the five patterns (cost_pattern). */
enum { PROBE_RAW_EMPTY = COST_NPATTERNS, PROBE_RAW_BSPSTAR };

typedef struct probe_raw_cell {
    int procs;
    probe_prim prim;
    int pattern;  /* a cost_pattern, PROBE_RAW_EMPTY or PROBE_RAW_BSPSTAR */
    long h;       /* bytes of the h-relation with @ = sum (as --sizes); BSP*: in + out of a pair */
    int messages; /* each message cut into this many pieces (BSP*), else 1 */
    size_t n;
    double *samples; /* seconds, in the order taken */
} probe_raw_cell;

typedef struct probe_raw {
    char host[128], engine[32], date[32];
    size_t ncells;
    probe_raw_cell *cells;
} probe_raw;

/* samples[p * d->ncells + c] holds d->stat[p * d->ncells + c].n samples of cell
 * c at d->procs[p] (cells with none are left out). */
int probe_raw_write(const char *path, const cost_machine *m, const probe_data *d,
                    const double *const *samples, char *err, size_t errlen);

int probe_raw_read(const char *path, probe_raw *r, char *err, size_t errlen);
void probe_raw_free(probe_raw *r);

#endif
