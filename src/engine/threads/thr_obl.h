/* thr_obl — oblivious synchronisation (eng_oblsync) (PUB's bsp_oblsync; the execution model of
 * EBSP): a process ends its superstep once n messages for it have arrived, with no
 * barrier.
 *
 * Contract: at thr_oblsync a process hands each destination the messages it sent
 * this superstep (the buffer itself changes owner: no copy), tagged with its
 * superstep index in the group; then it waits until messages tagged with its own
 * index number at least n, and takes all of those as its queue for the next
 * superstep. Messages tagged with a later index wait for that superstep. Only
 * bsp_send may communicate in such a superstep. While waiting it stops the run
 * with one line if a member is blocked in another call (bsp_sync, bsp_end, ...)
 * at the same superstep, or if every member waits and none can be satisfied.
 */
#ifndef POLYBSP_THR_OBL_H
#define POLYBSP_THR_OBL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

struct core_proc;
struct core_ctx;

typedef struct thr_mail {
    struct thr_mail *next;
    unsigned long step;
    int src;
    size_t nmsgs;
    char *data;
    size_t len;
} thr_mail;

typedef struct thr_mailbox {
    pthread_mutex_t lock;
    thr_mail *head;
    atomic_uint arrivals; /* futex word: bumped at every delivery */
    /* The owner's wait, for the others' deadlock check (under lock). */
    int waiting;
    unsigned long wait_step;
    size_t need;
    thr_mail *taken; /* the queue of the current superstep, freed at the next sync */
} thr_mailbox;

int thr_mailbox_init(thr_mailbox *m);
void thr_mailbox_free(thr_mailbox *m);
/* Frees the messages taken at the last oblsync (their queue has expired). */
void thr_mailbox_release(thr_mailbox *m);
/* The end of an oblivious superstep (eng_superstep_done, once core has begun
 * the next one): with no barrier, the next superstep would write buffers that
 * a slow member may still read, so this waits until all have finished it. */
void thr_obl_done(struct core_ctx *c);

#endif
