/* test_files — the least-squares fits and error measures of paper 000 on data
 * with known answers, the machine file and trace readers and writers, and the
 * group structure of traces. Usage and conventions: check.h. */
#include "check.h"

#include <dirent.h>
#include <sys/stat.h>

/* ---- fits and error measures ---- */

/* y = 1 + 2x plus noise that is orthogonal to 1 and x (sums to zero, and so does
 * its product with x), so least squares must return a = 1, b = 2 exactly. */
static void fit_line_noise(void)
{
    double x[] = {1, 2, 3, 4}, y[] = {3.1, 4.9, 6.9, 9.1}, a, b;
    CHECK(cost_fit_line(x, y, 4, &a, &b) == 0);
    NEAR(a, 1.0);
    NEAR(b, 2.0);
}

/* The paper's Exchange fit on the ORIGIN 2000 (table E.2): noise-free times on
 * its h sizes give back L_E = -1.1759e-05 and g_E = 9.8942e-09. The times reach
 * 0.017 s while L is 1e-5, so L is checked within 1e-12 of the largest time. */
static void fit_line_paper(void)
{
    double h[] = {6720, 26880, 107520, 430080, 1720320}, t[5], L = -1.1759e-05, g = 9.8942e-09;
    for (int i = 0; i < 5; i++)
        t[i] = L + g * h[i];
    double a, b;
    CHECK(cost_fit_line(h, t, 5, &a, &b) == 0);
    NEAR(b, g);
    CHECK(fabs(a - L) <= 1e-12 * t[4]);
}

static void fit_line_degenerate(void)
{
    double x[] = {5, 5, 5}, y[] = {1, 2, 3}, a = 7, b = 7;
    CHECK(cost_fit_line(x, y, 1, &a, &b) == -1);
    CHECK(cost_fit_line(x, y, 3, &a, &b) == -1);
    CHECK(a == 7 && b == 7); /* untouched on failure */
}

/* Times of one h on three P values, model 1.0:
 * MaxErr = 100·max|t - 1| / min t = 100·0.2/0.9;
 * AvErr = 100·(Σ|t - 1|/3)/(Σt/3) = 100·(0.3/3)/(3.1/3) = 100·0.3/3.1. */
static void errors_small_table(void)
{
    double t[] = {1.0, 1.2, 0.9};
    NEAR(cost_maxerr(t, 3, 1.0), 100 * 0.2 / 0.9);
    NEAR(cost_averr(t, 3, 1.0), 100 * 0.3 / 3.1);
    /* A model that matches every time has no error. */
    double same[] = {2.5, 2.5};
    CHECK(cost_maxerr(same, 2, 2.5) == 0 && cost_averr(same, 2, 2.5) == 0);
    /* Table 11 layout: five patterns' times at one h, one g·h + L. With g = 1e-9,
     * L = 1e-5, h = 1e4: model 2e-5; deviations 1e-6, 0, 3e-6, 2e-6, 4e-6. */
    double pat[] = {2.1e-5, 2.0e-5, 1.7e-5, 2.2e-5, 2.4e-5};
    double model = 1e-9 * 1e4 + 1e-5;
    NEAR(cost_maxerr(pat, 5, model), 100 * (2.4e-5 - model) / 1.7e-5);
    NEAR(cost_averr(pat, 5, model), 100 * ((1e-6 + 0 + 3e-6 + 2e-6 + 4e-6) / 5) /
                                        ((2.1e-5 + 2.0e-5 + 1.7e-5 + 2.2e-5 + 2.4e-5) / 5));
    CHECK(isnan(cost_maxerr(t, 0, 1.0)) && isnan(cost_averr(t, 0, 1.0)));
}

static void median(void)
{
    double odd[] = {3, 1, 2}, even[] = {4, 1, 3, 2};
    CHECK(cost_median(odd, 3) == 2);
    CHECK(odd[0] == 1 && odd[2] == 3); /* sorted in place, as documented */
    CHECK(cost_median(even, 4) == 2.5);
    CHECK(isnan(cost_median(even, 0)));
}

/* ---- machine file ---- */

static void machine_read_full(void)
{
    cost_machine m;
    load_machine("machine.json", &m);
    CHECK(m.version == 1 && m.cores == 4 && m.nprocs == 3 && m.procs[2] == 4);
    SAME_STR(m.host, "testhost");
    SAME_STR(m.date, "2026-11-22T20:00:00Z");
    CHECK(m.h_sum == 1 && m.oversubscribed == 0);
    CHECK(m.g == 1e-9 && m.L == 1e-5);
    const cost_pattern_fit *e = &m.put[COST_EXCHANGE];
    CHECK(e->measured && e->nsizes == 3 && e->L == -1.1759e-05 && e->h[2] == 107520);
    CHECK(e->time[1] == 0.000227 && e->maxerr[0] == 26.43);
    CHECK(m.put[COST_ALLTOALL].measured && m.put[COST_ALLTOALL].nsizes == 2);
    CHECK(!m.put[COST_PINGPONG].measured && !m.hpput[COST_EXCHANGE].measured);
    CHECK(m.nsizes == 2 && m.t11_maxerr[0] == 304);
    CHECK(m.gstar == 2e-9 && m.B == 100 && m.rate[0] == 1e9 && m.rate[1] == 0 && m.rate[2] == 0 &&
          m.spread == 3.5);
    SAME_STR(cost_pattern_name(COST_ALLTOONE), "alltoone");
}

static void machine_read_minimal(void)
{
    cost_machine m;
    load_machine("machine_max.json", &m);
    CHECK(m.h_sum == 0 && m.gstar == 0 && m.B == 0 && m.rate[0] == 0 && m.rate[1] == 0 &&
          m.spread == 0);
    CHECK(m.nsizes == 0);
    for (int i = 0; i < COST_NPATTERNS; i++)
        CHECK(!m.put[i].measured && !m.hpput[i].measured);
}

static char *slurp(const char *path)
{
    static char buf[2][16384];
    static int which;
    char *b = buf[which++ % 2];
    FILE *f = fopen(path, "r");
    size_t n = f != NULL ? fread(b, 1, sizeof buf[0] - 1, f) : 0;
    b[n] = '\0';
    if (f != NULL)
        fclose(f);
    return b;
}

/* Written, read back and written again, the two files are the same text, and
 * the writer prints each number as the shortest text that reads back as the
 * same double: so every field survives the round trip exactly. */
static void machine_roundtrip(void)
{
    cost_machine m, back;
    load_machine("machine.json", &m);
    m.hpput[COST_PINGPONG] = m.put[COST_EXCHANGE];
    m.g = 1.0 / 3e9; /* needs all 17 digits */
    char path1[64], path2[64];
    snprintf(path1, sizeof path1, "/tmp/test_cost_%ld_1.json", (long)getpid());
    snprintf(path2, sizeof path2, "/tmp/test_cost_%ld_2.json", (long)getpid());
    CHECK(cost_machine_write(path1, &m, err, sizeof err) == 0);
    CHECK(cost_machine_read(path1, &back, err, sizeof err) == 0);
    CHECK(cost_machine_write(path2, &back, err, sizeof err) == 0);
    SAME_STR(slurp(path1), slurp(path2));
    CHECK(back.g == m.g && back.L == m.L && back.hpput[COST_PINGPONG].measured);
    CHECK(back.hpput[COST_PINGPONG].time[2] == m.put[COST_EXCHANGE].time[2]);
    CHECK(back.spread == m.spread && back.B == m.B && back.nsizes == m.nsizes);
    SAME_STR(back.host, m.host);
    remove(path1);
    remove(path2);
}

/* Writing replaces a regular file whole (keeping its mode), and refuses anything
 * else at the path, a link included, leaving it and what it points to as they
 * were; no temporary is left behind either way. */
static void machine_write_whole(void)
{
    cost_machine m, back;
    load_machine("machine.json", &m);
    char dir[64], path[128], link[128], target[128], want[256];
    snprintf(dir, sizeof dir, "/tmp/test_cost_whole_XXXXXX");
    CHECK(mkdtemp(dir) != NULL);
    snprintf(path, sizeof path, "%s/m.json", dir);
    snprintf(link, sizeof link, "%s/link.json", dir);
    snprintf(target, sizeof target, "%s/target", dir);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL && fputs("old", f) >= 0 && fclose(f) == 0 && chmod(path, 0640) == 0);
    CHECK(cost_machine_write(path, &m, err, sizeof err) == 0);
    CHECK(cost_machine_read(path, &back, err, sizeof err) == 0 && back.g == m.g);
    struct stat st;
    CHECK(stat(path, &st) == 0 && (st.st_mode & 07777) == 0640);

    f = fopen(target, "w");
    CHECK(f != NULL && fputs("keep", f) >= 0 && fclose(f) == 0 && symlink("target", link) == 0);
    CHECK(cost_machine_write(link, &m, err, sizeof err) == -1);
    snprintf(want, sizeof want, "%s: cannot write: not a regular file (a symbolic link)", link);
    SAME_STR(err, want);
    SAME_STR(slurp(target), "keep");
    CHECK(cost_machine_write(dir, &m, err, sizeof err) == -1);
    snprintf(want, sizeof want, "%s: cannot write: not a regular file (a directory)", dir);
    SAME_STR(err, want);
    CHECK(cost_machine_write("/dev/full", &m, err, sizeof err) == -1);
    SAME_STR(err, "/dev/full: cannot write: not a regular file (a character device)");

    int files = 0;
    DIR *d = opendir(dir);
    for (struct dirent *e; d != NULL && (e = readdir(d)) != NULL;)
        files += e->d_name[0] != '.';
    CHECK(d != NULL && closedir(d) == 0);
    CHECK(files == 3); /* m.json, target, link.json */
    CHECK(remove(path) == 0 && remove(link) == 0 && remove(target) == 0 && rmdir(dir) == 0);
}

static void expect_write_error(cost_machine *m, const char *path, const char *want)
{
    CHECK(cost_machine_write(path, m, err, sizeof err) == -1);
    SAME_STR(err, want);
    CHECK(access(path, F_OK) != 0); /* nothing written, not even a partial file */
}

static void machine_write_refuses(void)
{
    cost_machine m;
    load_machine("machine.json", &m);
    char path[64], want[256];
    snprintf(path, sizeof path, "/tmp/test_cost_bad_%ld.json", (long)getpid());

    cost_machine bad = m;
    bad.g = 0;
    snprintf(want, sizeof want, "%s: field 'bsp.g': expected a number > 0 (nothing written)", path);
    expect_write_error(&bad, path, want);

    bad = m;
    bad.L = NAN;
    snprintf(want, sizeof want, "%s: field 'bsp.L': expected a number (nothing written)", path);
    expect_write_error(&bad, path, want);

    bad = m;
    bad.put[COST_EXCHANGE].time[1] = -1;
    snprintf(want, sizeof want,
             "%s: field 'patterns.put.exchange.time[1]': expected a number >= 0 (nothing written)",
             path);
    expect_write_error(&bad, path, want);

    bad = m;
    bad.nprocs = 0;
    snprintf(want, sizeof want,
             "%s: field 'procs': expected an array of 1 to 16 integers >= 1 (nothing written)",
             path);
    expect_write_error(&bad, path, want);

    bad = m;
    strcpy(bad.host, "caf\xe9"); /* Latin-1, not UTF-8 */
    snprintf(want, sizeof want, "%s: field 'host': expected a UTF-8 string (nothing written)",
             path);
    expect_write_error(&bad, path, want);

    expect_write_error(&m, "/nonexistent/dir/m.json",
                       "/nonexistent/dir/m.json: cannot write: No such file or directory");
}

static void machine_read_groups(void)
{
    cost_machine m;
    load_machine("machine_groups.json", &m);
    CHECK(m.nlevels == 3 && m.levels[1].level == 1 && m.levels[1].cluster == 2);
    CHECK(m.levels[1].g == 5e-10 && m.levels[1].L == 4e-6);
    /* Clusters of one process exchange nothing: g may be 0 there. */
    CHECK(m.levels[2].cluster == 1 && m.levels[2].g == 0 && m.levels[2].L == 1e-6);
    CHECK(m.has_ccm && m.ncoll == 3);
    SAME_STR(m.coll[1].name, "allreduce"); /* in the file's order */
    const cost_ccm_fn *f = cost_machine_collective(&m, "par");
    CHECK(f != NULL && f->a == 1e-6 && f->b == 0 && f->c == 1e-9 && f->h_break == 0);
    CHECK(cost_machine_collective(&m, "scan") == NULL);
    CHECK(m.partition.a == 3e-6 && m.rejoin.b == 1e-6);
    cost_machine none;
    load_machine("machine.json", &none);
    CHECK(none.nlevels == 0 && !none.has_ccm && none.ncoll == 0);
}

/* D-BSP levels and CCM functions (of one piece and of two) survive writing
 * and reading exactly; a CCM section without collectives is valid (only
 * divisions calibrated). */
static void machine_roundtrip_groups(void)
{
    cost_machine m, back;
    load_machine("machine_groups.json", &m);
    m.levels[0].g = 1.0 / 3e9;
    m.coll[0].f.c = 2.0 / 3e9;
    m.coll[1].f = (cost_ccm_fn){1e-6, 2e-6, 3e-9, 4096, 1.0 / 7e9};
    char path1[64], path2[64];
    snprintf(path1, sizeof path1, "/tmp/test_cost_%ld_g1.json", (long)getpid());
    snprintf(path2, sizeof path2, "/tmp/test_cost_%ld_g2.json", (long)getpid());
    CHECK(cost_machine_write(path1, &m, err, sizeof err) == 0);
    CHECK(cost_machine_read(path1, &back, err, sizeof err) == 0);
    CHECK(cost_machine_write(path2, &back, err, sizeof err) == 0);
    SAME_STR(slurp(path1), slurp(path2));
    CHECK(back.nlevels == 3 && back.levels[0].g == m.levels[0].g && back.levels[1].L == 4e-6);
    CHECK(back.has_ccm && back.ncoll == 3 && back.coll[0].f.c == m.coll[0].f.c);
    CHECK(back.coll[1].f.h_break == 4096 && back.coll[1].f.c_above == m.coll[1].f.c_above);
    CHECK(back.coll[1].f.c == 3e-9 && back.coll[0].f.h_break == 0);
    CHECK(strstr(slurp(path1), "\"c_below\": 3e-09, \"h_break\": 4096, \"c_above\": ") != NULL);
    SAME_STR(back.coll[2].name, "par");
    CHECK(back.rejoin.a == m.rejoin.a && back.partition.c == m.partition.c);
    m.ncoll = 0;
    m.nlevels = 0;
    CHECK(cost_machine_write(path1, &m, err, sizeof err) == 0);
    CHECK(cost_machine_read(path1, &back, err, sizeof err) == 0);
    CHECK(back.has_ccm && back.ncoll == 0 && back.nlevels == 0);
    CHECK(strstr(slurp(path1), "\"collectives\": {},") != NULL);
    CHECK(strstr(slurp(path1), "dbsp") == NULL);
    remove(path1);
    remove(path2);
}

/* CCM's functions of one P (ccm.by_procs) survive writing and reading
 * exactly, each P's partition and rejoin with them. */
static void machine_roundtrip_ccm_procs(void)
{
    cost_machine m, back;
    load_machine("machine_ccm_procs.json", &m);
    m.ccm_procs[0].coll[0].f = (cost_ccm_fn){1.0 / 3e6, 0, 2e-9, 65536, 1.0 / 7e9};
    char path1[64], path2[64];
    snprintf(path1, sizeof path1, "/tmp/test_cost_%ld_p1.json", (long)getpid());
    snprintf(path2, sizeof path2, "/tmp/test_cost_%ld_p2.json", (long)getpid());
    CHECK(cost_machine_write(path1, &m, err, sizeof err) == 0);
    CHECK(cost_machine_read(path1, &back, err, sizeof err) == 0);
    CHECK(cost_machine_write(path2, &back, err, sizeof err) == 0);
    SAME_STR(slurp(path1), slurp(path2));
    CHECK(back.nccm_procs == 1 && back.ccm_procs[0].procs == 4 && back.ccm_procs[0].ncoll == 3);
    const cost_ccm_fn *f = cost_machine_ccm(&back, "bcast", 4);
    CHECK(f != NULL && f->a == 1.0 / 3e6 && f->h_break == 65536 && f->c_above == 1.0 / 7e9);
    CHECK(cost_machine_ccm(&back, "partition", 4)->a == 1e-6);
    CHECK(cost_machine_ccm(&back, "bcast.binomial", 4)->a == 1e-6); /* over all P */
    remove(path1);
    remove(path2);
}

/* D-BSP's levels of each P (dbsp.by_procs) survive writing and reading; the
 * file's levels are the largest P's, and cost_machine_use_procs swaps in the
 * levels of the P asked for, when the file has them. */
static void machine_roundtrip_dbsp_procs(void)
{
    cost_machine m, back;
    load_machine("machine_dbsp_procs.json", &m);
    CHECK(m.nlevels_procs == 2 && m.levels_procs == 4 && m.levels_oversubscribed);
    CHECK(m.nlevels == 3 && m.levels[1].cluster == 2 && m.levels[1].L == 4e-5);
    char path1[64], path2[64];
    snprintf(path1, sizeof path1, "/tmp/test_cost_%ld_d1.json", (long)getpid());
    snprintf(path2, sizeof path2, "/tmp/test_cost_%ld_d2.json", (long)getpid());
    CHECK(cost_machine_write(path1, &m, err, sizeof err) == 0);
    CHECK(cost_machine_read(path1, &back, err, sizeof err) == 0);
    CHECK(cost_machine_write(path2, &back, err, sizeof err) == 0);
    SAME_STR(slurp(path1), slurp(path2));
    CHECK(back.nlevels_procs == 2 && back.levels_by_procs[0].procs == 2 &&
          !back.levels_by_procs[0].oversubscribed && back.levels_by_procs[0].nlevels == 2);
    CHECK(cost_machine_use_procs(&back, 2) != NULL);
    CHECK(back.levels_procs == 2 && !back.levels_oversubscribed && back.nlevels == 2);
    CHECK(back.levels[0].cluster == 2 && back.levels[0].g == 1e-9 && back.levels[0].L == 2e-6);
    CHECK(back.levels[1].cluster == 1 && back.levels[1].L == 1e-7);
    CHECK(cost_machine_use_procs(&back, 3) == NULL && back.levels_procs == 2); /* none of P = 3 */
    remove(path1);
    remove(path2);
}

/* bsp_hpput's g survives writing and reading, and sets the ratio at which
 * hpput bytes are charged; absent, the ratio is 1. */
static void machine_roundtrip_hpput(void)
{
    cost_machine m, back;
    load_machine("machine_hpput.json", &m);
    m.g_hpput = 1.0 / 3e9;
    char path[64];
    snprintf(path, sizeof path, "/tmp/test_cost_%ld_hp.json", (long)getpid());
    CHECK(cost_machine_write(path, &m, err, sizeof err) == 0);
    CHECK(cost_machine_read(path, &back, err, sizeof err) == 0);
    CHECK(back.g_hpput == m.g_hpput && back.hp_ratio == m.g_hpput / m.g);
    CHECK(strstr(slurp(path), "\"bsp_hpput\": {\"g\": ") != NULL);
    m.g_hpput = 0;
    CHECK(cost_machine_write(path, &m, err, sizeof err) == 0);
    CHECK(cost_machine_read(path, &back, err, sizeof err) == 0);
    CHECK(back.g_hpput == 0 && back.hp_ratio == 1 && strstr(slurp(path), "bsp_hpput") == NULL);
    remove(path);
}

static void machine_write_refuses_groups(void)
{
    cost_machine m;
    load_machine("machine_groups.json", &m);
    char path[64], want[256];
    snprintf(path, sizeof path, "/tmp/test_cost_badg_%ld.json", (long)getpid());

    cost_machine bad = m;
    bad.levels[1].g = 0;
    snprintf(want, sizeof want,
             "%s: field 'dbsp.levels[1].g': expected a number > 0 (nothing written)", path);
    expect_write_error(&bad, path, want);

    bad = m;
    bad.levels[1].level = 0;
    snprintf(want, sizeof want,
             "%s: field 'dbsp.levels[1].level': expected an integer > 0 (levels increase along "
             "the array) (nothing written)",
             path);
    expect_write_error(&bad, path, want);

    bad = m;
    bad.coll[1].f.c = -1e-9;
    snprintf(want, sizeof want,
             "%s: field 'ccm.collectives.allreduce.c': expected a number >= 0 (nothing written)",
             path);
    expect_write_error(&bad, path, want);

    bad = m;
    strcpy(bad.coll[0].name, "b cast");
    snprintf(
        want, sizeof want,
        "%s: field 'ccm.collectives': expected names of 1 to 47 letters, digits, '_', '-' or '.' "
        "(nothing written)",
        path);
    expect_write_error(&bad, path, want);

    bad = m;
    bad.rejoin.a = INFINITY;
    snprintf(want, sizeof want, "%s: field 'ccm.rejoin.a': expected a number (nothing written)",
             path);
    expect_write_error(&bad, path, want);
}

/* ---- trace file ---- */

static void trace_read_fields(void)
{
    cost_trace t;
    load_trace("two_pairs.jsonl", &t);
    CHECK(t.version == 1 && t.nprocs == 4 && t.first_step == 0 && t.nsteps == 2);
    CHECK(t.dropped == 0 && t.complete == 1 && t.reason[0] == '\0');
    SAME_STR(t.program, "two_pairs");
    SAME_STR(t.engine, "threads");
    /* Lines come grouped by pid; records are stored by (step, pid). */
    const cost_rec *r = cost_trace_rec(&t, 1, 2);
    CHECK(r->step == 1 && r->pid == 2 && r->nfrom == 1 && r->from[0] == 3);
    CHECK(r->bytes_out == 100000 && r->msgs_in == 10 && r->level == 0 && !cost_rec_declares(r));
    CHECK(r->w == 0.0001 && r->t_enter == 0.0013 && r->t_exit == 0.002);
    SAME_STR(r->kind, "normal");
    cost_trace_free(&t);
}

/* Steps 0, 1 and 3 complete, 2 missing: only the leading run 0-1 is kept, and
 * step 3 counts as dropped (a gap means the trace lost supersteps). A final
 * line without its newline is accepted when it is a complete object. */
static void trace_gap_and_last_line(void)
{
    cost_trace t;
    const char *text = HEADER REC(0, 0) REC(0, 1) REC(1, 1) REC(1, 0) REC(
        3, 0) "{\"step\":3,\"pid\":1,\"kind\":\"normal\",\"level\":2,\"w\":0,\"bytes_out\":0,"
              "\"msgs_out\":0,\"bytes_in\":0,\"msgs_in\":0,\"from\":[],\"t_enter\":0,\"t_exit\":0}";
    CHECK(read_text(text, &t) == 0);
    CHECK(t.first_step == 0 && t.nsteps == 2 && t.dropped == 1 && t.complete == 0);
    cost_trace_free(&t);
}

/* A long program path is kept readable, cut at a UTF-8 character boundary. */
static void trace_long_program(void)
{
    char text[2048], name[600];
    memset(name, 'a', 254);
    strcpy(name + 254, "\xc3\xa9tude"); /* "é" straddles byte 255 */
    snprintf(text, sizeof text,
             "{\"format\":\"polybsp-trace\",\"version\":1,\"nprocs\":1,\"engine\":\"e\","
             "\"program\":\"%s\"}\n" REC(0, 0),
             name);
    cost_trace t;
    CHECK(read_text(text, &t) == 0);
    CHECK(strlen(t.program) == 254);
    cost_trace_free(&t);
}

/* Group, op and line are kept; the processes' sequences have their own lengths. */
static void trace_read_groups(void)
{
    cost_trace t;
    load_trace("division.jsonl", &t);
    const cost_rec *r = cost_trace_rec(&t, 3, 2);
    SAME_STR(r->kind, "rejoin");
    SAME_STR(r->group, "1");
    SAME_STR(cost_rec_group(cost_trace_rec(&t, 0, 2)), "");
    CHECK(r->level == 1 && r->op == -1 && r->line == 16 && r->step == 3);
    CHECK(cost_trace_rec(&t, 4, 0) == NULL && cost_trace_rec(&t, 4, 2)->step == 4);
    const cost_group *top = t.root;
    CHECK(top->nmembers == 4 && top->nitems == 3 && top->items[0].cols[3] == 0);
    const cost_group *p1 = &top->items[1].parts[1];
    CHECK(p1->nmembers == 2 && p1->members[0] == 2 && p1->nitems == 3 && p1->rejoined);
    CHECK(top->items[2].cols[0] == 3 && top->items[2].cols[2] == 4);
    cost_trace_free(&t);
}

/* Each structural defect, with the line it is on and the line it contradicts. */
static void expect_trace_error(const char *text, const char *want)
{
    cost_trace t;
    CHECK(read_text(text, &t) == -1);
    SAME_STR(err, want);
    CHECK(t.recs == NULL && t.root == NULL);
}

#define PART0 GREC(0, 0, "partition", 0, "", "") GREC(0, 1, "partition", 0, "", "")

static void trace_structure_errors(void)
{
    expect_trace_error(HEADER PART0 GREC(1, 0, "normal", 0, "", "") GREC(1, 1, "normal", 0, "", ""),
                       "mem:4: field 'group': expected a group (line 2 ends a partition)");
    expect_trace_error(HEADER GREC(0, 0, "normal", 0, "", "") GREC(0, 1, "normal", 0, "", "")
                           GREC(1, 0, "rejoin", 1, G("0"), "") GREC(1, 1, "rejoin", 1, G("0"), ""),
                       "mem:4: field 'group': expected no group (no \"partition\" superstep comes "
                       "before it)");
    expect_trace_error(HEADER PART0 GREC(1, 0, "rejoin", 1, G("0"), "")
                           GREC(1, 1, "normal", 0, "", ""),
                       "mem:5: field 'group': expected a group (line 3 ends a partition)");
    expect_trace_error(HEADER GREC(0, 0, "normal", 0, "", "") GREC(0, 1, "normal", 0, "", "")
                           GREC(1, 0, "rejoin", 1, G("0"), "") GREC(1, 1, "normal", 0, "", ""),
                       "mem:5: field 'group': expected a group like pid 0's record of the same "
                       "superstep, line 4");
    expect_trace_error(HEADER PART0 GREC(1, 0, "normal", 1, G("0"), "")
                           GREC(1, 1, "normal", 1, G("0"), "") GREC(2, 0, "normal", 1, G("0"), "")
                               GREC(2, 1, "normal", 0, "", ""),
                       "mem:7: field 'group': expected \"0\" like pid 0's record of the same "
                       "superstep, line 6");
    expect_trace_error(HEADER PART0 GREC(1, 0, "normal", 0, "", "")
                           GREC(1, 1, "rejoin", 1, G("0"), ""),
                       "mem:4: field 'group': expected a group (line 2 ends a partition)");
    expect_trace_error(HEADER PART0 GREC(1, 0, "normal", 1, G("0"), "")
                           GREC(1, 1, "rejoin", 1, G("0"), ""),
                       "mem:5: field 'kind': expected \"normal\" like pid 0's record of the same "
                       "superstep, line 4");
    expect_trace_error(HEADER GREC(0, 0, "partition", 0, "", "") GREC(0, 1, "normal", 0, "", ""),
                       "mem:3: field 'kind': expected \"partition\" like pid 0's record of the "
                       "same superstep, line 2");
    expect_trace_error(HEADER GREC(0, 0, "rejoin", 0, "", "") GREC(0, 1, "rejoin", 0, "", ""),
                       "mem:2: field 'kind': expected no \"rejoin\" at the top level (it ends a "
                       "part of a partition)");
    expect_trace_error(HEADER PART0 GREC(1, 0, "normal", 1, G("0"), "")
                           GREC(1, 1, "normal", 1, G("0"), "") GREC(2, 0, "normal", 0, "", "")
                               GREC(2, 1, "normal", 0, "", ""),
                       "mem:6: field 'group': expected \"0\" or a part of it (the part's last "
                       "superstep, line 4, is not a \"rejoin\")");
    /* A division inside a part needs its own partition superstep. */
    expect_trace_error(HEADER PART0 GREC(1, 0, "normal", 1, G("0"), "")
                           GREC(1, 1, "normal", 1, G("0"), "") GREC(2, 0, "rejoin", 2, G("0/0"), "")
                               GREC(2, 1, "rejoin", 2, G("0/1"), ""),
                       "mem:6: field 'group': expected \"0\" (no \"partition\" superstep comes "
                       "before it)");
    /* Group paths: what the library's writer must produce. */
    static const char *const bad[] = {"/10", "01", "", "0/", "0//1", "a", "2147483648", "-1"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char text[1024];
        snprintf(text, sizeof text,
                 HEADER "{\"step\":0,\"pid\":0,\"kind\":\"normal\",\"level\":1,\"group\":\"%s\"}\n",
                 bad[i]);
        expect_trace_error(text, "mem:2: field 'group': expected a path of 1 to 255 part indices "
                                 "such as \"0/1\"");
    }
    expect_trace_error(HEADER "{\"step\":0,\"pid\":0,\"kind\":\"bcast\",\"level\":0,\"op\":-1}\n",
                       "mem:2: field 'op': expected an integer >= 0");
}

/* The deepest path accepted, and parts numbered up to INT_MAX. */
static void trace_group_limits(void)
{
    char text[4096], path[1024];
    size_t n = 0;
    for (int i = 0; i < COST_MAX_DEPTH; i++)
        n += (size_t)snprintf(path + n, sizeof path - n, i ? "/%d" : "%d", i % 10);
    snprintf(text, sizeof text,
             "{\"format\":\"polybsp-trace\",\"version\":1,\"nprocs\":1,\"engine\":\"e\","
             "\"program\":\"p\"}\n{\"step\":0,\"pid\":0,\"kind\":\"rejoin\",\"level\":255,"
             "\"group\":\"%s\",\"w\":0,\"bytes_out\":0,\"msgs_out\":0,\"bytes_in\":0,"
             "\"msgs_in\":0,\"from\":[],\"t_enter\":0,\"t_exit\":0}\n",
             path);
    cost_trace t;
    CHECK(read_text(text, &t) == 0);
    const cost_group *g = t.root;
    int depth = 0;
    while (g->nitems == 1 && g->items[0].nparts == 1) {
        g = &g->items[0].parts[0];
        depth++;
    }
    CHECK(depth == COST_MAX_DEPTH && g->rejoined);
    cost_trace_free(&t);
    CHECK(read_text(HEADER GREC(0, 0, "rejoin", 1, G("2147483647"), "")
                        GREC(0, 1, "rejoin", 1, G("0"), ""),
                    &t) == 0);
    SAME_STR(t.root->items[0].parts[1].path, "2147483647");
    cost_trace_free(&t);
}

/* Errors from the stream reader name the stream; the tool's tests cover each
 * message through files. */
static void trace_stream_error(void)
{
    cost_trace t;
    CHECK(read_text(HEADER REC(0, 0) REC(0, 0), &t) == -1);
    SAME_STR(err, "mem:3: duplicate record for step 0, pid 0 (first at line 2)");
    CHECK(t.recs == NULL && t.nsteps == 0);
}

/* The parser quotes the input near a syntax error; a newline there (found by
 * fuzz_machine, fuzz/corpus/machine/crash-1481...) must not split the message. */
static void machine_syntax_error_one_line(void)
{
    const char *text = "{\"host\": \"\\\n\"}";
    FILE *f = fmemopen((void *)text, strlen(text), "r");
    cost_machine m;
    CHECK(cost_machine_read_stream(f, "mem", &m, err, sizeof err) == -1);
    fclose(f);
    SAME_STR(err, "mem:2: invalid JSON at column 0: invalid escape near '\"\\\\n'");
}

static const struct test_case cases[] = {
    {"fit_line_noise", fit_line_noise},
    {"fit_line_paper", fit_line_paper},
    {"fit_line_degenerate", fit_line_degenerate},
    {"errors_small_table", errors_small_table},
    {"median", median},
    {"machine_read_full", machine_read_full},
    {"machine_read_minimal", machine_read_minimal},
    {"machine_roundtrip", machine_roundtrip},
    {"machine_write_refuses", machine_write_refuses},
    {"machine_write_whole", machine_write_whole},
    {"machine_read_groups", machine_read_groups},
    {"machine_roundtrip_groups", machine_roundtrip_groups},
    {"machine_roundtrip_ccm_procs", machine_roundtrip_ccm_procs},
    {"machine_roundtrip_dbsp_procs", machine_roundtrip_dbsp_procs},
    {"machine_roundtrip_hpput", machine_roundtrip_hpput},
    {"machine_write_refuses_groups", machine_write_refuses_groups},
    {"machine_syntax_error_one_line", machine_syntax_error_one_line},
    {"trace_read_fields", trace_read_fields},
    {"trace_gap_and_last_line", trace_gap_and_last_line},
    {"trace_long_program", trace_long_program},
    {"trace_read_groups", trace_read_groups},
    {"trace_structure_errors", trace_structure_errors},
    {"trace_group_limits", trace_group_limits},
    {"trace_stream_error", trace_stream_error},
};

CHECK_MAIN(cases)
