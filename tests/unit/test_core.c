/* test_core — the small pieces of src/core on their own, with hand-computed
 * answers: the record format (core_rec.h), the message queue (core_msgq.h), the
 * registration table (core_reg.h), the out buffers (core_buf.h) and the choice
 * of whom to name at a misused barrier (core_blame_mixed, core_blame_steps), and
 * the thread CPU clock (core_cpuclock.h).
 * Prints "test_core: OK" or a FAIL line per failed check. */
#include "core/core.h"
#include "core/core_cpuclock.h"

#include "unit.h"

#include <string.h>

static void records(void)
{
    /* A 16-byte header, then the data padded to 8 bytes. */
    CHECK(sizeof(core_rec) == 16);
    CHECK(core_rec_len(0) == 16 && core_rec_len(1) == 24 && core_rec_len(8) == 24 &&
          core_rec_len(9) == 32);
    core_rec put = {CORE_REC_PUT | 7u << 8, 13, 40};
    CHECK(CORE_REC_KIND(&put) == CORE_REC_PUT && CORE_REC_SLOT(&put) == 7);
    CHECK(core_rec_bytes(&put) == 16 + 16);
    /* An hpput carries a pointer, whatever its size; HPPUT_DATA is laid out as a put. */
    core_rec hp = {CORE_REC_HPPUT, 1000, 0}, hpdata = {CORE_REC_HPPUT_DATA, 1000, 0};
    CHECK(core_rec_bytes(&hp) == 16 + 8);
    CHECK(core_rec_bytes(&hpdata) == 16 + 1000);
    /* A send: the tag (5 bytes, padded to 8) then 3 bytes of payload -> 11 -> 16. */
    core_rec send = {CORE_REC_SEND | 5u << 8, 3, 0};
    CHECK(CORE_REC_SLOT(&send) == 5 && core_rec_bytes(&send) == 16 + 16);

    /* A small put: an 8-byte header, so an 8-byte put takes 16 bytes, 13 take 24. */
    CHECK(core_small_put_fits(0xffff, UINT32_MAX, 64));
    CHECK(!core_small_put_fits(0x10000, 0, 8) && !core_small_put_fits(0, 1ull << 32, 8) &&
          !core_small_put_fits(0, 0, 65) && !core_small_put_fits(CORE_COLL_SLOT, 0, 8));
    uint64_t buf[8] = {0};
    char *data = core_rec_small_put((core_rec *)buf, 0xfffe, 4000000000u, 13);
    CHECK(data == (char *)buf + 8);
    memcpy(data, "thirteen byte", 13);
    core_rec_view v = core_rec_open((const core_rec *)buf);
    CHECK(v.kind == CORE_REC_PUT && v.slot == 0xfffe && v.size == 13 && v.offset == 4000000000u &&
          v.data == data && v.bytes == 8 + 16 && core_rec_bytes((const core_rec *)buf) == 24);
    CHECK(memcmp(v.data, "thirteen byte", 13) == 0);
    core_rec_small_put((core_rec *)buf, 3, 0, 8);
    CHECK(core_rec_bytes((const core_rec *)buf) == 16);
    /* The view of a full header: its fields as they are. */
    v = core_rec_open(&put);
    CHECK(v.kind == CORE_REC_PUT && v.slot == 7 && v.size == 13 && v.offset == 40 &&
          v.data == (const char *)(&put + 1) && v.bytes == 32);
    v = core_rec_open(&send);
    CHECK(v.kind == CORE_REC_SEND && v.slot == 5 && v.size == 3 && v.bytes == 32);
}

static void message_queue(void)
{
    core_msgq q = {0}, part = {0};
    CHECK(core_msgq_count(&q) == 0 && core_msgq_front(&q) == NULL && core_msgq_pop(&q) == NULL);
    core_msgq_push(&q, "t1", 2, "abc", 3);
    core_msgq_push(&q, "t2", 2, "de", 2);
    for (int i = 0; i < 100; i++) /* past the first allocation of 16 */
        core_msgq_push(&q, NULL, 0, "x", 1);
    CHECK(core_msgq_count(&q) == 102 && q.bytes == 105);
    CHECK(core_msgq_front(&q)->size == 3 && strcmp(core_msgq_front(&q)->tag, "t1") == 0);
    const core_msg *m = core_msgq_pop(&q);
    CHECK(m->size == 3 && memcmp(m->payload, "abc", 3) == 0);
    CHECK(core_msgq_count(&q) == 101 && q.bytes == 102);
    CHECK(core_msgq_front(&q)->size == 2 && core_msgq_front(&q)->tagsize == 2);
    /* A partition's part takes the queue as it stands. */
    core_msgq_take(&part, &q);
    CHECK(core_msgq_count(&q) == 0 && q.items == NULL && q.bytes == 0);
    CHECK(core_msgq_count(&part) == 101 && part.bytes == 102);
    core_msgq_clear(&part);
    CHECK(core_msgq_count(&part) == 0 && part.bytes == 0 && core_msgq_pop(&part) == NULL);
    core_msgq_free(&part);
    core_msgq_free(&q);
}

static void registrations(void)
{
    core_reg r;
    char a, b, c;
    core_reg_init(&r);
    CHECK(core_reg_push(&r, &a, 8) == 0 && core_reg_push(&r, &b, 8) == 1);
    /* A second push of a stacks on top: find and pop act on the top one. */
    CHECK(core_reg_push(&r, &a, 16) == 2 && core_reg_find(&r, &a) == 2);
    CHECK(core_reg_pop(&r, &a) == 2 && core_reg_find(&r, &a) == 0);
    CHECK(core_reg_pop(&r, &b) == 1 && core_reg_find(&r, &b) == -1);
    /* The lowest free slot is reused, the same on every process. */
    CHECK(core_reg_push(&r, &c, 4) == 1 && r.slots[1].size == 4);
    CHECK(core_reg_pop(&r, &b) == -1);
    core_reg_free(&r);
}

static void buffers(void)
{
    core_buf b = {0};
    for (int i = 0; i < 1000; i++) {
        memset(core_buf_reserve(&b, 24), i & 0xff, 24);
        core_buf_commit(&b, 24);
    }
    CHECK(b.len == 24000 && b.cap >= b.len);
    CHECK((unsigned char)b.data[23999] == (999 & 0xff) && (unsigned char)b.data[0] == 0);
    size_t cap = b.cap;
    core_buf_clear(&b);
    CHECK(b.len == 0 && b.cap == cap); /* the memory stays for the next superstep */
    core_buf_free(&b);
}

static void blame(void)
{
    /* bsp_sync (the lowest kind) by 1 and 2, bsp_end by 0 and 3: the culprit is
     * the lowest pid of the lowest kind, named about the lowest pid of another. */
    unsigned at[4] = {CORE_AT_END, CORE_AT_SYNC, CORE_AT_SYNC, CORE_AT_END};
    int culprit, other;
    core_blame_mixed(at, 1, 4, CORE_AT_SYNC | CORE_AT_END, &culprit, &other);
    CHECK(culprit == 1 && other == 0);
    /* The MPI engine gathers (call, ended) pairs: stride 2. */
    unsigned pairs[6] = {CORE_AT_PARTITION, 0, CORE_AT_PARTITION, 0, CORE_AT_SYNC, 1};
    core_blame_mixed(pairs, 2, 3, CORE_AT_SYNC | CORE_AT_PARTITION, &culprit, &other);
    CHECK(culprit == 2 && other == 0);
    /* Supersteps 5, 4, 4, 5: the lowest pid of the earliest (1), about pid 0. */
    unsigned long step[4] = {5, 4, 4, 5};
    int behind;
    core_blame_steps(step, 1, 4, &behind, &other);
    CHECK(behind == 1 && other == 0);
    unsigned long steps2[6] = {7, 0, 7, 1, 6, 0};
    core_blame_steps(steps2, 2, 3, &behind, &other);
    CHECK(behind == 2 && other == 0);
}

/* The clock advances with this thread's work (a loop that ends only when it
 * has: a clock that stood still would hang it, which the test's timeout
 * catches), and a read's cost is measured once and remembered. */
static void cpu_clock(void)
{
    double t0 = core_thread_cpu(), t = t0;
    volatile double sink = 0;
    while (t - t0 < 0.01) {
        for (int i = 0; i < 100000; i++)
            sink += i;
        double now = core_thread_cpu();
        CHECK(now >= t);
        t = now;
    }
    CHECK(sink > 0);
    double cost = core_thread_cpu_cost();
    CHECK(cost >= 0 && cost < t - t0);
    CHECK(core_thread_cpu_cost() == cost);
}

int main(void)
{
    records();
    message_queue();
    registrations();
    buffers();
    blame();
    cpu_clock();
    if (failures)
        return 1;
    printf("test_core: OK\n");
    return 0;
}
