/* test_ebsp — the flat models on hand-built traces: REAL, BSP, BSP* and EBSP
 * (formula (2) of paper 000), and the exclusion of a process's traffic to
 * itself from h. Usage and conventions: check.h. */
#include "check.h"

/* Two pairs (0,1) and (2,3) exchanging within the pair: 0 and 1 compute 1 ms and
 * exchange 1000 bytes; 2 and 3 compute 0.1 ms and exchange 100000 bytes. Machine:
 * g = 1e-9 s/byte, L = 1e-5 s, h = in + out; g* = 2e-9, B = 100.
 * BSP step: W = 0.001, h = 200000 -> 0.001 + 2e-4 + 1e-5 = 0.00121 (twice).
 * BSP*: s = 200000, h = 20 msgs -> 0.001 + 2e-9·(200000 + 20·100) + 1e-5 = 0.001414.
 * EBSP: the pairs never wait for each other. Φ(0,0) = 0.001 + 2e-6 + 1e-5 =
 * 0.001012 (pair 2,3: 0.0001 + 2e-4 + 1e-5 = 0.00031); step 1 adds the same:
 * Ψ = 0.002024 < BSP's 0.00242. REAL, from min(t_enter - w) = 0 (process 0):
 * max t_exit 0.00111, then 0.00231. */
static void model_two_pairs(void)
{
    cost_trace t;
    cost_machine m;
    load_trace("two_pairs.jsonl", &t);
    load_machine("machine.json", &m);
    expect_model(COST_REAL, &t, &m, 0, (double[]){0.00111, 0.0012}, 0.00231);
    expect_model(COST_BSP, &t, &m, 0, (double[]){0.00121, 0.00121}, 0.00242);
    expect_model(COST_BSPSTAR, &t, &m, 0, (double[]){0.001414, 0.001414}, 0.002828);
    expect_model(COST_EBSP, &t, &m, 0, (double[]){0.001012, 0.001012}, 0.002024);
    CHECK(cost_predict(COST_EBSP, &t, &m, 0, NULL) < cost_predict(COST_BSP, &t, &m, 0, NULL));
    NEAR(cost_error_percent(0.00231, 0.00242), 100 * (0.00231 - 0.00242) / 0.00231);
    cost_trace_free(&t);
}

/* The same trace with h = max(in, out): BSP h = 100000 -> 0.001 + 1e-4 + 1e-5 =
 * 0.00111 per step. EBSP's formula (2) has h = in + out whatever @: pair (0,1)
 * still 0.001 + 2e-6 + 1e-5 = 0.001012 per step. */
static void model_two_pairs_max(void)
{
    cost_trace t;
    cost_machine m;
    load_trace("two_pairs.jsonl", &t);
    load_machine("machine_max.json", &m);
    expect_model(COST_BSP, &t, &m, 0, (double[]){0.00111, 0.00111}, 0.00222);
    expect_model(COST_EBSP, &t, &m, 0, (double[]){0.001012, 0.001012}, 0.002024);
    /* This machine has no BSP* parameters: no prediction rather than a wrong one. */
    CHECK(isnan(cost_predict(COST_BSPSTAR, &t, &m, 0, NULL)));
    cost_trace_free(&t);
}

/* Everyone receives from everyone, so every Ω is the whole machine and EBSP
 * must agree with BSP. Process i sends 100·(i+1) bytes to each other one:
 * in + out = 700, 800, 900 -> h = 900; msgs in + out = 4.
 * Step 0: W = 0.002 -> 0.002 + 9e-7 + 1e-5 = 0.0020109; step 1: W = 0.003 ->
 * 0.0030109. BSP*: 2e-9·(900 + 4·100) = 2.6e-6 -> 0.0020126 and 0.0030126. */
static void model_all_to_all(void)
{
    cost_trace t;
    cost_machine m;
    load_trace("all_to_all.jsonl", &t);
    load_machine("machine.json", &m);
    expect_model(COST_REAL, &t, &m, 0, (double[]){0.0021, 0.0031}, 0.0052);
    expect_model(COST_BSP, &t, &m, 0, (double[]){0.0020109, 0.0030109}, 0.0050218);
    expect_model(COST_EBSP, &t, &m, 0, (double[]){0.0020109, 0.0030109}, 0.0050218);
    expect_model(COST_BSPSTAR, &t, &m, 0, (double[]){0.0020126, 0.0030126}, 0.0050252);
    cost_trace_free(&t);
}

/* A pipeline 0 -> 1 (step 0) -> 2 (step 1): EBSP carries process 0's long first
 * step to 2 through the chain of in-partners.
 * Φ0 = (0.003 + 1e-6 + 1e-5, same for 1 (Ω = {0,1}), 0.001 + 1e-5)
 *    = (0.003011, 0.003011, 0.00101)
 * Φ1 = (0.003011 + 0.001 + 1e-5, 0.003011 + 0.001 + 1e-6 + 1e-5,
 *       max(0.00101, 0.003011) + 0.001 + 1e-6 + 1e-5) = (0.004021, 0.004022, 0.004022)
 * Φ2 = Φ1 + 0.001 + 1e-5 -> max 0.005032. Per step: 0.003011, 0.001011, 0.00101,
 * the same as BSP here, although no Ω is the whole machine. */
static void model_pipeline(void)
{
    cost_trace t;
    cost_machine m;
    load_trace("pipeline.jsonl", &t);
    load_machine("machine.json", &m);
    expect_model(COST_REAL, &t, &m, 0, (double[]){0.0031, 0.0012, 0.0011}, 0.0054);
    expect_model(COST_EBSP, &t, &m, 0, (double[]){0.003011, 0.001011, 0.00101}, 0.005032);
    expect_model(COST_BSP, &t, &m, 0, (double[]){0.003011, 0.001011, 0.00101}, 0.005032);
    cost_trace_free(&t);
}

/* Traced from step 5, aborted in step 7 (only process 0 recorded it): steps 5
 * and 6 are kept. REAL starts at min(0.011 - 0.001, 0.0112 - 0.0008) = 0.01:
 * 0.0113 - 0.01 = 0.0013, then 0.0121 - 0.0113 = 0.0008. Process 1 began
 * tracing 0.0004 after process 0 (late), time of that superstep it spent
 * before: its first W is 0.0004 + w. No communication, so BSP = W + L:
 * measured max(0.001, 0.0004 + 0.0008) + 1e-5 = 0.00121, then 0.0005 + 1e-5;
 * with ops at 1e9 per second step 5 is max(2e6/1e9, 0.0004 + 1e6/1e9) = 0.002
 * and step 6 max(5e5/1e9, w = 0.0004 of the record without ops) = 0.0005. */
static void model_midrun_ops(void)
{
    cost_trace t;
    cost_machine m;
    load_trace("midrun_aborted.jsonl", &t);
    load_machine("machine.json", &m);
    CHECK(t.first_step == 5 && t.nsteps == 2 && t.dropped == 1 && t.complete == 0);
    SAME_STR(t.reason, "bsp_abort: stop");
    SAME_STR(cost_trace_rec(&t, 1, 0)->kind, "bcast");
    CHECK(cost_trace_rec(&t, 0, 1)->ops[0] == 1e6 && !cost_rec_declares(cost_trace_rec(&t, 1, 1)));
    expect_model(COST_REAL, &t, &m, 0, (double[]){0.0013, 0.0008}, 0.0021);
    expect_model(COST_BSP, &t, &m, 0, (double[]){0.00121, 0.00051}, 0.00172);
    expect_model(COST_BSP, &t, &m, 1, (double[]){0.00201, 0.00051}, 0.00252);
    expect_model(COST_EBSP, &t, &m, 1, (double[]){0.00201, 0.00051}, 0.00252);
    cost_trace_free(&t);
}

/* A process's puts to itself are in its in and out counts; the trace says how
 * much in self_bytes and self_msgs, and the reader leaves them out, so no model
 * counts them in h. Process 0 puts 1000 bytes to itself and 100 to process 1:
 * out 1100 (2 puts), in 1000 (1), of which itself 1000 (1) -> out 100 (1), in 0.
 * BSP (g 1e-9, L 1e-5, in + out): h = 100 on both -> 1e-7 + 1e-5 = 1.01e-5.
 * A record without the two fields (an older writer) keeps its counts and marks
 * the trace, for predict's note. */
static void self_traffic_left_out(void)
{
    const char *text =
        HEADER "{\"step\":0,\"pid\":0,\"kind\":\"normal\",\"level\":0,\"w\":0,\"bytes_out\":1100,"
               "\"msgs_out\":2,\"bytes_in\":1000,\"msgs_in\":1,\"self_bytes\":1000,\"self_msgs\":1,"
               "\"from\":[],\"t_enter\":0,\"t_exit\":0}\n"
               "{\"step\":0,\"pid\":1,\"kind\":\"normal\",\"level\":0,\"w\":0,\"bytes_out\":0,"
               "\"msgs_out\":0,\"bytes_in\":100,\"msgs_in\":1,\"self_bytes\":0,\"self_msgs\":0,"
               "\"from\":[0],\"t_enter\":0,\"t_exit\":0}\n";
    cost_trace t;
    cost_machine m;
    CHECK(read_text(text, &t) == 0);
    load_machine("machine.json", &m);
    const cost_rec *r = cost_trace_rec(&t, 0, 0);
    CHECK(r->bytes_out == 100 && r->msgs_out == 1 && r->bytes_in == 0 && r->msgs_in == 0);
    CHECK(!t.self_unknown);
    expect_model(COST_BSP, &t, &m, 0, (double[]){1.01e-5}, 1.01e-5);
    expect_model(COST_EBSP, &t, &m, 0, (double[]){1.01e-5}, 1.01e-5);
    cost_trace_free(&t);
    CHECK(read_text(HEADER REC(0, 0) REC(0, 1), &t) == 0);
    CHECK(t.self_unknown);
    cost_trace_free(&t);
}

/* Bytes that bsp_hpput moved (hp_bytes_out, hp_bytes_in) count g_hpput / g
 * bytes of bsp_put each (cost_hbytes). Process 0 sends 1000 bytes to 1, 600
 * of them by hpput; machine_hpput.json: machine.json (g 1e-9, L 1e-5, in +
 * out) with bsp_hpput's g 5e-10, a ratio of 0.5. h = 400 + 0.5 · 600 = 700
 * on both sides: BSP 1e-9 · 700 + 1e-5 = 1.07e-5; EBSP the same (process 1's
 * partner 0 has 700 too); BSP* 2e-9 · (700 + 1 · 100) + 1e-5 = 1.16e-5. A
 * file without bsp_hpput charges all 1000 bytes at g: 1.1e-5. */
static void hpput_bytes_charged(void)
{
    const char *text = HEADER
        "{\"step\":0,\"pid\":0,\"kind\":\"normal\",\"level\":0,\"w\":0,\"bytes_out\":1000,"
        "\"msgs_out\":1,\"bytes_in\":0,\"msgs_in\":0,\"hp_bytes_out\":600,\"hp_bytes_in\":0,"
        "\"from\":[],\"t_enter\":0,\"t_exit\":0}\n"
        "{\"step\":0,\"pid\":1,\"kind\":\"normal\",\"level\":0,\"w\":0,\"bytes_out\":0,"
        "\"msgs_out\":0,\"bytes_in\":1000,\"msgs_in\":1,\"hp_bytes_out\":0,\"hp_bytes_in\":600,"
        "\"from\":[0],\"t_enter\":0,\"t_exit\":0}\n";
    cost_trace t;
    cost_machine m;
    CHECK(read_text(text, &t) == 0);
    CHECK(cost_trace_rec(&t, 0, 0)->once_out == 600 && cost_trace_rec(&t, 0, 1)->once_in == 600);
    load_machine("machine_hpput.json", &m);
    NEAR(m.hp_ratio, 0.5);
    expect_model(COST_BSP, &t, &m, 0, (double[]){1.07e-5}, 1.07e-5);
    expect_model(COST_EBSP, &t, &m, 0, (double[]){1.07e-5}, 1.07e-5);
    expect_model(COST_BSPSTAR, &t, &m, 0, (double[]){1.16e-5}, 1.16e-5);
    load_machine("machine.json", &m);
    CHECK(m.hp_ratio == 1);
    expect_model(COST_BSP, &t, &m, 0, (double[]){1.1e-5}, 1.1e-5);
    cost_trace_free(&t);
}

/* Bytes of messages (send_bytes_out, send_bytes_in: bsp_send copies once,
 * the sync hands the message over in place) count like hpput bytes, and the
 * two add up. Process 0 sends 1000 bytes to 1: 300 by bsp_send, 200 by
 * bsp_hpput, 500 by bsp_put; on machine_hpput.json (g 1e-9, L 1e-5, ratio
 * 0.5) h = 500 + 0.5 · (300 + 200) = 750 on both sides: BSP 1e-9 · 750 +
 * 1e-5 = 1.075e-5, EBSP the same. Sends alone (1000 of them) give h = 500:
 * 1.05e-5. */
static void send_bytes_charged(void)
{
#define SEND_REC(hp_out, hp_in, send_out, send_in)                                                 \
    "{\"step\":0,\"pid\":0,\"kind\":\"normal\",\"level\":0,\"w\":0,\"bytes_out\":1000,"            \
    "\"msgs_out\":3,\"bytes_in\":0,\"msgs_in\":0," hp_out send_out                                 \
    "\"from\":[],\"t_enter\":0,\"t_exit\":0}\n"                                                    \
    "{\"step\":0,\"pid\":1,\"kind\":\"normal\",\"level\":0,\"w\":0,\"bytes_out\":0,"               \
    "\"msgs_out\":0,\"bytes_in\":1000,\"msgs_in\":3," hp_in send_in                                \
    "\"from\":[0],\"t_enter\":0,\"t_exit\":0}\n"
    cost_trace t;
    cost_machine m;
    load_machine("machine_hpput.json", &m);
    CHECK(read_text(HEADER SEND_REC("\"hp_bytes_out\":200,\"hp_bytes_in\":0,",
                                    "\"hp_bytes_out\":0,\"hp_bytes_in\":200,",
                                    "\"send_bytes_out\":300,\"send_bytes_in\":0,",
                                    "\"send_bytes_out\":0,\"send_bytes_in\":300,"),
                    &t) == 0);
    CHECK(cost_trace_rec(&t, 0, 0)->once_out == 500 && cost_trace_rec(&t, 0, 1)->once_in == 500);
    expect_model(COST_BSP, &t, &m, 0, (double[]){1.075e-5}, 1.075e-5);
    expect_model(COST_EBSP, &t, &m, 0, (double[]){1.075e-5}, 1.075e-5);
    cost_trace_free(&t);
    CHECK(read_text(HEADER SEND_REC("", "", "\"send_bytes_out\":1000,\"send_bytes_in\":0,",
                                    "\"send_bytes_out\":0,\"send_bytes_in\":1000,"),
                    &t) == 0);
    expect_model(COST_BSP, &t, &m, 0, (double[]){1.05e-5}, 1.05e-5);
    cost_trace_free(&t);
#undef SEND_REC
}

/* Page faults inside the sync (the trace's "faults") are no model's term:
 * charged only when predict sets m.fault (--faults), after the work, where
 * data lands (cost_faults). Process 0: w = 0.001, 10 faults; process 1: w =
 * 0.0012, no faults; 100 bytes from 0 to 1. BSP (g 1e-9, L 1e-5, in + out),
 * h = 100: uncharged max(0.001, 0.0012) + 1e-7 + 1e-5 = 0.0012101; at 5e-5 s
 * a fault, F_0 = 10 · 5e-5 = 0.0005 comes after the slower worker: 0.0012 +
 * 0.0005 + 1e-7 + 1e-5 = 0.0017101 (not max(W_0 + F_0, W_1) = 0.0015101):
 * a process faults in the sync, after the barrier.
 * BSP* (g* 2e-9, B 100): 0.0017 + 2e-9 · (100 + 100) + 1e-5 = 0.0017104.
 * EBSP: process 0 has no in-partner, 0.001 + 1e-7 + 1e-5 + 0.0005 =
 * 0.0015101; process 1 waits for 0's work only: 0.0012 + 1e-7 + 1e-5 =
 * 0.0012101; the step ends at 0.0015101. On machine_groups.json: D-BSP's
 * label-0 superstep of P = 2 uses the clusters of 2 (g 5e-10, ℓ 4e-6): 0.0017
 * + 5e-8 + 4e-6 = 0.00170405; CCM charges a plain superstep as BSP (g 1e-9,
 * L 1e-5): 0.0017101. A record without the field reads as -1 (not counted)
 * and is never charged. */
static void sync_faults_charged(void)
{
    const char *text =
        HEADER "{\"step\":0,\"pid\":0,\"kind\":\"normal\",\"level\":0,\"w\":0.001,"
               "\"bytes_out\":100,\"msgs_out\":1,\"bytes_in\":0,\"msgs_in\":0,\"self_bytes\":0,"
               "\"self_msgs\":0,\"faults\":10,\"from\":[],\"t_enter\":0.001,\"t_exit\":0.002}\n"
               "{\"step\":0,\"pid\":1,\"kind\":\"normal\",\"level\":0,\"w\":0.0012,"
               "\"bytes_out\":0,\"msgs_out\":0,\"bytes_in\":100,\"msgs_in\":1,\"self_bytes\":0,"
               "\"self_msgs\":0,\"from\":[0],\"t_enter\":0.0012,\"t_exit\":0.002}\n";
    cost_trace t;
    cost_machine m;
    CHECK(read_text(text, &t) == 0);
    load_machine("machine.json", &m);
    CHECK(cost_trace_rec(&t, 0, 0)->faults == 10 && cost_trace_rec(&t, 0, 1)->faults == -1);
    expect_model(COST_BSP, &t, &m, 0, (double[]){0.0012101}, 0.0012101);
    m.fault[0] = m.fault[1] = 5e-5;
    expect_model(COST_BSP, &t, &m, 0, (double[]){0.0017101}, 0.0017101);
    expect_model(COST_BSPSTAR, &t, &m, 0, (double[]){0.0017104}, 0.0017104);
    expect_model(COST_EBSP, &t, &m, 0, (double[]){0.0015101}, 0.0015101);
    load_machine("machine_groups.json", &m);
    m.fault[0] = m.fault[1] = 5e-5;
    expect_model(COST_DBSP, &t, &m, 0, (double[]){0.00170405}, 0.00170405);
    expect_model(COST_CCM, &t, &m, 0, (double[]){0.0017101}, 0.0017101);
    cost_trace_free(&t);
}

/* A process's faults in a sync delay that process alone: it leaves the sync
 * late and does its next work from there, while the others already work
 * (docs/models.md, "Page faults in the sync"). Superstep 0: process 0, w =
 * 0.001, sends 100 bytes to 1; process 1, w = 0.0012, takes 10 faults
 * landing them (F_1 = 10 · 5e-5 = 0.0005). Superstep 1, no traffic: process
 * 0 works 0.0006, process 1 0.0001.
 * BSP (g 1e-9, L 1e-5): superstep 0 ends at 0.0012 + 1e-7 + 1e-5 = 0.0012101,
 * process 1 at 0.0017101; the next barrier comes at max(0.0012101 + 0.0006,
 * 0.0017101 + 0.0001) = 0.0018101, the end at 0.0018201: per step 0.0017101
 * and 0.00011. (max W + max F in each superstep would say 0.0017101 +
 * 0.00061 = 0.0023201: process 1's faults and process 0's work overlap.)
 * BSP* (g* 2e-9, B 100): superstep 0's comm 2e-9 · (100 + 1 · 100) + 1e-5,
 * so 0.0017104 and 0.00011. EBSP: process 0 (no in-partner) at 0.0010101,
 * then 0.0016201; process 1 at 0.0012101 + 0.0005 = 0.0017101, then
 * 0.0018201: the same totals as BSP. CCM charges plain supersteps as BSP.
 * D-BSP on machine_groups.json, labelled by traffic alone: superstep 0 at
 * level 0 (clusters of 2: g 5e-10, ℓ 4e-6) costs 0.0012 + 5e-8 + 4e-6 = 0.00120405, process 1
 * leaves at 0.00170405; superstep 1 at level 1 (clusters of 1: ℓ 1e-6) costs max(0.0006, 0.0005 +
 * 0.0001) + 1e-6 = 0.000601: the end at 0.00180505, per step 0.00170405 and 0.000101. */
static void sync_faults_delay_their_process(void)
{
    const char *text =
        HEADER "{\"step\":0,\"pid\":0,\"kind\":\"normal\",\"level\":0,\"w\":0.001,"
               "\"bytes_out\":100,\"msgs_out\":1,\"bytes_in\":0,\"msgs_in\":0,\"faults\":0,"
               "\"from\":[],\"t_enter\":0.001,\"t_exit\":0.002}\n"
               "{\"step\":0,\"pid\":1,\"kind\":\"normal\",\"level\":0,\"w\":0.0012,"
               "\"bytes_out\":0,\"msgs_out\":0,\"bytes_in\":100,\"msgs_in\":1,\"faults\":10,"
               "\"from\":[0],\"t_enter\":0.0012,\"t_exit\":0.002}\n"
               "{\"step\":1,\"pid\":0,\"kind\":\"normal\",\"level\":0,\"w\":0.0006,"
               "\"bytes_out\":0,\"msgs_out\":0,\"bytes_in\":0,\"msgs_in\":0,\"faults\":0,"
               "\"from\":[],\"t_enter\":0.0026,\"t_exit\":0.0027}\n"
               "{\"step\":1,\"pid\":1,\"kind\":\"normal\",\"level\":0,\"w\":0.0001,"
               "\"bytes_out\":0,\"msgs_out\":0,\"bytes_in\":0,\"msgs_in\":0,\"faults\":0,"
               "\"from\":[],\"t_enter\":0.0021,\"t_exit\":0.0027}\n";
    cost_trace t;
    cost_machine m;
    CHECK(read_text(text, &t) == 0);
    load_machine("machine.json", &m);
    m.fault[0] = m.fault[1] = 5e-5;
    expect_model(COST_BSP, &t, &m, 0, (double[]){0.0017101, 0.00011}, 0.0018201);
    expect_model(COST_BSPSTAR, &t, &m, 0, (double[]){0.0017104, 0.00011}, 0.0018204);
    expect_model(COST_EBSP, &t, &m, 0, (double[]){0.0017101, 0.00011}, 0.0018201);
    load_machine("machine_groups.json", &m);
    m.fault[0] = m.fault[1] = 5e-5;
    expect_model(COST_CCM, &t, &m, 0, (double[]){0.0017101, 0.00011}, 0.0018201);
    expect_model(COST_DBSP, &t, &m, COST_DBSP_TRAFFIC, (double[]){0.00170405, 0.000101},
                 0.00180505);
    cost_trace_free(&t);
}

/* The trace's "fresh" counts the faults on pages nothing had touched; --faults
 * kind charges those at the fresh-page cost (1e-6 s) and the others at the
 * read-before cost (5e-5 s). Process 0 as above, 10 faults of which 4 fresh:
 * F_0 = 4 · 1e-6 + 6 · 5e-5 = 0.000304 -> BSP 0.0012 + 0.000304 + 1e-7 + 1e-5
 * = 0.0015141. More fresh pages than faults (a huge page takes one fault for
 * 512 pages): every fault is fresh, F_0 = 10 · 1e-6 -> 0.0012201. */
static void sync_faults_by_kind(void)
{
    const char *fmt =
        HEADER "{\"step\":0,\"pid\":0,\"kind\":\"normal\",\"level\":0,\"w\":0.001,"
               "\"bytes_out\":100,\"msgs_out\":1,\"bytes_in\":0,\"msgs_in\":0,\"self_bytes\":0,"
               "\"self_msgs\":0,\"faults\":10,\"fresh\":%d,\"from\":[],\"t_enter\":0.001,"
               "\"t_exit\":0.002}\n"
               "{\"step\":0,\"pid\":1,\"kind\":\"normal\",\"level\":0,\"w\":0.0012,"
               "\"bytes_out\":0,\"msgs_out\":0,\"bytes_in\":100,\"msgs_in\":1,\"self_bytes\":0,"
               "\"self_msgs\":0,\"faults\":0,\"fresh\":0,\"from\":[0],\"t_enter\":0.0012,"
               "\"t_exit\":0.002}\n";
    const int fresh[2] = {4, 20};
    const double want[2] = {0.0015141, 0.0012201};
    for (int k = 0; k < 2; k++) {
        char text[2048];
        snprintf(text, sizeof text, fmt, fresh[k]);
        cost_trace t;
        cost_machine m;
        CHECK(read_text(text, &t) == 0);
        load_machine("machine.json", &m);
        CHECK(cost_trace_rec(&t, 0, 0)->fresh == fresh[k]);
        m.fault[0] = 1e-6;
        m.fault[1] = 5e-5;
        expect_model(COST_BSP, &t, &m, 0, (double[]){want[k]}, want[k]);
        cost_trace_free(&t);
    }
}

/* The put calls' copying (the trace's copy) is communication, which the probe's
 * g includes: measured W leaves it out, --work whole keeps it. Process 0: w =
 * 0.001 of which copy 0.0004, 100 bytes to 1; process 1: w = 0.0005. BSP (g
 * 1e-9, L 1e-5, in + out, h = 100): W = max(0.001 - 0.0004, 0.0005) = 0.0006 ->
 * 0.0006101; whole: W = 0.001 -> 0.0010101. */
static void copy_left_out_of_w(void)
{
    const char *text =
        HEADER "{\"step\":0,\"pid\":0,\"kind\":\"normal\",\"level\":0,\"w\":0.001,\"copy\":0.0004,"
               "\"bytes_out\":100,\"msgs_out\":1,\"bytes_in\":0,\"msgs_in\":0,\"self_bytes\":0,"
               "\"self_msgs\":0,\"from\":[],\"t_enter\":0.001,\"t_exit\":0.002}\n"
               "{\"step\":0,\"pid\":1,\"kind\":\"normal\",\"level\":0,\"w\":0.0005,"
               "\"bytes_out\":0,\"msgs_out\":0,\"bytes_in\":100,\"msgs_in\":1,\"self_bytes\":0,"
               "\"self_msgs\":0,\"from\":[0],\"t_enter\":0.0005,\"t_exit\":0.002}\n";
    cost_trace t;
    cost_machine m;
    CHECK(read_text(text, &t) == 0);
    load_machine("machine.json", &m);
    CHECK(cost_trace_rec(&t, 0, 0)->copy == 0.0004 && cost_trace_rec(&t, 0, 1)->copy == 0);
    expect_model(COST_BSP, &t, &m, 0, (double[]){0.0006101}, 0.0006101);
    expect_model(COST_BSP, &t, &m, COST_WORK_WHOLE, (double[]){0.0010101}, 0.0010101);
    cost_trace_free(&t);
}

/* REAL starts when tracing did, at the earliest t_enter - w of the first step
 * (docs/models.md, REAL), not at 0 (bsp_begin, before the trace file was made).
 * Process 0: w = 0.001 entered at 0.0012 (started at 0.0002), process 1: w =
 * 0.0009 entered at 0.0013 (0.0004); both leave at 0.0013, then at 0.0019.
 * REAL_0 = 0.0013 - 0.0002 = 0.0011, REAL_1 = 0.0019 - 0.0013 = 0.0006. */
static void real_starts_with_tracing(void)
{
#define TREC(step, pid, w, in, out)                                                                \
    "{\"step\":" #step ",\"pid\":" #pid ",\"kind\":\"normal\",\"level\":0,\"w\":" #w ","           \
    "\"bytes_out\":0,\"msgs_out\":0,\"bytes_in\":0,\"msgs_in\":0,\"from\":[],"                     \
    "\"t_enter\":" #in ",\"t_exit\":" #out "}\n"
    cost_trace t;
    cost_machine m;
    load_machine("machine.json", &m);
    CHECK(read_text(HEADER TREC(0, 0, 0.001, 0.0012, 0.0013) TREC(0, 1, 0.0009, 0.0013, 0.0013)
                        TREC(1, 0, 0.0005, 0.0018, 0.0019) TREC(1, 1, 0.0006, 0.0019, 0.0019),
                    &t) == 0);
#undef TREC
    expect_model(COST_REAL, &t, &m, 0, (double[]){0.0011, 0.0006}, 0.0017);
    /* Process 1's clock started 0.0002 after process 0's (0.0004 against
     * 0.0002), so its first W is 0.0002 + 0.0009 = 0.0011 (late): BSP (g 1e-9,
     * L 1e-5, no bytes) 0.0011 + 1e-5, then 0.0006 + 1e-5, 0.00172 in all;
     * EBSP (no partners) ends with process 1, the same. */
    NEAR(cost_trace_rec(&t, 0, 1)->late, 0.0002);
    CHECK(cost_trace_rec(&t, 0, 0)->late == 0 && cost_trace_rec(&t, 1, 1)->late == 0);
    expect_model(COST_BSP, &t, &m, 0, (double[]){0.00111, 0.00061}, 0.00172);
    expect_model(COST_EBSP, &t, &m, COST_USE_OPS, (double[]){0.00111, 0.00061}, 0.00172);
    cost_trace_free(&t);
}

static void error_percent(void)
{
    NEAR(cost_error_percent(2.0, 1.5), 25.0);
    NEAR(cost_error_percent(1.0, 1.25), -25.0);
    CHECK(cost_error_percent(1.0, 1.0) == 0);
    CHECK(isnan(cost_error_percent(0.0, 1.0)));
    SAME_STR(cost_model_name(COST_REAL), "real");
    SAME_STR(cost_model_name(COST_BSPSTAR), "bspstar");
}

/* The time bsp_trace_begin took making the trace file (setup) is part of w
 * and delays that process for real: measured W keeps it, and declared work
 * adds it to ops / rate. Process 0: w = 0.001 of which setup 0.0006, ops 1e5;
 * process 1: w = 0.0005, ops 1e5; 100 bytes from 0 to 1. BSP (g 1e-9, L 1e-5,
 * in + out, h = 100, rate 1e9): measured W = 0.001 -> 0.0010101; ops: W_0 =
 * 1e5 / 1e9 + 0.0006 = 0.0007, W_1 = 0.0001 -> 0.0007101. */
static void setup_stays_in_w(void)
{
    const char *text =
        HEADER "{\"step\":0,\"pid\":0,\"kind\":\"normal\",\"level\":0,\"w\":0.001,\"setup\":0.0006,"
               "\"ops\":1e5,\"bytes_out\":100,\"msgs_out\":1,\"bytes_in\":0,\"msgs_in\":0,"
               "\"self_bytes\":0,\"self_msgs\":0,\"from\":[],\"t_enter\":0.001,\"t_exit\":0.002}\n"
               "{\"step\":0,\"pid\":1,\"kind\":\"normal\",\"level\":0,\"w\":0.0005,\"ops\":1e5,"
               "\"bytes_out\":0,\"msgs_out\":0,\"bytes_in\":100,\"msgs_in\":1,\"self_bytes\":0,"
               "\"self_msgs\":0,\"from\":[0],\"t_enter\":0.0005,\"t_exit\":0.002}\n";
    cost_trace t;
    cost_machine m;
    CHECK(read_text(text, &t) == 0);
    load_machine("machine.json", &m);
    CHECK(cost_trace_rec(&t, 0, 0)->setup == 0.0006 && cost_trace_rec(&t, 0, 1)->setup == 0);
    expect_model(COST_BSP, &t, &m, 0, (double[]){0.0010101}, 0.0010101);
    expect_model(COST_BSP, &t, &m, COST_USE_OPS, (double[]){0.0007101}, 0.0007101);
    cost_trace_free(&t);
}

/* The page faults counted during w (w_faults) are in measured w already;
 * declared work adds them at the fresh-page charge (m.fault[0]), and none
 * without a charge. work_faults.jsonl: process 0: w = 0.001, ops 1e5, 40
 * faults in its work; process 1: w = 0.0005, ops 1e5, none counted. BSP (g 1e-9, L 1e-5, h = 100,
 * rate 1e9): measured 0.0010101 either way; ops uncharged max(1e-4, 1e-4) +
 * 1.01e-5 = 0.0001101; at 5e-6 s a fault W_0 = 1e-4 + 40 · 5e-6 = 0.0003 ->
 * 0.0003101. */
static void work_faults_with_ops(void)
{
    cost_trace t;
    cost_machine m;
    load_trace("work_faults.jsonl", &t);
    load_machine("machine.json", &m);
    CHECK(cost_trace_rec(&t, 0, 0)->w_faults == 40 && cost_trace_rec(&t, 0, 1)->w_faults == -1);
    m.fault[0] = m.fault[1] = 0;
    expect_model(COST_BSP, &t, &m, COST_USE_OPS, (double[]){0.0001101}, 0.0001101);
    m.fault[0] = 5e-6;
    m.fault[1] = 5e-5;
    expect_model(COST_BSP, &t, &m, 0, (double[]){0.0010101}, 0.0010101);
    expect_model(COST_BSP, &t, &m, COST_USE_OPS, (double[]){0.0003101}, 0.0003101);
    cost_trace_free(&t);
}

/* Declared work of several kinds, each at its own rate: W = flops / r +
 * compares / r_compare + words / r_word. kinds.jsonl: process 0 declares 1e5
 * flops, 1e4 compares and 5e4 words; process 1 2e4 compares only. Rates 1e9,
 * 1e8 and 5e8: W_0 = 1e-4 + 1e-4 + 1e-4 = 3e-4, W_1 = 2e-4 (its flops and
 * words count 0, not its measured w) -> BSP (g 1e-9, L 1e-5, h = 100) 3e-4 +
 * 1.01e-5 = 0.0003101; measured 0.001 + 1.01e-5. */
static void ops_of_kinds(void)
{
    cost_trace t;
    cost_machine m;
    load_trace("kinds.jsonl", &t);
    load_machine("machine.json", &m);
    const cost_rec *r0 = cost_trace_rec(&t, 0, 0), *r1 = cost_trace_rec(&t, 0, 1);
    CHECK(r0->ops[0] == 1e5 && r0->ops[1] == 1e4 && r0->ops[2] == 5e4);
    CHECK(r1->ops[0] < 0 && r1->ops[1] == 2e4 && r1->ops[2] < 0 && cost_rec_declares(r1));
    m.rate[1] = 1e8;
    m.rate[2] = 5e8;
    expect_model(COST_BSP, &t, &m, COST_USE_OPS, (double[]){0.0003101}, 0.0003101);
    expect_model(COST_BSP, &t, &m, 0, (double[]){0.0010101}, 0.0010101);
    cost_trace_free(&t);
}

static const struct test_case cases[] = {
    {"hpput_bytes_charged", hpput_bytes_charged},
    {"send_bytes_charged", send_bytes_charged},
    {"model_two_pairs", model_two_pairs},
    {"model_two_pairs_max", model_two_pairs_max},
    {"model_all_to_all", model_all_to_all},
    {"model_pipeline", model_pipeline},
    {"model_midrun_ops", model_midrun_ops},
    {"self_traffic_left_out", self_traffic_left_out},
    {"error_percent", error_percent},
    {"real_starts_with_tracing", real_starts_with_tracing},
    {"sync_faults_charged", sync_faults_charged},
    {"sync_faults_by_kind", sync_faults_by_kind},
    {"sync_faults_delay_their_process", sync_faults_delay_their_process},
    {"copy_left_out_of_w", copy_left_out_of_w},
    {"setup_stays_in_w", setup_stays_in_w},
    {"work_faults_with_ops", work_faults_with_ops},
    {"ops_of_kinds", ops_of_kinds},
};

CHECK_MAIN(cases)
