/* test_dbsp — D-BSP (paper 002, section 3; paper 003, section 3.2) on
 * hand-built traces: the labels from the binary decomposition, the lockstep
 * sum of the slowest clusters, the levels found by cluster size, and what
 * cost_model_check says. Usage and conventions: check.h. */
#include "check.h"

/* A top-level record of a superstep of work w that sends and receives `bytes`
 * in one message each way, from the processes listed in `from` ("" for none). */
#define XREC(step, pid, w, bytes, from)                                                            \
    "{\"step\":" #step ",\"pid\":" #pid ",\"kind\":\"normal\",\"level\":0,\"w\":" #w               \
    ",\"bytes_out\":" #bytes ",\"msgs_out\":1,\"bytes_in\":" #bytes                                \
    ",\"msgs_in\":1,\"from\":[" from "],\"t_enter\":0,\"t_exit\":0}\n"
#define HEADER4                                                                                    \
    "{\"format\":\"polybsp-trace\",\"version\":1,\"nprocs\":4,\"engine\":\"e\",\"program\":\"p\"}" \
    "\n"

/* A machine of 4 processes: level 0 (clusters of 4) g 1e-9, ℓ 1e-5; level 1
 * (clusters of 2) g 5e-10, ℓ 4e-6; level 2 (clusters of 1) ℓ 1e-6. */
static void machine4(cost_machine *m)
{
    load_machine("machine_groups.json", m);
    CHECK(m->nlevels == 3 && m->levels[2].cluster == 1 && m->levels[2].g == 0);
}

/* Paper 002: C_j^(log p) = {j} and C_j^(i) = C_2j^(i+1) ∪ C_2j+1^(i+1). For P
 * = 4 the 1-clusters are {0,1} and {2,3}; for P = 6 (split as bsp_partition
 * splits: the first half gets ceil(n/2)) {0,1,2} and {3,4,5}, then {0,1}, {2},
 * {3,4}, {5}; a process alone is at level ceil(log2 P). */
static void dbsp_pair_levels(void)
{
    CHECK(cost_dbsp_pair_level(4, 0, 1) == 1 && cost_dbsp_pair_level(4, 3, 2) == 1);
    CHECK(cost_dbsp_pair_level(4, 1, 2) == 0 && cost_dbsp_pair_level(4, 0, 3) == 0);
    CHECK(cost_dbsp_pair_level(4, 2, 2) == 2);
    CHECK(cost_dbsp_pair_level(8, 4, 6) == 1 && cost_dbsp_pair_level(8, 6, 7) == 2);
    CHECK(cost_dbsp_pair_level(8, 5, 5) == 3);
    CHECK(cost_dbsp_pair_level(6, 0, 1) == 2 && cost_dbsp_pair_level(6, 0, 2) == 1);
    CHECK(cost_dbsp_pair_level(6, 3, 4) == 2 && cost_dbsp_pair_level(6, 4, 5) == 1);
    CHECK(cost_dbsp_pair_level(6, 2, 3) == 0 && cost_dbsp_pair_level(6, 2, 2) == 3);
    CHECK(cost_dbsp_pair_level(3, 0, 1) == 1 && cost_dbsp_pair_level(3, 1, 2) == 0);
    CHECK(cost_dbsp_pair_level(1, 0, 0) == 0);
    CHECK(cost_dbsp_cluster(4, 0) == 4 && cost_dbsp_cluster(4, 1) == 2);
    CHECK(cost_dbsp_cluster(4, 2) == 1 && cost_dbsp_cluster(6, 2) == 2);
}

/* A butterfly on 4 processes, each superstep W 1 ms:
 * step 0 exchanges 1000 bytes with pid^1: label 1, h = in + out = 2000:
 *   0.001 + 5e-10·2000 + 4e-6 = 0.001005;
 * step 1 with pid^2: label 0: 0.001 + 1e-9·2000 + 1e-5 = 0.001012;
 * step 2 exchanges nothing: label 2 (clusters of one): 0.001 + 1e-6 = 0.001001.
 * Total 0.003018: so --dbsp-label traffic. By default the label's cluster
 * also holds the group, which synchronises: every superstep of the whole
 * group is at level 0: 0.001012, 0.001012, 0.00101 = 0.003034, BSP's figure. */
static void dbsp_butterfly_labels(void)
{
    cost_trace t;
    cost_machine m;
    machine4(&m);
    CHECK(read_text(HEADER4 XREC(0, 0, 0.001, 1000, "1") XREC(0, 1, 0.001, 1000, "0")
                        XREC(0, 2, 0.001, 1000, "3") XREC(0, 3, 0.001, 1000, "2")
                            XREC(1, 0, 0.001, 1000, "2") XREC(1, 1, 0.001, 1000, "3")
                                XREC(1, 2, 0.001, 1000, "0") XREC(1, 3, 0.001, 1000, "1")
                                    XREC(2, 0, 0.001, 0, "") XREC(2, 1, 0.001, 0, "")
                                        XREC(2, 2, 0.001, 0, "") XREC(2, 3, 0.001, 0, ""),
                    &t) == 0);
    const cost_group *g = t.root;
    CHECK(cost_dbsp_label(&t, g, &g->items[0], COST_DBSP_TRAFFIC) == 1);
    CHECK(cost_dbsp_label(&t, g, &g->items[1], COST_DBSP_TRAFFIC) == 0);
    CHECK(cost_dbsp_label(&t, g, &g->items[2], COST_DBSP_TRAFFIC) == 2);
    CHECK(cost_dbsp_label(&t, g, &g->items[0], 0) == 0);
    expect_model(COST_DBSP, &t, &m, COST_DBSP_TRAFFIC, (double[]){0.001005, 0.001012, 0.001001},
                 0.003018);
    expect_model(COST_DBSP, &t, &m, 0, (double[]){0.001012, 0.001012, 0.00101}, 0.003034);
    expect_model(COST_BSP, &t, &m, 0, (double[]){0.001012, 0.001012, 0.00101}, 0.003034);
    cost_trace_free(&t);
}

/* A record of W 1 ms that receives 1200 bytes, `in` (from_bytes) from the
 * processes `from`, and sends `out` bytes in two messages. */
#define BREC(step, pid, out, from, in)                                                             \
    "{\"step\":" #step ",\"pid\":" #pid ",\"kind\":\"normal\",\"level\":0,\"w\":0.001"             \
    ",\"bytes_out\":" #out ",\"msgs_out\":2,\"bytes_in\":1200,\"msgs_in\":2,\"from\":[" from       \
    "]" in ",\"t_enter\":0,\"t_exit\":0}\n"

/* The clusters' links (models.md, "D-BSP"): machine_groups.json, P = 4, g_0
 * 1e-9 (clusters of 4), g_1 5e-10 (clusters of 2), h = in + out. The clusters
 * below level 0 are {0,1} and {2,3} (level 1, crossing ⌊4/2⌋ = 2, the least
 * g above them min(g_0) = 1e-9) and the processes alone (level 2, crossing
 * 1, least g above min(g_0, g_1) = 5e-10). A cluster costs
 * max((B_in @ B_out)·least g above, (b_in @ b_out)·its parent's g) / crossing,
 * b the bytes between its parent's halves.
 * Step 0: every process sends 1000 bytes to pid^1 (level 1) and 200 to pid^2
 * (level 0), labelled 0. A process: B = 1200 + 1200 at 5e-10 = 1.2e-6, b
 * (its pair's level-1 bytes) 2000 at g_1 = 1e-6: 1.2e-6. {0,1}: B = b = 400
 * in + 400 out (the level-0 bytes), max(800·1e-9, 800·1e-9) / 2 = 4e-7. So
 * 1.2e-6: 0.001 + 1.2e-6 + ℓ_0 1e-5 = 0.0010112 (charging each process's h
 * at its bytes' own levels would say 1.4e-6; the paper's g_0·h 2.4e-6).
 * Step 1: the same, and pid 0 sends 500 bytes more that no receiver lists:
 * those cost its h at the label's g, 500·1e-9 = 5e-7, beside the clusters:
 * 0.0010112 again. Total 0.0020224, either label reading (the traffic's
 * cluster is the group's here). Without from_bytes (a trace written before
 * 2026-11-30) every byte takes the label's g as paper 002 charges a
 * 0-superstep: 0.001 + 1e-9·2400 + 1e-5 = 0.0010124, then with pid 0's h of
 * 2900: 0.0010129; total 0.0020253. */
static void dbsp_clusters_links(void)
{
#define STEP(s, out0, fb)                                                                          \
    BREC(s, 0, out0, "1,2", fb("1000,200"))                                                        \
    BREC(s, 1, 1200, "0,3", fb("1000,200"))                                                        \
    BREC(s, 2, 1200, "0,3", fb("200,1000")) BREC(s, 3, 1200, "1,2", fb("200,1000"))
#define FB(b) ",\"from_bytes\":[" b "]"
#define NONE(b) ""
    cost_trace t, old;
    cost_machine m;
    machine4(&m);
    CHECK(read_text(HEADER4 STEP(0, 1200, FB) STEP(1, 1700, FB), &t) == 0);
    CHECK(read_text(HEADER4 STEP(0, 1200, NONE) STEP(1, 1700, NONE), &old) == 0);
#undef STEP
#undef FB
#undef NONE
    CHECK(cost_dbsp_label(&t, t.root, &t.root->items[0], COST_DBSP_TRAFFIC) == 0);
    expect_model(COST_DBSP, &t, &m, 0, (double[]){0.0010112, 0.0010112}, 0.0020224);
    expect_model(COST_DBSP, &t, &m, COST_DBSP_TRAFFIC, (double[]){0.0010112, 0.0010112}, 0.0020224);
    expect_model(COST_DBSP, &old, &m, 0, (double[]){0.0010124, 0.0010129}, 0.0020253);
    cost_trace_free(&t);
    cost_trace_free(&old);
}

/* A record of W 1 ms that sends `out` bytes and receives `in` from the
 * processes `from`, in bytes `fb` each. */
#define LREC(pid, out, in, from, fb)                                                               \
    "{\"step\":0,\"pid\":" #pid ",\"kind\":\"normal\",\"level\":0,\"w\":0.001,\"bytes_out\":" #out \
    ",\"msgs_out\":1,\"bytes_in\":" #in ",\"msgs_in\":1,\"from\":[" from "],\"from_bytes\":[" fb   \
    "],\"t_enter\":0,\"t_exit\":0}\n"

/* A process that crosses alone (machine_groups.json as above): pid 0 sends
 * 1000 bytes to pid 2 (level 0), nobody else sends. pid 0 and pid 2 alone:
 * 1000 at 5e-10 = 5e-7 (b: none, level 0's bytes cross {0,1}'s parent);
 * {0,1} and {2,3}: max(1000·1e-9, 1000·g_0 1e-9) / 2 = 5e-7. So 0.001 + 5e-7
 * + 1e-5 = 0.0010105: the link of {0,1} carried two processes' bytes in g_0's
 * pattern and carries one's here (the paper's g_0·h says 1e-6). Both halves
 * sending (pid 1 to pid 3 as well): {0,1} carries 2000, 2000·1e-9 / 2 = 1e-6:
 * 0.001011, g_0·h to the letter. */
static void dbsp_lone_crossing(void)
{
    cost_trace alone, both;
    cost_machine m;
    machine4(&m);
    CHECK(read_text(HEADER4 LREC(0, 1000, 0, "", "") LREC(1, 0, 0, "", "")
                        LREC(2, 0, 1000, "0", "1000") LREC(3, 0, 0, "", ""),
                    &alone) == 0);
    CHECK(read_text(HEADER4 LREC(0, 1000, 0, "", "") LREC(1, 1000, 0, "", "")
                        LREC(2, 0, 1000, "0", "1000") LREC(3, 0, 1000, "1", "1000"),
                    &both) == 0);
    expect_model(COST_DBSP, &alone, &m, 0, (double[]){0.0010105}, 0.0010105);
    expect_model(COST_DBSP, &both, &m, 0, (double[]){0.001011}, 0.001011);
    cost_trace_free(&alone);
    cost_trace_free(&both);
}

/* Two parts of one process each: part 0 works 10 s then 1 s (its rejoin), part
 * 1 works 1 s then 10 s. D-BSP runs the parts' k-th supersteps together and
 * charges each the slower part: max(10, 1) + max(1, 10) = 20 (a model that let
 * each part run on its own clock would say 11). Level 1 (clusters of one)
 * costs nothing here, so the partition superstep is 0 (labelled by its
 * traffic alone, --dbsp-label traffic; by the group it is level 0's 0.5). */
static void dbsp_lockstep_twenty(void)
{
    const char *text = HEADER GREC(0, 0, "partition", 0, "", "") GREC(
        0, 1, "partition", 0, "",
        "") "{\"step\":1,\"pid\":0,\"kind\":\"normal\",\"level\":1,\"group\":\"0\",\"w\":10,"
            "\"bytes_out\":0,\"msgs_out\":0,\"bytes_in\":0,\"msgs_in\":0,\"from\":[],\"t_enter\":0,"
            "\"t_exit\":0}\n"
            "{\"step\":2,\"pid\":0,\"kind\":\"rejoin\",\"level\":1,\"group\":\"0\",\"w\":1,"
            "\"bytes_out\":0,\"msgs_out\":0,\"bytes_in\":0,\"msgs_in\":0,\"from\":[],\"t_enter\":0,"
            "\"t_exit\":0}\n"
            "{\"step\":1,\"pid\":1,\"kind\":\"normal\",\"level\":1,\"group\":\"1\",\"w\":1,"
            "\"bytes_out\":0,\"msgs_out\":0,\"bytes_in\":0,\"msgs_in\":0,\"from\":[],\"t_enter\":0,"
            "\"t_exit\":0}\n"
            "{\"step\":2,\"pid\":1,\"kind\":\"rejoin\",\"level\":1,\"group\":\"1\",\"w\":10,"
            "\"bytes_out\":0,\"msgs_out\":0,\"bytes_in\":0,\"msgs_in\":0,\"from\":[],\"t_enter\":0,"
            "\"t_exit\":0}\n";
    cost_trace t;
    cost_machine m;
    CHECK(read_text(text, &t) == 0);
    load_machine("machine_max.json", &m);
    m.levels[0] = (cost_level){0, 2, 1e-9, 0.5, 0, 0};
    m.levels[1] = (cost_level){1, 1, 0, 0, 0, 0};
    m.nlevels = 2;
    expect_model(COST_DBSP, &t, &m, COST_DBSP_TRAFFIC, (double[]){0, 10, 10}, 20);
    cost_trace_free(&t);
}

/* division.jsonl (test_ccm.c has its story), labelled by traffic alone, lockstep;
 * machine_groups.json's levels 0 (clusters of 4: partition 2e-5, rejoin
 * 1.5e-5) and 1 (clusters of 2) synchronise the division's own supersteps in
 * place of ℓ; the trace has no from_bytes, so every byte is at its label's g:
 * 0: the partition of 4, W 0.001 (pid 0), h 3000: 0.001 + 3e-6 + 2e-5 = 0.001023;
 * 1: part 0's exchange 0 <-> 1 (label 1, W 0.002, h 1000: 0.002 + 5e-7 + 4e-6 =
 *    0.0020045) beside part 1's 2 <-> 3 (label 1, W 0.001, h 4000: 0.001006):
 *    0.0020045;
 * 2: part 0's rejoin into the 4 (W 0.0001 + 1.5e-5) beside part 1's second
 *    superstep (label 2, 0.003 + 1e-6): 0.003001;
 * 3: part 1's rejoin, 2 -> 3 100 bytes (label 1): 0.0002 + 5e-8 + 1.5e-5 = 0.00021505;
 * 4: the last superstep of all, no traffic: 0.0005 + 1e-6 = 0.000501.
 * Clocks 0.001023, 0.0030275, 0.0060285, 0.00624355, 0.00674455. Columns: pid
 * 0 is at lockstep superstep 4 in its column 3, so M_3 = 0.00674455: per
 * column 0.001023, 0.0020045, 0.003001, 0.00071605, 0. */
static void dbsp_division(void)
{
    cost_trace t;
    cost_machine m;
    load_trace("division.jsonl", &t);
    machine4(&m);
    expect_model(COST_DBSP, &t, &m, COST_DBSP_TRAFFIC,
                 (double[]){0.001023, 0.0020045, 0.003001, 0.00071605, 0}, 0.00674455);
    cost_trace_free(&t);
}

/* bcast.jsonl (test_ccm.c): a binomial broadcast shows its locality.
 * 0: no traffic: label 2, 0.001 + 1e-6 = 0.001001;
 * 1: 0 -> 2: label 0, W 0.0004, h 1000: 0.0004 + 1e-6 + 1e-5 = 0.000411;
 * 2: 0 -> 1 and 2 -> 3: label 1, W 0, h 1000: 5e-7 + 4e-6 = 4.5e-6;
 * 3: 0 -> 1, 2, 3: label 0, W 0.0002, h 30: 0.0002 + 3e-8 + 1e-5 = 0.00021003;
 * 4: no traffic: 0.0003 + 1e-6 = 0.000301. Total 0.00192753. */
static void dbsp_bcast(void)
{
    cost_trace t;
    cost_machine m;
    load_trace("bcast.jsonl", &t);
    machine4(&m);
    expect_model(COST_DBSP, &t, &m, COST_DBSP_TRAFFIC,
                 (double[]){0.001001, 0.000411, 4.5e-6, 0.00021003, 0.000301}, 0.00192753);
    cost_trace_free(&t);
}

/* nested.jsonl (test_ccm.c), P = 2, no traffic: every superstep is at level 1
 * (clusters of one process), which a trace of 2 processes finds as the
 * machine's clusters of 1 (its level 2): W 0.001 + 1e-6 = 0.001001, but the
 * division of the two and the rejoin into them synchronise as the machine's
 * clusters of 2 (level 1: partition 6e-6, rejoin 5e-6) did; a cluster of one
 * process has no such times and divides as any superstep. Lockstep 0: the
 * partition of 2 (0.001006); 1: part "0"'s partition of 1 (0.001001) beside
 * part "1"'s rejoin into 2 (0.001005): 0.001005; 2: "0/0" rejoins into 1
 * (0.001001); 3: "0" rejoins into 2 (0.001005); 4: the last (0.001001):
 * 0.005018; pid 1's column 2 is lockstep superstep 4 (--dbsp-label traffic):
 * 0.001001 + 0.001005 + 0.001001 = 0.003007. By default the last superstep
 * of both processes is at level 0 (clusters of 2, the machine's level 1:
 * 0.001 + 4e-6 = 0.001004): 0.005021. */
static void dbsp_nested_by_cluster(void)
{
    cost_trace t;
    cost_machine m;
    load_trace("nested.jsonl", &t);
    machine4(&m);
    CHECK(cost_dbsp_level(&m, 2, 1) == &m.levels[2] && cost_dbsp_level(&m, 2, 0) == &m.levels[1]);
    expect_model(COST_DBSP, &t, &m, COST_DBSP_TRAFFIC,
                 (double[]){0.001006, 0.001005, 0.003007, 0, 0}, 0.005018);
    expect_model(COST_DBSP, &t, &m, 0, (double[]){0.001006, 0.001005, 0.00301, 0, 0}, 0.005021);
    cost_trace_free(&t);
}

/* A machine file without clusters of one process (written before the probe
 * measured level log2 P) cannot serve a superstep without traffic. */
static void dbsp_check_messages(void)
{
    cost_trace t;
    cost_machine old, none;
    load_machine("machine_levels_old.json", &old);
    load_machine("machine_max.json", &none);
    load_trace("nested.jsonl", &t);
    CHECK(cost_model_check(COST_DBSP, &t, &old, COST_DBSP_TRAFFIC, "nested.jsonl", "m.json", err,
                           sizeof err) == -1);
    SAME_STR(err, "m.json: field 'dbsp.levels': no clusters of 1 process (needed by --model dbsp "
                  "for nested.jsonl:2, a superstep at level 1 of 2 processes: run polybsp "
                  "probe again, which measures levels 0 to log2 P)");
    CHECK(isnan(cost_predict(COST_DBSP, &t, &old, COST_DBSP_TRAFFIC, NULL)));
    /* By default (the group reading) the top-level supersteps are at level 0
     * (clusters of 2), which the file has, but the parts' are not. */
    CHECK(cost_model_check(COST_DBSP, &t, &old, 0, "nested.jsonl", "m.json", err, sizeof err) ==
          -1);
    SAME_STR(err, "m.json: field 'dbsp.levels': no clusters of 1 process (needed by --model dbsp "
                  "for nested.jsonl:3, a superstep at level 1 of 2 processes: run polybsp "
                  "probe again, which measures levels 0 to log2 P)");
    CHECK(cost_model_check(COST_DBSP, &t, &none, 0, "nested.jsonl", "n.json", err, sizeof err) ==
          -1);
    SAME_STR(err, "n.json: field 'dbsp': missing (needed by --model dbsp)");
    cost_trace_free(&t);
}

static const struct test_case cases[] = {
    {"dbsp_pair_levels", dbsp_pair_levels},
    {"dbsp_butterfly_labels", dbsp_butterfly_labels},
    {"dbsp_clusters_links", dbsp_clusters_links},
    {"dbsp_lone_crossing", dbsp_lone_crossing},
    {"dbsp_lockstep_twenty", dbsp_lockstep_twenty},
    {"dbsp_division", dbsp_division},
    {"dbsp_bcast", dbsp_bcast},
    {"dbsp_nested_by_cluster", dbsp_nested_by_cluster},
    {"dbsp_check_messages", dbsp_check_messages},
};

CHECK_MAIN(cases)
