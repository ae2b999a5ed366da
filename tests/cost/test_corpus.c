/* test_corpus — runs every file of the fuzz corpus through both readers.
 *
 * Usage: test_corpus CORPUS_DIR (holding trace/ and machine/). The corpus holds
 * the inputs that once crashed a reader or that the fuzzer found interesting;
 * this keeps them from crashing again in every build, fuzzer or not (run it
 * under POLYBSP_SANITIZE=address to also catch memory errors). Beyond not
 * crashing, each outcome must keep the readers' contract: an error is one
 * non-empty line; a trace that was read has at least one complete superstep.
 */
#include "cost/cost_machine.h"
#include "cost/cost_trace.h"

#include <dirent.h>
#include <stdio.h>
#include <string.h>

static int failures, files;

static void check_error(const char *path, const char *err)
{
    if (err[0] == '\0' || strchr(err, '\n') != NULL) {
        fprintf(stderr, "%s: the error is not one non-empty line: \"%s\"\n", path, err);
        failures++;
    }
}

static void read_both(const char *path)
{
    char err[8192] = "";
    cost_trace t;
    if (cost_trace_read(path, &t, err, sizeof err) < 0) {
        check_error(path, err);
    } else {
        if (t.nsteps == 0 || t.recs == NULL || t.nprocs < 1) {
            fprintf(stderr, "%s: read as a trace without a complete superstep\n", path);
            failures++;
        }
        cost_trace_free(&t);
    }
    cost_machine m;
    err[0] = '\0';
    if (cost_machine_read(path, &m, err, sizeof err) < 0)
        check_error(path, err);
    else if (!(m.g > 0) || m.nprocs < 1) {
        fprintf(stderr, "%s: read as a machine without g > 0 and P values\n", path);
        failures++;
    }
    files++;
}

/* Both readers see every file of both subdirectories: a machine file is a
 * malformed trace and the other way round, which is worth checking too. */
static int walk(const char *dir)
{
    DIR *d = opendir(dir);
    if (d == NULL) {
        fprintf(stderr, "test_corpus: cannot open %s\n", dir);
        return -1;
    }
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char path[4096];
        if (snprintf(path, sizeof path, "%s/%s", dir, e->d_name) >= (int)sizeof path) {
            fprintf(stderr, "test_corpus: path too long: %s/%s\n", dir, e->d_name);
            failures++;
            continue;
        }
        read_both(path);
    }
    closedir(d);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_corpus CORPUS_DIR\n");
        return 2;
    }
    char dir[4096];
    const char *subs[] = {"trace", "machine"};
    for (int i = 0; i < 2; i++) {
        snprintf(dir, sizeof dir, "%s/%s", argv[1], subs[i]);
        if (walk(dir) < 0)
            return 1;
    }
    printf("test_corpus: %d files, %d failures\n", files, failures);
    return failures == 0 && files > 0 ? 0 : 1;
}
