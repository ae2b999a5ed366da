/* raw_test — the probe's raw samples file (probe_raw.h) written and read back.
 *
 * A probe of two sizes at P = 2 and 4 where only some cells were measured:
 * Exchange with bsp_put at both P (samples 1e-6, 2e-6, 3e-6 and 4e-6, 5e-6),
 * AllToAll with bsp_hpput at P = 4 alone, the empty superstep at P = 2, one BSP*
 * cell (8192 bytes in 16 messages) at P = 4. The file must hold exactly these
 * six cells, in the probe's order (P, then cell), each with its samples in the
 * order taken and the machine file's host and date; the reader must give them
 * back. Then the reader's one-line errors on files that are not such a file.
 * Prints "raw_test: OK".
 */
#include "probe/probe_raw.h"

#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { NSIZES = 2, NCELLS = PROBE_NPRIMS * COST_NPATTERNS * NSIZES + 2, NPROCS = 2 };

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
}

/* The reader's error on a file holding text. */
static void expect_error(const char *dir, const char *text, const char *want)
{
    char path[512], err[512], line[1024];
    snprintf(path, sizeof path, "%s/bad.json", dir);
    write_text(path, text);
    probe_raw r;
    CHECK(probe_raw_read(path, &r, err, sizeof err) == -1);
    snprintf(line, sizeof line, "%s: %s", path, want);
    if (strcmp(err, line) != 0) {
        failures++;
        fprintf(stderr, "FAIL: error '%s', expected '%s'\n", err, line);
    }
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : ".";
    static const long sizes[NSIZES] = {64, 4096};
    static const int procs[NPROCS] = {2, 4};
    probe_cell cells[NCELLS];
    size_t n = 0;
    for (int prim = 0; prim < PROBE_NPRIMS; prim++)
        for (int pat = 0; pat < COST_NPATTERNS; pat++)
            for (size_t k = 0; k < NSIZES; k++)
                cells[n++] = (probe_cell){(probe_prim)prim, (cost_pattern)pat, sizes[k], 1};
    cells[n++] = (probe_cell){PROBE_PUT, COST_EXCHANGE, 0, 1};
    cells[n++] = (probe_cell){PROBE_PUT, COST_EXCHANGE, 8192, 16};

    probe_stat stat[NPROCS * NCELLS] = {{0}};
    const double *samples[NPROCS * NCELLS] = {0};
    static const double e2[] = {1e-6, 2e-6, 3e-6}, e4[] = {4e-6, 5e-6}, aa[] = {7.5e-5},
                        empty[] = {2.5e-7, 2e-7}, star[] = {1.25e-5};
    size_t ex = probe_cell_index(PROBE_PUT, COST_EXCHANGE, 1, NSIZES),
           all = probe_cell_index(PROBE_HPPUT, COST_ALLTOALL, 0, NSIZES),
           emp = probe_empty_cell(NSIZES);
    struct {
        size_t at;
        const double *v;
        size_t n;
    } given[] = {{ex, e2, 3},
                 {emp, empty, 2},
                 {NCELLS + ex, e4, 2},
                 {NCELLS + all, aa, 1},
                 {NCELLS + emp + 1, star, 1}};
    for (size_t i = 0; i < sizeof given / sizeof *given; i++) {
        stat[given[i].at].n = given[i].n;
        samples[given[i].at] = given[i].v;
    }
    probe_data d = {.nprocs = NPROCS,
                    .procs = procs,
                    .cores = 4,
                    .nsizes = NSIZES,
                    .sizes = sizes,
                    .ncells = NCELLS,
                    .cells = cells,
                    .stat = stat};
    cost_machine m = {0};
    strcpy(m.host, "h<1>");
    strcpy(m.engine, "threads");
    strcpy(m.date, "2026-11-25T05:00:00Z");

    char path[512], err[512];
    snprintf(path, sizeof path, "%s/raw.json", dir);
    CHECK(probe_raw_write(path, &m, &d, samples, err, sizeof err) == 0);
    probe_raw r;
    CHECK(probe_raw_read(path, &r, err, sizeof err) == 0);
    CHECK(strcmp(r.host, "h<1>") == 0 && strcmp(r.engine, "threads") == 0 &&
          strcmp(r.date, "2026-11-25T05:00:00Z") == 0);
    CHECK(r.ncells == 5);
    if (r.ncells == 5) {
        const probe_raw_cell *c = r.cells;
        CHECK(c[0].procs == 2 && c[0].prim == PROBE_PUT && c[0].pattern == COST_EXCHANGE &&
              c[0].h == 4096 && c[0].messages == 1 && c[0].n == 3 && c[0].samples[0] == 1e-6 &&
              c[0].samples[2] == 3e-6);
        CHECK(c[1].procs == 2 && c[1].pattern == PROBE_RAW_EMPTY && c[1].h == 0 && c[1].n == 2 &&
              c[1].samples[0] == 2.5e-7 && c[1].samples[1] == 2e-7);
        CHECK(c[2].procs == 4 && c[2].pattern == COST_EXCHANGE && c[2].n == 2 &&
              c[2].samples[1] == 5e-6);
        CHECK(c[3].procs == 4 && c[3].prim == PROBE_HPPUT && c[3].pattern == COST_ALLTOALL &&
              c[3].h == 64 && c[3].n == 1 && c[3].samples[0] == 7.5e-5);
        CHECK(c[4].procs == 4 && c[4].pattern == PROBE_RAW_BSPSTAR && c[4].h == 8192 &&
              c[4].messages == 16 && c[4].samples[0] == 1.25e-5);
    }
    probe_raw_free(&r);

    snprintf(path, sizeof path, "%s/absent.json", dir);
    CHECK(probe_raw_read(path, &r, err, sizeof err) == -1);
    char want[600];
    snprintf(want, sizeof want, "%s: cannot open: No such file or directory", path);
    CHECK(strcmp(err, want) == 0);
    expect_error(dir, "{\"format\": \"polybsp-portability\"}",
                 "not a probe raw file (expected the output of polybsp probe --raw FILE)");
    expect_error(dir, "[1]", "expected a JSON object");
    const char *head = "{\"format\": \"polybsp-probe-raw\", \"version\": 1, \"host\": \"h\", "
                       "\"engine\": \"threads\", \"date\": \"d\", \"cells\": ";
    char text[1024];
    snprintf(text, sizeof text,
             "%s[{\"procs\": 2, \"primitive\": \"bsp_put\", \"pattern\": "
             "\"ring\", \"h\": 8, \"messages\": 1, \"samples\": [1]}]}",
             head);
    expect_error(dir, text,
                 "field 'cells[0].pattern': expected exchange, pingpong, onetoall, alltoone, "
                 "alltoall, empty or bspstar");
    snprintf(text, sizeof text,
             "%s[{\"procs\": 2, \"primitive\": \"bsp_put\", \"pattern\": "
             "\"empty\", \"h\": 0, \"messages\": 1, \"samples\": [1, -2]}]}",
             head);
    expect_error(dir, text, "field 'cells[0].samples[1]': expected a number >= 0");
    snprintf(text, sizeof text, "%s[3]}", head);
    expect_error(dir, text, "field 'cells[0]': expected an object");
    snprintf(text, sizeof text, "%s{}}", head);
    expect_error(dir, text, "field 'cells': expected an array of cells");

    if (failures)
        return 1;
    printf("raw_test: OK\n");
    return 0;
}
