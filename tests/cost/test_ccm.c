/* test_ccm — the Collective Computing Model (paper 001, section 2) on
 * hand-built traces, its checks, and the calibration of its cost functions
 * (samples from a trace, the constrained piecewise-linear fit). Usage and
 * conventions: check.h. */
#include "check.h"

/* machine_groups.json: g = 1e-9, L = 1e-5, h = in + out; CCM T = a + b·ceil(log2 P) + c·h with
 * bcast (2e-6, 3e-6, 1e-9), allreduce (1e-6, 5e-6, 2e-9), par (1e-6, 0, 1e-9),
 * partition (3e-6, 1e-6, 1e-9), rejoin (2e-6, 1e-6, 1e-9); its D-BSP levels 0
 * (clusters of 4) and 1 (of 2) have the probe's partition 2e-5 and 6e-6 and
 * rejoin 1.5e-5 and 5e-6. machine_groups_fn.json: the same without those
 * times (a file of before 2026-11-30): CCM's divisions by its functions alone,
 * as paper 001 writes them (the division cases below but the last). */

/* division.jsonl: 4 processes; step 0 ends in bsp_partition (pid 0 works 1 ms and
 * sends 1000 bytes to each other, the others work 0.5 ms); part 0 = {0,1} runs
 * one exchange superstep (W 2 ms, 500 bytes each way) and its rejoin (W 0.1 ms);
 * part 1 = {2,3} runs two supersteps (W 1 ms with 2000 bytes each way, then W
 * 3 ms) and its rejoin (W 0.2 ms, 2 sends 100 bytes to 3); then one superstep of
 * all (W 0.5 ms). Part 1 is the slower part although part 0 has the heavier
 * first superstep.
 * CCM: partition: 0.001 + T_part(4, 3000) = 0.001 + 3e-6 + 2e-6 + 3e-6 = 0.001008.
 *   part 0: 0.002 + 1e-9·1000 + 1e-5 = 0.002011 -> 0.003019; rejoin W -> 0.003119.
 *   part 1: 0.001 + 4e-6 + 1e-5 = 0.001014 -> 0.002022; 0.003 + 1e-5 -> 0.005032;
 *           rejoin W 0.0002 -> 0.005232 (the max part).
 *   T_rejoin(4, 100) = 2e-6 + 2e-6 + 1e-7 = 4.1e-6 -> 0.0052361; last step
 *   0.0005 + 1e-5 -> 0.0057461.
 *   Columns (each process's k-th superstep), the running maximum of the clocks:
 *   0.001008, 0.003019, 0.0052361 (part 0's rejoin ends with the slowest part),
 *   0.0057461, 0.0057461 -> 0.001008, 0.002011, 0.0022171, 0.00051, 0.
 * BSP sees columns: 0.001013; W 0.002, h 4000: 0.002014; W 0.003: 0.00301;
 *   W 0.0005, h 100: 0.0005101; 0.00051 -> 0.0070571, charging both parts. */
static void model_ccm_division(void)
{
    cost_trace t;
    cost_machine m;
    load_trace("division.jsonl", &t);
    load_machine("machine_groups_fn.json", &m);
    CHECK(t.nsteps == 5 && cost_trace_len(&t, 0) == 4 && cost_trace_len(&t, 3) == 5);
    CHECK(t.dropped == 0 && t.same_start);
    expect_model(COST_REAL, &t, &m, 0, (double[]){0.00102, 0.00202, 0.00224, 0.00052, 0}, 0.0058);
    expect_model(COST_CCM, &t, &m, 0, (double[]){0.001008, 0.002011, 0.0022171, 0.00051, 0},
                 0.0057461);
    expect_model(COST_BSP, &t, &m, 0, (double[]){0.001013, 0.002014, 0.00301, 0.0005101, 0.00051},
                 0.0070571);
    /* The max of the parts, not their sum: part 0 alone would end at 0.003119. */
    CHECK(cost_predict(COST_CCM, &t, &m, 0, NULL) < 0.001008 + 0.002111 + 0.004224 + 0.0052361);
    cost_trace_free(&t);
}

/* division.jsonl on machine_groups.json, whose levels have the probe's times
 * of each division (a departure, docs/models.md "Divisions measured"): the
 * measured time stands for T(n, 0), the function adds the bytes.
 * Partition of {0..3} (level 0, 2e-5): 2e-5 + T_part(4, 3000) - T_part(4, 0)
 *   = 2e-5 + 3e-6 = 2.3e-5 -> 0.001023.
 *   part 0: + 0.002011 -> 0.003034; rejoin W -> 0.003134.
 *   part 1: 0.001023 + 0.001014 -> 0.002037; + 0.00301 -> 0.005047; rejoin W
 *           0.0002 -> 0.005247 (the max part).
 *   T_rejoin of {0..3} (level 0, 1.5e-5) with h 100: 1.5e-5 + 1e-7 = 1.51e-5
 *   -> 0.0052621; last step 0.00051 -> 0.0057721.
 *   Columns: 0.001023, 0.003034 - 0.001023 = 0.002011, 0.0052621 - 0.003034 =
 *   0.0022281, 0.00051, 0. */
static void model_ccm_division_measured(void)
{
    cost_trace t;
    cost_machine m;
    load_trace("division.jsonl", &t);
    load_machine("machine_groups.json", &m);
    expect_model(COST_CCM, &t, &m, 0, (double[]){0.001023, 0.002011, 0.0022281, 0.00051, 0},
                 0.0057721);
    cost_trace_free(&t);
}

/* bcast.jsonl: 4 processes; a plain superstep (W 1 ms), a binomial bcast of 1000
 * bytes over two supersteps (op 0: 0 -> 2, then 0 -> 1 and 2 -> 3; pid 0 worked
 * 0.4 ms before it), a one-superstep bcast (op 1: 0 sends 10 bytes to each, W
 * 0.2 ms), a plain superstep (W 0.3 ms).
 * CCM: 0.001 + 1e-5 = 0.00101. bcast op 0, charged once on its last superstep:
 *   h = max_i max(in_i, out_i) over both supersteps = pid 0's 2000 out;
 *   T_bcast(4, 2000) = 2e-6 + 2·3e-6 + 2e-6 = 1e-5, + W 0.0004 = 0.00041.
 *   bcast op 1 (another op: another bcast): 0.0002 + 8e-6 + 3e-8 = 0.00020803.
 *   0.0003 + 1e-5 = 0.00031. Total 0.00193803.
 * BSP: 0.00101; 0.0004 + 1e-6 + 1e-5 = 0.000411; 0 + 1e-6 + 1e-5 = 0.000011;
 *   0.0002 + 3e-8 + 1e-5 = 0.00021003; 0.00031 -> 0.00195203. */
static void model_ccm_bcast(void)
{
    cost_trace t;
    cost_machine m;
    load_trace("bcast.jsonl", &t);
    load_machine("machine_groups.json", &m);
    CHECK(cost_trace_rec(&t, 2, 0)->op == 0 && cost_trace_rec(&t, 3, 0)->op == 1);
    CHECK(cost_trace_rec(&t, 0, 0)->op == -1);
    expect_model(COST_CCM, &t, &m, 0, (double[]){0.00101, 0, 0.00041, 0.00020803, 0.00031},
                 0.00193803);
    double bsp[] = {0.00101, 0.000411, 0.000011, 0.00021003, 0.00031};
    expect_model(COST_BSP, &t, &m, 0, bsp, 0.00195203);
    cost_trace_free(&t);
}

/* bcast_alg.jsonl: bcast.jsonl with op 0's records saying "alg":"binomial"
 * (the caller named the algorithm). machine_ccm_alg.json: machine_groups.json
 * with bcast.binomial (1e-6, 1e-6, 2e-9). Op 0 is charged its algorithm's T:
 * T_bcast.binomial(4, 2000) = 1e-6 + 2·1e-6 + 4e-6 = 7e-6, + W 0.0004 =
 * 0.000407; op 1 names none and keeps bcast's 0.00020803. Total 0.00193503.
 * A file without bcast.binomial (machine_groups.json) charges op 0 as any
 * bcast: the totals of model_ccm_bcast. The samples name op 0
 * "bcast.binomial", so the probe fits it apart. */
static void model_ccm_bcast_alg(void)
{
    cost_trace t;
    cost_machine m;
    load_trace("bcast_alg.jsonl", &t);
    SAME_STR(cost_trace_rec(&t, 2, 0)->alg, "binomial");
    SAME_STR(cost_trace_rec(&t, 3, 0)->alg, "");
    load_machine("machine_ccm_alg.json", &m);
    expect_model(COST_CCM, &t, &m, 0, (double[]){0.00101, 0, 0.000407, 0.00020803, 0.00031},
                 0.00193503);
    load_machine("machine_groups.json", &m);
    expect_model(COST_CCM, &t, &m, 0, (double[]){0.00101, 0, 0.00041, 0.00020803, 0.00031},
                 0.00193803);
    cost_ccm_sample s[4];
    CHECK(cost_ccm_samples(&t, s, 4) == 2);
    SAME_STR(s[0].kind, "bcast.binomial");
    SAME_STR(s[1].kind, "bcast");
    cost_trace_free(&t);
}

/* machine_ccm_procs.json: machine_ccm_alg.json with functions fitted at P = 4
 * alone (ccm.by_procs): bcast (5e-6, 0, 0), partition, rejoin. bcast_alg.jsonl
 * runs on 4 processes: op 0 (binomial) finds no bcast.binomial of P = 4 and
 * takes the one over all P, 0.000407 as above (the algorithm's function before
 * P's kind's); op 1, a plain bcast, takes P = 4's: 0.0002 + 5e-6 = 0.000205.
 * Total 0.00101 + 0.000407 + 0.000205 + 0.00031 = 0.001932. */
static void model_ccm_by_procs(void)
{
    cost_trace t;
    cost_machine m;
    load_trace("bcast_alg.jsonl", &t);
    load_machine("machine_ccm_procs.json", &m);
    CHECK(m.nccm_procs == 1 && m.ccm_procs[0].procs == 4 && !m.ccm_procs[0].oversubscribed);
    NEAR(cost_machine_ccm(&m, "bcast", 4)->a, 5e-6);
    NEAR(cost_machine_ccm(&m, "bcast", 2)->a, 2e-6); /* no P = 2 fit: the one over all P */
    NEAR(cost_machine_ccm(&m, "rejoin", 4)->a, 4e-6);
    NEAR(cost_machine_ccm(&m, "rejoin", 8)->a, 2e-6);
    CHECK(cost_machine_ccm(&m, "scan", 4) == NULL);
    expect_model(COST_CCM, &t, &m, 0, (double[]){0.00101, 0, 0.000407, 0.000205, 0.00031},
                 0.001932);
    cost_trace_free(&t);
}

/* Paper 001 charges each communication pattern f its own T_f (by default;
 * with COST_CCM_PLAIN_BSP CCM charges BSP's line). hrel.jsonl:
 * four plain supersteps of 4 processes, W 1 ms each, on machine_ccm_hrel.json
 * (machine_groups.json with hrel.pingpong (2e-6, 0, 3e-9) and hrel.exchange
 * (1e-6, 0, 1e-9)):
 *   0: 0 -> 1 and 2 -> 3, 1000 bytes: a ping-pong, h = max_i max(in, out) =
 *      1000: 0.001 + 2e-6 + 3e-6 = 0.001005;
 *   1: 0 <-> 1 and 2 <-> 3, 500 bytes each way: an exchange, h = 500:
 *      0.001 + 1e-6 + 5e-7 = 0.0010015;
 *   2: 0 -> 1 and 0 -> 2, 300 bytes each: no pattern, BSP: h = 600:
 *      0.001 + 6e-7 + 1e-5 = 0.0010106;
 *   3: 0 -> 1, 2, 3, 100 bytes each: a one-to-all, which the file has no
 *      function for: BSP, h = 300: 0.0010103. Total 0.0040274.
 * BSP charges 0 and 1 alike (h = 1000 with in + out): 0.001011 each, total
 * 0.0040429. The samples the probe would fit: the pattern supersteps only,
 * each from its last t_enter to its last t_exit (1 ms). */
static void model_ccm_patterns(void)
{
    cost_trace t;
    cost_machine m;
    load_trace("hrel.jsonl", &t);
    load_machine("machine_ccm_hrel.json", &m);
    expect_model(COST_CCM, &t, &m, 0, (double[]){0.001005, 0.0010015, 0.0010106, 0.0010103},
                 0.0040274);
    expect_model(COST_BSP, &t, &m, 0, (double[]){0.001011, 0.001011, 0.0010106, 0.0010103},
                 0.0040429);
    NEAR(cost_predict(COST_CCM, &t, &m, COST_CCM_PLAIN_BSP, NULL), 0.0040429);
    cost_ccm_sample s[4];
    CHECK(cost_ccm_samples(&t, s, 4) == 3);
    static const char *const kinds[] = {"hrel.pingpong", "hrel.exchange", "hrel.onetoall"};
    static const double h[] = {1000, 500, 300};
    for (int i = 0; i < 3; i++) {
        SAME_STR(s[i].kind, kinds[i]);
        CHECK(s[i].P == 4 && s[i].h == h[i]);
        NEAR(s[i].time, 0.001);
    }
    /* Without the functions (a file probed before them), every plain
     * superstep is BSP's. */
    load_machine("machine_groups.json", &m);
    NEAR(cost_predict(COST_CCM, &t, &m, 0, NULL), 0.0040429);
    cost_trace_free(&t);
}

/* A dense relation (more than half of the n(n−1) ordered pairs communicate)
 * is charged the all-to-all's function at the members' mean h, and is no
 * sample of it. hrel_dense.jsonl, P = 4, W 1 ms each, on
 * machine_ccm_hrel_a2a.json (machine_ccm_hrel.json with hrel.alltoall (4e-6,
 * 0, 2e-9); BSP g 1e-9, L 1e-5, @ = sum):
 *   0: 0 -> 1, 2; 1 -> 0, 2; 2 -> 0, 1, 200 bytes each; 3 -> 0, 1, 2, 100
 *      each: 9 of 12 pairs (3 hears from nobody, as some processes in
 *      multisearch's query supersteps): dense; max(in, out) is 500 for 0, 1
 *      and 2 (in 200 + 200 + 100) and 300 for 3, mean h = 450: 0.001 + 4e-6
 *      + 9e-7 = 0.0010049 (BSP: h = 900, 0.0010109);
 *   1: a ring, j sends 300 to j+1: 4 pairs, and no swap: BSP's line, h = 600,
 *      0.0010106;
 *   2: 0 -> 1, 2; 1 -> 2, 3; 2 -> 3; 3 -> 0, 100 bytes each: 6 pairs, half,
 *      not more: BSP's line, h = 300, 0.0010103.
 * CCM 0.0030258, BSP 0.0030318; the probe would fit no sample of these. */
static void model_ccm_dense(void)
{
    cost_trace t;
    cost_machine m;
    load_trace("hrel_dense.jsonl", &t);
    load_machine("machine_ccm_hrel_a2a.json", &m);
    expect_model(COST_CCM, &t, &m, 0, (double[]){0.0010049, 0.0010106, 0.0010103}, 0.0030258);
    expect_model(COST_BSP, &t, &m, 0, (double[]){0.0010109, 0.0010106, 0.0010103}, 0.0030318);
    CHECK(cost_ccm_samples(&t, NULL, 0) == 0);
    cost_trace_free(&t);
}

/* Paper 000 fits g per pattern and per primitive (tables Π.1 and Π.2): CCM
 * weighs the bytes of a pattern superstep that bsp_hpput moved by that
 * pattern's g_hpput / g_put, a message's by the overall ratio.
 * machine_ccm_hrel_hp.json: machine_ccm_hrel.json with bsp_hpput g 5e-10
 * (overall ratio 0.5) and the fits put/hpput g: exchange 1e-9/2.5e-10 (0.25),
 * pingpong 2e-9/1.6e-9 (0.8). hrel_hp.jsonl, P = 4, W 1 ms each, 0 -> 1 and
 * 2 -> 3 (or both ways) in every superstep:
 *   0: 1000 bytes by hpput one way, a ping-pong: h = 0.8 * 1000 = 800,
 *      0.001 + 2e-6 + 3e-9 * 800 = 0.0010044;
 *   1: 500 by hpput each way, an exchange: h = 0.25 * 500 = 125,
 *      0.001 + 1e-6 + 1e-9 * 125 = 0.001001125;
 *   2: 1000 bytes of messages one way: h = 0.5 * 1000 = 500, 0.0010035;
 *   3: 600 by hpput and 400 by put one way: h = 0.8 * 600 + 400 = 880,
 *      0.001 + 2e-6 + 2.64e-6 = 0.00100464. Total 0.004013665.
 * BSP keeps the overall ratio and in + out: h = 500, 500, 500, 700, each
 * 0.001 + 1e-9 * h + 1e-5: total 0.0040422. */
static void model_ccm_pattern_hpput(void)
{
    cost_trace t;
    cost_machine m;
    load_trace("hrel_hp.jsonl", &t);
    load_machine("machine_ccm_hrel_hp.json", &m);
    NEAR(cost_machine_hp_ratio(&m, COST_PINGPONG), 0.8);
    NEAR(cost_machine_hp_ratio(&m, COST_EXCHANGE), 0.25);
    NEAR(cost_machine_hp_ratio(&m, COST_ALLTOALL), 0.5); /* not measured: the overall ratio */
    expect_model(COST_CCM, &t, &m, 0, (double[]){0.0010044, 0.001001125, 0.0010035, 0.00100464},
                 0.004013665);
    expect_model(COST_BSP, &t, &m, 0, (double[]){0.0010105, 0.0010105, 0.0010105, 0.0010107},
                 0.0040422);
    cost_trace_free(&t);
}

/* The relation names the pattern, and an exchange's two ways must be within
 * a factor 2 of each other. relations3.jsonl (P = 3):
 * 0 and 1 swap with 2 left out (an exchange); everyone sends to everyone (an
 * all-to-all); 1 and 2 send to 0 (an all-to-one); 0 and 1 swap while 1 also
 * sends to 2 (none). relations2.jsonl (P = 2): 0 sends to 1 (a ping-pong),
 * then they swap 10 bytes each way (an exchange), then 1000 one way and 100
 * the other (none: BSP's line), then 100 and 60 (an exchange). */
static void relation_patterns(void)
{
    cost_trace t;
    cost_ccm_sample s[4];
    load_trace("relations3.jsonl", &t);
    CHECK(cost_ccm_samples(&t, s, 4) == 3);
    SAME_STR(s[0].kind, "hrel.exchange");
    SAME_STR(s[1].kind, "hrel.alltoall");
    SAME_STR(s[2].kind, "hrel.alltoone");
    cost_trace_free(&t);
    load_trace("relations2.jsonl", &t);
    CHECK(cost_ccm_samples(&t, s, 4) == 3);
    SAME_STR(s[0].kind, "hrel.pingpong");
    SAME_STR(s[1].kind, "hrel.exchange");
    SAME_STR(s[2].kind, "hrel.exchange");
    CHECK(s[2].h == 100);
    cost_trace_free(&t);
}

/* nested.jsonl: 2 processes, every superstep W 1 ms, no communication. Both
 * partition (level 0); pid 0's part "0" partitions again into the single part
 * "0/0" (level 2), which rejoins, then "0" rejoins; pid 1's part "1" only
 * rejoins; one last superstep of both.
 * CCM: 0.001 + T_part(2, 0) = 0.001 + 3e-6 + 1e-6 = 0.001004. Part "0": 0.001 +
 *   T_part(1, 0) = 3e-6 -> 0.002007; "0/0" rejoin W -> 0.003007, + T_rejoin(1, 0)
 *   = 2e-6 -> 0.003009; "0" rejoin W -> 0.004009. Part "1": rejoin W -> 0.002004.
 *   T_rejoin(2, 0) = 3e-6 -> 0.004012; last 0.00101 -> 0.005022.
 *   Columns: 0.001004, 0.004012 (pid 1 already rejoined), 0.005022, same, same. */
static void model_ccm_nested(void)
{
    cost_trace t;
    cost_machine m;
    load_trace("nested.jsonl", &t);
    load_machine("machine_groups_fn.json", &m);
    const cost_group *top = t.root;
    CHECK(top->nitems == 3 && top->items[1].nparts == 2 && top->items[1].cols == NULL);
    const cost_group *p0 = &top->items[1].parts[0];
    SAME_STR(p0->path, "0");
    CHECK(p0->nmembers == 1 && p0->members[0] == 0 && p0->nitems == 3 && p0->rejoined);
    SAME_STR(p0->items[1].parts[0].path, "0/0");
    SAME_STR(top->items[1].parts[1].path, "1");
    CHECK(top->items[1].parts[1].members[0] == 1 && cost_division_complete(&top->items[1]));
    expect_model(COST_CCM, &t, &m, 0, (double[]){0.001004, 0.003008, 0.00101, 0, 0}, 0.005022);
    cost_trace_free(&t);
}

/* The same division, but process 3 stopped before its second superstep in part
 * 1: that superstep and everything after it in part 1 and at the top is
 * dropped (steps 2, 3, 4). Part 0's rejoin was recorded, but the division never
 * ended: no T_rejoin, and CCM's total is where the slowest clock got: part 0's
 * 0.003119. */
static void model_ccm_aborted_division(void)
{
    char path[4096], text[16384];
    path_of(path, sizeof path, "division.jsonl");
    FILE *f = fopen(path, "r");
    size_t n = 0;
    char line[1024];
    while (f != NULL && fgets(line, sizeof line, f) != NULL)
        if (strstr(line, "\"pid\":3") == NULL || strstr(line, "\"step\":1,") != NULL ||
            strstr(line, "\"step\":0,") != NULL)
            n += (size_t)snprintf(text + n, sizeof text - n, "%s", line);
    if (f != NULL)
        fclose(f);
    FILE *mem = fmemopen(text, n, "r");
    cost_trace t;
    cost_machine m;
    CHECK(cost_trace_read_stream(mem, "mem", &t, err, sizeof err) == 0);
    fclose(mem);
    load_machine("machine_groups_fn.json", &m);
    CHECK(t.dropped == 3 && cost_trace_len(&t, 0) == 3 && cost_trace_len(&t, 2) == 2);
    CHECK(!cost_division_complete(&t.root->items[1]) && t.root->nitems == 2);
    expect_model(COST_CCM, &t, &m, 0, (double[]){0.001008, 0.002011, 0.0001}, 0.003119);
    cost_trace_free(&t);
}

/* A trace that starts inside a partition (bsp_trace_begin in the parts): the
 * division has no partition superstep, so no T_partition; pid 0's part rejoins
 * after W 1 ms, pid 1's after 2 ms: 0.002 + T_rejoin(2, 0) = 0.002003, then
 * 0.001 + 1e-5 -> 0.003013. */
static void model_ccm_started_inside(void)
{
    const char *text =
        "{\"format\":\"polybsp-trace\",\"version\":1,\"nprocs\":2,\"engine\":\"e\",\"program\":"
        "\"p\"}\n"
        "{\"step\":7,\"pid\":0,\"kind\":\"rejoin\",\"level\":1,\"group\":\"0\",\"w\":0.001,"
        "\"bytes_out\":0,\"msgs_out\":0,\"bytes_in\":0,\"msgs_in\":0,\"from\":[],\"t_enter\":1,"
        "\"t_exit\":1.002}\n"
        "{\"step\":9,\"pid\":1,\"kind\":\"rejoin\",\"level\":1,\"group\":\"1\",\"w\":0.002,"
        "\"bytes_out\":0,\"msgs_out\":0,\"bytes_in\":0,\"msgs_in\":0,\"from\":[],\"t_enter\":1,"
        "\"t_exit\":1.002}\n"
        "{\"step\":8,\"pid\":0,\"kind\":\"normal\",\"level\":0,\"w\":0.001,"
        "\"bytes_out\":0,\"msgs_out\":0,\"bytes_in\":0,\"msgs_in\":0,\"from\":[],\"t_enter\":1.003,"
        "\"t_exit\":1.004}\n"
        "{\"step\":10,\"pid\":1,\"kind\":\"normal\",\"level\":0,\"w\":0.001,"
        "\"bytes_out\":0,\"msgs_out\":0,\"bytes_in\":0,\"msgs_in\":0,\"from\":[],\"t_enter\":1.003,"
        "\"t_exit\":1.004}\n";
    cost_trace t;
    cost_machine m;
    CHECK(read_text(text, &t) == 0);
    load_machine("machine_groups_fn.json", &m);
    CHECK(t.first_step == 7 && !t.same_start && t.nsteps == 2);
    CHECK(t.root->nitems == 2 && t.root->items[0].nparts == 2);
    expect_model(COST_CCM, &t, &m, 0, (double[]){0.002003, 0.00101}, 0.003013);
    cost_trace_free(&t);
}

/* What cost_model_check says when a model cannot serve the files. */
static void model_check_messages(void)
{
    cost_trace t;
    cost_machine m, none;
    load_machine("machine_groups.json", &m);
    load_machine("machine_max.json", &none);
    load_trace("nested.jsonl", &t);
    CHECK(cost_model_check(COST_CCM, &t, &m, 0, "nested.jsonl", "m.json", err, sizeof err) == 0);
    CHECK(cost_model_check(COST_DBSP, &t, &none, 0, "nested.jsonl", "n.json", err, sizeof err) ==
          -1);
    SAME_STR(err, "n.json: field 'dbsp': missing (needed by --model dbsp)");
    CHECK(cost_model_check(COST_CCM, &t, &none, 0, "nested.jsonl", "n.json", err, sizeof err) ==
          -1);
    SAME_STR(err, "n.json: field 'ccm': missing (needed by --model ccm)");
    CHECK(cost_model_check(COST_BSPSTAR, &t, &none, 0, "nested.jsonl", "n.json", err, sizeof err) ==
          -1);
    SAME_STR(err, "n.json: field 'bspstar': missing (needed by --model bspstar)");
    CHECK(cost_model_check(COST_EBSP, &t, &none, 0, "nested.jsonl", "n.json", err, sizeof err) ==
          0);
    cost_trace_free(&t);

    load_trace("bcast.jsonl", &t);
    m.ncoll = 0;
    CHECK(cost_model_check(COST_CCM, &t, &m, 0, "bcast.jsonl", "m.json", err, sizeof err) == -1);
    SAME_STR(err, "m.json: field 'ccm.collectives.bcast': missing (needed by --model ccm for "
                  "bcast.jsonl:6, a bcast)");
    CHECK(isnan(cost_predict(COST_CCM, &t, &m, 0, NULL)));
    cost_trace_free(&t);

    /* Step 6: pid 0 is in a bcast, pid 1 in a plain superstep. */
    load_trace("midrun_aborted.jsonl", &t);
    load_machine("machine_groups.json", &m);
    CHECK(cost_model_check(COST_CCM, &t, &m, 0, "midrun_aborted.jsonl", "m.json", err,
                           sizeof err) == -1);
    SAME_STR(err, "midrun_aborted.jsonl:2: field 'kind': expected \"bcast\" like pid 0's record "
                  "of the same superstep, line 5 (needed by --model ccm)");
    cost_trace_free(&t);
}

/* Records that pull the processes of one superstep into different collectives. */
static void model_check_ops(void)
{
    cost_trace t;
    cost_machine m;
    load_machine("machine_groups.json", &m);
    /* pid 0 continues op 0; pid 1 starts op 1. */
    CHECK(read_text(HEADER GREC(0, 0, "bcast", 0, "", OP(0)) GREC(0, 1, "bcast", 0, "", OP(0))
                        GREC(1, 0, "bcast", 0, "", OP(0)) GREC(1, 1, "bcast", 0, "", OP(1)),
                    &t) == 0);
    CHECK(cost_model_check(COST_CCM, &t, &m, 0, "t", "m", err, sizeof err) == -1);
    SAME_STR(err, "t:5: field 'op': expected 0 as on line 3: pid 0's bcast goes on here (needed "
                  "by --model ccm)");
    cost_trace_free(&t);
    /* The other way round. */
    CHECK(read_text(HEADER GREC(0, 0, "bcast", 0, "", OP(0)) GREC(0, 1, "bcast", 0, "", OP(0))
                        GREC(1, 0, "bcast", 0, "", OP(1)) GREC(1, 1, "bcast", 0, "", OP(0)),
                    &t) == 0);
    CHECK(cost_model_check(COST_CCM, &t, &m, 0, "t", "m", err, sizeof err) == -1);
    SAME_STR(err, "t:5: field 'op': expected another op than on line 3: pid 0 starts a new bcast "
                  "here (needed by --model ccm)");
    cost_trace_free(&t);
    /* Without op, consecutive supersteps of one kind are one collective:
     * W 0 + T_bcast(2, 0) = 2e-6 + 3e-6, once. */
    CHECK(read_text(HEADER GREC(0, 0, "bcast", 0, "", "") GREC(0, 1, "bcast", 1, "", "")
                        GREC(1, 0, "bcast", 0, "", "") GREC(1, 1, "bcast", 0, "", ""),
                    &t) == 0);
    expect_model(COST_CCM, &t, &m, 0, (double[]){0, 5e-6}, 5e-6);
    cost_trace_free(&t);
}

/* calib.jsonl: 4 processes whose collectives take exactly T(P, h) = 2e-6 +
 * 3e-6·ceil(log2 P) + 1e-9·h: a bcast of pid 0's 3000 bytes out (P 4, 1.1e-5 s),
 * a two-superstep bcast (pid 0 sends 1000 in each: h 2000, 1e-5 s from the
 * first entry to the last exit), a partition (5e-6 s), one bcast in each part
 * of 2 (h 500: 5.5e-6 s; h 4000: 9e-6 s) and the rejoin (pid 1 sends 50 bytes;
 * from part 1's entry at 0.0047 to 0.004707: 7e-6 s). */
static void ccm_samples_fit(void)
{
    cost_trace t;
    load_trace("calib.jsonl", &t);
    cost_ccm_sample s[8];
    CHECK(cost_ccm_samples(&t, NULL, 0) == 6);
    CHECK(cost_ccm_samples(&t, s, 8) == 6);
    static const char *const kinds[] = {"bcast", "bcast", "partition", "bcast", "bcast", "rejoin"};
    static const int P[] = {4, 4, 4, 2, 2, 4};
    static const double h[] = {3000, 2000, 0, 500, 4000, 50};
    static const double time[] = {1.1e-5, 1e-5, 5e-6, 5.5e-6, 9e-6, 7e-6};
    for (int i = 0; i < 6; i++) {
        SAME_STR(s[i].kind, kinds[i]);
        CHECK(s[i].P == P[i] && s[i].h == h[i]);
        NEAR(s[i].time, time[i]);
    }
    CHECK(s[0].line == 2 && s[1].line == 6);
    cost_ccm_fn f;
    CHECK(cost_ccm_fit(s, 6, "bcast", &f) == 0);
    NEAR(f.a, 2e-6);
    NEAR(f.b, 3e-6);
    NEAR(f.c, 1e-9);
    CHECK(cost_ccm_fit(s, 6, "partition", &f) == 0); /* one sample: a constant */
    NEAR(f.a, 5e-6);
    CHECK(f.b == 0 && f.c == 0);
    CHECK(cost_ccm_fit(s, 6, "rejoin", &f) == 0);
    NEAR(f.a, 7e-6);
    f.a = 42;
    CHECK(cost_ccm_fit(s, 6, "scan", &f) == -1 && f.a == 42);
    /* Only part of the samples stored: the count is still all of them. */
    CHECK(cost_ccm_samples(&t, s, 2) == 6 && s[1].h == 2000);
    cost_trace_free(&t);
}

/* Noise can make an unconstrained c negative (here exactly: 0.9e-5 at h 1000
 * below 1e-5 at h 0, P = 2); the fit keeps every coefficient >= 0, so c = 0 and
 * a + b·rounds is the least squares of relative errors through (1, 1e-5),
 * (1, 0.9e-5), (2, 1.3e-5): exact at rounds 2, and at rounds 1 the value v
 * that minimises ((v − y1)/y1)² + ((v − y2)/y2)², v = (1/y1 + 1/y2) / (1/y1² +
 * 1/y2²); so b = 1.3e-5 − v and a = 2v − 1.3e-5. Only h varying (one P): b is
 * 0 and the line through (100, 2e-6), (300, 4e-6) is a = 1e-6, c = 1e-8. */
static void ccm_fit_fallbacks(void)
{
    cost_ccm_sample s[] = {{"x", 2, 0, 1e-5, 0},
                           {"x", 2, 1000, 0.9e-5, 0},
                           {"x", 4, 0, 1.3e-5, 0},
                           {"y", 8, 100, 2e-6, 0},
                           {"y", 8, 300, 4e-6, 0}};
    cost_ccm_fn f;
    CHECK(cost_ccm_fit(s, 5, "x", &f) == 0);
    double v = (1 / 1e-5 + 1 / 0.9e-5) / (1 / (1e-5 * 1e-5) + 1 / (0.9e-5 * 0.9e-5));
    NEAR(f.a, 2 * v - 1.3e-5);
    NEAR(f.b, 1.3e-5 - v);
    CHECK(f.c == 0 && f.h_break == 0);
    CHECK(cost_ccm_fit(s, 5, "y", &f) == 0);
    NEAR(f.a, 1e-6);
    NEAR(f.c, 1e-8);
    CHECK(f.b == 0);
}

/* Paper 001: T_f is "linear by pieces" in the size. Times of exactly 1e-6 +
 * 2e-9·min(h, 2000) + 5e-10·max(0, h − 2000) at h = 0 .. 4000 (one P): the
 * break goes to the size 2000, the one that leaves no residual. Times that an
 * unconstrained line would fit with a = −1e-6 (1e-6 at 2000, 3e-6 at 4000)
 * get a = 0 and the c of the relative least squares through the origin,
 * c = Σ(h/y) / Σ(h/y)², so that T is never negative. */
static void ccm_fit_pieces(void)
{
    cost_ccm_sample s[] = {{"p", 2, 0, 1e-6, 0},    {"p", 2, 1000, 3e-6, 0},
                           {"p", 2, 2000, 5e-6, 0}, {"p", 2, 3000, 5.5e-6, 0},
                           {"p", 2, 4000, 6e-6, 0}, {"n", 2, 2000, 1e-6, 0},
                           {"n", 2, 4000, 3e-6, 0}};
    cost_ccm_fn f;
    CHECK(cost_ccm_fit(s, 7, "p", &f) == 0);
    CHECK(f.h_break == 2000 && f.b == 0);
    NEAR(f.a, 1e-6);
    NEAR(f.c, 2e-9);
    NEAR(f.c_above, 5e-10);
    NEAR(cost_ccm_eval(&f, 2, 3000), 5.5e-6);
    CHECK(cost_ccm_fit(s, 7, "n", &f) == 0);
    CHECK(f.a == 0 && f.b == 0 && f.h_break == 0);
    double q1 = 2000 / 1e-6, q2 = 4000 / 3e-6;
    NEAR(f.c, (q1 + q2) / (q1 * q1 + q2 * q2));
}

/* The break may lie at the second largest size, one size above it: the top
 * piece, joined to the lower one, has only its slope to fit. Times of exactly
 * 1e-6 + 2e-9·min(h, 3000) + 8e-9·max(0, h − 3000): the break goes to 3000
 * (a rule asking two sizes above would leave a residual) and T at 4000 is the
 * time measured there. */
static void ccm_fit_top_piece(void)
{
    cost_ccm_sample s[] = {{"t", 2, 0, 1e-6, 0},
                           {"t", 2, 1000, 3e-6, 0},
                           {"t", 2, 2000, 5e-6, 0},
                           {"t", 2, 3000, 7e-6, 0},
                           {"t", 2, 4000, 15e-6, 0}};
    cost_ccm_fn f;
    CHECK(cost_ccm_fit(s, 5, "t", &f) == 0);
    CHECK(f.h_break == 3000 && f.b == 0);
    NEAR(f.a, 1e-6);
    NEAR(f.c, 2e-9);
    NEAR(f.c_above, 8e-9);
    NEAR(cost_ccm_eval(&f, 2, 4000), 15e-6);
}

/* A machine file written before the fit was constrained may hold a negative a:
 * T is then 0, never negative, so that the clock never runs back. Here a bcast
 * with T = −1 s, then a plain superstep of 0.1 s: CCM must still charge the
 * 0.1 s (+ L 1e-5), not 0.1 − 1. */
static void ccm_negative_never_back(void)
{
    cost_trace t;
    cost_machine m;
    load_machine("machine_groups.json", &m);
    cost_ccm_fn *bcast = (cost_ccm_fn *)cost_machine_collective(&m, "bcast");
    *bcast = (cost_ccm_fn){-1, 0, 0, 0, 0};
    CHECK(cost_ccm_eval(bcast, 2, 1e6) == 0);
    CHECK(read_text(
              HEADER GREC(0, 0, "bcast", 0, "", OP(0)) GREC(
                  0, 1, "bcast", 0, "",
                  OP(0)) "{\"step\":1,\"pid\":0,\"kind\":\"normal\",\"level\":0,\"w\":0.1,"
                         "\"bytes_out\":0,\"msgs_out\":0,\"bytes_in\":0,\"msgs_in\":0,\"from\":[],"
                         "\"t_enter\":0,\"t_exit\":0}\n"
                         "{\"step\":1,\"pid\":1,\"kind\":\"normal\",\"level\":0,\"w\":0.1,"
                         "\"bytes_out\":0,\"msgs_out\":0,\"bytes_in\":0,\"msgs_in\":0,\"from\":[],"
                         "\"t_enter\":0,\"t_exit\":0}\n",
              &t) == 0);
    expect_model(COST_CCM, &t, &m, 0, (double[]){0, 0.10001}, 0.10001);
    cost_trace_free(&t);
}

static void ccm_eval(void)
{
    cost_ccm_fn f = {1e-6, 2e-6, 1e-9, 0, 0};
    NEAR(cost_ccm_eval(&f, 1, 0), 1e-6);            /* ceil(log2 1) = 0 */
    NEAR(cost_ccm_eval(&f, 2, 100), 3e-6 + 1e-7);   /* 1 round */
    NEAR(cost_ccm_eval(&f, 5, 0), 1e-6 + 3 * 2e-6); /* ceil(log2 5) = 3 */
    NEAR(cost_ccm_eval(&f, 8, 0), 1e-6 + 3 * 2e-6);
    NEAR(cost_ccm_eval(&f, 2147483647, 0), 1e-6 + 31 * 2e-6);
    /* Two pieces: 1e-9 per byte up to 1000 bytes, 4e-9 above. */
    cost_ccm_fn two = {1e-6, 0, 1e-9, 1000, 4e-9};
    NEAR(cost_ccm_eval(&two, 4, 500), 1e-6 + 5e-7);
    NEAR(cost_ccm_eval(&two, 4, 3000), 1e-6 + 1e-6 + 8e-6);
    CHECK(core_kind_is_collective(core_kind_of("bcast")) &&
          core_kind_is_collective(core_kind_of("par")) &&
          core_kind_is_collective(core_kind_of("a_newer_collective")));
    CHECK(!core_kind_is_collective(core_kind_of("normal")) &&
          !core_kind_is_collective(core_kind_of("rejoin")));
    SAME_STR(cost_model_name(COST_DBSP), "dbsp");
    SAME_STR(cost_model_name(COST_CCM), "ccm");
}

static const struct test_case cases[] = {
    {"model_ccm_division", model_ccm_division},
    {"model_ccm_division_measured", model_ccm_division_measured},
    {"model_ccm_bcast", model_ccm_bcast},
    {"model_ccm_bcast_alg", model_ccm_bcast_alg},
    {"model_ccm_by_procs", model_ccm_by_procs},
    {"model_ccm_patterns", model_ccm_patterns},
    {"model_ccm_pattern_hpput", model_ccm_pattern_hpput},
    {"model_ccm_dense", model_ccm_dense},
    {"relation_patterns", relation_patterns},
    {"model_ccm_nested", model_ccm_nested},
    {"model_ccm_aborted_division", model_ccm_aborted_division},
    {"model_ccm_started_inside", model_ccm_started_inside},
    {"model_check_messages", model_check_messages},
    {"model_check_ops", model_check_ops},
    {"ccm_eval", ccm_eval},
    {"ccm_samples_fit", ccm_samples_fit},
    {"ccm_fit_fallbacks", ccm_fit_fallbacks},
    {"ccm_fit_pieces", ccm_fit_pieces},
    {"ccm_fit_top_piece", ccm_fit_top_piece},
    {"ccm_negative_never_back", ccm_negative_never_back},
};

CHECK_MAIN(cases)
